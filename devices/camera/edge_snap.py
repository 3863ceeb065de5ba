"""A partly covered card's hypothesis moved onto the edges its sides lie near.

A covered card's hypothesis comes from a corner of a noisy outline, a localiser peak or a
hand's step (cascade.py), and lands a few view pixels off the card: on tune scenes a third of
the partly covered cards missed had a hypothesis within a fifth of a card width whose true
outline the judges would have named (the partial judge's 6x4 cells and the classifier's crop
both lose a card that is 5-10 pixels off). The card's size in the view is known, so its pose
has three degrees of freedom; the sides that show lie on a step of brightness across them
(a card's border on the felt, or on the card under it), and the sides under another card
lie on nothing in particular wherever the pose puts them. So the pose whose four sides lie
on the strongest edges across them, within a small reach, is the card's: each sample's edge
strength capped, so that one strong printed line does not outweigh a side. Along a cascade
the next card's sides lie a step away (45% of a card or more where a card counts), out of
reach.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from devices.camera.table_view import CardRect

CAP = 24.0  # the most one sample's edge strength counts (grey levels per pixel)
SPACING = 3.0  # view pixels between samples along a side
ROUNDING = 0.08  # the sides' ends left out (a card's rounded corner), in card widths


@dataclass(frozen=True)
class EdgeImage:
    """The top-down view's brightness gradient (grey levels per pixel), x and y."""

    gx: np.ndarray
    gy: np.ndarray

    @staticmethod
    def of(top_down: np.ndarray) -> EdgeImage:
        grey = cv2.GaussianBlur(cv2.cvtColor(top_down, cv2.COLOR_BGR2GRAY).astype(np.float32),
                                (0, 0), 1.0)
        return EdgeImage(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0,
                         cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0)


_FINE = np.array([(x, y) for x in (-1.0, 0.0, 1.0) for y in (-1.0, 0.0, 1.0)])


def _samples(rect: CardRect) -> tuple[np.ndarray, np.ndarray]:
    """Points along the rect's four sides, relative to its centre, and each one's normal."""
    points, normals = [], []
    half = np.array([rect.lu, rect.lv]) / 2
    for axis, other in ((0, 1), (1, 0)):
        length = (rect.lu, rect.lv)[other]
        end = length / 2 - ROUNDING * min(rect.lu, rect.lv)
        t = np.arange(-end, end + 1e-6, SPACING)
        for sign in (-1.0, 1.0):
            local = np.zeros((len(t), 2))
            local[:, axis] = sign * half[axis]
            local[:, other] = t
            n = np.zeros(2)
            n[axis] = 1.0
            points.append(local)
            normals.append(np.repeat(n[None], len(t), axis=0))
    return np.concatenate(points), np.concatenate(normals)


def _scores(edges: EdgeImage, points: np.ndarray, normals: np.ndarray, centres: np.ndarray,
            u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The capped edge strength across the sides, summed, for the rect at each of `centres`
    with side directions u, v (the local points' x along u, y along v)."""
    world = points[:, :1] * u + points[:, 1:] * v  # (K, 2)
    normal = normals[:, :1] * u + normals[:, 1:] * v
    xy = (centres[:, None, :] + world[None]).astype(np.float32)  # (N, K, 2)
    gx = cv2.remap(edges.gx, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR)
    gy = cv2.remap(edges.gy, xy[..., 0], xy[..., 1], cv2.INTER_LINEAR)
    across = np.abs(gx * normal[None, :, 0] + gy * normal[None, :, 1])
    return np.minimum(across, CAP).sum(axis=1)


def snap(edges: EdgeImage, rect: CardRect, reach: float, turns: tuple[float, ...],
         step: float = 3.0) -> CardRect:
    """The rect moved (within `reach` view pixels, turned by one of `turns` radians) to where
    its sides lie on the strongest edges: on a grid of `step` pixels, then a pixel about
    the best (a grid of 3 pixels named as many tune cards as one of 2: 1,687 vs 1,687 of
    1,723, tune 29,300-29,449 four decks, for half the poses tried)."""
    points, normals = _samples(rect)
    grid = np.arange(-reach, reach + 1e-6, step)
    dx, dy = np.meshgrid(grid, grid)
    offsets = np.stack([dx.ravel(), dy.ravel()], axis=1)
    best = (-1.0, rect)
    for turn in turns:
        turned = rect.moved(0.0, 0.0, turn)
        scores = _scores(edges, points, normals, turned.centre + offsets, turned.u, turned.v)
        i = int(np.argmax(scores))
        if scores[i] > best[0]:
            best = (float(scores[i]), turned.moved(float(offsets[i, 0]), float(offsets[i, 1]),
                                                   0.0))
    rect = best[1]
    scores = _scores(edges, points, normals, rect.centre + _FINE, rect.u, rect.v)
    i = int(np.argmax(scores))
    return rect.moved(float(_FINE[i, 0]), float(_FINE[i, 1]), 0.0)

