"""A WebRTC viewer in Python: connects through the HTTP signalling route like a browser does.

Why it exists: the tests and the benchmark need real receiving peers (aiortc on loopback),
and a technician can use it to probe a stream from a shell. It reads the frame counter that
the test pattern stamps into each picture (streaming.framestamp), so a caller can match a
decoded picture to the frame that was captured.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import aiohttp
import av
import numpy as np
from aiortc import RTCConfiguration, RTCPeerConnection, RTCSessionDescription
from aiortc.mediastreams import MediaStreamError

from streaming.framestamp import STAMP_HEIGHT, read_index
from studio.tasks import cancel


def luma_top(frame: av.VideoFrame) -> np.ndarray:
    """The top rows of the luma plane, where the frame counter is, without converting the
    whole picture."""
    plane = frame.planes[0]
    rows = np.frombuffer(plane, np.uint8).reshape(-1, plane.line_size)
    return rows[:STAMP_HEIGHT, : frame.width]


class OfferRefused(Exception):
    def __init__(self, status: int, code: str | None) -> None:
        super().__init__(f"offer refused: HTTP {status} {code}")
        self.status, self.code = status, code


class VideoReceiver:
    """One receiving peer. `on_frame(frame, index, receive_time)` is called per decoded
    picture; counts and sizes are kept as plain attributes."""

    def __init__(self, on_frame: Callable[[av.VideoFrame, int | None, float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))
        self.pc.addTransceiver("video", direction="recvonly")
        self.frames = 0
        self.sizes: set[tuple[int, int]] = set()
        self.indices: list[int] = []
        self._on_frame = on_frame
        self._clock = clock
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None
        self.pc.on("track", self._on_track)

    def _on_track(self, track) -> None:
        if track.kind == "video":
            self._reader = asyncio.ensure_future(self._read(track))

    async def _read(self, track) -> None:
        with contextlib.suppress(MediaStreamError, asyncio.CancelledError):
            while True:
                frame = await track.recv()
                now = self._clock()
                index = read_index(luma_top(frame))
                self.frames += 1
                self.sizes.add((frame.width, frame.height))
                if index is not None:
                    self.indices.append(index)
                if self._on_frame is not None:
                    self._on_frame(frame, index, now)
                async with self._changed:
                    self._changed.notify_all()

    async def connect(self, offer_url: str, token: str | None,
                      session: aiohttp.ClientSession) -> None:
        """Offer, POST it, apply the answer. Raises OfferRefused on an HTTP error."""
        await self.pc.setLocalDescription(await self.pc.createOffer())
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with session.post(offer_url, json={"sdp": self.pc.localDescription.sdp,
                                                 "type": self.pc.localDescription.type},
                                headers=headers) as response:
            body = await response.json()
            if response.status != 200:
                raise OfferRefused(response.status, body.get("error"))
        await self.pc.setRemoteDescription(RTCSessionDescription(**body))

    async def wait_frames(self, count: int, timeout: float) -> None:
        """Wait until `count` pictures in total were decoded (timeout is a safety net)."""
        async def reached() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: self.frames >= count)

        await asyncio.wait_for(reached(), timeout)

    async def close(self) -> None:
        await self.pc.close()
        await cancel(self._reader)
