"""A message framed once for every client it goes to.

A server's WebSocket frames are not masked (RFC 6455 5.1), so a text frame is the same bytes
for every client that takes it uncompressed: an edge with 10,000 players frames a card event
once and writes those bytes to each socket (`studio.web.ws.Connection`), instead of asking
aiohttp to frame and write it 10,000 times from 10,000 sender tasks. A socket that negotiated
permessage-deflate cannot take these bytes: it gets the text through aiohttp as before.
"""

from __future__ import annotations

import struct

TEXT = 0x81  # FIN + text opcode


def text_frame(data: bytes) -> bytes:
    """One unmasked, uncompressed, final text frame carrying `data`."""
    n = len(data)
    if n < 126:
        return bytes((TEXT, n)) + data
    if n < 1 << 16:
        return struct.pack("!BBH", TEXT, 126, n) + data
    return struct.pack("!BBQ", TEXT, 127, n) + data


class Outgoing:
    """A message's JSON text, shared by every client that gets it, and its frame, made the
    first time a client can take it."""

    __slots__ = ("_frame", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._frame: bytes | None = None

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            self._frame = text_frame(self.text.encode())
        return self._frame

    def __repr__(self) -> str:
        return f"Outgoing({self.text[:60]!r})"


def header(frame: bytes) -> tuple[int, int]:
    """(where an unmasked frame's payload starts, its length): `text_frame` read back."""
    n = frame[1] & 0x7F
    if n == 126:
        return 4, struct.unpack("!H", frame[2:4])[0]
    if n == 127:
        return 10, struct.unpack("!Q", frame[2:10])[0]
    return 2, n


def split_frames(data: bytes) -> list[bytes]:
    """The unmasked frames one write carries, in order (a burst's frames to a player are one
    write): what a client reads of it, for the tests and benchmarks of the fan-out."""
    out = []
    while data:
        start, n = header(data)
        out.append(data[:start + n])
        data = data[start + n:]
    return out
