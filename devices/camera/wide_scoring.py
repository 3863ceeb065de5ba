"""How recognition is scored on the wide scenes (devices/camera/wide_scenes.py), issue 16's rule.

- expected: face-up cards that count (at least 45% of the face visible; French cards also one
  corner index).
- right: expected cards named with their code, the detection's centre inside the card. Eight-
  deck shoes may put the same card on the table twice: each copy is matched on its own.
- false: detections whose code is not a face-up card lying under the detection's centre (a
  wrong name, a card named on a back, a chip, a hand or the felt). Naming a card that shows
  less than the rule asks is neither right nor false.
- twice: detections of a card another detection names already (both centres on that one
  card): not false, but a second report of one card.

The live path (`LiveTally`, a deal's frames through the recogniser, tracker and voter) is
scored on what the table is told, the voter's reports, by the same rules: a card is expected
when it counts in a frame where the table lies still after it was laid; it is right when a
report with its code lies inside it at that report's frame; a report over no face-up card of
its code is false, and a second report of a card already reported is counted apart (the
cross-check ignores it, but it is not what the voter is for).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from devices.camera.recognizer import Detection
from devices.camera.scoring import Tally, inside
from devices.camera.voting import CardSeen
from devices.camera.wide_scenes import SEEN_WHOLE, WideFrame, WideTruth

# bands of the visible share of a counted card's face (lower bounds), for `WideTally.bands`:
# where the misses are (on tune seeds most lie in the first, issue 16's 45% rule's edge)
BANDS = (("45-55%", 0.45), ("55-70%", 0.55), ("70-85%", 0.70), ("85-98%", 0.85),
         ("whole", SEEN_WHOLE))


def band(visible: float) -> str:
    """The BANDS name of a counted card showing this share of its face."""
    name = BANDS[0][0]
    for candidate, low in BANDS:
        if visible >= low:
            name = candidate
    return name


@dataclass
class WideTally(Tally):
    """scoring.Tally plus scenes counted, scenes named wholly right, and per band of the
    visible share the cards expected and named right (`bands`: name -> [right, expected])."""

    scenes: int = 0
    perfect: int = 0  # scenes with every expected card named, nothing false nor twice
    twice: int = 0
    twice_examples: list[str] = field(default_factory=list)  # code@x,y, as false_examples
    bands: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.false_examples is None:
            self.false_examples = []

    def add(self, other: Tally) -> None:
        super().add(other)
        if isinstance(other, WideTally):
            self.scenes += other.scenes
            self.perfect += other.perfect
            self.twice += other.twice
            self.false_examples = (self.false_examples or []) + (other.false_examples or [])
            self.twice_examples = self.twice_examples + other.twice_examples
            for name, (right, expected) in other.bands.items():
                mine = self.bands.setdefault(name, [0, 0])
                mine[0] += right
                mine[1] += expected

    def bands_line(self) -> str:
        """Right / expected per band of the visible share, in BANDS order."""
        return "  ".join(f"{name} {self.bands[name][0]}/{self.bands[name][1]}"
                         for name, _ in BANDS if name in self.bands)


def score_wide(detections: list[Detection], truth: list[WideTruth]) -> WideTally:
    """The tally of one scene: each detection names the card of its code under its centre
    (of two copies under it, an eight-deck shoe's, the nearer one not named yet)."""
    tally = WideTally(scenes=1, false_examples=[])
    named: set[int] = set()  # the truth cards a detection names
    for d in detections:
        under = [j for j, t in enumerate(truth)
                 if t.face_up and t.code == d.code and inside(t, d.center)]
        free = [j for j in under if j not in named]
        if not under:
            tally.false += 1
            tally.false_examples.append(f"{d.code}@{d.center[0]:.0f},{d.center[1]:.0f}")
        elif not free:
            tally.twice += 1
            tally.twice_examples.append(f"{d.code}@{d.center[0]:.0f},{d.center[1]:.0f}")
        else:
            named.add(min(free, key=lambda j: float(
                np.linalg.norm(truth[j].quad.mean(axis=0) - np.asarray(d.center)))))
    for j, t in enumerate(truth):
        if not t.counts:
            continue
        tally.expected += 1
        counted = tally.bands.setdefault(band(t.visible), [0, 0])
        counted[1] += 1
        if j in named:
            tally.right += 1
            counted[0] += 1
    tally.perfect = int(tally.right == tally.expected and tally.false == 0 and
                        tally.twice == 0)
    return tally


@dataclass
class LiveTally:
    """The live path over deals: reports scored as the module docstring says, and the frames
    from each card's first frame on the felt to its report."""

    expected: int = 0
    right: int = 0
    false: int = 0
    repeated: int = 0
    frames_to_report: list[int] = field(default_factory=list)
    false_examples: list[str] = field(default_factory=list)
    # cards that counted and were never reported: "code (most of its face that showed)"
    missed_examples: list[str] = field(default_factory=list)

    @property
    def right_pct(self) -> float:
        return 100.0 * self.right / max(1, self.expected)

    def add(self, other: LiveTally) -> None:
        self.expected += other.expected
        self.right += other.right
        self.false += other.false
        self.repeated += other.repeated
        self.frames_to_report += other.frames_to_report
        self.false_examples += other.false_examples
        self.missed_examples += other.missed_examples


@dataclass
class LiveScorer:
    """One deal: give it each frame with the reports the live path made on it."""

    landed: dict[int, int] = field(default_factory=dict)  # card -> frame it first showed
    counted: set[int] = field(default_factory=set)
    reported: dict[int, int] = field(default_factory=dict)  # card -> frame of its report
    shown: dict[int, tuple[str, float]] = field(default_factory=dict)  # card -> code, most shown
    tally: LiveTally = field(default_factory=LiveTally)
    frames: int = 0

    def frame(self, frame: WideFrame, reports: list[CardSeen]) -> None:
        n = self.frames
        self.frames += 1
        for card, t in zip(frame.cards, frame.truth, strict=True):
            self.landed.setdefault(card, n)
            if t.counts and not frame.hand:
                self.counted.add(card)
                most = self.shown.get(card, (t.code, 0.0))[1]
                self.shown[card] = (t.code, max(most, t.visible))
        for r in reports:
            under = [card for card, t in zip(frame.cards, frame.truth, strict=True)
                     if t.face_up and t.code == r.code and inside(t, r.center)]
            if not under:
                self.tally.false += 1
                self.tally.false_examples.append(
                    f"frame {n}: {r.code}@{r.center[0]:.0f},{r.center[1]:.0f}")
            elif under[-1] in self.reported:  # the top card of its code there
                self.tally.repeated += 1
            else:
                self.reported[under[-1]] = n

    def done(self) -> LiveTally:
        """The deal's tally (call once, after its last frame)."""
        right = self.counted & self.reported.keys()
        self.tally.expected = len(self.counted)
        self.tally.right = len(right)
        self.tally.frames_to_report = [self.reported[c] - self.landed[c] for c in sorted(right)]
        self.tally.missed_examples = [f"{self.shown[c][0]} ({self.shown[c][1]:.0%} showing)"
                                      for c in sorted(self.counted - right)]
        return self.tally
