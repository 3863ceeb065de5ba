"""The shared H.264 encoder: what it emits is decodable 720p constrained baseline, with a
keyframe every second, no B-frames, one packet per frame and 90 kHz timestamps."""

from __future__ import annotations

import fractions

import av
import numpy as np
import pytest

from streaming.encoder import EncoderSettings, SharedH264Encoder, bgr_to_yuv420p
from streaming.framestamp import read_index
from streaming.rtp_h264 import split_annex_b
from streaming.source import CapturedFrame, TestPattern


@pytest.fixture(scope="module")
def encoded():
    """60 frames of the pattern at 25 fps, encoded, with what a decoder makes of them."""
    pattern = TestPattern(1280, 720, 25)
    encoder = SharedH264Encoder(EncoderSettings())
    decoder = av.CodecContext.create("h264", "r")
    out, decoded = [], []
    for i in range(60):
        frames = encoder.encode(CapturedFrame(pattern.frame(i / 25), 50.0 + i / 25, i))
        assert len(frames) == 1  # zerolatency, no B-frames: each picture comes out at once
        out.extend(frames)
        decoded.extend(decoder.decode(av.Packet(bytes(frames[0].packet))))
    return encoder, out, decoded, decoder


def test_decodes_as_720p_constrained_baseline_in_order(encoded) -> None:
    _, frames, decoded, decoder = encoded
    assert decoder.profile == "Constrained Baseline"
    assert len(decoded) == len(frames) == 60
    assert {(p.width, p.height) for p in decoded} == {(1280, 720)}
    assert [read_index(p.to_ndarray()[:720]) for p in decoded] == list(range(60))


def test_keyframe_every_25_frames(encoded) -> None:
    _, frames, _, _ = encoded
    assert [f.index for f in frames if f.keyframe] == [0, 25, 50]
    assert all(f.packet.is_keyframe == f.keyframe for f in frames)


def test_pts_are_90khz_from_capture_time(encoded) -> None:
    _, frames, _, _ = encoded
    assert {f.packet.time_base for f in frames} == {fractions.Fraction(1, 90000)}
    assert [f.packet.pts for f in frames] == [3600 * i for i in range(60)]
    assert all(f.packet.dts == f.packet.pts for f in frames)  # no reordering: no B-frames


def test_encoded_once_per_call_and_bitrate_near_target(encoded) -> None:
    encoder, frames, _, _ = encoded
    assert encoder.encode_calls == 60
    bits_per_second = 8 * sum(f.size for f in frames) / (60 / 25)
    assert 300_000 < bits_per_second < 3 * encoder.settings.bitrate_bps


def test_requested_keyframe_comes_next() -> None:
    pattern = TestPattern(1280, 720, 25)
    encoder = SharedH264Encoder(EncoderSettings(keyframe_interval=250))
    kinds = []
    for i in range(8):
        if i == 5:
            encoder.request_keyframe()
        kinds += [f.keyframe for f in encoder.encode(CapturedFrame(pattern.frame(i / 25),
                                                                   i / 25, i))]
    assert kinds == [True, False, False, False, False, True, False, False]


def test_equal_capture_times_still_give_increasing_pts() -> None:
    encoder = SharedH264Encoder(EncoderSettings(width=320, height=240))
    image = np.zeros((240, 320, 3), np.uint8)
    pts = [f.packet.pts for i in range(3) for f in encoder.encode(CapturedFrame(image, 7.0, i))]
    assert pts == [0, 1, 2]


def test_opencv_conversion_matches_pyav_reformat() -> None:
    image = TestPattern(1280, 720, 25).frame(0.3)
    ours = bgr_to_yuv420p(image).to_ndarray().astype(int)
    reference = av.VideoFrame.from_ndarray(image, format="bgr24").reformat(
        format="yuv420p").to_ndarray().astype(int)
    assert ours.shape == reference.shape == (1080, 1280)
    assert np.abs(ours - reference).mean() < 2.0


def test_one_slice_per_picture(encoded) -> None:
    """Each slice is RTP packets of its own: libx264's default sliced threads would make the
    packets per picture depend on the machine's cores."""
    _, frames, _, _ = encoded
    for f in frames:
        slices = [n for n in split_annex_b(bytes(f.packet)) if n[0] & 0x1F in (1, 5)]
        assert len(slices) == 1
