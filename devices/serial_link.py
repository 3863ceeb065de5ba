"""The serial link under every device reader: open the port, read frames, reconnect with
exponential backoff when the port vanishes, and watch the heartbeat.

Why `loop.add_reader` on the port's file descriptor rather than a blocking read in a thread:
the port is opened non-blocking by pyserial, so the event loop wakes us exactly when bytes
arrive (no thread hop, lower latency), an unplug shows up at once as a hang-up/EIO on the fd,
and stopping is just removing the reader (a thread stuck in read() cannot be cancelled).
pyserial still opens and configures the port (raw mode, baud rate), so real USB-serial adapters
and our pseudo-terminal simulators are handled alike. The cost is POSIX only, which the studio is.

Time is injected (`Clock`): tests drive heartbeat timeouts and backoff with `ManualClock`
instead of sleeping.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import os
import re
import tempfile
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import serial

from devices import protocol as p
from devices.events import (
    DeviceEvent,
    DeviceFault,
    DeviceStatus,
    FaultCode,
    StatusCode,
)

log = logging.getLogger(__name__)

DEFAULT_BAUD = 115200
DEFAULT_HEARTBEAT_TIMEOUT_S = 3.0  # used when the config gives none (three missed heartbeats)

EventSink = asyncio.Queue | Callable[[DeviceEvent], Awaitable[None]]


# ---------------------------------------------------------------------------------------------
# Time


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """The real clock: time.monotonic and asyncio.sleep."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that only moves when told to: `advance(dt)` wakes the sleepers that are due.

    `requested` records every sleep asked for, in order, so a test can check a backoff sequence;
    `wait_for_sleeper(dt)` waits until some coroutine is sleeping for exactly `dt`.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, float, asyncio.Future[None]]] = []
        self._ids = itertools.count()
        self._changed: asyncio.Event | None = None
        self.requested: list[float] = []

    def now(self) -> float:
        return self._now

    def _event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    async def sleep(self, seconds: float) -> None:
        self.requested.append(seconds)
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._ids), seconds, fut))
        self._event().set()
        await fut

    def pending(self) -> list[float]:
        """The durations of the sleeps still waiting."""
        return [dt for _, _, dt, fut in self._sleepers if not fut.done()]

    def advance(self, seconds: float) -> None:
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            *_, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)

    async def wait_for_sleeper(self, seconds: float | None = None) -> float:
        """Wait until a coroutine sleeps (for exactly `seconds`, if given); return the duration."""
        while True:
            for dt in self.pending():
                if seconds is None or abs(dt - seconds) < 1e-9:
                    return dt
            ev = self._event()
            ev.clear()
            await ev.wait()


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff between reconnect attempts: initial, initial*factor, ... up to max."""

    initial_s: float = 0.1
    factor: float = 2.0
    max_s: float = 5.0

    def delay(self, attempt: int) -> float:
        return min(self.max_s, self.initial_s * self.factor ** attempt)


# ---------------------------------------------------------------------------------------------
# Ports


def sim_instance(instance: str | None = None) -> str:
    """The studio instance whose simulator links these are: two studios on one machine (two
    rehearsals, a demo beside a served studio) each have their own, so neither replaces the
    other's. `STUDIO_INSTANCE` names it for `studio serve` and `studio sim`; "default" else."""
    name = instance or os.environ.get("STUDIO_INSTANCE") or "default"
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name):
        raise ValueError(f"a studio instance is a short name of letters and digits: {name!r}")
    return name


def sim_link_path(table_id: str, device: str, instance: str | None = None) -> Path:
    """Where `studio sim <device> --table <id>` puts its symlink when the config says "sim"."""
    return (Path(tempfile.gettempdir()) / "studio-sim" / sim_instance(instance)
            / f"{table_id}-{device}")


def resolve_port(port: str, table_id: str, device: str) -> str:
    """A config port: a device path, or "sim" for the simulator's well-known link path."""
    return str(sim_link_path(table_id, device)) if port == "sim" else port


def open_serial(port: str, baud: int) -> serial.Serial:
    """Open a port non-blocking and raw (pyserial flushes stale input on open)."""
    return serial.Serial(port, baud, timeout=0, write_timeout=0)


# ---------------------------------------------------------------------------------------------
# The reader


class DeviceReader(ABC):
    """Base of ShoeReader and ShufflerReader: link, framing, sequence, liveness, events.

    Subclasses implement `_on_message(frame, msg, gap)`; `gap` is true when the frame came after
    lost frames (the gap fault is already emitted) so a subclass can refuse to turn it into a card.
    """

    kind: p.DeviceKind
    accepted_types: frozenset[int] = frozenset()

    def __init__(
        self,
        port: str,
        baud: int = DEFAULT_BAUD,
        *,
        name: str | None = None,
        sink: EventSink | None = None,
        heartbeat_timeout_s: float = DEFAULT_HEARTBEAT_TIMEOUT_S,
        backoff: Backoff | None = None,
        clock: Clock | None = None,
        opener: Callable[[str, int], serial.Serial] = open_serial,
        send_acks: bool = True,
    ) -> None:
        self.port = port
        self.baud = baud
        self.name = name or self.kind.name.lower()
        self.heartbeat_timeout_s = heartbeat_timeout_s
        self.backoff = backoff or Backoff()
        self.clock: Clock = clock or MonotonicClock()
        self._opener = opener
        self.send_acks = send_acks
        self._callback: Callable[[DeviceEvent], Awaitable[None]] | None = None
        if isinstance(sink, asyncio.Queue):
            self.events: asyncio.Queue[DeviceEvent] = sink
        else:
            self.events = asyncio.Queue()
            self._callback = sink
        self.counters: Counter[str] = Counter()
        self.online = False
        self._expected_seq: int | None = None
        self._boot: int | None = None
        self._tx_seq = 0
        self._last_good_at = 0.0
        self._online_wake = asyncio.Event()
        self._port_open = asyncio.Event()
        self._fd: int | None = None
        self._drained = False  # the watchdog read the port's waiting bytes itself
        self._decoder = p.FrameDecoder()
        self._tasks: list[asyncio.Task[None]] = []

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start reading in the background; returns at once (see wait_port_open)."""
        if self._tasks:
            return
        if self._callback is not None:
            self._tasks.append(asyncio.create_task(self._dispatch(), name=f"{self.name}-dispatch"))
        self._tasks.append(asyncio.create_task(self._run(), name=f"{self.name}-link"))
        self._tasks.append(asyncio.create_task(self._watchdog(), name=f"{self.name}-watchdog"))

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except asyncio.CancelledError:
                pass
        self._tasks.clear()

    async def wait_port_open(self) -> None:
        """Wait until the port is open (tests and the simulator use it to start dealing)."""
        await self._port_open.wait()

    @property
    def port_open(self) -> bool:
        return self._port_open.is_set()

    def fault_counts(self) -> dict[str, int]:
        return {k: v for k, v in self.counters.items() if k.startswith("serial.")}

    # -- link -----------------------------------------------------------------------------

    async def _run(self) -> None:
        attempt = 0
        while True:
            try:
                ser = self._opener(self.port, self.baud)
            except (OSError, serial.SerialException, ValueError) as e:
                delay = self.backoff.delay(attempt)
                if attempt == 0:
                    log.warning("%s: cannot open %s (%s); retrying with backoff",
                                self.name, self.port, e)
                attempt += 1
                self.counters["open_failures"] += 1
                await self.clock.sleep(delay)
                continue
            attempt = 0
            self.counters["connects"] += 1
            try:
                reason = await self._pump(ser)
            finally:
                self._port_open.clear()
                self._fd = None
                try:
                    ser.close()
                except (OSError, serial.SerialException):
                    pass
            log.warning("%s: port %s lost: %s", self.name, self.port, reason)
            self._go_offline(StatusCode.PORT_LOST, f"port {self.port} lost: {reason}")

    async def _pump(self, ser: serial.Serial) -> str:
        loop = asyncio.get_running_loop()
        fd = ser.fileno()
        lost: asyncio.Future[str] = loop.create_future()

        def readable() -> None:
            try:
                data = os.read(fd, 4096)
            except BlockingIOError:
                return
            except OSError as e:
                data, why = b"", f"read error: {e}"
            else:
                why = "end of file"
            if not data and self._drained:
                # the watchdog read what made the port readable: nothing left, not an EOF
                self._drained = False
                return
            self._drained = False
            if not data:
                loop.remove_reader(fd)
                if not lost.done():
                    lost.set_result(why)
                return
            try:
                self._on_bytes(data, self.clock.now())
            except Exception:  # a bug here must not kill the link; it is logged loudly
                log.exception("%s: error handling %s", self.name, data.hex(" "))

        self._decoder = p.FrameDecoder()  # a new connection starts unsynchronised
        self._fd = fd
        loop.add_reader(fd, readable)
        self._port_open.set()
        try:
            return await lost
        finally:
            loop.remove_reader(fd)

    def _send(self, msg: p.Message) -> None:
        """Best effort: an ACK/NAK that cannot be written now is counted, never waited for."""
        if not self.send_acks or self._fd is None:
            return
        try:
            os.write(self._fd, p.encode_frame(self._tx_seq, msg))
            self._tx_seq = (self._tx_seq + 1) % p.SEQ_MOD
        except OSError:
            self.counters["tx_dropped"] += 1

    # -- frames ---------------------------------------------------------------------------

    def _on_bytes(self, data: bytes, now: float) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, p.FrameError):
                self.fault(FaultCode(item.code), item.detail, item.raw, None, now)
                self._send(p.Nak(self._expected_seq or 0, _nak_reason(item.code)))
                continue
            self._on_frame(item, now)

    def _on_frame(self, frame: p.Frame, now: float) -> None:
        self.counters["frames"] += 1
        self._last_good_at = now
        if not self.online:
            self.online = True
            self._online_wake.set()
            self._emit(DeviceStatus(self.name, True, StatusCode.ONLINE, "good frame received",
                                    now))
        if frame.type == p.MsgType.HEARTBEAT and len(frame.payload) == 3:
            boot = int.from_bytes(frame.payload[1:3], "big")
            if self._boot is not None and boot != self._boot:
                self.fault(FaultCode.DEVICE_RESTARTED,
                           f"boot id {self._boot:04x} -> {boot:04x}; sequence restarts at "
                           f"{frame.seq}", frame.raw, frame.seq, now)
                self._expected_seq = None  # frames before the restart may have been lost
            self._boot = boot
        gap = False
        if self._expected_seq is not None:
            d = p.seq_distance(frame.seq, self._expected_seq)
            if d < 0:
                self.fault(FaultCode.SEQ_DUPLICATE,
                           f"seq {frame.seq} again (expected {self._expected_seq})",
                           frame.raw, frame.seq, now)
                self._send(p.Nak(self._expected_seq, p.NakReason.SEQ_DUPLICATE))
                return
            if d > 0:
                gap = True
                self.fault(FaultCode.SEQ_GAP,
                           f"{d} frame(s) lost before seq {frame.seq} "
                           f"(expected {self._expected_seq})", frame.raw, frame.seq, now)
                self._send(p.Nak(self._expected_seq, p.NakReason.SEQ_GAP))
        self._expected_seq = (frame.seq + 1) % p.SEQ_MOD
        if frame.type in (p.MsgType.ACK, p.MsgType.NAK):
            return  # devices do not acknowledge us today; tolerated, ignored
        try:
            msg = p.decode_message(frame)
        except p.ProtocolError as e:
            self.fault(FaultCode(e.code), e.detail, frame.raw, frame.seq, now)
            return
        if isinstance(msg, p.Heartbeat):
            if msg.kind != self.kind:
                self.fault(FaultCode.WRONG_DEVICE,
                           f"heartbeat of a {msg.kind.name.lower()} on the {self.name} port",
                           frame.raw, frame.seq, now)
            return
        if frame.type not in self.accepted_types:
            self.fault(FaultCode.WRONG_DEVICE,
                       f"{p.MsgType(frame.type).name} is not sent by a {self.kind.name.lower()}",
                       frame.raw, frame.seq, now)
            return
        accepted = self._on_message(frame, msg, gap, now)
        if gap:
            return  # already NAKed
        self._send(p.Ack(frame.seq) if accepted else p.Nak(frame.seq, p.NakReason.REJECTED))

    @abstractmethod
    def _on_message(self, frame: p.Frame, msg: p.Message, gap: bool, now: float) -> bool:
        """Handle an accepted message; return False if it was refused (fault emitted).
        The shoe and the shuffler readers each say what their messages mean."""

    # -- events ---------------------------------------------------------------------------

    def fault(self, code: FaultCode, detail: str, raw: bytes, seq: int | None, now: float) -> None:
        self.counters[code] += 1
        log.warning("%s fault %s: %s raw=%s", self.name, code, detail, raw.hex(" "))
        self._emit(DeviceFault(self.name, code, detail, raw, seq, now))

    def _emit(self, event: DeviceEvent) -> None:
        self.events.put_nowait(event)

    async def _dispatch(self) -> None:
        assert self._callback is not None
        while True:
            event = await self.events.get()
            try:
                await self._callback(event)
            except Exception:
                log.exception("%s: event callback failed on %r", self.name, event)

    def _go_offline(self, code: StatusCode, detail: str) -> None:
        if not self.online:
            return
        self.online = False
        self._online_wake.clear()
        self._emit(DeviceStatus(self.name, False, code, detail, self.clock.now()))

    async def _watchdog(self) -> None:
        """OFFLINE when no good frame (heartbeat or other) arrived within the timeout."""
        while True:
            if not self.online:
                await self._online_wake.wait()
                continue
            remaining = self._last_good_at + self.heartbeat_timeout_s - self.clock.now()
            if remaining <= 0:
                self._read_waiting()  # what the device said while the loop was busy
                remaining = self._last_good_at + self.heartbeat_timeout_s - self.clock.now()
            if remaining <= 0:
                self._go_offline(StatusCode.HEARTBEAT_TIMEOUT,
                                 f"no frame for {self.heartbeat_timeout_s:g} s")
                continue
            await self.clock.sleep(remaining)

    def _read_waiting(self) -> None:
        """Read the bytes waiting in the port now. A device is alive when its frames reach
        the port, whether or not the event loop (busy with thousands of players) has got
        round to reading them: the watchdog asks the port before it says "offline"."""
        while self._fd is not None:
            try:
                data = os.read(self._fd, 4096)
            except OSError:  # nothing waiting (BlockingIOError), or the port is going
                return
            if not data:
                return
            self._drained = True  # the loop may still see the port readable: not an EOF
            self._on_bytes(data, self.clock.now())


def _nak_reason(code: str) -> p.NakReason:
    return p.NakReason.CHECKSUM if code == p.FRAME_CHECKSUM else p.NakReason.MALFORMED
