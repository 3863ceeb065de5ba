"""The classifier's crop of a card lying across the frame's edge is blanked beyond it
(recognizer.Options.blank_outside): what the warp fills in there is black, not the card."""

from __future__ import annotations

import cv2
import numpy as np

from devices.camera.recognizer import _CANON_CORNERS, Options, _beyond_frame
from devices.camera.scoring import inside
from devices.camera.templates import CANON_H, CANON_W, FINE
from tests.wide_cards import both_ways, named_right

SHAPE = (720, 1280, 3)


def _beyond_by_warp(quad: np.ndarray) -> np.ndarray:
    """The crop's pixels the warp fills from beyond the frame, most of each one: the frame's
    pixels warped as the classifier's crop is (an average of the fine warp)."""
    ones = np.ones(SHAPE[:2], np.float32)
    warp = cv2.getPerspectiveTransform(quad, _CANON_CORNERS * FINE - np.float32(0.5))
    fine = cv2.warpPerspective(ones, warp, (CANON_W * FINE, CANON_H * FINE),
                               flags=cv2.INTER_LINEAR)
    return cv2.resize(fine, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA) < 0.5


def test_the_pixels_beyond_the_frame_are_those_the_warp_fills_from_beyond_it() -> None:
    inside = np.float32([[10, 10], [100, 10], [100, 150], [10, 150]])
    assert _beyond_frame(SHAPE, inside) is None  # no warp for a quad inside the frame
    for quad in (np.float32([[1230, 100], [1320, 110], [1310, 250], [1220, 240]]),
                 np.float32([[-40, 600], [50, 590], [60, 760], [-30, 770]])):
        beyond = _beyond_frame(SHAPE, quad)
        assert beyond is not None and 0.2 < beyond.mean() < 0.7
        assert int((beyond != _beyond_by_warp(quad)).sum()) <= 2  # a pixel on the edge


def test_a_card_across_the_frames_edge_is_named_with_what_lies_beyond_blanked() -> None:
    """Tune napoletane 72,812: a 5 of swords 51% showing, the rest of it beyond the frame's
    edge, refused while the classifier read the black there as part of the card; blanked,
    it is named, and nothing named lies off its card."""
    scene, on, off = both_ways("napoletane", 72_812, Options(),
                               Options(blank_outside=False))
    five = next(t for t in scene.truth if t.code == "5s")
    assert five.counts and _beyond_frame(scene.frame.shape, five.quad) is not None
    assert named_right(scene, on, "5s") and not named_right(scene, off, "5s")
    assert all(any(t.code == d.code and inside(t, d.center) for t in scene.truth) for d in on)
