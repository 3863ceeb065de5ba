"""Benchmarks of the table actor on SQLite (a real file, WAL, synchronous=FULL).

    .venv/bin/python -m tests.bench.bench_table [--rounds 50] [--players 10000]

1. Rounds per second through the table actor, 100 players on 3 positions (bots: best play,
   random, disconnected), against the pure round (no database, no actor) in the same run.
2. One betting window, 10,000 players x 3 bets (main on three positions), through the actor:
   (a) every command submitted at once: bets durably accepted per second;
   (b) commands arriving at 20,000 bets/s in 10 ms ticks: acknowledgement latency p50/p99
   (from submission to the answer, which is sent only after the commit);
   baseline: commands one at a time (one transaction each).
   Goals: >= 20,000 bets/s, p99 <= 50 ms.
3. Settlement of 30,000 bets: time from the dealer's last card to every balance updated (the
   commit, dated by the first publication, which follows it), and to every player told (the
   actor idle again). Baseline: the pure round's settlement, no database. Goal: <= 1 s.

The studio process's collector settings (`studio.runtime.tune_gc`, as `studio demo` applies
them) are used; `--default-gc` keeps CPython's defaults to show what they give.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from studio import ledger
from studio.cards import DeckKind, deck, parse_card
from studio.clock import ManualClock
from studio.games.sette_e_mezzo_live import round as core
from studio.games.sette_e_mezzo_live.game import GAME
from studio.runtime import tune_gc
from studio.simulation.through_table import run as through_table
from studio.simulation.through_table import table_config
from studio.storage import Store
from studio.table.actor import TableActor
from studio.table.hub import Hub


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def pure_rounds_per_second(players: int, positions: int, rounds: int) -> float:
    rules = GAME.table_rules(table_config(positions, None))
    rng = random.Random(1)
    started = time.perf_counter()
    for n in range(rounds):
        state, _ = core.open_round(f"R{n}", rules, 1e12)
        book = core.BetBook(rules, 1e12)
        for i in range(players):
            book.add(book.check(core.PlaceBet(f"b{i}", f"p{i}", 1 + i % positions,
                                              core.BetKind.MAIN, 100, 0.0)))
        state, _ = core.step(state, core.CloseBetting(0.0, book.close()))
        state, _ = core.step(state, core.OpenDeck("D"))
        cards = deck(DeckKind.ITALIAN_40)
        rng.shuffle(cards)
        it = iter(cards)
        while not state.finished:
            if state.expecting() is not None:
                state, _ = core.step(state, core.CardSeen(next(it), "rng"))
            else:
                for p in state.deciders():
                    if p in state.deciders():
                        state, _ = core.step(state, core.Decide(p, state.deciding,
                                                                rng.random() < 0.5))
    return rounds / (time.perf_counter() - started)


def sqlite_store(workdir: Path, name: str, clock: ManualClock) -> Store:
    return Store.open(f"sqlite:///{workdir / name}.db",
                      clock=lambda: datetime.fromtimestamp(clock.now(), UTC))


async def new_actor(workdir: Path, name: str, players: int, positions: int = 3,
                    open_store=sqlite_store) -> tuple[TableActor, ManualClock, Store]:
    """The Sette e Mezzo table with `players` credited, its window open for an hour, on the
    database `open_store(workdir, name, clock)` gives (SQLite by default)."""
    clock = ManualClock()
    store = open_store(workdir, name, clock)
    cfg = table_config(positions, None).model_copy(update={"card_source": "manual"})
    cfg = cfg.model_copy(update={"timers": cfg.timers.model_copy(update={
        "betting_window_s": 3600.0})})
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c{i}", f"p{i}", 10**8) for i in range(players)])
    actor = TableActor(cfg, store, clock, Hub())
    await actor.start()
    await actor.dealer("bench", "start", "start")
    await actor.drain()
    return actor, clock, store


def bets_of(i: int) -> list[dict]:
    return [{"position": n, "kind": "main", "amount": 100 + 100 * (i % 5)} for n in (1, 2, 3)]


async def betting_window(workdir: Path, players: int, make=None, bets=None
                         ) -> dict[str, float]:
    """make(workdir, name, players) -> (actor, clock, store) and bets(i) -> player i's bets
    (three): another table's window (default: Sette e Mezzo's, main on three positions)."""
    make, bets_of = make or new_actor, bets or globals()["bets_of"]
    out: dict[str, float] = {}
    # (baseline) one command at a time: every command its own transaction
    actor, _, store = await make(workdir, "baseline", 300)
    started = time.perf_counter()
    for i in range(300):
        assert (await actor.place_bets(f"p{i}", bets_of(i), uuid.uuid4().hex))["ok"]
    out["baseline_bets_s"] = 900 / (time.perf_counter() - started)
    await actor.stop()
    store.dispose()

    # (a) all at once
    actor, _, store = await make(workdir, "burst", players)
    started = time.perf_counter()
    answers = await asyncio.gather(*(actor.place_bets(f"p{i}", bets_of(i), uuid.uuid4().hex)
                                     for i in range(players)))
    seconds = time.perf_counter() - started
    assert all(a["ok"] for a in answers), next(a for a in answers if not a["ok"])
    out["burst_bets_s"] = 3 * players / seconds
    await actor.stop()
    store.dispose()

    # (b) paced at 20,000 bets/s: 10 ms ticks of 200 bets (67 commands of 3 bets)
    actor, _, store = await make(workdir, "paced", players)
    latencies: list[float] = []

    async def one(i: int) -> None:
        t = time.perf_counter()
        a = await actor.place_bets(f"p{i}", bets_of(i), uuid.uuid4().hex)
        assert a["ok"], a
        latencies.append(time.perf_counter() - t)

    tasks = []
    per_tick = 67
    started = time.perf_counter()
    for tick, first in enumerate(range(0, players, per_tick)):
        tasks += [asyncio.create_task(one(i)) for i in range(first, min(players, first + per_tick))]
        delay = started + (tick + 1) * 0.010 - time.perf_counter()
        await asyncio.sleep(max(delay, 0))  # the benchmark paces arrivals in real time
    await asyncio.gather(*tasks)
    seconds = time.perf_counter() - started
    out["paced_bets_s"] = 3 * players / seconds
    out["paced_p50_ms"] = 1000 * statistics.median(latencies)
    out["paced_p99_ms"] = 1000 * pct(latencies, 99)
    await actor.stop()
    store.dispose()
    return out


async def settlement(workdir: Path, players: int, make=new_actor) -> dict[str, float]:
    actor, clock, store = await make(workdir, "settle", players)
    answers = await asyncio.gather(*(actor.place_bets(f"p{i}", bets_of(i), uuid.uuid4().hex)
                                     for i in range(players)))
    assert all(a["ok"] for a in answers)
    clock.advance(3600.0)
    await actor.drain()
    for code in ("Jc", "7c", "7b", "7s", "2c"):  # burn, three positions at 7, dealer 2
        actor.card_seen(code, "shoe")
        await actor.drain()
    while actor.state.phase is core.Phase.DECISIONS:  # everyone stands on the timer
        clock.advance(actor.cfg.timers.decision_s)
        await actor.drain()
    actor.card_seen("Ac", "shoe")  # dealer 3
    await actor.drain()
    return await timed_settlement(actor, store, "3d",  # dealer 6: stands; every bet settles
                                  lambda state, card: core.step(state, core.CardSeen(card, "shoe")),
                                  3 * players)


async def timed_settlement(actor: TableActor, store: Store, last: str, pure_step,
                           bets: int) -> dict[str, float]:
    """The dealer's last card `last`, timed: to every balance updated (the commit, dated by the
    first publication, which follows it) and to every player told (the actor idle again);
    the baseline is `pure_step(state, card)`, the same settlement in the pure round alone."""
    pure_state = actor.state
    committed: list[float] = []

    def on_event(table_id: str, audience: str, event: dict) -> None:
        if event["type"] in actor.game.settlement_events and not committed:
            committed.append(time.perf_counter())
    actor.hub.subscribe(on_event)
    started = time.perf_counter()
    actor.card_seen(last, "shoe")
    await actor.drain()
    told = time.perf_counter() - started
    assert actor.state.finished
    with store.reader() as tx:
        assert not ledger.open_reservations(tx)
    t = time.perf_counter()
    pure_step(pure_state, parse_card(last))
    pure = time.perf_counter() - t
    await actor.stop()
    store.dispose()
    return {"settle_s": committed[0] - started, "told_s": told, "pure_settle_s": pure,
            "bets": bets}


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as d:
        workdir = Path(d)
        pure = pure_rounds_per_second(100, 3, args.rounds)
        r = await through_table(args.rounds, 100, 3, seed=1,
                                database=f"sqlite:///{workdir / 'rounds.db'}")
        actor_rps = r.rounds / r.seconds
        print(f"1. rounds/s, 100 players on 3 positions: actor on SQLite {actor_rps:.1f}; "
              f"pure round {pure:.1f} (the actor runs at {actor_rps / pure:.3f}x the pure core)"
              f"; ledger ok: {r.ok}")
        w = await betting_window(workdir, args.players)
        print(window_line(f"2. betting window, {args.players} players x 3 bets", w))
        await print_settlement("3.", workdir, args.repeat, lambda d: settlement(d, args.players))


def window_line(what: str, w: dict[str, float]) -> str:
    """One betting window's figures (`betting_window`), printed after `what`."""
    return (f"{what}: all at once {w['burst_bets_s']:,.0f} bets/s; paced at 20,000/s: "
            f"{w['paced_bets_s']:,.0f} bets/s, ack p50 {w['paced_p50_ms']:.1f} ms, "
            f"p99 {w['paced_p99_ms']:.1f} ms; baseline one command per transaction "
            f"{w['baseline_bets_s']:,.0f} bets/s (all at once = "
            f"{w['burst_bets_s'] / w['baseline_bets_s']:.1f}x baseline). "
            "Goal >= 20,000 bets/s, p99 <= 50 ms")


async def print_settlement(label: str, workdir: Path, repeat: int, run) -> None:
    """`run(dir)` `repeat` times (one run swings with the host), the median printed."""
    runs = []
    for n in range(repeat):
        sub = workdir / f"settle{n}"
        sub.mkdir()
        runs.append(await run(sub))
    s = sorted(runs, key=lambda r: r["settle_s"])[len(runs) // 2]
    each = ", ".join(f"{r['settle_s']:.3f}" for r in runs)
    print(f"{label} settlement of {s['bets']:,} bets (committed, runs: {each} s; the median "
          f"follows), dealer's last card -> every balance updated: {s['settle_s']:.3f} s, "
          f"every player told: {s['told_s']:.3f} s (pure round alone "
          f"{s['pure_settle_s']:.3f} s; {s['settle_s'] / s['pure_settle_s']:.1f}x). "
          "Goal <= 1 s")


def run_table_bench(main_async) -> None:
    """A live table's benchmark: --players, --repeat, the studio's collector settings, then
    `main_async(args)`."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3, help="settlement runs (the median shown)")
    args = ap.parse_args()
    tune_gc()  # the settings `studio demo` runs the tables with
    asyncio.run(main_async(args))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3, help="settlement runs (the median is shown)")
    ap.add_argument("--default-gc", action="store_true",
                    help="keep CPython's default collector settings (to see what tuning gives)")
    args = ap.parse_args()
    if not args.default_gc:
        tune_gc()  # the settings `studio demo` runs the tables with
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
