"""Benchmarks of the live Blackjack table (bj-live-1) on SQLite: seven seats, each taken by a
player, and 10,000 players betting behind them, as bench_table measures the other tables:

    .venv/bin/python -m tests.bench.bench_blackjack_live [--players 10000]

1. One betting window, 10,000 players x 3 bets behind three seats, through the actor: all at
   once; paced at 20,000 bets/s (ack latency p50/p99); baseline one command per transaction.
   Goals: >= 20,000 bets/s, p99 <= 50 ms.
2. A seated player's double that every bet behind the seat follows (each follower's stake
   reserved in the decision's transaction), against a decision that adds no money (stay).
3. Every player's state after a card (what each connected player is sent), against the
   scan of the round's bets each state did before the actor indexed them.
4. Settlement of the round: every seat and every bet behind (30,000+ bets), from the dealer's
   last card to every balance updated (the commit) and to every player told; baseline: the
   pure round's settlement. Goal: <= 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from studio import ledger
from studio.clock import ManualClock
from studio.config import load_config
from studio.games.blackjack import round as core
from studio.storage import Store
from studio.table.actor import TableActor
from studio.table.hub import Hub
from tests.bench.bench_table import (
    betting_window,
    print_settlement,
    run_table_bench,
    timed_settlement,
    window_line,
)

SEATS = 7
# seat 1 gets 5 6 (11: it doubles), the others 18
FIRST = ["5c", "Tc", "Td", "Tb", "Ts", "Kc", "Kd"]
SECOND = ["6c", "8c", "8d", "8b", "8s", "8c", "8d"]
UP, HOLE, DOUBLE_CARD, LAST = "6s", "Tb", "Td", "8b"  # the dealer: 6 T, then 8: bust


async def new_actor(workdir: Path, name: str, players: int
                    ) -> tuple[TableActor, ManualClock, Store]:
    """A table with its seven seats taken (players seat1..seat7) and `players` players with
    credit (p0..), the betting window open for an hour."""
    clock = ManualClock()
    store = Store.open(f"sqlite:///{workdir / name}.db",
                       clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    cfg = load_config().table("bj-live-1")
    cfg = cfg.model_copy(update={"card_source": "manual", "timers": cfg.timers.model_copy(
        update={"betting_window_s": 3600.0, "decision_s": 3600.0})})
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c{i}", f"p{i}", 10**8) for i in range(players)]
                           + [ledger.Credit(f"s{n}", f"seat{n}", 10**8)
                              for n in range(1, SEATS + 1)])
    actor = TableActor(cfg, store, clock, Hub())
    await actor.start()
    actor.deck_ready("SHOE1")
    await actor.dealer("bench", "start", "start")
    await actor.drain()
    for n in range(1, SEATS + 1):
        answer = await actor.place_bets(f"seat{n}", [
            {"position": n, "kind": "main", "amount": 1000}], f"seat{n}")
        assert answer["ok"], answer
    return actor, clock, store


def bets_of(i: int) -> list[dict]:
    """Three bets behind: seat 1 and two others (so seat 1 carries every player)."""
    others = (2 + i % 6, 2 + (i + 3) % 6)
    return [{"position": 1, "kind": "behind", "amount": 1000 + 100 * (i % 7)},
            *({"position": n, "kind": "behind", "amount": 500} for n in others)]


async def deal(actor: TableActor, codes: list[str]) -> None:
    for code in codes:
        actor.card_seen(code, "shoe")
        await actor.drain()


async def decide_timed(actor: TableActor, seat: int, choice: str) -> float:
    started = time.perf_counter()
    answer = await actor.decide(f"seat{seat}", seat, choice, uuid.uuid4().hex)
    assert answer["ok"], answer
    return time.perf_counter() - started


async def round_to_last_card(workdir: Path, players: int
                             ) -> tuple[TableActor, ManualClock, Store, dict[str, float]]:
    """The window filled, the deal, seat 1's double (followed) and the other seats' stays:
    the table waits for the dealer's last card."""
    actor, clock, store = await new_actor(workdir, "round", players)
    answers = await asyncio.gather(*(actor.place_bets(f"p{i}", bets_of(i), uuid.uuid4().hex)
                                     for i in range(players)))
    assert all(a["ok"] for a in answers)
    clock.advance(3600.0)
    await actor.drain()
    await deal(actor, ["Qd", *FIRST, UP, *SECOND, HOLE])  # the burn, then the deal
    times = {"double_s": await decide_timed(actor, 1, "double")}
    await deal(actor, [DOUBLE_CARD])
    stays = [await decide_timed(actor, n, "stay") for n in range(2, SEATS + 1)]
    times["stay_s"] = statistics.median(stays)
    followed = sum(1 for p in actor.state.placements
                   if p.placement_id.endswith("/1/behind-double0"))
    times["followers"] = followed
    return actor, clock, store, times


def every_players_state(actor: TableActor, players: int) -> dict[str, float]:
    """The state every connected player is sent after a burst of events (the snapshot of
    the table for that player), all of them; baseline: a player's bets found by scanning the
    round's placements, as the actor did before its index (on a sample: it is quadratic)."""
    started = time.perf_counter()
    for i in range(players):
        actor.snapshot(f"player:p{i}")
    indexed = time.perf_counter() - started
    placements, sample = actor.state.placements, min(players, 500)
    started = time.perf_counter()
    for i in range(sample):
        player = f"p{i}"
        [{"position": p.position, "kind": str(p.kind), "amount": p.amount}
         for p in placements if p.player == player]
    scan = time.perf_counter() - started
    return {"indexed_s": indexed, "scan_s": scan, "sample": sample, "bets": len(placements)}


async def settlement(workdir: Path, players: int) -> dict[str, float]:
    actor, _, store, _ = await round_to_last_card(workdir, players)
    bets = len(actor.state.placements)
    return await timed_settlement(
        actor, store, LAST, lambda state, card: core.step(state, core.CardSeen(card, "shoe")),
        bets)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as d:
        workdir = Path(d)
        w = await betting_window(workdir, args.players, new_actor, bets_of)
        print(window_line(f"1. Blackjack live betting window, 7 seats and {args.players} players x 3 bets behind", w))
        sub = workdir / "decisions"
        sub.mkdir()
        actor, _, store, times = await round_to_last_card(sub, args.players)
        states = every_players_state(actor, args.players)
        await actor.stop()
        store.dispose()
        print(f"2. seat 1 doubles and {times['followers']:,} bets behind it follow (each "
              f"follower's stake reserved with the decision): {times['double_s'] * 1000:.0f} ms"
              f"; a stay that adds no money (median of 6): {times['stay_s'] * 1000:.1f} ms "
              f"({times['double_s'] / times['stay_s']:.0f}x)")
        print(f"3. every player's state after a card ({args.players:,} players, "
              f"{states['bets']:,} bets in the round): {states['indexed_s'] * 1000:.0f} ms; "
              f"each state scanning the round's bets (before the index) "
              f"{states['scan_s'] * 1000:.0f} ms for {states['sample']:,} players, "
              f"{states['scan_s'] / states['sample'] * args.players:.1f} s for all "
              f"({states['scan_s'] / states['sample'] * args.players / states['indexed_s']:.0f}x)")
        await print_settlement("4.", workdir, args.repeat,
                               lambda d: settlement(d, args.players))


def main() -> None:
    run_table_bench(main_async)


if __name__ == "__main__":
    main()
