"""A real camera through OpenCV: a device index ("0") or a URL (RTSP, HTTP MJPEG, a file).

Frames come out as 1280x720 BGR like the simulated camera's, so the recogniser and the streamer
take either. Opening or reading failures raise CaptureError with a stable code.
"""

from __future__ import annotations

from typing import Self

import cv2
import numpy as np

from devices.camera.layout import FRAME_H, FRAME_W


class CaptureError(RuntimeError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Capture:
    """Capture("0") opens device 0; Capture("rtsp://...") opens a stream or a video file."""

    def __init__(self, source: str | int, width: int = FRAME_W, height: int = FRAME_H) -> None:
        self.source = source
        self.size = (width, height)
        target: str | int = int(source) if isinstance(source, str) and source.isdigit() else source
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            raise CaptureError("camera.open_failed", f"cannot open camera {source!r}")
        if isinstance(target, int):
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> np.ndarray:
        """The next frame, resized to the working size if the camera gives another."""
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CaptureError("camera.read_failed", f"no frame from camera {self.source!r}")
        if (frame.shape[1], frame.shape[0]) != self.size:
            frame = cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA)
        return frame

    def close(self) -> None:
        self._cap.release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
