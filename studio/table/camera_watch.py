"""Watches a table camera for the cross-check: grab a frame, recognise and vote, and hand every
card the votes agree on to the table's devices adapter (AttachedDevices.camera_seen).

Why a few frames per second and not the video's 25: a card lies on the felt for seconds, the
voter wants 3 agreeing frames, and recognition costs ~15 ms per 1280x720 frame on one core, so
5 fps tells the cross-check about a card about a second after it lands (the tracker waits for a
still picture, then the voter for 3 agreeing frames; well inside its window) for less than a
tenth of a core. Why a worker thread: that OpenCV work must not hold the event loop the
table, the readers and the players' connections share (OpenCV releases the GIL while it works).
The players' video is a separate path (streaming/), encoded once, never waiting on this.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import numpy as np

from devices.camera.voting import CameraCardSource, CardSeen
from studio.tasks import cancel

log = logging.getLogger(__name__)


class CameraWatch:
    """One camera's recognition loop.

    grab(t) returns the frame at time t (SimCamera.frame, or a Capture's read wrapped);
    sink(seen) receives each card vouched for; `time` is the clock frames are dated with.
    `look()` runs one frame (tests call it directly: no timers, no sleeps); `start()` runs it
    `fps` times a second until `stop()`.
    """

    def __init__(self, source: CameraCardSource, grab: Callable[[float], np.ndarray],
                 sink: Callable[[CardSeen], None], *, fps: float = 5.0,
                 time_fn: Callable[[], float] = time.monotonic) -> None:
        if fps <= 0:
            raise ValueError("camera.bad_fps: frames per second must be positive")
        self.source = source
        self.grab = grab
        self.sink = sink
        self.fps = fps
        self._time = time_fn
        self.frames = 0
        self.cards_seen = 0
        self.errors = 0
        self.last_ms: float | None = None  # the last frame's recognition time, for technicians
        self.ms_total = 0.0  # every frame's recognition time, for the metrics' mean
        self._task: asyncio.Task[None] | None = None
        self._clear = False

    def felt_cleared(self) -> None:
        """The round ended and the felt was cleared: the voter forgets every place before the
        next frame (applied in the looking thread, never while a frame is being voted)."""
        self._clear = True

    async def look(self) -> list[CardSeen]:
        """Grab, recognise and vote one frame; the cards newly vouched for go to the sink."""
        t = self._time()
        seen = await asyncio.to_thread(self._see, t)
        self.frames += 1
        for card in seen:
            self.cards_seen += 1
            self.sink(card)
        return seen

    def _see(self, t: float) -> list[CardSeen]:
        started = time.perf_counter()
        if self._clear:
            self._clear = False
            self.source.clear()
        seen = self.source.feed(self.grab(t), t)
        self.last_ms = (time.perf_counter() - started) * 1000
        self.ms_total += self.last_ms
        return seen

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="camera-watch")

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        period = 1.0 / self.fps
        while True:
            started = loop.time()
            try:
                await self.look()
            except Exception:  # a bad frame must not stop the watch: the cross-check's
                self.errors += 1  # window then reports the card the camera missed
                log.exception("camera watch: a frame failed")
            await asyncio.sleep(max(0.0, period - (loop.time() - started)))

    def info(self) -> dict[str, object]:
        """What technicians see: the watch's health, never a card."""
        return {"fps": self.fps, "frames": self.frames, "cards_seen": self.cards_seen,
                "errors": self.errors,
                "last_ms": None if self.last_ms is None else round(self.last_ms, 1)}
