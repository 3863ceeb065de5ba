"""What the shoe and shuffler simulators share: sequence numbers, heartbeats, reading the host's
ACK/NAK frames, and fault injection.

A simulator is driven in-process (await its methods, e.g. from a technicians' web page) or from
the command line (`studio sim shoe|shuffler`, one text command per line, see `command`). Faults
it can inject, by name:

    garbage [n]   n random non-zero bytes, outside any frame (default 16)
    bitflip       the next frame goes out with one bit flipped (CRC catches it)
    drop [n]      the next n frames are not sent (their sequence numbers are used: a gap)
    duplicate     the last card/state frame is sent again, same bytes, same sequence number
    unplug        close the line (the pty and its link vanish); `replug` opens a new one
    stuck         stop heartbeats; `unstuck` resumes them (and sends one at once)

The shoe adds `foreign [set]`, `repeat`, `badcode` (devices/sim_shoe.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections import Counter
from collections.abc import Awaitable, Callable

from devices import protocol as p
from devices.pty_pair import SimLink
from studio.tasks import cancel

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]


class SimError(ValueError):
    """A bad simulator command; `code` is stable (sim.*)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


COMMON_FAULTS = ("garbage", "bitflip", "drop", "duplicate", "unplug", "replug", "stuck", "unstuck")


class DeviceSim:
    kind: p.DeviceKind
    duplicate_type: p.MsgType
    faults: tuple[str, ...] = COMMON_FAULTS

    def __init__(
        self,
        link: SimLink,
        *,
        rng: random.Random | None = None,
        heartbeat_s: float | None = 1.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.link = link
        self.rng = rng or random.SystemRandom()
        self.heartbeat_s = heartbeat_s
        self._sleep = sleep
        self.boot = self.rng.getrandbits(16)  # a new one per simulated power-on
        self.seq = 0  # the next sequence number to send
        self.last_seq: int | None = None  # the last one used (sent or lost)
        self.stuck = False
        self.counters: Counter[str] = Counter()
        self.acks: list[int] = []
        self.naks: list[p.Nak] = []
        self._drop_next = 0
        self._flip_next = False
        self._last_wire: dict[int, bytes] = {}
        self._decoder = p.FrameDecoder()
        self._reading_fd: int | None = None
        self._heartbeat_task: asyncio.Task[None] | None = None
        self._host_changed = asyncio.Event()

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def path(self) -> str:
        return self.link.path

    async def start(self) -> None:
        """Power on: open the line and send a heartbeat at once (it carries the boot id)."""
        self.link.open()
        self._watch_host()
        await self.heartbeat_now()
        if self.heartbeat_s and self._heartbeat_task is None:
            self._heartbeat_task = asyncio.create_task(self._heartbeats())

    async def stop(self) -> None:
        await cancel(self._heartbeat_task)
        self._heartbeat_task = None
        self._unwatch_host()
        self.link.close()

    async def _heartbeats(self) -> None:
        assert self.heartbeat_s
        while True:
            await self._sleep(self.heartbeat_s)
            if not self.stuck:
                await self.heartbeat_now()

    # -- sending --------------------------------------------------------------------------

    async def heartbeat_now(self) -> int:
        return await self.send(p.Heartbeat(self.kind, self.boot))

    async def send(self, msg: p.Message) -> int:
        """Send one message with the next sequence number (or lose it, if a fault says so)."""
        seq = self.last_seq = self.seq
        self.seq = (seq + 1) % p.SEQ_MOD
        msg_type, payload = p.encode_payload(msg)
        body = p.encode_body(seq, msg_type, payload)
        if self._drop_next:
            self._drop_next -= 1
            self.counters["dropped"] += 1
            return seq
        if self._flip_next:
            self._flip_next = False
            body = self._flip_bit(body)
        wire = p.frame_body(body)
        self._last_wire[msg_type] = wire
        self._write(wire)
        return seq

    def _flip_bit(self, body: bytes) -> bytes:
        # Not the version or length byte: those make it "malformed"; this is a checksum fault.
        index = self.rng.choice([i for i in range(1, len(body)) if i != 4])
        out = bytearray(body)
        out[index] ^= 1 << self.rng.randrange(8)
        return bytes(out)

    def _write(self, data: bytes) -> None:
        fd = self.link.fd
        if fd is None:
            self.counters["lost_unplugged"] += 1  # nobody on the line: the bytes are gone
            return
        try:
            written = os.write(fd, data)
        except BlockingIOError:
            self.counters["lost_unread"] += 1  # the host is not reading; a real line drops too
            return
        except OSError as e:
            self.counters["write_errors"] += 1
            log.warning("sim %s: write failed: %s", self.kind.name.lower(), e)
            return
        if written < len(data):
            self.counters["lost_unread"] += 1

    # -- faults ---------------------------------------------------------------------------

    async def inject(self, fault: str, arg: str | None = None) -> str:
        """Inject a fault by name (module docstring); returns what was done."""
        if fault not in self.faults:
            raise SimError("sim.unknown_fault",
                           f"unknown fault {fault!r}; one of {', '.join(self.faults)}")
        return await getattr(self, f"_fault_{fault}")(arg)

    async def _fault_garbage(self, arg: str | None) -> str:
        n = _count(arg, 16)
        self._write(bytes(self.rng.randrange(1, 256) for _ in range(n)))
        return f"garbage {n} bytes"

    async def _fault_bitflip(self, arg: str | None) -> str:
        self._flip_next = True
        return "next frame will have a bit flipped"

    async def _fault_drop(self, arg: str | None) -> str:
        n = _count(arg, 1)
        self._drop_next += n
        return f"next {n} frame(s) will be dropped"

    async def _fault_duplicate(self, arg: str | None) -> str:
        wire = self._last_wire.get(self.duplicate_type)
        if wire is None:
            raise SimError("sim.nothing_to_duplicate", "no frame to duplicate yet")
        self._write(wire)
        return "last frame sent again"

    async def _fault_unplug(self, arg: str | None) -> str:
        self.unplug()
        return "unplugged"

    async def _fault_replug(self, arg: str | None) -> str:
        self.replug()
        return f"replugged at {self.path}"

    async def _fault_stuck(self, arg: str | None) -> str:
        self.stuck = True
        return "heartbeats stopped"

    async def _fault_unstuck(self, arg: str | None) -> str:
        self.stuck = False
        await self.heartbeat_now()
        return "heartbeats resumed"

    def unplug(self) -> None:
        self._unwatch_host()
        self.link.close()

    def replug(self) -> None:
        self.link.open()
        self._watch_host()

    # -- the host's frames ----------------------------------------------------------------

    def _watch_host(self) -> None:
        fd = self.link.fd
        if fd is None or self._reading_fd == fd:
            return
        self._unwatch_host()
        self._decoder = p.FrameDecoder()
        asyncio.get_running_loop().add_reader(fd, self._host_readable, fd)
        self._reading_fd = fd

    def _unwatch_host(self) -> None:
        if self._reading_fd is not None:
            asyncio.get_running_loop().remove_reader(self._reading_fd)
            self._reading_fd = None

    def _host_readable(self, fd: int) -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._unwatch_host()
            return
        for item in self._decoder.feed(data):
            if isinstance(item, p.FrameError):
                self.counters["host_bad_frames"] += 1
                continue
            try:
                msg = p.decode_message(item)
            except p.ProtocolError:
                self.counters["host_bad_frames"] += 1
                continue
            if isinstance(msg, p.Ack):
                self.acks.append(msg.seq)
            elif isinstance(msg, p.Nak):
                self.naks.append(msg)
        self._host_changed.set()

    async def wait_acked(self, seq: int) -> None:
        """Wait until the host has acknowledged `seq` (tests; a technician's page)."""
        await self.wait_host(lambda: seq in self.acks)

    async def wait_nak(self, reason: p.NakReason) -> p.Nak:
        """Wait until the host has sent a NAK with this reason; return the first such."""
        await self.wait_host(lambda: any(n.reason is reason for n in self.naks))
        return next(n for n in self.naks if n.reason is reason)

    async def wait_host(self, condition: Callable[[], bool]) -> None:
        """Wait until `condition()` holds, re-checked after each batch of host frames."""
        while not condition():
            self._host_changed.clear()
            await self._host_changed.wait()

    # -- text commands --------------------------------------------------------------------

    async def command(self, line: str) -> str:
        """One control line (the CLI's stdin, a technician's page); returns an "ok ..." text.
        Raises SimError for a bad command."""
        words = line.split()
        if not words:
            raise SimError("sim.empty_command", "empty command")
        verb, args = words[0].lower(), words[1:]
        if verb == "heartbeat":
            return f"ok heartbeat seq={await self.heartbeat_now()}"
        if verb == "fault":
            if not args:
                raise SimError("sim.missing_argument", f"fault needs one of {self.faults}")
            return "ok " + await self.inject(args[0].lower(), args[1] if len(args) > 1 else None)
        if verb == "info":
            return f"ok {self.info()}"
        return await self._command(verb, args)

    async def _command(self, verb: str, args: list[str]) -> str:
        raise SimError("sim.unknown_command", f"unknown command {verb!r}")

    def info(self) -> str:
        return (f"path={self.path} plugged={self.link.fd is not None} next_seq={self.seq} "
                f"stuck={self.stuck} acks={len(self.acks)}")


def _count(arg: str | None, default: int) -> int:
    if arg is None:
        return default
    try:
        n = int(arg)
    except ValueError:
        raise SimError("sim.bad_argument", f"{arg!r} is not a number") from None
    if not 1 <= n <= 4096:
        raise SimError("sim.bad_argument", f"{n} is out of range 1..4096")
    return n
