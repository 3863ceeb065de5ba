"""The shoe/camera cross-check as pure logic, on a manual clock."""

import pytest

from studio.clock import ManualClock
from studio.table.cross_check import (
    AGREED_SOURCE,
    CrossCheck,
    Deal,
    Dispute,
    Dropped,
    Held,
    Ignored,
)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(start=100.0)


@pytest.fixture
def cc(clock: ManualClock) -> CrossCheck:
    return CrossCheck(window_s=2.0, clock=clock)


def deals(outcomes) -> list[str]:
    return [o.card for o in outcomes if isinstance(o, Deal)]


def test_agreement_deals_one_card_with_both_readings(cc, clock):
    assert cc.shoe("Kd", "D1", ref=1) == []
    assert cc.deadline() == 102.0
    clock.advance(0.4)
    [out] = cc.camera("Kd", region="position-1", confidence=0.93)
    assert isinstance(out, Deal) and out.card == "Kd" and out.source == AGREED_SOURCE
    assert out.shoe.ref == 1 and out.camera.region == "position-1"
    assert cc.deadline() is None and cc.disputed is None


def test_the_camera_first_also_agrees(cc, clock):
    assert cc.camera("7c") == []
    clock.advance(0.5)
    assert deals(cc.shoe("7c", "D1")) == ["7c"]


def test_cards_are_released_in_shoe_order_even_if_the_camera_sees_them_out_of_order(cc):
    cc.shoe("Ad", "D1")
    cc.shoe("2d", "D1")
    assert cc.camera("2d") == []  # 2d agreed, but Ad is still waiting: nothing jumps the queue
    assert deals(cc.camera("Ad")) == ["Ad", "2d"]


def test_a_face_down_card_passes_on_the_shoe_alone(cc):
    [out] = cc.shoe("Qs", "D1", face_down=True)
    assert isinstance(out, Deal) and out.source == "shoe" and out.camera is None


def test_disagreement_is_a_dispute_at_once_with_both_readings(cc, clock):
    cc.shoe("Kd", "D1", ref=5)
    clock.advance(0.3)
    [d] = cc.camera("Kc", confidence=0.6)
    assert isinstance(d, Dispute) and d.code == "cross_check.mismatch"
    assert d.shoe.card == "Kd" and d.camera.card == "Kc"
    assert d.readings()["shoe"]["card"] == "Kd" and d.readings()["camera"]["confidence"] == 0.6
    assert "Kd" in d.message() and "Kc" in d.message()
    assert cc.disputed is d and cc.deadline() is None
    assert cc.expire() == []  # no second dispute on top of the first


def test_a_shoe_card_the_camera_does_not_see_within_the_window(cc, clock):
    cc.shoe("5b", "D1")
    clock.advance(1.999)
    assert cc.expire() == []
    clock.advance(0.001)
    [d] = cc.expire()
    assert d.code == "cross_check.shoe_only" and d.shoe.card == "5b" and d.camera is None


def test_a_camera_card_the_shoe_never_reported(cc, clock):
    cc.camera("6s")
    clock.advance(2.0)
    [d] = cc.expire()
    assert d.code == "cross_check.camera_only" and d.camera.card == "6s" and d.shoe is None


def test_a_camera_card_when_the_shoe_waits_for_another_is_a_mismatch(cc):
    cc.camera("6s")  # no shoe card explains it yet...
    [d] = cc.shoe("4c", "D1")  # ...and the shoe's next card is another one
    assert d.code == "cross_check.mismatch" and (d.shoe.card, d.camera.card) == ("4c", "6s")


def test_nothing_is_dealt_during_a_dispute_and_held_readings_resume_in_order(cc, clock):
    cc.shoe("Kd", "D1")
    cc.camera("Kc")  # dispute
    [h1] = cc.shoe("3d", "D1", ref=9)
    [h2] = cc.camera("3d")
    assert isinstance(h1, Held) and isinstance(h2, Held)
    cc.dealt("Kd")  # the dealer confirmed the shoe's reading by hand
    clock.advance(5.0)
    out = cc.resume()
    assert deals(out) == ["3d"] and out[0].shoe.ref == 9
    assert cc.disputed is None


def test_a_held_shoe_card_the_dealer_keyed_meanwhile_is_dropped(cc):
    cc.shoe("Kd", "D1")
    cc.camera("Kc")
    cc.shoe("3d", "D1")
    cc.dealt("Kd")
    cc.dealt("3d")
    [out] = cc.resume()
    assert isinstance(out, Dropped) and out.reading.card == "3d"


def test_the_camera_seeing_a_dealt_card_again_is_ignored(cc):
    cc.shoe("Ad", "D1")
    cc.camera("Ad")
    [again] = cc.camera("Ad")
    assert isinstance(again, Ignored)
    assert cc.deadline() is None


def test_a_held_reading_can_open_a_new_dispute_on_resume(cc):
    cc.shoe("Kd", "D1")
    cc.camera("Kc")
    cc.shoe("3d", "D1")
    cc.camera("4d")
    cc.shoe("5d", "D1")
    cc.dealt("Kd")
    out = cc.resume()
    [d] = [o for o in out if isinstance(o, Dispute)]
    assert (d.shoe.card, d.camera.card) == ("3d", "4d")
    assert [r.card for r in cc.waiting()] == ["5d"]  # still held for the next resume


def test_a_new_round_forgets_everything(cc, clock):
    cc.shoe("Kd", "D1")
    cc.camera("2s")  # a dispute
    cc.shoe("3s", "D1")  # held
    left = cc.new_round()
    assert [r.card for r in left] == ["3s"]
    assert cc.disputed is None and cc.deadline() is None and cc.waiting() == []
    assert deals(cc.shoe("Kd", "D1") + cc.camera("Kd")) == ["Kd"]  # no memory of the old round


def test_the_window_must_be_positive(clock):
    with pytest.raises(ValueError, match="cross_check.bad_window"):
        CrossCheck(window_s=0, clock=clock)
