"""Table views with what covers them, cut from the wide, domain-randomised scenes, for the
cover mask (devices/camera/cover_mask.py).

Why: the generator knows, at each pixel, what lies on top (its label image): the felt, a
card, or a chip stack or the dealer's hand over them. Warped into the calibrated view the
recogniser sees (halved, as the localiser's input), that is the cover mask's target. Tune
seeds only, from a range apart from everyone else's (240,000-259,999, within the
localiser's range but past what it used); never the held-out seeds.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from devices.camera.card_localiser import VIEW_PER_INPUT, view_input_image
from devices.camera.table_view import TableView
from devices.camera.training.localiser_data import DECKS, per_deck
from devices.camera.wide_scenes import HELD_OUT_SEED_BASE, LABEL_SCALE, labelled_wide_scene

SEED_RANGE = range(240_000, 260_000)


def _scaling(by: float) -> np.ndarray:
    """Pixel centres of an image `by` times smaller to the larger one's (i -> by*i + (by-1)/2)."""
    return np.array([[by, 0, (by - 1) / 2], [0, by, (by - 1) / 2], [0, 0, 1]])


def cover_in_view(labels: np.ndarray, cards: int, view: TableView,
                  size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The share of each pixel of the halved view (`size`: width, height) that a chip stack
    or a hand covers (uint8, 0-255), and where a card lies on top (bool), from the scene's
    label image (labels 1..`cards` are its cards; above them, chips and the hand)."""
    to_small = np.linalg.inv(_scaling(VIEW_PER_INPUT)) @ view.to_view @ _scaling(LABEL_SCALE)
    cover = (labels > cards).astype(np.float32)
    card = ((labels >= 1) & (labels <= cards)).astype(np.uint8)
    share = cv2.warpPerspective(cover, to_small, size, flags=cv2.INTER_AREA)
    on_card = cv2.warpPerspective(card, to_small, size, flags=cv2.INTER_NEAREST)
    return np.round(np.clip(share, 0, 1) * 255).astype(np.uint8), on_card.astype(bool)


def scene_sample(seed: int, deck: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The network's input image (uint8, halved view), the cover's share there (uint8) and
    where cards lie on top (bool)."""
    if seed not in SEED_RANGE or seed >= HELD_OUT_SEED_BASE:
        raise ValueError("cover data: tune seeds 240,000-259,999 only")
    scene, labels = labelled_wide_scene(seed, *DECKS[deck])
    view = TableView(scene.camera)
    image = view_input_image(view.rectify(scene.frame))
    size = (image.shape[1], image.shape[0])
    cover, card = cover_in_view(labels, len(scene.truth), view, size)
    return image, cover, card


def _one(job: tuple[int, str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cv2.setNumThreads(1)
    return scene_sample(*job)


def make(first_seed: int, per_deck_seeds: int, out: Path, workers: int = 2) -> None:
    """Views of `per_deck_seeds` seeds from `first_seed` for each deck, written to `out`."""
    samples = per_deck(_one, first_seed, per_deck_seeds, workers)
    np.savez_compressed(out, images=np.stack([s[0] for s in samples]),
                        covers=np.stack([s[1] for s in samples]),
                        cards=np.stack([s[2] for s in samples]))
