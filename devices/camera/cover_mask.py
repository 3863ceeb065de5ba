"""A small learned mask of what covers the cards on the calibrated top-down view: the
dealer's hand, a chip stack.

Why: a card half under the dealer's hand is judged on what shows of it, but nothing told
the judges which part is hidden. The classifier's crop showed the hand as if it were part of
the card, and the partial judge counted the hand's cells against every template alike. Of
the Italian cards missed on tune scenes, about half lay under the hand. Blanked where the
generator's label image says the card is covered (an oracle), the classifier is sure and
right on many more of them. This network learns that mask from the view itself, so the
recogniser can blank the hand as it blanks the cards it named already.

The network is the card localiser's (training/train_card_localiser.build) carried one step
further up (its `fine` stage, training/train_cover_mask.py), with one output, the cover's logit per cell of
2 input pixels (4 view pixels), on the localiser's input (the view halved, each channel
normalised). Trained by devices/camera/training/train_cover_mask.py
(torch, the optional `train` extra) on tune scenes 240,000 and up; run here with onnxruntime
from the shipped ONNX file (onnx_session.py; no torch at run time).

The shipped weights (2026-11-29, thirty-seventh session): 8,000 views, seeds 240,000-241,999
of each deck (training/cover_data.py), 12 epochs (~90 s each on the 2-core machine). On the
trainer's validation views (the last 400, seeds 241,900-241,999) at 0.5: 92.7% of the covered
pixels found, 0.61% of the cards' pixels and 0.03% of the felt's taken for cover. The
localiser's own stride-4 network, trained first on the first 4,000 views (10 epochs): 86.7%,
0.56%, 0.04%, and in the recogniser at 0.5 it refused cards beside the hand (tune Piacentine
78,200-78,499: 808 against 810 of 835 with both switches). ~45 M multiply-adds a view.

    nice .venv/bin/python -m devices.camera.training.train_cover_mask  (its defaults; the
        views were made as two files of 1,000 seeds, in the same order)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import cv2
import numpy as np

from devices.camera.card_localiser import (
    INPUT_W,
    VIEW_PER_INPUT,
    OnnxFile,
    network_input,
    view_input_image,
)

WEIGHTS = Path(__file__).resolve().parent / "weights" / "cover_mask.onnx"


class CoverMask(OnnxFile):
    """The shipped network (card_localiser.OnnxFile)."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        super().__init__(path)

    def logits(self, small: np.ndarray) -> np.ndarray:
        """The cover's logit per output cell (H, W) for the halved view (`view_input_image`)."""
        return self.net.run(network_input(small))[0, 0]

    def covered(self, view: np.ndarray, min_prob: float = 0.5) -> np.ndarray:
        """Where something covers the table in a top-down view (BGR uint8): uint8 0/1 of the
        view's size."""
        z = self.logits(view_input_image(view))
        cell = round(INPUT_W * VIEW_PER_INPUT / z.shape[1])  # view pixels per output cell
        return mask_from_logits(z, cell, view.shape[:2], min_prob).astype(np.uint8)


def mask_from_logits(z: np.ndarray, cell: int, shape: tuple[int, ...],
                     min_prob: float) -> np.ndarray:
    """The network's cells' logits (H, W) as a mask of `shape` (bool; its pixels `cell` to a
    cell), covered where at least `min_prob` sure. The logits are brought up bilinearly, so
    the mask's edge falls between cells (the trainer measures the mask so too)."""
    up = cv2.resize(z, (z.shape[1] * cell, z.shape[0] * cell), interpolation=cv2.INTER_LINEAR)
    out = np.zeros(shape[:2], bool)
    h, w = min(up.shape[0], out.shape[0]), min(up.shape[1], out.shape[1])
    out[:h, :w] = up[:h, :w] > float(np.log(min_prob / (1.0 - min_prob)))
    return out


@cache
def cover_mask() -> CoverMask | None:
    """The shipped cover mask, or None when its weights are not shipped."""
    return CoverMask() if WEIGHTS.exists() else None
