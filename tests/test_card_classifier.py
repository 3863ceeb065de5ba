"""The learned card classifier (devices/camera/card_classifier.py): the forward pass
(onnxruntime against the numpy reference), the shipped weights on crops of the scenes they were
trained on (tune seeds from 100,000), and the recogniser taking its word only when it is sure
and the templates agree."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from devices.camera.card_classifier import (
    OTHER,
    CardClassifier,
    canonical_crop,
    card_classifier,
)
from devices.camera.index_reader import INDEX_H, INDEX_W, index_reader
from devices.camera.recognizer import Options, Recognizer, order_quad
from devices.camera.templates import BACK, CANON_H, CANON_W
from devices.camera.training.crops import (
    _jitter,
    _near_a_card,
    _straddling,
    ambiguous_cards,
    scene_crops,
)
from devices.camera.training.crops import crops as scene_range_crops
from devices.camera.training.train_card_classifier import save
from devices.camera.wide_scenes import labelled_wide_scene, wide_scene
from devices.camera.wide_scoring import WideTally, score_wide
from tests.wide_cards import blanks_weights, named_right

ARTS = [("napoletane", "italian40"), ("piacentine", "italian40"), ("french", "french52")]


def _tiny(rng: np.random.Generator) -> CardClassifier:
    convs = tuple((rng.normal(0, 0.3, (o, i * 9)).astype(np.float32),
                   rng.normal(0, 0.1, o).astype(np.float32)) for i, o in ((3, 4), (4, 4), (4, 4)))
    dense = ((rng.normal(0, 0.1, (8, 4 * 7 * 5)).astype(np.float32), np.zeros(8, np.float32)),
             (rng.normal(0, 0.3, (3, 8)).astype(np.float32), np.zeros(3, np.float32)))
    return CardClassifier(("1c", BACK, OTHER), convs, dense)


def test_forward_pass_gives_a_distribution_and_weights_round_trip(tmp_path) -> None:
    rng = np.random.default_rng(1)
    clf = _tiny(rng)
    crop = rng.normal(0, 1, (CANON_H, CANON_W, 3)).astype(np.float32)
    p = clf.probabilities(crop)
    assert p.shape == (3,) and p.sum() == pytest.approx(1.0, abs=1e-5) and (p > 0).all()
    path = tmp_path / "w.npz"
    save(clf, path)
    again = CardClassifier.load(path)
    assert again.labels == clf.labels
    assert np.allclose(again.logits(crop), clf.logits(crop), atol=0.02)  # float16 weights
    label, prob = clf.best(crop, frozenset({BACK, OTHER}))  # a deck without the 1c
    assert label in (BACK, OTHER) and prob >= 0.5
    ranked = clf.ranked(crop, count=3)
    assert [lab for lab, _ in ranked] == [clf.labels[i] for i in np.argsort(-p)]
    assert [q for _, q in ranked] == pytest.approx(sorted(p, reverse=True))
    first, second = clf.ranked(crop, frozenset({BACK, OTHER}))
    assert first == (label, prob) and {first[0], second[0]} == {BACK, OTHER}
    assert first[1] + second[1] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("art", ["napoletane", "piacentine", "french", None])
def test_the_onnx_network_computes_what_the_numpy_reference_does(art: str | None) -> None:
    """The classifier runs as ONNX in onnxruntime (`logits`); its outputs are the
    layer-by-layer numpy definition's (`reference_logits`), for the shipped weights and for a
    small network of any shape."""
    rng = np.random.default_rng(3)
    clf = card_classifier(art) if art else _tiny(rng)
    assert clf is not None
    for _ in range(20):
        crop = rng.normal(0, 1, (CANON_H, CANON_W, 3)).astype(np.float32)
        assert np.abs(clf.logits(crop) - clf.reference_logits(crop)).max() < 1e-4


def test_the_index_readers_network_runs_on_its_own_crop_size() -> None:
    """The index reader is a network of the same kind on 32x24 corner crops."""
    reader = index_reader()
    assert reader is not None
    rng = np.random.default_rng(5)
    for _ in range(10):
        crop = rng.normal(0, 1, (INDEX_H, INDEX_W, 3)).astype(np.float32)
        assert np.abs(reader.net.logits(crop) - reader.net.reference_logits(crop)).max() < 1e-4


def test_threads_classifying_at_once_get_the_references_answers() -> None:
    """Tables recognise in worker threads: two threads classifying at once with one
    classifier (one onnxruntime session) each get the reference's answers (a cv2.dnn.Net,
    which ran it before, gave wrong ones when shared)."""
    clf = card_classifier("napoletane")
    assert clf is not None
    rng = np.random.default_rng(4)
    crops = rng.normal(0, 1, (2, 30, CANON_H, CANON_W, 3)).astype(np.float32)
    expected = [[clf.reference_logits(c) for c in batch] for batch in crops]
    start = threading.Barrier(2)
    got: dict[int, list[np.ndarray]] = {}

    def run(k: int) -> None:
        start.wait()
        got[k] = [clf.logits(c) for c in crops[k]]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(2):
        assert all(np.abs(a - b).max() < 1e-4 for a, b in zip(got[k], expected[k], strict=True))


@pytest.mark.parametrize("art, kind", ARTS)
def test_shipped_weights_name_held_in_crops(art: str, kind: str) -> None:
    clf = card_classifier(art)
    assert clf is not None, "weights are shipped for every art"
    right = cards = others = refused_others = 0
    for seed in range(100_000, 100_004):  # training seeds (held in)
        rng = np.random.default_rng([seed, 7])
        for crop, label in scene_crops(wide_scene(seed, art, kind), rng):
            name, _ = clf.best(crop)
            if label == OTHER:
                others += 1
                refused_others += name in (OTHER, BACK)
            else:
                cards += 1
                right += name == label
    assert cards >= 20 and right >= 0.9 * cards
    assert others >= 20 and refused_others >= 0.9 * others


def test_felt_is_not_named() -> None:
    rec = Recognizer("french", "french52")
    quad = np.float32([[20, 20], [100, 20], [100, 140], [20, 140]])  # a card's size
    felt = np.zeros((720, 1280, 3), np.uint8)
    felt[:] = (40, 110, 30)
    felt = (felt + np.random.default_rng(0).normal(0, 4, felt.shape)).clip(0, 255)
    felt = felt.astype(np.uint8)
    name, _ = card_classifier("french").best(canonical_crop(felt, quad))
    assert name in (OTHER, BACK)
    assert rec._learned(felt, quad, None) is None
    noise = np.random.default_rng(0).integers(0, 255, felt.shape, np.uint8)
    assert rec._learned(noise, quad, None) is None


@pytest.mark.parametrize("art, kind", [("piacentine", "italian40"), ("french", "french40")])
def test_classifier_adds_cards_and_no_false_ones(art: str, kind: str) -> None:
    with_clf, without = WideTally(), WideTally()
    # (hypotheses moved onto their edges or searched for around them, newer, name the French
    # card another way)
    then = Options(rescue=False, edge_snap=False, index_search=False)
    rec = Recognizer(art, kind, options=then)
    plain = Recognizer(art, kind, options=replace(then, learned=False))
    for seed in range(100, 130):  # tune seeds the classifier was not trained on
        scene = wide_scene(seed, art, kind)
        with_clf.add(score_wide(rec.recognize(scene.frame, scene.camera), scene.truth))
        without.add(score_wide(plain.recognize(scene.frame, scene.camera), scene.truth))
    assert with_clf.false == 0
    assert with_clf.right > without.right


def test_products_in_blocks_are_the_plain_products() -> None:
    """The forward pass multiplies in row blocks (BLAS kept on one thread): same numbers."""
    from devices.camera.card_classifier import _matvec, _rows_product

    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2400, 27)).astype(np.float32), rng.normal(size=(27, 12))
    w, x = rng.normal(size=(64, 1680)).astype(np.float32), rng.normal(size=1680)
    assert np.allclose(_rows_product(a, b.astype(np.float32)), a @ b.astype(np.float32),
                       atol=1e-5)
    assert np.allclose(_matvec(w, x.astype(np.float32)), w @ x.astype(np.float32), atol=1e-4)


@pytest.mark.parametrize("art, kind, seeds", [("napoletane", "italian40", range(210, 240)),
                                              ("french", "french40", range(255, 280))])
def test_classifier_alone_adds_cards_where_nothing_fits_what_shows(art: str, kind: str,
                                                                   seeds: range) -> None:
    """Where the partial judge finds no card at all, the classifier names one only when very
    sure and its card is the crop's best template match: more cards, none false."""
    from devices.camera.recognizer import Options, Thresholds

    # the localiser's proposals before its turned and fallback cards, no fit from a low
    # start, and no naming of a card refitted to the classifier's, nearly named or put to it
    # again, nor hypotheses moved onto their edges or searched for around them (which name
    # some of these cards another way): this judges the classifier's rule in the pipeline it
    # was made in
    earlier = Options(rescue=False, localiser_turns=False, localiser_fallback=False,
                      fit_low_start=False, paired_near_refit=False, learned_on_fit=False,
                      edge_snap=False, index_search=False)
    alone, paired = WideTally(), WideTally()
    rec = Recognizer(art, kind, options=earlier)
    without = Recognizer(art, kind, options=earlier, thresholds=Thresholds(learned_alone_prob=1.01))
    for seed in seeds:  # tune seeds the classifier was not trained on
        scene = wide_scene(seed, art, kind)
        alone.add(score_wide(rec.recognize(scene.frame, scene.camera), scene.truth))
        paired.add(score_wide(without.recognize(scene.frame, scene.camera), scene.truth))
    assert alone.false == 0
    assert alone.right > paired.right


def test_cover_with_card_hides_a_band_or_a_corner_with_the_other_card() -> None:
    """The training cover (a card lying over this one) takes a band from one edge or one
    corner from the other crop, never more than ~55% nor the whole of either."""
    from devices.camera.training.train_card_classifier import _cover_with_card

    rng = np.random.default_rng(5)
    x = np.zeros((3, CANON_H, CANON_W), np.float32)
    other = np.ones_like(x)
    shares = []
    for _ in range(200):
        covered = _cover_with_card(x, other, rng)[0]
        assert set(np.unique(covered)) <= {0.0, 1.0}
        rows, cols = np.nonzero(covered)
        r0, r1, c0, c1 = rows.min(), rows.max(), cols.min(), cols.max()
        assert covered[r0:r1 + 1, c0:c1 + 1].all()  # one rectangle ...
        assert r0 == 0 or c0 == 0 or r1 == CANON_H - 1 or c1 == CANON_W - 1  # ... at an edge
        shares.append(float(covered.mean()))
    assert 0.05 < min(shares) and max(shares) < 0.6
    assert not x.any()  # the crop given is not changed


def test_a_deeper_cover_hides_up_to_its_depth() -> None:
    """--cover-depth 0.65: bands and corners hide up to ~65% of the crop, and more often past
    the default's 55% than never."""
    from devices.camera.training.train_card_classifier import _cover_with_card

    rng = np.random.default_rng(6)
    x = np.zeros((3, CANON_H, CANON_W), np.float32)
    other = np.ones_like(x)
    shares = [float(_cover_with_card(x, other, rng, 0.65)[0].mean()) for _ in range(400)]
    assert max(shares) < 0.7
    assert sum(s > 0.56 for s in shares) >= 20


def test_a_blob_cover_reaches_in_from_an_edge() -> None:
    """--blob: a rounded object over part of the crop, touching an edge, hiding 10-70% where
    it draws at all (a hand or a sleeve), the crop given unchanged."""
    from devices.camera.training.train_card_classifier import _cover_with_blob

    rng = np.random.default_rng(7)
    x = np.zeros((3, CANON_H, CANON_W), np.float32)
    drawn = 0
    for _ in range(100):
        covered = np.abs(_cover_with_blob(x, rng)).sum(axis=0) > 0.05
        if not covered.any():
            continue
        drawn += 1
        assert 0.05 < covered.mean() < 0.75
        assert covered[0].any() or covered[-1].any() or covered[:, 0].any() or \
            covered[:, -1].any()
    assert drawn >= 50
    assert not x.any()


def test_covered_cards_give_more_crops_when_asked() -> None:
    """--covered-jitters: a card showing under 70% is cut that many times, every other card
    that shows enough 4 times, as without it."""
    scenes = (wide_scene(seed, "piacentine", "italian40") for seed in range(100_000, 100_040))
    scene = next(s for s in scenes if any(0.4 <= t.visible < 0.7 for t in s.truth))

    def cards(crops: list[tuple[np.ndarray, str]]) -> int:
        return sum(label != OTHER for _, label in crops)

    shown = [t.visible for t in scene.truth if t.visible >= 0.4]
    assert cards(scene_crops(scene, np.random.default_rng(1))) == 4 * len(shown)
    assert cards(scene_crops(scene, np.random.default_rng(1), covered_jitters=12)) == sum(
        12 if v < 0.7 else 4 for v in shown)


def test_a_covered_card_another_card_shares_what_shows_of_is_cut_as_no_card() -> None:
    """--ambiguous-below: held-out piacentine 9,349,155 (spent: looked at after its report),
    a 7 of cups 50% showing, its middle cup under a 3 of swords, is a 6 of cups on every
    pixel that shows (the recogniser named it a 6). Its crops are OTHER; the other cards',
    the 3 of swords 47% showing included, keep their codes."""
    scene, labels = labelled_wide_scene(9_349_155, "piacentine", "italian40")
    seven = next(i for i, t in enumerate(scene.truth) if t.code == "7c")
    assert ambiguous_cards(scene, labels, "piacentine", "italian40", 10) == {seven}
    plain = scene_crops(scene, np.random.default_rng(3), covered_jitters=12)
    marked = scene_crops(scene, np.random.default_rng(3), covered_jitters=12, ambiguous={seven})
    assert [a[1] for a in plain].count("7c") == 12
    assert [a[1] for a in marked].count("7c") == 0
    assert [a[1] for a in marked].count(OTHER) == [a[1] for a in plain].count(OTHER) + 12
    assert "3s" in {label for _, label in marked}


def test_straddling_crops_lie_across_cards_and_on_none() -> None:
    """--straddles: OTHER crops of outlines moved across a card's neighbours, each centred on a
    card and a quarter card or more from every card; the crops without them unchanged."""
    rng = np.random.default_rng(2)
    for seed in range(706_000, 706_006):
        scene = wide_scene(seed, "napoletane", "italian40")
        quads = [t.quad for t in scene.truth]
        plain = scene_crops(scene, np.random.default_rng(seed), covered_jitters=12)
        more = scene_crops(scene, np.random.default_rng(seed), covered_jitters=12, straddles=4)
        assert all(np.array_equal(a[0], b[0]) and a[1] == b[1]
                   for a, b in zip(plain, more, strict=False))
        assert {label for _, label in more[len(plain):]} <= {OTHER}
        for t in scene.truth:
            width = float(np.linalg.norm(t.quad[1] - t.quad[0]))
            for _ in range(10):
                across = _straddling(t.quad, quads, width, rng)
                if across is None:
                    continue
                centre = tuple(float(v) for v in across.mean(axis=0))
                assert any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), centre, False) >= 0
                           for q in quads)
                assert not _near_a_card(across, quads, 0.25 * width)
    assert len(more) > len(plain)


def _covered_crops(art: str, seeds: range, salt: int
                   ) -> Iterator[tuple[int, str, np.ndarray, np.random.Generator]]:
    """Each covered card that counts in these scenes: its seed, code, the crop on its true
    outline jittered as a hypothesis reads it, and the scene's generator (`salt` seeds it)."""
    for seed in seeds:
        scene = wide_scene(seed, art)
        rng = np.random.default_rng([seed, salt])
        for t in scene.truth:
            if not t.counts or t.visible >= 0.98:
                continue
            width = float(np.linalg.norm(t.quad[1] - t.quad[0]))
            yield seed, t.code, canonical_crop(scene.frame, order_quad(
                _jitter(t.quad, rng, width))), rng


@pytest.mark.parametrize(("art", "then_file", "now_file", "first_seed", "more"), [
    # 2026-11-26 (thirteenth session): from scratch on three tune ranges, a card's cover on
    # 30% of the crops, against the fine-tune before them
    ("napoletane", "card_classifier_napoletane_2026-11-25.npz",
     "card_classifier_napoletane_2026-11-26.npz", 17_100, 5),
    # 2026-11-26 (fourteenth session): the same on four ranges (600,000-601,499 added),
    # against the thirteenth session's (its weights kept as ..._2026-11-26b)
    ("napoletane", "card_classifier_napoletane_2026-11-26.npz",
     "card_classifier_napoletane_2026-11-26b.npz", 18_100, 4),
    # ... and Piacentine so too, against the weights of 2026-11-25 (two ranges)
    ("piacentine", "card_classifier_piacentine_2026-11-25.npz",
     "card_classifier_piacentine_2026-11-26.npz", 18_100, 6),
    # 2026-11-27 (sixteenth session): French from scratch on four tune ranges (300,000-
    # 300,999, 500,000-500,999 and 700,000-701,999 added), against the weights of
    # 2026-11-25 (one range; on these scenes: 34 -> 52 of 78)
    ("french", "card_classifier_french_2026-11-25.npz",
     "card_classifier_french_2026-11-27.npz", 21_600, 12),
    # ... and both Italian decks so, from scratch on five ranges (700,000-701,999 added),
    # against the fourteenth session's (on these scenes: 86 -> 88 of 102, 73 -> 77 of 95)
    ("napoletane", "card_classifier_napoletane_2026-11-26b.npz",
     "card_classifier_napoletane_2026-11-27.npz", 21_600, 1),
    ("piacentine", "card_classifier_piacentine_2026-11-26.npz",
     "card_classifier_piacentine_2026-11-27.npz", 21_600, 2),
])
def test_retrained_weights_name_more_covered_cards_surely_than_before(
        art: str, then_file: str, now_file: str, first_seed: int, more: int) -> None:
    """Each retraining of a deck's weights against the weights before it
    (tests/data), on the covered cards of 100 tune scenes neither was trained on, each crop
    on its true outline jittered as a hypothesis reads it: more named right at >= 0.95,
    none wrong at >= 0.9."""
    data = Path(__file__).parent / "data"
    then = CardClassifier.load(data / then_file)
    now = CardClassifier.load(data / now_file)
    sure = {id(then): 0, id(now): 0}
    for seed, code, crop, _ in _covered_crops(art, range(first_seed, first_seed + 100), 99):
        for clf in (then, now):
            name, prob = clf.best(crop)
            assert name == code or prob < 0.9, (seed, code, name, prob)
            sure[id(clf)] += name == code and prob >= 0.95
    assert sure[id(now)] >= sure[id(then)] + more, sure


def test_blank_masks_cut_the_crop_by_one_or_two_card_edges() -> None:
    """The training's blank cover (what the recogniser blanks on named cards) takes 10-60%
    of the crop, cut off by straight edges: one (the rest of the crop one side of a line) or
    two (a corner), never a hole inside the crop."""
    from devices.camera.training.blank_covers import blank_mask

    rng = np.random.default_rng(3)
    for _ in range(200):
        mask = blank_mask(rng)
        assert mask.shape == (CANON_H, CANON_W)
        assert 0.05 < mask.mean() < 0.65
        border = np.concatenate([mask[0], mask[-1], mask[:, 0], mask[:, -1]])
        assert border.any()  # it reaches the edge ...
        # ... and is convex: every row and every column it crosses holds one run
        for line in [*mask, *mask.T]:
            runs = np.flatnonzero(np.diff(np.concatenate([[0], line.astype(np.int8), [0]])))
            assert len(runs) in (0, 2)


def test_telling_masks_hide_what_tells_a_card_from_its_look_alike() -> None:
    """Piacentine's 6 and 7 of cups differ by the 7's middle cup: some blank covers leave
    them within the look-alike gap, each card keyed either way up; an ace, alike no other
    card under any cover, gets none."""
    from devices.camera.partial_match import _templates_on
    from devices.camera.templates import template_set
    from devices.camera.training.blank_covers import telling_masks

    ts = template_set("piacentine", "italian40")
    masks = telling_masks(ts, np.random.default_rng(0), tries=400)
    assert {("6c", 0), ("6c", 1), ("7c", 0), ("7c", 1)} <= set(masks)
    assert not any(card.startswith("A") for card, _ in masks)
    six, seven = ts.labels.index("6c"), ts.labels.index("7c")
    for mask in masks[("7c", 0)][:20]:
        v = _templates_on(ts.images[[six, seven]], ~mask)
        whole = _templates_on(ts.images[[six, seven]], np.ones_like(mask))
        assert ((v[0] - v[1]) ** 2).mean() < ((whole[0] - whole[1]) ** 2).mean()


def test_orientations_tell_which_way_up_a_crop_lies() -> None:
    from devices.camera.templates import template_set
    from devices.camera.training.blank_covers import orientations

    ts = template_set("napoletane", "italian40")
    i = ts.labels.index("7d")
    crops = np.stack([ts.images[i], ts.images[i + 1], ts.images[i]])
    assert orientations(crops, ["7d", "7d", "other"], ts).tolist() == [0, 1, 0]


# measured (2026-11-27): sure and right 44 -> 69, 50 -> 65, 41 -> 43; wrong at >= 0.9 3 -> 0,
# 0 -> 0, 1 -> 1 (French: a wrong card must have its index read it in the recogniser)
@pytest.mark.parametrize(("art", "more"), [("napoletane", 15), ("piacentine", 10),
                                           ("french", 0)])
def test_weights_trained_on_blanks_name_blanked_covered_cards(art: str, more: int) -> None:
    """The weights trained on blanked covers (2026-11-27, eighteenth session; `blanks`)
    against those before them (tests/data ..._2026-11-27), on the covered cards of 100 tune
    scenes neither was trained on, each crop on its jittered true outline with a blank cover
    as the recogniser draws one (what lies on cards named already): more named right at >=
    0.95, no more wrong at >= 0.9 (none, Italian)."""
    from devices.camera.training.blank_covers import blank_mask

    then = CardClassifier.load(Path(__file__).parent / "data" /
                               f"card_classifier_{art}_2026-11-27.npz")
    now = blanks_weights(art) or card_classifier(art)  # (Italian: since fine-tuned again)
    assert now is not None and now.blanks and not then.blanks
    sure = {id(then): 0, id(now): 0}
    wrong = {id(then): 0, id(now): 0}
    for _, code, crop, rng in _covered_crops(art, range(26_400, 26_500), 98):
        crop[blank_mask(rng, 0.1, 0.4)] = 0.0
        for clf in (then, now):
            name, prob = clf.best(crop)
            wrong[id(clf)] += name != code and prob >= 0.9
            sure[id(clf)] += name == code and prob >= 0.95
    assert wrong[id(now)] <= wrong[id(then)] and (art == "french" or wrong[id(now)] == 0)
    assert sure[id(now)] >= sure[id(then)] + more, sure


# tune scenes (31,450-31,599, after the weights were chosen on 30,850-31,449) whose covered
# card the weights fine-tuned with blob covers (2026-11-27, twenty-second session) name and
# the weights before them (tests/data ..._2026-11-27b) do not. Piacentine's only: Napoletane's
# blob weights named more false cards on fresh tune stills and were put back (2026-11-28;
# card_classifier.py)
NAMED_WITH_BLOB_WEIGHTS = [("piacentine", 31_496, "5b"), ("piacentine", 31_540, "Js")]


@pytest.mark.parametrize(("art", "seed", "code"), NAMED_WITH_BLOB_WEIGHTS)
def test_weights_trained_with_blob_covers_name_more_covered_cards(
        art: str, seed: int, code: str) -> None:
    """The shipped Piacentine weights (fine-tuned with --blob 0.3, --covered-jitters 12) name a
    card 45-54% showing that the weights before refused, and no false card either way."""
    then = CardClassifier.load(Path(__file__).parent / "data" /
                               f"card_classifier_{art}_2026-11-27b.npz")
    scene = wide_scene(seed, art)
    # the pipeline as the test was made: later changes name 31,540's jack with either weights
    # (covered_by_quick, ownership_carries) and 31,496's 5 of batons (the cover mask: the
    # hand over it blanked, the weights before read it too)
    first_come = Options(rescue=False, covered_by_quick=False, ownership_carries=False,
                         cover_blanks=False, cover_hides=False)
    now_found = Recognizer(art, options=first_come).recognize(scene.frame, scene.camera)
    then_found = Recognizer(art, classifier=then, options=first_come).recognize(
        scene.frame, scene.camera)
    assert named_right(scene, now_found, code) and not named_right(scene, then_found, code)
    assert score_wide(now_found, scene.truth).false == 0
    assert score_wide(then_found, scene.truth).false == 0


def test_linear_light_crops_draw_odd_seeds_in_linear_light() -> None:
    """--linear-light: an odd seed's scene is drawn in linear light (other pixels, the same
    cards), an even seed's as without it, as the index reader's training scenes are."""
    for seed, changed in ((100_000, False), (100_001, True)):
        plain_x, plain_y = scene_range_crops("napoletane", "italian40", range(seed, seed + 1))
        lin_x, lin_y = scene_range_crops("napoletane", "italian40", range(seed, seed + 1),
                                         linear_light=True)
        assert lin_y == plain_y
        differs = float(np.abs(lin_x.astype(np.float32) - plain_x.astype(np.float32)).mean())
        assert (differs > 0.01) == changed, (seed, differs)
