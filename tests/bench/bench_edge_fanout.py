"""An edge's CPU per player for a dealt card, in one process, without NATS or sockets: what
`RemoteTable` (studio/cluster/remote.py) and the fan-out (studio/web/tables.py, ws.py) spend
in Python from a burst's message to the last player's write.

    PYTHONPATH=. .venv/bin/python -m tests.bench.bench_edge_fanout [--players 10000] \
        [--rounds 3] [--profile]

A table (the test harness's actor, behind a `TableBridge` whose NATS is a list) deals the
four cards of a round to three players, one a position; each card's messages (the burst,
then the views it owes) are recorded and widened to N players, a third a position, as the
bridge sends them at a table of N: the burst owes the views of the card's position, and the
views carry theirs. An edge's `RemoteTable` with N connections over counting transports
(no kernel writes: bench_socket_floor has those) takes each card's burst, hands the events
on, then takes the views and writes the held states. Each card's figure is the process's CPU
(time.process_time) from the burst to the last write, per player; the median over the
cards of `--rounds` rounds.

Measured 2026-11-25 (sixth session), the machine shared (load average 4-6), each figure the
median of the 12 cards of one run; `nice -n 19 env PYTHONPATH=<worktree> python -m
tests.bench.bench_edge_fanout --players 10000`, five runs of the session's starting code
(02538af, a worktree, this file copied in) interleaved with five of its end (4e5f052):

    02538af   7.55  7.72  7.57  7.65  7.93 us a player a card   (median 7.65)
    4e5f052   3.95  4.18  4.40  4.49  4.12 us a player a card   (median 4.18)

Each step, against the commit before it, the same way: a burst's later frames join the
outbox without `_take`/`_put`, the shared state taken without `_next_state`, the queue's
emptiness read off its deque, joined bursts keyed by their frames (8.3 -> 7.2); the event's
form chosen in the delivery loop, and the flush pass skipping the clients their state's write
served (7.8 -> 6.1); the public part read once a pass of states (within the noise, so taken
out again at the session's end: a cache for nothing); a burst's
first frame taken in `deliver_text` (6.2 -> 5.8); no flush asked for it, the state owed
writes it (5.1 -> 4.6); the clients owed a state in a deque, not an OrderedDict popped from
the front (5.0 -> 4.1: a sixth of the fan-out in py-spy). Tried and not kept, no difference
in five or six runs interleaved: `touches_balance`'s last answer and the edge's round id read
in line; the player's id made once a connection (no split, its hash kept) and `send_state`
not touching the queue when its outbox is full; `flush`'s common case in line in
`send_state` (4.15 -> 4.10, five runs each: noise).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from studio.cluster.bridge import TableBridge
from studio.cluster.remote import RemoteTable
from studio.runtime import tune_gc
from studio.storage import Store
from studio.web import ws as wsmod
from tests.bench.bench_round_fanout import Socket, Transport
from tests.table_harness import Harness

CARDS = ("5c", "6d", "7s", "4b")  # positions 1-3, then the dealer
SEATED = ("ann", "bob", "cai")  # the table's players, on positions 1, 2, 3


class Wire:
    """The bridge's NATS: what it publishes, kept in order."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def publish(self, subject: str, data: bytes) -> None:
        self.sent.append(json.loads(data))

    async def flush(self) -> None:
        return None


def widen(message: dict[str, Any], players: int) -> dict[str, Any]:
    """A message of the table of three as the bridge sends it at a table of N: each seated
    player stands for the N / 3 players on the same position."""
    def many(names: list[str]) -> list[str]:
        return [f"p{i:05d}" for i in range(players) if SEATED[i % 3] in names]
    out = dict(message)
    if message.get("owed") is not None:
        out["owed"] = many(message["owed"])
    if "personal" in message:  # (the views as the bridge sent them before the groups)
        out["personal"] = {f"p{i:05d}": message["personal"][SEATED[i % 3]]
                           for i in range(players) if SEATED[i % 3] in message["personal"]}
    if "groups" in message:
        out["groups"] = [[text, many(names)] for text, names in message["groups"]]
    return out


async def record(store: Store) -> tuple[Harness, list[list[dict[str, Any]]], dict[str, Any]]:
    """Each card's messages from the bridge (burst, views), and the sync before the cards."""
    h = Harness(store, burn_card=False)
    for p in SEATED:
        h.credit(p, 10_000)
    await h.start()
    wire = Wire()
    bridge = TableBridge(h.actor, wire)
    h.actor.hub.subscribe(bridge._on_event)
    publisher = asyncio.get_running_loop().create_task(bridge._publisher())
    for pos, p in enumerate(SEATED, start=1):
        assert (await h.bet(p, pos, 1000))["ok"]
    await h.close_betting()
    for _ in range(5):
        await asyncio.sleep(0)
    sync = {"epoch": bridge.epoch, "seq": bridge.seq, "public": h.actor.snapshot("public"),
            "personal": {p: h.actor.personal_text(p) for p in SEATED}}
    wire.sent.clear()
    cards = []
    for code in CARDS:
        await h.cards(code)
        for _ in range(20):
            await asyncio.sleep(0)
        cards.append(wire.sent[:])
        wire.sent.clear()
    publisher.cancel()
    return h, cards, sync


async def run(players: int, rounds: int, profile: bool) -> list[float]:
    """CPU seconds per card, for each card of each round."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(f"sqlite:///{Path(tmp) / 'studio.db'}")
        h, cards, sync = await record(store)
        figures = []
        profiler = cProfile.Profile() if profile else None
        for _ in range(rounds):
            edge = RemoteTable(h.cfg, store, h.clock, nc=None)
            actor = edge.actor
            actor.epoch, actor.seq, actor.public = sync["epoch"], sync["seq"], sync["public"]
            for i in range(players):
                actor._personal[f"p{i:05d}"] = (actor._round_id(),
                                                sync["personal"][SEATED[i % 3]])
            conns = []
            for i in range(players):
                audience = f"player:p{i:05d}"
                transport = Transport()
                conn = wsmod.Connection(
                    Socket(), edge, audience,  # type: ignore[arg-type]
                    lambda b, a=audience, t=edge: '{"type":"state","table":' + t.state_text(a)
                    + "}",
                    transport=transport, shared_state=True)  # type: ignore[arg-type]
                conn.start()
                conn.queue.get_nowait()  # the first state: not measured
                conns.append(transport)
            wide = [[SimpleNamespace(data=json.dumps(widen(m, players)).encode()) for m in card]
                    for card in cards]
            for messages in wide:
                before = sum(t.writes for t in conns)
                if profiler:
                    profiler.enable()
                cpu = time.process_time()
                for msg in messages:
                    await actor._on_burst(msg)
                    await edge.delivered()
                figures.append(time.process_time() - cpu)
                if profiler:
                    profiler.disable()
                assert sum(t.writes for t in conns) - before == players, "a write a player"
                assert actor.settled
            edge.close()
        await h.actor.stop()
        store.dispose()
        if profiler:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="print where the CPU goes")
    args = ap.parse_args()
    tune_gc()
    figures = asyncio.run(run(args.players, args.rounds, args.profile))
    per = [1e6 * f / args.players for f in figures]
    print(f"{args.players:,} players on an edge, a card: median CPU "
          f"{1000 * statistics.median(figures):.1f} ms, {statistics.median(per):.2f} us a "
          f"player (cards: {' '.join(f'{p:.1f}' for p in per)})")


if __name__ == "__main__":
    main()
