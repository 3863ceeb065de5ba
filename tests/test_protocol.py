"""The serial wire protocol (devices/protocol.py) against the bytes PROTOCOL.md documents."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devices import protocol as p

# The examples of devices/PROTOCOL.md, byte for byte.
DOC_EXAMPLES = [
    (0, p.Heartbeat(p.DeviceKind.SHOE, 0x1234), "00 03 01 01 01 07 03 53 12 34 41 08 00"),
    (1, p.CardMsg("Kd", "D1"), "00 03 01 02 0a 01 05 4b 64 02 44 31 54 d5 00"),
    (2, p.ShoeStatusMsg(p.ShoeStatusCode.EMPTY), "00 03 01 03 06 02 01 01 e8 12 00"),
    (7, p.ShufflerStateMsg(p.ShufflerStateCode.SHUFFLING),
     "00 03 01 04 04 07 04 01 01 01 03 cb cf 00"),
    (8, p.ShufflerStateMsg(p.ShufflerStateCode.DECK_READY, "S1A2B-3"),
     "00 03 01 04 04 08 0b 02 01 0b 07 53 31 41 32 42 2d 33 0c 9c 00"),
    (9, p.ShufflerStateMsg(p.ShufflerStateCode.ERROR, error_code=0x0102),
     "00 03 01 04 06 09 04 03 01 02 03 f7 56 00"),
    (5, p.Ack(1), "00 03 01 10 03 05 02 04 01 91 2f 00"),
    (6, p.Nak(4, p.NakReason.SEQ_GAP), "00 03 01 11 03 06 03 05 04 03 53 09 00"),
    (0x0100, p.Heartbeat(p.DeviceKind.SHUFFLER, 0xBEEF),
     "00 04 01 01 01 07 03 46 be ef 8e 3e 00"),
]


def decode_all(data: bytes, chunk: int | None = None) -> list[p.Frame | p.FrameError]:
    dec = p.FrameDecoder()
    if chunk is None:
        return list(dec.feed(data))
    out: list[p.Frame | p.FrameError] = []
    for i in range(0, len(data), chunk):
        out.extend(dec.feed(data[i:i + chunk]))
    return out


def test_crc16_ccitt_false_check_value() -> None:
    assert p.crc16_ccitt(b"123456789") == 0x29B1


@pytest.mark.parametrize(("seq", "msg", "wire"), DOC_EXAMPLES)
def test_documented_examples_encode_and_decode(seq: int, msg: p.Message, wire: str) -> None:
    raw = bytes.fromhex(wire)
    assert p.encode_frame(seq, msg) == raw
    [frame] = decode_all(raw)
    assert isinstance(frame, p.Frame)
    assert frame.seq == seq
    assert p.decode_message(frame) == msg


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero_bytes(data: bytes) -> None:
    enc = p.cobs_encode(data)
    assert 0 not in enc
    assert p.cobs_decode(enc) == data


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 0xFFFF), st.sampled_from(["Ad", "Kd", "7c", "Qs"]),
                          st.from_regex(p.DECK_SET_RE, fullmatch=True)), min_size=1, max_size=8),
       st.integers(1, 17))
def test_stream_split_anywhere_decodes_the_same(cards, chunk: int) -> None:
    stream = b"".join(p.encode_frame(seq, p.CardMsg(code, ds)) for seq, code, ds in cards)
    frames = decode_all(stream, chunk)
    assert [(f.seq, p.decode_message(f)) for f in frames] == [
        (seq, p.CardMsg(code, ds)) for seq, code, ds in cards]


@settings(max_examples=200)
@given(st.lists(st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"\x00", b"\x01")),
                min_size=1, max_size=5))
def test_garbage_between_frames_costs_only_itself(noise: list[bytes]) -> None:
    """Noise without a zero byte before each frame: every frame survives, noise is reported."""
    good = [p.encode_frame(i, p.CardMsg("Ad", "D1")) for i in range(len(noise))]
    stream = good[0] + b"".join(n + g for n, g in zip(noise, good[1:], strict=False)) + noise[-1]
    stream += p.encode_frame(99, p.Heartbeat(p.DeviceKind.SHOE))
    items = decode_all(stream)
    frames = [i for i in items if isinstance(i, p.Frame)]
    errors = [i for i in items if isinstance(i, p.FrameError)]
    assert [f.seq for f in frames] == [*range(len(noise)), 99]
    assert len(errors) == len(noise)
    assert {e.code for e in errors} <= {p.FRAME_MALFORMED, p.FRAME_CHECKSUM}


@settings(max_examples=300)
@given(st.integers(0, 11 * 8 - 1))
def test_every_single_bit_flip_is_caught(bit: int) -> None:
    body = bytearray(p.encode_body(3, p.MsgType.CARD, b"Kd\x02D1"))
    body[bit // 8] ^= 1 << (bit % 8)
    items = decode_all(p.frame_body(bytes(body)))
    assert items and all(isinstance(i, p.FrameError) for i in items)


def test_error_classes() -> None:
    body = p.encode_body(1, p.MsgType.HEARTBEAT, bytes([p.DeviceKind.SHOE, 0, 7]))
    flipped = bytearray(body)
    flipped[2] ^= 0x10  # in the sequence number: framing intact, CRC wrong
    [e] = decode_all(p.frame_body(bytes(flipped)))
    assert isinstance(e, p.FrameError) and e.code == p.FRAME_CHECKSUM
    [e] = decode_all(b"\x00\x07\x01\x02\x00")  # COBS block longer than the chunk
    assert e.code == p.FRAME_MALFORMED
    bad_version = bytes([2]) + body[1:-2]
    bad_version += p.crc16_ccitt(bad_version).to_bytes(2, "big")
    [e] = decode_all(p.frame_body(bad_version))
    assert e.code == p.FRAME_MALFORMED and "version" in e.detail
    [e] = decode_all(p.frame_body(p.encode_body(1, 0x7E, b"")))
    assert e.code == p.FRAME_UNKNOWN_TYPE


def test_bytes_before_first_delimiter_are_dropped_then_everything_counts() -> None:
    dec = p.FrameDecoder()
    frame = p.encode_frame(4, p.Heartbeat(p.DeviceKind.SHOE))
    items = list(dec.feed(b"\x31\x32" + frame[1:] + b"\x55" + frame))
    assert dec.discarded_at_sync == len(frame)  # a partial frame from before we listened
    assert [type(i) for i in items] == [p.FrameError, p.Frame]


def test_over_long_chunk_is_one_error_then_resync() -> None:
    dec = p.FrameDecoder()
    items = list(dec.feed(b"\x00" + b"\x41" * 500))
    assert [i.code for i in items] == [p.FRAME_MALFORMED]  # type: ignore[union-attr]
    items = list(dec.feed(b"\x41" * 10 + p.encode_frame(5, p.Heartbeat(p.DeviceKind.SHOE))))
    assert [type(i) for i in items] == [p.Frame]


@pytest.mark.parametrize(("payload_type", "payload"), [
    (p.MsgType.CARD, b"Kd\x05D1"),  # deck set length past the end
    (p.MsgType.CARD, b"Kd\x00"),  # empty deck set
    (p.MsgType.HEARTBEAT, b""),
    (p.MsgType.HEARTBEAT, b"\x99\x00\x01"),  # unknown device kind
    (p.MsgType.SHOE_STATUS, b"\x09"),
    (p.MsgType.SHUFFLER_STATE, b"\x02\x00\x00\x00"),  # deck ready without a set
    (p.MsgType.CARD, b"Kd\x02D "),  # a space is not allowed in a set id
])
def test_bad_payloads(payload_type: p.MsgType, payload: bytes) -> None:
    [frame] = decode_all(p.frame_body(p.encode_body(0, payload_type, payload)))
    assert isinstance(frame, p.Frame)
    with pytest.raises(p.ProtocolError) as e:
        p.decode_message(frame)
    assert e.value.code == p.PAYLOAD_MALFORMED


def test_seq_distance_wraps() -> None:
    assert p.seq_distance(5, 5) == 0
    assert p.seq_distance(0, 0xFFFF) == 1
    assert p.seq_distance(0xFFFF, 0) == -1
    assert p.seq_distance(10, 7) == 3
    assert p.seq_distance(7, 10) == -3
