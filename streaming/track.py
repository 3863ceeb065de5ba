"""One viewer's video track: hands the shared, already-encoded packets to aiortc.

aiortc's RTCRtpSender calls `recv()`; when it gets an `av.Packet` instead of a frame it only
packetises it (H264Encoder.pack) - no re-encoding. So every viewer sends the very same
packet objects, and a viewer costs RTP + SRTP work only.

Each viewer has a small bounded queue. A viewer that falls behind (its queue is full) drops
frames, and then keeps dropping until the next keyframe: a P-frame after a gap would only
show corruption until the next keyframe anyway, so we never send one. Memory per viewer is
bounded by the queue cap, whatever happens to the network. While the viewer is still
connecting (aiortc has not asked for a frame yet) an overflow is not a drop: the queue just
restarts at the next keyframe, so the viewer's first picture is a recent one.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from dataclasses import dataclass

import av
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

from streaming.encoder import EncodedFrame


@dataclass(slots=True)
class ViewerStats:
    frames_sent: int = 0  # handed to aiortc's sender
    bytes_sent: int = 0
    frames_dropped: int = 0  # lost to a full queue (or stale when a keyframe arrived)
    frames_skipped_joining: int = 0  # P-frames before this viewer's first keyframe
    gaps: int = 0  # times the viewer fell behind and resynchronised on a keyframe
    max_queue_len: int = 0


class ViewerTrack(MediaStreamTrack):
    """A video track fed by the broadcaster through `push()`; read by aiortc via `recv()`."""

    kind = "video"

    def __init__(
        self,
        viewer_id: str,
        player_id: str,
        queue_cap: int = 8,
        on_stop: Callable[[ViewerTrack], None] | None = None,
    ) -> None:
        super().__init__()
        if queue_cap < 1:
            raise ValueError("queue_cap must be at least 1")
        self.viewer_id = viewer_id
        self.player_id = player_id
        self.queue_cap = queue_cap
        self.stats = ViewerStats()
        self.last_sent: EncodedFrame | None = None
        self._queue: collections.deque[EncodedFrame] = collections.deque()
        self._waiting_for_keyframe = True  # a new viewer starts on a keyframe
        self._joined = False
        self._reading = False  # aiortc has asked for a frame: the connection is up
        self._ready = asyncio.Event()
        self._on_stop = on_stop

    @property
    def queue_len(self) -> int:
        return len(self._queue)

    @property
    def waiting_for_keyframe(self) -> bool:
        return self._waiting_for_keyframe

    def push(self, frame: EncodedFrame) -> None:
        """Queue a shared encoded frame, or drop it. Never blocks, never grows past the cap."""
        if self.readyState != "live":
            return
        if frame.keyframe:
            if self._waiting_for_keyframe or len(self._queue) >= self.queue_cap:
                # start afresh: what is queued is older than this keyframe and not needed
                self.stats.frames_dropped += len(self._queue)
                self._queue.clear()
            self._waiting_for_keyframe = False
            self._joined = True
        elif self._waiting_for_keyframe:
            if self._joined:
                self.stats.frames_dropped += 1
            else:
                self.stats.frames_skipped_joining += 1
            return
        elif len(self._queue) >= self.queue_cap:
            if self._reading:
                self.stats.frames_dropped += 1
                self.stats.gaps += 1
            else:  # still connecting (ICE, DTLS): not the viewer's fault, not a gap
                self.stats.frames_skipped_joining += 1 + len(self._queue)
                self._queue.clear()
                self._joined = False
            self._waiting_for_keyframe = True
            return
        self._queue.append(frame)
        self.stats.max_queue_len = max(self.stats.max_queue_len, len(self._queue))
        self._ready.set()

    async def recv(self) -> av.Packet:
        self._reading = True
        while not self._queue:
            if self.readyState != "live":
                raise MediaStreamError
            self._ready.clear()
            await self._ready.wait()
        frame = self._queue.popleft()
        self.stats.frames_sent += 1
        self.stats.bytes_sent += frame.size
        self.last_sent = frame
        return frame.packet

    def stop(self) -> None:
        if self.readyState == "live":
            super().stop()
            self._queue.clear()
            self._ready.set()  # wake a pending recv() so it raises MediaStreamError
            if self._on_stop is not None:
                self._on_stop(self)
