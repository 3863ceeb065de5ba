"""Benchmarks of the live Punto e Banco table (pb-live-1) on SQLite, as bench_table measures
the Sette e Mezzo table:

    .venv/bin/python -m tests.bench.bench_punto_e_banco_live [--players 10000]

1. One betting window, 10,000 players x 3 bets (Punto or Banco, Pari, a pair) through the
   actor: all at once; paced at 20,000 bets/s (ack latency p50/p99); baseline one command per
   transaction. Goals: >= 20,000 bets/s, p99 <= 50 ms.
2. Settlement of 30,000 bets: from the dealer's last card to every balance updated (the commit)
   and to every player told; baseline: the pure round's settlement. Goal: <= 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid
from datetime import UTC, datetime
from pathlib import Path

from studio import ledger
from studio.clock import ManualClock
from studio.config import load_config
from studio.games.punto_e_banco import round as core
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


async def new_actor(workdir: Path, name: str, players: int
                    ) -> tuple[TableActor, ManualClock, Store]:
    clock = ManualClock()
    store = Store.open(f"sqlite:///{workdir / name}.db",
                       clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    cfg = load_config().table("pb-live-1")
    cfg = cfg.model_copy(update={"card_source": "manual", "timers": cfg.timers.model_copy(
        update={"betting_window_s": 3600.0})})
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c{i}", f"p{i}", 10**8) for i in range(players)])
    actor = TableActor(cfg, store, clock, Hub())
    await actor.start()
    actor.deck_ready("SHOE1")
    await actor.dealer("bench", "start", "start")
    await actor.drain()
    return actor, clock, store


def bets_of(i: int) -> list[dict]:
    side = ("punto", "punto_pair") if i % 2 else ("banco", "banco_pair")
    return [{"kind": side[0], "amount": 1001 + 100 * (i % 7)}, {"kind": "pari", "amount": 100},
            {"kind": side[1], "amount": 100}]


async def settlement(workdir: Path, players: int) -> dict[str, float]:
    actor, clock, store = await new_actor(workdir, "settle", players)
    answers = await asyncio.gather(*(actor.place_bets(f"p{i}", bets_of(i), uuid.uuid4().hex)
                                     for i in range(players)))
    assert all(a["ok"] for a in answers)
    clock.advance(3600.0)
    await actor.drain()
    for code in ("Qd", "3c", "4b", "3d"):  # the burn; Punto 3 3 (6), Banco 4 and then...
        actor.card_seen(code, "shoe")
        await actor.drain()
    return await timed_settlement(  # Banco 4 4: 8, a natural and a pair; every bet settles
        actor, store, "4s", lambda state, card: core.step(state, core.CardSeen(card, "shoe")),
        3 * players)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as d:
        workdir = Path(d)
        w = await betting_window(workdir, args.players, new_actor, bets_of)
        print(window_line(f"1. Punto e Banco live betting window, {args.players} players x 3 bets", w))
        await print_settlement("2.", workdir, args.repeat,
                               lambda d: settlement(d, args.players))


def main() -> None:
    run_table_bench(main_async)


if __name__ == "__main__":
    main()
