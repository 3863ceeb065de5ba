"""One table event to N connected players in one process: how long until every player's
socket has it (and the state that follows a burst), and the longest the event loop went
without a turn meanwhile (a serial reader, a timer or another table waits that long).

Baseline in the same run: the path before this change (every connection encoded the event
itself, and the whole fan-out ran in one go without giving the event loop a turn).

    .venv/bin/python -m tests.bench.bench_fanout [--players 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from studio.runtime import tune_gc
from studio.web import ws as wsmod
from studio.web.frames import split_frames
from tests.browser.harness import StudioHarness


class CountingSocket:
    """A client that reads everything at once: what is measured is the server's side."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_str(self, text: str) -> None:
        self.sent += 1

    async def send_json(self, message: Any) -> None:
        import json

        json.dumps(message)  # aiohttp encodes before it writes
        self.sent += 1

    async def close(self, **kwargs: Any) -> None:
        return None


class CountingTransport:
    """A socket's write end that takes every frame at once (the server's side is measured)."""

    def __init__(self, socket: CountingSocket) -> None:
        self.socket = socket

    def write(self, data: bytes) -> None:
        self.socket.sent += len(split_frames(data))  # a burst's frames come in one write

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False


class PerClientConnection(wsmod.Connection):
    """The baseline: each connection takes the event as a dict and encodes it itself."""

    def start(self):  # type: ignore[override]
        self.queue.put_nowait(self._state(True))
        return self.service.subscribe(self.audience, self.deliver)


async def fan_out(h: StudioHarness, players: int, per_client: bool,
                  state_text: bool = False, frames: bool = False) -> dict[str, float]:
    """`state_text`: each player's state as the studio sends it now (the public part encoded
    once, the player's part appended); otherwise a whole snapshot per player, encoded per
    player (the state before)."""
    from studio.web import tables

    tables.FANOUT_CHUNK = 10**9 if per_client else 1000
    service = h.service
    cls = PerClientConnection if per_client else wsmod.Connection

    def state(audience: str):
        if state_text:
            return lambda b: '{"type":"state","table":' + service.state_text(audience) + "}"
        return lambda b: {"type": "state", "table": service.view(audience)}
    conns = []
    for i in range(players):
        audience = f"player:p{i:05d}"
        socket = CountingSocket()
        conn = cls(socket, service, audience, state(audience)) if not frames else cls(
            socket, service, audience, state(audience), transport=CountingTransport(socket),
            shared_state=True)
        conn.start()
        conns.append((conn, asyncio.create_task(conn.sender())))
    while any(not c.queue.empty() for c, _ in conns):  # the first states go out
        await asyncio.sleep(0.01)
    stalls: list[float] = []
    stop = False

    async def probe() -> None:  # a timer wanting a turn every 5 ms
        last = time.perf_counter()
        while not stop:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            stalls.append(now - last - 0.005)
            last = now

    probing = asyncio.create_task(probe())
    before = [c.ws.sent for c, _ in conns]
    started = time.perf_counter()
    h.actor.hub.publish(h.table_id, "public", {"type": "card_dealt", "table_id": h.table_id,
                                               "round_id": "R", "card": "7c",
                                               "source": "shoe", "to": "position",
                                               "position": 1})
    # every client: the event, then the state of the burst
    while any(c.ws.sent < b + 2 for (c, _), b in zip(conns, before, strict=True)):
        await asyncio.sleep(0.001)
    seconds = time.perf_counter() - started
    stop = True
    await probing
    for _, task in conns:
        task.cancel()
    await asyncio.gather(*(t for _, t in conns), return_exceptions=True)
    service._by_audience.clear()
    return {"seconds": seconds, "max_stall_ms": 1000 * max(stalls, default=0.0)}


async def main_async(players: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        h = StudioHarness(Path(tmp))
        await h.start()
        try:
            base = await fan_out(h, players, per_client=True)
            new = await fan_out(h, players, per_client=False)
            text = await fan_out(h, players, per_client=False, state_text=True)
            framed = await fan_out(h, players, per_client=False, frames=True)
        finally:
            await h.stop()
    print(f"A card event to {players:,} connected players in one process "
          "(the event, then each player's state):")
    print(f"  each form encoded once, in chunks of {1000}: {1000 * new['seconds']:,.0f} ms "
          "to the last player, "
          f"longest loop stall {new['max_stall_ms']:,.0f} ms")
    print(f"  and each player's state from the public part encoded once: "
          f"{1000 * text['seconds']:,.0f} ms to the last player, longest loop stall "
          f"{text['max_stall_ms']:,.0f} ms (x{new['seconds'] / text['seconds']:.2f} against "
          "a snapshot per player)")
    print(f"  framed once, written straight to each socket, the state shared by alike "
          f"players: {1000 * framed['seconds']:,.0f} ms to the last player, longest loop "
          f"stall {framed['max_stall_ms']:,.0f} ms (x{text['seconds'] / framed['seconds']:.2f} "
          "against a sender task per player)")
    print(f"  baseline, encoded per client in one go: {1000 * base['seconds']:,.0f} ms, "
          "longest stall "
          f"{base['max_stall_ms']:,.0f} ms  (x{base['seconds'] / new['seconds']:.2f})")
    print("  (device liveness no longer rests on the loop: the heartbeat watchdog reads the "
          "port before it declares a device offline)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    args = ap.parse_args()
    tune_gc()
    asyncio.run(main_async(args.players))


if __name__ == "__main__":
    main()
