"""tests/bench/nameable_ceiling.py: the visible part of a card, and the pixels of it that tell
it from every other card (the ceiling under the recogniser's goal)."""

from __future__ import annotations

import numpy as np

from devices.camera.telling import CEIL_H, CEIL_W, telling_pixels
from devices.camera.wide_scenes import labelled_wide_scene, visible_mask
from studio.cards import DeckArt, DeckKind

NAPOLETANE = (DeckArt.NAPOLETANE, DeckKind.ITALIAN_40)


def test_the_visible_mask_is_the_share_of_the_face_that_shows() -> None:
    """On tune scenes, a counted card's mask covers the share of its face the generator
    says shows (a card wholly in the frame), whole cards nearly all of it."""
    seen = 0
    for seed in range(26_700, 26_710):
        scene, labels = labelled_wide_scene(seed, *NAPOLETANE)
        for label, t in enumerate(scene.truth, 1):
            inside = (t.quad >= 0).all() and (t.quad[:, 0] < 1280).all() and \
                (t.quad[:, 1] < 720).all()
            if not t.counts or not inside:
                continue
            mask = visible_mask(labels, label, t.quad)
            assert mask.shape == (CEIL_H, CEIL_W)
            assert abs(float(mask.mean()) - t.visible) < 0.08, (seed, t.code, t.visible)
            seen += 1
    assert seen >= 15


def test_a_card_is_told_apart_by_what_differs_where_it_shows() -> None:
    """The Napoletane 6 and 7 of cups differ in the 7's middle cup: seen whole, a 6 is told
    from every other card by many pixels; seen only where the two are drawn alike (its top
    and bottom quarters), by next to none; its middle third, by the cup; nothing showing, by
    none; less showing never tells more."""
    whole = np.ones((CEIL_H, CEIL_W), bool)
    assert telling_pixels("6c", whole, *NAPOLETANE) > 200
    ends = np.zeros_like(whole)
    ends[: CEIL_H // 4] = ends[-CEIL_H // 4:] = True
    assert telling_pixels("6c", ends, *NAPOLETANE) < 10
    middle = np.zeros_like(whole)
    middle[CEIL_H // 3: 2 * CEIL_H // 3] = True
    assert telling_pixels("6c", middle, *NAPOLETANE) > 30
    assert telling_pixels("6c", np.zeros_like(whole), *NAPOLETANE) == 0
    left = np.zeros_like(whole)
    left[:, : CEIL_W // 2] = True
    assert telling_pixels("6c", left, *NAPOLETANE) <= telling_pixels("6c", whole, *NAPOLETANE)
