"""The table video through Janus, a selective forwarding unit (SFU): the studio encodes each
camera once and sends it as RTP to Janus's streaming plugin; players receive it from Janus.

Why: the embedded aiortc path (streaming/signalling.py) costs the studio's Python process
RTP and SRTP work for every viewer; Janus does that part in C, so one encode serves thousands.
The studio keeps signalling: a player asks the studio, the studio asks Janus over its HTTP API
on 127.0.0.1 and hands back only the SDP. Janus's session ids never leave the studio (the
player holds an opaque id of ours), Janus's API listens on loopback only, and no STUN or TURN
server is configured, so no public server is ever contacted.

    JanusProcess      writes Janus's configuration and runs `janus` (Debian's package)
    RtpPublisher      the broadcaster's encoded H.264, packetised once, to Janus over UDP
    JanusVideo        a table's mountpoint and its viewers' sessions (watch, answer, leave)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiortc.mediastreams import VIDEO_TIME_BASE, convert_timebase
from aiortc.rtp import RtpPacket

from streaming.fanout import Broadcaster
from streaming.rtp_h264 import MAX_PAYLOAD, packetize, split_annex_b

log = logging.getLogger(__name__)
LIBDIR = Path("/usr/lib/x86_64-linux-gnu/janus")
# Debian's libjemalloc2: Janus allocates and frees two buffers per packet per viewer; with
# jemalloc preloaded it spends less CPU per viewer (tests/bench/bench_janus.py). Optional.
JEMALLOC = LIBDIR.parent / "libjemalloc.so.2"
PAYLOAD_TYPE = 96
H264_FMTP = "profile-level-id=42e01f;packetization-mode=1"
KEEPALIVE_S = 25.0  # Janus ends a session after 60 s without a word


class JanusError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Mountpoint:
    """One table's stream at Janus: its id, and the UDP port Janus reads its RTP on."""

    table_id: str
    id: int
    rtp_port: int
    secret: str = field(default_factory=lambda: secrets.token_hex(16))  # edits need it


class JanusProcess:
    """Janus with a configuration of the studio's own: the HTTP API on 127.0.0.1 only, the
    streaming plugin alone, one RTP mountpoint per table, no STUN/TURN."""

    def __init__(self, mountpoints: list[Mountpoint], *, http_port: int | None = None,
                 rtp_range: tuple[int, int] = (30000, 39999), workdir: Path | None = None,
                 event_loops: int = 2, interfaces: str | None = None) -> None:
        """`event_loops`: Janus's shared media threads (0: one thread per viewer, which
        costs a context switch per packet per viewer). `interfaces`: the interfaces or
        addresses (comma-separated) Janus offers players, by default the default route's
        interface (`default_interface`)."""
        if shutil.which("janus") is None:
            raise JanusError("janus.not_installed", "Debian's janus package is not installed")
        self.mountpoints = mountpoints
        self.http_port = http_port or free_port()
        self.rtp_range = rtp_range
        self.event_loops = event_loops
        self.interfaces = interfaces or default_interface()
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="studio-janus-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.http_port}/janus"

    def write_config(self) -> Path:
        d = self.workdir
        d.mkdir(parents=True, exist_ok=True)
        others = [p.name for p in (LIBDIR / "plugins").glob("libjanus_*.so")
                  if p.name != "libjanus_streaming.so"]
        transports = [p.name for p in (LIBDIR / "transports").glob("libjanus_*.so")
                      if p.name != "libjanus_http.so"]
        lo, hi = self.rtp_range
        # One candidate per viewer: libnice binds a socket per address it gathers on and
        # Janus's media loops poll them all on every wakeup. Without a list that matches
        # (Janus skips loopback interfaces) libnice gathers on every address, IPv6 too.
        enforce = f'  ice_enforce_list = "{self.interfaces}"' if self.interfaces else ""
        (d / "janus.jcfg").write_text(f'''general: {{
  configs_folder = "{d}"
  plugins_folder = "{LIBDIR / 'plugins'}"
  transports_folder = "{LIBDIR / 'transports'}"
  events_folder = "{LIBDIR / 'events'}"
  loggers_folder = "{LIBDIR / 'loggers'}"
  debug_level = 3
  admin_secret = "{secrets.token_hex(16)}"
  session_timeout = 60
  server_name = "studio-janus"
  event_loops = {self.event_loops}
}}
media: {{ rtp_port_range = "{lo}-{hi}"
  twcc_period = 1000
  nack_optimizations = true }}
nat: {{ nice_debug = false
  full_trickle = false
{enforce}
  ignore_mdns = true }}
plugins: {{ disable = "{','.join(others)}" }}
transports: {{ disable = "{','.join(transports)}" }}
events: {{ broadcast = false }}
loggers: {{ disable = "libjanus_jsonlog.so" }}
''')
        (d / "janus.transport.http.jcfg").write_text(f'''general: {{
  json = "compact"
  base_path = "/janus"
  http = true
  port = {self.http_port}
  ip = "127.0.0.1"
  https = false
}}
admin: {{ admin_http = false }}
''')
        mounts = "\n".join(f'''table-{m.id}: {{
  type = "rtp"
  id = {m.id}
  description = "{m.table_id}"
  secret = "{m.secret}"
  media = ( {{ type = "video"
    mid = "v"
    port = {m.rtp_port}
    pt = {PAYLOAD_TYPE}
    codec = "h264"
    fmtp = "{H264_FMTP}"
    bufferkf = true }} )
}}''' for m in self.mountpoints)
        (d / "janus.plugin.streaming.jcfg").write_text(
            f'general: {{ events = false\n  string_ids = false }}\n{mounts}\n')
        return d

    def spawn(self) -> None:
        """Write the configuration and start Janus (its log: janus.log beside it)."""
        d = self.write_config()
        with open(d / "janus.log", "wb") as log_file:  # Janus keeps its own descriptor
            self.proc = subprocess.Popen(
                ["janus", "--configs-folder", str(d), "--config", str(d / "janus.jcfg"),
                 "--disable-colors"], stdout=log_file, stderr=subprocess.STDOUT, cwd=d,
                env=janus_environment())

    async def start(self, timeout: float = 15.0) -> None:
        """Spawn Janus and wait until its HTTP API answers."""
        self.spawn()
        d = self.workdir
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession() as s:
            while True:
                if self.proc.poll() is not None:
                    raise JanusError("janus.exited", (d / "janus.log").read_text()[-2000:])
                with contextlib.suppress(aiohttp.ClientError):
                    async with s.get(f"{self.url}/info") as r:
                        if r.status == 200:
                            return
                if time.monotonic() > deadline:
                    raise JanusError("janus.timeout", "Janus did not answer in time")
                await asyncio.sleep(0.1)  # waiting for another process to listen

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def cpu_seconds(self) -> float:
        """Janus's CPU time so far (user + system), from /proc."""
        if self.proc is None:
            return 0.0
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def default_interface(route_table: Path = Path("/proc/net/route")) -> str | None:
    """The interface of the IPv4 default route (players reach Janus on its address)."""
    with contextlib.suppress(OSError):
        for line in route_table.read_text().splitlines()[1:]:
            fields = line.split()
            if len(fields) > 1 and fields[1] == "00000000":
                return fields[0]
    return None


def janus_environment(jemalloc: Path = JEMALLOC) -> dict[str, str]:
    """Janus's environment: ours, with jemalloc preloaded when Debian's libjemalloc2 is
    installed (scripts/test installs it)."""
    env = dict(os.environ)
    if jemalloc.exists():
        env["LD_PRELOAD"] = " ".join(filter(None, [env.get("LD_PRELOAD"), str(jemalloc)]))
    return env


class RtpPublisher:
    """The broadcaster's encoded frames, as one viewer of it, packetised (RFC 6184) and sent
    to Janus's mountpoint port once. Payloads up to `max_payload` bytes (streaming/rtp_h264.py:
    the most a 1,500-byte MTU holds after Janus's additions): Janus sends every packet once per
    viewer, so fewer, fuller packets are fewer sends."""

    def __init__(self, broadcaster: Broadcaster, port: int, host: str = "127.0.0.1",
                 max_payload: int = MAX_PAYLOAD) -> None:
        self.broadcaster = broadcaster
        self.max_payload = max_payload
        self.target = (host, port)
        self.packets = 0
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.setblocking(False)
        self._ssrc = random.getrandbits(32)
        self._seq = random.getrandbits(16)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.track = self.broadcaster.add_viewer("janus")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="rtp-to-janus")

    async def _run(self) -> None:
        while True:
            packet = await self.track.recv()
            payloads = packetize(split_annex_b(bytes(packet)), self.max_payload)
            timestamp = convert_timebase(packet.pts, packet.time_base,
                                         VIDEO_TIME_BASE) & 0xFFFFFFFF  # wraps after 13 h
            for i, payload in enumerate(payloads):
                rtp = RtpPacket(payload_type=PAYLOAD_TYPE, sequence_number=self._seq,
                                timestamp=timestamp, ssrc=self._ssrc,
                                marker=i == len(payloads) - 1, payload=payload)
                self._seq = (self._seq + 1) & 0xFFFF
                with contextlib.suppress(BlockingIOError):  # loopback: never full in practice
                    self._sock.sendto(rtp.serialize(), self.target)
                self.packets += 1

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.broadcaster.remove_viewer(self.track)
        self._sock.close()


@dataclass
class _Viewer:
    player_id: str
    session: int
    handle: int


class JanusVideo:
    """A table's video at Janus, for its players: `watch` asks Janus for an offer (a session
    and a handle of its own per viewer), `answer` starts the stream, `leave` ends it. Sessions
    are kept alive while watched."""

    def __init__(self, url: str, mountpoint: Mountpoint,
                 alive: Callable[[str], bool] = lambda player: True) -> None:
        """`alive(player)`: whether the player's studio session is open (a stream of a
        player whose session ended is ended at the next keepalive)."""
        self.url = url
        self.mountpoint = mountpoint
        self.alive = alive
        self.viewers: dict[str, _Viewer] = {}  # our opaque id -> Janus's ids
        self._http: aiohttp.ClientSession | None = None
        self._keepalive: asyncio.Task[None] | None = None

    async def _call(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        body = {**body, "transaction": secrets.token_hex(6)}
        async with self._http.post(f"{self.url}{path}", json=body) as r:
            answer = await r.json(content_type=None)
        if answer.get("janus") == "error":
            err = answer.get("error", {})
            raise JanusError("janus.refused", f"{err.get('code')}: {err.get('reason')}")
        return answer

    async def _event(self, session: int, timeout: float = 10.0) -> dict[str, Any]:
        """The next event of `session` carrying a JSEP or a plugin answer (long poll)."""
        deadline = time.monotonic() + timeout
        assert self._http is not None
        while time.monotonic() < deadline:
            async with self._http.get(f"{self.url}/{session}?maxev=1") as r:
                ev = await r.json(content_type=None)
            if ev.get("janus") == "event":
                data = ev.get("plugindata", {}).get("data", {})
                if data.get("error"):
                    raise JanusError("janus.refused", str(data["error"]))
                if "jsep" in ev or data.get("streaming") == "event":
                    return ev
        raise JanusError("janus.timeout", "Janus gave no offer in time")

    async def watch(self, player_id: str) -> tuple[str, str]:
        """(our viewer id, Janus's SDP offer) for a player who wants the table's video."""
        session = (await self._call("", {"janus": "create"}))["data"]["id"]
        handle = (await self._call(f"/{session}", {"janus": "attach",
                                                   "plugin": "janus.plugin.streaming"})
                  )["data"]["id"]
        await self._call(f"/{session}/{handle}", {"janus": "message", "body": {
            "request": "watch", "id": self.mountpoint.id}})
        ev = await self._event(session)
        viewer_id = secrets.token_urlsafe(16)
        self.viewers[viewer_id] = _Viewer(player_id, session, handle)
        if self._keepalive is None:
            self._keepalive = asyncio.get_running_loop().create_task(self._keep_alive())
        return viewer_id, ev["jsep"]["sdp"]

    def _viewer(self, viewer_id: str, player_id: str) -> _Viewer:
        v = self.viewers.get(viewer_id)
        if v is None or v.player_id != player_id:
            raise JanusError("streaming.unknown_viewer", "no such viewer of yours")
        return v

    async def answer(self, viewer_id: str, player_id: str, sdp: str) -> None:
        v = self._viewer(viewer_id, player_id)
        await self._call(f"/{v.session}/{v.handle}", {
            "janus": "message", "body": {"request": "start"},
            "jsep": {"type": "answer", "sdp": sdp}})

    async def leave(self, viewer_id: str, player_id: str) -> None:
        v = self._viewer(viewer_id, player_id)
        del self.viewers[viewer_id]
        with contextlib.suppress(JanusError, aiohttp.ClientError):
            await self._call(f"/{v.session}", {"janus": "destroy"})

    async def leave_player(self, player_id: str) -> None:
        """Every stream of a player whose studio session ended: no Janus session outlives it."""
        for viewer_id, v in list(self.viewers.items()):
            if v.player_id == player_id:
                await self.leave(viewer_id, player_id)

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE_S)  # Janus's own clock: real seconds
            await self.sweep()

    async def sweep(self) -> None:
        """Keep watched sessions alive at Janus; end those of players who left the studio."""
        for viewer_id, v in list(self.viewers.items()):
            if not self.alive(v.player_id):
                await self.leave(viewer_id, v.player_id)
                continue
            with contextlib.suppress(JanusError, aiohttp.ClientError):
                await self._call(f"/{v.session}", {"janus": "keepalive"})

    async def close(self) -> None:
        for viewer_id, v in list(self.viewers.items()):
            await self.leave(viewer_id, v.player_id)
        if self._keepalive is not None:
            self._keepalive.cancel()
        if self._http is not None:
            await self._http.close()
