"""The calibrated top-down table view: mapping, and card rectangles found from one corner."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from devices.camera.layout import CameraPose
from devices.camera.recognizer import Recognizer
from devices.camera.sim_camera import SimCamera
from devices.camera.table_view import CardRect, TableView, card_hypotheses, card_size, filled
from devices.camera.voting import CameraCardSource, CardVoter


def _card(cx: float, cy: float, degrees: float, w: float, h: float) -> np.ndarray:
    box = cv2.boxPoints(((cx, cy), (w, h), degrees))
    return np.round(box).astype(np.int32)


def test_view_maps_table_points_to_view_pixels_and_back() -> None:
    camera = CameraPose().jittered(np.random.default_rng(5), 35.0)
    view = TableView(camera, scale=0.5)
    table = np.array([[0, 0], [700, 400], [1400, 800], [250, 610]], np.float64)
    image = camera.project(table)
    back = cv2.perspectiveTransform(image.reshape(-1, 1, 2), view.to_view).reshape(-1, 2)
    np.testing.assert_allclose(back, (table + 40.0) * 0.5, atol=1e-6)
    np.testing.assert_allclose(view.image_points(back), image, atol=1e-3)
    # a card drawn at a table point appears at the matching view pixel
    frame = np.zeros((720, 1280, 3), np.uint8)
    x, y = camera.project(np.array([[700.0, 400.0]]))[0]
    cv2.circle(frame, (round(x), round(y)), 6, (255, 255, 255), -1)
    top = view.rectify(frame)
    ys, xs = np.nonzero(top[:, :, 0] > 128)
    assert abs(xs.mean() - 370) < 1.5 and abs(ys.mean() - 220) < 1.5


def test_one_card_is_found_with_its_size_centre_and_turn() -> None:
    w, h = card_size(1.6)
    mask = np.zeros((440, 740), np.uint8)
    cv2.fillPoly(mask, [_card(300, 200, 12.0, w, h)], 255)
    rects, solid = card_hypotheses(mask, w, h, 0.5 * w * h)
    good = [r for r in rects if np.linalg.norm(r.centre - (300, 200)) < 1.5]
    assert good, [r.centre for r in rects]
    r = good[0]
    assert sorted((r.lu, r.lv)) == pytest.approx(sorted((w, h)))
    turn = np.degrees(np.arctan2(r.long_axis[1], r.long_axis[0])) % 180
    assert abs(turn - (90 + 12)) < 2.0
    assert filled(solid, r)
    # the same card shifted off the mask is not on not-felt
    assert not filled(solid, r.moved(w, 0, 0))


def test_the_top_card_of_a_merged_fan_is_one_hypothesis() -> None:
    """Three overlapping cards make one blob; the top card (drawn last) is still proposed
    exactly, from a corner of its own on the blob's outline."""
    w, h = card_size(1.45)
    mask = np.zeros((440, 740), np.uint8)
    for i, angle in enumerate((-4.0, 3.0, 7.0)):
        cv2.fillPoly(mask, [_card(250 + 0.6 * w * i, 200 + 4 * i, angle, w, h)], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert len(contours) == 1  # merged
    rects, _ = card_hypotheses(mask, w, h, 0.5 * w * h)
    top = (250 + 1.2 * w, 208)
    assert any(np.linalg.norm(r.centre - top) < 1.5 for r in rects)


def test_moved_keeps_the_card_size_and_right_angles() -> None:
    rect = CardRect(np.array([10.0, 20.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]),
                    55.0, 80.0)
    moved = rect.moved(3.0, -2.0, np.radians(10))
    np.testing.assert_allclose(moved.centre, rect.centre + (3, -2))
    c = moved.corners()
    assert np.linalg.norm(c[1] - c[0]) == pytest.approx(55.0, abs=1e-3)
    assert np.linalg.norm(c[3] - c[0]) == pytest.approx(80.0, abs=1e-3)
    assert float((c[1] - c[0]) @ (c[3] - c[0])) == pytest.approx(0.0, abs=1e-2)


def test_live_source_with_the_tables_calibration_names_a_fan() -> None:
    """SimCamera -> Recognizer given the camera's calibration -> voter: a dealt fan of three
    cards at one position, each named once, in its region, and nothing else."""
    cam = SimCamera("french", seed=11)
    source = CameraCardSource(Recognizer("french", camera=cam.camera),
                              CardVoter(need=2, window=3, regions=cam.regions()))
    events = []
    for n, code in enumerate(["Qd", "7c", "Ab"]):
        cam.place_card(code, 2)
        for k in range(3):
            t = (3 * n + k) / 25
            events += source.feed(cam.frame(t), t)
    seen = [(e.code, e.region) for e in events]
    assert ("Ab", "position-2") in seen  # the top card is always named
    assert len(seen) == len(set(seen))
    assert {c for c, _ in seen} <= {"Qd", "7c", "Ab"}
    assert all(r == "position-2" for _, r in seen)
