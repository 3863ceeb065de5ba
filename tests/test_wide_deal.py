"""The wide scenes dealt card by card (wide_scenes.wide_deal), their scoring on the live path
(wide_scoring.LiveScorer), and the live path itself on one tune deal (the held-out deals are for
tests/bench/bench_wide_live.py's report)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from devices.camera.tracking import moved, thumbnail
from devices.camera.voting import CardSeen
from devices.camera.wide_scenes import WideFrame, WideTruth, deal_order, wide_deal, wide_scene
from devices.camera.wide_scoring import LiveScorer
from tests.bench.bench_wide_live import FRAME_S, HELD_OUT_DEAL_BASE, source
from tests.wide_cards import blanks_weights

SEED = 12  # tune: French 52, two places, two overlapping cards each, no random hand


def test_cards_are_dealt_round_the_table_the_dealer_last_and_each_place_in_order() -> None:
    # cards 0-1 at the dealer's place, 2-3 at place 1, 4 at place 2
    assert deal_order([0, 0, 1, 1, 2]) == [2, 4, 0, 3, 1]
    assert deal_order([0]) == [0]


def test_a_deal_ends_on_its_still_scene_and_its_frames_are_those_a_still_camera_takes() -> None:
    scene = wide_scene(SEED, "french", "french52")
    assert "hand" not in scene.notes and len(scene.truth) == 4
    deal = wide_deal(SEED, "french", "french52", opening=1, hand_frames=1, still_frames=2)
    assert deal.camera == scene.camera
    assert deal.order == [2, 0, 3, 1]
    frames = list(deal.frames)
    assert len(frames) == 1 + 4 * (1 + 2)
    assert [f.dealt for f in frames] == [0] + [d for d in range(1, 5) for _ in range(3)]
    assert [f.hand for f in frames] == [False] + [True, False, False] * 4
    assert frames[0].truth == [] and frames[4].cards == (0, 2)
    last = frames[-1]
    assert last.cards == (0, 1, 2, 3)
    for got, want in zip(last.truth, scene.truth, strict=True):
        assert (got.code, got.counts, got.visible) == (want.code, want.counts, want.visible)
        assert np.array_equal(got.quad, want.quad)
    # the same table each still frame, with its own noise: the tracker sees no movement
    a, b = frames[-2].frame, frames[-1].frame
    assert not np.array_equal(a, b)
    assert not moved(thumbnail(b), thumbnail(a), 12.0)
    # the dealer's hand over the card being laid: movement, and less of that card shows
    hand, still = frames[-3], frames[-2]
    assert moved(thumbnail(hand.frame), thumbnail(frames[-4].frame), 12.0)
    newest = last.cards.index(deal.order[-1])
    assert hand.truth[newest].visible < still.truth[newest].visible


def _truth(code: str, x: float, counts: bool = True, up: bool = True) -> WideTruth:
    quad = np.array([[x, 100], [x + 60, 100], [x + 60, 190], [x, 190]], np.float32)
    return WideTruth(code, up, quad, 1.0 if counts else 0.3, 1.0, counts)


def _frame(truth: list[WideTruth], cards: tuple[int, ...], hand: bool = False) -> WideFrame:
    return WideFrame(np.zeros((1, 1, 3), np.uint8), truth, cards, len(cards), hand)


def _seen(code: str, x: float) -> CardSeen:
    return CardSeen(code, None, (x, 140.0), 0.9, 0.0)


def test_the_live_path_is_scored_on_what_the_table_is_told() -> None:
    s = LiveScorer()
    one = [_truth("5c", 100)]
    s.frame(_frame([], ()), [])
    s.frame(_frame(one, (0,), hand=True), [])  # laid under the hand: not yet expected
    s.frame(_frame(one, (0,)), [_seen("5c", 130)])  # right, one frame after it showed
    two = [_truth("5c", 100), _truth("Kd", 300, counts=False)]
    s.frame(_frame(two, (0, 1)), [_seen("5c", 130),  # again: the table would take a second 5c
                                  _seen("Kd", 330),  # shows too little to count: not false
                                  _seen("7s", 330),  # a wrong name: false
                                  _seen("5c", 600)])  # over the felt: false
    three = [*two, _truth("2b", 500)]
    s.frame(_frame(three, (0, 1, 2)), [])  # the 2b counted and was never reported: missed
    t = s.done()
    assert (t.expected, t.right, t.false, t.repeated) == (2, 1, 2, 1)
    assert t.frames_to_report == [1]
    assert t.false_examples == ["frame 3: 7s@330,140", "frame 3: 5c@600,140"]
    assert t.missed_examples == ["2b (100% showing)"]
    # a card that counted only under the dealer's hand, covered once the table is still
    s = LiveScorer()
    s.frame(_frame([_truth("9d", 100)], (0,), hand=True), [])
    s.frame(_frame([_truth("9d", 100, counts=False)], (0,)), [])
    assert s.done().expected == 0


def test_the_live_path_names_a_tune_deal_and_skips_the_frames_where_nothing_moved() -> None:
    deal = wide_deal(SEED, "french", "french52", still_frames=6)
    tracked = source("french", "french52", deal.camera, calibrated=True, tracked=True)
    scorer = LiveScorer()
    frames = 0
    for n, frame in enumerate(deal.frames):
        scorer.frame(frame, tracked.feed(frame.frame, n * FRAME_S))
        frames += 1
    t = scorer.done()
    assert (t.expected, t.right, t.false) == (4, 4, 0)
    assert max(t.frames_to_report) <= 5
    assert tracked.tracker is not None and tracked.tracker.reused >= frames // 4
    # each card laid: the hand's first frame and the first still one differ from the frame
    # before (a picture in motion), so they are not looked at
    assert tracked.tracker.waited == 2 * 4
    assert tracked.tracker.recognised + tracked.tracker.reused + tracked.tracker.waited == frames


def test_a_change_no_new_card_explains_is_looked_at_before_frames_are_skipped() -> None:
    """Spent held-out deal piacentine 9,100,401 (missed in its report, 2026-11-27, looked at
    after it): a king of cups laid whole over a 6 of swords, hiding it, is named in only
    some still frames (sensor noise). The three recognitions after it was laid agreed on the
    cards without it (the 6 gone, nothing new): settled so, the tracker skipped the rest of
    the deal, and the king was never reported. A change since the cards last settled that
    brings no new card (StillTracker.explained) is looked at every frame, `refresh` more:
    the king reported; and without the last frame's cards as hints too (they only steady
    it), so each part is tested on its own. (Without the recogniser's `learned_on_fit`,
    `alone_unranked` and `rescue`, which name the king in a frame the tracker looks at
    anyway.)"""
    assert 9_100_401 >= HELD_OUT_DEAL_BASE  # a spent held-out deal
    told: dict[tuple[bool, bool], set[str]] = {}
    for explained, hinted in ((True, True), (True, False), (False, True)):
        deal = wide_deal(9_100_401, "piacentine", "italian40")
        path = source("piacentine", "italian40", deal.camera, calibrated=True, tracked=True,
                      hinted=hinted, explained=explained)
        # (with the weights this was made with: the newer ones name the king without it)
        path.recognizer = replace(path.recognizer, classifier=blanks_weights("piacentine"),
                                  options=replace(path.recognizer.options,
                                                  learned_on_fit=False, alone_unranked=False,
                                                  rescue=False))
        told[explained, hinted] = {seen.code for n, frame in enumerate(deal.frames)
                                   for seen in path.feed(frame.frame, n * FRAME_S)}
    assert "Kc" in told[True, True] and "Kc" in told[True, False]
    assert "Kc" not in told[False, True]
    assert told[True, True] - {"Kc"} == told[False, True]  # the other cards as before
