"""The shoe/camera cross-check on a shoe of several decks (Punto e Banco, Blackjack: eight):
the same card may come up twice in a round, and each copy must be seen by both sources."""

import pytest

from studio.clock import ManualClock
from studio.table.cross_check import AGREED_SOURCE, CrossCheck, Deal, Dispute, Dropped, Ignored
from studio.table.seam import Target


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=100.0)


def deals(outcomes) -> list[tuple[str, str]]:
    return [(o.card, o.source) for o in outcomes if isinstance(o, Deal)]


def test_a_second_copy_of_a_card_is_dealt_when_the_camera_sees_it_too(clock):
    cc = CrossCheck(window_s=2.0, clock=clock, copies=8)
    cc.shoe("7h", "S1", ref=1)
    assert deals(cc.camera("7h")) == [("7h", AGREED_SOURCE)]
    cc.dealt("7h")  # the table reports the card it dealt
    clock.advance(1.0)
    cc.shoe("7h", "S1", ref=2)  # another copy from the eight-deck shoe
    assert deals(cc.camera("7h")) == [("7h", AGREED_SOURCE)]
    cc.dealt("7h")
    # the voter sees the first copy again (a hand passed over it): a repeat, nothing waits
    [again] = cc.camera("7h")
    assert isinstance(again, Ignored)
    assert cc.deadline() is None and cc.disputed is None


def test_with_one_deck_a_repeated_card_is_not_vouched_for_by_the_camera(clock):
    cc = CrossCheck(window_s=2.0, clock=clock)
    cc.shoe("7h", "S1", ref=1)
    assert deals(cc.camera("7h")) == [("7h", AGREED_SOURCE)]
    cc.dealt("7h")
    cc.shoe("7h", "S1", ref=2)  # a single deck cannot hold it twice: the shoe misread
    assert isinstance(cc.camera("7h")[0], Ignored)
    clock.advance(2.0)
    [dispute] = cc.expire()
    assert isinstance(dispute, Dispute) and dispute.code == "cross_check.shoe_only"


def test_a_held_copy_is_dropped_only_if_the_dealer_keyed_in_that_copy(clock):
    cc = CrossCheck(window_s=2.0, clock=clock, copies=8)
    cc.shoe("Kd", "S1", ref=1)
    cc.camera("Kd")
    cc.dealt("Kd")
    cc.shoe("4c", "S1", ref=2)
    [dispute] = cc.camera("4s")  # a misreading: paused
    assert isinstance(dispute, Dispute) and dispute.code == "cross_check.mismatch"
    cc.shoe("Kd", "S1", ref=3)  # the next card, another Kd, is held meanwhile
    cc.dealt("4c")  # the dealer confirms the shoe's 4c by hand
    out = cc.resume()
    assert not any(isinstance(o, Dropped) for o in out)  # the second Kd is still owed
    assert deals(cc.camera("Kd")) == [("Kd", AGREED_SOURCE)]
    # a copy the dealer keyed in while it was held is dropped, never dealt twice
    cc.shoe("Qs", "S1", ref=4)
    cc.camera("Qh")
    cc.shoe("Kd", "S1", ref=5)
    cc.dealt("Qs")
    cc.dealt("Kd")
    assert [type(o).__name__ for o in cc.resume()] == ["Dropped"]


def test_the_hole_card_passes_on_the_shoes_word_and_is_a_repeat_once_turned_over(clock):
    assert Target("dealer", note="hole card, face down").face_down
    assert Target("burn").face_down and not Target("dealer").face_down
    cc = CrossCheck(window_s=2.0, clock=clock, copies=8)
    assert deals(cc.shoe("9s", "S1", face_down=True, ref=1)) == [("9s", "shoe")]
    cc.dealt("9s")
    clock.advance(5.0)
    assert isinstance(cc.camera("9s")[0], Ignored)  # turned over at the end of the round
    assert cc.expire() == [] and cc.disputed is None


def test_copies_must_be_positive(clock):
    with pytest.raises(ValueError, match="cross_check.bad_copies"):
        CrossCheck(window_s=2.0, clock=clock, copies=0)
