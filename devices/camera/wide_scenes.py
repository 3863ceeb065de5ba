"""A second, domain-randomised source of table images, built independently of render.py.

Why: the recogniser was tuned on render.py's scenes (one green felt, one camera family, one
light model) and named a third of the cards on another renderer's scenes. This generator
draws what real tables vary, by its own pipeline: a pinhole camera from physical parameters
(20-35 degrees from vertical, yaw, roll, 45-62 degree lens), felts of several colours with
printed lines and text, cards bent slightly (piecewise perspective strips), laid in rows,
fans and cascades, chip stacks, hands of several skin tones over cards, then exposure,
contrast, colour temperature, vignetting, a specular highlight, lens and motion blur, sensor
noise and JPEG compression.

`linear_light` (off in the benchmark's scenes, on for half of the index reader's training
scenes): the card's print filtered down to its size on screen, the light, and the lens's and
the motion's blur in linear light, as a lens integrates it, clipped by the sensor after. Drawn
in display values (the default), thin print stays nearly as dark as it is printed; in linear light a French index's rank (strokes
about 2 px on screen) fades to a pale trace, as on ray_scenes.py's frames, where the index
reader trained on the default read a third of the covered French cards it missed weakly or not
at all (tune 1,000-1,149, the card's classifier at 0.97 or more on its true outline).

Seeds: TUNE_SEEDS are for developing and tuning; HELD_OUT_SEED_BASE and up are looked at only
to report (tests/bench/bench_wide_scenes.py). The same seed always gives the same scene.

Truth follows issue 16's rule: a face-up card counts when at least 45% of its face is visible
(French cards: also at least one corner index). What lies outside the frame is not visible
(since 2026-11-26, tenth session: before, a card partly outside counted its share of the part
inside, so a card 31% inside the frame, uncovered, counted as whole; about 0.7% of counted
cards lie partly outside).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from devices.camera.layout import CARD_WIDTH, FRAME_H, FRAME_W, TABLE_H, TABLE_W, CameraPose
from devices.camera.render import prepared_card
from devices.camera.telling import CEIL_H, CEIL_W, FACE_CORNERS
from studio.cards import DeckArt, DeckKind, deck

TUNE_SEEDS = range(1_000_000)
HELD_OUT_SEED_BASE = 9_000_000
MIN_VISIBLE = 0.45
SEEN_WHOLE = 0.98  # a card showing this much of its face is seen whole (not covered)
MIN_INDEX_VISIBLE = 0.8  # share of a corner index's box that must show (French cards)
LABEL_SCALE = 2  # occlusion is measured on a half-size label image

FELTS: dict[str, tuple[float, float, float]] = {  # BGR
    "green": (40, 110, 30), "dark green": (35, 80, 25), "teal": (90, 100, 20),
    "blue": (120, 60, 25), "navy": (85, 40, 20), "red": (35, 30, 120),
    "burgundy": (45, 25, 80), "grey": (80, 80, 78), "black": (32, 30, 30),
}
PRINT_COLOURS = ((70, 175, 205), (225, 225, 225), (60, 150, 190), (180, 200, 210))
SKIN_TONES = ((125, 160, 215), (95, 130, 190), (70, 95, 140), (150, 180, 225), (55, 75, 110))
CHIP_COLOURS = ((40, 40, 200), (190, 90, 30), (30, 30, 30), (40, 160, 60), (30, 200, 230),
                (150, 60, 160), (235, 235, 235), (20, 110, 230))


@dataclass(frozen=True)
class WideTruth:
    """One drawn card: code, image quad (TL, TR, BR, BL of the card face), visible share of the
    face, visible share of its best corner index, and whether it counts (issue 16's rule)."""

    code: str
    face_up: bool
    quad: np.ndarray
    visible: float
    index_visible: float
    counts: bool
    # the share of each corner-index box that shows (top-left, bottom-right; French cards)
    index_shares: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class WideScene:
    """A rendered scene: the frame, the camera calibration that maps the table to it, the
    truth, and the randomised parameters in words (for logs)."""

    frame: np.ndarray
    camera: CameraPose
    truth: list[WideTruth]
    notes: dict[str, object]


def pinhole_homography(tilt: float, yaw: float, roll: float, hfov: float,
                       target: tuple[float, float], distance: float) -> np.ndarray:
    """Table plane (mm, z = 0) to image pixels for a camera `distance` mm from `target`,
    `tilt` degrees from vertical towards the near (large y) edge, turned by `yaw` about the
    vertical and by `roll` about its own axis."""
    t, y = math.radians(tilt), math.radians(yaw)
    back = np.array([math.sin(y) * math.sin(t), math.cos(y) * math.sin(t), math.cos(t)])
    centre = np.array([target[0], target[1], 0.0]) + distance * back
    forward = -back
    right = np.array([math.cos(y), -math.sin(y), 0.0])
    down = np.cross(right, forward)
    r = math.radians(roll)
    right, down = (math.cos(r) * right + math.sin(r) * down,
                   -math.sin(r) * right + math.cos(r) * down)
    rot = np.stack([right, down, forward])
    trans = -rot @ centre
    f = (FRAME_W / 2) / math.tan(math.radians(hfov) / 2)
    k = np.array([[f, 0, FRAME_W / 2], [0, f, FRAME_H / 2], [0, 0, 1]])
    hom = k @ np.column_stack([rot[:, 0], rot[:, 1], trans])
    return hom / hom[2, 2]


def _project(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ hom.T
    return q[:, :2] / q[:, 2:3]


def random_camera(rng: np.random.Generator) -> tuple[np.ndarray, dict[str, float]]:
    tilt = float(rng.uniform(20, 35))
    yaw = float(rng.uniform(-6, 6))
    roll = float(rng.uniform(-4, 4))
    hfov = float(rng.uniform(45, 62))
    target = (TABLE_W / 2 + float(rng.uniform(-40, 40)), 400 + float(rng.uniform(-30, 30)))
    # the lens frames the playing area (1,150-1,500 table units wide) whatever its angle
    span = float(rng.uniform(1150, 1500))
    distance = (span / 2) / math.tan(math.radians(hfov) / 2)
    hom = pinhole_homography(tilt, yaw, roll, hfov, target, distance)
    return hom, {"tilt": tilt, "yaw": yaw, "roll": roll, "hfov": hfov, "distance": distance}


def _felt(rng: np.random.Generator, hom: np.ndarray) -> tuple[np.ndarray, str]:
    name = list(FELTS)[int(rng.integers(len(FELTS)))]
    base = np.array(FELTS[name], np.float32) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
    mottle = cv2.resize(rng.normal(0, 1, (6, 10)).astype(np.float32), (FRAME_W, FRAME_H),
                        interpolation=cv2.INTER_CUBIC)
    fibre = rng.normal(0, 1, (FRAME_H, FRAME_W)).astype(np.float32)
    fibre = cv2.GaussianBlur(fibre, (0, 0), float(rng.uniform(0.5, 1.2)))
    texture = 1 + float(rng.uniform(0.02, 0.08)) * mottle + float(rng.uniform(0.04, 0.12)) * fibre
    felt = np.clip(base[None, None, :] * texture[:, :, None], 0, 255).astype(np.uint8)
    colour = PRINT_COLOURS[int(rng.integers(len(PRINT_COLOURS)))]
    width = int(rng.integers(2, 5))

    def poly(points: np.ndarray, closed: bool = False) -> None:
        cv2.polylines(felt, [np.round(_project(hom, points)).astype(np.int32)], closed, colour,
                      width, cv2.LINE_AA)

    # the table's arcs, boxes at the positions, the dealer's line, text
    for radius in rng.uniform(300, 700, int(rng.integers(1, 3))):
        t = np.linspace(math.radians(200), math.radians(340), 60)
        poly(np.column_stack([TABLE_W / 2 + radius * np.cos(t), 80 - radius * np.sin(t) * 0.0
                              + radius * 0.9 * (1 + np.sin(t)) + 250]))
    for i in range(int(rng.integers(0, 5))):
        cx, cy = 250 + 230 * i + rng.uniform(-30, 30), 600 + rng.uniform(-40, 40)
        w, h = rng.uniform(90, 160), rng.uniform(110, 170)
        box = np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                        [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]])
        if rng.random() < 0.5:
            t = np.linspace(0, 2 * math.pi, 40)
            box = np.column_stack([cx + w / 2 * np.cos(t), cy + w / 2 * np.sin(t)])
        poly(box, True)
    words = ("BANCO", "PUNTO", "BLACKJACK PAYS 3 TO 2", "DEALER MUST DRAW TO 16",
             "INSURANCE PAYS 2 TO 1", "SETTE E MEZZO", "TIE 8 TO 1", "PLAYER")
    for _ in range(int(rng.integers(1, 4))):
        word = words[int(rng.integers(len(words)))]
        at = _project(hom, np.array([[rng.uniform(200, 1000), rng.uniform(250, 650)]]))[0]
        cv2.putText(felt, word, (int(at[0]), int(at[1])), cv2.FONT_HERSHEY_SIMPLEX,
                    float(rng.uniform(0.6, 1.3)), colour, int(rng.integers(1, 3)), cv2.LINE_AA)
    return felt, name


class _Canvas:
    """The frame being drawn and a label image (which item is on top at each pixel)."""

    def __init__(self, felt: np.ndarray) -> None:
        self.frame = felt.astype(np.float32)
        self.labels = np.zeros((FRAME_H // LABEL_SCALE, FRAME_W // LABEL_SCALE), np.int16)
        self.areas: dict[int, int] = {}

    def shade(self, mask: np.ndarray, strength: float, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        roi = self.frame[y0:y1, x0:x1]
        roi *= (1 - strength * mask.astype(np.float32) / 255.0)[:, :, None]

    def paint(self, image: np.ndarray, alpha: np.ndarray, label: int,
              box: tuple[int, int, int, int]) -> None:
        """Blend `image` (the box's size) by `alpha` and mark the label image under it."""
        x0, y0, x1, y1 = box
        a = alpha.astype(np.float32)[:, :, None] / 255.0
        roi = self.frame[y0:y1, x0:x1]
        roi[:] = roi * (1 - a) + image.astype(np.float32) * a
        full = np.zeros((FRAME_H, FRAME_W), np.uint8)
        full[y0:y1, x0:x1] = alpha
        small = cv2.resize(full, (self.labels.shape[1], self.labels.shape[0]),
                           interpolation=cv2.INTER_AREA) > 127
        self.labels[small] = label
        self.areas[label] = int(small.sum())


def _box(points: np.ndarray, pad: int = 12) -> tuple[int, int, int, int] | None:
    x0 = max(0, math.floor(points[:, 0].min()) - pad)
    y0 = max(0, math.floor(points[:, 1].min()) - pad)
    x1 = min(FRAME_W, math.ceil(points[:, 0].max()) + pad)
    y1 = min(FRAME_H, math.ceil(points[:, 1].max()) + pad)
    return None if x1 <= x0 or y1 <= y0 else (x0, y0, x1, y1)


def _card_points(hom: np.ndarray, cx: float, cy: float, angle: float, w: float, h: float,
                 bend: float, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """Image points of card coordinates (u across 0..1, v along 0..1), the card bowed up by
    `bend` mm along its length (a cylinder: seen from an angle, its middle shifts)."""
    a = math.radians(angle)
    x = (us - 0.5) * w
    y = (vs - 0.5) * h
    lift = bend * np.sin(np.pi * vs)
    # a lifted point seen obliquely lands further from the camera's foot: approximate the
    # parallax by shifting it towards the far side by lift * tan(view angle) (~0.5)
    tx = cx + x * math.cos(a) - y * math.sin(a)
    ty = cy + x * math.sin(a) + y * math.cos(a) - 0.5 * lift
    return _project(hom, np.column_stack([tx, ty]))


def _to_linear(display: np.ndarray) -> np.ndarray:
    """Display values (0-255) to linear light (0-1), sRGB's curve."""
    x = np.clip(display.astype(np.float32) / 255.0, 0.0, 1.0)
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4).astype(np.float32)


def _to_display(linear: np.ndarray) -> np.ndarray:
    """Linear light (0-1) to display values (0-255, float32)."""
    x = np.clip(linear, 0.0, 1.0)
    return (255.0 * np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055)
            ).astype(np.float32)


def _filtered_scan(scan: np.ndarray, across: float) -> np.ndarray:
    """The BGRA scan area-filtered in linear light to 1.5x `across` pixels wide (its width on
    screen; the warp's bilinear sampling filters the rest)."""
    h, w = scan.shape[:2]
    width = int(min(w, max(8, round(1.5 * across))))
    size = (width, max(8, round(width * h / w)))
    colour = _to_display(cv2.resize(_to_linear(scan[:, :, :3]), size,
                                    interpolation=cv2.INTER_AREA))
    alpha = cv2.resize(scan[:, :, 3], size, interpolation=cv2.INTER_AREA)
    return np.dstack([np.round(colour).astype(np.uint8), alpha])


def _draw_card(canvas: _Canvas, hom: np.ndarray, scan: np.ndarray, cx: float, cy: float,
               angle: float, aspect: float, bend: float, label: int,
               linear: bool = False) -> np.ndarray:
    """Warp the card in strips along its length (piecewise perspective follows the bend);
    returns the image quad of its flat corners. `linear`: the scan filtered down in linear
    light first (the module's `linear_light`)."""
    flat = _card_points(hom, cx, cy, angle, CARD_WIDTH, CARD_WIDTH * aspect, 0.0,
                        np.array([0, 1, 1, 0.0]), np.array([0, 0, 1, 1.0]))
    box = _box(flat, 16)
    if box is None:
        return flat
    if linear:
        scan = _filtered_scan(scan, max(float(np.linalg.norm(flat[1] - flat[0])),
                                        float(np.linalg.norm(flat[2] - flat[3]))))
    h, w = scan.shape[:2]
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    shift = np.array([x0, y0], np.float64)
    strips = 6 if abs(bend) > 0.05 else 1
    image = np.zeros((size[1], size[0], 4), np.uint8)
    for i in range(strips):
        v0, v1 = i / strips, (i + 1) / strips
        src = np.array([[0, v0 * h], [w, v0 * h], [w, v1 * h], [0, v1 * h]], np.float32)
        dst = _card_points(hom, cx, cy, angle, CARD_WIDTH, CARD_WIDTH * aspect, bend,
                           np.array([0, 1, 1, 0.0]), np.array([v0, v0, v1, v1])) - shift
        m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        piece = cv2.warpPerspective(scan, m, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT)
        if strips > 1:
            strip_mask = np.zeros(size[::-1], np.uint8)
            cv2.fillConvexPoly(strip_mask, np.round(dst * 16).astype(np.int32), 255,
                               cv2.LINE_AA, 4)
            piece[:, :, 3] = cv2.min(piece[:, :, 3], cv2.dilate(strip_mask, np.ones((3, 3))))
        keep = piece[:, :, 3] > image[:, :, 3]
        image[keep] = piece[keep]
    alpha = image[:, :, 3]
    shadow = cv2.GaussianBlur(np.roll(alpha, (2, 2), axis=(0, 1)), (0, 0), 2.0)
    canvas.shade(shadow, 0.35, box)
    canvas.paint(image[:, :, :3], alpha, label, box)
    return flat


def _ellipse(cx: float, cy: float, rx: float, ry: float, angle: float, n: int = 32) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    a = math.radians(angle)
    x, y = rx * np.cos(t), ry * np.sin(t)
    return np.column_stack([cx + x * math.cos(a) - y * math.sin(a),
                            cy + x * math.sin(a) + y * math.cos(a)])


def _draw_polys(canvas: _Canvas, polys: list[np.ndarray], colour: np.ndarray, label: int,
                shadow: float = 0.35, soft: float = 1.0) -> None:
    box = _box(np.concatenate(polys), 16)
    if box is None:
        return
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for p in polys:
        cv2.fillPoly(mask, [np.round((p - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    canvas.shade(cv2.GaussianBlur(np.roll(mask, (5, 4), axis=(0, 1)), (0, 0), 4), shadow, box)
    depth = cv2.GaussianBlur(mask, (0, 0), 7).astype(np.float32) / 255.0
    image = np.clip(colour[None, None, :] * (0.65 + 0.4 * depth[:, :, None]), 0, 255)
    canvas.paint(image, cv2.GaussianBlur(mask, (0, 0), soft), label, box)


def _hand(hom: np.ndarray, cx: float, cy: float, angle: float, scale: float) -> list[np.ndarray]:
    """Palm, fingers, thumb and forearm (towards the dealer, -y), in image points."""
    rad = math.radians(angle)
    s = scale

    def at(dx: float, dy: float) -> tuple[float, float]:
        return (cx + s * (dx * math.cos(rad) - dy * math.sin(rad)),
                cy + s * (dx * math.sin(rad) + dy * math.cos(rad)))

    parts = [_ellipse(*at(0, 0), 48 * s, 58 * s, angle)]
    for dx, length in zip((-33, -11, 11, 32), (40, 50, 52, 44), strict=True):
        parts.append(_ellipse(*at(dx, 50 + length / 2), 11 * s, length * s / 2 + 8, angle))
    parts.append(_ellipse(*at(-58, 5), 12 * s, 34 * s, angle + 35))
    parts.append(_ellipse(*at(0, -170), 42 * s, 150 * s, angle))
    return [_project(hom, p) for p in parts]


def _layout(rng: np.random.Generator, count: int, cx: float, cy: float,
            aspect: float) -> tuple[str, list[tuple[float, float, float]]]:
    """Card centres and angles for one place: a row apart, a row overlapping, a fan or a
    cascade (each later card on top)."""
    style = str(rng.choice(["apart", "row", "fan", "cascade"]))
    base = float(rng.normal(0, 8)) + (180.0 if rng.random() < 0.1 else 0.0)
    out = []
    if style == "fan" and count > 1:
        spread = float(rng.uniform(10, 22))
        pivot = (cx, cy + CARD_WIDTH * aspect * 0.45)
        for i in range(count):
            a = base + spread * (i - (count - 1) / 2)
            r = math.radians(a)
            arm = CARD_WIDTH * aspect * 0.45
            out.append((pivot[0] + arm * math.sin(r), pivot[1] - arm * math.cos(r), a))
        return style, out
    if style == "cascade":
        dx, dy = CARD_WIDTH * rng.uniform(0.18, 0.45), CARD_WIDTH * rng.uniform(0.1, 0.35)
    elif style == "row":
        dx, dy = CARD_WIDTH * rng.uniform(0.4, 0.85), float(rng.uniform(-6, 6))
    else:
        dx, dy = CARD_WIDTH * rng.uniform(1.08, 1.4), float(rng.uniform(-6, 6))
    x0 = cx - dx * (count - 1) / 2
    y0 = cy - dy * (count - 1) / 2
    for i in range(count):
        out.append((x0 + dx * i + rng.normal(0, 2), y0 + dy * i + rng.normal(0, 2),
                    base + float(rng.normal(0, 3))))
    return style, out


def _index_boxes(quad_pts: np.ndarray) -> list[np.ndarray]:
    """The two corner-index boxes of a French card (top-left and bottom-right), from the
    card's corner quad (TL, TR, BR, BL), as image quads (bilinear in card coordinates)."""
    tl, tr, br, bl = quad_pts

    def at(u: float, v: float) -> np.ndarray:
        return (1 - u) * (1 - v) * tl + u * (1 - v) * tr + u * v * br + (1 - u) * v * bl

    boxes = []
    for u0, v0 in ((0.02, 0.02), (0.80, 0.76)):
        u1, v1 = u0 + 0.18, v0 + 0.22
        boxes.append(np.array([at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)]))
    return boxes


_FRAME_QUAD = np.array([[0, 0], [FRAME_W, 0], [FRAME_W, FRAME_H], [0, FRAME_H]], np.float32)


def _in_frame(quad: np.ndarray) -> float:
    """The share of the quad that lies inside the frame: what lies outside is not visible
    (the label image, the frame's size, sees only the part inside)."""
    q = np.asarray(quad, np.float32)
    full = float(cv2.contourArea(q))
    if full <= 0:
        return 0.0
    inside, _ = cv2.intersectConvexConvex(q, _FRAME_QUAD)
    return min(1.0, float(inside) / full)


def _share(labels: np.ndarray, label: int, quad: np.ndarray) -> float:
    """The share of `quad` where `label` is on top, the part outside the frame not shown."""
    mask = np.zeros(labels.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad / LABEL_SCALE).astype(np.int32), 1)
    total = int(mask.sum())
    return float(((labels == label) & (mask > 0)).sum()) / max(1, total) * _in_frame(quad)


def _look(rng: np.random.Generator, frame: np.ndarray,
          notes: dict[str, object], linear: bool = False) -> np.ndarray:
    """Exposure, contrast, colour temperature, vignetting, specular highlight, blur and motion
    blur, each randomised: the lens and the light, the same for every frame of one camera.
    `linear` (the module's `linear_light`): the light and the blurs in linear light, the
    sensor's clipping after them, and contrast and gamma as the camera's tone curve last."""
    img = _to_linear(frame) if linear else frame / 255.0
    exposure = float(rng.uniform(0.6, 1.45))
    temp = float(rng.uniform(-1, 1))
    gains = np.array([1 - 0.18 * temp, 1.0, 1 + 0.18 * temp], np.float32)  # B, G, R
    gains *= rng.uniform(0.94, 1.06, 3).astype(np.float32)  # the camera's white balance
    img = img * (exposure * gains)[None, None, :]
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    r2 = ((xx - FRAME_W / 2) / (FRAME_W / 2)) ** 2 + ((yy - FRAME_H / 2) / (FRAME_W / 2)) ** 2
    vignette = float(rng.uniform(0.0, 0.35))
    img = img * (1 - vignette * r2)[:, :, None]
    if rng.random() < 0.7:  # a lamp's reflection on the felt and cards
        sx, sy = rng.uniform(100, FRAME_W - 100), rng.uniform(80, FRAME_H - 80)
        sr = float(rng.uniform(30, 140))
        glow = float(rng.uniform(0.2, 0.8)) * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2)
                                                     / (2 * sr * sr))
        img = img + glow[:, :, None]
        notes["highlight"] = round(float(glow.max()), 2)
    contrast = float(rng.uniform(0.75, 1.3))
    gamma = float(rng.uniform(0.8, 1.25))

    def tone(x: np.ndarray) -> np.ndarray:
        return (np.power(np.clip((x - 0.45) * contrast + 0.45, 0, 1), gamma) * 255
                ).astype(np.float32)

    out = img.astype(np.float32) if linear else tone(img)
    blur = float(rng.choice([0.0, rng.uniform(0.4, 1.6)]))
    if blur > 0.25:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    motion = int(rng.choice([0, 0, int(rng.integers(3, 9))]))
    if motion:
        kernel = np.zeros((motion, motion), np.float32)
        kernel[motion // 2, :] = 1.0 / motion
        rot = cv2.getRotationMatrix2D((motion / 2 - 0.5, motion / 2 - 0.5),
                                      float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (motion, motion))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    if linear:
        out = tone(_to_display(out) / 255.0)
    notes.update(exposure=round(exposure, 2), temperature=round(temp, 2),
                 vignette=round(vignette, 2), contrast=round(contrast, 2), blur=round(blur, 2),
                 motion=motion)
    return out


def _sensor(rng: np.random.Generator, out: np.ndarray, notes: dict[str, object],
            shot: np.random.Generator | None = None) -> np.ndarray:
    """Sensor noise and JPEG. `shot`: this frame's own noise (a camera's frames share its noise
    level and quality, not its noise), with a flicker of the light of about 1%."""
    noise = float(rng.uniform(1.0, 8.0))
    if shot is None:
        out = out + rng.normal(0, noise, out.shape).astype(np.float32)
    else:
        gain = float(shot.normal(1.0, 0.01))
        grain = np.empty(out.shape, np.float32)
        cv2.setRNGSeed(int(shot.integers(1 << 31)))  # OpenCV's normal draws: 5x numpy's speed
        cv2.randn(grain, 0.0, noise)
        out = cv2.scaleAdd(out, gain, grain)
    quality = int(rng.integers(70, 93))
    ok, jpeg = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    notes.update(noise=round(noise, 1), jpeg=quality)
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


@dataclass
class _Plan:
    """Everything a seed draws for a scene, before anything is drawn: the camera, the felt, the
    cards (code, face up, table x, y, angle, bend, in drawing order: each place's later cards
    on top), the chip stacks, the dealer's hand (table x, y, angle, scale, skin) if any."""

    hom: np.ndarray
    notes: dict[str, object]
    felt: np.ndarray
    art: DeckArt
    aspect: float
    cards: list[tuple[str, bool, float, float, float, float]]
    places: list[int]  # each card's place (0: the dealer's)
    chips: list[tuple[float, float, np.ndarray, float, int]]
    hand: tuple[float, float, float, float, np.ndarray] | None

    def flat_quad(self, i: int) -> np.ndarray:
        """The image quad of card i's flat corners (TL, TR, BR, BL)."""
        _, _, x, y, a, _ = self.cards[i]
        return _card_points(self.hom, x, y, a, CARD_WIDTH, CARD_WIDTH * self.aspect, 0.0,
                            np.array([0, 1, 1, 0.0]), np.array([0, 0, 1, 1.0]))


def _rng(seed: int, art: DeckArt, kind: DeckKind, *stream: int) -> np.random.Generator:
    """The seed's draws for this deck (`stream`: another sequence of the same scene's)."""
    return np.random.default_rng([seed, list(DeckArt).index(art), list(DeckKind).index(kind),
                                  *stream])


def _plan(rng: np.random.Generator, art: DeckArt, kind: DeckKind) -> _Plan:
    hom, notes = random_camera(rng)
    felt, felt_name = _felt(rng, hom)
    notes["felt"] = felt_name
    back = prepared_card(None, art)
    aspect = back.shape[0] / back.shape[1]
    pool = deck(kind)
    total = int(rng.integers(1, 8))
    places = [(TABLE_W / 2 + rng.uniform(-60, 60), 260 + rng.uniform(-30, 30))]  # the dealer
    for i in range(int(rng.integers(0, 4))):
        places.append((350 + 350 * i + rng.uniform(-50, 50), 540 + rng.uniform(-40, 40)))
    counts = [1] * min(total, len(places))
    for _ in range(total - len(counts)):
        counts[int(rng.integers(len(counts)))] += 1
    face_down = int(rng.integers(total)) if rng.random() < 0.3 else -1
    plan = _Plan(hom, notes, felt, art, aspect, [], [], [], None)
    spots_for_chips = []
    for place, ((px, py), count) in enumerate(zip(places, counts, strict=False)):
        style, spots = _layout(rng, count, px, py, aspect)
        notes.setdefault("layouts", []).append(f"{style}{count}")  # type: ignore[union-attr]
        for x, y, a in spots:
            # eight-deck shoes: the same card may lie on the table twice
            code = pool[int(rng.integers(len(pool)))].code
            up = len(plan.cards) != face_down
            bend = float(rng.choice([0.0, rng.uniform(-7, 7)]))
            plan.cards.append((code, up, x, y, a, bend))
            plan.places.append(place)
        spots_for_chips.append((px + rng.uniform(-120, 120), py + rng.uniform(70, 140)))
    for cx, cy in spots_for_chips[:int(rng.integers(0, len(spots_for_chips) + 2))]:
        colour = np.array(CHIP_COLOURS[int(rng.integers(len(CHIP_COLOURS)))], np.float32)
        radius = float(rng.uniform(18, 22))
        stack = int(rng.integers(1, 6))
        plan.chips.append((cx, cy, colour, radius, stack))
    if plan.cards and rng.random() < 0.2:  # one scene in five: the dealer's hand over a card
        target = plan.flat_quad(int(rng.integers(len(plan.cards))))
        tx, ty = _project(np.linalg.inv(hom), target.mean(axis=0))[0]
        skin = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
        plan.hand = (float(tx + rng.uniform(-30, 30)), float(ty - rng.uniform(40, 90)),
                     float(rng.normal(0, 20)), float(rng.uniform(0.85, 1.15)), skin)
        notes["hand"] = True
    return plan


def _draw(plan: _Plan, shown: Collection[int] | None = None,
          hand: tuple[float, float, float, float, np.ndarray] | None = None,
          linear: bool = False) -> tuple[_Canvas, list[WideTruth]]:
    """The felt with the plan's cards numbered in `shown` (all: None), its chips and `hand`,
    and the truth of the cards drawn (in the plan's order). `linear`: `_draw_card`'s."""
    canvas = _Canvas(plan.felt)
    drawn, quads, labels = [], [], []
    for label, card in enumerate(plan.cards, 1):
        if shown is not None and label - 1 not in shown:
            continue
        code, up, x, y, a, bend = card
        scan = prepared_card(code if up else None, plan.art)
        quads.append(_draw_card(canvas, plan.hom, scan, x, y, a, plan.aspect, bend, label,
                                linear))
        drawn.append(card)
        labels.append(label)
    label = len(plan.cards)
    for cx, cy, colour, radius, stack in plan.chips:
        label += 1
        polys = []
        for level in range(stack):
            rim = _project(plan.hom, _ellipse(cx, cy, radius, radius, 0))
            rim[:, 1] -= 3.5 * level
            polys.append(rim)
        _draw_polys(canvas, polys, colour, label, 0.3, 0.7)
    if hand is not None:
        hx, hy, angle, scale, skin = hand
        _draw_polys(canvas, _hand(plan.hom, hx, hy, angle, scale), skin, label + 1)
    truth = []
    french = plan.art is DeckArt.FRENCH
    for lab, (code, up, *_), quad in zip(labels, drawn, quads, strict=True):
        # of the whole face: a card partly outside the frame shows only what lies inside
        visible = float((canvas.labels == lab).sum()) / max(1, canvas.areas.get(lab, 1)) * \
            _in_frame(quad)
        tl, br = (_share(canvas.labels, lab, box) for box in _index_boxes(quad))
        index = max(tl, br)
        counts_ = up and visible >= MIN_VISIBLE and (not french or index >= MIN_INDEX_VISIBLE)
        truth.append(WideTruth(code, up, quad.astype(np.float32), visible, index, counts_,
                               (tl, br)))
    return canvas, truth


def _pose(hom: np.ndarray) -> CameraPose:
    corners = _project(hom, np.array([[0, 0], [TABLE_W, 0], [TABLE_W, TABLE_H], [0, TABLE_H]]))
    return CameraPose(tuple((float(x), float(y)) for x, y in corners))


def _kinds(art: DeckArt | str, kind: DeckKind | str | None) -> tuple[DeckArt, DeckKind]:
    art = DeckArt(art)
    if kind is None:
        kind = DeckKind.FRENCH_52 if art is DeckArt.FRENCH else DeckKind.ITALIAN_40
    return art, DeckKind(kind)


def trained_in_linear_light(seed: int) -> bool:
    """Which training scenes the learned readers see drawn in linear light: the odd seeds,
    half of them, one rule for every network trained so (train_index_reader, and
    train_card_classifier --linear-light)."""
    return bool(seed % 2)


def wide_scene(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None, *,
               linear_light: bool = False) -> WideScene:
    """One seeded, domain-randomised scene of this art and deck kind (`linear_light`: the
    same scene filtered in linear light, see the module's docstring)."""
    return labelled_wide_scene(seed, art, kind, linear_light=linear_light)[0]


def labelled_wide_scene(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None, *,
                        linear_light: bool = False) -> tuple[WideScene, np.ndarray]:
    """`wide_scene` and its label image: what lies on top at each pixel, at 1/LABEL_SCALE of
    the frame's size (the scene's i-th truth is label i + 1; 0 the felt), for measures of
    what shows of each card (tests/bench/nameable_ceiling.py)."""
    art, kind = _kinds(art, kind)
    rng = _rng(seed, art, kind)
    plan = _plan(rng, art, kind)
    canvas, truth = _draw(plan, hand=plan.hand, linear=linear_light)
    frame = _sensor(rng, _look(rng, canvas.frame, plan.notes, linear_light), plan.notes)
    return WideScene(frame, _pose(plan.hom), truth, plan.notes), canvas.labels


@dataclass(frozen=True)
class WideFrame:
    """One frame of a deal: the picture, the truth of the cards on the felt (in the plan's
    order), how many cards were dealt, and whether the dealer's hand is over the newest."""

    frame: np.ndarray
    truth: list[WideTruth]
    cards: tuple[int, ...]  # each truth's card: its number in the plan (the same all deal long)
    dealt: int
    hand: bool


@dataclass(frozen=True)
class WideDeal:
    """A seed's scene dealt card by card, as the live camera sees it: the same camera, light
    and lens throughout (the still scene's), each frame with its own sensor noise."""

    camera: CameraPose
    notes: dict[str, object]
    order: list[int]  # the plan's cards in the order dealt
    frames: Iterator[WideFrame]


def deal_order(places: list[int]) -> list[int]:
    """Cards dealt round the table, the dealer's place last in each turn, as a dealer does:
    each place's first card, then each place's second, and so on (a place's later cards lie
    on top of its earlier ones, so they are dealt later)."""
    turn: dict[int, int] = {}
    keyed = []
    for i, place in enumerate(places):
        keyed.append((turn.get(place, 0), place == 0, place, i))
        turn[place] = turn.get(place, 0) + 1
    return [i for *_, i in sorted(keyed)]


def wide_deal(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None, *,
              opening: int = 3, hand_frames: int = 2, still_frames: int = 10) -> WideDeal:
    """Seed `seed`'s scene (wide_scene's cards, chips, camera and light; not its random hand)
    dealt one card at a time: `opening` frames of the felt with the bets alone, then for each
    card `hand_frames` frames with the dealer's hand over it as it is laid and `still_frames`
    with the table still (a camera at 5 frames a second, two seconds a card)."""
    art, kind = _kinds(art, kind)
    rng = _rng(seed, art, kind)
    plan = _plan(rng, art, kind)
    look_rng = copy.deepcopy(rng)  # after the plan, as the still scene's finish begins
    order = deal_order(plan.places)
    moves = _rng(seed, art, kind, 1)  # the dealer's hand
    skin = np.array(SKIN_TONES[int(moves.integers(len(SKIN_TONES)))], np.float32)
    hands = []
    for i in order:
        tx, ty = _project(np.linalg.inv(plan.hom), plan.flat_quad(i).mean(axis=0))[0]
        hands.append((float(tx + moves.uniform(-25, 25)), float(ty - moves.uniform(45, 80)),
                      float(moves.normal(0, 15)), float(moves.uniform(0.85, 1.15)), skin))

    def frames() -> Iterator[WideFrame]:
        n = 0
        for dealt in range(len(order) + 1):
            shown = set(order[:dealt])
            for hand, count in ((True, hand_frames), (False, still_frames if dealt else opening)):
                if hand and not dealt:
                    continue
                canvas, truth = _draw(plan, shown, hands[dealt - 1] if hand else None)
                after_look = copy.deepcopy(look_rng)
                looked = _look(after_look, canvas.frame, plan.notes)
                for _ in range(count):
                    frame = _sensor(copy.deepcopy(after_look), looked, plan.notes,
                                    _rng(seed, art, kind, 2, n))
                    n += 1
                    yield WideFrame(frame, truth, tuple(sorted(shown)), dealt, hand)

    return WideDeal(_pose(plan.hom), plan.notes, order, frames())


def visible_mask(labels: np.ndarray, label: int, quad: np.ndarray) -> np.ndarray:
    """Card `label`'s pixels on top in a scene's label image (`labelled_wide_scene`), on its
    face at telling.py's size (CEIL_H x CEIL_W, bool)."""
    to_face = cv2.getPerspectiveTransform(np.float32(quad) / LABEL_SCALE, FACE_CORNERS)
    on_top = (labels == label).astype(np.uint8)
    return cv2.warpPerspective(on_top, to_face, (CEIL_W, CEIL_H), flags=cv2.INTER_NEAREST,
                               borderValue=0) > 0
