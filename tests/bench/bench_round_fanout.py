"""A card dealt in a round with N players betting, in one process: the server's own CPU per
card and per player, from the shoe's card to the last player's write (each player's events and
state after the card, as `studio serve` makes them). The sockets are counting transports, so
what is measured is the studio's Python, not the kernel's writes (bench_cluster has those).

    .venv/bin/python -m tests.bench.bench_round_fanout [--players 10000] [--cards 4]

The N players bet on the three positions of Sette e Mezzo Live (as bench_cluster's do); then
the cards go to the positions and the dealer, through the simulated shoe and the table. Each
card's figure is the process's CPU time (time.process_time) from the shoe's frame to the
last write, and the wall time.

Measured 2026-11-25 (sixth session), the machine shared (load average 4-6): `nice -n 19 env
PYTHONPATH=<worktree> python -m tests.bench.bench_round_fanout --players 10000`, the
session's starting code (02538af, a worktree) and its end (4e5f052) in turn, three times;
median CPU a player a card: 10.6, 13.1, 12.8 us before; 8.7, 8.4, 8.5 us after (the fan-out's
calls and bookkeeping per player: see bench_edge_fanout, which measures them alone on an
edge; here the table's own part of each state, `TableActor.personal_entry`, is about a fifth
of the CPU under cProfile, and untouched).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from studio.runtime import tune_gc
from studio.web import ws as wsmod
from tests.browser.harness import StudioHarness

CARDS = ("5c", "6d", "7s", "4b")  # positions 1-3, then the dealer


class Socket:
    """The aiohttp side a Connection needs when its transport takes every frame."""

    async def send_str(self, text: str) -> None:
        self.sent += 1

    async def send_json(self, message: Any) -> None:
        self.sent += 1

    async def close(self, **kwargs: Any) -> None:
        return None

    def __init__(self) -> None:
        self.sent = 0


class Transport:
    """A socket's write end that takes every write at once, counting the bytes."""

    def __init__(self) -> None:
        self.bytes = 0
        self.writes = 0

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.writes += 1

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False


async def run(players: int, cards: int, profile: bool = False
              ) -> list[tuple[float, float, float, float]]:
    """Per card: (CPU s, wall s, writes per player, bytes per player). `profile`: the cards
    under cProfile, its top functions printed (the figures are then not the studio's)."""
    with tempfile.TemporaryDirectory() as tmp:
        h = StudioHarness(Path(tmp), burn_card=False)
        await h.start()
        try:
            service = h.service
            conns: list[tuple[wsmod.Connection, Transport]] = []
            for i in range(players):
                player = f"p{i:05d}"
                h.credit(player, 10_000)
                answer = await h.actor.place_bets(
                    player, [{"position": 1 + i % 3, "kind": "main", "amount": 100}],
                    uuid.uuid4().hex)
                assert answer.get("ok"), answer
                audience = f"player:{player}"
                transport = Transport()
                conn = wsmod.Connection(
                    Socket(), service, audience,  # type: ignore[arg-type]
                    lambda b, a=audience: '{"type":"state","table":'
                    + service.state_text(a) + "}",
                    transport=transport, shared_state=True)  # type: ignore[arg-type]
                conn.start()
                conn.queue.get_nowait()  # the first state: not measured
                conns.append((conn, transport))
            await h.close_betting()
            await service.delivered()
            out = []
            profiler = cProfile.Profile() if profile else None
            if profiler:
                profiler.enable()
            for code in CARDS[:cards]:
                before = [(t.writes, t.bytes) for _, t in conns]
                cpu, wall = time.process_time(), time.perf_counter()
                await h.deal(code)
                await service.delivered()
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                writes = sum(t.writes - w for (_, t), (w, _) in zip(conns, before, strict=True))
                got = sum(t.bytes - b for (_, t), (_, b) in zip(conns, before, strict=True))
                out.append((cpu, wall, writes / players, got / players))
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
            return out
        finally:
            await h.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--cards", type=int, default=4)
    ap.add_argument("--profile", action="store_true", help="print where the CPU goes")
    args = ap.parse_args()
    tune_gc()
    figures = asyncio.run(run(args.players, args.cards, args.profile))
    for code, (cpu, wall, writes, got) in zip(CARDS, figures, strict=False):
        print(f"  card {code}: CPU {1000 * cpu:6.1f} ms ({1e6 * cpu / args.players:5.1f} us a "
              f"player), wall {1000 * wall:6.1f} ms, {writes:.2f} writes and {got:,.0f} bytes "
              "a player")
    cpu = statistics.median(f[0] for f in figures)
    print(f"{args.players:,} players, a card in a round: median CPU {1000 * cpu:.1f} ms, "
          f"{1e6 * cpu / args.players:.1f} us a player")


if __name__ == "__main__":
    main()
