"""Card templates: every scan of a deck reduced to the small canonical image the recogniser
compares against, upright and turned 180 degrees, plus the card back (so a face-down card is
recognised as a back and ignored, not forced onto the nearest face).

A canonical image is the card warped to CANON_W x CANON_H, in BGR, each channel normalised to
zero mean and unit variance: this cancels the brightness and colour-temperature of the light.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from devices.camera.assets import back_scan, card_scan, deck_cards
from studio.cards import DeckArt, DeckKind

CANON_W = 40
CANON_H = 60
# the canonical card is split into GRID_ROWS x GRID_COLS cells: each must match on its own,
# so a card half hidden by a hand or another card cannot pass on the strength of its other half
GRID_ROWS = 3
GRID_COLS = 2
BACK = "back"


def normalise(canonical: np.ndarray) -> np.ndarray:
    """Per-channel zero mean, unit variance; float32 (H, W, 3)."""
    mean, std = cv2.meanStdDev(canonical)
    inv = 1.0 / np.maximum(std.ravel(), 4.0)
    # one affine colour transform: numpy broadcasting over a last axis of 3 is several times
    # slower on images this small
    m = np.zeros((3, 4), np.float32)
    m[[0, 1, 2], [0, 1, 2]] = inv
    m[:, 3] = -mean.ravel() * inv
    return cv2.transform(canonical.astype(np.float32), m)


FINE = 2  # the fine canonical image (for telling look-alikes apart) is FINE times larger


def fine_from_scan(scan: np.ndarray) -> np.ndarray:
    """The scan at the fine canonical size, softened as a camera lens softens it."""
    fine = cv2.resize(scan, (CANON_W * FINE, CANON_H * FINE), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(fine, (0, 0), 0.7)


SEARCH_W = CANON_W // 2
SEARCH_H = CANON_H // 2


def coarse_from_fine(fine: np.ndarray) -> np.ndarray:
    return cv2.resize(fine, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)


@dataclass(frozen=True)
class TemplateSet:
    """Templates of one deck: `labels[i]` is a card code or BACK; rows of `vectors` are unit."""

    art: DeckArt
    labels: tuple[str, ...]
    vectors: np.ndarray  # (N, CANON_H * CANON_W * 3): normalised, then scaled to unit length
    images: np.ndarray  # (N, CANON_H, CANON_W, 3): normalised canonical images
    fine: np.ndarray  # (N, FINE^2 * CANON_H * CANON_W * 3): unit vectors of the fine images
    search: np.ndarray  # (N, SEARCH_H * SEARCH_W * 3): unit vectors, for fitting a card's extent


def unit_rows(stack: np.ndarray) -> np.ndarray:
    flat = stack.reshape(len(stack), -1).astype(np.float32)
    return flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)


def _entry(scan: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    fine = fine_from_scan(scan)
    turned = fine[::-1, ::-1].copy()
    out = []
    for f in (fine, turned):
        search = cv2.resize(f, (SEARCH_W, SEARCH_H), interpolation=cv2.INTER_AREA)
        out.append((normalise(coarse_from_fine(f)), normalise(f), normalise(search)))
    return out


@lru_cache(maxsize=8)
def template_set(art: DeckArt | str, kind: DeckKind | str | None = None) -> TemplateSet:
    """Templates for every card of the deck (both ways up) and its back."""
    art = DeckArt(art)
    labels: list[str] = []
    coarse: list[np.ndarray] = []
    fine: list[np.ndarray] = []
    search: list[np.ndarray] = []
    scans = [(card.code, card_scan(card, art)) for card in deck_cards(art, kind)]
    for label, scan in [*scans, (BACK, back_scan(art))]:
        for c, f, q in _entry(scan):
            labels.append(label)
            coarse.append(c)
            fine.append(f)
            search.append(q)
    images = np.stack(coarse).astype(np.float32)
    return TemplateSet(art, tuple(labels), unit_rows(images), images, unit_rows(np.stack(fine)),
                       unit_rows(np.stack(search)))
