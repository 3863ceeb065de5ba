"""The one H.264 encoder of a table's video: every viewer gets the packets it produces.

Why once: libx264 at 720p costs milliseconds of CPU per frame; per viewer that caps a
process at a handful of players. Encoded once, a viewer only costs RTP packetisation and
SRTP. Settings favour latency and compatibility: constrained baseline (every browser decodes
it, no B-frames), tune=zerolatency (no lookahead, no frame delay), a keyframe every
`keyframe_interval` frames so a joining or recovering viewer waits at most that long.
One slice per picture (`threads=1`): under zerolatency libx264's threads are sliced threads,
a slice each, and every slice is at least one RTP packet of its own; with threads left to
libx264 (1.5 per core) the packets per picture, which every viewer's SFU send multiplies,
would grow with the encoding machine's cores. One thread encodes 720p ultrafast in ~4 ms.
"""

from __future__ import annotations

import fractions
from dataclasses import dataclass

import av
import cv2
import numpy as np

from streaming.source import CapturedFrame

VIDEO_CLOCK_RATE = 90_000  # RTP clock for video; packet pts are in this time base
TIME_BASE = fractions.Fraction(1, VIDEO_CLOCK_RATE)


@dataclass(frozen=True, slots=True)
class EncoderSettings:
    width: int = 1280
    height: int = 720
    fps: int = 25
    bitrate_bps: int = 1_500_000
    keyframe_interval: int = 25  # frames between IDR pictures (GOP)
    preset: str = "ultrafast"
    threads: int = 1  # = slices per picture (sliced threads); 0: libx264 chooses


@dataclass(frozen=True, slots=True)
class EncodedFrame:
    """One encoded picture, shared read-only by every viewer."""

    packet: av.Packet  # Annex-B H.264 access unit; pts in 1/90000 s
    keyframe: bool
    index: int  # the source frame's index
    capture_time: float
    size: int  # bytes


def bgr_to_yuv420p(image: np.ndarray) -> av.VideoFrame:
    """The single colour conversion per frame. OpenCV's I420 path is about ten times
    cheaper than PyAV's swscale reformat at 720p (tests/bench/bench_streaming.py) and uses
    the same BT.601 limited-range matrix."""
    i420 = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420)
    return av.VideoFrame.from_ndarray(i420, format="yuv420p")


class SharedH264Encoder:
    """Turns captured BGR frames into H.264 packets. Not thread-safe: one caller at a time
    (the broadcaster runs `encode` in a worker thread; PyAV releases the GIL inside x264)."""

    def __init__(self, settings: EncoderSettings = EncoderSettings()) -> None:
        self.settings = settings
        self.encode_calls = 0
        self._codec = self._open()
        self._first_capture: float | None = None
        self._last_pts = -1
        self._force_keyframe = False

    def _open(self) -> av.video.codeccontext.VideoCodecContext:
        s = self.settings
        codec = av.CodecContext.create("libx264", "w")
        codec.width, codec.height = s.width, s.height
        codec.pix_fmt = "yuv420p"
        codec.time_base = TIME_BASE
        codec.framerate = fractions.Fraction(s.fps, 1)
        codec.bit_rate = s.bitrate_bps
        codec.gop_size = s.keyframe_interval
        codec.max_b_frames = 0
        # vbv: cap each second at the target so a keyframe cannot burst far above it
        vbv_kbit = max(1, s.bitrate_bps // 1000)
        codec.options = {
            "preset": s.preset,
            "tune": "zerolatency",
            "profile": "baseline",  # x264 baseline is constrained baseline (42e0xx)
            "level": "3.1",
            "bf": "0",
            "g": str(s.keyframe_interval),
            "keyint_min": str(s.keyframe_interval),
            "sc_threshold": "0",  # no scene-cut keyframes: a steady GOP
            "forced-idr": "1",
            "threads": str(s.threads),
            "x264-params": f"vbv-maxrate={vbv_kbit}:vbv-bufsize={vbv_kbit}",
        }
        codec.open()
        return codec

    def request_keyframe(self) -> None:
        """The next encoded picture will be an IDR (used after the encoder sat idle)."""
        self._force_keyframe = True

    def encode(self, frame: CapturedFrame) -> list[EncodedFrame]:
        """Convert once and encode once. Returns zero or one packets (zerolatency: no delay)."""
        self.encode_calls += 1
        if self._first_capture is None:
            self._first_capture = frame.capture_time
        pts = round((frame.capture_time - self._first_capture) * VIDEO_CLOCK_RATE)
        pts = max(pts, self._last_pts + 1)  # x264 refuses equal or decreasing pts
        self._last_pts = pts
        video = bgr_to_yuv420p(frame.image)
        video.pts = pts
        video.time_base = TIME_BASE
        if self._force_keyframe:
            video.pict_type = av.video.frame.PictureType.I
            self._force_keyframe = False
        out = []
        for packet in self._codec.encode(video):
            packet.time_base = TIME_BASE
            out.append(EncodedFrame(packet=packet, keyframe=packet.is_keyframe,
                                    index=frame.index, capture_time=frame.capture_time,
                                    size=packet.size))
        return out
