"""Where the table video comes from: a real camera (OpenCV), a renderer such as the simulated
table camera, or a moving test pattern.

Every source speaks the same small protocol, `FrameSource`, so the encoder never knows which
one it is reading. Sources deliver BGR images at the configured size; the single colour
conversion to yuv420p happens once, in the encoder.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from streaming.framestamp import STAMP_HEIGHT, stamp_index

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class SourceError(RuntimeError):
    """The camera cannot be opened or stopped delivering frames."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class CapturedFrame:
    """One picture from a source: a HxWx3 uint8 BGR array and when it was captured."""

    image: np.ndarray
    capture_time: float  # seconds, on the source's clock (time.monotonic by default)
    index: int  # 0, 1, 2, ... in capture order; gaps mean the source skipped frames


@runtime_checkable
class FrameSource(Protocol):
    """What the broadcaster reads. `next_frame` waits for the next picture (pacing is the
    source's job: a camera blocks until its sensor delivers, a renderer waits for its tick)."""

    width: int
    height: int
    fps: int

    async def next_frame(self) -> CapturedFrame: ...

    async def close(self) -> None: ...


class FrameRenderer(Protocol):
    """Anything that draws the picture at time `t` (seconds): the simulated table camera in
    devices/camera/, or `TestPattern` below."""

    def frame(self, t: float) -> np.ndarray: ...


class TestPattern:
    """Colour bars with a bar sweeping across, the frame counter and the time written on it,
    and the counter stamped as blocks (streaming.framestamp) so receivers can read it back."""

    __test__ = False  # not a pytest test class, despite the name

    def __init__(self, width: int = 1280, height: int = 720, fps: int = 25) -> None:
        self.width, self.height, self.fps = width, height, fps
        bars = np.array(
            [[192, 192, 192], [0, 192, 192], [192, 192, 0], [0, 192, 0],
             [192, 0, 192], [0, 0, 192], [192, 0, 0], [16, 16, 16]], dtype=np.uint8
        )
        columns = (np.arange(width) * len(bars) // width).astype(np.intp)
        self._background = np.ascontiguousarray(
            np.broadcast_to(bars[columns][np.newaxis, :, :], (height, width, 3))
        )

    def frame(self, t: float) -> np.ndarray:
        index = round(t * self.fps)
        image = self._background.copy()
        sweep_w = max(8, self.width // 32)
        x = int((t * self.width / 4) % (self.width - sweep_w))  # crosses the picture in 4 s
        image[STAMP_HEIGHT:, x : x + sweep_w] = 255
        cy = self.height // 2
        r = self.height // 6
        cx = int(self.width / 2 + r * 2 * math.sin(t * 2 * math.pi / 3))
        cv2.circle(image, (cx, cy), r, (40, 40, 40), thickness=-1)
        cv2.putText(image, f"frame {index}", (32, self.height - 96),
                    cv2.FONT_HERSHEY_SIMPLEX, 2.0, (255, 255, 255), 4, cv2.LINE_AA)
        cv2.putText(image, f"t = {t:9.3f} s", (32, self.height - 32),
                    cv2.FONT_HERSHEY_SIMPLEX, 2.0, (255, 255, 255), 4, cv2.LINE_AA)
        stamp_index(image, index)
        return image


class PacedSource:
    """Calls a renderer at a fixed rate. Late ticks are skipped, never bunched: a live
    stream wants the newest picture, not a burst of old ones.

    `clock` and `sleep` are injected so tests step time without sleeping."""

    def __init__(
        self,
        renderer: FrameRenderer,
        width: int,
        height: int,
        fps: int,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
        render_in_thread: bool = True,
    ) -> None:
        self.renderer, self.width, self.height, self.fps = renderer, width, height, fps
        self._clock, self._sleep = clock, sleep
        self._render_in_thread = render_in_thread
        self._start: float | None = None
        self._tick = 0  # index of the next tick to deliver

    async def next_frame(self) -> CapturedFrame:
        now = self._clock()
        if self._start is None:
            self._start = now
        due = self._start + self._tick / self.fps
        if now < due:
            await self._sleep(due - now)
        else:
            # skip ticks we are more than one period late for
            self._tick = max(self._tick, int((now - self._start) * self.fps))
        index = self._tick
        self._tick += 1
        t = index / self.fps
        if self._render_in_thread:
            image = await asyncio.to_thread(self.renderer.frame, t)
        else:
            image = self.renderer.frame(t)
        if image.shape[:2] != (self.height, self.width):
            image = cv2.resize(image, (self.width, self.height), interpolation=cv2.INTER_AREA)
        return CapturedFrame(image=image, capture_time=self._clock(), index=index)

    async def close(self) -> None:
        return None


class OpenCVCameraSource:
    """A real camera through cv2.VideoCapture: a device index ("0") or a URL/file path
    (rtsp://..., http://..., a video file). Reads block, so they run in a worker thread."""

    def __init__(
        self,
        spec: str | int,
        width: int,
        height: int,
        fps: int,
        clock: Clock = time.monotonic,
    ) -> None:
        self.spec = int(spec) if isinstance(spec, str) and spec.isdigit() else spec
        self.width, self.height, self.fps = width, height, fps
        self._clock = clock
        self._capture: cv2.VideoCapture | None = None
        self._index = 0
        self._lock = asyncio.Lock()  # one read at a time: VideoCapture is not re-entrant

    def _open(self) -> cv2.VideoCapture:
        capture = cv2.VideoCapture(self.spec)
        if not capture.isOpened():
            raise SourceError("streaming.camera_unavailable", f"cannot open camera {self.spec!r}")
        if isinstance(self.spec, int):  # a URL or file has its own size and rate
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
            capture.set(cv2.CAP_PROP_FPS, self.fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # latest picture, not a backlog
        return capture

    def _read(self) -> np.ndarray:
        if self._capture is None:
            self._capture = self._open()
        ok, image = self._capture.read()
        if not ok or image is None:
            raise SourceError("streaming.camera_failed", f"camera {self.spec!r} gave no frame")
        if image.shape[:2] != (self.height, self.width):
            image = cv2.resize(image, (self.width, self.height), interpolation=cv2.INTER_AREA)
        return image

    async def next_frame(self) -> CapturedFrame:
        async with self._lock:
            image = await asyncio.to_thread(self._read)
            frame = CapturedFrame(image=image, capture_time=self._clock(), index=self._index)
            self._index += 1
            return frame

    async def close(self) -> None:
        async with self._lock:
            if self._capture is not None:
                self._capture.release()
                self._capture = None


class LatestFrame:
    """A source that keeps the last picture it delivered, for a second reader of one camera.

    A camera device opens once: the video reads it (through this wrapper) at its frame rate,
    and the table's card recogniser takes the newest picture a few times a second with
    `latest()`, never opening the camera again nor holding the video back."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self._latest: CapturedFrame | None = None

    async def next_frame(self) -> CapturedFrame:
        frame = await self.source.next_frame()
        self._latest = frame
        return frame

    def latest(self, _t: float | None = None) -> np.ndarray:
        """The newest picture (the argument, a time, is ignored: a live camera has only now)."""
        frame = self._latest
        if frame is None:
            raise SourceError("streaming.no_frame_yet", "the camera has not delivered a frame")
        return frame.image

    async def close(self) -> None:
        await self.source.close()


def source_for_camera(
    source: str,
    width: int = 1280,
    height: int = 720,
    fps: int = 25,
    sim_renderer: FrameRenderer | None = None,
    clock: Clock = time.monotonic,
) -> FrameSource:
    """Build a source from a config CameraDevice's fields.

    "sim": the simulated table camera when its renderer is given, else the test pattern
    (until devices/camera/ lands); "testpattern": always the pattern; anything else is a
    device index or URL for OpenCV."""
    if source in ("sim", "testpattern"):
        renderer = sim_renderer if (source == "sim" and sim_renderer is not None) else None
        return PacedSource(renderer or TestPattern(width, height, fps), width, height, fps,
                           clock=clock)
    return OpenCVCameraSource(source, width, height, fps, clock=clock)
