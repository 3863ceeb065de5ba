"""Table geometry: the table plane (top-down units, about a millimetre each), the areas printed on
the felt (betting positions and the dealer area), and the camera that sees the plane in
perspective.

The simulated camera lays cards in table units and projects them through `CameraPose.homography`,
so a card is a true perspective quad in the image, as with a real camera looking down at an angle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

TABLE_W = 1400.0
TABLE_H = 800.0
FRAME_W = 1280
FRAME_H = 720
CARD_WIDTH = 110.0  # table units; the height follows the art's aspect ratio


@dataclass(frozen=True)
class Area:
    """A rectangle printed on the felt, in table units (centre, size)."""

    name: str
    cx: float
    cy: float
    w: float
    h: float
    label: str

    def corners(self) -> np.ndarray:
        x0, y0 = self.cx - self.w / 2, self.cy - self.h / 2
        x1, y1 = self.cx + self.w / 2, self.cy + self.h / 2
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def position_name(n: int) -> str:
    return f"position-{n}"


DEALER = "dealer"


def default_areas(positions: int = 3) -> list[Area]:
    """Dealer area at the far side, positions 1..n along the near edge (1 = the dealer's left)."""
    if not 1 <= positions <= 7:
        raise ValueError("a table has 1 to 7 positions")
    areas = [Area(DEALER, TABLE_W / 2, 190, 620, 230, "BANCO")]
    width = min(330.0, (TABLE_W - 80) / positions)
    for i in range(positions):
        cx = 40 + width * (i + 0.5) + (TABLE_W - 80 - width * positions) / 2
        # the positions follow the table's curve: the outer ones sit a little further away
        offset = (cx - TABLE_W / 2) / (TABLE_W / 2)
        cy = 585 - 50 * offset * offset
        areas.append(Area(position_name(i + 1), cx, cy, width - 30, 250, str(i + 1)))
    return areas


@dataclass(frozen=True)
class CameraPose:
    """Where the table plane's corners land in the image: a homography with keystone."""

    image_corners: tuple[tuple[float, float], ...] = (
        (150.0, 25.0), (1130.0, 25.0), (1330.0, 745.0), (-50.0, 745.0))
    homography: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        src = np.array([[0, 0], [TABLE_W, 0], [TABLE_W, TABLE_H], [0, TABLE_H]], np.float32)
        dst = np.array(self.image_corners, np.float32)
        object.__setattr__(self, "homography", cv2.getPerspectiveTransform(src, dst))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table-plane points (N, 2) to image points (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def jittered(self, rng: np.random.Generator, pixels: float = 30.0) -> CameraPose:
        """The same camera nudged (a technician's slightly different mount)."""
        jitter = rng.uniform(-pixels, pixels, size=(4, 2))
        return CameraPose(tuple(
            (float(x + dx), float(y + dy))
            for (x, y), (dx, dy) in zip(self.image_corners, jitter, strict=True)))


def image_regions(camera: CameraPose, areas: list[Area]) -> dict[str, np.ndarray]:
    """Each printed area as an image polygon (4, 2): lets the tracker name where a card lies."""
    return {a.name: camera.project(a.corners()).astype(np.float32) for a in areas}
