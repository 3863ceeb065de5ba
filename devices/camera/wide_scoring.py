"""How recognition is scored on the wide scenes (devices/camera/wide_scenes.py), issue 16's rule.

- expected: face-up cards that count (at least 45% of the face visible; French cards also one
  corner index).
- right: expected cards named with their code, the detection's centre inside the card. Eight-
  deck shoes may put the same card on the table twice: each copy is matched on its own.
- false: detections whose code is not a face-up card lying under the detection's centre (a
  wrong name, a card named on a back, a chip, a hand or the felt). Naming a card that shows
  less than the rule asks is neither right nor false.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from devices.camera.recognizer import Detection
from devices.camera.wide_scenes import WideTruth


@dataclass
class WideTally:
    expected: int = 0
    right: int = 0
    false: int = 0
    scenes: int = 0
    perfect: int = 0  # scenes with every expected card named and nothing false
    false_examples: list[str] = field(default_factory=list)

    def add(self, other: WideTally) -> None:
        self.expected += other.expected
        self.right += other.right
        self.false += other.false
        self.scenes += other.scenes
        self.perfect += other.perfect
        self.false_examples += other.false_examples

    @property
    def right_pct(self) -> float:
        return 100.0 * self.right / max(1, self.expected)


def _inside(truth: WideTruth, point: tuple[float, float]) -> bool:
    poly = truth.quad.astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0


def score_wide(detections: list[Detection], truth: list[WideTruth]) -> WideTally:
    tally = WideTally(scenes=1)
    used: set[int] = set()
    for t in truth:
        if not t.counts:
            continue
        tally.expected += 1
        for i, d in enumerate(detections):
            if i not in used and d.code == t.code and _inside(t, d.center):
                used.add(i)
                tally.right += 1
                break
    for d in detections:
        if not any(t.face_up and t.code == d.code and _inside(t, d.center) for t in truth):
            tally.false += 1
            tally.false_examples.append(f"{d.code}@{d.center[0]:.0f},{d.center[1]:.0f}")
    tally.perfect = int(tally.right == tally.expected and tally.false == 0)
    return tally
