"""Reading a French card's corner index: rank and suit from the two corners that carry them.

Why: a French card under another card or a hand usually shows one of its corner indices (the
issue's rule counts a French card only then), yet the whole-card judges and the classifier,
which see the card at 40x60, refuse most such cards: the index is a few pixels there. This
reads each index corner of a card's outline at its own resolution (24x32, about the camera's
pixels) with a small network like the card classifier (card_classifier.py, run the same
way; trained by devices/camera/training/train_index_reader.py from the wide
generator's tune scenes). Its labels: the 52 cards, and OTHER for a corner whose index does
not show (covered, a back, no card there). The recogniser asks it only about covered cards,
and never takes its word alone (recognizer.py).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from devices.camera.card_classifier import WEIGHTS_DIR, CardClassifier
from devices.camera.templates import normalise

INDEX_W, INDEX_H = 24, 32  # the corner crop, pixels
# the corner read, in card widths and heights from the card's corner (the index box the
# scans print is about 0.02-0.20 wide and 0.02-0.24 high; a margin for a misread outline)
SPAN_U, SPAN_V = 0.25, 0.28
WEIGHTS = WEIGHTS_DIR / "index_reader_french.npz"


def _corner_maps(quad: np.ndarray) -> list[np.ndarray]:
    """Crop pixel -> image point homographies of the two index corners of a portrait quad
    (TL, TR, BR, BL: the canonical card's top-left and, turned half a turn, bottom-right)."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_image = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32)).astype(np.float64)
    su, sv = SPAN_U / INDEX_W, SPAN_V / INDEX_H
    top_left = np.array([[su, 0, 0.5 * su], [0, sv, 0.5 * sv], [0, 0, 1]])
    bottom_right = np.array([[-su, 0, 1 - 0.5 * su], [0, -sv, 1 - 0.5 * sv], [0, 0, 1]])
    return [to_image @ top_left, to_image @ bottom_right]


def corner_crops(frame: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The two index corners of a card outline, each upright and normalised per channel as
    the judges' crops are (float32, INDEX_H x INDEX_W x 3)."""
    return [normalise(cv2.warpPerspective(frame, m, (INDEX_W, INDEX_H),
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP))
            for m in _corner_maps(quad)]


class IndexReader:
    """The shipped index network; `read` names what each corner of an outline shows."""

    def __init__(self, net: CardClassifier) -> None:
        self.net = net

    def read(self, frame: np.ndarray, quad: np.ndarray,
             allowed: frozenset[str] | None = None) -> list[tuple[str, float]]:
        """(label, probability) for each index corner of the outline: a card code, or
        OTHER where no index shows."""
        return [self.net.best(crop, allowed) for crop in corner_crops(frame, quad)]


@cache
def index_reader(path: Path = WEIGHTS) -> IndexReader | None:
    """The shipped reader (French cards), or None when none is shipped."""
    return IndexReader(CardClassifier.load(path)) if path.exists() else None
