"""H.264 access units as RTP payloads (RFC 6184, packetization-mode=1), with a payload size
of our choosing.

Why not aiortc's packetiser: it caps every payload at 1,300 bytes (a module constant). Every
packet costs an SFU a send per viewer whatever its size, so the fewer packets a frame takes
the more viewers a core holds. `MAX_PAYLOAD` is the largest payload that still fits a 1,500
byte MTU once an SFU has added what it adds on the way to a browser:
IPv6 40 + UDP 8 + RTP header 12 + header extensions (mid, abs-send-time, transport-wide cc,
with the one-byte header and padding) 16 + RFC 4588 retransmission's original sequence
number 2 + SRTP's AES-GCM tag 16 = 94 bytes; 1,500 - 94 = 1,406. 1,400 also leaves a TURN
ChannelData header (4) room. Browsers take any payload that arrives in one datagram.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Iterator

MAX_PAYLOAD = 1400
NAL_TYPE_STAP_A = 24
NAL_TYPE_FU_A = 28


def split_annex_b(access_unit: bytes) -> Iterator[bytes]:
    """The NAL units of an Annex-B byte stream (3- or 4-byte start codes), without them."""
    i = access_unit.find(b"\x00\x00\x01")
    while i != -1:
        start = i + 3
        i = access_unit.find(b"\x00\x00\x01", start)
        end = len(access_unit) if i == -1 else i - (access_unit[i - 1] == 0)
        if end > start:
            yield access_unit[start:end]


def fu_a(nal: bytes, max_payload: int) -> list[bytes]:
    """One NAL unit too large for a packet, in fragments of near equal size."""
    body = nal[1:]
    count = math.ceil(len(body) / (max_payload - 2))
    size, larger = divmod(len(body), count)
    indicator = (nal[0] & 0xE0) | NAL_TYPE_FU_A
    out, offset = [], 0
    for k in range(count):
        n = size + (k < larger)
        header = (nal[0] & 0x1F) | (0x80 if k == 0 else 0) | (0x40 if k == count - 1 else 0)
        out.append(bytes([indicator, header]) + body[offset:offset + n])
        offset += n
    return out


def stap_a(nals: list[bytes]) -> bytes:
    """Several small NAL units (e.g. SPS, PPS) in one packet."""
    f_nri = max(n[0] & 0x60 for n in nals) | max(n[0] & 0x80 for n in nals)
    return bytes([f_nri | NAL_TYPE_STAP_A]) + b"".join(
        struct.pack("!H", len(n)) + n for n in nals)


def packetize(nals: Iterable[bytes], max_payload: int = MAX_PAYLOAD) -> list[bytes]:
    """RTP payloads for one access unit: consecutive small NAL units aggregated (STAP-A),
    a NAL unit that fits alone as it is, a larger one fragmented (FU-A)."""
    out: list[bytes] = []
    group: list[bytes] = []

    def flush() -> None:
        if group:
            out.append(group[0] if len(group) == 1 else stap_a(group))
            group.clear()
    for nal in nals:
        if len(nal) > max_payload:
            flush()
            out.extend(fu_a(nal, max_payload))
            continue
        if 1 + sum(2 + len(n) for n in [*group, nal]) > max_payload:
            flush()
        group.append(nal)
    flush()
    return out
