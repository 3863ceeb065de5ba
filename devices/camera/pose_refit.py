"""A guessed calibration made better by the cards it names.

Why: without a calibration the table's plane is guessed from one or two card outlines, or is
one of the studio camera's framings (camera_family.py), and comes out a few percent off in
scale and tilt: on tune stills (ray 712,000-712,149) the cards it misses are named under the
true plane. The cards it does name cannot correct it by themselves: the calibrated path places
every card as a card's rigid rectangle on the guessed plane, so their quads fit that plane
exactly, errors and all. What the image says is in the pixels: each card named is aligned to
its own scan with a free homography (OpenCV's ECC, eight degrees of freedom, on grey levels:
a card 6-16 pixels off its corners comes to 1.5-3), and the studio's kind of camera is fitted
to those corners (`fit_family`), as guess_pose fits it to outlines. A card partly covered
aligns poorly (its correlation is low) and is left out.
"""

from __future__ import annotations

import cv2
import numpy as np

from devices.camera.camera_family import card_rectangle, fit_family
from devices.camera.layout import CameraPose
from devices.camera.self_calibration import pose_from_plane

ECC_ITERATIONS = 60
ECC_EPS = 1e-5
ECC_BLUR = 5  # the Gaussian both images are softened with (pixels), as a lens softens
ECC_WIDTH = 64.0  # a card aligned this many pixels wide at most (larger ones shrunk to it)


def aligned_corners(grey: np.ndarray, scan: np.ndarray,
                    quad: np.ndarray) -> tuple[float, np.ndarray] | None:
    """The corners of the card `scan` shows where it best matches the grey frame near `quad`
    (either way up), with that match's correlation (1 is exact); None if ECC fails. The
    scan is drawn at the quad's size in the image, so the match compares like with like."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    side = float(np.linalg.norm(q[1] - q[0]))
    # ECC works on the whole input (its gradients): the card's surroundings only, a quarter
    # of its size around it (corners 6-16 pixels off come back from there), at most
    # ECC_WIDTH pixels a card wide (its time grows with the card's area)
    reach = 0.25 * max(side, float(np.linalg.norm(q[3] - q[0])))
    x0, y0 = (max(0, int(v - reach)) for v in q.min(axis=0))
    x1, y1 = (int(v + reach) + 1 for v in q.max(axis=0))
    crop = grey[y0:y1, x0:x1]
    shrink = min(1.0, ECC_WIDTH / max(side, 1.0))
    if shrink < 1.0:
        crop = cv2.resize(crop, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    # the card in the crop's pixels (pixel centres at integers, as cv2.resize places them)
    offset = np.float32([x0, y0])
    q = (q - offset + 0.5) * shrink - 0.5
    w = max(16, round(float(np.linalg.norm(q[1] - q[0]))))
    h = max(24, round(float(np.linalg.norm(q[3] - q[0]))))
    if crop.shape[0] < h // 2 or crop.shape[1] < w // 2:
        return None  # the card lies mostly outside the frame
    # the template's edges, half a pixel outside its corner pixels' centres
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - np.float32(0.5)
    start = cv2.getPerspectiveTransform(corners, q).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ECC_ITERATIONS, ECC_EPS)
    best: tuple[float, np.ndarray] | None = None
    for face in (scan, scan[::-1, ::-1]):
        template = cv2.cvtColor(cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA),
                                cv2.COLOR_BGR2GRAY).astype(np.float32)
        try:
            cc, warp = cv2.findTransformECC(template, crop, start.copy(),
                                            cv2.MOTION_HOMOGRAPHY, criteria, None, ECC_BLUR)
        except cv2.error:  # did not converge, or the warp degenerated
            continue
        if best is None or cc > best[0]:
            found = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), warp).reshape(4, 2)
            best = (float(cc), (found + 0.5) / shrink - 0.5 + offset)
    return best


def refit_pose(frame: np.ndarray, cards: list[tuple[np.ndarray, np.ndarray]], aspect: float,
               min_cc: float, max_error: float) -> CameraPose | None:
    """The studio camera fitted to the corners of these cards (each its image quad and its
    face scan) aligned in the frame; only the cards aligned at `min_cc` or better count,
    the worst fitted dropped while it places one more than `max_error` pixels off. None when
    no card aligns or the fit is not that kind of camera."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    quads = []
    for quad, scan in cards:
        aligned = aligned_corners(grey, scan, quad)
        if aligned is not None and aligned[0] >= min_cc:
            quads.append(aligned[1])
    if not quads:
        return None
    hom = fit_family(quads, card_rectangle(aspect), max_error)
    return pose_from_plane(hom) if hom is not None else None
