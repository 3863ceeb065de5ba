"""The studio's H.264 RTP packetiser: what a receiver (aiortc's depacketiser, as a browser's)
reassembles is the encoder's access unit, NAL for NAL; no payload is larger than asked; and at
the default size a second of the table video takes fewer packets than aiortc's 1,300 bytes."""

from __future__ import annotations

import pytest
from aiortc.codecs.h264 import H264Encoder, H264PayloadDescriptor

from streaming.encoder import EncoderSettings, SharedH264Encoder
from streaming.rtp_h264 import MAX_PAYLOAD, fu_a, packetize, split_annex_b
from streaming.source import CapturedFrame, TestPattern


@pytest.fixture(scope="module")
def access_units() -> list[bytes]:
    """A second of the 720p pattern (a keyframe and 24 P-frames) at the studio's bitrate."""
    pattern, encoder = TestPattern(1280, 720, 25), SharedH264Encoder(EncoderSettings())
    return [bytes(f.packet) for i in range(25)
            for f in encoder.encode(CapturedFrame(pattern.frame(i / 25), i / 25, i))]


def reassemble(payloads: list[bytes]) -> bytes:
    return b"".join(H264PayloadDescriptor.parse(p)[1] for p in payloads)


@pytest.mark.parametrize("max_payload", [MAX_PAYLOAD, 1200, 300])
def test_receiver_reassembles_every_nal_unit(access_units, max_payload) -> None:
    for au in access_units:
        payloads = packetize(split_annex_b(au), max_payload)
        assert max(len(p) for p in payloads) <= max_payload
        assert list(split_annex_b(reassemble(payloads))) == list(split_annex_b(au))


def test_sps_and_pps_share_a_packet_with_nothing_lost() -> None:
    sps, pps = b"\x67" + bytes(20), b"\x68" + bytes(3)
    (payload,) = packetize([sps, pps])
    assert payload[0] & 0x1F == 24  # STAP-A
    assert list(split_annex_b(reassemble([payload]))) == [sps, pps]


def test_fragments_are_near_equal_and_marked_first_and_last() -> None:
    nal = b"\x65" + bytes(range(256)) * 20  # 5,121 bytes: 4 fragments at 1,400
    parts = fu_a(nal, MAX_PAYLOAD)
    assert len(parts) == 4
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert [p[1] & 0xC0 for p in parts] == [0x80, 0, 0, 0x40]


def test_fewer_packets_than_aiortcs_1300_bytes(access_units) -> None:
    ours = sum(len(packetize(split_annex_b(au))) for au in access_units)
    aiortc = sum(len(H264Encoder._packetize(split_annex_b(au))) for au in access_units)
    assert ours < aiortc
