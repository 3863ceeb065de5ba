"""Private tables: Quota Fissa hands per second through the real actor and database in one
process, and how many open private tables one process holds while each answers a command at
p99 <= 50 ms. Baseline in the same run: the same hands through the pure round alone (no actor,
no database), so the ratio says what the table core costs.

    .venv/bin/python -m tests.bench.bench_private_tables [--hands 4000] [--tables 200]
        [--open 5000] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from studio import ledger
from studio.clock import ManualClock
from studio.config import load_config
from studio.games.sette_e_mezzo_quota_fissa import round as qf
from studio.games.sette_e_mezzo_quota_fissa.game import GAME
from studio.runtime import tune_gc
from studio.simulation.quota_fissa_through_table import run as through
from studio.storage import Store
from studio.table.hub import Hub
from studio.table.private import PrivateTables
from studio.table.rng_shoe import RngShoe
from studio.table.seam import CardSeen, CloseBetting, Decide, OpenDeck, Placement


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def pure_hands_per_second(hands: int) -> float:
    """The baseline: hands through the pure round (stand when allowed), no actor, no I/O."""
    rules = GAME.table_rules(load_config().first_table("sette-e-mezzo-quota-fissa"))
    shoe = RngShoe(random.Random(1))
    started = time.perf_counter()
    for n in range(hands):
        s, _ = qf.open_round(f"R{n}", rules, 1e12)
        s, _ = qf.step(s, CloseBetting(0.0, (Placement("b", "p", 1, "main", 100),)))
        s, _ = qf.step(s, OpenDeck(f"d{n}"))
        shoe.new_deck(f"d{n}")
        while not s.finished:
            if s.awaiting_decision:
                s, _ = qf.step(s, Decide("p", 1, "stai" not in s.choices()))
            else:
                s, _ = qf.step(s, CardSeen(shoe.next_card(), "rng"))
    return hands / (time.perf_counter() - started)


async def open_tables(count: int, commands: int, database: str) -> dict[str, float]:
    """Open `count` private tables, then deal hands on tables drawn at random, 50 at once."""
    clock = ManualClock()
    store = Store.open(database, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    cfg = load_config().first_table("sette-e-mezzo-quota-fissa")
    private = PrivateTables(cfg, store, clock, Hub(), shoe=lambda: RngShoe(random.Random()))
    players = [f"o{i:05d}" for i in range(count)]
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c/{p}", p, 1_000_000) for p in players])
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    for p in players:
        await private.open(p)
    opened_s = time.perf_counter() - started
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    latencies: list[float] = []
    rng = random.Random(2)
    sem = asyncio.Semaphore(50)

    async def one(player: str) -> None:
        async with sem:
            actor = private.instances[player].actor
            if actor.state is not None and not actor.state.finished:
                t0 = time.perf_counter()
                await actor.decide(player, 1, "carta" if "stai" not in actor.state.choices()
                                   else "stai", uuid.uuid4().hex)
            else:
                t0 = time.perf_counter()
                await actor.deal(player, 100, uuid.uuid4().hex)
            latencies.append(time.perf_counter() - t0)

    started = time.perf_counter()
    await asyncio.gather(*(one(rng.choice(players)) for _ in range(commands)))
    seconds = time.perf_counter() - started
    await private.stop()
    store.dispose()
    return {"open_s": opened_s, "kb_per_table": (rss1 - rss0) / count,
            "p50_ms": 1000 * pct(latencies, 50), "p99_ms": 1000 * pct(latencies, 99),
            "commands_per_s": commands / seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--open", type=int, default=5000)
    ap.add_argument("--commands", type=int, default=2000)
    ap.add_argument("--database", default=None)
    args = ap.parse_args()
    tune_gc()
    with tempfile.TemporaryDirectory() as tmp:
        db1 = args.database or f"sqlite:///{Path(tmp) / 'hands.db'}"
        db2 = args.database or f"sqlite:///{Path(tmp) / 'open.db'}"
        base = pure_hands_per_second(args.hands)
        r, _ = asyncio.run(through(args.hands, args.tables, 5, db1, audit_log=False))
        rate = r.hands / r.seconds
        lat = sorted(r.latencies)
        print(f"Quota Fissa hands through the real actor and database "
              f"({args.tables} private tables at once, {r.hands} hands):")
        print(f"  {rate:,.0f} hands/s; command ack p50 {1000 * pct(lat, 50):.1f} ms, "
              f"p99 {1000 * pct(lat, 99):.1f} ms  (goal >= 2,000 hands/s)")
        print(f"  baseline, the pure round alone: {base:,.0f} hands/s "
              f"(the table core costs x{base / rate:.1f})")
        o = asyncio.run(open_tables(args.open, args.commands, db2))
        print(f"{args.open} open private tables in one process: opened in {o['open_s']:.1f} s, "
              f"~{o['kb_per_table']:.0f} KB each;")
        print(f"  {args.commands} commands on tables drawn at random, 50 at once: "
              f"{o['commands_per_s']:,.0f}/s, ack p50 {o['p50_ms']:.1f} ms, "
              f"p99 {o['p99_ms']:.1f} ms  (goal: p99 <= 50 ms at >= 5,000 tables)")


if __name__ == "__main__":
    main()
