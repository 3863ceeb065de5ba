"""Card hypotheses in the calibrated top-down view of the table.

A studio calibrates each table camera once (`layout.CameraPose`: where the table plane's corners
land in the image). With that homography the frame is rectified to a top-down view of the felt
in which every card is a rectangle of one known size at some rotation: no perspective, no skew,
right angles stay right angles. So one convex corner of a card seen on the outline of the
not-felt mask fixes the whole card, up to which of its two sides is the short one (both are
tried; the template matcher rejects the wrong one). This splits merged blobs (fanned cards,
chips, printed lines) that defeat a plain quad detector, and it is cheap: the view is small.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from devices.camera.layout import CARD_WIDTH, TABLE_H, TABLE_W, CameraPose

VIEW_SCALE = 0.5  # top-down view pixels per table unit (a card is 55 px wide)
_MARGIN = 40.0  # table units of view kept around the table (cards at the edge)


@dataclass(frozen=True)
class CardRect:
    """A card hypothesis in view pixels: corner, unit directions of its two sides, lengths."""

    corner: np.ndarray
    u: np.ndarray
    v: np.ndarray
    lu: float
    lv: float
    centre: np.ndarray = field(init=False, repr=False, compare=False)
    long_axis: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "centre", self.corner + (self.u * self.lu + self.v * self.lv) / 2)
        object.__setattr__(self, "long_axis", self.u if self.lu >= self.lv else self.v)

    def corners(self) -> np.ndarray:
        c, u, v = self.corner, self.u * self.lu, self.v * self.lv
        return np.array([c, c + u, c + u + v, c + v], np.float32)

    def moved(self, dx: float, dy: float, turn: float) -> CardRect:
        """The same card shifted by (dx, dy) view pixels and turned by `turn` radians about
        its centre."""
        c, s = np.cos(turn), np.sin(turn)
        u = np.array([c * self.u[0] - s * self.u[1], s * self.u[0] + c * self.u[1]])
        v = np.array([c * self.v[0] - s * self.v[1], s * self.v[0] + c * self.v[1]])
        centre = self.centre + np.array([dx, dy])
        return CardRect(centre - (u * self.lu + v * self.lv) / 2, u, v, self.lu, self.lv)


class TableView:
    """Maps a frame to the top-down view of one calibrated camera and back."""

    def __init__(self, camera: CameraPose, scale: float = VIEW_SCALE) -> None:
        self.camera = camera
        self.scale = scale
        offset = np.array([[scale, 0, _MARGIN * scale], [0, scale, _MARGIN * scale], [0, 0, 1]])
        self.to_view = offset @ np.linalg.inv(camera.homography)
        self.to_image = np.linalg.inv(self.to_view)
        self.size = (round((TABLE_W + 2 * _MARGIN) * scale), round((TABLE_H + 2 * _MARGIN) * scale))
        w, h = self.size
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        pts = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
        src = cv2.perspectiveTransform(pts, self.to_image).reshape(h, w, 2).astype(np.float32)
        self._maps = cv2.convertMaps(src[..., 0], src[..., 1], cv2.CV_16SC2)

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The top-down view, bilinear (a remap with the fixed-point maps made at calibration
        costs far less than a warp that solves each pixel)."""
        return cv2.remap(frame, self._maps[0], self._maps[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)

    def image_points(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_image).reshape(-1, 2).astype(np.float32)


def _fit(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(points, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray,
               d2: np.ndarray) -> np.ndarray | None:
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float64)
    if abs(np.linalg.det(m)) < 0.5:
        return None
    t = np.linalg.solve(m, p2 - p1)
    return p1 + t[0] * d1


def _straight_runs(contour: np.ndarray, min_len: float) -> list[tuple[np.ndarray, np.ndarray,
                                                                      float, int, int]]:
    """Straight stretches of the outline: (point, unit direction along the outline, length,
    first and last polygon vertex index), the line fitted to the outline's own points."""
    pts = contour.reshape(-1, 2)
    poly_idx = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2)
    # indices of the polygon's vertices on the contour (approxPolyDP keeps contour points)
    keys = pts[:, 0].astype(np.int64) * 65536 + pts[:, 1]
    order = np.argsort(keys, kind="stable")
    wanted = poly_idx[:, 0].astype(np.int64) * 65536 + poly_idx[:, 1]
    where = np.minimum(np.searchsorted(keys[order], wanted), len(keys) - 1)
    if len(wanted) < 3 or not np.array_equal(keys[order][where], wanted):
        return []
    idx = [int(i) for i in order[where]]
    n, m = len(pts), len(idx)
    runs = []
    for k in range(m):
        i0, i1 = idx[k], idx[(k + 1) % m]
        a, b = pts[i0].astype(np.float64), pts[i1].astype(np.float64)
        length = float(np.linalg.norm(b - a))
        if length < min_len:
            continue
        span = (i1 - i0) % n
        sel = (i0 + np.arange(int(span * 0.12), int(span * 0.88) + 1)) % n
        p, d = _fit(pts[sel].astype(np.float32))
        if float(d @ (b - a)) < 0:
            d = -d
        runs.append((p, d, length, k, (k + 1) % m))
    return runs


def card_hypotheses(mask: np.ndarray, card_w: float, card_h: float,
                    min_area: float) -> tuple[list[CardRect], np.ndarray]:
    """Rectangles of the card's size (view pixels) anchored on right-angle convex corners of
    the mask's outlines, best supported first, near-duplicates merged; and the mask with its
    outlines filled (a card's own print may look like felt in places)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    solid = np.zeros_like(mask)
    cv2.drawContours(solid, contours, -1, 255, cv2.FILLED)
    out: list[tuple[float, CardRect]] = []
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        runs = _straight_runs(contour, 0.18 * card_w)
        r = len(runs)
        m = len(cv2.approxPolyDP(contour, 1.5, True))
        orient = 1.0 if cv2.contourArea(contour, oriented=True) > 0 else -1.0
        for j in range(r if r >= 2 else 0):
            p1, d1, l1, k1, _ = runs[j]
            p2, d2, l2, k2, _ = runs[(j + 1) % r]
            if (k2 - k1) % m > 4:
                continue  # not neighbours on the outline (a rounded corner adds short edges)
            if abs(float(d1 @ d2)) > 0.12:
                continue  # not a right angle
            cross = float(d1[0] * d2[1] - d1[1] * d2[0])
            if cross * orient <= 0:  # the outline turns away from its inside: a notch
                continue
            corner = _intersect(p1, d1, p2, d2)
            if corner is None or np.linalg.norm(corner - p1) > l1 + 0.12 * card_w:
                continue
            # exact right angle: split the small error between the two sides
            a1 = np.arctan2(-d1[1], -d1[0])  # along side 1, away from the corner
            a2 = np.arctan2(d2[1], d2[0])
            diff = (a2 - a1 + np.pi) % (2 * np.pi) - np.pi
            turn = np.pi / 2 if diff > 0 else -np.pi / 2
            mid = a1 + (diff - turn) / 2
            u = np.array([np.cos(mid), np.sin(mid)])
            v = np.array([np.cos(mid + turn), np.sin(mid + turn)])
            for lu, lv in ((card_w, card_h), (card_h, card_w)):
                # a run longer than the side may be sides of several cards in line (a fan's
                # top edges): still a corner, but less likely this way round
                support = sum(x / n if x <= n * 1.08 else 0.5 for x, n in ((l1, lu), (l2, lv)))
                out.append((support, CardRect(corner, u, v, lu, lv)))
    out.sort(key=lambda x: -x[0])
    kept: list[CardRect] = []
    centres = np.zeros((len(out), 2))
    axes = np.zeros((len(out), 2))
    for _, rect in out:
        n = len(kept)
        near = np.hypot(*(centres[:n] - rect.centre).T) <= 0.08 * card_w
        if not np.any(near & (np.abs(axes[:n] @ rect.long_axis) >= 0.99)):
            centres[n], axes[n] = rect.centre, rect.long_axis
            kept.append(rect)
    return kept, solid


def filled(mask: np.ndarray, rect: CardRect, need: float = 0.95) -> bool:
    """The rectangle (shrunk a little) lies on not-felt: sampled on a grid."""
    s = np.linspace(0.06, 0.94, 7)
    t = np.linspace(0.06, 0.94, 9)
    pts = (rect.corner[None, None, :] + s[:, None, None] * rect.u * rect.lu
           + t[None, :, None] * rect.v * rect.lv).reshape(-1, 2)
    xi = np.round(pts[:, 0]).astype(int)
    yi = np.round(pts[:, 1]).astype(int)
    h, w = mask.shape
    inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    if inside.mean() < 1.0:
        return False
    return float((mask[yi, xi] > 0).mean()) >= need


def card_size(aspect: float, scale: float = VIEW_SCALE) -> tuple[float, float]:
    return CARD_WIDTH * scale, CARD_WIDTH * aspect * scale
