"""Counters for the video stream: what the encoder produced and what each viewer got.

Rates (bitrate, fps, keyframe interval) are computed over a sliding window of the last few
seconds, kept in a bounded deque so the metrics themselves never grow with time.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Iterable

from streaming.encoder import EncodedFrame
from streaming.track import ViewerTrack


class StreamMetrics:
    def __init__(self, clock: Callable[[], float] = time.monotonic, window_s: float = 5.0,
                 max_window_frames: int = 1024) -> None:
        self._clock = clock
        self.window_s = window_s
        self.frames_captured = 0
        self.frames_encoded = 0
        self.keyframes = 0
        self.bytes_encoded = 0
        self.encode_seconds = 0.0  # wall time spent in the encoder (convert + x264)
        # (time, bytes, keyframe, source index) of recent encoded frames
        self._recent: collections.deque[tuple[float, int, bool, int]] = collections.deque(
            maxlen=max_window_frames)

    def on_captured(self) -> None:
        self.frames_captured += 1

    def on_encoded(self, frame: EncodedFrame, encode_seconds: float = 0.0) -> None:
        self.frames_encoded += 1
        self.bytes_encoded += frame.size
        self.encode_seconds += encode_seconds
        if frame.keyframe:
            self.keyframes += 1
        self._recent.append((self._clock(), frame.size, frame.keyframe, frame.index))

    def _window(self) -> list[tuple[float, int, bool, int]]:
        horizon = self._clock() - self.window_s
        while self._recent and self._recent[0][0] < horizon:
            self._recent.popleft()
        return list(self._recent)

    def snapshot(self, viewers: Iterable[ViewerTrack], encode_calls: int) -> dict:
        """Everything as plain JSON-ready values."""
        recent = self._window()
        span = recent[-1][0] - recent[0][0] if len(recent) > 1 else 0.0
        bitrate = 8 * sum(r[1] for r in recent[1:]) / span if span > 0 else 0.0
        fps = (len(recent) - 1) / span if span > 0 else 0.0
        key_at = [(r[0], r[3]) for r in recent if r[2]]
        if len(key_at) > 1:
            kf_frames = (key_at[-1][1] - key_at[0][1]) / (len(key_at) - 1)
            kf_seconds = (key_at[-1][0] - key_at[0][0]) / (len(key_at) - 1)
        else:
            kf_frames = kf_seconds = None
        per_viewer = {
            v.viewer_id: {
                "player_id": v.player_id,
                "frames_sent": v.stats.frames_sent,
                "bytes_sent": v.stats.bytes_sent,
                "frames_dropped": v.stats.frames_dropped,
                "frames_skipped_joining": v.stats.frames_skipped_joining,
                "gaps": v.stats.gaps,
                "queue_len": v.queue_len,
                "queue_cap": v.queue_cap,
            }
            for v in viewers
        }
        return {
            "viewers": len(per_viewer),
            "frames_captured": self.frames_captured,
            "frames_encoded": self.frames_encoded,
            "encode_calls": encode_calls,
            "keyframes": self.keyframes,
            "bytes_encoded": self.bytes_encoded,
            "encode_ms_per_frame": (1000 * self.encode_seconds / self.frames_encoded
                                    if self.frames_encoded else None),
            "bitrate_bps": round(bitrate),
            "fps": round(fps, 2),
            "keyframe_interval_frames": kf_frames,
            "keyframe_interval_s": round(kf_seconds, 3) if kf_seconds is not None else None,
            "frames_sent": sum(v["frames_sent"] for v in per_viewer.values()),
            "frames_dropped": sum(v["frames_dropped"] for v in per_viewer.values()),
            "per_viewer": per_viewer,
        }
