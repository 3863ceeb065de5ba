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
_CLOSE_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
_MARGIN = 40.0
_ROUNDING = 0.04  # where a card's straight side ends short of its corner, in card widths  # table units of view kept around the table (cards at the edge)


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

    @property
    def axis_angle(self) -> float:
        """The long axis's direction in radians (as a localiser Peak's angle)."""
        return float(np.arctan2(self.long_axis[1], self.long_axis[0]))

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
        return cv2.remap(frame, self._maps[0], None, cv2.INTER_NEAREST,
                         borderMode=cv2.BORDER_REPLICATE)

    def image_points(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_image).reshape(-1, 2).astype(np.float32)


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray,
               d2: np.ndarray) -> np.ndarray | None:
    det = float(d2[0] * d1[1] - d1[0] * d2[1])
    if abs(det) < 0.5:
        return None
    dx, dy = float(p2[0] - p1[0]), float(p2[1] - p1[1])
    t = (d2[0] * dy - d2[1] * dx) / det
    return p1 + t * d1


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
    idx = order[where]
    n, m = len(pts), len(idx)
    ends = np.roll(idx, -1)
    a, b = pts[idx].astype(np.float64), pts[ends].astype(np.float64)
    lengths = np.hypot(*(b - a).T)
    keep = np.nonzero(lengths >= min_len)[0]
    if len(keep) == 0:
        return []
    # each run's line: least squares through its middle 76% (the ends round into corners),
    # all runs at once from per-run sums of x, y and their products
    span = (ends[keep] - idx[keep]) % n
    first = (span * 0.12).astype(np.intp)
    counts = (span * 0.88).astype(np.intp) + 1 - first
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    offsets = np.arange(int(counts.sum())) - np.repeat(starts, counts)
    sel = (np.repeat(idx[keep] + first, counts) + offsets) % n
    x, y = pts[sel, 0].astype(np.float64), pts[sel, 1].astype(np.float64)
    mx, my = np.add.reduceat(x, starts) / counts, np.add.reduceat(y, starts) / counts
    cxx = np.add.reduceat(x * x, starts) / counts - mx * mx
    cyy = np.add.reduceat(y * y, starts) / counts - my * my
    cxy = np.add.reduceat(x * y, starts) / counts - mx * my
    theta = 0.5 * np.arctan2(2 * cxy, cxx - cyy)
    d = np.stack([np.cos(theta), np.sin(theta)], axis=1)
    d *= np.where(np.einsum("ij,ij->i", d, b[keep] - a[keep]) < 0, -1.0, 1.0)[:, None]
    return [(np.array([mx[j], my[j]]), d[j], float(lengths[k]), int(k), int((k + 1) % m))
            for j, k in enumerate(keep)]


def card_hypotheses(mask: np.ndarray, card_w: float, card_h: float, min_area: float,
                    on_solid: float | None = None) -> tuple[list[CardRect], np.ndarray]:
    """Rectangles of the card's size (view pixels) anchored on right-angle convex corners of
    the mask's outlines, best supported first, near-duplicates merged; and the mask with its
    outlines filled (a card's own print may look like felt in places). With `on_solid`, only
    rectangles that lie on the filled mask (that share of a grid of points, as `filled`)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    # filled outlines of the mask closed a little: a card's own print may look like felt,
    # and a band of it across the card may cut the card's outline in two
    closed, _ = cv2.findContours(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE_KERNEL),
                                 cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    solid = np.zeros_like(mask)
    cv2.drawContours(solid, closed, -1, 255, cv2.FILLED)
    out: list[tuple[float, np.ndarray, np.ndarray, np.ndarray, float, float]] = []
    for contour in contours:
        if cv2.contourArea(contour) < min_area:
            continue
        runs = _straight_runs(contour, 0.18 * card_w)
        r = len(runs)
        m = len(cv2.approxPolyDP(contour, 1.5, True))
        orient = 1.0 if cv2.contourArea(contour, oriented=True) > 0 else -1.0
        cornered: set[tuple[int, int]] = set()  # (run, end) that make a corner with the next
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
            cornered.update(((j, 1), ((j + 1) % r, 0)))
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
                out.append((support, corner, u, v, lu, lv))
        # one long straight side alone, the card lying on its inner side from either end:
        # for a card whose other sides are broken (a notch of dark print at the edge, a chip
        # or the next card touching it); the end is a corner less the card's rounding
        for j, (p, d, length, _, _) in enumerate(runs):
            if length < 0.45 * card_w:
                continue
            inward = orient * np.array([-d[1], d[0]])
            half = length / 2 + _ROUNDING * card_w
            for end, corner, along in ((0, p - d * half, d), (1, p + d * half, -d)):
                if (j, end) in cornered:
                    continue  # that end is a corner already
                for lu, lv in ((card_w, card_h), (card_h, card_w)):
                    if length <= lu * 1.08:
                        out.append((0.5 * length / lu, corner, along, inward, lu, lv))
    if not out:
        return [], solid
    # best supported first; a hypothesis whose centre is near a kept one's, along the same
    # axis, is the same card
    out.sort(key=lambda x: -x[0])
    corner = np.array([o[1] for o in out])
    u, v = np.array([o[2] for o in out]), np.array([o[3] for o in out])
    lu, lv = np.array([o[4] for o in out])[:, None], np.array([o[5] for o in out])[:, None]
    if on_solid is not None:
        ok = _on_mask(solid, corner, u * lu, v * lv, on_solid)
        if not ok.any():
            return [], solid
        corner, u, v, lu, lv = corner[ok], u[ok], v[ok], lu[ok], lv[ok]
        out = [o for o, k in zip(out, ok, strict=True) if k]
    centres = corner + (u * lu + v * lv) / 2
    axes = np.where(lu >= lv, u, v)
    near = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) \
        <= 0.08 * card_w
    same = near & (np.abs(axes @ axes.T) >= 0.99)
    dropped = np.zeros(len(out), bool)
    kept: list[CardRect] = []
    for i in range(len(out)):
        if not dropped[i]:
            kept.append(CardRect(corner[i], u[i], v[i], float(lu[i, 0]), float(lv[i, 0])))
            dropped |= same[i]
    return kept, solid


_FILL_S, _FILL_T = (g.ravel()[:, None] for g in np.meshgrid(np.linspace(0.06, 0.94, 7),
                                                            np.linspace(0.06, 0.94, 9)))


def filled(mask: np.ndarray, rect: CardRect, need: float = 0.95) -> bool:
    """The rectangle (shrunk a little) lies on not-felt: sampled on a grid."""
    return bool(_on_mask(mask, rect.corner[None], (rect.u * rect.lu)[None],
                         (rect.v * rect.lv)[None], need)[0])


def _on_mask(mask: np.ndarray, corner: np.ndarray, side_u: np.ndarray, side_v: np.ndarray,
             need: float) -> np.ndarray:
    """Per rectangle (corner + s side_u + t side_v, rows): the share `need` of a grid of
    points inside it lies on the mask (and all of them in the image)."""
    pts = corner[:, None, :] + _FILL_S[None] * side_u[:, None, :] + \
        _FILL_T[None] * side_v[:, None, :]
    xi = (pts[..., 0] + 0.5).astype(np.intp)
    yi = (pts[..., 1] + 0.5).astype(np.intp)
    h, w = mask.shape
    inside = (xi >= 0).all(axis=1) & (yi >= 0).all(axis=1) & (xi < w).all(axis=1) & \
        (yi < h).all(axis=1)
    hits = mask[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)] > 0
    return inside & (hits.sum(axis=1) >= need * xi.shape[1])


def card_size(aspect: float, scale: float = VIEW_SCALE) -> tuple[float, float]:
    return CARD_WIDTH * scale, CARD_WIDTH * aspect * scale
