"""Benchmark: the ledger under one full betting window and one settlement.

    .venv/bin/python -m tests.bench.bench_ledger [--players 10000] [--tick-ms 10]
        [--rate 20000] [--big-tick 1000] [--baseline 1000] [--bets-per-command 1]
        [--synchronous FULL] [--database URL]

What the table does per tick, in ONE transaction (studio/table/actor.py, ``_bet_batch``): recall
the idempotency key of each command, `reserve_many` the command's bets (one ``group`` per
command), append ONE ``bets_placed`` event for the whole tick, read the players' balances for the
answers, remember ONE answer per command. 10,000 players x 3 bets (main, Partita Perfetta, Mano
di Poker) = 30,000 bets in shuffled arrival order; ``--bets-per-command`` bets travel in one
command (1 by default: the hardest case, one idempotency row per bet).

Phases, each on a fresh database with every player credited, reported with wall AND CPU time
(the machine is shared: CPU time is what the code costs, wall time what this run got):

- baseline: the same pipeline with one transaction per command, on ``--baseline`` bets;
- fixed ticks of rate*tick bets (200 by default: 20,000 bets/s in 10 ms ticks) and of
  ``--big-tick``: bets/s and the per-tick commit latency p50/p99;
- paced arrival at ``--rate`` with group commit: each transaction takes every bet that arrived
  while the previous one committed; a bet's ack latency is its commit time minus its arrival;
- settlement: from the dealer's last card to every balance updated: ``settle_many`` of all
  30,000 reservations (posts, and voided Mano di Poker) and one ``player_settled`` event per
  player, in one transaction.

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


Bet = tuple[str, str, int]  # (bet id, player, stake in cents)
Command = tuple[str, str, list[Bet]]  # (command key, player, its bets)


def make_bets(players: int, seed: int = 7) -> list[Bet]:
    """(bet id, player, stake in cents) in a shuffled arrival order."""
    rng = random.Random(seed)
    bets = [(f"p{i:05d}:{side}", f"p{i:05d}", rng.choice((100, 200, 500, 1_000, 2_500)))
            for i in range(players) for side in SIDES]
    rng.shuffle(bets)
    return bets


def make_commands(bets: list[Bet], per_command: int) -> list[Command]:
    """Bets grouped into commands of ``per_command`` bets of one player, in arrival order of
    each command's first bet."""
    by_player: dict[str, list[Bet]] = {}
    for b in bets:
        by_player.setdefault(b[1], []).append(b)
    out: list[Command] = []
    taken: dict[str, int] = {}
    for b in bets:
        n = taken.get(b[1], 0)
        mine = by_player[b[1]]
        if n % per_command == 0:
            group = mine[n : n + per_command]
            out.append((f"cmd:{group[0][0]}", b[1], group))
        taken[b[1]] = n + 1
    return out


def tick(store: Store, commands: list[Command], round_id: str) -> int:
    """One tick of the table: the whole pipeline in one transaction; returns bets accepted."""
    with store.transaction() as tx:
        keys = [(f"player:{player}", f"{round_id}:{key}") for key, player, _ in commands]
        seen = recall_many(tx, keys)
        fresh = [c for c, k in zip(commands, keys, strict=True) if k not in seen]
        requests = [L.Reserve(f"{round_id}/{bet}/reserve", player, amount, round_id, group=key)
                    for key, player, bets in fresh for bet, _, amount in bets]
        outcomes = L.reserve_many(tx, requests)
        placed = [{"placement_id": r.movement_id, "player": r.player_id, "amount": r.amount}
                  for r, o in zip(requests, outcomes, strict=True) if o.ok]
        tx.append_events([NewEvent(TABLE, "bets_placed", {"bets": placed}, round_id)])
        bal = L.balances(tx, {player for _, player, _ in fresh})
        answers = []
        k = 0
        for key, player, bets in fresh:
            mine = outcomes[k : k + len(bets)]
            k += len(bets)
            b = bal[player]
            error = mine[0].error
            answers.append((f"player:{player}", f"{round_id}:{key}",
                            {"ok": True, "balance": {"available": b.available,
                                                     "reserved": b.reserved}}
                            if error is None else {"ok": False, "error": error.code}))
        remember_many(tx, answers)
    return len(placed)


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


def count_bets(commands: list[Command]) -> int:
    return sum(len(c[2]) for c in commands)


def fixed_ticks(store: Store, commands: list[Command], per_tick: int
                ) -> tuple[float, float, list[float]]:
    """All commands in ticks of ``per_tick`` commands: (wall s, CPU s, per-tick latencies)."""
    latencies: list[float] = []
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(commands), per_tick):
        batch = commands[i : i + per_tick]
        t = time.perf_counter()
        assert tick(store, batch, ROUND) == count_bets(batch)
        latencies.append(time.perf_counter() - t)
    return time.perf_counter() - wall, time.process_time() - cpu, latencies


def paced(store: Store, commands: list[Command], rate: float, min_tick: float,
          ) -> tuple[float, float, list[float], list[int]]:
    """Commands arrive at ``rate``/s; each transaction takes every command that has arrived
    (group commit: while one commit runs, the next batch gathers). Returns (wall s, CPU s,
    ack latency of each command = its commit time minus its arrival time, batch sizes)."""
    acks: list[float] = []
    sizes: list[int] = []
    done = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while done < len(commands):
        now = time.perf_counter() - start
        arrived = min(len(commands), int(now * rate) + 1)
        if arrived <= done or now < len(sizes) * min_tick:
            time.sleep(max(min_tick / 4, (done + 1) / rate - now))  # a benchmark may wait
            continue
        tick(store, commands[done:arrived], ROUND)
        end = time.perf_counter() - start
        acks.extend(end - k / rate for k in range(done, arrived))
        sizes.append(arrived - done)
        done = arrived
    return time.perf_counter() - start, time.process_time() - cpu, acks, sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--rate", type=int, default=20_000, help="bets/s arriving at the table")
    ap.add_argument("--tick-ms", type=float, default=10.0)
    ap.add_argument("--baseline", type=int, default=1_000, help="bets, one transaction each")
    ap.add_argument("--bets-per-command", type=int, default=1, choices=(1, 2, 3))
    ap.add_argument("--synchronous", default="FULL", help="SQLite: FULL (default) or NORMAL")
    ap.add_argument("--database", help="PostgreSQL URL (a schema per phase; default: a new "
                    "temporary SQLite file per phase)")
    ap.add_argument("--big-tick", type=int, default=1_000, help="bets per tick, 2nd run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(args, Path(tmp))


def run(args: argparse.Namespace, workdir: Path) -> None:
    bets = make_bets(args.players)
    per_cmd = args.bets_per_command
    commands = make_commands(bets, per_cmd)
    players = sorted({p for _, p, _ in bets})
    per_tick = max(1, int(args.rate * args.tick_ms / 1000))
    n = len(bets)
    print(f"{n} bets ({len(players)} players x {len(SIDES)}) in {len(commands)} commands of "
          f"{per_cmd} bet(s)")

    # Baseline: one transaction per command, same pipeline, on a sample.
    store, url, cleanup = fresh_store(args, workdir, "baseline", players)
    shown = make_url(url).render_as_string(hide_password=True)
    sync = f", synchronous={args.synchronous.upper()}" if "sqlite" in url else ""
    print(f"database: {shown}{sync}")
    try:
        sample = commands[: max(1, args.baseline // per_cmd)]
        wall, cpu, lat = fixed_ticks(store, sample, 1)
    finally:
        store.dispose()
        cleanup()
    one_rate = count_bets(sample) / wall
    print(f"baseline, one transaction per command: {count_bets(sample)} bets in {wall:.2f} s = "
          f"{one_rate:,.0f} bets/s (CPU {cpu:.2f} s = {1e6 * cpu / count_bets(sample):.0f} us "
          f"per bet); commit p50 {1000 * percentile(lat, 50):.1f} ms, "
          f"p99 {1000 * percentile(lat, 99):.1f} ms")

    tick_rate = 0.0
    for size in (per_tick, args.big_tick):
        store, url, cleanup = fresh_store(args, workdir, f"ticks{size}", players)
        try:
            wall, cpu, lat = fixed_ticks(store, commands, max(1, size // per_cmd))
        finally:
            store.dispose()
            cleanup()
        print(f"ticks of {size} bets: {wall:.2f} s = {n / wall:,.0f} bets/s (CPU {cpu:.2f} s = "
              f"{1e6 * cpu / n:.0f} us per bet, {n / cpu:,.0f} bets per CPU second); "
              f"per-tick commit p50 {1000 * percentile(lat, 50):.1f} ms, "
              f"p99 {1000 * percentile(lat, 99):.1f} ms")
        tick_rate = tick_rate or n / wall
    print(f"ratio: ticks of {per_tick} bets accept {tick_rate / one_rate:.1f}x the bets/s of "
          "one transaction per command")

    store, url, cleanup = fresh_store(args, workdir, "paced", players)
    try:
        wall, cpu, acks, sizes = paced(store, commands, args.rate / per_cmd,
                                       args.tick_ms / 1000)
    finally:
        store.dispose()
        cleanup()
    print(f"paced arrival at {args.rate:,} bets/s, group commit (each transaction takes every "
          f"command arrived, at most one per {args.tick_ms:g} ms): {n / wall:,.0f} bets/s "
          f"(CPU {cpu:.2f} s); {len(sizes)} commits of {per_cmd * statistics.mean(sizes):.0f} "
          f"bets on average (max {per_cmd * max(sizes)}); ack after p50 "
          f"{1000 * percentile(acks, 50):.1f} ms, p99 {1000 * percentile(acks, 99):.1f} ms")

    store, url, cleanup = fresh_store(args, workdir, "settle", players)
    try:
        for i in range(0, len(commands), max(1, args.big_tick // per_cmd)):
            tick(store, commands[i : i + max(1, args.big_tick // per_cmd)], ROUND)
        wall, cpu = settle(store, bets)
    finally:
        store.dispose()
        cleanup()
    print(f"settle {n} reserved bets in one transaction (posts, 5% voided; one player_settled "
          f"event per player): {wall:.3f} s (CPU {cpu:.3f} s) = {n / wall:,.0f} bets/s")


def settle(store: Store, bets: list[Bet]) -> tuple[float, float]:
    """Settle every reservation of the round at once, as the table does after the dealer's
    last card; returns (wall s, CPU s) until every balance is updated (committed)."""
    rng = random.Random(11)
    wall, cpu = time.perf_counter(), time.process_time()
    requests: list[L.Post | L.Release] = []
    results: dict[str, list[dict[str, object]]] = {}
    for bet, player, amount in bets:
        res = f"{ROUND}/{bet}/reserve"
        roll = rng.random()
        payout = None if roll < 0.05 else 0 if roll < 0.55 else 2 * amount
        requests.append(L.Release(f"{ROUND}/{bet}/refund", res) if payout is None else
                        L.Post(f"{ROUND}/{bet}/settle", res, payout))
        results.setdefault(player, []).append({"bet": bet, "returned": payout})
    with store.transaction() as tx:
        L.settle_many(tx, requests)
        tx.append_events([NewEvent(TABLE, "player_settled", {"player": p, "bets": r}, ROUND)
                          for p, r in results.items()])
    seconds = time.perf_counter() - wall, time.process_time() - cpu
    with store.reader() as tx:
        assert L.total_balance(tx) == 0 and L.open_reservations(tx) == []
    return seconds


if __name__ == "__main__":
    main()
