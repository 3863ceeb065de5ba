"""The cover mask (devices/camera/cover_mask.py): its training target is where the
generator's hand and chips lie in the view, and the shipped network finds them on tune
scenes it was not trained on without taking the cards for cover."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from devices.camera.card_localiser import VIEW_PER_INPUT, view_input_image
from devices.camera.cover_mask import cover_mask
from devices.camera.recognizer import Options, Thresholds
from devices.camera.scoring import inside
from devices.camera.table_view import TableView
from devices.camera.training.cover_data import _scaling, cover_in_view
from devices.camera.wide_scenes import LABEL_SCALE, labelled_wide_scene
from tests.wide_cards import both_ways, named_right


def _in_view(scene_seed: int, deck: str = "napoletane"):  # type: ignore[no-untyped-def]
    scene, labels = labelled_wide_scene(scene_seed, deck)
    view = TableView(scene.camera)
    w, h = view.size
    to_view = view.to_view @ _scaling(LABEL_SCALE)
    cover = cv2.warpPerspective((labels > len(scene.truth)).astype(np.uint8), to_view, (w, h),
                                flags=cv2.INTER_NEAREST)
    card = cv2.warpPerspective(((labels >= 1) & (labels <= len(scene.truth))).astype(np.uint8),
                               to_view, (w, h), flags=cv2.INTER_NEAREST)
    return scene, labels, view, cover.astype(bool), card.astype(bool)


def test_the_target_lies_where_the_covered_label_pixels_lie_in_the_halved_view() -> None:
    """A card's outline marked as cover in the label image is, in the target, that card's
    outline carried into the halved view by the view's own map."""
    scene, labels, view, _, _ = _in_view(78_224)
    truth = scene.truth[0]
    marked = np.zeros_like(labels)
    cv2.fillConvexPoly(marked, np.round((truth.quad - 0.5) / LABEL_SCALE).astype(np.int32), 1)
    small = view_input_image(view.rectify(scene.frame))
    size = (small.shape[1], small.shape[0])
    share, on_card = cover_in_view(np.where(marked > 0, len(scene.truth) + 1, 0), len(scene.truth),
                                   view, size)
    assert not on_card.any()
    quad = cv2.perspectiveTransform(truth.quad.reshape(-1, 1, 2).astype(np.float64),
                                    view.to_view).reshape(4, 2)
    expected = np.zeros(share.shape, np.uint8)
    cv2.fillConvexPoly(expected, np.round((quad - 0.5) / VIEW_PER_INPUT).astype(np.int32), 1)
    got = share > 127
    iou = (got & (expected > 0)).sum() / max(1, (got | (expected > 0)).sum())
    assert iou > 0.9


@pytest.mark.parametrize(("seed", "deck"), [(78_242, "napoletane"), (78_304, "piacentine"),
                                            (78_379, "piacentine")])
def test_the_shipped_mask_finds_the_hand_and_leaves_the_cards(seed: int, deck: str) -> None:
    """Tune scenes with the dealer's hand over cards (past the network's training seeds,
    240,000-241,999): at the recogniser's bar, most of the hand and chips found, next to
    none of the cards' pixels taken for cover (on 78,304 the first network, its edge a cell
    of 8 view pixels coarse, took 4.9% of them at 0.5; this one 1.1% at 0.8, beside the
    hand)."""
    scene, _, _, cover, card = _in_view(seed, deck)
    assert scene.notes.get("hand")
    mask = cover_mask()
    assert mask is not None
    found = mask.covered(TableView(scene.camera).rectify(scene.frame),
                         Thresholds().cover_min_prob).astype(bool)
    assert found.shape == cover.shape
    assert (found & cover).sum() > 0.8 * cover.sum()
    assert (found & card).sum() < 0.02 * card.sum()


@pytest.mark.parametrize(("seed", "code", "hand"), [(78_224, "Kb", False), (78_469, "Ac", True)])
def test_a_card_under_a_chip_or_the_hand_is_named_with_the_cover_blanked(
        seed: int, code: str, hand: bool) -> None:
    """Tune Napoletane 78,224: a king of clubs 47% showing with a black chip on it; 78,469:
    an ace of cups 54% showing under the dealer's hand. With the cover blanked in the
    classifier's crop and hidden from the partial judge they are named; without, refused.
    Nothing named lies off its card."""
    on = Options(cover_blanks=True, cover_hides=True)
    off = replace(on, cover_blanks=False, cover_hides=False)
    scene, with_cover, without = both_ways("napoletane", seed, on, off)
    assert bool(scene.notes.get("hand")) is hand
    assert named_right(scene, with_cover, code) and not named_right(scene, without, code)
    assert all(any(t.code == d.code and inside(t, d.center) for t in scene.truth)
               for d in with_cover)
