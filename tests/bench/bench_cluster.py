"""Players at one table across processes, measured by a load client with real player
sessions over WebSockets on 127.0.0.1 (bounded in count and time; it stops by itself):

    .venv/bin/python -m tests.bench.bench_cluster [--players 1000,5000,10000] [--edges 1,2]

For each N and each shape (the single process of today, `studio serve`, as the baseline; a
table process with 1 or 2 edges over NATS, `studio serve --role table|edge`): N players join
(spread over the edges), open their WebSockets, bet in one window (bets per second through
the edges), then the dealer keys cards in: for each card, the time from the dealer's command
to its `card_dealt` reaching each player, p50 and p99 over the players, and to the last.
Goal: 10,000 players, card to last player p99 <= 150 ms on this 2-core machine. The load
client shares the machine with what it measures: its own reading of 10,000 sockets is in the
figures, for every shape alike.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiohttp

from studio import ledger
from studio.storage import Store
from studio.web.auth import TokenSigner
from tests.nats_server import nats_server

SECRET = "b" * 40
TABLE = "sem-live-1"
CARDS = ("5c", "6d", "7s", "4b")  # positions 1-3, then the dealer
WINDOW_S = 30.0  # the betting window's least (real seconds: the processes' real clock)
CONCURRENCY = 200  # joins and bets in flight from the load client at once

CONFIG = """
[studio]
host = "127.0.0.1"
port = 0
database_url = "sqlite:///{db}"

[[tables]]
id = "sem-live-1"
name = "Load"
game = "sette-e-mezzo-live"
deck_art = "napoletane"
positions = 3
burn_card = false
card_source = "manual"

[tables.timers]
betting_window_s = {window}
decision_s = 3600
pause_between_rounds_s = 5

[tables.limits]
main_min = 100
main_max = 500000
side_min = 100
side_max = 10000
round_max_total = 2000000

[tables.paytable]
win = "1:1"
royal = "3:2"
pp_sevens = "55:1"
pp_figures = "10:1"
pp_low = "5:1"
mdp_scala_reale = "150:1"
mdp_scala_colore = "75:1"
mdp_tris = "50:1"
mdp_colore = "6:1"
mdp_scala = "5:1"

[web]
command_rate_per_s = 1000000.0
command_burst = 1000000
"""


def dealer_account() -> str:
    """The [[web.accounts]] block of the bench's dealer."""
    return subprocess.run([sys.executable, "-m", "studio.cli", "staff-account", "dealer1",
                           "--role", "dealer"], input="dealer1-password\n", text=True,
                          capture_output=True, check=True).stdout


class Wall:
    """The real clock, as the studio processes run on it (tokens are signed against it)."""

    @staticmethod
    def now() -> float:
        return time.time()


def studio(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "studio.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)


def address(proc: subprocess.Popen[str], text: str) -> str:
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"a studio process ended before {text!r}")
        if text in line:
            return re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)


class Shape:
    """The processes of one measurement: `edges` 0 is today's single process."""

    def __init__(self, workdir: Path, edges: int, nats: str) -> None:
        self.procs: list[subprocess.Popen[str]] = []
        self.workdir = workdir
        self.edges = edges
        self.nats = nats

    def start(self, config: Path, env: dict[str, str]) -> tuple[str, list[str]]:
        common = ["--config", str(config), "--port", "0", "--log-format", "text"]
        if self.edges == 0:
            p = studio("serve", *common, env=env)
            self.procs.append(p)
            base = address(p, "Studio serving on")
            return base, [base]
        table = studio("serve", "--role", "table", "--nats", self.nats, *common, env=env)
        self.procs.append(table)
        staff = address(table, "Studio serving on")
        bases = []
        for _ in range(self.edges):
            edge = studio("serve", "--role", "edge", "--nats", self.nats, *common, env=env)
            self.procs.append(edge)
            bases.append(address(edge, "Edge serving players on"))
        return staff, bases

    def stop(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            p.wait(30)


async def measure(n: int, edges: int, nats: str, workdir: Path) -> dict[str, float]:
    db = workdir / f"load-{n}-{edges}.db"
    config = workdir / f"load-{n}-{edges}.toml"
    window = WINDOW_S + n / 100  # long enough for every player's bet through HTTP
    config.write_text(CONFIG.format(db=db, window=window) + dealer_account())
    store = Store.open(f"sqlite:///{db}")
    players = [f"p{i}" for i in range(n)]
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c-{p}", p, 10**7) for p in players])
    store.dispose()
    env = {**os.environ, "STUDIO_SECRET": SECRET}
    shape = Shape(workdir, edges, nats)
    staff, bases = shape.start(config, env)
    signer = TokenSigner(SECRET, Wall())
    got: dict[str, list[float]] = {}  # card -> arrival times
    try:
        conn = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=conn) as s, aiohttp.ClientSession(
                cookie_jar=aiohttp.CookieJar(unsafe=True)) as dealer:
            async with dealer.post(f"{staff}/api/staff/login", json={
                    "username": "dealer1", "password": "dealer1-password"}) as r:
                assert r.status == 200
            gate = asyncio.Semaphore(CONCURRENCY)
            sockets = []

            async def join(i: int, player: str) -> tuple[str, dict[str, str]]:
                base = bases[i % len(bases)]
                token = signer.player_token(player, 3600)
                async with gate, s.post(f"{base}/api/player/join", json={"table_id": TABLE},
                                        headers={"Authorization": f"Bearer {token}"}) as r:
                    joined = await r.json()
                ws = await s.ws_connect(f"{base}/ws/player?token={token}"
                                        f"&session={joined['session_id']}",
                                        headers={"Origin": base}, heartbeat=None)
                sockets.append(ws)
                return base, {"Authorization": f"Bearer {token}",
                              "X-Session": joined["session_id"]}

            async with dealer.post(f"{staff}/api/tables/{TABLE}/dealer", json={
                    "key": uuid.uuid4().hex, "command": "start"}) as r:
                assert (await r.json())["ok"]
            sessions = await asyncio.gather(*(join(i, p) for i, p in enumerate(players)))

            async def read(ws) -> None:
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT or '"card_dealt"' not in msg.data:
                        continue
                    now = time.perf_counter()
                    card = re.search(r'"card":"(\w+)"', msg.data).group(1)
                    got.setdefault(card, []).append(now)
            readers = [asyncio.create_task(read(ws)) for ws in sockets]

            async def bet(i: int, base: str, headers: dict[str, str]) -> None:
                async with gate, s.post(f"{base}/api/player/bets", headers=headers, json={
                        "key": uuid.uuid4().hex,
                        "bets": [{"position": 1 + i % 3, "kind": "main",
                                  "amount": 100}]}) as r:
                    answer = await r.json()
                assert answer.get("ok"), answer
            started = time.perf_counter()
            await asyncio.gather(*(bet(i, b, h) for i, (b, h) in enumerate(sessions)))
            bets_s = n / (time.perf_counter() - started)
            async with dealer.get(f"{staff}/api/tables/{TABLE}/dealer/state") as r:
                closes = (await r.json())["table"]["round"]["closes_at"]
            await asyncio.sleep(max(0.0, closes - time.time()) + 1.0)  # the window's end
            lags: list[float] = []
            last: list[float] = []
            for card in CARDS:
                sent = time.perf_counter()
                async with dealer.post(f"{staff}/api/tables/{TABLE}/dealer", json={
                        "key": uuid.uuid4().hex, "command": "card", "code": card}) as r:
                    assert (await r.json())["ok"]
                deadline = time.perf_counter() + 30
                while len(got.get(card, ())) < n and time.perf_counter() < deadline:
                    await asyncio.sleep(0.01)  # the load client waits for its sockets
                arrivals = got.get(card, [])
                lags += [t - sent for t in arrivals]
                last.append(max(arrivals) - sent if arrivals else float("inf"))
                if len(arrivals) < n:
                    raise SystemExit(f"{card}: {len(arrivals)} of {n} players got it")
            for task in readers:
                task.cancel()
            for ws in sockets:
                await ws.close()
    finally:
        shape.stop()
    lags.sort()
    return {"bets_s": bets_s, "p50_ms": 1000 * statistics.median(lags),
            "p99_ms": 1000 * lags[int(0.99 * (len(lags) - 1))],
            "last_ms": 1000 * statistics.median(last)}


async def main_async(counts: list[int], edge_counts: list[int]) -> None:
    with tempfile.TemporaryDirectory() as d, nats_server() as nats:
        for n in counts:
            for edges in [0, *edge_counts]:
                r = await measure(n, edges, nats, Path(d))
                shape = "one process (baseline)" if edges == 0 else f"{edges} edge(s)"
                print(f"{n:>6,} players, {shape:<22}: card to player p50 {r['p50_ms']:6.0f} ms, "
                      f"p99 {r['p99_ms']:6.0f} ms, to the last (median of {len(CARDS)} cards) "
                      f"{r['last_ms']:6.0f} ms; bets {r['bets_s']:7,.0f}/s", flush=True)
    print("Goal: 10,000 players, card to last player p99 <= 150 ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="1000,5000,10000")
    ap.add_argument("--edges", default="1,2")
    args = ap.parse_args()
    asyncio.run(main_async([int(x) for x in args.players.split(",")],
                           [int(x) for x in args.edges.split(",")]))


if __name__ == "__main__":
    main()
