"""Blank covers for the card classifier's training: what the recogniser blanks at run time.

Why: the recogniser shows the classifier a covered card with the part lying on cards named
already blanked (recognizer `Options.learned_blanks_named`): those pixels show another card,
never this one, and where they stand in for this card's covered part they made a Piacentine 7
of cups, its right half under another 7, look like a 6 of cups to a classifier sure at 0.99
(spent held-out 9,323,738). A network never trained on blanks is merely less sure of every
card blanked (tune napoletane 25,000-25,299: four right cards fewer), so it is trained on them:
a random part of the crop, cut off by one card edge or by two (a card's corner), set to the
crop's mean. Some of those covers are chosen to hide just what tells a card from its
look-alike (`telling_masks`): the network sees both cards so covered, each with its own label,
and learns that what shows cannot tell them apart, so it is unsure there, which the recogniser
reads as a refusal.
"""

from __future__ import annotations

import numpy as np

from devices.camera.partial_match import _templates_on
from devices.camera.templates import BACK, CANON_H, CANON_W, TemplateSet

_YY, _XX = np.mgrid[0:CANON_H, 0:CANON_W].astype(np.float32)
_YY = (_YY + 0.5) / CANON_H - 0.5
_XX = (_XX + 0.5) / CANON_W - 0.5


def _cut(rng: np.random.Generator, share: float) -> np.ndarray:
    """Pixels beyond a random straight edge, `share` of the crop."""
    angle = rng.uniform(0, 2 * np.pi)
    d = np.cos(angle) * _XX * CANON_W + np.sin(angle) * _YY * CANON_H
    return d > np.quantile(d, 1 - share)


def blank_mask(rng: np.random.Generator, low: float = 0.1, high: float = 0.6) -> np.ndarray:
    """A cover as another card's outline cuts a crop: beyond one edge (two times in three) or
    beyond two edges near square to each other (a corner), `low` to `high` of the crop."""
    share = float(rng.uniform(low, high))
    if rng.random() < 2 / 3:
        return _cut(rng, share)
    angle = rng.uniform(0, 2 * np.pi)
    turn = angle + np.pi / 2 + rng.normal(0, 0.2)
    d1 = np.cos(angle) * _XX * CANON_W + np.sin(angle) * _YY * CANON_H
    d2 = np.cos(turn) * _XX * CANON_W + np.sin(turn) * _YY * CANON_H
    first = d1 > np.quantile(d1, 1 - min(0.95, share * float(rng.uniform(1.3, 2.5))))
    # the second edge cuts `share` of the crop off the part beyond the first
    inside = d2[first]
    return first & (d2 > np.quantile(inside, 1 - min(1.0, share / first.mean())))


def telling_masks(templates: TemplateSet, rng: np.random.Generator, tries: int = 3000,
                  gap: float = 0.3) -> dict[tuple[str, int], list[np.ndarray]]:
    """Covers (`blank_mask`s) under which a card's clean template is within `gap` of another
    card's on what shows (mean squared difference, each normalised there, as
    `partial_match.closest_lookalike` measures), 40% or more of it showing: keyed by the card
    and which way up (0 as scanned, 1 turned: the crops come either way)."""
    labels = np.array(templates.labels)
    cards = np.nonzero(labels != BACK)[0]
    out: dict[tuple[str, int], list[np.ndarray]] = {}
    for _ in range(tries):
        mask = blank_mask(rng, 0.2, 0.6)
        shown = ~mask
        vecs = _templates_on(templates.images[cards], shown)
        sq = (vecs * vecs).sum(axis=1)
        gaps = (sq[:, None] + sq[None] - 2 * vecs @ vecs.T) / vecs.shape[1]
        same = labels[cards][:, None] == labels[cards][None]
        gaps[same] = np.inf
        for k in np.nonzero(gaps.min(axis=1) < gap)[0]:
            index = int(cards[k])
            out.setdefault((str(labels[index]), index % 2), []).append(mask)
    return out


def orientations(images: np.ndarray, labels: list[str], templates: TemplateSet) -> np.ndarray:
    """Which way up each crop (N, H, W, 3) lies against its label's template (0 as scanned,
    1 turned; 0 for labels with no template, BACK and OTHER alike)."""
    index = {lab: i for i, lab in reversed(list(enumerate(templates.labels)))}
    out = np.zeros(len(images), np.int8)
    for n, (img, lab) in enumerate(zip(images, labels, strict=True)):
        i = index.get(lab)
        if i is None or i + 1 >= len(templates.labels) or templates.labels[i + 1] != lab:
            continue
        x = img.astype(np.float32)
        out[n] = int(float((x * templates.images[i + 1]).sum())
                     > float((x * templates.images[i]).sum()))
    return out
