"""Options.whole_learned_veto: a card the whole-card judge names weakly is refused where the
classifier reads another card on its outline surely both ways up; the outline is then judged
on what shows, as any other. Spent held-out ray stills (looked at after their reports) and
ray tune stills."""

from __future__ import annotations

from devices.camera.ray_scenes import ray_scene
from devices.camera.recognizer import Candidate, Options, Recognizer, Thresholds
from devices.camera.wide_scoring import score_wide
from tests.wide_cards import both_ways, named_right


def test_a_look_alike_the_template_judge_names_on_a_card_seen_whole_is_refused() -> None:
    """Spent held-out ray piacentine 9,010,633: a 7 of swords seen whole, named a 6 of swords
    by the whole judge (score 0.757, the bar 0.75) without the veto; the classifier reads the
    7 at 0.99 both ways up. With it the 7 is named, from what shows."""
    scene, on, off = both_ways("piacentine", 9010633, Options(),
                               Options(whole_learned_veto=False), source=ray_scene)
    wrong = score_wide(off, scene.truth).false_examples
    assert len(wrong) == 1 and wrong[0].startswith("6s@")
    assert score_wide(on, scene.truth).false == 0
    assert named_right(scene, on, "7s") and not named_right(scene, off, "7s")


def test_a_card_the_judge_names_surely_is_not_asked() -> None:
    """With the veto asked only under a score the false 6 of swords does not reach (0.757),
    it stands: the bar is what asks the classifier."""
    scene, low, off = both_ways("piacentine", 9010633, Options(),
                                Options(whole_learned_veto=False),
                                thresholds=Thresholds(whole_veto_below=0.75),
                                source=ray_scene)
    assert score_wide(low, scene.truth).false == 1
    assert {d.code for d in low} == {d.code for d in off}


def test_weak_whole_cards_the_classifier_agrees_with_are_kept() -> None:
    """Ray tune napoletane 718,300: a 4 of coins the whole judge names at 0.766, the
    classifier 0.997 for it: named either way."""
    scene, on, off = both_ways("napoletane", 718300, Options(),
                               Options(whole_learned_veto=False), source=ray_scene)
    assert named_right(scene, on, "4c") and named_right(scene, off, "4c")
    assert score_wide(on, scene.truth).right == score_wide(off, scene.truth).right


def test_no_veto_without_the_classifier() -> None:
    rec = Recognizer("piacentine", options=Options(learned=False))
    cand = Candidate(None, "6s", 0.76, 0.5, 0.0, True)  # type: ignore[arg-type]
    assert not rec._whole_disowned(None, cand)  # type: ignore[arg-type]
