"""A camera calibration guessed from the cards themselves, for frames that come without one.

Why: with a calibration the recogniser works in a top-down view where every card is a
rectangle of known size, which splits fans and cascades and names partly covered cards; without
one it has only outline shapes and names far fewer (issue 16: `studio recognize` without a
calibration should do well too). A card lying whole and clean on the felt is a rectangle of
known shape on the table plane, so its four image corners fix the plane's homography: the
table as the camera sees it, up to where on the table that card lies, which does not matter.
The largest clean card is used (its corners are the most precise); the view is turned so that
the image's down is the table's near side, and placed so the image's middle is the table's.
"""

from __future__ import annotations

import cv2
import numpy as np

from devices.camera.layout import CARD_WIDTH, FRAME_H, FRAME_W, TABLE_H, TABLE_W, CameraPose


def pose_from_card(quad: np.ndarray, aspect: float,
                   frame_size: tuple[int, int] = (FRAME_W, FRAME_H)) -> CameraPose | None:
    """The camera pose that makes this image quad (TL, TR, BR, BL; the first side short) a
    card of the deck's size on the table, or None when the quad cannot be one (degenerate,
    or the table it implies would not lie in front of the camera)."""
    w, h = CARD_WIDTH, CARD_WIDTH * aspect
    card = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    to_image = cv2.getPerspectiveTransform(card, np.asarray(quad, np.float32))
    return pose_from_plane(to_image, frame_size)


def pose_from_plane(to_image: np.ndarray,
                    frame_size: tuple[int, int] = (FRAME_W, FRAME_H)) -> CameraPose | None:
    """The camera pose of a plane-to-image homography whose plane is in table units (any
    placement: it is turned so that image-down is the table's near side and centred), or
    None when the table would not lie in front of the camera."""
    try:
        to_plane = np.linalg.inv(to_image)
    except np.linalg.LinAlgError:
        return None
    fw, fh = frame_size

    def plane(points: np.ndarray) -> np.ndarray:
        p = np.column_stack([points, np.ones(len(points))]) @ to_plane.T
        if (p[:, 2] * np.sign(p[0, 2]) <= 1e-9).any():
            return np.full((len(points), 2), np.nan)
        return p[:, :2] / p[:, 2:3]

    centre, below = plane(np.array([[fw / 2, fh / 2], [fw / 2, fh / 2 + 20.0]]))
    if not np.isfinite(centre).all():
        return None
    down = below - centre
    angle = np.arctan2(down[0], down[1])  # turn the plane so that image-down is +y
    c, s = np.cos(angle), np.sin(angle)
    turn = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    moved = turn @ np.array([centre[0], centre[1], 1.0])
    shift = np.array([[1, 0, TABLE_W / 2 - moved[0]], [0, 1, TABLE_H / 2 - moved[1]],
                      [0, 0, 1]])
    plane_to_table = shift @ turn
    table_to_image = to_image @ np.linalg.inv(plane_to_table)
    corners = np.array([[0, 0, 1], [TABLE_W, 0, 1], [TABLE_W, TABLE_H, 1], [0, TABLE_H, 1]],
                       np.float64) @ table_to_image.T
    if (corners[:, 2] <= 1e-9).any() and (corners[:, 2] >= -1e-9).any():
        return None  # part of the table would lie behind the camera
    pts = corners[:, :2] / corners[:, 2:3]
    if not np.isfinite(pts).all() or np.abs(pts).max() > 20 * max(fw, fh):
        return None
    return CameraPose(tuple((float(x), float(y)) for x, y in pts))
