"""A small learned card localiser on the calibrated top-down view: where cards lie.

Why: the calibrated path proposes a card only at a right-angle convex corner (or one long
straight side) of the not-felt mask's outline. The middle cards of an overlapping row, fan or
cascade have no such corner, and whole cards in a close group on a non-green cloth vanish
from the mask (its median takes them for the cloth): about half the misses on the wide
scenes had no hypothesis near them at all. A fully convolutional network sees the view
itself and marks card centres, each with its long axis; its peaks become extra card
hypotheses, aligned and judged exactly as the outline's (the judges stay the gate against
false cards: a proposal on no card is refused as any other).

Output, per cell of 4 input pixels (8 view pixels): a centre heatmap (logit), the long
axis as (cos 2a, sin 2a) (a card is the same turned half a turn) and the centre's offset in
the cell. Input: the view halved (INTER_AREA), each channel normalised, padded to
INPUT_W x INPUT_H. Trained by devices/camera/training/train_card_localiser.py (torch, the
optional `train` extra) on tune scenes 200,000 and up; run here with onnxruntime from the
shipped ONNX file (onnx_session.py; no torch at run time). The shipped weights: its defaults (750 views a
deck from seed 200,000, 8 epochs); on its 150 held-back views, 406 of the 434 cards showing
>= 45% have a peak within 8 view pixels of their centre (median 2.0 px off, p90 5.3), the
network's axis 5.9 degrees off (median), the edges' 1.5 (`CardLocaliser.peaks`). ~30 M
multiply-adds a view: ~2 ms on one loaded core (onnxruntime, 2026-12-03; 4.6 with OpenCV's
DNN module, which ran it before), input and peaks ~1 ms more.

Retrained, tried and not kept (2026-11-29, thirty-third session): the same network on three
times the views (seeds 200,000-202,249, 9,000 views, 12 epochs). On the trainer's validation
views (the last 450, seeds ~202,138-202,249, new to both) it found 1,369 of 1,416 cards
against the shipped 1,354 (96.7% against 95.6%), with 110 peaks on no card against 150; of
12 counted Italian cards the recogniser missed with no hypothesis near them (tune 60,250-
60,749), it put a peak within 8 view pixels of 9 against 3. Yet the recogniser with it,
tune 62,450-62,949 calibrated, four decks: 5,548 against 5,548 of 5,639 cards (napoletane
1,371 against 1,373, piacentine 1,371 either way, french40 1,454 against 1,452, french52
1,352 either way), 0 false either way: the cards it finds are refused or taken downstream.
What bounds the misses is not where cards are proposed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from devices.camera.onnx_session import OnnxNet
from devices.camera.table_view import CardRect

WEIGHTS = Path(__file__).resolve().parent / "weights" / "card_localiser.onnx"
INPUT_W, INPUT_H = 376, 224  # the 740 x 440 view halved (370 x 220), padded to multiples of 8
STRIDE = 4  # input pixels per output cell
VIEW_PER_INPUT = 2.0  # view pixels per input pixel


def view_input_image(view: np.ndarray) -> np.ndarray:
    """The view halved (uint8): what the localiser sees, before normalising."""
    h, w = view.shape[:2]
    return cv2.resize(view, (round(w / VIEW_PER_INPUT), round(h / VIEW_PER_INPUT)),
                      interpolation=cv2.INTER_AREA)


def network_input(small: np.ndarray) -> np.ndarray:
    """(1, 3, INPUT_H, INPUT_W) float32: each channel less its mean over its spread (the
    cloth's colour and the light cancel), padded to the network's size with (near) zeros."""
    mean, std = cv2.meanStdDev(small)
    h, w = small.shape[:2]
    m = tuple(float(v) for v in mean.ravel())
    padded = cv2.copyMakeBorder(small[:INPUT_H, :INPUT_W], 0, max(0, INPUT_H - h), 0,
                                max(0, INPUT_W - w), cv2.BORDER_CONSTANT, value=m)
    blob = cv2.dnn.blobFromImage(padded, 1.0, mean=m)  # float32, channels first, mean off
    blob *= (1.0 / (std.ravel() + 4.0)).astype(np.float32)[None, :, None, None]
    return blob


@dataclass(frozen=True)
class Peak:
    """A card centre the localiser marks: view pixels, long-axis angle, heat (0..1)."""

    x: float
    y: float
    angle: float
    heat: float
    # the edges' axis where they agree on one (consistency >= 0.2) that is not the network's
    # (over 30 degrees apart): one of the two is wrong, and only a judge can tell which
    edge_axis: float | None = None

    def rect(self, card_w: float, card_h: float) -> CardRect:
        """The card of this size (view pixels) centred here along its long axis."""
        v = np.array([np.cos(self.angle), np.sin(self.angle)])
        u = np.array([-v[1], v[0]])
        corner = np.array([self.x, self.y]) - (u * card_w + v * card_h) / 2
        return CardRect(corner, u, v, float(card_w), float(card_h))


def peaks(out: np.ndarray, min_heat: float, most: int) -> list[Peak]:
    """Local maxima (3x3) of the heatmap above `min_heat`, strongest first, at most `most`;
    `out` is the network's (5, H, W) output."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((heat >= top) & (heat >= min_heat))
    order = np.argsort(-heat[ys, xs])[:most]
    cell = STRIDE * VIEW_PER_INPUT
    found = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        angle = 0.5 * float(np.arctan2(out[2, y, x], out[1, y, x]))
        found.append(Peak((x + 0.5 + float(out[3, y, x])) * cell,
                          (y + 0.5 + float(out[4, y, x])) * cell, angle, float(heat[y, x])))
    return found


def edge_angle(grey: np.ndarray, x: float, y: float, half: int = 20,
               ) -> tuple[float, float]:
    """The dominant direction of the edges around (x, y) (input pixels), modulo a quarter
    turn (a card's sides are at right angles: the gradients' angle times four, averaged,
    weighted by their strength), and how consistent they are (0..1)."""
    h, w = grey.shape
    x0, x1 = max(0, int(x) - half), min(w, int(x) + half + 1)
    y0, y1 = max(0, int(y) - half), min(h, int(y) + half + 1)
    patch = grey[max(0, y0 - 1):y1 + 1, max(0, x0 - 1):x1 + 1]
    if patch.shape[0] < 5 or patch.shape[1] < 5:
        return 0.0, 0.0
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)[1:-1, 1:-1]
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)[1:-1, 1:-1]
    a, b = gx * gx - gy * gy, 2 * gx * gy  # the gradient's angle doubled, times its strength^2
    m2 = gx * gx + gy * gy + 1e-3
    c4, s4 = float(((a * a - b * b) / m2).sum()), float((2 * a * b / m2).sum())
    return float(np.arctan2(s4, c4)) / 4, float(np.hypot(c4, s4) / m2.sum())


def axis_turn(a: float, b: float | np.ndarray) -> float | np.ndarray:
    """The smaller angle between two axes at angles a and b (modulo half a turn: a card is the
    same turned half a turn); `b` may be an array of angles."""
    return abs((a - b + np.pi / 2) % np.pi - np.pi / 2)


class OnnxFile:
    """An ONNX file's network (onnx_session.OnnxNet), read on first use: one session for
    every thread (the tables each recognise their camera's frames in a worker thread)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._net: OnnxNet | None = None

    @property
    def net(self) -> OnnxNet:
        if self._net is None:
            self._net = OnnxNet(self.path)
        return self._net


class CardLocaliser(OnnxFile):
    """The shipped localiser."""

    def __init__(self, path: Path = WEIGHTS) -> None:
        super().__init__(path)

    def output(self, small: np.ndarray) -> np.ndarray:
        """The network's (5, H, W) output for the halved view (`view_input_image`)."""
        return self.net.run(network_input(small))[0]

    def peaks(self, view: np.ndarray, min_heat: float = 0.3, most: int = 16,
              edges: bool = True) -> list[Peak]:
        """The card centres in a top-down view (BGR uint8), strongest first. With `edges`, a
        peak whose surrounding edges agree on an axis near the network's (within 30 degrees)
        takes that axis: the network's is a few degrees off (median 5.9 on its validation
        views), the edges' closer (1.4). Edges agreeing on an axis further off are kept as
        the peak's `edge_axis` (the recogniser tries both)."""
        small = view_input_image(view)
        found = peaks(self.output(small), min_heat, most)
        if not edges or not found:
            return found
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        out = []
        for p in found:
            t4, consistent = edge_angle(grey, p.x / VIEW_PER_INPUT, p.y / VIEW_PER_INPUT)
            best = min((t4 + k * np.pi / 2 for k in range(-2, 3)),
                       key=lambda a: axis_turn(a, p.angle))
            if consistent >= 0.2:
                p = Peak(p.x, p.y, best, p.heat) if axis_turn(best, p.angle) <= np.radians(30) \
                    else Peak(p.x, p.y, p.angle, p.heat, best)
            out.append(p)
        return out


@cache
def card_localiser() -> CardLocaliser | None:
    """The shipped localiser, or None when its weights are not shipped."""
    return CardLocaliser() if WEIGHTS.exists() else None
