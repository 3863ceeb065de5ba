"""Tracking across frames: recognise a camera frame only when the table in it moved, and only
once it stopped moving.

A card lies on the felt for seconds while the camera looks five times a second, so most frames
show what the last one showed. Recognising each of them costs 10-30 ms of a core for nothing.
`StillTracker` keeps a thumbnail (one grey level per 16x16 block) of the last frame it had
recognised; a frame whose thumbnail differs from it by less than `threshold` grey levels
everywhere (after the light's overall drift is taken out) gets the last frame's detections
again for the price of the thumbnail (well under a millisecond).

What keeps it honest: the voter's agreement. Detections are reused only after `settle`
recognitions in a row named the same cards at the same places, so a card is still vouched for
only on that many real recognitions agreeing (the voter's `need`), never on one frame repeated;
and every `refresh`-th frame is recognised anyway, so no change can hide for long.

A frame that differs from the frame just before it is a picture in motion (the dealer's hand
sliding a card in, a card turning over): it is not looked at (`detections` returns None and the
voter is told nothing), since what it shows is about to change and is often blurred; the first
frame alike to the one before it is recognised. At most `wait` frames in a row go unlooked-at,
so a hand that never stops (or a camera that shakes) still gets a recognition that often.

A change the cards do not explain is looked at longer: when the cards settle again after the
picture changed and no card is named that was not there before (a card taken away, a card
laid face down, or one laid over another, hiding it, that the recogniser names in only some
frames through the sensor's noise), `refresh` more frames are recognised before any is
skipped (`explained`). A card laid and named costs nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from devices.camera.recognizer import Detection

BLOCK = 16  # pixels of the frame one thumbnail cell averages: sensor noise averages out
PLACE_PX = 12.0  # two detections of one card this close are at the same place


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """One grey level per BLOCK x BLOCK block of the frame, as float32."""
    h, w = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (max(1, w // BLOCK), max(1, h // BLOCK)),
                       interpolation=cv2.INTER_AREA)
    return small.astype(np.float32)


def moved(now: np.ndarray, then: np.ndarray, threshold: float) -> bool:
    """Whether any block changed by `threshold` grey levels or more, once the whole picture's
    brightness drift (mains flicker, an auto-exposure step) is divided out."""
    if now.shape != then.shape:
        return True
    gain = float(now.mean()) / max(1e-6, float(then.mean()))
    return bool(np.abs(now - then * gain).max() >= threshold)


def _same_place(d: Detection, e: Detection) -> bool:
    """The same card at the same place: one code, centres within PLACE_PX."""
    return e.code == d.code and float(np.hypot(e.center[0] - d.center[0],
                                               e.center[1] - d.center[1])) <= PLACE_PX


def same_cards(a: list[Detection], b: list[Detection]) -> bool:
    """The same cards at the same places (each centre within PLACE_PX of its partner's)."""
    if sorted(d.code for d in a) != sorted(d.code for d in b):
        return False
    left = list(b)
    for d in a:
        partner = next((e for e in left if _same_place(d, e)), None)
        if partner is None:
            return False
        left.remove(partner)
    return True


def _among(found: list[Detection], before: list[Detection]) -> bool:
    """Every card found lay there before: nothing new."""
    return all(any(_same_place(d, e) for e in before) for d in found)


@dataclass
class StillTracker:
    """Detections for a frame: the recogniser's, or the last ones when nothing moved."""

    settle: int = 3  # recognitions in a row that must agree before any frame is skipped
    refresh: int = 10  # at most this many frames in a row reuse the last detections
    threshold: float = 12.0  # grey levels a block must change by to count as movement
    wait: int = 3  # at most this many frames in a row are not looked at while the picture moves
    # a change the cards do not explain (the picture moved since the cards last settled, and
    # no card is named that was not there before) is looked at every frame, `refresh` frames
    # more, before any frame is skipped: a card laid over another, hiding it, yet named in
    # only some frames (sensor noise) would otherwise be settled without
    explained: bool = True
    recognised: int = 0
    reused: int = 0
    waited: int = 0
    _then: np.ndarray | None = None
    _prev: np.ndarray | None = None
    _waiting: int = 0
    _last: list[Detection] = field(default_factory=list)
    _agreeing: int = 0
    _skipped: int = 0
    _base: np.ndarray | None = None  # the picture the cards last settled on
    _base_cards: list[Detection] = field(default_factory=list)
    _looking: int = 0  # recognitions left before a frame may be skipped again

    def clear(self) -> None:
        """Forget the last frame (the felt was cleared: look afresh)."""
        self._then, self._last, self._agreeing, self._skipped = None, [], 0, 0
        self._prev, self._waiting = None, 0
        self._base, self._base_cards, self._looking = None, [], 0

    def detections(self, frame: np.ndarray, recognise: Callable[[np.ndarray], list[Detection]]
                   ) -> list[Detection] | None:
        """The frame's detections; None when the picture is moving (nothing to tell the voter:
        neither that the cards are there nor that they are gone)."""
        now = thumbnail(frame)
        before, self._prev = self._prev, now
        if (before is not None and self._waiting < self.wait
                and moved(now, before, self.threshold)):
            self._waiting += 1
            self.waited += 1
            return None
        self._waiting = 0
        if (self._then is not None and self._agreeing >= self.settle and self._looking == 0
                and self._skipped < self.refresh and not moved(now, self._then, self.threshold)):
            self._skipped += 1
            self.reused += 1
            return list(self._last)
        found = recognise(frame)
        self.recognised += 1
        same = self._then is not None and same_cards(found, self._last)
        self._agreeing = self._agreeing + 1 if same else 1
        self._then, self._last, self._skipped = now, found, 0
        self._looking = max(0, self._looking - 1)
        if self._agreeing == self.settle:  # settled (again): what changed since the last time
            if self.explained and self._base is not None and moved(now, self._base,
                                                                    self.threshold) \
                    and _among(found, self._base_cards):
                self._looking = self.refresh
            self._base, self._base_cards = now, found
        return list(found)


__all__ = ["StillTracker", "moved", "same_cards", "thumbnail"]
