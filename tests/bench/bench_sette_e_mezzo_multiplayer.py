"""Sette e Mezzo multiplayer: bots through the real seated-table core and database. Hands per
second at one 7-seat table, and across many tables at once in one process with the command
acknowledgement's p50/p99 (the goal: 500 tables, ack p99 <= 50 ms). Baseline in the same run:
the same bots on the pure table alone (no core, no database), so the ratio says what the core
and the database cost. A hand is one punter's stake settled against the banker.

    .venv/bin/python -m tests.bench.bench_sette_e_mezzo_multiplayer [--variant piatto]
        [--hands 3000] [--tables 500] [--seconds 20] [--think 1.0] [--database URL]

The many-table run is made twice: bots acting at once (the process's saturation: every table
always has a command waiting, so an ack waits for a whole batch of the others), then bots
taking `--think` seconds on average per decision (players' pace).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio import ledger
from studio.cards import DeckKind, deck
from studio.clock import ManualClock
from studio.games.sette_e_mezzo_multiplayer import table as tbl
from studio.games.sette_e_mezzo_multiplayer.game import GAME
from studio.runtime import tune_gc
from studio.storage import Store, audit
from studio.table import replay
from studio.table.rng_shoe import RngShoe
from studio.table.seated import SeatedTable, SeatedTables
from tests.mp_bots import bot_move
from tests.mp_harness import mp_config

SEATS = 7
BUY_IN = 50_000


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] if values else 0.0


def pure_hands_per_second(variant: str, hands: int) -> float:
    """The baseline: the bots on the pure table, cards from an RNG, no core, no I/O."""
    rng = random.Random(1)
    t = GAME.new_state(GAME.setup(mp_config(variant, seats=SEATS, buy_in_max=BUY_IN)))
    for i in range(SEATS):
        t = tbl.step(t, {"type": "sit", "player": f"p{i}", "amount": BUY_IN}).table
    cards: list[Any] = []
    played = 0
    started = time.perf_counter()
    while played < hands:
        need = tbl.needs(t)
        if need == "shuffle" or (need == "card" and not cards):
            cards = deck(DeckKind.ITALIAN_40)
            rng.shuffle(cards)
            t = tbl.step(t, {"type": "shuffle"}).table
        elif need == "card":
            c = cards.pop()
            if tbl.card_usable(t, c.code):
                t = tbl.step(t, {"type": "card", "card": c.code}).table
        else:
            move = bot_move(t, rng)
            if move is None:  # everyone broke: buy in again
                for p in t.players:
                    t = tbl.step(t, {"type": "rebuy", "player": p, "amount": BUY_IN}).table
                continue
            played += move["type"] == "stake"
            t = tbl.step(t, move).table
    return hands / (time.perf_counter() - started)


async def keep_full(table: SeatedTable, n: int) -> None:
    """Broke players buy in again; players stood up (three banks skipped with no credit) sit
    down again: the table stays at its seven players."""
    s = table.state
    for p in s.players:
        if s.credit(p) == 0 and s.bank is None:
            await table.act(p, {"type": "rebuy", "amount": BUY_IN}, uuid.uuid4().hex)
    for i in range(SEATS):
        if f"n{n}p{i}" not in table.state.seats:
            await table.act(f"n{n}p{i}", {"type": "sit", "amount": BUY_IN}, uuid.uuid4().hex)


async def bots_at(table: SeatedTable, n: int, rng: random.Random, stop: float, hands: int,
                  lat: list[float], think: float = 0.0) -> int:
    """Bots play at one table until `stop` (perf_counter) or `hands` stakes; `think`: the
    mean seconds a bot takes to decide (0: at once, the table's saturation)."""
    played = 0
    while played < hands and time.perf_counter() < stop:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        if table.state.bank is None:
            await keep_full(table, n)
        move = bot_move(table.state, rng)
        if move is None:
            for p in table.state.players:
                await table.act(p, {"type": "rebuy", "amount": BUY_IN}, uuid.uuid4().hex)
            if bot_move(table.state, rng) is None:
                return played
            continue
        player = move.pop("player")
        t0 = time.perf_counter()
        answer = await table.act(player, move, uuid.uuid4().hex)
        lat.append(time.perf_counter() - t0)
        if not answer["ok"]:
            raise AssertionError(answer)
        played += move["type"] == "stake"
    return played


async def run(variant: str, tables: int, hands: int, seconds: float, database: str,
              think: float = 0.0) -> dict[str, float]:
    clock = ManualClock()
    store = Store.open(database, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    group = SeatedTables(store, clock)
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c{n}/{i}", f"n{n}p{i}", 10**9)
                                for n in range(tables) for i in range(SEATS)])
    rng = random.Random(2)
    made = []
    for n in range(tables):
        cfg = mp_config(variant, id=f"mp-{n}", seats=SEATS, buy_in_max=BUY_IN)
        made.append(group.add(cfg, rng_shoe=RngShoe(random.Random(rng.random()))))
    group.start()
    for n, t in enumerate(made):  # everyone sits down (not timed)
        for i in range(SEATS):
            await t.act(f"n{n}p{i}", {"type": "sit", "amount": BUY_IN}, f"sit-{n}-{i}")
    tune_gc()
    lat: list[float] = []
    started = time.perf_counter()
    stop = started + seconds
    played = await asyncio.gather(*(bots_at(t, n, random.Random(n), stop, hands, lat, think)
                                    for n, t in enumerate(made)))
    elapsed = time.perf_counter() - started
    await group.stop()
    report = audit.verify(store, replayers=replay.replayers(),
                          games={f"table:{t.table_id}": GAME.name for t in made})
    store.dispose()
    return {"hands": sum(played), "elapsed": elapsed, "commands": len(lat),
            "p50": pct(lat, 50), "p99": pct(lat, 99), "batches": group.batches,
            "audit_ok": report.ok, "rounds": report.rounds_replayed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="piatto", choices=["piatto", "classica"])
    ap.add_argument("--hands", type=int, default=3000, help="hands at the single table")
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the many-table run")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a bot takes to decide in the paced many-table run")
    ap.add_argument("--database", help="database URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        def url(name: str) -> str:
            return args.database or f"sqlite:///{Path(tmp) / name}"
        base = pure_hands_per_second(args.variant, args.hands)
        one = asyncio.run(run(args.variant, 1, args.hands, 1e9, url("one.db")))
        print(f"Sette e Mezzo multiplayer ({args.variant}), bots through the real seated "
              "table and database")
        print(f"  one {SEATS}-seat table: {one['hands'] / one['elapsed']:,.0f} hands/s "
              f"({one['hands']} hands, {one['commands']} commands, ack p50 "
              f"{1000 * one['p50']:.2f} ms, p99 {1000 * one['p99']:.2f} ms; audit "
              f"{'ok' if one['audit_ok'] else 'FAILED'}, {one['rounds']} banks replayed)")
        print(f"  baseline, the pure table alone: {base:,.0f} hands/s "
              f"(the core and the database cost x{base / (one['hands'] / one['elapsed']):.1f})")
        for think in (0.0, args.think):
            many = asyncio.run(run(args.variant, args.tables, 10**9, args.seconds,
                                   url(f"many-{think}.db"), think))
            pace = "bots acting at once" if not think else f"bots thinking {think:g} s on average"
            print(f"  {args.tables} tables at once in one process, {pace}, "
                  f"{many['elapsed']:.1f} s: {many['hands'] / many['elapsed']:,.0f} hands/s, "
                  f"{many['commands'] / many['elapsed']:,.0f} commands/s in "
                  f"{many['batches']} commits; ack p50 {1000 * many['p50']:.1f} ms, "
                  f"p99 {1000 * many['p99']:.1f} ms (goal <= 50 ms); audit "
                  f"{'ok' if many['audit_ok'] else 'FAILED'}, {many['rounds']} banks replayed")


if __name__ == "__main__":
    main()
