"""Tracking across frames (devices/camera/tracking.py): a still felt is recognised again only
every `refresh` frames, and only after `settle` recognitions agreed; any card laid, taken or
covered is recognised at once; the light's flicker and the sensor's noise are not movement."""

from __future__ import annotations

import numpy as np

from devices.camera.recognizer import Detection
from devices.camera.sim_camera import SimCamera
from devices.camera.tracking import StillTracker, moved, same_cards, thumbnail
from devices.camera.voting import CameraCardSource

FRAME_S = 0.2


class Counting:
    """The real recogniser, counted."""

    def __init__(self, source: CameraCardSource) -> None:
        self.recognizer = source.recognizer
        self.calls = 0

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        self.calls += 1
        return self.recognizer.recognize(frame)


def _source(cam: SimCamera) -> CameraCardSource:
    return CameraCardSource.calibrated(cam.art, cam.camera, 3)


def test_a_still_felt_reuses_the_detections_after_they_settled_and_refreshes() -> None:
    cam = SimCamera("napoletane", positions=3, seed=4)
    cam.place_card("5c", 1)
    tracker = StillTracker(settle=3, refresh=4)
    recognise = Counting(_source(cam))
    names = [[d.code for d in tracker.detections(cam.frame(i * FRAME_S), recognise)]
             for i in range(12)]
    assert all(n == ["5c"] for n in names)  # every frame has the card, recognised or kept
    # 3 to settle, then 4 reused, 1 refresh, 4 reused: 4 recognitions in 12 frames
    assert recognise.calls == 4 and tracker.reused == 8


def test_a_card_laid_or_a_hand_over_the_felt_is_recognised_once_the_picture_is_still() -> None:
    cam = SimCamera("napoletane", positions=3, seed=5)
    cam.place_card("3s", 2)
    tracker = StillTracker(settle=2, refresh=100)
    recognise = Counting(_source(cam))
    for i in range(6):
        tracker.detections(cam.frame(i * FRAME_S), recognise)
    assert recognise.calls == 2  # settled: the still frames cost no recognition
    cam.place_card("7d", "dealer")
    # the frame the card arrives in differs from the one before: a picture in motion
    assert tracker.detections(cam.frame(6 * FRAME_S), recognise) is None
    assert recognise.calls == 2 and tracker.waited == 1
    found = tracker.detections(cam.frame(7 * FRAME_S), recognise)  # still again: looked at
    assert found is not None and recognise.calls == 3
    assert sorted(d.code for d in found) == ["3s", "7d"]
    tracker.detections(cam.frame(8 * FRAME_S), recognise)
    tracker.detections(cam.frame(9 * FRAME_S), recognise)
    calls = recognise.calls
    cam.set_hand(2)  # the dealer's hand over position 2, held there
    assert tracker.detections(cam.frame(10 * FRAME_S), recognise) is None
    tracker.detections(cam.frame(11 * FRAME_S), recognise)
    assert recognise.calls == calls + 1


def test_a_change_no_new_card_explains_is_looked_at_refresh_frames_more_then_skipped() -> None:
    """A card taken away: the picture changed since the cards settled and no card is named
    that was not there before (StillTracker.explained). Each frame is recognised, `refresh`
    more after the cards settle again, then frames are skipped as before; a card laid (a new
    card named) costs nothing more."""
    cam = SimCamera("napoletane", positions=3, seed=4)
    cam.place_card("5c", 1)
    cam.place_card("2s", 2)
    tracker = StillTracker(settle=2, refresh=4)
    recognise = Counting(_source(cam))
    for i in range(4):
        tracker.detections(cam.frame(i * FRAME_S), recognise)
    assert recognise.calls == 2  # settled on the two cards, then skipped
    cam.remove_cards(2)
    assert tracker.detections(cam.frame(4 * FRAME_S), recognise) is None  # in motion
    calls = recognise.calls
    names = [[d.code for d in tracker.detections(cam.frame(i * FRAME_S), recognise)]
             for i in range(5, 13)]
    assert all(n == ["5c"] for n in names)
    # settled again after 2; then 4 more looked at, then skipped
    assert recognise.calls == calls + 2 + 4
    cam.place_card("7d", 3)
    assert tracker.detections(cam.frame(13 * FRAME_S), recognise) is None
    calls = recognise.calls
    for i in range(14, 20):
        tracker.detections(cam.frame(i * FRAME_S), recognise)
    assert recognise.calls == calls + 2  # the 7 named: settled, skipped at once


def test_a_picture_that_never_stops_moving_is_still_looked_at_every_wait_plus_one_frames(
) -> None:
    cam = SimCamera("napoletane", positions=3, seed=8)
    cam.place_card("6d", 1)
    tracker = StillTracker(settle=2, refresh=100, wait=3)
    recognise = Counting(_source(cam))
    tracker.detections(cam.frame(0.0), recognise)
    looked = []
    for i in range(1, 9):  # the hand moves every frame, from place to place
        cam.set_hand([2, 3, "dealer"][i % 3])
        looked.append(tracker.detections(cam.frame(i * FRAME_S), recognise) is not None)
    assert looked == [False, False, False, True] * 2
    assert recognise.calls == 3 and tracker.waited == 6


def test_the_voter_is_told_nothing_of_a_picture_in_motion() -> None:
    cam = SimCamera("napoletane", positions=3, seed=9)
    cam.place_card("2c", 1)
    source = _source(cam)
    for i in range(4):
        source.feed(cam.frame(i * FRAME_S), i * FRAME_S)
    votes = [p["votes"] for p in source.voter.places()]
    cam.set_hand(1)
    assert source.feed(cam.frame(4 * FRAME_S), 4 * FRAME_S) == []
    assert [p["votes"] for p in source.voter.places()] == votes


def test_flicker_and_noise_are_not_movement_but_a_small_card_corner_is() -> None:
    cam = SimCamera("napoletane", positions=3, seed=6)
    cam.place_card("2b", 1)
    then = thumbnail(cam.frame(0.0))
    assert not any(moved(thumbnail(cam.frame(i * 0.37)), then, 12.0) for i in range(1, 20))
    brighter = np.clip(cam.frame(0.0).astype(np.float32) * 1.05, 0, 255).astype(np.uint8)
    assert not moved(thumbnail(brighter), then, 12.0)  # an exposure step, all over
    cornered = cam.frame(0.0)
    cornered[100:140, 600:632] = 255  # a 40x32 white patch on the felt: two blocks
    assert moved(thumbnail(cornered), then, 12.0)


def test_detections_agree_only_for_the_same_cards_at_the_same_places() -> None:
    def det(code: str, x: float, y: float) -> Detection:
        quad = np.array([[x - 5, y - 5], [x + 5, y - 5], [x + 5, y + 5], [x - 5, y + 5]],
                        np.float32)
        return Detection(code, quad, 0.9, 0.2, 0.1)

    a = [det("5c", 100, 100), det("5c", 300, 100)]  # two copies (an eight-deck shoe)
    assert same_cards(a, [det("5c", 305, 98), det("5c", 96, 103)])
    assert not same_cards(a, [det("5c", 100, 100), det("5c", 340, 100)])
    assert not same_cards(a, [det("5c", 100, 100)])
    assert not same_cards([det("5c", 100, 100)], [det("6c", 100, 100)])


def test_clearing_the_felt_forgets_the_last_frame() -> None:
    cam = SimCamera("napoletane", positions=3, seed=7)
    cam.place_card("4d", 3)
    source = _source(cam)
    recognise = Counting(source)
    assert source.tracker is not None
    tracker = source.tracker
    for i in range(5):
        tracker.detections(cam.frame(i * FRAME_S), recognise)
    calls = recognise.calls
    source.clear()
    tracker.detections(cam.frame(5 * FRAME_S), recognise)
    assert recognise.calls == calls + 1


def test_the_last_recognitions_cards_are_proposed_to_the_next_until_the_felt_is_cleared(
        ) -> None:
    """CameraCardSource hands the recogniser the quads it named last (Recognizer.recognize's
    hints), each recognition its own: the real recogniser, its calls recorded."""
    cam = SimCamera("napoletane", positions=3, seed=4)
    cam.place_card("5c", 1)
    source = CameraCardSource.calibrated(cam.art, cam.camera, 3, tracked=False)
    recognize = source.recognizer.recognize
    calls: list[tuple[list[np.ndarray], list[Detection]]] = []

    def recorded(frame: np.ndarray, camera: object = None, hints: list = ()) -> list[Detection]:
        found = recognize(frame, hints=hints)
        calls.append((list(hints), found))
        return found

    source.recognizer.recognize = recorded  # type: ignore[method-assign]
    for i in range(3):
        source.feed(cam.frame(i * FRAME_S), i * FRAME_S)
    assert calls[0][0] == [] and [d.code for d in calls[0][1]] == ["5c"]
    for (hints, _), (_, before) in zip(calls[1:], calls, strict=False):
        assert len(hints) == 1 and np.array_equal(hints[0], before[0].quad)
    source.clear()
    source.feed(cam.frame(3 * FRAME_S), 3 * FRAME_S)
    assert calls[-1][0] == []  # a new round: nothing proposed from the last
    source.hinted = False
    source.feed(cam.frame(4 * FRAME_S), 4 * FRAME_S)
    assert calls[-1][0] == []
