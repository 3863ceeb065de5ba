"""A table camera's calibration as a file a studio keeps: where the table plane's corners land in
the camera image (`layout.CameraPose`), as JSON.

    {"format": "studio-camera-calibration", "version": 1,
     "table": [1400.0, 800.0], "frame": [1280, 720],
     "image_corners": [[x, y], [x, y], [x, y], [x, y]]}

`image_corners` are the image pixels of the table plane's corners (0, 0), (W, 0), (W, H), (0, H)
in table units (`layout.TABLE_W`, `layout.TABLE_H`). With it the recogniser finds cards in a
rectified top-down view of the felt, where each card is a rectangle of known size, instead of
by outline shapes alone (see recognizer.py).

A technician makes the file once per camera mount: from four marks printed on the felt whose
table positions are known (the corners of the dealer area, say) and the pixels where they show
in a still (`from_marks`, `studio camera calibrate --marks ...`), or, for the simulated camera,
from its pose (`studio camera calibrate --scene SEED`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from devices.camera.layout import FRAME_H, FRAME_W, TABLE_H, TABLE_W, CameraPose

FORMAT = "studio-camera-calibration"
VERSION = 1
_TABLE_CORNERS = np.array([[0, 0], [TABLE_W, 0], [TABLE_W, TABLE_H], [0, TABLE_H]], np.float64)


class CalibrationError(ValueError):
    """A calibration that cannot be used; `code` is stable for logs and the CLI."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def to_json(pose: CameraPose) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "table": [TABLE_W, TABLE_H],
            "frame": [FRAME_W, FRAME_H],
            "image_corners": [[round(x, 3), round(y, 3)] for x, y in pose.image_corners]}


def from_json(data: Any) -> CameraPose:
    """The pose in a parsed calibration file; CalibrationError naming what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError("camera.bad_calibration", f"not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise CalibrationError("camera.bad_calibration",
                               f"calibration version {data.get('version')!r} (this reads {VERSION})")
    if data.get("table", [TABLE_W, TABLE_H]) != [TABLE_W, TABLE_H]:
        raise CalibrationError("camera.bad_calibration",
                               f"table size {data.get('table')!r}, expected {[TABLE_W, TABLE_H]}")
    corners = data.get("image_corners")
    try:
        points = np.array(corners, np.float64)
    except (TypeError, ValueError):
        points = np.zeros(0)
    if points.shape != (4, 2) or not np.all(np.isfinite(points)):
        raise CalibrationError("camera.bad_calibration",
                               "image_corners must be four [x, y] pixel pairs")
    _check_plausible(points)
    return CameraPose(tuple((float(x), float(y)) for x, y in points))


def _check_plausible(points: np.ndarray) -> None:
    """The four corners make a convex quad, in order, covering a fair part of the frame: a
    swapped pair of corners or a typo would map the table inside out."""
    edges = np.roll(points, -1, axis=0) - points
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1,
                                                                                   axis=0)[:, 0]
    if not (np.all(turns > 0) or np.all(turns < 0)):
        raise CalibrationError("camera.bad_calibration",
                               "image_corners are not a convex quad in table-corner order")
    area = abs(float(cv2.contourArea(points.astype(np.float32))))
    if area < 0.05 * FRAME_W * FRAME_H:
        raise CalibrationError("camera.bad_calibration",
                               "the table covers too little of the image to be this camera's")


def load(path: str | Path) -> CameraPose:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError("camera.no_calibration", f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CalibrationError("camera.bad_calibration", f"{path}: not readable JSON: {e}") \
            from None
    try:
        return from_json(data)
    except CalibrationError as e:
        raise CalibrationError(e.code, f"{path}: {e}") from None


def save(path: str | Path, pose: CameraPose) -> None:
    Path(path).write_text(json.dumps(to_json(pose), indent=2) + "\n", encoding="utf-8")


def from_marks(table_points: np.ndarray, image_points: np.ndarray) -> CameraPose:
    """The pose from four marks on the felt: their table-plane positions (table units) and
    the image pixels where they show. No three of either may lie on a line."""
    table = np.asarray(table_points, np.float64).reshape(-1, 2)
    image = np.asarray(image_points, np.float64).reshape(-1, 2)
    if table.shape != (4, 2) or image.shape != (4, 2):
        raise CalibrationError("camera.bad_marks", "four marks are needed, each as x,y")
    for pts, what in ((table, "table"), (image, "image")):
        for i in range(4):
            a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
            cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
            if abs(cross) < 1e-3 * max(1.0, float(np.ptp(pts)) ** 2):
                raise CalibrationError("camera.bad_marks",
                                       f"three of the {what} marks lie on one line")
    homography = cv2.getPerspectiveTransform(table.astype(np.float32), image.astype(np.float32))
    corners = cv2.perspectiveTransform(_TABLE_CORNERS.reshape(-1, 1, 2), homography).reshape(-1, 2)
    if not np.all(np.isfinite(corners)) or any(math.hypot(*c) > 1e5 for c in corners):
        raise CalibrationError("camera.bad_marks", "the marks do not describe a table plane")
    _check_plausible(corners)
    return CameraPose(tuple((float(x), float(y)) for x, y in corners))
