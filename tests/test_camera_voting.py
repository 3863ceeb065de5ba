"""Voting across frames before a card is reported to the table."""

from __future__ import annotations

import numpy as np
import pytest

from devices.camera.recognizer import Detection, Recognizer
from devices.camera.sim_camera import SimCamera
from devices.camera.voting import CameraCardSource, CardVoter


def det(code: str, x: float = 100.0, y: float = 100.0) -> Detection:
    quad = np.array([[x - 40, y - 60], [x + 40, y - 60], [x + 40, y + 60], [x - 40, y + 60]],
                    np.float32)
    return Detection(code, quad, 0.9, 0.4, 0.3)


def test_a_card_is_reported_after_n_of_m_frames_and_only_once() -> None:
    voter = CardVoter(need=3, window=5)
    assert voter.update([det("Kd")], 0.00) == []
    assert voter.update([], 0.04) == []
    assert voter.update([det("Kd", 103, 98)], 0.08) == []
    seen = voter.update([det("Kd", 101, 101)], 0.12)
    assert [(s.code, s.frame_time) for s in seen] == [("Kd", 0.12)]
    assert voter.update([det("Kd")], 0.16) == []  # already reported


def test_disagreeing_frames_report_nothing() -> None:
    voter = CardVoter(need=3, window=5)
    for i in range(10):
        assert voter.update([det("6s" if i % 2 else "6b")], i / 25) == []


def test_separate_places_vote_separately() -> None:
    voter = CardVoter(need=2, window=3)
    voter.update([det("2c", 100, 100), det("3c", 400, 100)], 0.0)
    seen = voter.update([det("2c", 100, 100), det("3c", 400, 100)], 0.04)
    assert sorted(s.code for s in seen) == ["2c", "3c"]


def test_a_card_that_left_can_be_reported_again() -> None:
    voter = CardVoter(need=2, window=3, forget_after=3)
    voter.update([det("7d")], 0.0)
    assert [s.code for s in voter.update([det("7d")], 0.04)] == ["7d"]
    for i in range(3):
        voter.update([], 0.08 + i * 0.04)
    voter.update([det("7d")], 0.3)
    assert [s.code for s in voter.update([det("7d")], 0.34)] == ["7d"]


def test_the_same_card_laid_over_a_reported_one_is_reported_again() -> None:
    """A shoe of several decks: a second 6 of diamonds laid 21 px off the first (the hand over
    them in between) is another card, though it lies within the first's radius."""
    voter = CardVoter(need=2, window=3)
    voter.update([det("6d", 100, 100)], 0.0)
    assert [s.code for s in voter.update([det("6d", 101, 99)], 0.2)] == ["6d"]
    voter.update([], 0.4)  # the dealer's hand
    assert voter.update([det("6d", 119, 109)], 0.6) == []
    assert [(s.code, s.center) for s in voter.update([det("6d", 119, 109)], 0.8)] == \
        [("6d", (119, 109))]
    for i in range(6):  # the card lying there, its sightings a few pixels apart: once only
        assert voter.update([det("6d", 119 + 3 * (i % 3), 109 - i % 2)], 1.0 + i) == []


def test_bad_voting_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="camera.bad_voting"):
        CardVoter(need=4, window=3)


def test_live_camera_frames_to_card_seen_with_regions() -> None:
    cam = SimCamera("napoletane", seed=2)
    source = CameraCardSource(Recognizer("napoletane"),
                              CardVoter(need=3, window=4, regions=cam.regions()))
    cam.place_card("Kd", 1)
    cam.place_card("4s", 2, face_up=False)
    cam.add_chips(1)
    events = []
    for n in range(4):
        events += source.feed(cam.frame(n / 25), n / 25)
    assert [(e.code, e.region) for e in events] == [("Kd", "position-1")]
    assert events[0].frame_time == pytest.approx(2 / 25)  # the third agreeing frame
    cam.place_card("7c", "dealer")
    cam.set_hand(2)
    more = []
    for n in range(4, 8):
        more += source.feed(cam.frame(n / 25), n / 25)
    assert [(e.code, e.region) for e in more] == [("7c", "dealer")]
