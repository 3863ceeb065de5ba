"""Benchmark: the ledger under one full betting window and one settlement.

    .venv/bin/python -m tests.bench.bench_ledger [--players 10000] [--tick-ms 10]
        [--rate 20000] [--big-tick 1000] [--baseline 1000] [--synchronous FULL]
        [--database URL]

What the table does per tick, in ONE transaction: recall the idempotency keys of the commands,
`reserve_many` the bets, append one ``BetPlaced`` event per bet, remember each command's answer.
Bets arrive at ``--rate`` bets/s, so a tick of ``--tick-ms`` carries rate*tick bets (200 by
default: 20,000 bets/s in 10 ms ticks); 10,000 players x 3 bets (main, Partita Perfetta, Mano
di Poker) = 30,000 bets, in shuffled arrival order. We report the bets/s sustained and the
per-tick commit latency (p50/p99), for those ticks and for bigger ones; then bets arriving at
``--rate`` with group commit (each transaction takes all bets that arrived while the previous
one committed), reporting how long a bet waits for its acknowledgement. Then we settle all 30,000 reservations in one transaction
(``settle_many`` + one ``BetSettled`` event per bet) and report the time. The baseline, in the
same run, is the same tick work done with one transaction per bet, on a smaller sample.

Default database: a fresh SQLite file (WAL, synchronous=FULL) in a temporary directory.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from studio import ledger as L
from studio.storage import Store
from studio.storage.event_log import NewEvent
from studio.storage.idempotency import recall_many, remember_many

TABLE = "sem-live-1"
ROUND = "sem-live-1:000001"
SIDES = ("main", "pp", "mdp")


def make_bets(players: int, seed: int = 7) -> list[tuple[str, str, int]]:
    """(bet id, player, stake in cents) in a shuffled arrival order."""
    rng = random.Random(seed)
    bets = [(f"p{i:05d}:{side}", f"p{i:05d}", rng.choice((100, 200, 500, 1_000, 2_500)))
            for i in range(players) for side in SIDES]
    rng.shuffle(bets)
    return bets


def tick(store: Store, bets: list[tuple[str, str, int]], round_id: str) -> int:
    """One tick of the table: the whole pipeline in one transaction; returns bets accepted."""
    with store.transaction() as tx:
        keys = [(f"player:{player}", f"cmd:{round_id}:{bet}") for bet, player, _ in bets]
        seen = recall_many(tx, keys)
        fresh = [b for b, k in zip(bets, keys, strict=True) if k not in seen]
        outcomes = L.reserve_many(
            tx, [L.Reserve(f"{round_id}:{bet}", player, amount, round_id)
                 for bet, player, amount in fresh])
        accepted = [(b, o) for b, o in zip(fresh, outcomes, strict=True) if o.ok]
        tx.append_events([NewEvent(TABLE, "BetPlaced",
                                   {"bet": bet, "player": player, "amount": amount}, round_id)
                          for (bet, player, amount), _ in accepted])
        remember_many(tx, [(f"player:{b[1]}", f"cmd:{round_id}:{b[0]}",
                            {"ok": o.ok, "balance": o.movement.balance_after if o.movement
                             else None, "error": o.error.code if o.error else None})
                           for b, o in zip(fresh, outcomes, strict=True)])
    return len(accepted)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def open_store(url: str, synchronous: str, workdir: Path
               ) -> tuple[Store, str, Callable[[], None]]:
    if make_url(url).get_backend_name() == "sqlite":
        return Store.open(url, synchronous=synchronous), url, lambda: None
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")

    def drop() -> None:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()

    return Store.open(url, schema=schema), url, drop


def fresh_store(args: argparse.Namespace, workdir: Path, name: str,
                players: list[str]) -> tuple[Store, str, Callable[[], None]]:
    """A new database with every player credited (each phase starts from the same state)."""
    url = args.database or f"sqlite:///{workdir / (name + '.db')}"
    store, url, cleanup = open_store(url, args.synchronous, workdir)
    with store.transaction() as tx:
        L.credit_many(tx, [L.Credit(f"demo:{p}", p, 1_000_000) for p in players])
    return store, url, cleanup


def fixed_ticks(store: Store, bets: list[tuple[str, str, int]], per_tick: int
                ) -> tuple[float, float, list[float]]:
    """All bets in ticks of ``per_tick``: (wall s, CPU s, per-tick latencies)."""
    latencies: list[float] = []
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(bets), per_tick):
        t = time.perf_counter()
        assert tick(store, bets[i : i + per_tick], ROUND) == len(bets[i : i + per_tick])
        latencies.append(time.perf_counter() - t)
    return time.perf_counter() - wall, time.process_time() - cpu, latencies


def paced(store: Store, bets: list[tuple[str, str, int]], rate: float, min_tick: float,
          ) -> tuple[float, list[float], list[int]]:
    """Bets arrive at ``rate``/s; each transaction takes every bet that has arrived (group
    commit: while one commit runs, the next batch gathers). Returns (wall s, ack latency of
    each bet = its commit time minus its arrival time, batch sizes)."""
    acks: list[float] = []
    sizes: list[int] = []
    done = 0
    start = time.perf_counter()
    while done < len(bets):
        now = time.perf_counter() - start
        arrived = min(len(bets), int(now * rate) + 1)
        if arrived <= done or now < len(sizes) * min_tick:
            time.sleep(max(min_tick / 4, (done + 1) / rate - now))  # a benchmark may wait
            continue
        tick(store, bets[done:arrived], ROUND)
        end = time.perf_counter() - start
        acks.extend(end - k / rate for k in range(done, arrived))
        sizes.append(arrived - done)
        done = arrived
    return time.perf_counter() - start, acks, sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--rate", type=int, default=20_000, help="bets/s arriving at the table")
    ap.add_argument("--tick-ms", type=float, default=10.0)
    ap.add_argument("--baseline", type=int, default=1_000, help="bets, one transaction each")
    ap.add_argument("--synchronous", default="FULL", help="SQLite: FULL (default) or NORMAL")
    ap.add_argument("--database", help="PostgreSQL URL (a schema per phase; default: a new "
                    "temporary SQLite file per phase)")
    ap.add_argument("--big-tick", type=int, default=1_000, help="bets per tick, 2nd run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(args, Path(tmp))


def run(args: argparse.Namespace, workdir: Path) -> None:
    bets = make_bets(args.players)
    players = sorted({p for _, p, _ in bets})
    per_tick = max(1, int(args.rate * args.tick_ms / 1000))
    shown = ""

    for size in (per_tick, args.big_tick):
        store, url, cleanup = fresh_store(args, workdir, f"ticks{size}", players)
        shown = make_url(url).render_as_string(hide_password=True)
        if size == per_tick:
            sync = f", synchronous={args.synchronous.upper()}" if "sqlite" in url else ""
            print(f"database: {shown}{sync}")
        try:
            wall, cpu, lat = fixed_ticks(store, bets, size)
        finally:
            store.dispose()
            cleanup()
        print(f"reserve {len(bets)} bets ({len(players)} players x {len(SIDES)}) in ticks of "
              f"{size}: {wall:.2f} s = {len(bets) / wall:,.0f} bets/s (CPU {cpu:.2f} s); "
              f"per-tick commit p50 {1000 * percentile(lat, 50):.1f} ms, "
              f"p99 {1000 * percentile(lat, 99):.1f} ms")
        if size == per_tick:
            tick_rate = len(bets) / wall

    store, url, cleanup = fresh_store(args, workdir, "paced", players)
    try:
        wall, acks, sizes = paced(store, bets, args.rate, args.tick_ms / 1000)
    finally:
        store.dispose()
        cleanup()
    print(f"paced arrival at {args.rate:,} bets/s, group commit (each transaction takes every "
          f"bet arrived, at most one per {args.tick_ms:g} ms): {len(bets) / wall:,.0f} bets/s; "
          f"{len(sizes)} commits of {statistics.mean(sizes):.0f} bets on average "
          f"(max {max(sizes)}); bet acknowledged after p50 {1000 * percentile(acks, 50):.0f} ms, "
          f"p99 {1000 * percentile(acks, 99):.0f} ms")

    store, url, cleanup = fresh_store(args, workdir, "settle", players)
    try:
        for i in range(0, len(bets), args.big_tick):
            tick(store, bets[i : i + args.big_tick], ROUND)
        settle_s = settle(store, bets)
        sample = make_bets(max(1, args.baseline // len(SIDES)), seed=99)
        t = time.perf_counter()
        for b in sample:
            tick(store, [b], "sem-live-1:000002")
        one_s = time.perf_counter() - t
    finally:
        store.dispose()
        cleanup()
    print(f"settle {len(bets)} reserved bets in one transaction (posts and voids, one event "
          f"per bet): {settle_s:.3f} s ({len(bets) / settle_s:,.0f} bets/s)")
    one_rate = len(sample) / one_s
    print(f"baseline: {len(sample)} bets, one transaction per bet: {one_s:.2f} s = "
          f"{one_rate:,.0f} bets/s ({1000 * one_s / len(sample):.2f} ms per bet)")
    print(f"ratio: ticks of {per_tick} accept {tick_rate / one_rate:.1f}x the bets/s of one "
          "transaction per bet")


def settle(store: Store, bets: list[tuple[str, str, int]]) -> float:
    """Settle every reservation of the round at once; returns the seconds it took."""
    rng = random.Random(11)
    requests: list[L.Post | L.Release] = []
    for bet, _, amount in bets:
        res = f"{ROUND}:{bet}"
        roll = rng.random()
        requests.append(L.Release(f"{res}:void", res) if roll < 0.05 else
                        L.Post(f"{res}:post", res, 0 if roll < 0.55 else 2 * amount))
    t = time.perf_counter()
    with store.transaction() as tx:
        L.settle_many(tx, requests)
        tx.append_events([NewEvent(TABLE, "BetSettled", {"bet": r.reservation_id,
                                   "payout": getattr(r, "payout", None)}, ROUND)
                          for r in requests])
    seconds = time.perf_counter() - t
    with store.reader() as tx:
        assert L.total_balance(tx) == 0 and L.open_reservations(tx) == []
    return seconds


if __name__ == "__main__":
    main()


