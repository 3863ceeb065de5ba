"""Voting across frames: a card is reported to the table only after it was named the same at the
same place in N of the last M frames, and only once while it stays there.

One frame can be wrong (a hand passing, motion blur); agreement over several frames is what the
table is told. A place where frames disagree on the card reports nothing until they agree. A card
that leaves (no sighting for `forget_after` frames) can be reported again if it comes back, as
when a new round deals onto the same spot.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from devices.camera.layout import CameraPose, default_areas, image_regions
from devices.camera.recognizer import Detection, Recognizer, live_options
from devices.camera.tracking import StillTracker


@dataclass(frozen=True)
class CardSeen:
    """A card the camera vouches for: code, where (region name, image centre), confidence
    (mean match confidence over the agreeing frames) and the time of the deciding frame."""

    code: str
    region: str | None
    center: tuple[float, float]
    confidence: float
    frame_time: float


@dataclass
class _Track:
    center: tuple[float, float]
    votes: deque[str | None]
    confidences: deque[float]
    missing: int = 0
    reported: str | None = None


@dataclass
class CardVoter:
    """Feeds frames' detections into per-place tracks and emits CardSeen when votes agree.

    need: agreeing frames required; window: frames looked at; radius: pixels within which two
    sightings are the same place; moved: pixels past which a sighting at a reported card's
    place is another card laid on it; regions: name -> image polygon (e.g.
    SimCamera.regions()).
    """

    need: int = 3
    window: int = 5
    radius: float = 25.0
    # a card lying on the felt stays where it is (its sightings jitter a pixel or two): a
    # sighting this far from a reported card is a card laid over it, even of the same code (a
    # shoe of several decks: a 6 of diamonds laid 22 px off another, tune deal 13207, was
    # taken for the first and never reported)
    moved: float = 12.0
    forget_after: int = 10
    regions: dict[str, np.ndarray] = field(default_factory=dict)
    _tracks: list[_Track] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 1 <= self.need <= self.window:
            raise ValueError("camera.bad_voting: need must be between 1 and window")

    def clear(self) -> None:
        """Forget every place: the felt was cleared (a new round), so a card laid where the
        same card lay last round is a new card, not one already reported."""
        self._tracks = []

    def places(self) -> list[dict[str, object]]:
        """The places being watched and their recent votes, to diagnose a dispute (benchmarks,
        a technician's log): image centre, votes oldest first, the card reported there."""
        return [{"center": (round(t.center[0]), round(t.center[1])), "votes": list(t.votes),
                 "reported": t.reported, "missing": t.missing} for t in self._tracks]

    def update(self, detections: list[Detection], frame_time: float) -> list[CardSeen]:
        """One frame's detections in, the cards newly vouched for out."""
        unmatched = list(detections)
        for track in self._tracks:
            reach = self.radius if track.reported is None else min(self.radius, self.moved)
            near = [d for d in unmatched if _dist(d.center, track.center) <= reach]
            if near:
                best = max(near, key=lambda d: d.score)
                unmatched.remove(best)
                track.votes.append(best.code)
                track.confidences.append(best.confidence)
                track.center = best.center
                track.missing = 0
            else:
                track.votes.append(None)
                track.confidences.append(0.0)
                track.missing += 1
        for d in unmatched:
            self._tracks.append(_Track(d.center, deque([d.code], maxlen=self.window),
                                       deque([d.confidence], maxlen=self.window)))
        self._tracks = [t for t in self._tracks if t.missing < self.forget_after]
        seen = []
        for track in self._tracks:
            counts = Counter(v for v in track.votes if v is not None)
            if not counts:
                continue
            code, n = counts.most_common(1)[0]
            if n >= self.need and track.reported != code and len(counts) == 1:
                track.reported = code
                conf = [c for v, c in zip(track.votes, track.confidences, strict=True)
                        if v == code]
                seen.append(CardSeen(code, self._region(track.center), track.center,
                                     float(np.mean(conf)), frame_time))
        return seen

    def _region(self, center: tuple[float, float]) -> str | None:
        for name, poly in self.regions.items():
            if cv2.pointPolygonTest(np.asarray(poly, np.float32).reshape(-1, 1, 2),
                                    center, False) >= 0:
                return name
        return None


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


@dataclass
class CameraCardSource:
    """Recogniser plus voter: give it frames, get CardSeen events (the camera's card source)."""

    recognizer: Recognizer
    voter: CardVoter = field(default_factory=CardVoter)
    tracker: StillTracker | None = None  # None: every frame recognised (tracking.py)
    # the last recognition's cards are proposed to the next (Recognizer.recognize's hints):
    # a card lying still is found in every frame, not only in those where its outline or
    # the localiser shows it through the sensor's noise
    hinted: bool = True
    _last: list[Detection] = field(default_factory=list)

    @classmethod
    def for_table(cls, table: Any, kind: Any = None, **voting: Any) -> CameraCardSource:
        """The card source of a configured table (studio.config SetteEMezzoLiveTable). When
        its camera names a calibration file, the recogniser runs on the calibrated path (cards
        as rectangles in the top-down view; the view is made here, at start-up, not on the
        first frame) and each card is named with the printed area it lies in. `kind`: the
        table's deck (its game's `deck_kind`: a French 40-card table names no 8, 9 or 10)."""
        camera = table.devices.camera
        pose = camera.pose() if camera is not None else None
        return cls.calibrated(table.deck_art, pose, table.positions, kind=kind, **voting)

    @classmethod
    def calibrated(cls, art: Any, pose: CameraPose | None, positions: int | None, *,
                   kind: Any = None, tracked: bool = True, wait: int = StillTracker.wait,
                   **voting: Any) -> CameraCardSource:
        """The card source of a camera whose pose is known (a calibration file's, or a
        simulated camera's own); `pose=None` runs the uncalibrated recogniser, no area names;
        `positions=None`: no area names either. `kind`: the deck (None: the art's fullest);
        `wait`: the tracker's (tracking.py)."""
        recognizer = Recognizer(art, kind, camera=pose, options=live_options())
        regions: dict[str, np.ndarray] = {}
        if pose is not None:
            recognizer.view(pose)
            if positions is not None:
                regions = image_regions(pose, default_areas(positions))
        voter = CardVoter(regions=regions, **voting)
        tracker = StillTracker(settle=voter.need, wait=wait) if tracked else None
        return cls(recognizer, voter, tracker)

    def feed(self, frame: np.ndarray, frame_time: float) -> list[CardSeen]:
        found = (self.tracker.detections(frame, self._recognise)
                 if self.tracker is not None else self._recognise(frame))
        if found is None:  # a picture in motion: the voter waits for a still one
            return []
        return self.voter.update(found, frame_time)

    def _recognise(self, frame: np.ndarray) -> list[Detection]:
        hints = [d.quad for d in self._last] if self.hinted else []
        self._last = self.recognizer.recognize(frame, hints=hints)
        return self._last

    def clear(self) -> None:
        """The felt was cleared (a new round): forget every place and the last frame."""
        self._last = []
        self.voter.clear()
        if self.tracker is not None:
            self.tracker.clear()
