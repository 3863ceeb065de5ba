"""Find face-up cards in a table image and name them.

Pipeline (one frame, no memory; voting across frames is `voting.CardVoter`):

0. With the table's camera calibration (`Recognizer(art, camera=pose)` or
   `recognize(frame, camera=pose)`, as the live table runs) step 1 is replaced: the frame is
   rectified to a top-down view of the felt, where every card is a rectangle of known size, and
   each right-angle corner of an outline there proposes a card (`table_view`). Proposals are
   gated cheaply (on not-felt, a quick small-image score), judged as in step 2-3, and a near
   miss that no named card covers is aligned (shift and turn in the view) and judged again.
   This splits fanned cards, chips and printed lines that merge into one blob.

1. Card-like regions: everything that is not green felt (G well above R and B), opened to drop
   the thin printed markings. A blob that is one card (its hull is a quad it fills) gives that
   quad. A blob of several things (overlapping cards, a hand or a chip on a card) gives one
   hypothesis per straight outline stretch that ends in right-angle corners at both ends: a
   whole card side, from which the card is built inward with the deck's aspect ratio.
2. Each plausible quad (size, aspect) is warped to a small canonical card, normalised per colour
   channel (which cancels brightness and colour temperature) and correlated with every template
   of the deck, both ways up, and with the card back.
3. A card is reported only when the best match is strong, clearly ahead of the next different
   card, and every cell of a 3x2 grid matches on its own (a card partly covered by a hand, a chip
   or another card fails here and is reported later, once uncovered). Backs are never reported.
   Being unsure means reporting nothing: a wrong card is worse than a late one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from devices.camera.layout import CameraPose
from devices.camera.render import card_aspect
from devices.camera.table_view import CardRect, TableView, card_hypotheses, card_size, filled
from devices.camera.templates import (
    BACK,
    CANON_H,
    CANON_W,
    FINE,
    GRID_COLS,
    GRID_ROWS,
    SEARCH_H,
    SEARCH_W,
    TemplateSet,
    coarse_from_fine,
    normalise,
    template_set,
)
from studio.cards import DeckArt, DeckKind


@dataclass(frozen=True)
class Thresholds:
    """Acceptance limits, tuned on scene seeds below 1,000,000 (see tests/test_recognizer.py)."""

    min_score: float = 0.75  # correlation with the best template
    contender_gap: float = 0.15  # templates this close to the best score are contenders
    min_separation: float = 0.1  # discriminant position against every contender (0.5 = exact)
    min_search_score: float = 0.4  # an anchored card is fitted only if it starts this close
    max_cell_error: float = 1.2  # mean squared error of the worst grid cell (normalised units)
    felt_ratio: float = 1.35  # felt: G > felt_ratio * max(R, B) + felt_floor
    felt_floor: float = 8.0
    gold_blue: float = 0.5  # printed gold: B < gold_blue * min(G, R) and min(G, R) > gold_min
    gold_min: float = 70.0
    min_area: float = 6000.0  # card area in image pixels
    max_area: float = 30000.0
    min_aspect: float = 1.2  # long side / short side
    max_aspect: float = 2.8
    min_fill: float = 0.85  # a blob taken whole must fill this share of its quad
    refine_from: float = 0.45  # a calibrated hypothesis this close is aligned and judged again
    min_quick_score: float = 0.3  # a calibrated hypothesis is judged only if it starts this close
    max_covered: float = 0.06  # a near miss this much under named cards is not aligned
    align_step: float = 0.25  # the finest alignment step, view pixels (and degrees)
    verify_separation: float = 0.3  # a calibrated card named less clearly is aligned first
    verify_cell_error: float = 0.7  # ... or with a grid cell matching this poorly
    align_fine_below: float = 0.25  # alignment steps this small compare at the canonical size


@dataclass(frozen=True)
class Detection:
    """A card named in one frame: code, image quad (TL, TR, BR, BL as read), match figures."""

    code: str
    quad: np.ndarray
    score: float
    margin: float
    cell_error: float

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def confidence(self) -> float:
        """0..1: how far the match clears the acceptance limits (for logs and the dealer)."""
        return float(min(1.0, max(0.0, (self.score - 0.5) * 2)))


@dataclass
class Candidate:
    """A quad that was examined, with the verdict (for diagnostics and tuning)."""

    quad: np.ndarray
    label: str
    score: float
    margin: float
    cell_error: float
    accepted: bool


_CELL_SLICES = [
    (slice(r * CANON_H // GRID_ROWS, (r + 1) * CANON_H // GRID_ROWS),
     slice(c * CANON_W // GRID_COLS, (c + 1) * CANON_W // GRID_COLS))
    for r in range(GRID_ROWS) for c in range(GRID_COLS)
]
_SEARCH_CORNERS = np.array(
    [[0, 0], [SEARCH_W, 0], [SEARCH_W, SEARCH_H], [0, SEARCH_H]], np.float32)
_CANON_CORNERS = np.array(
    [[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]], np.float32)
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
_VIEW_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def _matvec(matrix: np.ndarray, vec: np.ndarray, rows: int = 16) -> np.ndarray:
    """matrix @ vec in blocks small enough that BLAS stays on this thread: a threaded BLAS
    call costs milliseconds on a busy machine, a few small ones cost microseconds."""
    return np.concatenate([matrix[i:i + rows] @ vec for i in range(0, len(matrix), rows)])


def order_quad(points: np.ndarray) -> np.ndarray:
    """Four corners clockwise (image y down), starting so that the first edge is a short side."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, since y points down
    side = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    if side[0] + side[2] > side[1] + side[3]:
        pts = np.roll(pts, -1, axis=0)
    return pts


# perspective changes a card's aspect ratio in the image: the far side is tried at these ratios


def _covers(quad: np.ndarray, anchor: SideAnchor) -> bool:
    """Both corners of the anchor lie on (or within a few pixels of) this quad."""
    poly = quad.reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(poly, _pt(p), True) > -6 for p in (anchor.a, anchor.b))


def _plausible(quad: np.ndarray, th: Thresholds) -> bool:
    area = cv2.contourArea(quad)
    short = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[2])) / 2
    long = (np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[0] - quad[3])) / 2
    return (th.min_area <= area <= th.max_area and short >= 1
            and th.min_aspect <= long / short <= th.max_aspect)


def _blob_quad(contour: np.ndarray, th: Thresholds) -> np.ndarray | None:
    """The blob as one card: its hull is a quad that the blob fills."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) <= 4:
            break
    if len(approx) != 4:
        return None
    quad = order_quad(approx)
    if not _plausible(quad, th):
        return None
    if cv2.contourArea(contour) < th.min_fill * cv2.contourArea(quad):
        return None  # an L or a notch: cards overlapping, or something on the card
    return _grow(_refine(quad, contour), 1.0)


def _neighbour_side(poly: np.ndarray, start: int, step: int,
                    rounding: float = 26.0) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The first outline edge of 22+ px next to vertex `start` (going by `step`), skipping at
    most `rounding` px of short edges (a rounded corner): a point on it and its direction
    pointing away from `start`, and its length. None when the outline bends about instead."""
    n = len(poly)
    skipped = 0.0
    j = start
    for _ in range(n - 1):
        k = (j + step) % n
        edge = float(np.linalg.norm(poly[k] - poly[j]))
        if edge >= 22:
            return poly[j], (poly[k] - poly[j]) / edge, edge
        skipped += edge
        if skipped > rounding:
            return None
        j = k
    return None


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray,
               d2: np.ndarray) -> np.ndarray | None:
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float64)
    if abs(np.linalg.det(m)) < 0.3:
        return None
    t = np.linalg.solve(m, (p2 - p1).astype(np.float64))
    return (p1 + t[0] * d1).astype(np.float32)


def _pt(v: np.ndarray) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-6)


@dataclass(frozen=True)
class SideAnchor:
    """A whole card side (corners a, b) and the directions of the card's two other sides."""

    a: np.ndarray
    b: np.ndarray
    da: np.ndarray
    db: np.ndarray
    lengths: tuple[float, ...]  # the other side's length, as a short and as a long side

    def quad(self, other: float) -> np.ndarray:
        pts = np.array([self.a, self.b, self.b + other * self.db, self.a + other * self.da])
        return _grow(order_quad(pts.astype(np.float32)), 1.0)


def _side_anchors(contour: np.ndarray, aspect: float, th: Thresholds) -> list[SideAnchor]:
    """Card sides seen whole on the outline of a blob that is not one card.

    A straight stretch of outline with a right-ish convex corner at both ends is taken as a
    whole card side; the card lies inward along the neighbouring edges, the other side being
    this one's length times or divided by the aspect ratio (perspective changes the ratio a
    little: the caller searches around it). The matcher rejects the anchors that are not cards.
    """
    poly = cv2.approxPolyDP(contour, 3.0, True).reshape(-1, 2).astype(np.float32)
    n = len(poly)
    if n < 5 or n > 40:
        return []
    anchors = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        length = float(np.linalg.norm(b - a))
        if length < 25:
            continue
        u = (b - a) / length
        # the neighbouring sides, found past the card's rounded corners
        before = _neighbour_side(poly, i, -1)
        after = _neighbour_side(poly, (i + 1) % n, +1)
        if before is None or after is None:
            continue
        (pa, da, la), (pb, db, lb) = before, after
        # both neighbours must be near a right angle (perspective allows slack) ...
        if abs(float(da @ u)) > 0.35 or abs(float(db @ u)) > 0.35:
            continue
        # ... and nearly parallel: a short neighbour may belong to another card
        if float(da @ db) < 0.985:
            if la >= lb:
                db = da
            else:
                da = db
        corner_a, corner_b = _intersect(a, u, pa, da), _intersect(b, u, pb, db)
        if corner_a is None or corner_b is None:
            continue
        # ... and both must run along the blob's inside (a corner, not a notch)
        if (cv2.pointPolygonTest(contour, _pt(corner_a + 8 * da + 4 * u), False) < 0
                or cv2.pointPolygonTest(contour, _pt(corner_b + 8 * db - 4 * u), False) < 0):
            continue
        side = float(np.linalg.norm(corner_b - corner_a))
        anchor = SideAnchor(corner_a, corner_b, da, db, ())
        # the other side's length: as the deck's aspect ratio says (long or short), and as the
        # outline shows when a neighbouring side is seen whole (perspective can skew the ratio)
        nominal = (side * aspect, side / aspect)
        seen = [x for x in (la, lb)  # a neighbour cut short by another card is no guide
                if any(0.75 <= x / n <= 1.5 for n in nominal)]
        lengths = tuple(o for o in dict.fromkeys(round(g, 1) for g in (*nominal, *seen))
                        if _plausible(anchor.quad(o), th))
        if lengths:
            anchors.append(SideAnchor(corner_a, corner_b, da, db, lengths))
    return anchors


def _refine(quad: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """Fit a line to the contour points along each side and intersect neighbours: the corners
    of a rounded card land where its straight edges meet, not on the rounding."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 8:
            return quad
        u = ab / length
        rel = pts - a
        along = rel @ u
        across = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = (across < 4) & (along > 0.15 * length) & (along < 0.85 * length)
        if near.sum() < 6:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(pts[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        if abs(np.linalg.det(m)) < 1e-3:
            return quad
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    refined = np.array(out, np.float32)
    if np.abs(refined - quad).max() > 12:  # the fit went astray: keep the plain polygon
        return quad
    return refined


def _grow(quad: np.ndarray, pixels: float) -> np.ndarray:
    """Push each corner out along its diagonal: undo the opening's and the hull's shrinkage."""
    centre = quad.mean(axis=0)
    out = quad - centre
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return (centre + out * (1 + pixels * 1.41 / np.maximum(norms, 1))).astype(np.float32)


@dataclass
class Recognizer:
    """Names the face-up cards of one deck in BGR frames. Stateless between frames."""

    art: DeckArt | str
    kind: DeckKind | str | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
    camera: CameraPose | None = None  # the table's calibration; None: find cards without it

    def __post_init__(self) -> None:
        self._views: dict[tuple, TableView] = {}
        self.art = DeckArt(self.art)
        self.templates: TemplateSet = template_set(self.art, self.kind)
        labels = self.templates.labels
        self._label_ids = np.array([labels.index(lab) for lab in labels])
        self.aspect = card_aspect(self.art)

    def card_mask(self, frame: np.ndarray, kernel: np.ndarray = _OPEN_KERNEL) -> np.ndarray:
        """255 where something that is not felt lies, thin printed lines removed.

        Felt is where green clearly dominates: G > ratio * max(R, B) + floor. A ratio (not a
        difference) keeps the felt in a card's shadow or a dim corner counted as felt.
        """
        th = self.thresholds
        b, g, r = cv2.split(frame)
        limit = cv2.addWeighted(cv2.max(r, b), th.felt_ratio, r, 0.0, th.felt_floor)
        felt = cv2.compare(g, limit, cv2.CMP_GT)
        # the printed gold lines count as felt: blue far below both green and red
        warm = cv2.min(g, r)
        gold = cv2.bitwise_and(
            cv2.compare(cv2.addWeighted(b, 1.0 / th.gold_blue, b, 0.0, 0.0), warm, cv2.CMP_LT),
            cv2.compare(warm, th.gold_min, cv2.CMP_GT))
        not_felt = cv2.bitwise_not(cv2.bitwise_or(felt, gold))
        return cv2.morphologyEx(not_felt, cv2.MORPH_OPEN, kernel)

    def view(self, camera: CameraPose) -> TableView:
        """The top-down view of this calibration, made once (a few ms) and cached: a table
        keeps its camera. Call it at start-up so the first frame does not pay for it."""
        key = camera.image_corners
        if key not in self._views:
            if len(self._views) > 8:
                self._views.clear()
            self._views[key] = TableView(camera)
        return self._views[key]

    def calibrated_candidates(self, frame: np.ndarray, camera: CameraPose) -> list[Candidate]:
        """Candidates found in the rectified table view, where every card is a rectangle of
        known size: each right-angle corner of an outline proposes a card (see table_view)."""
        th = self.thresholds
        view = self.view(camera)
        mask = self.card_mask(view.rectify(frame), _VIEW_KERNEL)
        w, h = card_size(self.aspect, view.scale)
        out: list[Candidate] = []
        accepted: list[np.ndarray] = []
        near_misses: list[CardRect] = []

        def taken(rect: CardRect, share: float) -> bool:
            """Overlaps a named card by more than this share of a card (a centre inside
            one, at share 0)."""
            if share <= 0:
                c = (float(rect.centre[0]), float(rect.centre[1]))
                return any(cv2.pointPolygonTest(a, c, False) >= 0 for a in accepted)
            mine = rect.corners()
            return any(cv2.intersectConvexConvex(mine, a)[0] > share * w * h for a in accepted)

        def judge(rect: CardRect) -> Candidate:
            cand = self._judge(frame, order_quad(view.image_points(rect.corners())))
            out.append(cand)
            if cand.accepted:
                accepted.append(rect.corners())
            return cand

        rects, solid = card_hypotheses(mask, w, h, 0.5 * w * h)
        for rect in rects:
            if taken(rect, 0) or not filled(solid, rect):
                continue
            quad = order_quad(view.image_points(rect.corners()))
            if self._quick_score(frame, quad) < th.min_quick_score:
                continue  # nothing like any card here: skip the full judgement
            cand = self._judge(frame, quad)
            if cand.accepted and (cand.margin < th.verify_separation
                                  or cand.cell_error > th.verify_cell_error):
                # named, but only just: a quad a little off can make a look-alike win (a 4
                # read as a 5 of the same suit). Align it and let the aligned verdict stand.
                cand = judge(self._align(frame, view, rect))
                continue
            out.append(cand)
            if cand.accepted:
                accepted.append(rect.corners())
            elif cand.label != BACK and cand.score >= th.refine_from:
                near_misses.append(rect)
        # a near miss may be a card whose corners were read a little off: align and judge it
        # again, unless a named card lies over part of it (then it is covered, not misaligned)
        for rect in near_misses:
            if not taken(rect, th.max_covered):
                judge(self._align(frame, view, rect))
        return out

    def candidates(self, frame: np.ndarray) -> list[Candidate]:
        """Every plausible card quad in the frame with its best match and verdict."""
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("camera.bad_frame: expected a BGR image (H, W, 3)")
        th = self.thresholds
        contours, _ = cv2.findContours(self.card_mask(frame), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for contour in contours:
            if cv2.contourArea(contour) < th.min_area * 0.5:
                continue
            quad = _blob_quad(contour, th)
            if quad is not None:
                whole = self._judge(frame, quad)
                out.append(whole)
                if whole.accepted or (whole.label == BACK and whole.score >= th.min_score):
                    continue
            for anchor in _side_anchors(contour, self.aspect, th):
                if any(c.accepted and _covers(c.quad, anchor) for c in out):
                    continue  # another side of a card already named
                fitted = self._fit_anchor(frame, anchor)
                if fitted is not None:
                    out.append(self._judge(frame, fitted))
        return out

    def recognize(self, frame: np.ndarray, camera: CameraPose | None = None) -> list[Detection]:
        """The face-up cards named in this frame (nothing when unsure). With the table's
        calibration (`camera`, or the one given at construction) cards are found in the
        rectified top-down view; without it, by outline shapes in the image."""
        camera = camera or self.camera
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("camera.bad_frame: expected a BGR image (H, W, 3)")
        cands = (self.calibrated_candidates(frame, camera) if camera is not None
                 else self.candidates(frame))
        found = [Detection(c.label, c.quad, c.score, c.margin, c.cell_error)
                 for c in cands if c.accepted]
        # one physical card cannot be two detections: keep the best of overlapping quads
        found.sort(key=lambda d: -d.score)
        kept: list[Detection] = []
        for d in found:
            if all(np.linalg.norm(np.subtract(d.center, k.center)) > 20 for k in kept):
                kept.append(d)
        return kept

    def _canon_vec(self, frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
        warp = cv2.getPerspectiveTransform(quad, _CANON_CORNERS)
        small = cv2.warpPerspective(frame, warp, (CANON_W, CANON_H), flags=cv2.INTER_LINEAR)
        vec = normalise(small).reshape(-1)
        return vec / max(float(np.linalg.norm(vec)), 1e-6)

    def _align(self, frame: np.ndarray, view: TableView, rect: CardRect) -> CardRect:
        """Nudge a card hypothesis (shift and turn in the table view; its size is known) to
        where it best matches its best template: a corner read off a rounded, noisy outline
        can be a pixel or two and a degree or two off, enough to spoil the match."""

        corners = view.image_points(rect.corners())
        ordered = order_quad(corners)
        perm = [int(np.argmin(np.abs(corners - p).sum(axis=1))) for p in ordered]
        first = self._canon_vec(frame, ordered)
        best = int(np.argmax(_matvec(self.templates.vectors, first)))
        # per size (search, canonical): one row per colour channel, zero elsewhere, so the
        # three channel dots come out of one product
        sizes = {}
        for key, (w, h), source in ((0, (SEARCH_W, SEARCH_H), self.templates.search),
                                    (1, (CANON_W, CANON_H), self.templates.vectors)):
            template = np.zeros((3, w * h * 3), np.float32)
            for c in range(3):
                template[c, c::3] = source[best][c::3]
            corners_out = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
            sizes[key] = (template, (w, h), corners_out, float(w * h))

        def at(r: CardRect, fine: int) -> float:
            # the normalised correlation without normalising the patch: the template has zero
            # mean per channel, so only each channel's spread needs dividing out
            template, dsize, corners_out, size = sizes[fine]
            quad = view.image_points(r.corners())[perm]
            warp = cv2.getPerspectiveTransform(quad, corners_out)
            patch = cv2.warpPerspective(frame, warp, dsize, flags=cv2.INTER_LINEAR)
            _, std = cv2.meanStdDev(patch)
            spread = np.maximum(std.ravel(), 4.0)
            dots = template @ patch.reshape(-1).astype(np.float32)
            var = (std.ravel() / spread) ** 2
            return float((dots / spread).sum()) / max(float(np.sqrt(size * var.sum())), 1e-6)

        # coarse steps on the small search image, the finest at the canonical size
        th = self.thresholds
        step, turn = 1.0, np.radians(1.0)
        fine = int(step <= th.align_fine_below)
        score = at(rect, fine)
        while step >= th.align_step:
            improved = False
            for dx, dy, dt in ((step, 0, 0), (-step, 0, 0), (0, step, 0), (0, -step, 0),
                               (0, 0, turn), (0, 0, -turn)):
                moved = rect.moved(dx, dy, dt)
                s = at(moved, fine)
                if s > score:
                    rect, score, improved = moved, s, True
            if not improved:
                step, turn = step / 2, turn / 2
                if fine == 0 and step <= th.align_fine_below:
                    fine, score = 1, at(rect, 1)
        return rect

    def _quick_score(self, frame: np.ndarray, quad: np.ndarray) -> float:
        """Best correlation at the small search size: cheap, for fitting a card's extent."""
        warp = cv2.getPerspectiveTransform(quad, _SEARCH_CORNERS)
        small = cv2.warpPerspective(frame, warp, (SEARCH_W, SEARCH_H), flags=cv2.INTER_AREA)
        vec = normalise(small).reshape(-1)
        return float(_matvec(self.templates.search, vec).max()) / max(float(np.linalg.norm(vec)), 1e-6)

    def _fit_anchor(self, frame: np.ndarray, anchor: SideAnchor) -> np.ndarray | None:
        """The card's far side: the length around the aspect-ratio guess that matches best;
        None when nothing near the guess looks like a card."""
        tried: dict[float, float] = {}

        def at(length: float) -> float:
            if length not in tried:
                tried[length] = self._quick_score(frame, anchor.quad(length))
            return tried[length]

        for nominal in anchor.lengths:
            for stretch in (0.85, 1.0, 1.15):
                at(round(nominal * stretch, 1))
        best_len = max(tried, key=tried.__getitem__)
        if tried[best_len] < self.thresholds.min_search_score:
            return None
        step = 0.075 * best_len
        while step > 0.006 * best_len:
            for other in (best_len - step, best_len + step):
                if at(other) > tried[best_len]:
                    best_len = other
            step /= 2
        return anchor.quad(best_len)

    def _discriminate(self, vec: np.ndarray, a: int, b: int) -> float:
        """+0.5 when vec is template a, -0.5 when template b, along the line between them."""
        ta, tb = self.templates.fine[a], self.templates.fine[b]
        d = ta - tb
        dd = float(d @ d)
        if dd < 1e-9:
            return 0.0
        return float((vec - (ta + tb) / 2) @ d) / dd

    def _judge(self, frame: np.ndarray, quad: np.ndarray) -> Candidate:
        th = self.thresholds
        # warp at the fine size; the coarse image is its average (plain sampling would alias)
        warp = cv2.getPerspectiveTransform(quad, _CANON_CORNERS * FINE)
        big = cv2.warpPerspective(frame, warp, (CANON_W * FINE, CANON_H * FINE),
                                  flags=cv2.INTER_LINEAR)
        img = normalise(coarse_from_fine(big))
        vec = img.reshape(-1)
        vec = vec / max(float(np.linalg.norm(vec)), 1e-6)
        scores = _matvec(self.templates.vectors, vec)
        best = int(np.argmax(scores))
        if scores[best] < th.min_score:
            # the winner scores at most the best: refused, without the costly fine comparison
            return Candidate(quad, self.templates.labels[best], float(scores[best]), 0.0,
                             float("inf"), False)
        fine = normalise(big).reshape(-1)
        fine = fine / max(float(np.linalg.norm(fine)), 1e-6)
        ids = self._label_ids
        margin = float(scores[best] - scores[ids != ids[best]].max())
        # close contenders (same layout, e.g. 6 of spades and 6 of clubs) are decided by a
        # tournament on the pixels where their templates differ, not by the whole card
        winner = best
        rivals = [int(i) for i in np.argsort(-scores)[:12]
                  if scores[i] >= scores[best] - th.contender_gap]
        for i in rivals:
            if ids[i] != ids[winner] and self._discriminate(fine, winner, i) < 0:
                winner = i
        separation = min((self._discriminate(fine, winner, i) for i in rivals
                          if ids[i] != ids[winner]), default=0.5)
        label = self.templates.labels[winner]
        diff = img - self.templates.images[winner]
        cell_error = max(float(np.mean(diff[rs, cs] ** 2)) for rs, cs in _CELL_SLICES)
        score = float(scores[winner])
        accepted = (label != BACK and score >= th.min_score and separation >= th.min_separation
                    and cell_error <= th.max_cell_error)
        margin = separation  # reported as the margin: how clearly the winner beats the rest
        return Candidate(quad, label, score, margin, cell_error, accepted)
