"""The table's writes on PostgreSQL, the production database, against SQLite in the same run:

    .venv/bin/python -m tests.bench.bench_postgres [--players 10000] [--database URL]

URL: STUDIO_TEST_DATABASE_URL, else postgresql+psycopg://postgres@127.0.0.1:5432/test (each
run works in schemas of its own, dropped after). Measured through the real table actor, as
bench_table measures SQLite:

1. the event log: events appended per second, one per transaction and 100 per transaction;
2. a betting window of 10,000 players x 3 bets (all at once; one command per transaction as
   the baseline), the ledger's reservations;
3. settlement of 30,000 bets (to the commit, to every player told);
4. `studio audit verify` of what the run wrote (the hash chain, the books, every round
   replayed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine

from studio.clock import ManualClock
from studio.runtime import tune_gc
from studio.storage import Store, audit
from studio.storage.event_log import NewEvent
from studio.table import replay
from tests.bench.bench_table import (
    betting_window,
    new_actor,
    settlement,
    sqlite_store,
    window_line,
)

DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


class Schemas:
    """Fresh PostgreSQL schemas for the run, dropped at the end."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.admin = create_engine(url)
        self.made: list[str] = []

    def store(self, workdir: Path, name: str, clock: ManualClock) -> Store:
        schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
        with self.admin.begin() as conn:
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
        self.made.append(schema)
        return Store.open(self.url, schema=schema,
                          clock=lambda: datetime.fromtimestamp(clock.now(), UTC))

    def drop(self) -> None:
        with self.admin.begin() as conn:
            for schema in self.made:
                conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        self.admin.dispose()


def event_appends(store: Store, per_tx: int, total: int) -> float:
    started = time.perf_counter()
    for first in range(0, total, per_tx):
        with store.transaction() as tx:
            tx.append_events([NewEvent("bench:log", "bench_event", {"n": first + i}, None)
                              for i in range(per_tx)], stored=False)
    return total / (time.perf_counter() - started)


async def main_async(args: argparse.Namespace) -> None:
    pg = Schemas(args.database)
    try:
        with tempfile.TemporaryDirectory() as d:
            workdir = Path(d)
            clock = ManualClock()
            for label, opener in (("PostgreSQL", pg.store), ("SQLite", sqlite_store)):
                store = opener(workdir, "log", clock)
                one, hundred = event_appends(store, 1, 2_000), event_appends(store, 100, 20_000)
                store.dispose()
                print(f"1. {label}: event log {one:,.0f} events/s one per transaction, "
                      f"{hundred:,.0f} events/s 100 per transaction")

            def make_pg(workdir: Path, name: str, players: int):
                return new_actor(workdir, name, players, open_store=pg.store)
            for label, make in (("PostgreSQL", make_pg), ("SQLite", new_actor)):
                w = await betting_window(workdir, args.players, make)
                print(window_line(f"2. {label}: betting window, {args.players:,} players x 3 "
                                  "bets", w))
                s = await settlement(workdir / label, args.players, make) if \
                    (workdir / label).mkdir() is None else None
                print(f"3. {label}: settlement of {s['bets']:,} bets: committed "
                      f"{s['settle_s']:.3f} s, every player told {s['told_s']:.3f} s")
            audited = pg.made[-1]  # the settlement's schema: a round of 30,000 bets
            store = Store.open(args.database, schema=audited, create=False)
            started = time.perf_counter()
            report = audit.verify(store, replayers=replay.replayers(),
                                  games={"table:sem-live-1": "sette-e-mezzo-live"})
            took = time.perf_counter() - started
            store.dispose()
            print(f"4. PostgreSQL: studio audit verify of the settled window: "
                  f"{'ok' if report.ok else report.problems[:3]}, {report.rounds_replayed} "
                  f"round(s) replayed in {took:.2f} s")
    finally:
        pg.drop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--database", default=os.environ.get("STUDIO_TEST_DATABASE_URL") or DEFAULT)
    args = ap.parse_args()
    tune_gc()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
