"""How recognition is scored against a rendered scene's truth (one definition for the tests and
the benchmark).

- expected: face-up cards that nothing covers (visible share >= FULLY_VISIBLE). A card partly
  under another card, a chip or the hand need not be named (it is reported once uncovered).
- right: expected cards named with their code at their place (detection centre inside the card).
- false: detections whose code is not a face-up card lying under the detection's centre: a
  wrong name, a card named on a back, a chip or the hand. Naming a partly covered card
  correctly is neither right nor false.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from devices.camera.recognizer import Detection, order_quad
from devices.camera.render import CardTruth

FULLY_VISIBLE = 0.995


@dataclass
class Tally:
    expected: int = 0
    right: int = 0
    false: int = 0
    false_examples: list[str] | None = None

    def add(self, other: Tally) -> None:
        self.expected += other.expected
        self.right += other.right
        self.false += other.false

    @property
    def right_pct(self) -> float:
        return 100.0 * self.right / max(1, self.expected)


class HasQuad(Protocol):
    quad: np.ndarray


def quad_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Mean corner distance of two quads, at the best of their four cyclic orders (a card
    is the same card either way up)."""
    a, b = order_quad(a), order_quad(b)
    return min(float(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean())
               for k in range(4))


def inside(truth: HasQuad, point: tuple[float, float]) -> bool:
    """The point lies on the drawn card (its image quad)."""
    poly = truth.quad.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


def score(detections: list[Detection], truth: list[CardTruth]) -> Tally:
    tally = Tally(false_examples=[])
    for t in truth:
        if t.face_up and t.visible >= FULLY_VISIBLE:
            tally.expected += 1
            if any(d.code == t.code and inside(t, d.center) for d in detections):
                tally.right += 1
    for d in detections:
        if not any(t.face_up and t.code == d.code and inside(t, d.center) for t in truth):
            tally.false += 1
            tally.false_examples.append(f"{d.code}@{d.center[0]:.0f},{d.center[1]:.0f}")
    return tally
