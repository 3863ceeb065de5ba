"""The studio's kind of table camera (devices/camera/camera_family.py): its pinhole model, the
calibration fitted to card corners under its prior, the framings tried without a card."""

from __future__ import annotations

import math

import numpy as np
import pytest

from devices.camera.camera_family import (
    FAMILY_SPANS,
    camera_homography,
    card_rectangle,
    corner_error,
    family_poses,
    fit_camera,
)
from devices.camera.layout import CameraPose
from devices.camera.self_calibration import pose_from_card
from devices.camera.wide_scenes import pinhole_homography

ASPECT = 1.55


def _project(hom: np.ndarray, points: np.ndarray) -> np.ndarray:
    p = np.column_stack([points, np.ones(len(points))]) @ hom.T
    return p[:, :2] / p[:, 2:3]


def _card(x: float, y: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return card_rectangle(ASPECT) @ np.array([[c, s], [-s, c]]) + (x, y)


def _size_error(true: np.ndarray, guessed: np.ndarray, card: np.ndarray) -> float:
    """How far off its size a card lying at `card` is on the guessed table (worst side)."""
    back = _project(np.linalg.inv(guessed), _project(true, card))
    w = np.linalg.norm(back[1] - back[0]) / np.linalg.norm(card[1] - card[0])
    h = np.linalg.norm(back[3] - back[0]) / np.linalg.norm(card[3] - card[0])
    return float(max(abs(w - 1), abs(h - 1)))


def test_the_family_camera_is_the_wide_scenes_pinhole() -> None:
    hom = camera_homography(31.0, 2.5, 50.0, 1260.0)
    distance = 1260.0 / 2 / math.tan(math.radians(25.0))
    ref = pinhole_homography(31.0, 0.0, 2.5, 50.0, (700.0, 400.0), distance)
    assert np.allclose(hom, ref / ref[2, 2], atol=1e-9)


def test_the_framings_differ_in_scale_only() -> None:
    """Why one view of the middle framing ranks them all: a card seen by another framing is,
    in the middle one's view, the card scaled by the ratio of the spans."""
    poses = family_poses()
    mid = len(poses) // 2
    card = _card(600.0, 380.0, 0.4)
    for pose, span in zip(poses, FAMILY_SPANS, strict=True):
        back = _project(np.linalg.inv(poses[mid].homography), _project(pose.homography, card))
        width = np.linalg.norm(back[1] - back[0]) / np.linalg.norm(card[1] - card[0])
        assert width == pytest.approx(FAMILY_SPANS[mid] / span, rel=1e-6)


def test_cards_with_noisy_corners_give_back_the_table_plane() -> None:
    """Three cards, corners 1 pixel off (a card elsewhere keeps its size within 2.5%)."""
    true = camera_homography(31.0, 2.5, 50.0, 1260.0)
    cards = [_card(500, 300, 0.3), _card(800, 450, -0.2), _card(650, 600, 1.2)]
    far = _card(1000, 200, 0.5)
    rng = np.random.default_rng(5)
    for _ in range(5):
        noisy = [_project(true, c) + rng.normal(0, 1.0, (4, 2)) for c in cards]
        fitted = fit_camera(noisy, card_rectangle(ASPECT))
        assert fitted is not None
        assert _size_error(true, fitted, far) < 0.025


def test_one_card_fitted_as_a_family_camera_beats_its_corners_alone() -> None:
    """One card's four corners, 1 pixel off, fix a plane that makes a card elsewhere ~5% off
    its size; the family camera fitted to them keeps it within ~2% (mean over draws)."""
    true = camera_homography(26.0, -1.5, 56.0, 1420.0)
    card, far = _card(560, 330, 0.2), _card(1050, 560, -0.6)
    rng = np.random.default_rng(11)
    alone, family = [], []
    for _ in range(8):
        noisy = _project(true, card) + rng.normal(0, 1.0, (4, 2))
        pose = pose_from_card(noisy, ASPECT)
        fitted = fit_camera([noisy], card_rectangle(ASPECT))
        assert pose is not None and fitted is not None
        alone.append(_size_error(true, pose.homography, far))
        family.append(_size_error(true, fitted, far))
    assert np.mean(family) < 0.025
    assert np.mean(family) < 0.5 * np.mean(alone)


def test_a_camera_of_another_kind_shows_in_the_corner_error() -> None:
    """render.py's table camera (a keystone homography no centred pinhole makes): the family
    camera fitted to three of its cards leaves them pixels off; a family camera's, not."""
    shape = card_rectangle(ASPECT)
    cards = [_card(450, 300, 0.3), _card(800, 450, -0.2), _card(1000, 600, 1.2)]
    for hom, limit in ((CameraPose().homography, None),
                       (camera_homography(24.0, 1.0, 58.0, 1380.0), 1.0)):
        quads = [_project(hom, c) for c in cards]
        fitted = fit_camera(quads, shape)
        assert fitted is not None
        if limit is None:
            assert corner_error(fitted, quads, shape) > 3.0
        else:
            assert corner_error(fitted, quads, shape) < limit
