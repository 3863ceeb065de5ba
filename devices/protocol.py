"""The serial wire protocol of our card shoe and shuffler (see devices/PROTOCOL.md).

No vendor publishes one, so this is ours. Pure code: no I/O, no clock. The readers
(devices/shoe.py, devices/shuffler.py) and the simulators (devices/sim_*.py) both use it, so the
two ends cannot drift apart.

On the wire every frame is ``00 | COBS(body) | 00``. COBS removes every zero byte from the body,
so ``00`` only ever means "frame boundary": after any garbage or a lost byte the receiver is back
in step at the next ``00``, and the leading ``00`` closes off whatever noise came before a frame,
so noise costs at most itself, never the frame after it.

Body (big-endian)::

    0     version   0x01
    1     type      MsgType
    2..3  seq       per-direction sequence number, uint16, wraps 65535 -> 0
    4     length    N, payload bytes (0..MAX_PAYLOAD)
    5..   payload   N bytes, layout per type
    5+N   crc       CRC-16/CCITT-FALSE over bytes 0..4+N (poly 0x1021, init 0xFFFF)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

VERSION = 0x01
DELIMITER = 0x00
HEADER_LEN = 5
CRC_LEN = 2
MAX_PAYLOAD = 64
MIN_BODY = HEADER_LEN + CRC_LEN
MAX_BODY = HEADER_LEN + MAX_PAYLOAD + CRC_LEN
# COBS adds one byte per 254 plus one; anything longer between delimiters is not a frame.
MAX_ENCODED = MAX_BODY + 2
SEQ_MOD = 0x10000

DECK_SET_RE = re.compile(r"^[A-Za-z0-9._-]{1,32}$")

# Stable fault codes of the framing layer (the reader adds the semantic ones, devices/events.py).
FRAME_MALFORMED = "serial.frame_malformed"
FRAME_CHECKSUM = "serial.frame_checksum"
FRAME_UNKNOWN_TYPE = "serial.frame_unknown_type"
PAYLOAD_MALFORMED = "serial.payload_malformed"


class MsgType(IntEnum):
    HEARTBEAT = 0x01
    CARD = 0x02
    SHOE_STATUS = 0x03
    SHUFFLER_STATE = 0x04
    ACK = 0x10
    NAK = 0x11


class DeviceKind(IntEnum):
    """Sent in every heartbeat, so a reader notices when it is plugged into the wrong device."""

    SHOE = 0x53  # "S"
    SHUFFLER = 0x46  # "F"


class ShoeStatusCode(IntEnum):
    READY = 0x00
    EMPTY = 0x01
    DOOR_OPEN = 0x02
    JAM = 0x03
    CUT_CARD = 0x04  # the cut card came out: finish the round, then change the shoe


class ShufflerStateCode(IntEnum):
    IDLE = 0x00
    SHUFFLING = 0x01
    DECK_READY = 0x02
    ERROR = 0x03


class NakReason(IntEnum):
    MALFORMED = 0x01
    CHECKSUM = 0x02
    SEQ_GAP = 0x03
    SEQ_DUPLICATE = 0x04
    REJECTED = 0x05  # well framed but refused (wrong deck set, unexpected card, ...)


class ProtocolError(ValueError):
    """A frame or payload that does not follow PROTOCOL.md; `code` is a stable fault code."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


# ---------------------------------------------------------------------------------------------
# Messages


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """`boot` is drawn at random when the device powers on: a new value means it restarted and
    its sequence numbers started again, which the host must not mistake for duplicates."""

    kind: DeviceKind
    boot: int = 0  # 0..65535


@dataclass(frozen=True, slots=True)
class CardMsg:
    """A card out of the shoe. `code` is kept as sent; the reader validates it (studio.cards)."""

    code: str
    deck_set: str


@dataclass(frozen=True, slots=True)
class ShoeStatusMsg:
    status: ShoeStatusCode


@dataclass(frozen=True, slots=True)
class ShufflerStateMsg:
    state: ShufflerStateCode
    deck_set: str = ""  # set only with DECK_READY
    error_code: int = 0  # set only with ERROR (device specific, 1..65535)


@dataclass(frozen=True, slots=True)
class Ack:
    seq: int  # the peer's sequence number being acknowledged


@dataclass(frozen=True, slots=True)
class Nak:
    seq: int  # the sequence number the receiver expected next
    reason: NakReason


Message = Heartbeat | CardMsg | ShoeStatusMsg | ShufflerStateMsg | Ack | Nak


@dataclass(frozen=True, slots=True)
class Frame:
    """A frame whose framing and checksum are good. `raw` = the bytes between the delimiters."""

    seq: int
    type: int
    payload: bytes
    raw: bytes


@dataclass(frozen=True, slots=True)
class FrameError:
    """Bytes between two delimiters that are not a good frame (garbage, bit flip, truncation)."""

    code: str
    detail: str
    raw: bytes


# ---------------------------------------------------------------------------------------------
# CRC and COBS


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16_ccitt(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (check value of b"123456789" is 0x29B1)."""
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    for block in data.split(b"\x00"):
        while len(block) >= 254:
            out.append(0xFF)
            out += block[:254]
            block = block[254:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError(FRAME_MALFORMED, "zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise ProtocolError(FRAME_MALFORMED, "COBS block runs past the end of the frame")
        out += data[i + 1:end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# Encoding


def _ascii_field(text: str, what: str) -> bytes:
    if not DECK_SET_RE.match(text):
        raise ProtocolError(PAYLOAD_MALFORMED, f"{what} {text!r} must match {DECK_SET_RE.pattern}")
    return bytes([len(text)]) + text.encode("ascii")


def encode_payload(msg: Message) -> tuple[MsgType, bytes]:
    match msg:
        case Heartbeat(kind, boot):
            return MsgType.HEARTBEAT, bytes([kind]) + boot.to_bytes(2, "big")
        case CardMsg(code, deck_set):
            raw = code.encode("ascii", "replace")
            if len(raw) != 2:
                raise ProtocolError(PAYLOAD_MALFORMED, f"card code {code!r} is not 2 characters")
            return MsgType.CARD, raw + _ascii_field(deck_set, "deck set")
        case ShoeStatusMsg(status):
            return MsgType.SHOE_STATUS, bytes([status])
        case ShufflerStateMsg(state, deck_set, error_code):
            tail = _ascii_field(deck_set, "deck set") if deck_set else b"\x00"
            return MsgType.SHUFFLER_STATE, bytes([state]) + error_code.to_bytes(2, "big") + tail
        case Ack(seq):
            return MsgType.ACK, (seq % SEQ_MOD).to_bytes(2, "big")
        case Nak(seq, reason):
            return MsgType.NAK, (seq % SEQ_MOD).to_bytes(2, "big") + bytes([reason])
    raise TypeError(f"not a protocol message: {msg!r}")


def encode_body(seq: int, msg_type: int, payload: bytes) -> bytes:
    """The unframed body with its CRC (exposed so the simulator can corrupt it on purpose)."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(PAYLOAD_MALFORMED, f"payload of {len(payload)} bytes > {MAX_PAYLOAD}")
    head = bytes([VERSION, msg_type]) + (seq % SEQ_MOD).to_bytes(2, "big") + bytes([len(payload)])
    body = head + payload
    return body + crc16_ccitt(body).to_bytes(2, "big")


def frame_body(body: bytes) -> bytes:
    """Wire bytes for a body: 00 | COBS(body) | 00."""
    return b"\x00" + cobs_encode(body) + b"\x00"


def encode_frame(seq: int, msg: Message) -> bytes:
    msg_type, payload = encode_payload(msg)
    return frame_body(encode_body(seq, msg_type, payload))


# ---------------------------------------------------------------------------------------------
# Decoding


def decode_chunk(chunk: bytes) -> Frame | FrameError:
    """Decode the bytes between two delimiters. Checks, in order: COBS, size, version and length
    (FRAME_MALFORMED), CRC (FRAME_CHECKSUM), type (FRAME_UNKNOWN_TYPE)."""
    try:
        body = cobs_decode(chunk)
    except ProtocolError as e:
        return FrameError(e.code, e.detail, chunk)
    if not MIN_BODY <= len(body) <= MAX_BODY:
        return FrameError(FRAME_MALFORMED, f"frame body of {len(body)} bytes", chunk)
    if body[0] != VERSION:
        return FrameError(FRAME_MALFORMED, f"protocol version {body[0]:#04x}", chunk)
    n = body[4]
    if len(body) != HEADER_LEN + n + CRC_LEN:
        return FrameError(FRAME_MALFORMED, f"length field {n} vs body {len(body)}", chunk)
    want = crc16_ccitt(body[:-2])
    got = int.from_bytes(body[-2:], "big")
    if want != got:
        return FrameError(FRAME_CHECKSUM, f"crc {got:04x}, computed {want:04x}", chunk)
    if body[1] not in _KNOWN_TYPES:
        return FrameError(FRAME_UNKNOWN_TYPE, f"message type {body[1]:#04x}", chunk)
    return Frame(int.from_bytes(body[2:4], "big"), body[1], body[5:-2], chunk)


_KNOWN_TYPES = frozenset(int(t) for t in MsgType)


def _ascii_at(payload: bytes, at: int, what: str) -> tuple[str, int]:
    if at >= len(payload):
        raise ProtocolError(PAYLOAD_MALFORMED, f"{what} missing")
    n = payload[at]
    raw = payload[at + 1:at + 1 + n]
    if len(raw) != n:
        raise ProtocolError(PAYLOAD_MALFORMED, f"{what} truncated")
    text = raw.decode("ascii", "replace")
    if n and not DECK_SET_RE.match(text):
        raise ProtocolError(PAYLOAD_MALFORMED, f"{what} {text!r} is not a valid id")
    return text, at + 1 + n


def _enum(enum: type[IntEnum], value: int, what: str) -> IntEnum:
    try:
        return enum(value)
    except ValueError:
        raise ProtocolError(PAYLOAD_MALFORMED, f"unknown {what} {value:#04x}") from None


def decode_message(frame: Frame) -> Message:
    """The message carried by a good frame; raises ProtocolError(PAYLOAD_MALFORMED)."""
    p = frame.payload
    t = frame.type
    if t == MsgType.HEARTBEAT:
        _exact(p, 3, "heartbeat")
        kind = _enum(DeviceKind, p[0], "device kind")
        return Heartbeat(kind, int.from_bytes(p[1:3], "big"))  # type: ignore[arg-type]
    if t == MsgType.CARD:
        if len(p) < 3:
            raise ProtocolError(PAYLOAD_MALFORMED, "card payload too short")
        deck_set, end = _ascii_at(p, 2, "deck set")
        if end != len(p) or not deck_set:
            raise ProtocolError(PAYLOAD_MALFORMED, "card payload length or empty deck set")
        return CardMsg(p[:2].decode("ascii", "replace"), deck_set)
    if t == MsgType.SHOE_STATUS:
        _exact(p, 1, "shoe status")
        return ShoeStatusMsg(_enum(ShoeStatusCode, p[0], "shoe status"))  # type: ignore[arg-type]
    if t == MsgType.SHUFFLER_STATE:
        if len(p) < 4:
            raise ProtocolError(PAYLOAD_MALFORMED, "shuffler state payload too short")
        state = _enum(ShufflerStateCode, p[0], "shuffler state")
        deck_set, end = _ascii_at(p, 3, "deck set")
        if end != len(p):
            raise ProtocolError(PAYLOAD_MALFORMED, "shuffler state payload length")
        if state == ShufflerStateCode.DECK_READY and not deck_set:
            raise ProtocolError(PAYLOAD_MALFORMED, "deck ready without a deck set")
        return ShufflerStateMsg(state, deck_set, int.from_bytes(p[1:3], "big"))  # type: ignore[arg-type]
    if t == MsgType.ACK:
        _exact(p, 2, "ack")
        return Ack(int.from_bytes(p, "big"))
    if t == MsgType.NAK:
        _exact(p, 3, "nak")
        return Nak(int.from_bytes(p[:2], "big"), _enum(NakReason, p[2], "nak reason"))  # type: ignore[arg-type]
    raise ProtocolError(FRAME_UNKNOWN_TYPE, f"message type {t:#04x}")


def _exact(payload: bytes, n: int, what: str) -> None:
    if len(payload) != n:
        raise ProtocolError(PAYLOAD_MALFORMED, f"{what} payload of {len(payload)} bytes, not {n}")


class FrameDecoder:
    """Splits a byte stream into frames at the 00 delimiters.

    Bytes before the first delimiter of a connection are dropped silently (counted in
    `discarded_at_sync`): they may be the tail of a frame sent before we listened. After that,
    every non-empty chunk is either a Frame or a FrameError; nothing is skipped quietly.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._synced = False
        self._overflowed = False
        self.discarded_at_sync = 0

    def feed(self, data: bytes) -> Iterator[Frame | FrameError]:
        buf = self._buf
        buf += data
        while True:
            idx = buf.find(0)
            if idx < 0:
                if len(buf) > MAX_ENCODED and not self._overflowed:
                    self._overflowed = True
                    if self._synced:
                        yield FrameError(FRAME_MALFORMED, "no delimiter within the longest frame",
                                         bytes(buf[:MAX_ENCODED]))
                if self._overflowed:
                    del buf[:]
                return
            chunk = bytes(buf[:idx])
            del buf[:idx + 1]
            if self._overflowed:  # the tail of an over-long chunk, already reported
                self._overflowed = False
                self._synced = True
                continue
            if not self._synced:
                self._synced = True
                self.discarded_at_sync += len(chunk)
                continue
            if chunk:
                yield decode_chunk(chunk)


def seq_distance(seq: int, expected: int) -> int:
    """How far `seq` is ahead of `expected` (0 = in order; negative = behind, a repeat)."""
    d = (seq - expected) % SEQ_MOD
    return d if d < SEQ_MOD // 2 else d - SEQ_MOD
