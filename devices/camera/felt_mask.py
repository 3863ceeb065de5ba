"""What is not felt, whatever the felt's colour: the felt is learnt from the frame itself.

Why: the first recogniser called felt "where green clearly dominates", so on a blue, red, grey
or black cloth everything was "not felt" and no card stood out (issue 16). Here the felt at each
place is the median colour of its neighbourhood, taken on a small copy of the image: cards,
chips and hands cover far less of any neighbourhood than the cloth does, so the median is the
cloth, lit as it is lit there (vignetting, a lamp's highlight, a colour cast all cancel). A
pixel is not felt when it differs from that enough, in CIELAB: lighter counts fully (a card's
white border on any cloth), darker counts half (the shadows cards and hands cast on the felt
should not join them into one blob), a change of hue counts more (a card's print, a chip).
"""

from __future__ import annotations

import cv2
import numpy as np

DOWN = 8  # the neighbourhood's median is taken on an image this many times smaller
MEDIAN_K = 21  # ... over this many of its pixels across (a fan of cards is less than half)
THRESHOLD = 34  # the difference (see `not_felt`) above which a pixel is not felt
DARKER = 0.5  # weight of darker than the felt (shadows) against lighter


def felt_estimate(image: np.ndarray, down: int = DOWN, k: int = MEDIAN_K,
                  code: int | None = None) -> np.ndarray:
    """The felt's colour at every pixel (BGR uint8, the image's size; or converted by the
    cv2 colour `code` first: converting the small image costs far less than the large)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, w // down), max(1, h // down)),
                       interpolation=cv2.INTER_AREA)
    k = min(k, (min(small.shape[:2]) // 2) * 2 - 1)
    if k >= 3:
        small = cv2.medianBlur(small, k)
    if code is not None:
        small = cv2.cvtColor(small, code)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def not_felt(image: np.ndarray, down: int = DOWN, k: int = MEDIAN_K,
             threshold: int = THRESHOLD) -> np.ndarray:
    """255 where the image is not the felt around it (uint8 mask, the image's size)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    felt = felt_estimate(image, down, k, cv2.COLOR_BGR2Lab)
    li, ai, bi = cv2.split(lab)
    lf, af, bf = cv2.split(felt)
    lighter = cv2.subtract(li, lf)
    darker = cv2.subtract(lf, li)
    hue = cv2.add(cv2.absdiff(ai, af), cv2.absdiff(bi, bf))
    score = cv2.addWeighted(cv2.addWeighted(lighter, 1.0, darker, DARKER, 0.0), 1.0, hue, 1.5, 0.0)
    return cv2.compare(score, threshold, cv2.CMP_GT)


def looks_green(image: np.ndarray, ratio: float, floor: float) -> bool:
    """The cloth is the green felt the first recogniser was tuned for (its median colour
    passes that recogniser's own felt rule)."""
    small = cv2.resize(image, (32, 18), interpolation=cv2.INTER_AREA).reshape(-1, 3)
    b, g, r = (float(v) for v in np.median(small, axis=0))
    return g > ratio * max(r, b) + floor
