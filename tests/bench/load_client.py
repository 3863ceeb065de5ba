"""One process of the cluster benchmark's load client (tests/bench/bench_cluster.py): it owns a
share of the players' sessions and talks to the parent over its stdin/stdout, one JSON object
a line. One Python process reading 10,000 sockets was itself the slowest part of the figures;
several, each with its share, are not.

    parent -> child   {"do": "bet"} | {"do": "card", "code": "5c"} | {"do": "report"} |
                      {"do": "stop"}
    child -> parent   {"ready": n} once its players joined with their sockets open,
                      {"bet": n} once its players' bets are all accepted,
                      {"bytes": n} the bytes its sockets have read so far,
                      {"card": code, "at": [arrival, ...], "state_at": [...], "bytes": n}
                      once each of its sockets got it and the state after it (what the page
                      draws the card from; n: the bytes its sockets have read so far)

Arrival times are `time.monotonic()` (CLOCK_MONOTONIC: the same clock for every process of
the machine on Linux), compared with the parent's time of sending the card.

    python -m tests.bench.load_client SECRET TABLE CONCURRENCY BASE[,BASE...] FIRST:END
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

import aiohttp

from studio import event_loop
from studio.web.auth import TokenSigner

WAIT_S = 30.0  # the longest a card may take to reach every socket
CARD = re.compile(rb'"type":"card_dealt".*?"card":"(\w+)"')
# the server's heartbeat ping (empty); the answer, masked as a client's frame must be. JSON
# text is ASCII and a frame's length byte is below 0x80: 0x89 0x00 is nowhere else
PING, PONG = b"\x89\x00", b"\x8a\x80\x00\x00\x00\x00"
TAIL = 512  # bytes of a read kept for the next: a message cut between two reads is found
STATE = b'{"type":"state"'  # a state message's start (after a card: the table with it)
RECEIVED = [0]  # bytes read from every socket of this process (the states' share, too)


class Reader(asyncio.Protocol):
    """A player's WebSocket read as bytes, the least a client can do per message: the
    handshake, then each card_dealt's arrival noted (time.monotonic()). aiohttp's reader,
    a task and a decoded string per message, made the load client the slowest part."""

    def __init__(self, request: bytes, arrived: Callable[[str, float], None],
                 shown: Callable[[str, float], None]) -> None:
        self.request = request
        self.arrived = arrived
        self.shown = shown  # the first state after a card's event: the page draws the card
        self.awaiting: str | None = None  # a card whose event came, its state not yet
        self.open: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.buffer = b""
        self.seen: set[str] = set()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        buffer = self.buffer + data
        if not self.open.done():
            head, sep, buffer = buffer.partition(b"\r\n\r\n")
            if not sep:
                self.buffer = head
                return
            if not head.startswith(b"HTTP/1.1 101"):
                self.open.set_exception(RuntimeError(head[:200].decode()))
                return
            self.open.set_result(None)
        if PING in data and self.transport is not None:  # the server's heartbeat: answered
            self.transport.write(PONG)
        RECEIVED[0] += len(data)
        if b"card_dealt" not in buffer:  # most reads are states: no scan for a card
            if self.awaiting is not None and STATE in buffer:
                self.shown(self.awaiting, now)
                self.awaiting = None
            self.buffer = buffer[-TAIL:]
            return
        end = 0
        for m in CARD.finditer(buffer):
            card = m.group(1).decode()
            end = m.end()
            if card not in self.seen:
                self.seen.add(card)
                self.arrived(card, now)
                self.awaiting = card
        if self.awaiting is not None and STATE in buffer[end:]:
            self.shown(self.awaiting, now)
            self.awaiting = None
        self.buffer = buffer[max(end, len(buffer) - TAIL):]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.open.done():
            self.open.set_exception(ConnectionError("closed before the handshake"))


async def open_socket(base: str, path: str, arrived: Callable[[str, float], None],
                      shown: Callable[[str, float], None]) -> Reader:
    host, port = base.removeprefix("http://").split(":")
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: {base}\r\n\r\n").encode()
    _, reader = await asyncio.get_running_loop().create_connection(
        lambda: Reader(request, arrived, shown), host, int(port))
    await reader.open
    return reader


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

    def noter(times_by_card: dict[str, list[float]], all_in: dict[str, asyncio.Event]
              ) -> Callable[[str, float], None]:
        def note(card: str, at: float) -> None:
            times = times_by_card.setdefault(card, [])
            times.append(at)
            if len(times) == len(players):
                all_in.setdefault(card, asyncio.Event()).set()
        return note
    note = noter(got, arrived)
    states: dict[str, list[float]] = {}  # the first state after each card's event
    stated: dict[str, asyncio.Event] = {}
    note_state = noter(states, stated)
    conn = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=conn) as s:
        async def join(i: int, player: str) -> tuple[str, dict[str, str], Reader]:
            base = bases[i % len(bases)]
            token = signer.player_token(player, 3600)
            async with gate:
                async with s.post(f"{base}/api/player/join", json={"table_id": table},
                                  headers={"Authorization": f"Bearer {token}"}) as r:
                    joined = await r.json()
                ws = await open_socket(base, f"/ws/player?token={token}"
                                       f"&session={joined['session_id']}", note, note_state)
            return base, {"Authorization": f"Bearer {token}",
                          "X-Session": joined["session_id"]}, ws

        sessions = await asyncio.gather(*(join(i, p) for i, p in players))
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
                for waited in (arrived, stated):  # bounded: the parent counts them
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(waited.setdefault(code, asyncio.Event()).wait(),
                                               WAIT_S)
                say({"card": code, "at": got.get(code, []), "state_at": states.get(code, []),
                     "bytes": RECEIVED[0]})
            elif order["do"] == "report":
                say({"bytes": RECEIVED[0]})
            else:
                break
        for _, _, ws in sessions:
            if ws.transport is not None:
                ws.transport.close()


def main() -> None:
    secret, table, concurrency, bases, span = sys.argv[1:6]
    first, end = (int(x) for x in span.split(":"))
    event_loop.run(run(secret, table, int(concurrency), bases.split(","), first, end))


if __name__ == "__main__":
    main()
