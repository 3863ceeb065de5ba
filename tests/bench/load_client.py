"""One process of the cluster benchmark's load client (tests/bench/bench_cluster.py): it owns a
share of the players' sessions and talks to the parent over its stdin/stdout, one JSON object
a line. One Python process reading 10,000 sockets was itself the slowest part of the figures;
several, each with its share, are not.

    parent -> child   {"do": "bet"} | {"do": "card", "code": "5c"} | {"do": "report"} |
                      {"do": "stop"}
    child -> parent   {"ready": n} once its players joined with their sockets open,
                      {"bet": n} once its players' bets are all accepted,
                      {"bytes": n} the bytes its sockets have read so far,
                      {"card": code, "at": [read, ...], "arrived": [...], "state_at": [...],
                      "state_arrived": [...], "bytes": n}
                      once each of its sockets got it and the state after it (what the page
                      draws the card from; n: the bytes its sockets have read so far)

Two times per socket: when this process read it (`at`, `state_at`: time.monotonic(),
CLOCK_MONOTONIC, the same clock for every process of the machine on Linux), and when the
kernel put it in the socket (`arrived`, `state_arrived`: SO_TIMESTAMPNS, CLOCK_REALTIME),
compared with the parent's times of sending the card on the same clocks. The second is the
card's arrival at the client, however late this process, sharing two cores with the studio,
gets to read it; the first adds that lateness.

    python -m tests.bench.load_client SECRET TABLE CONCURRENCY BASE[,BASE...] FIRST:END
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import socket
import struct
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


# the kernel's time of each read's data reaching the socket (CLOCK_REALTIME, struct timespec):
# when a card arrived at the client, whenever this process gets to read it (it shares the
# machine's two cores with the studio)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
STAMP_SPACE = socket.CMSG_SPACE(16)

Note = Callable[[str, float, float], None]  # (card, read at (monotonic), arrived at (real))


class Reader:
    """A player's WebSocket read as bytes from its socket, the least a client can do per
    message: each card_dealt's arrival noted twice, when the kernel put it in the socket
    (SO_TIMESTAMPNS) and when this process read it (time.monotonic()). aiohttp's reader, a
    task and a decoded string per message, made the load client the slowest part."""

    def __init__(self, sock: socket.socket, arrived: Note, shown: Note) -> None:
        # stamped from now on (the kernel stamps what arrives once one socket asks)
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock = sock
        self.arrived = arrived
        self.shown = shown  # the first state after a card's event: the page draws the card
        self.awaiting: str | None = None  # a card whose event came, its state not yet
        self.buffer = b""
        self.seen: set[str] = set()
        self.stamped = 0  # reads the kernel stamped (the others fall back to the read's time)

    def start(self, rest: bytes) -> None:
        """After the handshake (`rest`: what came after it): reads on."""
        asyncio.get_running_loop().add_reader(self.sock.fileno(), self.readable)
        if rest:
            self.received(rest, time.monotonic(), time.time())

    def readable(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(1 << 16, STAMP_SPACE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data, ancillary = b"", []
        now = time.monotonic()
        if not data:
            self.close()
            return
        stamp = time.time()
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, ns = struct.unpack("qq", value[:16])
                stamp = sec + ns / 1e9
                self.stamped += 1
        self.received(data, now, stamp)

    def received(self, data: bytes, now: float, stamp: float) -> None:
        buffer = self.buffer + data
        if PING in data:  # the server's heartbeat: answered
            with contextlib.suppress(OSError):
                self.sock.send(PONG)
        RECEIVED[0] += len(data)
        if b"card_dealt" not in buffer:  # most reads are states: no scan for a card
            if self.awaiting is not None and STATE in buffer:
                self.shown(self.awaiting, now, stamp)
                self.awaiting = None
            self.buffer = buffer[-TAIL:]
            return
        end = 0
        for m in CARD.finditer(buffer):
            card = m.group(1).decode()
            end = m.end()
            if card not in self.seen:
                self.seen.add(card)
                self.arrived(card, now, stamp)
                self.awaiting = card
        if self.awaiting is not None and STATE in buffer[end:]:
            self.shown(self.awaiting, now, stamp)
            self.awaiting = None
        self.buffer = buffer[max(end, len(buffer) - TAIL):]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()


async def open_socket(base: str, path: str, arrived: Note, shown: Note) -> Reader:
    """The WebSocket handshake on a plain socket, then its reader."""
    host, port = base.removeprefix("http://").split(":")
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: {base}\r\n\r\n").encode()
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        await loop.sock_connect(sock, (host, int(port)))
        await loop.sock_sendall(sock, request)
        got = b""
        while b"\r\n\r\n" not in got:
            chunk = await loop.sock_recv(sock, 1 << 16)
            if not chunk:
                raise ConnectionError("closed before the handshake")
            got += chunk
    except BaseException:
        sock.close()
        raise
    head, _, rest = got.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        sock.close()
        raise RuntimeError(head[:200].decode())
    reader = Reader(sock, arrived, shown)
    reader.start(rest)
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
    got: dict[str, list[tuple[float, float]]] = {}
    arrived: dict[str, asyncio.Event] = {}
    gate = asyncio.Semaphore(concurrency)

    def noter(times_by_card: dict[str, list[tuple[float, float]]],
              all_in: dict[str, asyncio.Event]) -> Note:
        def note(card: str, at: float, stamp: float) -> None:
            times = times_by_card.setdefault(card, [])
            times.append((at, stamp))
            if len(times) == len(players):
                all_in.setdefault(card, asyncio.Event()).set()
        return note
    note = noter(got, arrived)
    states: dict[str, list[tuple[float, float]]] = {}  # the first state after each card
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
                cards, shown = got.get(code, []), states.get(code, [])
                say({"card": code, "at": [t for t, _ in cards],
                     "arrived": [t for _, t in cards], "state_at": [t for t, _ in shown],
                     "state_arrived": [t for _, t in shown], "bytes": RECEIVED[0]})
            elif order["do"] == "report":
                say({"bytes": RECEIVED[0]})
            else:
                break
        for _, _, ws in sessions:
            ws.close()


def main() -> None:
    secret, table, concurrency, bases, span = sys.argv[1:6]
    first, end = (int(x) for x in span.split(":"))
    event_loop.run(run(secret, table, int(concurrency), bases.split(","), first, end))


if __name__ == "__main__":
    main()
