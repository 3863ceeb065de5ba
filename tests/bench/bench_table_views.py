"""The table process's work per card for the edges: the players' views a card may have changed,
found and built (`TableBridge._changed` over the players the bridge names after each burst:
those the game says the card may have changed, else every player in the round), with N players betting on Sette e Mezzo Live's three positions. The edges hold
their players' states until these views are in, so this time is on every card's way to the
players.

    .venv/bin/python -m tests.bench.bench_table_views [--players 10000] [--repeats 3]

Two ways in the same run, on the same table and cards: the baseline as the code was before the
fifth session (every player in the round named after each card, every one's key asked, and each
changed view built and encoded per player: `personal_changes` answering None, no view
shared), then today's (the
game names whose views a card may change; players keyed alike share one view). Each card's
figure is CPU time (time.process_time), the median over --repeats passes; the views are
checked equal both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from studio import ledger
from studio.cluster.bridge import TableBridge
from studio.storage import Store
from tests.table_harness import Harness

CARDS = ("7b", "5c", "6d", "7s", "4b")  # the burn, positions 1-3, the dealer


def baseline(actor) -> None:  # type: ignore[no-untyped-def]
    """The actor as before: no game's word on whose views changed, no view shared."""
    actor.game.personal_changes = lambda before, after: None
    actor._keyed_part = lambda player, key: (actor.personal(player), None)


async def table(players: int, db: Path) -> Harness:
    store = Store.open(f"sqlite:///{db}")
    h = Harness(store)
    names = [f"p{i}" for i in range(players)]
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c-{p}", p, 100_000) for p in names])
    await h.start()
    for i in range(0, players, 500):
        answers = await asyncio.gather(*(h.actor.place_bets(
            p, [{"position": 1 + n % 3, "kind": "main", "amount": 100 * (1 + n % 7)}],
            uuid.uuid4().hex) for n, p in enumerate(names[i:i + 500], start=i)))
        assert all(a["ok"] for a in answers)
    await h.close_betting()
    return h


async def run(players: int, repeats: int, today: bool) -> tuple[list[float], list[dict]]:
    """CPU ms per card (median over `repeats` tables) and the views after the last card."""
    per_card: list[list[float]] = [[] for _ in CARDS]
    views: list[dict] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as d:
            h = await table(players, Path(d) / "studio.db")
            if not today:
                baseline(h.actor)
            bridge = TableBridge(h.actor, nc=None)
            everyone = sorted(h.actor.round_players())
            bridge._changed(everyone)
            seen = h.actor.state
            for i, code in enumerate(CARDS):
                await h.cards(code)
                t0 = time.process_time()
                changed = h.actor.views_changed_since(seen) if today else None
                bridge._changed(everyone if changed is None else list(changed))
                per_card[i].append((time.process_time() - t0) * 1000)
                seen = h.actor.state
            views = [h.actor.personal(p) for p in everyone[:50]]
            await h.actor.stop()
            if not today:
                del h.actor.game.personal_changes
            h.store.dispose()
    return [statistics.median(c) for c in per_card], views


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    before, views_before = await run(args.players, args.repeats, today=False)
    after, views_after = await run(args.players, args.repeats, today=True)
    assert views_before == views_after
    print(f"{args.players:,} players on three positions, the views each card may change "
          f"(CPU ms, median of {args.repeats}):")
    for code, b, a in zip(CARDS, before, after, strict=True):
        print(f"  card {code}: baseline {b:7.1f} ms   today {a:7.1f} ms   x{a / b:.2f}")
    b, a = statistics.median(before[1:]), statistics.median(after[1:])
    print(f"the dealt cards (not the burn), median: baseline {b:.1f} ms, today {a:.1f} ms, "
          f"x{a / b:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
