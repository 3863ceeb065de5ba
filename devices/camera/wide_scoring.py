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

from dataclasses import dataclass

from devices.camera.recognizer import Detection
from devices.camera.scoring import Tally, inside
from devices.camera.wide_scenes import WideTruth


@dataclass
class WideTally(Tally):
    """scoring.Tally plus scenes counted and scenes named wholly right."""

    scenes: int = 0
    perfect: int = 0  # scenes with every expected card named and nothing false

    def __post_init__(self) -> None:
        if self.false_examples is None:
            self.false_examples = []

    def add(self, other: Tally) -> None:
        super().add(other)
        if isinstance(other, WideTally):
            self.scenes += other.scenes
            self.perfect += other.perfect
            self.false_examples = (self.false_examples or []) + (other.false_examples or [])


def score_wide(detections: list[Detection], truth: list[WideTruth]) -> WideTally:
    tally = WideTally(scenes=1, false_examples=[])
    used: set[int] = set()
    for t in truth:
        if not t.counts:
            continue
        tally.expected += 1
        for i, d in enumerate(detections):
            if i not in used and d.code == t.code and inside(t, d.center):
                used.add(i)
                tally.right += 1
                break
    for d in detections:
        if not any(t.face_up and t.code == d.code and inside(t, d.center) for t in truth):
            tally.false += 1
            tally.false_examples.append(f"{d.code}@{d.center[0]:.0f},{d.center[1]:.0f}")
    tally.perfect = int(tally.right == tally.expected and tally.false == 0)
    return tally
