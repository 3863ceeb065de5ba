"""The broadcaster: read the source, encode each frame once, push the packet to every viewer.

One asyncio task per table stream. With no viewers it keeps reading the source (so a camera
never builds a backlog) but does not encode; the first frame encoded after an idle spell is
forced to be a keyframe so new viewers start at once.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time

from streaming.encoder import EncodedFrame, SharedH264Encoder
from streaming.metrics import StreamMetrics
from streaming.source import FrameSource
from streaming.track import ViewerTrack
from studio.tasks import cancel

log = logging.getLogger(__name__)


class Broadcaster:
    def __init__(
        self,
        source: FrameSource,
        encoder: SharedH264Encoder,
        queue_frames: int = 8,
        metrics: StreamMetrics | None = None,
        encode_in_thread: bool = True,
    ) -> None:
        self.source = source
        self.encoder = encoder
        self.queue_frames = queue_frames
        self.metrics = metrics or StreamMetrics()
        self.viewers: dict[str, ViewerTrack] = {}
        self.error: BaseException | None = None  # why the loop stopped, if it failed
        self.frame_encoded = asyncio.Condition()  # notified after each fan-out (tests, bench)
        self._encode_in_thread = encode_in_thread
        self._ids = itertools.count(1)
        self._task: asyncio.Task[None] | None = None
        self._idle = True

    # viewers ---------------------------------------------------------------------------

    def add_viewer(self, player_id: str) -> ViewerTrack:
        track = ViewerTrack(f"v{next(self._ids)}", player_id, self.queue_frames,
                            on_stop=self._forget)
        self.viewers[track.viewer_id] = track
        return track

    def remove_viewer(self, track: ViewerTrack) -> None:
        track.stop()  # calls _forget

    def _forget(self, track: ViewerTrack) -> None:
        self.viewers.pop(track.viewer_id, None)

    # the loop --------------------------------------------------------------------------

    def publish(self, frame: EncodedFrame, encode_seconds: float = 0.0) -> None:
        """Hand one encoded frame to every viewer (non-blocking; slow viewers drop)."""
        self.metrics.on_encoded(frame, encode_seconds)
        for viewer in list(self.viewers.values()):
            viewer.push(frame)

    async def step(self) -> list[EncodedFrame]:
        """Read one frame; encode and publish it if anyone is watching."""
        captured = await self.source.next_frame()
        self.metrics.on_captured()
        if not self.viewers:
            self._idle = True
            return []
        if self._idle:
            self.encoder.request_keyframe()
            self._idle = False
        started = time.perf_counter()
        if self._encode_in_thread:
            encoded = await asyncio.to_thread(self.encoder.encode, captured)
        else:
            encoded = self.encoder.encode(captured)
        elapsed = time.perf_counter() - started
        for frame in encoded:
            self.publish(frame, elapsed)
        async with self.frame_encoded:
            self.frame_encoded.notify_all()
        return encoded

    async def _run(self) -> None:
        try:
            while True:
                await self.step()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a camera fault: stop the viewers, keep the reason
            log.exception("video stream stopped")
            self.error = e
            for viewer in list(self.viewers.values()):
                viewer.stop()
            async with self.frame_encoded:
                self.frame_encoded.notify_all()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self.error = None
            self._task = asyncio.get_running_loop().create_task(self._run(), name="broadcaster")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None
        for viewer in list(self.viewers.values()):
            viewer.stop()
        await self.source.close()

    def snapshot(self) -> dict:
        data = self.metrics.snapshot(self.viewers.values(), self.encoder.encode_calls)
        data["running"] = self.running
        data["error"] = getattr(self.error, "code", None) or (
            type(self.error).__name__ if self.error else None)
        return data

    async def wait_frames(self, count: int, timeout: float) -> None:
        """Wait until `count` more frames have been encoded (a safety-net timeout)."""
        target = self.metrics.frames_encoded + count

        async def reached() -> None:
            async with self.frame_encoded:
                await self.frame_encoded.wait_for(
                    lambda: self.metrics.frames_encoded >= target or self.error is not None)

        await asyncio.wait_for(reached(), timeout)
