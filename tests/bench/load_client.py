"""One process of the cluster benchmark's load client (tests/bench/bench_cluster.py): it owns a
share of the players' sessions and talks to the parent over its stdin/stdout, one JSON object
a line. One Python process reading 10,000 sockets was itself the slowest part of the figures;
several, each with its share, are not.

    parent -> child   {"do": "bet"} | {"do": "card", "code": "5c"} | {"do": "stop"}
    child -> parent   {"ready": n} once its players joined with their sockets open,
                      {"bet": n} once its players' bets are all accepted,
                      {"card": code, "at": [arrival, ...]} once each of its sockets got it

Arrival times are `time.monotonic()` (CLOCK_MONOTONIC: the same clock for every process of
the machine on Linux), compared with the parent's time of sending the card.

    python -m tests.bench.load_client SECRET TABLE CONCURRENCY BASE[,BASE...] FIRST:END
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
import time
import uuid
from typing import Any

import aiohttp

from studio.web.auth import TokenSigner

WAIT_S = 30.0  # the longest a card may take to reach every socket
CARD = re.compile(r'"type":"card_dealt".*?"card":"(\w+)"')


class Wall:
    """The real clock, as the studio processes run on it (tokens are signed against it)."""

    @staticmethod
    def now() -> float:
        return time.time()


def say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def run(secret: str, table: str, concurrency: int, bases: list[str], first: int,
              end: int) -> None:
    signer = TokenSigner(secret, Wall())
    players = [(i, f"p{i}") for i in range(first, end)]
    got: dict[str, list[float]] = {}
    arrived: dict[str, asyncio.Event] = {}
    gate = asyncio.Semaphore(concurrency)
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as s:
        async def join(i: int, player: str) -> tuple[str, dict[str, str], Any]:
            base = bases[i % len(bases)]
            token = signer.player_token(player, 3600)
            async with gate:
                async with s.post(f"{base}/api/player/join", json={"table_id": table},
                                  headers={"Authorization": f"Bearer {token}"}) as r:
                    joined = await r.json()
                ws = await s.ws_connect(f"{base}/ws/player?token={token}"
                                        f"&session={joined['session_id']}",
                                        headers={"Origin": base}, heartbeat=None)
            return base, {"Authorization": f"Bearer {token}",
                          "X-Session": joined["session_id"]}, ws

        sessions = await asyncio.gather(*(join(i, p) for i, p in players))

        async def read(ws: Any) -> None:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT or '"card_dealt"' not in msg.data:
                    continue
                now = time.monotonic()
                card = CARD.search(msg.data).group(1)
                times = got.setdefault(card, [])
                times.append(now)
                if len(times) == len(players):
                    arrived.setdefault(card, asyncio.Event()).set()
        readers = [asyncio.create_task(read(ws)) for _, _, ws in sessions]
        say({"ready": len(players)})

        async def bet(i: int, base: str, headers: dict[str, str]) -> None:
            async with gate, s.post(f"{base}/api/player/bets", headers=headers, json={
                    "key": uuid.uuid4().hex,
                    "bets": [{"position": 1 + i % 3, "kind": "main", "amount": 100}]}) as r:
                answer = await r.json()
            assert answer.get("ok"), answer

        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := await reader.readline():
            order = json.loads(line)
            if order["do"] == "bet":
                await asyncio.gather(*(bet(i, b, h) for (i, _), (b, h, _) in
                                       zip(players, sessions, strict=True)))
                say({"bet": len(players)})
            elif order["do"] == "card":
                code = order["code"]
                with contextlib.suppress(TimeoutError):  # bounded: the parent counts them
                    await asyncio.wait_for(arrived.setdefault(code, asyncio.Event()).wait(),
                                           WAIT_S)
                say({"card": code, "at": got.get(code, [])})
            else:
                break
        for task in readers:
            task.cancel()
        for _, _, ws in sessions:
            await ws.close()


def main() -> None:
    secret, table, concurrency, bases, span = sys.argv[1:6]
    first, end = (int(x) for x in span.split(":"))
    asyncio.run(run(secret, table, int(concurrency), bases.split(","), first, end))


if __name__ == "__main__":
    main()
