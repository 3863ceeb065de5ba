"""The recogniser on the wide, domain-randomised scenes (devices/camera/wide_scenes.py), tuning
seeds only (the held-out seeds are for tests/bench/bench_wide_scenes.py's report; a few
held-out scenes whose false cards were looked at after their reports, their ranges spent
since), and the parts built for them: the felt learnt from the frame, partly covered cards,
the guessed calibration."""

from __future__ import annotations

from dataclasses import replace
from itertools import islice
from pathlib import Path

import cv2
import numpy as np
import pytest

from devices.camera import felt_mask
from devices.camera.card_classifier import CardClassifier
from devices.camera.layout import CameraPose
from devices.camera.partial_match import (
    COLS,
    ROWS,
    Lookalikes,
    PartialLimits,
    closest_lookalike,
    covered_from_outside,
    shown_at,
    visible_cells,
    visible_cells_of,
)
from devices.camera.recognizer import (
    _VIEW_KERNEL,
    Candidate,
    Detection,
    Options,
    Recognizer,
    Thresholds,
    _own_cells,
    baseline_options,
    order_quad,
    surroundings,
)
from devices.camera.scoring import inside
from devices.camera.self_calibration import pose_from_card
from devices.camera.table_view import CardRect, TableView
from devices.camera.templates import CANON_H, CANON_W
from devices.camera.wide_scenes import (
    HELD_OUT_SEED_BASE,
    TUNE_SEEDS,
    WideScene,
    WideTruth,
    _filtered_scan,
    wide_deal,
    wide_scene,
)
from devices.camera.wide_scoring import WideTally, score_wide
from tests.wide_cards import INDEX_THEN, blanks_weights, both_ways, named_right

# (Every set of options below leaves out the rescue pass, `Options.rescue`, the cover
# mask, `cover_blanks` and `cover_hides`, and the telling check, `telling_check`, newer than
# the tests made with them: they name some of their refused cards another way, or never make
# their false card.)
PRIOR = {"rescue": False, "cover_blanks": False, "cover_hides": False, "telling_check": False}
# the localiser's proposals as they were before its turned and fallback cards (2026-11-26),
# which also find some cards the tests below were written for: those tests judge their own
# change against the pipeline it was made in (and without the hand's step, `cascade`, the
# hypotheses moved onto their edges, `edge_snap`, and the search for a French card around its
# outline, `index_search`, newer)
EARLIER = Options(**PRIOR, localiser_turns=False, localiser_fallback=False, cascade=False,
                  edge_snap=False, index_search=False)
# tests of changes made before `learned_on_fit`, `cascade`, `edge_snap` and `index_search`,
# whose refused cards these name another way
ONCE = Options(**PRIOR, learned_on_fit=False, cascade=False, edge_snap=False,
               index_search=False)
# tests of changes made before `cascade` (the cards a hand's step proposes) and `edge_snap`
# (hypotheses moved onto their edges), which name their refused cards another way
UNCASCADED = Options(**PRIOR, cascade=False, edge_snap=False)
# covered cards judged in the order they were proposed, as before `covered_by_quick` (and the
# moved ones, as before `snapped_by_quick`): for tests made before them, whose card their order
# names either way (or whose false card it never makes)
FIRST_COME = Options(**PRIOR, covered_by_quick=False, snapped_by_quick=False)
# the Napoletane classifier's weights before 2026-11-26's (card_classifier.py), which the tests
# of changes made with them judge those changes with: the newer weights name some of their
# cards by other paths, with or without the change
NAPOLETANE_THEN = CardClassifier.load(
    Path(__file__).parent / "data" / "card_classifier_napoletane_2026-11-25.npz")


# the Italian weights before 2026-11-27's (the fourteenth session's, five tune ranges since),
# which the tests made with them judge their changes with, as FRENCH_THEN below
NAPOLETANE_BEFORE = CardClassifier.load(
    Path(__file__).parent / "data" / "card_classifier_napoletane_2026-11-26b.npz")
PIACENTINE_BEFORE = CardClassifier.load(
    Path(__file__).parent / "data" / "card_classifier_piacentine_2026-11-26.npz")
# the Italian weights of 2026-11-27 (the sixteenth session's), before those trained on
# blanked covers (the eighteenth session's): the tests made with them judge their changes
# with them where the newer weights name their cards by other paths
NAPOLETANE_20261127 = CardClassifier.load(
    Path(__file__).parent / "data" / "card_classifier_napoletane_2026-11-27.npz")
PIACENTINE_20261127 = CardClassifier.load(
    Path(__file__).parent / "data" / "card_classifier_piacentine_2026-11-27.npz")
# the French weights before 2026-11-27's (four tune ranges, card_classifier.py), which the
# French tests made before them judge their changes with: the newer weights name some of
# their cards with or without the change
FRENCH_THEN = CardClassifier.load(
    Path(__file__).parent / "data" / "card_classifier_french_2026-11-25.npz")


def _then(art: str) -> CardClassifier | None:
    """The classifier a test made before 2026-11-26 (French: 2026-11-27) was written
    against (None: shipped)."""
    return {"napoletane": NAPOLETANE_THEN, "french": FRENCH_THEN}.get(art)


def test_scenes_are_seeded_and_the_split_is_apart() -> None:
    a, b = wide_scene(3, "napoletane"), wide_scene(3, "napoletane")
    assert np.array_equal(a.frame, b.frame) and a.notes == b.notes
    assert a.frame.shape == (720, 1280, 3)
    assert HELD_OUT_SEED_BASE not in TUNE_SEEDS
    assert 1 <= len(a.truth) <= 7 and sum(not t.face_up for t in a.truth) <= 1


def test_in_linear_light_thin_print_fades_and_the_scene_is_the_same() -> None:
    """wide_scenes' `linear_light`: a 2-pixel black stroke filtered down to a third in linear
    light is paler than the same filter in display values leaves it (as a lens fades a French
    index's rank), and the scene is the same one: its cards, where they lie, its draws."""
    scan = np.full((60, 60, 4), 255, np.uint8)
    scan[:, 29:31, :3] = 0
    faded = _filtered_scan(scan, 20.0 / 1.5)[:, :, :3]
    plain = cv2.resize(scan[:, :, :3], (20, 20), interpolation=cv2.INTER_AREA)
    assert faded.shape == (20, 20, 3) and faded.min() > plain.min() + 30
    assert faded.min() < 240  # faded, not gone
    a, b = wide_scene(5, "french", "french52"), wide_scene(5, "french", "french52",
                                                           linear_light=True)
    assert a.notes == b.notes and [t.code for t in a.truth] == [t.code for t in b.truth]
    assert all(np.allclose(s.quad, t.quad) for s, t in zip(a.truth, b.truth, strict=True))
    assert not np.array_equal(a.frame, b.frame)


def test_the_counting_rule_is_issue_16s() -> None:
    for seed in range(12):
        for t in wide_scene(seed, "french", "french52").truth:
            assert t.counts == (t.face_up and t.visible >= 0.45 and t.index_visible >= 0.8)
        for t in wide_scene(seed, "piacentine").truth:
            assert t.counts == (t.face_up and t.visible >= 0.45)


def test_the_part_of_a_card_outside_the_frame_does_not_show() -> None:
    """A card is visible only where it lies inside the frame: tune scene napoletane 265 has a
    3 of clubs 3% inside it, none of it covered, which does not count."""
    from devices.camera.wide_scenes import FRAME_H, FRAME_W, _in_frame

    half_out = np.array([[FRAME_W - 50, 100], [FRAME_W + 50, 100], [FRAME_W + 50, 250],
                         [FRAME_W - 50, 250]], np.float32)
    assert _in_frame(half_out) == pytest.approx(0.5)
    assert _in_frame(half_out - [FRAME_W, 0]) == pytest.approx(0.5)
    assert _in_frame(half_out - [200, 0]) == 1.0
    assert _in_frame(half_out + [0, FRAME_H]) == 0.0
    card = next(t for t in wide_scene(265, "napoletane").truth if t.code == "3b")
    assert card.face_up and card.visible < 0.05 and not card.counts


def test_the_tally_counts_right_cards_by_the_share_of_their_face_that_shows() -> None:
    """Where the misses are: each counted card falls in one band of its visible share; a card
    named right counts right in its band, a card showing under 45% in none."""
    quad = np.float32([[0, 0], [50, 0], [50, 80], [0, 80]])

    def card(code: str, visible: float, dx: float) -> WideTruth:
        return WideTruth(code, True, quad + np.float32([dx, 0]), visible, 1.0, visible >= 0.45)

    truth = [card("3c", 0.5, 0), card("4c", 0.6, 100), card("5c", 1.0, 200),
             card("6c", 0.3, 300)]
    named = [Detection("3c", truth[0].quad, 0.9, 0.5, 0.1),
             Detection("5c", truth[2].quad, 0.9, 0.5, 0.1)]
    tally = WideTally()
    tally.add(score_wide(named, truth))
    tally.add(score_wide([], truth))
    assert tally.bands == {"45-55%": [1, 2], "55-70%": [0, 2], "whole": [1, 2]}
    assert tally.bands_line() == "45-55% 1/2  55-70% 0/2  whole 1/2"
    assert (tally.right, tally.expected) == (2, 6)


def test_a_card_named_twice_is_counted_apart_and_two_copies_are_not() -> None:
    """Two detections on one card (their centres apart) are one right and one `twice`,
    never a second right; two copies of a card (an eight-deck shoe), each named, are two
    right; a scene with a card named twice is not wholly right."""
    quad = np.float32([[0, 0], [50, 0], [50, 80], [0, 80]])
    one = WideTruth("7s", True, quad, 1.0, 1.0, True)
    near = Detection("7s", quad + np.float32([0, 20]), 0.9, 0.5, 0.1)
    twice = score_wide([Detection("7s", quad, 0.9, 0.5, 0.1), near], [one])
    assert (twice.right, twice.false, twice.twice, twice.perfect) == (1, 0, 1, 0)
    copy = WideTruth("7s", True, quad + np.float32([0, 30]), 1.0, 1.0, True)
    both = score_wide([Detection("7s", quad, 0.9, 0.5, 0.1), near], [one, copy])
    assert (both.right, both.twice, both.perfect) == (2, 0, 1)
    # the copy's detection first, its centre on both copies: it is the nearer one's
    first = score_wide([Detection("7s", quad + np.float32([0, 28]), 0.9, 0.5, 0.1),
                        Detection("7s", quad - np.float32([0, 15]), 0.9, 0.5, 0.1)],
                       [one, copy])
    assert (first.right, first.twice) == (2, 0)


def test_a_blue_felt_is_felt_and_the_cards_on_it_are_not() -> None:
    frame = np.empty((360, 640, 3), np.uint8)
    frame[:] = (120, 60, 25)
    cv2.rectangle(frame, (300, 150), (350, 230), (235, 235, 235), -1)
    mask = felt_mask.not_felt(frame)
    assert mask[190, 325] == 255 and mask[50, 50] == 0 and mask[300, 600] == 0
    assert not felt_mask.looks_green(frame, 1.35, 8.0)


def test_the_felt_is_learnt_from_the_frame_where_green_s_rule_fails() -> None:
    """Tune piacentine 47,310: a dark green cloth under a warm light with sensor noise,
    a fan of four cards, its ace of coins on top and whole. Green's rule calls half the
    top-down view not felt, so no outline stands out and nothing is named. Past
    `green_felt_max_share` of the view the felt learnt from the frame is taken
    (`felt_fallback`): the ace is named, nothing false."""
    scene = wide_scene(47_310, "piacentine")
    rec = Recognizer("piacentine")
    view = rec.view(scene.camera)
    top_down = view.rectify(scene.frame)
    green = rec._green_felt_mask(top_down, _VIEW_KERNEL)
    assert felt_mask.looks_green(top_down, rec.thresholds.felt_ratio, rec.thresholds.felt_floor)
    assert cv2.countNonZero(green) > 0.45 * green.size
    assert cv2.countNonZero(rec._view_mask(scene.frame, view)[1]) < 0.1 * green.size
    scene, on, off = both_ways("piacentine", 47_310, Options(**PRIOR),
                               Options(**PRIOR, felt_fallback=False))
    assert named_right(scene, on, "Ad") and len(on) == 1
    assert off == []


def test_dropped_cells_must_reach_the_edge() -> None:
    cells = np.ones((6, 4), bool)
    cells[:, 2:] = False  # the right half covered: a cascade
    assert covered_from_outside(cells)
    cells = np.ones((6, 4), bool)
    cells[2:4, 1:3] = False  # a hole in the middle: the card differs there, nothing covers it
    assert not covered_from_outside(cells)


def test_cells_known_covered_never_count_as_showing() -> None:
    """A card named on top of this one covers its right half: those cells are not what shows
    of this card, even where they happen to match (the judge used to keep them, and the card
    was then dropped as "what matched is a card named already")."""
    rng = np.random.default_rng(5)
    template = rng.uniform(0.2, 1.0, (ROWS * 10, COLS * 10, 3)).astype(np.float32)
    hidden = np.zeros((ROWS, COLS), bool)
    hidden[:, COLS // 2:] = True
    limits = PartialLimits()
    cells, error = visible_cells(template, template, limits)
    assert cells.all() and error < 1e-6
    cells, error = visible_cells(template, template, limits, hidden=hidden)
    assert np.array_equal(cells, ~hidden) and error < 1e-6
    assert visible_cells(template, template, limits, hidden=np.ones((ROWS, COLS), bool))[1] \
        == float("inf")


def test_a_card_gives_back_the_cameras_table_plane() -> None:
    scene = wide_scene(2, "napoletane")
    truth = scene.truth[0]
    rec = Recognizer("napoletane")
    pose = pose_from_card(truth.quad, rec.aspect)
    assert pose is not None
    for t in scene.truth:  # every card has a card's size on the guessed table
        pts = cv2.perspectiveTransform(t.quad.reshape(-1, 1, 2).astype(np.float64),
                                       np.linalg.inv(pose.homography)).reshape(-1, 2)
        width = np.linalg.norm(pts[1] - pts[0])
        assert width == pytest.approx(110.0, rel=0.08)


@pytest.mark.parametrize("art, kind", [("napoletane", "italian40"), ("french", "french52")])
def test_wide_tuning_scenes_no_false_cards_and_most_named(art: str, kind: str) -> None:
    current, base = WideTally(), WideTally()
    rec, old = Recognizer(art, kind), Recognizer(art, kind, options=baseline_options())
    for seed in range(25):
        scene = wide_scene(seed, art, kind)
        current.add(score_wide(rec.recognize(scene.frame, scene.camera), scene.truth))
        base.add(score_wide(old.recognize(scene.frame, scene.camera), scene.truth))
    assert current.false == 0 and base.false == 0
    assert current.right_pct >= 75.0 and current.right_pct > base.right_pct + 40


@pytest.mark.parametrize("art, kind", [("piacentine", "italian40"), ("french", "french52")])
def test_a_pose_from_any_card_shaped_outline_names_more_uncalibrated(art: str,
                                                                     kind: str) -> None:
    """Without a calibration and no card named whole, any card-shaped outline (on the mask
    closed, when holes break it) gives the table's plane: more cards named, none false.
    (Without the camera family's framings, which take its place: the test below.)"""
    anyway, before = WideTally(), WideTally()
    rec = Recognizer(art, kind, options=Options(family_sweep=False))
    old = Recognizer(art, kind, options=Options(family_sweep=False, pose_from_any_outline=False))
    for seed in range(40):
        scene = wide_scene(seed, art, kind)
        anyway.add(score_wide(rec.recognize(scene.frame), scene.truth))
        before.add(score_wide(old.recognize(scene.frame), scene.truth))
    assert anyway.false == 0
    assert anyway.right > before.right


def test_no_pose_from_outlines_that_match_no_card_unless_asked() -> None:
    """guess_pose takes unnamed outlines only as close as asked."""
    rec = Recognizer("french", "french52")
    scene = wide_scene(3, "french", "french52")
    quad = order_quad(scene.truth[0].quad)
    weak = Candidate(quad, "2c", 0.2, 0.0, 9.9, False)
    assert rec.guess_pose([weak]) is None
    assert rec.guess_pose([weak], min_score=0.0) is not None


def test_a_close_row_of_cards_is_not_taken_for_the_felt() -> None:
    """Five cards side by side fill most of a 21-pixel median neighbourhood (of the small
    copy), which then calls the middle card felt; the outline path's wider one does not."""
    frame = np.empty((720, 1280, 3), np.uint8)
    frame[:] = (120, 60, 25)  # blue cloth
    for i in range(5):
        x = 380 + i * 105
        cv2.rectangle(frame, (x, 280), (x + 100, 430), (225, 230, 235), -1)
    centre = (355, 380 + 2 * 105 + 50)
    assert felt_mask.not_felt(frame, k=21)[centre] == 0  # the narrow neighbourhood fails
    rec = Recognizer("piacentine", "italian40")
    assert rec.thresholds.image_felt_median > 21
    mask = rec.card_mask(frame)
    assert mask[centre] == 255 and mask[100, 100] == 0


def test_a_partly_covered_card_owns_only_the_cells_that_showed() -> None:
    """Unit: the cells marked owned are where the card was seen, not its whole outline."""
    view = TableView(CameraPose())
    rect = CardRect(np.array([300.0, 150.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]),
                    55.0, 88.0)
    quad = order_quad(view.image_points(rect.corners()))
    cells = np.zeros((ROWS, COLS), bool)
    cells[:, :2] = True  # the left half showed
    owned = np.zeros((view.size[1], view.size[0]), np.uint8)
    _own_cells(owned, view, quad, cells)
    assert owned[195, 312] == 1 and owned[195, 343] == 0  # left and right half's middle
    assert 0.4 < owned.sum() / (55 * 88) < 0.6


@pytest.mark.parametrize("art, kind, seed", [("napoletane", "italian40", 40),
                                             ("napoletane", "italian40", 50),
                                             ("french", "french52", 146)])
def test_a_card_over_a_partly_covered_one_is_not_on_a_named_card(art: str, kind: str,
                                                                  seed: int) -> None:
    """Tune scenes where a card named partly covered owned its whole outline, so the card
    lying over it was refused as "on a named card": now named, nothing false. (As the
    recogniser was then: the bar for a hypothesis on named cards at 0.55, and cards the
    classifier names owning their outline; since, two of them pass either way.)"""
    from devices.camera.recognizer import Thresholds

    old_bar = Thresholds(max_named_share=0.55)
    scene = wide_scene(seed, art, kind)
    # (covered_by_quick off: its order names the card either way)
    then = replace(ONCE, learned_owns_nothing=False, covered_by_quick=False)
    now = score_wide(Recognizer(art, kind, thresholds=old_bar, options=then).recognize(
        scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer(art, kind, thresholds=old_bar, options=replace(
        then, own_what_shows=False)).recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1


@pytest.mark.parametrize("seed", [6024, 6108])
def test_a_covered_card_is_judged_on_the_cells_no_named_card_covers(seed: int) -> None:
    """Tune scenes (napoletane) where the partial judge named a card under a cascade's next
    card, keeping two or more cells that lie on that named card as matching, and the card was
    dropped as "what matched is a card named already": judged without those cells, it is
    named; nothing false."""
    scene = wide_scene(seed, "napoletane")
    weights = blanks_weights("napoletane")  # (the newer weights name 6108's card either way)
    now = score_wide(Recognizer("napoletane", options=ONCE, classifier=weights).recognize(
        scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("napoletane", options=replace(ONCE, named_hide=False),
                                   classifier=weights)
                        .recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1 == now.expected


# (napoletane 24 was one until the classifier's retrain with covers: now sure, it names that
# card without the fit)
@pytest.mark.parametrize("art, kind, seed", [("napoletane", "italian40", 7),
                                             ("piacentine", "italian40", 18)])
def test_a_covered_card_the_classifier_half_knows_is_fitted_and_named(art: str, kind: str,
                                                                     seed: int) -> None:
    """Tune scenes where every judge refused a partly covered card on the outline read off
    its corner, and the classifier took it for the right card, not surely: fitted to that
    card, the partial judge names it; nothing false. (Without `named_hide`: with it, the
    partial judge names piacentine 18's card on its outline, no fit needed; with the weights
    of 2026-11-27: those trained on blanks name napoletane 7's card without the fit.)"""
    scene = wide_scene(seed, art, kind)
    weights = {"napoletane": NAPOLETANE_20261127, "piacentine": PIACENTINE_20261127}[art]
    then = Options(**PRIOR, named_hide=False, edge_snap=False)
    now = score_wide(Recognizer(art, kind, options=then,
                                classifier=weights).recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer(art, kind, options=replace(then, learned_fit=False),
                                   classifier=weights)
                        .recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1


def test_a_guess_fitted_as_the_studios_camera_names_more() -> None:
    """Tune scenes whose guess from one card's corners (or two) makes cards elsewhere 6-13%
    off their size: the studio's kind of camera fitted to the cards (camera_family.py) names
    nearly all of them, none false (the guess refitted to the cards it names off in both:
    Options.pose_refit mends the corners' guess too, and both then name all 16)."""
    fitted, corners = WideTally(), WideTally()
    rec = Recognizer("napoletane", options=Options(pose_refit=False))
    old = Recognizer("napoletane", options=Options(family_pose=False, family_sweep=False,
                                                   pose_refit=False))
    for seed in (10, 18, 194):
        scene = wide_scene(seed, "napoletane")
        fitted.add(score_wide(rec.recognize(scene.frame), scene.truth))
        corners.add(score_wide(old.recognize(scene.frame), scene.truth))
    assert fitted.false == 0 and corners.false == 0
    assert fitted.right >= corners.right + 6 and fitted.right >= fitted.expected - 2


def test_with_no_card_named_whole_the_cameras_framings_name_cards() -> None:
    """Tune scenes where no card is named whole and no outline gave a usable calibration:
    the studio camera's framings, ranked and the best two tried, name cards, none false."""
    swept, before = WideTally(), WideTally()
    rec = Recognizer("napoletane")
    old = Recognizer("napoletane", options=Options(family_sweep=False))
    for seed in (7, 12, 30, 42):
        scene = wide_scene(seed, "napoletane")
        swept.add(score_wide(rec.recognize(scene.frame), scene.truth))
        before.add(score_wide(old.recognize(scene.frame), scene.truth))
    assert swept.false == 0 and before.right == 0
    assert swept.right >= 6


def test_a_card_named_on_its_outline_is_not_renamed_under_a_guessed_pose() -> None:
    """Tune seed 81 (piacentine): the 4 of coins, named whole on its outline, matched the
    5 of coins better under the guessed calibration; the outline's name stands. (The
    classifier's veto refuses that rename too: it is off in the counterfactual; so are the
    localiser's proposals under the guess, which came later and name the card otherwise;
    and the look-alike rules.)"""
    scene = wide_scene(81, "piacentine")
    kept = score_wide(Recognizer("piacentine", options=_without_lookalikes(
        learned_veto=False, localise_when_guessed=False)).recognize(scene.frame), scene.truth)
    renamed = score_wide(Recognizer("piacentine", options=_without_lookalikes(
        outline_agrees=False, learned_veto=False, localise_when_guessed=False))
        .recognize(scene.frame), scene.truth)
    assert (kept.right, kept.false) == (1, 0)
    assert renamed.false == 1


def test_under_a_guessed_pose_the_classifier_does_not_name_a_covered_card_alone() -> None:
    """Tune seed 1043 (french40): under the guessed calibration the classifier, sure and
    with no template judge agreeing, named a 4 of spades where a 2 lies mostly covered. (The
    index reader's confirmation refuses it too: off on both sides; and now the 2 is fitted to
    its index's card and named first, `index_fit`: off on both sides as well; and the pose
    refitted to the cards named, `pose_refit`, under which all 7 are named either way.)"""
    scene = wide_scene(1043, "french", "french40")
    strict = score_wide(Recognizer("french", "french40", options=Options(
        index_confirms_learned=False, index_fit=False, pose_refit=False),
        classifier=FRENCH_THEN).recognize(scene.frame), scene.truth)
    alone = score_wide(Recognizer("french", "french40", options=Options(
        alone_when_guessed=True, index_confirms_learned=False, index_fit=False,
        pose_refit=False),
        classifier=FRENCH_THEN).recognize(scene.frame), scene.truth)
    assert strict.false == 0 and strict.right >= 4
    assert alone.false == 1


def test_the_classifier_alone_names_a_card_only_at_its_surest() -> None:
    """Tune scene napoletane 6942: a row of four, the 3 of coins 65% showing; an outline slid
    a third of a card off it (its third coin outside the crop) fits no card on what shows,
    and the classifier read it a 2 of coins at 0.971 both ways up, the crop's best template
    match: named alone at the old bar (0.96), a false card. Refused at 0.975."""
    from devices.camera.recognizer import Thresholds

    scene = wide_scene(6942, "napoletane", "italian40")
    now = score_wide(Recognizer("napoletane", "italian40", classifier=NAPOLETANE_THEN,
                                options=ONCE).recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("napoletane", "italian40", thresholds=Thresholds(
        learned_alone_prob=0.96), classifier=NAPOLETANE_THEN, options=ONCE).recognize(
        scene.frame, scene.camera), scene.truth)
    assert before.false == 1 and before.false_examples[0].startswith("2d@")
    assert now.false == 0 and now.right == before.right


def test_a_covered_card_the_classifier_names_at_0_9_when_both_template_judges_agree() -> None:
    """Tune scene piacentine 18132: a fan of four, the ace of coins 72% showing; the partial
    judge fits it best (not surely), it is among the crop's best template matches, and the
    classifier names it at 0.93 (0.917 with the weights before): refused at the old bar
    (0.95), named at 0.9 (`Thresholds.learned_min_prob`), the other cards as before."""
    scene = wide_scene(18132, "piacentine", "italian40")
    now = Recognizer("piacentine", "italian40", classifier=PIACENTINE_BEFORE,
                     options=UNCASCADED).recognize(scene.frame, scene.camera)
    before = Recognizer("piacentine", "italian40", thresholds=Thresholds(
        learned_min_prob=0.95), classifier=PIACENTINE_BEFORE, options=UNCASCADED).recognize(
        scene.frame, scene.camera)
    assert sorted(d.code for d in now) == sorted([d.code for d in before] + ["Ad"])
    assert score_wide(now, scene.truth).right == score_wide(now, scene.truth).expected == 5
    assert score_wide(now, scene.truth).false == 0


def test_a_card_lying_mostly_on_named_cards_is_named_by_the_classifier_only_at_0_95() -> None:
    """Held-out napoletane 9315577 (looked at after its report): a 5 of swords 37% showing
    (too little to count), 61% of its outline on the 4 of cups named over it, read as a 7 of
    swords at 0.943, the partial judge fitting a 7 best: a false card at the 0.9 bar. Lying
    more than 58% on named cards (`Thresholds.learned_covered_share`), it must reach 0.95.
    (Without `lookalike_unseparated`, which refuses it too.)"""
    scene = wide_scene(9315577, "napoletane", "italian40")
    then = Options(lookalike_unseparated=False)
    now = score_wide(Recognizer("napoletane", options=then, classifier=NAPOLETANE_BEFORE)
                     .recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("napoletane", options=then, thresholds=Thresholds(
        learned_covered_share=1.0), classifier=NAPOLETANE_BEFORE).recognize(
        scene.frame, scene.camera), scene.truth)
    assert before.false == 1 and before.false_examples[0].startswith("7s@")
    assert now.false == 0 and now.right == before.right == now.expected == 4


def test_a_card_named_from_a_third_of_it_is_told_from_its_look_alikes_more_clearly() -> None:
    """Tune scene piacentine 18422: a 6 of cups between a 5 of swords and a 4 of cups, a hand
    over its middle, shows its left column of cups (8 cells, the fewest the partial judge
    names from); a 7 of cups fit it at separation 0.432, over the 0.42 asked of a card
    showing more: a false card. Refused at 0.45 (`PartialLimits.few_cells_separation`), the
    other cards named as before. (Without the look-alike rules, which refuse it too.)"""
    scene = wide_scene(18422, "piacentine", "italian40")
    now = score_wide(Recognizer("piacentine", "italian40", classifier=PIACENTINE_BEFORE,
                                options=_without_lookalikes())
                     .recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("piacentine", "italian40", thresholds=Thresholds(
        partial=PartialLimits(few_cells_separation=0.42)), classifier=PIACENTINE_BEFORE,
        options=_without_lookalikes()).recognize(scene.frame, scene.camera), scene.truth)
    assert before.false == 1 and before.false_examples[0].startswith("7c@")
    assert now.false == 0 and now.right == before.right == 5


def test_the_partial_judges_card_is_refused_when_the_classifier_is_sure_of_another() -> None:
    """Tune scene piacentine 3394: a 5 of cups under a 4 of batons shows its left column, its
    middle cup half under the cover; the partial judge took it for a 4 of cups, the
    classifier is sure of the 5 (0.98). Refused now; the other cards named as before.
    (Without `named_hide`: with it, the cells under the 4 of batons are not matched and the
    partial judge names the 5 of cups right, veto or not. And without `paired_near_refit`,
    which names it once fitted to the classifier's card; and without the look-alike rules,
    which refuse it too.)"""
    scene = wide_scene(3394, "piacentine", "italian40")
    then = _without_lookalikes(paired_near_refit=False, learned_on_fit=False)
    now = score_wide(Recognizer("piacentine", "italian40", options=replace(
        then, named_hide=False)).recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("piacentine", "italian40", options=replace(
        then, learned_veto=False, named_hide=False)).recognize(scene.frame, scene.camera),
        scene.truth)
    assert before.false == 1 and now.false == 0 and now.right == before.right
    hidden = score_wide(Recognizer("piacentine", "italian40", options=then).recognize(
        scene.frame, scene.camera), scene.truth)
    assert hidden.false == 0 and hidden.right == hidden.expected == now.right + 1


@pytest.mark.parametrize("kind, seed, more", [("french40", 5025, 2), ("french52", 5013, 2),
                                              ("french40", 5012, 1)])
def test_a_covered_french_card_is_named_from_its_corner_index(kind: str, seed: int,
                                                              more: int) -> None:
    """Tune scenes where every judge refused a covered French card whose corner index
    shows: read at the camera's resolution (index_reader.py), with a second method
    pointing at the same card, it is named; nothing false. (Without `paired_near`, which
    names 5012's card from the partial judge and the classifier agreeing, and at the
    classifier's bar of then, 0.95, as at 0.9 it names that card too; and without
    `ownership_carries`, with which 5025's fourth card is named too, after the index
    reader's.)"""
    scene = wide_scene(seed, "french", kind)
    then = Thresholds(learned_min_prob=0.95)
    now = score_wide(Recognizer("french", kind, then, options=Options(
        paired_near=False, edge_snap=False, ownership_carries=False),
        classifier=FRENCH_THEN).recognize(scene.frame, scene.camera),
        scene.truth)
    before = score_wide(Recognizer("french", kind, then, options=Options(
        index_reader=False, paired_near=False, edge_snap=False, ownership_carries=False),
        classifier=FRENCH_THEN).recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + more


def test_a_covered_card_whose_index_reads_another_is_refused() -> None:
    """Tune scene french52 5272: the classifier named a half-covered 8 a 7 (0.96); its
    corner index, in plain view, reads the 8. Refused now. (Without `named_hide`: with it,
    the partial judge names the 8 right; and without `lookalike_unseparated`, which refuses
    the 7 too when no index is read.)"""
    scene = wide_scene(5272, "french", "french52")
    then = Options(named_hide=False, lookalike_unseparated=False)
    now = score_wide(Recognizer("french", "french52", options=then,
                                classifier=FRENCH_THEN).recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("french", "french52", options=replace(
        then, index_reader=False), classifier=FRENCH_THEN).recognize(
        scene.frame, scene.camera), scene.truth)
    assert before.false == 1 and now.false == 0 and now.right >= before.right


def test_a_covered_card_the_classifier_names_needs_its_index_in_view() -> None:
    """Tune scene french40 5375: an outline moved off a covered 2 of spades, its corners on
    the card back beside it, read the 2's pips and its neighbour's as a 4 (the classifier,
    0.96); neither corner shows a 4's index. Refused now."""
    scene = wide_scene(5375, "french", "french40")
    now = score_wide(Recognizer("french", "french40", options=FIRST_COME).recognize(
        scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("french", "french40", options=replace(
        FIRST_COME, index_confirms_learned=False)).recognize(scene.frame, scene.camera),
        scene.truth)
    assert before.false == 1 and now.false == 0 and now.right >= before.right


@pytest.mark.parametrize("seed", [5023, 5057])
def test_a_covered_french_card_is_named_from_a_very_sure_index_alone(seed: int) -> None:
    """Tune scenes french52 where no second method agreed with the index reader, which was
    very sure (>= 0.99): named from the index alone; nothing false. (Now the card is also
    fitted to its index's card first, `index_fit`, which names 5057's: off on both sides; so
    is `keep_better_fit`, whose first form named 5023's.)"""
    scene = wide_scene(seed, "french", "french52")
    earlier = replace(EARLIER, index_fit=False, keep_better_fit=False)
    now = score_wide(Recognizer("french", "french52", options=earlier,
                                classifier=FRENCH_THEN).recognize(scene.frame, scene.camera),
                     scene.truth)
    agreeing = Recognizer("french", "french52", options=earlier,
                          thresholds=replace(Thresholds(), index_alone_prob=1.01),
                          classifier=FRENCH_THEN)
    before = score_wide(agreeing.recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1


def test_a_card_named_by_its_index_alone_needs_its_other_corner_not_to_read_another() -> None:
    """Tune scene french40 19243: an ace of spades 44% showing under a hand and a chip; its
    top index read a 4 of spades at 0.995, past the bar for an index alone (0.99), nothing
    else agreeing, its bottom index read an ace (0.34): a false 4. A card its index alone
    names is refused when its other corner reads another card (`index_corners_agree`)."""
    scene = wide_scene(19243, "french", "french40")
    now = score_wide(Recognizer("french", "french40", index_net=INDEX_THEN).recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("french", "french40", index_net=INDEX_THEN, options=Options(
        index_corners_agree=False)).recognize(scene.frame, scene.camera), scene.truth)
    assert before.false_examples[0].startswith("4s@") and before.false == 1
    assert now.false == 0 and now.right == before.right


@pytest.mark.parametrize("art, seed", [("piacentine", 6476), ("napoletane", 6588)])
def test_a_localiser_peak_across_an_outline_hypothesis_proposes_its_own_card(
        art: str, seed: int) -> None:
    """Tune scenes where an outline hypothesis lay near a card's centre along another axis: the
    localiser's peak on that card was dropped as the same card proposed twice, and nothing
    else proposed the card. Kept now (`localiser_axis`), it is named; nothing
    false."""
    scene = wide_scene(seed, art)
    now = score_wide(Recognizer(art, options=EARLIER).recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer(art, options=replace(EARLIER, localiser_axis=False))
                        .recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1 == now.expected


@pytest.mark.parametrize("seed", [11521, 11574])
def test_a_localiser_peak_whose_axis_is_off_proposes_its_card_turned(seed: int) -> None:
    """Tune scenes (french40) where the localiser's peak lay on a card with its axis some
    degrees off (a fan's top card among its neighbours' edges) and nothing else proposed the
    card: its card turned a little either way (`localiser_turns`) is named; nothing false."""
    scene = wide_scene(seed, "french", "french40")
    now = score_wide(Recognizer("french", "french40", classifier=FRENCH_THEN, index_net=INDEX_THEN,
                                options=UNCASCADED).recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("french", "french40", options=replace(
        UNCASCADED, localiser_turns=False), classifier=FRENCH_THEN, index_net=INDEX_THEN).recognize(
        scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1 == now.expected


def test_a_peak_whose_axis_is_further_off_is_turned_further() -> None:
    """Tune scene french52 13721: a card the localiser's 10-degree twins miss is named on its
    20-degree twin (`Thresholds.localiser_turns`); nothing false."""
    scene = wide_scene(13721, "french", "french52")
    now = score_wide(Recognizer("french", "french52").recognize(scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("french", "french52", thresholds=Thresholds(
        localiser_turns=(10.0,))).recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1


def test_the_edges_axis_far_from_the_localisers_is_tried_too() -> None:
    """A tune scene (french52 12165) where the localiser's axis on a jack seen whole was 35
    degrees off and the edges around it agreed on the right one: its card along the edges'
    axis is named; nothing false."""
    scene = wide_scene(12165, "french", "french52")
    found = Recognizer("french", "french52").recognize(scene.frame, scene.camera)
    now = score_wide(found, scene.truth)
    assert now.false == 0 and now.right == now.expected == 1


@pytest.mark.parametrize("art, kind, seed", [("napoletane", None, 12250),
                                             ("piacentine", None, 12222),
                                             ("french", "french52", 12299)])
def test_a_localiser_peak_beside_an_outline_hypothesis_is_judged_when_that_is_not_named(
        art: str, kind: str | None, seed: int) -> None:
    """Tune scenes where a card seen whole was proposed by its outline a few pixels off (its
    corners read among a neighbour's) and not named, and the localiser's peak on it was
    dropped as the same card: judged last (`localiser_fallback`), it is named; nothing
    false."""
    scene = wide_scene(seed, art, kind)
    now = score_wide(Recognizer(art, kind, classifier=_then(art), options=UNCASCADED)
                     .recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer(art, kind, options=replace(UNCASCADED,
                                                              localiser_fallback=False),
                                   classifier=_then(art)).recognize(scene.frame, scene.camera),
                        scene.truth)
    assert now.false == 0 and now.right == before.right + 1 == now.expected


def test_a_hypothesis_too_far_off_to_align_is_fitted_and_named_whole() -> None:
    """Tune scene 13221: a whole 4 of cups lies on a printed box's lines, its outline
    hypotheses 13-15 px off and the localiser's peak 7 px off, too far to align (0.37 at the
    start, under `refine_from`). Fitted anyway (`fit_low_start`), it matches at 0.98 and is
    named; nothing false."""
    scene = wide_scene(13221, "napoletane")
    now = score_wide(Recognizer("napoletane", classifier=NAPOLETANE_THEN, options=ONCE)
                     .recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("napoletane", options=replace(ONCE, fit_low_start=False),
                                   classifier=NAPOLETANE_THEN)
                        .recognize(scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1 == now.expected


def test_under_a_guessed_pose_the_localiser_proposes_cards_too() -> None:
    """Tune scene french40 13707, no calibration: under the pose guessed from the cards seen
    whole, the localiser's proposals (`localise_when_guessed`) name two cards whole that the
    outlines do not; nothing false (the pose refitted to the cards named off on both sides:
    `pose_refit` runs the localiser again under the refitted pose, which names them too)."""
    scene = wide_scene(13707, "french", "french40")
    once = replace(ONCE, pose_refit=False)
    now = score_wide(Recognizer("french", "french40", options=once).recognize(scene.frame),
                     scene.truth)
    before = score_wide(Recognizer("french", "french40", options=replace(once,
        localise_when_guessed=False)).recognize(scene.frame), scene.truth)
    assert now.false == 0 and now.right == before.right + 2


def test_under_a_guessed_pose_the_localisers_proposals_are_judged_whole_only() -> None:
    """Tune scene napoletane 13705, no calibration: judged on what shows as well
    (`guessed_localised_whole` off) a partly covered card is named, and is not by default:
    that way gave a false card on held-out stills (`pose_refit` off on both sides)."""
    scene = wide_scene(13705, "napoletane")
    whole = score_wide(Recognizer("napoletane", options=Options(pose_refit=False)).recognize(
        scene.frame), scene.truth)
    shows = score_wide(Recognizer("napoletane", options=Options(
        guessed_localised_whole=False, pose_refit=False)).recognize(scene.frame), scene.truth)
    assert whole.false == shows.false == 0 and shows.right == whole.right + 1


class _RefitSeesAll(Recognizer):
    """The refit to the classifier's card judged without the cells known covered (as before
    2026-11-26): its first judgement had them hidden, its second did not."""

    def _refit_to_learned(self, frame, view, rect, quad, shortlist, fitted_to, guess,  # type: ignore[no-untyped-def]
                          hidden=None):
        return super()._refit_to_learned(frame, view, rect, quad, shortlist, fitted_to, guess)


@pytest.mark.parametrize("art, seed", [("napoletane", 6635), ("piacentine", 7629)])
def test_a_covered_card_refitted_to_the_classifiers_card_is_judged_without_named_cells(
        art: str, seed: int) -> None:
    """Tune scenes where a covered card, refitted to the card the classifier took it for, was
    judged again with the cells lying on a card named already counted as showing, and
    refused: judged on the cells no named card covers, as its first judgement was, it is
    named; nothing false."""
    scene = wide_scene(seed, art)
    clf = _then(art) or PIACENTINE_BEFORE
    now = score_wide(Recognizer(art, options=EARLIER, classifier=clf).recognize(
        scene.frame, scene.camera), scene.truth)
    before = score_wide(_RefitSeesAll(art, options=EARLIER, classifier=clf).recognize(
        scene.frame, scene.camera), scene.truth)
    assert now.false == 0 and now.right == before.right + 1


def test_a_card_named_without_cells_does_not_own_the_cards_lying_over_it() -> None:
    """Tune scene french52 15430: a fan of three, 45-49% of each showing. The king of
    diamonds is named by the classifier (its index confirming), which knows no cells: had it
    owned its whole outline, the king of spades and the 2 of clubs, partly over it, would
    have been "on a named card" and never judged (now both are named by their indices).
    (Without `paired_near`, which names both another way.)"""
    scene = wide_scene(15430, "french", "french52")
    now = Recognizer("french", "french52", options=Options(paired_near=False)).recognize(
        scene.frame, scene.camera)
    before = Recognizer("french", "french52", options=Options(
        learned_owns_nothing=False, paired_near=False)).recognize(scene.frame, scene.camera)
    assert {"Ks", "2c"} <= {d.code for d in now} and not {"Ks", "2c"} & {d.code for d in before}
    assert score_wide(now, scene.truth).false == 0 == score_wide(before, scene.truth).false


def test_a_card_the_classifier_alone_names_does_not_lie_on_cards_named_already() -> None:
    """Held-out napoletane 9316142 (looked at after its report, uncalibrated): under the
    guessed pose an outline lying across, spanning the lower halves of the 6 of coins and the
    ace of coins beside it, read as a 7 of coins (0.957), a false card. The ace is named whole
    and the 6 by the classifier, which owns nothing: the outline lay on 48% named cells only.
    Counting the classifier's own cards' outlines too (`learned_yields`), on 98% of it.
    (Without `keep_better_fit`, whose first form refused it too.)"""
    scene = wide_scene(9316142, "napoletane", "italian40")
    now = score_wide(Recognizer("napoletane", options=Options(keep_better_fit=False),
                                classifier=NAPOLETANE_BEFORE).recognize(scene.frame),
                     scene.truth)
    before = score_wide(Recognizer("napoletane", options=Options(learned_yields=False,
                                                                 keep_better_fit=False),
                                   classifier=NAPOLETANE_BEFORE).recognize(scene.frame),
                        scene.truth)
    assert before.false_examples == ["7d@640,493"] and before.right == 5
    assert now.false == 0 and now.right == before.right == now.expected


def test_a_card_just_under_half_on_named_cards_is_still_judged() -> None:
    """Tune scene french40 15599: the 7 of spades shows 48% of its face, the rest under named
    cards; its outline and theirs a pixel or two off put 56% or more of it on them, past the
    old bar (0.55, one less the issue's 45%). Judged at 0.65, and named. (With the cards
    named whole owning only their matching cells, `whole_owns_what_shows`, it lies on less
    than 0.55 of named cells and is named under the old bar too: off on both sides.)"""
    scene = wide_scene(15599, "french", "french40")
    then = replace(ONCE, whole_owns_what_shows=False)
    now = score_wide(Recognizer("french", "french40", options=then).recognize(
        scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("french", "french40", options=then, thresholds=Thresholds(
        max_named_share=0.55)).recognize(scene.frame, scene.camera), scene.truth)
    assert now.right == before.right + 1 == now.expected and now.false == before.false == 0


@pytest.mark.parametrize("seed, kind, false", [(15585, "french40", "3b"),
                                               (15522, "french52", "7s")])
def test_a_card_named_by_a_close_match_only_is_refused_when_its_index_reads_another(
        seed: int, kind: str, false: str) -> None:
    """Tune scenes, no calibration: a 3 of spades seen whole matched a 3 of clubs at 0.81,
    and a blurred 9 of spades, its outline cut short by a chip, a 7 at 0.77 (the bar is
    0.75); each index reads the card it is. Refused now; the other cards as before, or
    more. (The classifier reads the 3 of spades surely too, so the whole-card veto,
    whole_learned_veto, refuses the 3 of clubs as well, off in the arm before; its outline
    is then judged on what shows and named the 3 of spades.)"""
    scene = wide_scene(seed, "french", kind)
    now = score_wide(Recognizer("french", kind).recognize(scene.frame), scene.truth)
    before = score_wide(Recognizer("french", kind, options=Options(
        index_checks_whole=False, whole_learned_veto=False)).recognize(scene.frame),
        scene.truth)
    assert before.false == 1 and before.false_examples[0].startswith(f"{false}@")
    assert now.false == 0 and now.right >= before.right


@pytest.mark.parametrize("seed, code", [(17166, "6b"), (17189, "6d"), (17125, "5s")])
def test_a_covered_card_is_fitted_to_the_card_its_index_reads(seed: int, code: str) -> None:
    """Tune scenes french52, 47-60% of each card showing, one corner index in view: the
    hypothesis nearest the card was 4-7% of a card width off it (built from the corners of
    the cards around), enough to spoil the partial judge ("no card fits") and the classifier
    (another card, under 0.5), not the index reader (0.90-0.99 for the card). Fitted to the
    index's card, the part that shows fits it best and the index, read again, is sure. (With
    no search around the outline, `index_search`, which finds them either way.)"""
    scene = wide_scene(seed, "french", "french52")
    then = Options(**PRIOR, edge_snap=False, index_search=False)
    now = Recognizer("french", "french52", classifier=FRENCH_THEN, options=then,
                     index_net=INDEX_THEN).recognize(
        scene.frame, scene.camera)
    before = Recognizer("french", "french52", options=replace(then, index_fit=False),
                        classifier=FRENCH_THEN, index_net=INDEX_THEN).recognize(scene.frame, scene.camera)
    assert code in {d.code for d in now} and code not in {d.code for d in before}
    assert score_wide(now, scene.truth).false == 0 == score_wide(before, scene.truth).false


def test_a_card_named_whole_owns_only_the_cells_where_it_shows() -> None:
    """Tune scene napoletane 17055: a 3 of clubs 63% showing is named whole (its cover
    subtle enough for the whole judge); the jack of swords over it shows 66%, yet 73% of the
    jack lay on named outlines (the 3's whole outline and the 2 of clubs'), so it was never
    judged. The 3 now owns only its matching cells, and the jack is named."""
    scene = wide_scene(17055, "napoletane")
    now = Recognizer("napoletane").recognize(scene.frame, scene.camera)
    before = Recognizer("napoletane", options=Options(whole_owns_what_shows=False)).recognize(
        scene.frame, scene.camera)
    assert "Js" in {d.code for d in now} and "Js" not in {d.code for d in before}
    assert score_wide(now, scene.truth).false == 0 == score_wide(before, scene.truth).false


def test_a_card_the_partial_judge_nearly_names_is_named_when_the_classifier_agrees() -> None:
    """Tune scene napoletane 17451: a 5 of swords 67% showing. Fitted to it, what shows
    meets every limit of the partial judge but its separation (0.39 against 0.42), and the
    classifier names the same card at 0.89-0.95: the two nearly sure methods agreeing name
    it; nothing false. (With the weights it was made with: today's name it surely.)"""
    scene = wide_scene(17451, "napoletane")
    now = Recognizer("napoletane", classifier=NAPOLETANE_THEN, options=ONCE).recognize(
        scene.frame, scene.camera)
    before = Recognizer("napoletane", options=replace(ONCE, paired_near=False),
                        classifier=NAPOLETANE_THEN).recognize(scene.frame, scene.camera)
    assert "5s" in {d.code for d in now} and "5s" not in {d.code for d in before}
    assert score_wide(now, scene.truth).false == 0 == score_wide(before, scene.truth).false


@pytest.mark.parametrize("seed, code", [(17506, "3s"), (17499, "2b")])
def test_a_card_refitted_to_the_classifiers_card_is_named_when_nearly_and_agreeing(
        seed: int, code: str) -> None:
    """Tune scenes napoletane, 53-55% showing: the hypothesis nearest the card was 9% of a
    card off, so no card fit what shows; fitted to the classifier's card, the partial judge
    named it with every limit met but its separation (0.40-0.41), and the classifier, asked
    again on the fitted outline, names the same card: named; nothing false. (At the
    classifier's bar of then, 0.95: at 0.9 it names 17499's card on the first outline; and
    with the weights of then, 2026-11-27's: those trained on blanks name it unfitted; and
    without `alone_unranked`, which names 17506's alone.)"""
    scene = wide_scene(seed, "napoletane")
    then = Thresholds(learned_min_prob=0.95)
    ranked = replace(ONCE, alone_unranked=False)
    now = Recognizer("napoletane", thresholds=then, classifier=NAPOLETANE_20261127,
                     options=ranked).recognize(scene.frame, scene.camera)
    before = Recognizer("napoletane", thresholds=then, options=replace(ranked,
        paired_near_refit=False), classifier=NAPOLETANE_20261127).recognize(
        scene.frame, scene.camera)
    assert code in {d.code for d in now} and code not in {d.code for d in before}
    assert score_wide(now, scene.truth).false == 0 == score_wide(before, scene.truth).false


def _one_false_card_gone(scene: WideScene, now: Recognizer, before: Recognizer,
                         code: str) -> None:
    """`before` names one false card, a `code`; `now` none, and every other card as well."""
    was = score_wide(before.recognize(scene.frame, scene.camera), scene.truth)
    is_ = score_wide(now.recognize(scene.frame, scene.camera), scene.truth)
    assert was.false_examples[0].startswith(f"{code}@") and was.false == 1
    assert is_.false == 0 and is_.right == was.right


def _without_lookalikes(**options: bool) -> Options:
    """Options with the four look-alike rules off (each refuses several of the false cards
    below), `options` on top: a test of one rule, or of a rule made before them."""
    return Options(**{**PRIOR, "near_lookalike": False, "lookalike_refit": False,
                      "judged_lookalike": False, "learned_rival_refit": False,
                      "edge_snap": False, **options})


def test_a_card_nearly_named_must_be_nearer_than_a_quarter_towards_its_look_alike() -> None:
    """Held-out piacentine 9315711 (looked at after its report): a 7 of cups 43% showing
    under two aces fit a 6 of cups at separation 0.264, the classifier agreeing (0.83): named
    as nearly sure by both at `near_separation` 0.25, a false card. Refused at 0.3. (Without
    `near_lookalike`, which refuses it too; with the weights of 2026-11-27, as those trained
    on blanks do not name it at 0.25 either.)"""
    _one_false_card_gone(wide_scene(9315711, "piacentine", "italian40"),
                         Recognizer("piacentine", options=_without_lookalikes(),
                                    classifier=PIACENTINE_20261127),
                         Recognizer("piacentine", options=_without_lookalikes(),
                                    thresholds=Thresholds(near_separation=0.25),
                                    classifier=PIACENTINE_20261127),
                         "6c")


def test_a_card_the_last_frame_named_is_proposed_again_and_judged_whole() -> None:
    """Tune scene napoletane 20005: a 4 of cups seen whole that the outline hypotheses miss
    and only the localiser finds (so without it: a frame where sensor noise hid it from
    both). Its quad from a recognition with the localiser, handed over as a hint, proposes
    it again: named. A hint lying on the felt names nothing; nothing false either way."""
    scene = wide_scene(20005, "napoletane")
    quad = next(d.quad for d in Recognizer("napoletane").recognize(scene.frame, scene.camera)
                if d.code == "4c")
    rec = Recognizer("napoletane", options=Options(localiser=False))
    before = rec.recognize(scene.frame, scene.camera)
    hinted = rec.recognize(scene.frame, scene.camera, hints=[quad])
    on_felt = rec.recognize(scene.frame, scene.camera, hints=[quad + np.float32([0, 200])])
    assert "4c" not in {d.code for d in before} and "4c" in {d.code for d in hinted}
    assert sorted(d.code for d in on_felt) == sorted(d.code for d in before)
    assert score_wide(hinted, scene.truth).false == 0
    assert score_wide(hinted, scene.truth).right == score_wide(before, scene.truth).right + 1


def test_the_partial_judges_card_is_refused_when_the_classifier_is_more_likely_another(
        ) -> None:
    """Tune scene piacentine 20897: a 5 of cups 47% showing, its middle cup's edge under the
    cover, fit a 4 of cups on what shows (separation 0.445); the classifier of 2026-11-27
    takes it for the 5 at 0.68, under the veto's old bar (0.9): a false card. Refused at
    0.6 (`learned_veto_prob`); the scene's other cards as before. (Without the look-alike
    rules, which refuse it too; with those weights: the ones trained on blanks are less sure
    of the 5, under the veto's bar, and the look-alike rules refuse the 4 then.)"""
    _one_false_card_gone(wide_scene(20897, "piacentine", "italian40"),
                         Recognizer("piacentine", options=_without_lookalikes(),
                                    classifier=PIACENTINE_20261127),
                         Recognizer("piacentine", options=_without_lookalikes(),
                                    thresholds=Thresholds(learned_veto_prob=0.9),
                                    classifier=PIACENTINE_20261127),
                         "4c")


def test_a_covered_card_whose_look_alike_fits_as_well_is_refused() -> None:
    """Held-out piacentine 9,317,096 (looked at after its report, 2026-11-27: its range is
    spent): a 6 of cups 57% showing under a hand, named a 7 of cups (separation 0.366, the
    classifier agreeing at 0.76), a false card. Its outline fitted to the judge's closest
    look-alike, the 6 of cups, what shows names the 6 surely (0.44): one of two, refused
    (`rival_refit`); the scene's other cards as before. (With the weights it was made with:
    today's do not take the 7 for sure enough to pair with the judge; and without
    `near_lookalike`, which refuses it too.)"""
    assert 9_317_096 >= HELD_OUT_SEED_BASE
    _one_false_card_gone(wide_scene(9_317_096, "piacentine", "italian40"),
                         Recognizer("piacentine", options=_without_lookalikes(),
                                    classifier=PIACENTINE_BEFORE),
                         Recognizer("piacentine", options=_without_lookalikes(
                                    rival_refit=False),
                                    classifier=PIACENTINE_BEFORE), "7c")


def test_the_closest_look_alike_is_measured_on_the_cells_that_show() -> None:
    """A Piacentine 6 of cups showing its left column is a 7 of cups there (the 7's middle
    cup lies right of it): its closest look-alike, nearer than `near_lookalike_gap`; the
    Napoletane cards, whose columns differ, have none so near."""
    left = np.zeros((ROWS, COLS), bool)
    left[:, :2] = True
    rec = Recognizer("piacentine")
    six = rec.templates.labels.index("6c")
    card, gap = closest_lookalike(rec.templates.images, rec._label_ids, six, left)
    assert rec.templates.labels[card] == "7c" and gap < Thresholds().near_lookalike_gap
    whole = closest_lookalike(rec.templates.images, rec._label_ids, six, ~np.zeros_like(left))
    assert whole[1] > gap
    nap = Recognizer("napoletane")
    assert min(closest_lookalike(nap.templates.images, nap._label_ids, i, left)[1]
               for i in range(len(nap.templates.labels))) >= Thresholds().near_lookalike_gap


def test_look_alikes_from_cell_sums_are_the_same_as_from_pixels() -> None:
    """`Lookalikes` (per-cell sums, made once per card) answers as `closest_lookalike` does
    from the pixels, on random cells of random cards of two decks."""
    rng = np.random.default_rng(16)
    for rec in (Recognizer("piacentine"), Recognizer("french", "french52")):
        images, ids = rec.templates.images, rec._label_ids
        sums = Lookalikes(images, ids)
        for _ in range(60):
            win = int(rng.integers(len(images)))
            cells = rng.random((ROWS, COLS)) < rng.uniform(0.3, 1.0)
            cells[0, 0] = cells[-1, -1] = True
            card, gap = closest_lookalike(images, ids, win, cells)
            again = sums.closest(win, cells)
            assert again[1] == pytest.approx(gap, abs=1e-4)
            assert ids[again[0]] == ids[card] or again[1] == pytest.approx(gap, abs=1e-4)


def test_the_partial_judges_templates_at_once_keep_what_each_keeps_alone() -> None:
    """`visible_cells_of` (the four templates the partial judge tries, stacked) keeps the
    cells and the error `visible_cells` keeps on each template by itself (one pair's sums
    never leak into another's): every truth card's
    patch of a tune scene with covered cards, against its own and three other templates,
    with and without cells known hidden."""
    rec = Recognizer("napoletane", "italian40")
    scene = wide_scene(51810, "napoletane", "italian40")
    limits, sums = PartialLimits(), rec._cell_sums()
    hidden = np.zeros((ROWS, COLS), bool)
    hidden[:2, :] = True
    fits = 0
    for truth in scene.truth:
        patch = surroundings(scene.frame, order_quad(np.float32(truth.quad)), 0)
        own = rec.templates.labels.index(truth.code) if truth.code in rec.templates.labels \
            else 0
        chosen = np.array([own, (own + 7) % 80, (own + 21) % 80, (own + 40) % 80])
        for known in (None, hidden):
            cells, errors = visible_cells_of(patch, rec.templates.images, chosen, limits,
                                             sums, None, known)
            for k, i in enumerate(chosen):
                alone, error = visible_cells(patch, rec.templates.images[i], limits, None,
                                             sums[i], known)
                fit = error <= limits.max_error
                fits += fit
                assert (errors[k] <= limits.max_error) == fit
                if fit:
                    assert np.array_equal(cells[k], alone)
                    assert errors[k] == pytest.approx(error, abs=1e-4)
    assert fits > 0  # (some fit: the comparison is not of refusals only)


def test_every_move_of_a_search_is_judged_as_its_window_alone() -> None:
    """`shown_at` (all moves of a search at once, from integral images) keeps the cells and
    the error `visible_cells` keeps on each window by itself: a covered card's surroundings
    in a tune scene against every fourth template, moves on the search's grid."""
    rec = Recognizer("french", "french40")
    scene = wide_scene(51810, "french", "french40")
    truth = next(t for t in scene.truth if t.code == "6s")
    around = surroundings(scene.frame, order_quad(np.float32(truth.quad)), 8)
    limits, sums = PartialLimits(), rec._cell_sums()
    moves = [(x, y) for x in range(0, 17, 2) for y in range(0, 17, 3)]
    fits = 0
    for k in range(0, len(rec.templates.images), 4):
        template = rec.templates.images[k]
        shown = shown_at(around, template, sums[k], moves, limits)
        for (x, y), (cells, closeness) in zip(moves, shown, strict=True):
            alone, error = visible_cells(np.ascontiguousarray(around[y:y + 60, x:x + 40]),
                                         template, limits, None, sums[k])
            fit = error <= limits.max_error
            fits += fit
            assert cells == (int(alone.sum()) if fit else 0)
            assert closeness == pytest.approx(-error if fit else 0.0, abs=1e-4)
    assert fits > 0  # (some windows fit: the comparison is not of refusals only)


@pytest.mark.parametrize("kind, seed, code", [("french40", 51810, "6s"),
                                              ("french40", 51845, "Ac"),
                                              ("french52", 51771, "3b")])
def test_a_covered_french_card_is_searched_for_around_its_outline(kind: str, seed: int,
                                                                  code: str) -> None:
    """Tune scenes, 45-55% of each card showing, one corner index in view: every hypothesis
    near the card lay 5-16% of a card width off it (the 6 of spades' pips then read as a 3),
    too far for the pose fit; on its true outline the index reads it at >= 0.99 and the
    classifier at >= 0.97. Searched for as the card its index reads or the classifier
    guesses, a fifth of a width around, it is found and named as its index names a card."""
    scene, now, before = both_ways("french", seed, Options(**PRIOR, index_search=True),
                                   Options(**PRIOR, index_search=False), kind,
                                   index_net=INDEX_THEN)
    assert named_right(scene, now, code) and not named_right(scene, before, code)
    assert score_wide(now, scene.truth).false == 0 == score_wide(before, scene.truth).false


@pytest.mark.parametrize("seed", [9_319_343, 9_319_286])
def test_a_card_with_a_near_look_alike_needs_the_classifier_surer(seed: int) -> None:
    """Held-out piacentine (looked at after its report, 2026-11-27: spent), a 7 of cups
    showing its left column, the middle cup covered, named a 6 of cups. 9,319,343 (46%
    showing): the nearly-sure pair (separation 0.42, the classifier 0.93). 9,319,286 (51%):
    the pair refused, the classifier agreeing with the judge's card (0.954, over
    `learned_min_prob`). The 7 differs from the 6 little where it shows
    (`closest_lookalike`), so either way the classifier must reach `near_lookalike_prob`
    (0.96): refused; the scene's other cards as before. (Without `keep_better_fit`, whose
    first form refused 9,319,343's too; with the weights of then, 2026-11-27's: those trained
    on blanks do not name 9,319,343's 6 without the rule either.)"""
    assert seed >= HELD_OUT_SEED_BASE
    _one_false_card_gone(wide_scene(seed, "piacentine", "italian40"),
                         Recognizer("piacentine", options=_without_lookalikes(
                             near_lookalike=True, keep_better_fit=False),
                             classifier=PIACENTINE_20261127),
                         Recognizer("piacentine", options=_without_lookalikes(
                             keep_better_fit=False), classifier=PIACENTINE_20261127), "6c")


def test_a_covered_card_is_refused_when_its_closest_template_fits_as_well() -> None:
    """Held-out piacentine 9,319,897 (looked at after its report, 2026-11-27: spent): a 4 of
    cups 66% showing, a hand over its middle (where a 4 and a 5 of cups differ), named a 5
    by the partial judge (0.462). The judge's rival (nearest in the image) was a 7 of coins,
    so the rival refit tried that; the 4, the template nearest the 5 where it shows
    (`closest_lookalike`), named as surely on an outline fitted to it: refused
    (`lookalike_refit`)."""
    assert 9_319_897 >= HELD_OUT_SEED_BASE
    _one_false_card_gone(wide_scene(9_319_897, "piacentine", "italian40"),
                         Recognizer("piacentine",
                                    options=_without_lookalikes(lookalike_refit=True)),
                         Recognizer("piacentine", options=_without_lookalikes()), "5c")


def test_a_covered_card_is_refused_when_the_classifiers_second_guess_fits_as_well() -> None:
    """Held-out napoletane 9,320,164 (looked at after its report, 2026-11-27: spent): a 4 of
    cups 51% showing, named a 3 of cups by the nearly-sure pair (judge 0.388, classifier
    0.78; its second guess the 4, at 0.17). On an outline fitted to the 4, what shows names
    the 4 as surely: refused (`learned_rival_refit`); the scene's other cards as before.
    (With the weights of then, 2026-11-27's: those trained on blanks do not name the 3.)"""
    assert 9_320_164 >= HELD_OUT_SEED_BASE
    _one_false_card_gone(wide_scene(9_320_164, "napoletane"),
                         Recognizer("napoletane", classifier=NAPOLETANE_20261127,
                                    options=_without_lookalikes(learned_rival_refit=True)),
                         Recognizer("napoletane", options=_without_lookalikes(),
                                    classifier=NAPOLETANE_20261127), "3c")


def test_a_card_the_judge_names_with_a_near_look_alike_needs_the_classifier_sure() -> None:
    """Tune piacentine 23098: a 7 of cups 53% showing its left column, named a 6 by the
    partial judge (0.436) on an outline fitted to the classifier's 6 (0.93): the 7 differs
    from the 6 little where it shows, so the judge alone is not enough, the classifier must
    name the card at `near_lookalike_prob` (`judged_lookalike`): refused."""
    _one_false_card_gone(wide_scene(23098, "piacentine", "italian40"),
                         Recognizer("piacentine", options=_without_lookalikes(
                             judged_lookalike=True, cascade=False)),
                         Recognizer("piacentine", options=_without_lookalikes(cascade=False)),
                         "6c")


def test_a_card_refused_before_it_was_told_apart_still_has_its_look_alike_asked() -> None:
    """Held-out napoletane 9,323,648 (the seventeenth session's report, looked at after it:
    spent): a 7 of coins 45% showing was refused by the partial judge before it separated
    the 6 it fit from any look-alike, so the 6 carried no cells and no look-alike was
    asked; the classifier, agreeing at 0.94, named the 6. With the cells kept
    (`lookalike_unseparated`) its look-alike (a 5) is near, 0.94 is not sure enough:
    refused, the scene's other cards as before. (Those weights read the 6 at 0.95 and 0.92
    turned half round too: named so with `lookalike_both_ways`, off here; the current
    weights do not name it.)"""
    assert 9_323_648 >= HELD_OUT_SEED_BASE
    weights = blanks_weights("napoletane")  # (the newer weights do not name the 6 either way)
    one_way = Options(**PRIOR, lookalike_both_ways=False)
    _one_false_card_gone(wide_scene(9_323_648, "napoletane"),
                         Recognizer("napoletane", classifier=weights, options=one_way),
                         Recognizer("napoletane", options=replace(
                             one_way, lookalike_unseparated=False), classifier=weights),
                         "6d")


def test_a_french_card_with_a_near_look_alike_is_told_apart_by_its_index() -> None:
    """Tune french52 25217: a 3 of clubs the classifier names (0.6-0.9) whose nearest
    look-alike where it shows is the 3 of spades (the pips differ in shape only). A French
    card the classifier names must have its corner index read it, which tells the two
    apart: the look-alike rule does not refuse it then (without that, it was lost once
    `lookalike_unseparated` gave such cards their cells; the classifier reads it so both
    ways up too, which `lookalike_both_ways`, off here, would take)."""
    scene = wide_scene(25217, "french", "french52")
    rec = Recognizer("french", "french52", options=Options(edge_snap=False,
                                                           lookalike_both_ways=False))
    now = score_wide(rec.recognize(scene.frame, scene.camera), scene.truth)
    rec._index_confirms_learned = lambda: False  # type: ignore[method-assign]
    without = score_wide(rec.recognize(scene.frame, scene.camera), scene.truth)
    assert (now.right, now.false) == (3, 0)
    assert (without.right, without.false) == (2, 0)


def test_the_classifier_does_not_see_the_named_card_over_a_covered_one() -> None:
    """Held-out piacentine 9,323,738 (the seventeenth session's report, looked at after it:
    spent): a 7 of cups 53% showing, its right half under another 7 of cups named whole,
    whose cups stood where a 6's right column stands: no template fit what showed and the
    classifier alone named a 6 at 0.99 (the weights before, kept in tests/data). The
    weights trained on blanked covers, shown the crop with what lies on the named card
    blanked (`learned_blanks_named`), give the 6 about 0.6: refused even at a bar of 0.9,
    where without the blank (0.97) it is named, a false card. (Without the telling check,
    newer, which refuses that 6 too: what shows of the 7 is as much a 6's.)"""
    assert 9_323_738 >= HELD_OUT_SEED_BASE
    scene = wide_scene(9_323_738, "piacentine", "italian40")
    weights = blanks_weights("piacentine")  # (the newer weights do not name the 6 either way)
    then = Options(telling_check=False)
    for bar in (0.95, 0.9):
        _one_false_card_gone(scene, Recognizer("piacentine", thresholds=Thresholds(
                                 learned_alone_prob=bar), options=then, classifier=weights),
                             Recognizer("piacentine", thresholds=Thresholds(
                                 learned_alone_prob=bar),
                                 options=replace(then, learned_blanks_named=False),
                                 classifier=weights), "6c")
    before = Recognizer("piacentine", options=then, classifier=PIACENTINE_20261127)
    assert not before._classifier.blanks  # never blanked for weights not trained so
    found = score_wide(before.recognize(scene.frame, scene.camera), scene.truth)
    assert found.false_examples[0].startswith("6c@")


def test_a_pose_fit_that_judges_the_card_worse_is_not_kept() -> None:
    """Tune napoletane 24730 (a live deal's miss, the still scene alike): a queen of swords
    95% showing, a white chip and a highlight on it, is nearly named by the partial judge
    (0.35, 10 cells); the pose fitted to it slid off and the judge found nothing there, so
    the classifier, agreeing on the first outline (0.95), had no judge to pair with. Kept
    only when it judges the card at least as well (`keep_better_fit`): the queen and the
    king beside her named, nothing false. (With the weights of then, 2026-11-27's: those
    trained on blanks name the queen either way.)"""
    scene = wide_scene(24730, "napoletane")
    then = Options(**PRIOR)
    now = score_wide(Recognizer("napoletane", options=then, classifier=NAPOLETANE_20261127)
                     .recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("napoletane", options=replace(then, keep_better_fit=False),
                                   classifier=NAPOLETANE_20261127)
                        .recognize(scene.frame, scene.camera), scene.truth)
    assert (now.right, now.false) == (now.expected, 0) == (4, 0)
    assert (before.right, before.false) == (2, 0)


def test_a_pose_fit_that_names_another_card_is_kept() -> None:
    """Held-out deal piacentine 9,100,456, frame 43 (looked at after its report, 2026-11-27:
    spent): a 6 of cups 60% showing, nearly judged a 7; fitted to the 7, judged a 6. Keeping
    the first outline as well whenever the fit judged the card less well (the first
    `keep_better_fit`), the classifier named it a 7 there (0.965): a false report. A fit that
    names another card is kept (it is evidence); only one that finds no card is dropped."""
    deal = wide_deal(9_100_456, "piacentine", "italian40")
    frame = next(islice(deal.frames, 43, None))
    rec = Recognizer("piacentine")
    rec.view(deal.camera)
    found = score_wide(rec.recognize(frame.frame, deal.camera), frame.truth)
    assert found.false == 0 and found.right >= 2


def test_a_covered_card_must_be_0_43_towards_its_card_from_every_look_alike() -> None:
    """Held-out french40 9315722 (looked at after its report): a 3 of clubs 73% showing fit
    a 6 of clubs at separation 0.421 on 10 cells, over the bar of then (0.42): a false card.
    At 0.43 (`PartialLimits.min_separation`) it is refused, and the 3 is named right on
    another outline."""
    scene = wide_scene(9315722, "french", "french40")
    now = score_wide(Recognizer("french", "french40", options=FIRST_COME).recognize(
        scene.frame, scene.camera),
                     scene.truth)
    before = score_wide(Recognizer("french", "french40", thresholds=Thresholds(
        partial=PartialLimits(min_separation=0.42)), options=FIRST_COME).recognize(
        scene.frame, scene.camera),
        scene.truth)
    assert before.false_examples[0].startswith("6c@") and before.false == 1
    assert now.false == 0 and now.right == before.right + 1 == now.expected


def test_a_french_card_nearly_named_needs_its_index_in_view() -> None:
    """Held-out scene french52 9,309,392 (looked at after its report, 2026-11-26: its range
    is spent): a covered card nearly named by the partial judge with the classifier agreeing
    (`paired_near_refit`) was a false card; named so, a French card now needs an index corner
    reading it, as one the classifier names does. Refused now, nothing else changed (on
    1,400 tune scenes of each French deck, 17,400-18,099, no card changed either way).
    (Without `near_lookalike`, which refuses it too.)"""
    assert 9_309_392 >= HELD_OUT_SEED_BASE  # a spent held-out scene
    scene = wide_scene(9_309_392, "french", "french52")
    # (without `refit_needs_index`, newer, which refuses it too)
    now = score_wide(Recognizer("french", "french52", options=_without_lookalikes(
        refit_needs_index=False)).recognize(scene.frame, scene.camera), scene.truth)
    before = score_wide(Recognizer("french", "french52", options=_without_lookalikes(
        near_index_confirms=False, refit_needs_index=False)).recognize(
            scene.frame, scene.camera), scene.truth)
    assert before.false == 1 and now.false == 0 and now.right == before.right


@pytest.mark.parametrize(("seed", "code"), [(26_849, "Ks"), (26_956, "5d")])
def test_a_covered_card_refitted_to_the_classifiers_card_is_put_to_it_again(
        seed: int, code: str) -> None:
    """Tune napoletane scenes (the first tune range the option was tried on): a covered card
    refused by every judge on its first outline (a king 48% showing: no card fitted what
    showed, so the classifier, though it named the king, had to be surer both ways up),
    refitted to the classifier's card; the partial judge then takes it for that card, not
    surely, and the classifier, asked again on the fitted outline with that card expected,
    names it at 0.99 (`learned_on_fit`): named, nothing false."""
    scene = wide_scene(seed, "napoletane")
    now = Recognizer("napoletane", options=Options(**PRIOR, edge_snap=False)).recognize(
        scene.frame, scene.camera)
    before = Recognizer("napoletane", options=Options(**PRIOR, learned_on_fit=False,
                                                      edge_snap=False)).recognize(
        scene.frame, scene.camera)
    assert code in {d.code for d in now} and code not in {d.code for d in before}
    now_tally, before_tally = score_wide(now, scene.truth), score_wide(before, scene.truth)
    assert now_tally.false == 0 == before_tally.false
    assert now_tally.right == before_tally.right + 1


class _ForgetsDoubts(Recognizer):
    """`_learned_on_fit` without the outlines doubted before (a fresh list each time)."""

    def _learned_on_fit(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return super()._learned_on_fit(*args[:-1], [], **kwargs)


def test_a_card_doubted_on_one_outline_is_not_named_from_another() -> None:
    """Tune piacentine 26,770: a 7 of cups 41% showing. On one outline the partial judge
    and the classifier (0.92) took it for a 6, its look-alike the 7: doubted, refused. A
    second outline of the same card, refitted to the 6, had the classifier at 0.97: asked
    again there (`learned_on_fit`), it would be named a 6, a false card; the doubt on the
    first outline refuses it. (Those weights read the 6 at 0.94 and 0.99 turned half round
    on the first outline: `lookalike_both_ways`, off here, names it; the current weights do
    not.)"""
    scene = wide_scene(26_770, "piacentine")
    weights = blanks_weights("piacentine")  # (the newer weights: test_rival_doubts below)
    # (rival_doubts: newer)
    alone = Options(**PRIOR, rival_doubts=False, lookalike_both_ways=False)
    _one_false_card_gone(scene, Recognizer("piacentine", classifier=weights, options=alone),
                         _ForgetsDoubts("piacentine", classifier=weights, options=alone), "6c")


def test_a_card_refused_as_its_look_alike_is_doubted_on_every_outline() -> None:
    """Tune piacentine 26,770 with the twenty-second session's weights: sure enough of a 6
    of cups (0.96) on the 7's first outline not to doubt it there, yet refused as the 7 fits
    what shows as well (`_rival_fits`); second outlines refitted to the 6 were named (the
    classifier asked again at 0.99, the partial judge), a false card. Refused as its look-
    alike, the card is doubted (Options.rival_doubts), and no outline at that place names it."""
    scene = wide_scene(26_770, "piacentine")
    _one_false_card_gone(scene, Recognizer("piacentine"),
                         Recognizer("piacentine", options=Options(rival_doubts=False)), "6c")


def test_a_card_put_to_the_classifier_again_must_read_so_turned_half_round() -> None:
    """Spent held-out napoletane 9,327,661 (the nineteenth session's report, looked at after
    it): a tight cascade of a king of cups, a 4 of coins, a 7 of cups and a 6 of swords, each
    30% showing. An outline across the king, refitted to a 7 of cups (the partial judge
    taking it for one on 3 cells), read a 7 of cups at 0.97 once put to the classifier again
    (`learned_on_fit`): a false card, the real 7 a third of a card away. Turned half round,
    the crop reads a 7 at 0.74 only (`learned_on_fit_turned`): refused."""
    assert 9_327_661 >= HELD_OUT_SEED_BASE
    scene = wide_scene(9_327_661, "napoletane")
    weights = blanks_weights("napoletane")  # (the straddle-trained weights refuse it either way)
    _one_false_card_gone(scene, Recognizer("napoletane", classifier=weights), Recognizer(
        "napoletane", options=Options(learned_on_fit_turned=False), classifier=weights), "7c")


def test_a_hypothesis_the_quick_match_drops_is_judged_when_the_classifier_names_a_card() -> None:
    """Tune napoletane 38,443: a king of cups 53% showing under the next card of a hand. Its
    outline hypothesis correlates 0.14 with the king's whole template at the small size,
    under `partial_quick` (0.15), so it was never judged on what shows; the classifier reads
    the king there at 0.98. With `learned_quick` it is judged, refitted and named right."""
    scene, on, off = both_ways("napoletane", 38_443, Options(), Options(learned_quick=False))
    assert named_right(scene, on, "Kc")
    assert not named_right(scene, off, "Kc")
    assert len(on) == len(off) + 1


def test_a_cascades_card_the_classifier_names_is_kept_when_its_index_reads_it_surely() -> None:
    """Tune french40 41,252: a 3 of diamonds 54% showing in a tight cascade, read at 0.996
    by the classifier both ways up, its index in plain view. Over 90% of its outline lies on
    the outlines of the cards before and after it, both named by the classifier, so
    `learned_yields` refused it; with `index_outweighs_yield` its index, reading it surely,
    keeps it."""
    scene, on, off = both_ways("french", 41_252, FIRST_COME,
                               replace(FIRST_COME, index_outweighs_yield=False), "french40")
    assert named_right(scene, on, "3d")
    assert not named_right(scene, off, "3d")
    assert len(on) == len(off) + 1


def test_a_cascades_card_read_surely_both_ways_and_fitting_best_is_kept() -> None:
    """Tune piacentine 53,357: a 6 of coins 52% showing in a cascade of seven, over a 3 of
    swords and under a queen of coins. The classifier names the 3 (which owns nothing, so
    claims its outline), and over 90% of the 6's outline lies on their outlines:
    `learned_yields` refused it, though the classifier reads it at 0.985 and the partial
    judge's best fit there is the 6 too. With no index to read, both readings and the fit
    agreeing keep it (`learned_outweighs_yield`); the false 7 of coins that rule is for
    (napoletane 9316142, above) is read at 0.957."""
    scene, on, off = both_ways("piacentine", 53_357, Options(**PRIOR),
                               Options(**PRIOR, learned_outweighs_yield=False))
    assert named_right(scene, on, "6d")
    assert not named_right(scene, off, "6d")
    assert len(on) == len(off) + 1
    assert score_wide(on, scene.truth).false == 0


def test_a_card_the_classifier_reads_so_both_ways_up_is_told_from_its_lookalike() -> None:
    """Tune napoletane 43,367: a 5 of coins 47% showing, which the partial judge names; its
    look-alike, the 4, differs little where it shows, and the classifier reads the 5 at
    0.91 (0.985 turned half round), under `near_lookalike_prob` (0.96), so `judged_unsure`
    refused it. Both readings at `lookalike_both_ways_prob` (0.9) name it."""
    scene, on, off = both_ways("napoletane", 43_367, Options(**PRIOR),
                               Options(**PRIOR, lookalike_both_ways=False))
    assert named_right(scene, on, "5d")
    assert not named_right(scene, off, "5d")
    assert len(on) == len(off) + 1


def test_a_covered_card_the_classifier_reads_so_both_ways_up_is_not_doubted() -> None:
    """Tune napoletane 43,286: a 6 of cups 60% showing, whose look-alike (the 7) differs
    little where it shows; the classifier names it at 0.95 (0.99 turned), under
    `near_lookalike_prob`, so `_lookalike_unsure` refused it (the covered cards' flow)."""
    scene, on, off = both_ways("napoletane", 43_286, Options(**PRIOR),
                               Options(**PRIOR, lookalike_both_ways=False))
    assert named_right(scene, on, "6c")
    assert not named_right(scene, off, "6c")


def test_a_card_fitted_to_the_classifiers_lookalike_is_not_named_so() -> None:
    """Tune piacentine 44,354: a 6 of cups 39% showing (too little to count), which the
    partial judge fits best as a 6 and the classifier reads a 7 at 0.9. Fitted to the 7
    (`_refit_to_learned`) the judge takes it for a 7 and the classifier reads a 7 at 0.976:
    named, a false card. The judge fitted the look-alike best before the fit moved a few
    pixels of outline: doubted (`fit_lookalike_doubts`)."""
    then = Options(**PRIOR)
    _one_false_card_gone(wide_scene(44_354, "piacentine"), Recognizer("piacentine", options=then),
                         Recognizer("piacentine",
                                    options=replace(then, fit_lookalike_doubts=False)), "7c")


def test_a_card_the_classifier_names_alone_surest_needs_not_rank_first() -> None:
    """Tune napoletane 43,310: a 3 of swords 57% showing that no template fits on what shows
    (the partial judge's few whole-card candidates ranked by the card over it), read at
    0.989 and 0.997 turned half round; the classifier alone names a card only as the crop's
    best template match, and the 3 ranks nowhere near. At `alone_unranked_prob` (0.985)
    both ways up it needs not (`alone_unranked`). (Without `covered_by_quick`, whose order
    names it otherwise.)"""
    scene, on, off = both_ways("napoletane", 43_310, FIRST_COME,
                               replace(FIRST_COME, alone_unranked=False))
    assert named_right(scene, on, "3s")
    assert not named_right(scene, off, "3s")
    assert len(on) == len(off) + 1


def test_the_card_on_top_of_a_cascade_is_judged_before_the_cards_under_it() -> None:
    """Held-out deal french40 9,100,657 (the twenty-sixth session's live report, looked at
    after it: spent), frame 54: a 5 of hearts 93% showing at the end of a tight cascade, a
    chip over its corner, so the whole judge refused it. Among the hypotheses judged on
    what shows, the jack of clubs under it (16% showing) came first, named from its corner
    index, and the 5's hypothesis, its centre near the jack's, was then taken. Judged best
    quick match first (`covered_by_quick`), the 5 is named."""
    deal = wide_deal(9_100_657, "french", "french40")
    frame = next(f for n, f in enumerate(deal.frames) if n == 54)
    five = next(t for t in frame.truth if t.code == "5c")
    assert five.visible > 0.9

    def named(options: Options) -> bool:
        found = Recognizer("french", "french40", options=options).recognize(
            frame.frame, deal.camera)
        return any(d.code == "5c" and inside(five, d.center) for d in found)

    assert named(Options())
    assert not named(Options(covered_by_quick=False))


def test_what_covered_cards_own_carries_over_to_the_cascade_s_hypotheses() -> None:
    """Tune napoletane 49,114: a 5 of cups 47% showing, a 5 of coins 43% showing lying
    partly under it and partly over it, which the classifier names first (owning nothing:
    `learned_owns_nothing`). The cascade's hypotheses came after, where every named card
    owned its whole outline anew: the 5 of coins' then held 56% of the 5 of cups, too much
    of it to judge (`max_named_share`). What the first pass owned carries over
    (`ownership_carries`): the 5 of cups is named, nothing false."""
    scene, on, off = both_ways("napoletane", 49_114, Options(),
                               Options(ownership_carries=False))
    assert named_right(scene, on, "5c") and not named_right(scene, off, "5c")
    assert score_wide(on, scene.truth).false == 0
    assert {d.code for d in off} < {d.code for d in on}


def test_one_card_is_one_detection_where_two_outlines_name_it() -> None:
    """Tune napoletane 49,167: a cascade of a 4 of swords, a 5 of coins, a 6 of cups and a
    7 of swords, 60-66% of each showing. Where hypotheses 0.3 of a card from a named one
    are judged too (`taken_within` 0.3, tried), the 6 of cups is named, and an outline a
    third of a card off the 7, across it and the 6, is named a 7 again by the classifier:
    within `same_card_apart` of each other the two 7s are one detection."""
    scene = wide_scene(49_167, "napoletane")

    def found(th: Thresholds) -> list[Detection]:
        return Recognizer("napoletane", thresholds=th).recognize(scene.frame, scene.camera)

    near = found(Thresholds(taken_within=0.3))
    tally = score_wide(near, scene.truth)
    assert tally.right == tally.expected == 5 and tally.false == tally.twice == 0
    assert score_wide(found(Thresholds(taken_within=0.3, same_card_apart=0.0)),
                      scene.truth).twice == 1


def test_two_copies_of_a_card_half_a_card_apart_are_two_detections() -> None:
    """An eight-deck shoe may lay one card twice: its copies half a card apart each show
    enough to count, so both stay; 0.4 of a card apart (under 45% of the one below shows)
    they are one card."""
    quad = np.float32([[0, 0], [60, 0], [60, 90], [0, 90]])
    rec = Recognizer("french", "french52")
    one = Detection("7s", quad, 0.9, 0.5, 0.1)
    assert rec._apart(Detection("7s", quad + np.float32([30, 0]), 0.9, 0.5, 0.1), one)
    assert not rec._apart(Detection("7s", quad + np.float32([24, 0]), 0.9, 0.5, 0.1), one)
    assert rec._apart(Detection("7c", quad + np.float32([21, 0]), 0.9, 0.5, 0.1), one)


def test_a_card_only_the_classifier_names_must_read_so_turned_half_round() -> None:
    """Held-out piacentine 9,353,167 (spent: looked at after its report, 2026-11-29): an
    outline across a king of swords and a 6 of cups 50% showing, read a 5 of cups at 0.90
    one way up and 0.30 the other, named by the classifier (the partial judge fitting a 5
    best on two cells, not surely): a false card. With no corner index to confirm it, the
    turned crop must read it too (`Options.learned_turned`, at `learned_turned_prob`):
    refused, the other cards as before."""
    assert 9_353_167 >= HELD_OUT_SEED_BASE
    _one_false_card_gone(wide_scene(9_353_167, "piacentine", "italian40"),
                         Recognizer("piacentine", "italian40", options=Options(**PRIOR)),
                         Recognizer("piacentine", "italian40",
                                    options=Options(**PRIOR, learned_turned=False)), "5c")


def test_a_french_card_the_classifier_names_is_confirmed_by_its_index_not_turned() -> None:
    """The turned reading is asked only where no corner index confirms the classifier's
    card: a French recogniser never asks it."""
    crop = np.zeros((CANON_H, CANON_W, 3), np.float32)
    assert not Recognizer("french", "french52")._unconfirmed_turned(crop, "5d")
    assert Recognizer("napoletane", "italian40")._unconfirmed_turned(crop, "5d")
