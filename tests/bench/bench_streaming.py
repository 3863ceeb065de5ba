"""Benchmark: the table video over WebRTC, encoded once for every viewer, against one encoder
per viewer, in one run; and capture-to-decode latency in an aiortc receiver on loopback.

    .venv/bin/python -m tests.bench.bench_streaming [--viewers 100] [--seconds 10]
        [--baseline-viewers 3] [--warmup 3]

The sender (aiohttp signalling + broadcaster + one aiortc peer connection per viewer) runs in
this process; its CPU is this process's CPU time (time.process_time: every thread, x264's
included) over a steady window, divided by the window: "cores". The viewers run in child
processes so their work is not counted: one decoding receiver measures latency (it reads the
frame counter stamped into each picture and looks up the capture time the sender recorded;
CLOCK_MONOTONIC is shared by processes), the others are aiortc receivers whose decoder only
counts frames (real ICE, DTLS, SRTP, RTP and jitter buffer; no H.264 decode).

Phases: no viewer (the source alone), encode-once with 1 and with --viewers viewers, then the
baseline: a separate encoder per viewer (same x264 settings) with 1..--baseline-viewers viewers.
Per-viewer cost is the slope between the viewer counts; "viewers per core" extrapolates it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time

import aiohttp
import av
import cv2
from aiohttp import web

from streaming.encoder import EncoderSettings, SharedH264Encoder, bgr_to_yuv420p
from streaming.fanout import Broadcaster
from streaming.signalling import VideoService, create_streaming_app
from streaming.source import CapturedFrame, PacedSource, TestPattern

TOKEN = "bench"
FPS = 25


# --- sender side ---------------------------------------------------------------------------

class PerViewerEncoding(Broadcaster):
    """The baseline: what a server without encode-once does - one encoder per viewer."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.encoders: dict[str, SharedH264Encoder] = {}
        self.captures: dict[int, float] = {}

    async def step(self) -> list:
        captured = await self.source.next_frame()
        self.metrics.on_captured()
        self.captures[captured.index] = captured.capture_time
        out = []
        for viewer in list(self.viewers.values()):
            encoder = self.encoders.setdefault(viewer.viewer_id,
                                               SharedH264Encoder(self.encoder.settings))
            for frame in await asyncio.to_thread(encoder.encode, captured):
                self.encoder.encode_calls += 1
                self.metrics.on_encoded(frame)
                viewer.push(frame)
                out.append(frame)
        return out


class Sender:
    def __init__(self, per_viewer: bool) -> None:
        source = PacedSource(TestPattern(1280, 720, FPS), 1280, 720, FPS)
        encoder = SharedH264Encoder(EncoderSettings())
        kind = PerViewerEncoding if per_viewer else Broadcaster
        self.broadcaster = kind(source, encoder, 8)
        self.captures: dict[int, float] = getattr(self.broadcaster, "captures", {})
        if not per_viewer:
            publish = self.broadcaster.publish

            def recording_publish(frame, encode_seconds: float = 0.0) -> None:
                self.captures[frame.index] = frame.capture_time
                publish(frame, encode_seconds)

            self.broadcaster.publish = recording_publish
        self.service = VideoService(self.broadcaster, max_viewers=10_000)
        self.runner: web.AppRunner | None = None
        self.url = ""

    async def start(self) -> None:
        app = web.Application()

        def authorize(request: web.Request) -> str | None:
            return "viewer" if request.headers.get("Authorization") == f"Bearer {TOKEN}" else None

        app.add_subapp("/video/", create_streaming_app(self.service, authorize))

        async def captures(_request: web.Request) -> web.Response:
            return web.json_response({str(k): v for k, v in self.captures.items()})

        app.router.add_get("/bench/captures", captures)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.broadcaster.start()  # the source runs with no viewer too (phase 0)

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


class Viewers:
    """A child process holding `count` receivers (see receive_main)."""

    cpus: set[int] | None = None  # where children run when the sender is pinned

    def __init__(self, url: str, count: int, decode: bool) -> None:
        args = [sys.executable, "-m", "tests.bench.bench_streaming", "--receive", url,
                "--count", str(count)] + (["--decode"] if decode else [])
        if Viewers.cpus:
            args += ["--cpus", ",".join(map(str, sorted(Viewers.cpus)))]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    async def line(self) -> str:
        text = await asyncio.to_thread(self.proc.stdout.readline)
        if not text:
            raise SystemExit(f"receiver process died (rc={self.proc.wait()})")
        return text.strip()

    async def command(self, cmd: str) -> str:
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()
        return await self.line()


async def measure(sender: Sender, seconds: float, viewer_groups: list[Viewers]) -> dict:
    """CPU and frame counts of the sender over a steady window."""
    for group in viewer_groups:
        await group.command("mark")
    m0 = sender.service.metrics()
    cpu0, wall0 = time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)  # a benchmark window, not a test: real time is the point
    cpu1, wall1 = time.process_time(), time.monotonic()
    m1 = sender.service.metrics()
    wall = wall1 - wall0
    reports = [json.loads(await group.command("stop")) for group in viewer_groups]
    for group in viewer_groups:
        group.proc.wait(30)
    drops = sum(v["frames_dropped"] for v in m1["per_viewer"].values()) - sum(
        m0["per_viewer"].get(k, {}).get("frames_dropped", 0) for k in m1["per_viewer"])
    cores = (cpu1 - cpu0) / wall
    captured_fps = (m1["frames_captured"] - m0["frames_captured"]) / wall
    return {
        "cores": cores,
        # CPU per captured frame x 25: what 25 fps costs even when other processes on the
        # machine slowed the loop down (then the frame rate, not the CPU, shows it)
        "cores_at_25fps": cores * FPS / captured_fps if captured_fps else cores,
        "load_average": os.getloadavg()[0],
        "encoded_fps": (m1["frames_encoded"] - m0["frames_encoded"]) / wall,
        "captured_fps": captured_fps,
        "encode_calls_per_frame": (m1["encode_calls"] - m0["encode_calls"]) / max(
            1, m1["frames_captured"] - m0["frames_captured"]),
        "viewers": m1["viewers"],
        "drops": drops,
        "bitrate_bps": m1["bitrate_bps"],
        "receivers": reports,
    }


async def phase(per_viewer: bool, viewers: int, seconds: float, warmup: float) -> dict:
    sender = Sender(per_viewer)
    await sender.start()
    groups: list[Viewers] = []
    try:
        if viewers >= 1:
            groups.append(Viewers(sender.url, 1, decode=True))
        if viewers >= 2:
            groups.append(Viewers(sender.url, viewers - 1, decode=False))
        for group in groups:
            ready = await group.line()
            if ready != "ready":
                raise SystemExit(f"receivers failed: {ready}")
        await asyncio.sleep(warmup)
        return await measure(sender, seconds, groups)
    finally:
        for group in groups:
            if group.proc.poll() is None:
                group.proc.kill()
        await sender.stop()


# --- receiver side (child process) ---------------------------------------------------------

def count_frames_instead_of_decoding() -> None:
    """Load receivers: SRTP is still authenticated and decrypted (libsrtp, as a browser
    would), then a frame is counted per RTP marker bit; no depacketising, no H.264 decode.
    That keeps the child processes cheap enough for the sender to be the one measured."""
    from aiortc.rtcdtlstransport import RTCDtlsTransport

    async def handle_rtp_data(self, data: bytes, arrival_time_ms: int) -> None:
        if data[1] & 0x80:
            self.bench_frames = getattr(self, "bench_frames", 0) + 1

    RTCDtlsTransport._handle_rtp_data = handle_rtp_data


def frames_counted(receiver) -> int:
    return getattr(receiver.pc.getTransceivers()[0].receiver.transport, "bench_frames", 0)


async def receive_main(url: str, count: int, decode: bool) -> None:
    from streaming.receiver import VideoReceiver

    if not decode:
        count_frames_instead_of_decoding()
    samples: list[tuple[int, float]] = []

    def on_frame(frame: av.VideoFrame, index: int | None, now: float) -> None:
        if index is not None:
            samples.append((index, now))

    receivers = [VideoReceiver(on_frame=on_frame) for _ in range(count)]
    async with aiohttp.ClientSession() as session:
        for start in range(0, count, 10):
            await asyncio.gather(*(r.connect(f"{url}/video/offer", TOKEN, session)
                                   for r in receivers[start:start + 10]))
        if decode:
            await receivers[0].wait_frames(1, 30)
        else:
            deadline = time.monotonic() + 60
            while min(frames_counted(r) for r in receivers) == 0:
                if time.monotonic() > deadline:
                    print("timeout waiting for frames", flush=True)
                    return
                await asyncio.sleep(0.1)
        print("ready", flush=True)
        counts0: list[int] = []
        t0 = 0.0
        while True:
            cmd = (await asyncio.to_thread(sys.stdin.readline)).strip()
            if cmd == "mark":
                samples.clear()
                counts0 = [r.frames if decode else frames_counted(r) for r in receivers]
                t0 = time.monotonic()
                print("marked", flush=True)
            elif cmd in ("stop", ""):
                wall = time.monotonic() - t0
                counts1 = [r.frames if decode else frames_counted(r) for r in receivers]
                fps = sorted((b - a) / wall for a, b in zip(counts0, counts1, strict=False))
                async with session.get(f"{url}/bench/captures") as resp:
                    captures = {int(k): v for k, v in (await resp.json()).items()}
                latencies = sorted(now - captures[i] for i, now in samples if i in captures)
                print(json.dumps({"fps_min": fps[0], "fps_median": statistics.median(fps),
                                  "latencies": latencies}), flush=True)
                break
        for r in receivers:
            await r.close()


# --- report ----------------------------------------------------------------------------------

def conversion_and_encode_costs(frames: int = 50) -> dict[str, float]:
    pattern = TestPattern(1280, 720, FPS)
    images = [pattern.frame(i / FPS) for i in range(frames)]
    t = time.process_time()
    for image in images:
        av.VideoFrame.from_ndarray(image, format="bgr24").reformat(format="yuv420p")
    pyav = (time.process_time() - t) / frames
    t = time.process_time()
    for image in images:
        bgr_to_yuv420p(image)
    opencv = (time.process_time() - t) / frames
    encoder = SharedH264Encoder(EncoderSettings())
    t = time.process_time()
    for i, image in enumerate(images):
        encoder.encode(CapturedFrame(image, i / FPS, i))
    encode = (time.process_time() - t) / frames
    return {"pyav_reformat_ms": pyav * 1e3, "opencv_i420_ms": opencv * 1e3,
            "convert_and_encode_ms": encode * 1e3, "cv2_threads": cv2.getNumThreads()}


def latency_line(result: dict) -> str:
    lat = result["receivers"][0]["latencies"] if result["receivers"] else []
    if not lat:
        return "no latency samples"
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return (f"capture->decode latency median {statistics.median(lat) * 1e3:.1f} ms, "
            f"p99 {p99 * 1e3:.1f} ms ({len(lat)} frames)")


def row(name: str, r: dict) -> str:
    fps = ", ".join(f"viewer fps min {g['fps_min']:.1f} median {g['fps_median']:.1f}"
                    for g in r["receivers"])
    return (f"{name:<32} cores {r['cores']:.3f} (at 25 fps {r['cores_at_25fps']:.3f}), "
            f"encoded {r['encoded_fps']:.1f} fps (captured {r['captured_fps']:.1f}), "
            f"encodes/frame {r['encode_calls_per_frame']:.2f}, drops {r['drops']}, "
            f"{r['bitrate_bps'] / 1e6:.2f} Mbit/s, load {r['load_average']:.1f}; {fps}")


async def bench(viewers: int, baseline_viewers: int, seconds: float, warmup: float) -> None:
    costs = conversion_and_encode_costs()
    print(f"yuv420p conversion per 720p frame: PyAV reformat {costs['pyav_reformat_ms']:.2f} ms,"
          f" OpenCV I420 {costs['opencv_i420_ms']:.2f} ms (CPU); convert+x264 "
          f"{costs['convert_and_encode_ms']:.2f} ms CPU per frame")
    idle = await phase(False, 0, seconds, warmup)
    print(row("source only, no viewer", idle))
    once_1 = await phase(False, 1, seconds, warmup)
    print(row("encode-once, 1 viewer", once_1))
    print("    " + latency_line(once_1))
    once_n = await phase(False, viewers, seconds, warmup)
    print(row(f"encode-once, {viewers} viewers", once_n))
    print("    " + latency_line(once_n))
    base = {}
    for n in sorted({1, baseline_viewers}):
        base[n] = await phase(True, n, seconds, warmup)
        print(row(f"baseline encoder per viewer, {n}", base[n]))

    c = "cores_at_25fps"
    per_once = (once_n[c] - once_1[c]) / max(1, viewers - 1)
    fixed_once = once_1[c] - per_once
    b1, bn = base[1], base[max(base)]
    per_base = (bn[c] - b1[c]) / (max(base) - 1) if max(base) > 1 else b1[c] - idle[c]
    fixed_base = b1[c] - per_base
    print()
    print("CPU figures below are per 25 fps of captured video (cores x 25 / captured fps)")
    print(f"encode-once: fixed {fixed_once:.3f} cores (source + one encoder), "
          f"{per_once * 1e3:.2f} millicores per viewer")
    print(f"baseline:    fixed {fixed_base:.3f} cores (source), "
          f"{per_base * 1e3:.2f} millicores per viewer")
    print(f"per-viewer cost ratio baseline/encode-once: {per_base / per_once:.1f}x")
    print(f"viewers on 1 core at 25 fps: encode-once {1 + (1 - once_1[c]) / per_once:.0f}, "
          f"baseline {1 + (1 - b1[c]) / per_base:.1f}")
    print(f"measured: {viewers} viewers at {once_n['encoded_fps']:.1f} fps on "
          f"{once_n['cores']:.2f} cores (load average {once_n['load_average']:.1f} on "
          f"{os.cpu_count()} CPUs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--baseline-viewers", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--receive", help=argparse.SUPPRESS)  # child process mode
    parser.add_argument("--count", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--decode", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cpus", help=argparse.SUPPRESS)
    parser.add_argument("--no-pin", action="store_true",
                        help="do not pin the sender to one CPU and the receivers to the others")
    args = parser.parse_args()
    if args.receive:
        if args.cpus:
            os.sched_setaffinity(0, {int(c) for c in args.cpus.split(",")})
        asyncio.run(receive_main(args.receive, args.count, args.decode))
    else:
        cpus = sorted(os.sched_getaffinity(0))
        if not args.no_pin and len(cpus) >= 2:
            # the goal is "on <= 1 core": the sender (and x264's threads) get exactly one
            os.sched_setaffinity(0, {cpus[0]})
            Viewers.cpus = set(cpus[1:])
            print(f"sender pinned to CPU {cpus[0]}; receivers on CPUs {cpus[1:]}")
        else:
            print(f"not pinned; {len(cpus)} CPUs shared by sender and receivers")
        asyncio.run(bench(max(2, args.viewers), max(1, args.baseline_viewers), args.seconds,
                          args.warmup))


if __name__ == "__main__":
    main()
