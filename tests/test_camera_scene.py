"""The simulated table camera: deterministic frames, the scene the table drives, cheap frames."""

from __future__ import annotations

import numpy as np
import pytest

from devices.camera.render import Renderer
from devices.camera.scenes import random_scene
from devices.camera.sim_camera import SceneError, SimCamera


def test_random_scene_is_deterministic_per_seed() -> None:
    renderer = Renderer()
    a, truth_a = renderer.render(random_scene(11, "french"), 11)
    b, truth_b = renderer.render(random_scene(11, "french"), 11)
    c, _ = renderer.render(random_scene(12, "french"), 12)
    assert a.shape == (720, 1280, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert [t.code for t in truth_a] == [t.code for t in truth_b]
    assert not np.array_equal(a, c)


def test_scene_truth_marks_covered_and_face_down_cards() -> None:
    renderer = Renderer()
    seen_back = seen_covered = seen_full = False
    for seed in range(20):
        _, truth = renderer.render(random_scene(seed, "napoletane"), seed)
        codes = [t.code for t in truth]
        assert len(codes) == len(set(codes)), "a card is drawn at most once"
        seen_back |= any(not t.face_up for t in truth)
        seen_covered |= any(t.visible < 0.9 for t in truth)
        seen_full |= any(t.visible > 0.999 for t in truth)
    assert seen_back and seen_covered and seen_full


def test_sim_camera_places_and_removes_cards() -> None:
    cam = SimCamera("piacentine", seed=5)
    empty = cam.frame(0.0)
    cam.place_card("Kd", 1)
    cam.place_card("7c", "dealer")
    cam.place_card("3b", 2, face_up=False)
    assert [(c.code, c.area, c.face_up) for c in cam.cards] == [
        ("Kd", "position-1", True), ("7c", "dealer", True), ("3b", "position-2", False)]
    with_cards = cam.frame(0.0)
    assert not np.array_equal(empty, with_cards)
    truth = {t.code: t for t in cam.truth()}
    assert truth["Kd"].area == "position-1" and truth["7c"].area == "dealer"
    assert truth["3b"].face_up is False
    assert cam.remove_cards(2) == 1
    assert cam.remove_cards() == 2
    assert cam.cards == []
    assert np.array_equal(cam.frame(0.0), empty)


def test_sim_camera_frames_are_deterministic_and_vary_with_time() -> None:
    a, b = SimCamera(seed=9), SimCamera(seed=9)
    for cam in (a, b):
        cam.place_card("As", 3)
    assert np.array_equal(a.frame(1.0), b.frame(1.0))
    assert not np.array_equal(a.frame(1.0), a.frame(1.04))  # noise and flicker per frame


def test_sim_camera_rejects_bad_requests_with_codes() -> None:
    cam = SimCamera(positions=3)
    cam.place_card("Kd", 1)
    with pytest.raises(SceneError) as dup:
        cam.place_card("Kd", 2)
    assert dup.value.code == "camera.card_on_table"
    with pytest.raises(SceneError) as area:
        cam.place_card("7c", 4)
    assert area.value.code == "camera.unknown_area"
    with pytest.raises(SceneError) as missing:
        cam.turn_up("2s")
    assert missing.value.code == "camera.card_not_on_table"
    assert [c.code for c in cam.cards] == ["Kd"]  # nothing half-applied


def test_sim_camera_regions_cover_the_cards_laid_there() -> None:
    cam = SimCamera(positions=5)
    assert set(cam.regions()) == {"dealer", *(f"position-{i}" for i in range(1, 6))}
    cam.place_card("5d", 4)
    assert cam.truth()[0].area == "position-4"
