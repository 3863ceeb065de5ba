"""The views a dealt card owes the edges, on the wire: the table's CPU to build and encode them
as the bridge's publisher does, an edge's CPU to decode them, their messages and bytes; 10,000
players on Sette e Mezzo Live's three positions (bench_table_views' table, all bets alike at a
position, as in bench_cluster).

    PYTHONPATH=. .venv/bin/python -m tests.bench.bench_views_wire

Code before the views went out grouped (no `TableBridge.views_message`) is measured as its
publisher sent them: MAX_PERSONAL views a message, each player's text in full.

Measured 2026-11-26 01:10 UTC (seventh session; load average 2-3 from another engineer's
benchmarks at nice 19), this code (9b70175) and its starting code (4390052) alternated, the
median over the 12 dealt cards of 3 tables: table 47.5, 50.5 ms against 66.3, 53.0 ms; an
edge's decode 0.4, 0.4 ms against 5.9, 3.7 ms; 1 message of 27,481 bytes against 7 of
549,905.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from studio.cluster import wire
from studio.cluster.bridge import TableBridge
from tests.bench import bench_table_views as tables


async def main() -> None:
    table, edge = [], []
    messages: list[bytes] = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as d:
            h = await tables.table(10_000, Path(d) / "studio.db")
            bridge = TableBridge(h.actor, nc=None)
            bridge._changed(sorted(h.actor.round_players()))
            seen = h.actor.state
            for code in tables.CARDS[1:]:  # (not the burn: it owes none)
                await h.cards(code)
                changed = list(h.actor.views_changed_since(seen))
                chunks = [changed[i:i + wire.MAX_PERSONAL]
                          for i in range(0, len(changed), wire.MAX_PERSONAL)]
                t0 = time.process_time()
                if hasattr(bridge, "views_message"):
                    built: dict[str, str] = {}
                    for chunk in chunks:
                        built.update(bridge._changed(chunk))
                    messages = [bridge.views_message(built, True)]
                else:  # the code before: the views as they were built, a message a chunk
                    messages = [wire.encode({"epoch": "x", "seq": 1, "last": False,
                                             "personal": dict(bridge._changed(chunk))})
                                for chunk in chunks]
                t1 = time.process_time()
                for m in messages:
                    wire.decode(m)
                t2 = time.process_time()
                table.append(1000 * (t1 - t0))
                edge.append(1000 * (t2 - t1))
                seen = h.actor.state
            await h.actor.stop()
            h.store.dispose()
    print(f"the views a card owes: table {statistics.median(table):.1f} ms, an edge's decode "
          f"{statistics.median(edge):.1f} ms; {len(messages)} message(s), "
          f"{sum(map(len, messages)):,} bytes")


if __name__ == "__main__":
    asyncio.run(main())
