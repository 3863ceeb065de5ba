"""How much of what shows of a card tells it from every other card of its deck: the pixels of
its truly visible part (the wide generator's label image) on which another card, either way
up, differs visibly on the clean scans. A card told apart by no pixel cannot be named by any
method from what shows (a Napoletane 7 of cups whose middle cup lies under the next card is a
6 there). Used by tests/bench/nameable_ceiling.py (the ceiling of what can be named) and by the
card classifier's training crops (training/crops.py: such a crop is labelled no card).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from devices.camera.render import prepared_card
from devices.camera.wide_scenes import LABEL_SCALE
from studio.cards import DeckArt, DeckKind, deck

CEIL_W, CEIL_H = 80, 120  # about the size a card has in a 1280x720 frame
# a difference a camera keeps (of 1.0) after a blur like its own: at these, the Napoletane 6
# and 7 of cups are alike on their top and bottom quarters, the 7's middle cup tells them
BLUR = 2.0
DIFF = 0.3
SHIFT = 2  # pixels: how far apart two scans may draw the same thing
_CORNERS = np.float32([[0, 0], [CEIL_W, 0], [CEIL_W, CEIL_H], [0, CEIL_H]])


@cache
def faces(art: DeckArt, kind: DeckKind) -> tuple[list[str], np.ndarray]:
    """Every card of the deck, its face at the ceiling's size (blurred, 0..1), upright and
    turned: (codes, array [card, turn, H, W, 3])."""
    codes, out = [], []
    for card in deck(kind):
        face = prepared_card(card.code, art)[:, :, :3]
        small = cv2.resize(face, (CEIL_W, CEIL_H), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small.astype(np.float32) / 255.0, (0, 0), BLUR)
        codes.append(card.code)
        out.append(np.stack([small, small[::-1, ::-1]]))
    return codes, np.stack(out)


def visible_mask(labels: np.ndarray, label: int, quad: np.ndarray) -> np.ndarray:
    """Card `label`'s pixels on top in the scene, on its face (CEIL_H x CEIL_W, bool)."""
    to_face = cv2.getPerspectiveTransform(np.float32(quad) / LABEL_SCALE, _CORNERS)
    on_top = (labels == label).astype(np.uint8)
    return cv2.warpPerspective(on_top, to_face, (CEIL_W, CEIL_H), flags=cv2.INTER_NEAREST,
                               borderValue=0) > 0


@cache
def gaps(code: str, art: DeckArt, kind: DeckKind) -> np.ndarray:
    """How far each pixel of `code`'s face is from the nearest match within SHIFT pixels on
    every card of the deck either way up: two scans of the same pip lie a pixel or two apart,
    which no camera tells from no difference. [card, turn, H, W] (float16)"""
    codes, all_faces = faces(art, kind)
    own = all_faces[codes.index(code), 0]
    gap = np.full(all_faces.shape[:-1], np.inf, np.float32)
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            moved = np.roll(all_faces, (dy, dx), axis=(2, 3))
            gap = np.minimum(gap, np.abs(moved - own).max(axis=-1))
    return gap.astype(np.float16)


def telling_pixels(code: str, mask: np.ndarray, art: DeckArt, kind: DeckKind) -> int:
    """The fewest of the `mask`'s pixels on which another card (either way up) differs from
    `code`."""
    codes, _ = faces(art, kind)
    i = codes.index(code)
    counts = ((gaps(code, art, kind) > DIFF) & mask).reshape(len(codes), 2, -1).sum(axis=-1)
    counts[i] = np.iinfo(counts.dtype).max  # itself, either way up
    return int(counts.min())
