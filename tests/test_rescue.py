"""The rescue pass (Options.rescue; on since the forty-ninth session, off before: it added
false cards on held-out scenes, two with its second verifier and one with its third, none
on ray held-out 9,006,750-9,008,749): hypotheses every rule refused, named at last when
the rescue verifier, trained on such hypotheses (training/rescue_crops.py), reads them surely
both ways up and rules out every other card. Tune seeds only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from devices.camera.card_classifier import OTHER, CardClassifier, card_verifier
from devices.camera.ray_scenes import ray_scene
from devices.camera.recognizer import Options, Recognizer, Thresholds
from devices.camera.scoring import inside
from devices.camera.templates import BACK
from devices.camera.training.rescue_crops import _Recording, rescue_crops, truth_label
from devices.camera.wide_scenes import WideTruth, wide_scene
from devices.camera.wide_scoring import score_wide
from tests.wide_cards import both_ways, named_right

DATA = Path(__file__).parent / "data"
RESCUE = Options(rescue=True)
NO_RESCUE = Options(rescue=False)


def _truth(code: str, quad: list[list[float]], visible: float = 0.6,
           face_up: bool = True) -> WideTruth:
    return WideTruth(code, face_up, np.float32(quad), visible, 0.0, True)


def test_rescue_crops_are_labelled_by_where_the_hypothesis_lies() -> None:
    """On a card that counts (within RIGHT_WITHIN of a width): its code, BACK face down; near
    a card that counts but not on it: left out; elsewhere (on no card, or on and near cards
    that all show under COUNTS, a stack of mostly covered cards): OTHER."""
    card = [[100, 100], [200, 100], [200, 250], [100, 250]]
    truth = [_truth("5c", card)]
    quad = np.float32(card)
    assert truth_label(quad + 3, truth) == "5c"
    assert truth_label(quad[[2, 3, 0, 1]], truth) == "5c"  # either way up
    assert truth_label(quad + 12, truth) is None  # 0.12 of a width off: between
    assert truth_label(quad + 60, truth) == OTHER
    assert truth_label(quad + 3, [_truth("5c", card, face_up=False)]) == BACK
    assert truth_label(quad + 3, [_truth("5c", card, visible=0.3)]) == OTHER
    assert truth_label(quad + 3, [_truth("5c", card, visible=0.4)]) == OTHER
    hidden = [_truth("5c", card, visible=0.3), _truth("7d", np.float32(card) + 12, visible=0.4)]
    assert truth_label(quad + 3, hidden) == OTHER  # every card near shows too little
    # on a card hardly showing, but near one that counts: left out
    assert truth_label(quad + 3, [hidden[0], _truth("7d", np.float32(card) + 12)]) is None


def test_rescue_crops_hold_cards_and_no_cards_of_the_hypotheses_judged() -> None:
    """What the last pass is given on a few tune scenes: both kinds, cut at the canonical
    size, mostly outlines on no card (what the verifier must learn to refuse)."""
    images, labels = rescue_crops("piacentine", "italian40", range(64_790, 64_800))
    assert images.shape[1:] == (60, 40, 3) and len(images) == len(labels)
    cards = [s for s in labels if s not in (OTHER, BACK)]
    assert cards and labels.count(OTHER) > len(cards)


def test_rescue_names_a_half_covered_card_every_rule_refused() -> None:
    """Tune piacentine 65,030: a 4 of swords 57% showing, read 0.98 both ways up by the
    classifier on its own outline, yet the partial judge fitted a king of batons best there
    and every rule refused it. The verifier reads it 0.99 and 0.98: named, and every card
    named lies where its card lies."""
    scene, on, off = both_ways("piacentine", 65_030, RESCUE, NO_RESCUE)
    assert named_right(scene, on, "4s") and not named_right(scene, off, "4s")
    assert all(any(t.code == d.code and inside(t, d.center) for t in scene.truth) for d in on)


def test_rescue_refuses_a_card_whose_look_alike_the_verifier_does_not_rule_out() -> None:
    """Tune piacentine 65,993: a 7 of batons 45% showing, its telling pip covered, read a 6
    by the session's first verifier (kept in tests/data) at 0.85 and 0.84, the 7 at 0.09
    and 0.11: not named (Thresholds.rescue_rival_prob); without that bar, a false 6 of
    batons. (The shipped verifier, trained on more such outlines, does not read it a 6 so
    surely either way. A 6 shows no print a 7 lacks: Thresholds.rescue_min_marks refuses it
    too, and is not asked here.)"""
    scene = wide_scene(65_993, "piacentine", "italian40")
    first = CardClassifier.load(DATA / "card_verifier_piacentine_2026-11-29a.npz")
    unmarked = replace(Thresholds(), rescue_min_marks=0)
    loose = replace(unmarked, rescue_rival_prob=1.0)
    for thresholds, verifier, named in ((loose, first, True), (unmarked, first, False),
                                        (loose, None, False)):
        rec = Recognizer("piacentine", "italian40", thresholds, options=RESCUE,
                         verifier=verifier)
        assert ("6b" in {d.code for d in rec.recognize(scene.frame, scene.camera)}) == named


def test_only_the_italian_decks_have_a_verifier_and_rescue() -> None:
    """French cards need a corner index to confirm a covered card; the rescue is where none
    can (Napoletane, Piacentine)."""
    assert card_verifier("napoletane") is not None and card_verifier("piacentine") is not None
    assert Recognizer("napoletane", "italian40", options=RESCUE)._rescuing()
    assert not Recognizer("french", "french52", options=RESCUE)._rescuing()
    assert Recognizer("napoletane", "italian40")._rescuing()  # on by default
    assert not Recognizer("napoletane", "italian40", options=NO_RESCUE)._rescuing()


def test_no_rescue_under_a_guessed_pose() -> None:
    """Under a guessed pose the verifier names no card alone, as the classifier does not
    (`alone_when_guessed`): issue 15's generated piacentine scene 58 had a false 3 of swords
    so."""
    scene = wide_scene(65_030, "piacentine", "italian40")
    rec = Recognizer("piacentine", "italian40", options=RESCUE)
    rec._under_guess(scene.frame, scene.camera)
    assert rec._rescuing() and rec._guessing is not None and not rec._guessing._rescuing()


def test_the_training_crops_are_the_crops_the_pass_reads() -> None:
    """The verifier's training crops (rescue_crops) are cut as the pass cuts them, blanked
    where the cards named lie: every crop the pass reads on tune scenes is among them."""

    class Reading(Recognizer):
        read: list[np.ndarray]

        def _rescue_crop(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            share, crop = super()._rescue_crop(*args, **kwargs)
            self.read.append(crop)
            return share, crop

    rec = Reading("piacentine", "italian40", options=RESCUE)
    recording = _Recording("piacentine", "italian40")
    blanked = 0
    for seed in range(64_790, 64_800):
        scene = wide_scene(seed, "piacentine", "italian40")
        rec.read, recording.seen = [], []
        rec.recognize(scene.frame, scene.camera)
        recording.recognize(scene.frame, scene.camera)
        for crop in rec.read:
            assert any(np.array_equal(crop, seen) for seen, _ in recording.seen)
            blanked += int((crop == 0).all(axis=-1).sum() > 20)
    assert blanked  # (so that a crop cut without the blanks would differ)


def test_rescue_names_no_card_twice() -> None:
    """Tune piacentine 86,575: the verifier reads an outline half a card's width from a 7 of
    diamonds named already as a 7 of diamonds, both ways up: not named again
    (Thresholds.rescue_same_apart), where without that bar the card is named twice."""
    scene = wide_scene(86_575, "piacentine", "italian40")
    found = {apart: Recognizer("piacentine", "italian40", options=RESCUE,
                               thresholds=Thresholds(rescue_same_apart=apart)).recognize(
                                   scene.frame, scene.camera)
             for apart in (Thresholds().rescue_same_apart, 0.0)}
    seven = next(t for t in scene.truth if t.code == "7d" and t.counts)
    assert score_wide(found[0.0], scene.truth).twice == 1
    tally = score_wide(found[Thresholds().rescue_same_apart], scene.truth)
    assert tally.twice == 0 and tally.false == 0
    assert [d for d in found[Thresholds().rescue_same_apart] if d.code == "7d"
            and inside(seven, d.center)]


def test_the_rescue_names_a_covered_card_of_the_other_renderer_by_default() -> None:
    """Ray-cast tune napoletane 711,250 (ray_scenes.py, a renderer the verifier was not
    trained on): a 7 of batons the verifier reads 0.96 both ways up, which every other rule
    refused. The default recogniser names it (Options.rescue is on), with no false card;
    without the rescue it is missed."""
    scene, by_default, without = both_ways("napoletane", 711_250, Options(), NO_RESCUE,
                                           source=ray_scene)
    assert named_right(scene, by_default, "7b") and not named_right(scene, without, "7b")
    assert score_wide(by_default, scene.truth).false == 0
