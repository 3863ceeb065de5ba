"""A third source of table images, rendered by casting each pixel's ray into the scene, built
apart from wide_scenes.py and render.py and never tuned on.

Why: since the tenth session every recogniser change was tuned on wide_scenes.py's seeds, so its
held-out seeds say how the recogniser does on new scenes of that generator, not on another
renderer's; the issue's first figure (a third of the cards named) came from another renderer.
This one shares no drawing code with either (only the truth's types and two helpers of frame
geometry from wide_scenes.py), and draws what they do not:

- geometry: a pinhole camera with radial lens distortion (the issue's 20-35 degrees from
  vertical, small yaw and roll, 45-62 degree lens). Each pixel's ray is cast onto the table and
  onto each card's bent surface (a height field, two fixed-point steps), so a card curves
  smoothly and lies at its stack's height. The calibration handed over is the best homography
  of the distorted view (a technician's four marks give no better): a pixel or two off away
  from the middle, as on a real lens;
- the scans: the shared originals (../shared/cards beside the project, 330-390 px wide; not
  the project's 300 px copies, from which the recogniser's templates are made), filtered down to the card's size on screen, with rounded
  corners and a darker edge computed from card coordinates;
- light: a lamp at a point (falloff, Lambert and Blinn-Phong on each card's surface normal, so
  a bent glossy card shows a glare band), warm to cool, and the shadows that hands and chips
  cast along the lamp's direction;
- the felt: colour in HSV over green, blue, red, purple and brown, fibre and a weave, wrinkles,
  and a layout (arcs, betting boxes, text, a logo) printed in table coordinates;
- what covers cards: a hand of capsule fingers with a sleeve, striped chip stacks seen as
  cylinders, a dealer button;
- the sensor: chromatic aberration, defocus and motion blur, a Bayer mosaic with
  signal-dependent noise, demosaicing, a tone curve, saturation, sharpening, JPEG 70-92.

Seeds: below HELD_OUT_SEED_BASE to develop the generator; from it, only to report
(tests/bench/bench_wide_scenes.py --source ray). The same seed always gives the same scene.
Truth is wide_scenes.WideTruth by issue 16's rule (45% of the face shows; French cards also 80%
of a corner index's box), measured on a label image at the frame's full size.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from devices.camera.assets import AssetError
from devices.camera.layout import CARD_WIDTH, FRAME_H, FRAME_W, TABLE_H, TABLE_W, CameraPose
from devices.camera.wide_scenes import (
    LABEL_SCALE,
    MIN_INDEX_VISIBLE,
    MIN_VISIBLE,
    WideDeal,
    WideFrame,
    WideScene,
    WideTruth,
    _box,
    _in_frame,
    _kinds,
    deal_order,
)
from studio.cards import DeckArt, DeckKind, deck, parse_card, scan_file_name

HELD_OUT_SEED_BASE = 9_000_000
SHARED_CARDS = Path(__file__).resolve().parents[3] / "shared" / "cards"
CORNER_RADIUS = 0.055  # of a card's width
# lengths are table units (a card is CARD_WIDTH = 110 wide: about 1.9 units a real mm)
CARD_THICKNESS = 0.5  # each card of a place lies this much above the one before
CHIP_HEIGHT = 6.5  # a 39 mm chip is two thirds of a 58 mm card's width
CHIP_RADIUS = (34.0, 40.0)
INDEX_BOXES = ((0.02, 0.02, 0.20, 0.24), (0.80, 0.76, 0.98, 0.98))  # u0, v0, u1, v1
HAND, CHIP, BUTTON = 200, 100, 300  # label numbers (cards are 1..N)


@cache
def _original(code: str | None, art: DeckArt) -> np.ndarray:
    """The scan (BGR) as the shared folder holds it. Not the project's downscaled copies in
    their absence: a seed must give the same scene wherever it is drawn (the held-out
    figures were measured on these)."""
    name = "bg.jpg" if code is None else scan_file_name(parse_card(code), art)
    path = SHARED_CARDS / art.value / name
    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.exists() else None
    if image is None:
        raise AssetError(f"ray scenes draw the shared card scans: {path} is missing")
    return image


def _linear(bgr: np.ndarray) -> np.ndarray:
    """8-bit sRGB to linear light (float32)."""
    x = bgr.astype(np.float32) / 255.0
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4).astype(np.float32)


@dataclass(frozen=True)
class Lens:
    """A pinhole camera with radial distortion, in table millimetres (z up from the felt)."""

    rot: np.ndarray  # world to camera (rows: right, down, forward)
    centre: np.ndarray
    focal: float
    k1: float
    k2: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) to pixels (N, 2), distorted."""
        cam = (np.asarray(pts, np.float64) - self.centre) @ self.rot.T
        x, y = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
        r2 = x * x + y * y
        d = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return np.column_stack([self.focal * x * d + FRAME_W / 2,
                                self.focal * y * d + FRAME_H / 2])

    def rays(self) -> np.ndarray:
        """Each pixel's ray direction in world coordinates (H, W, 3), undistorted."""
        yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float64)
        xd, yd = (xx + 0.5 - FRAME_W / 2) / self.focal, (yy + 0.5 - FRAME_H / 2) / self.focal
        x, y = xd.copy(), yd.copy()
        for _ in range(6):
            r2 = x * x + y * y
            d = 1 + self.k1 * r2 + self.k2 * r2 * r2
            x, y = xd / d, yd / d
        cam = np.stack([x, y, np.ones_like(x)], axis=-1)
        return (cam @ self.rot).astype(np.float32)


def _lens(rng: np.random.Generator) -> tuple[Lens, dict[str, float]]:
    tilt = math.radians(float(rng.uniform(20, 35)))
    yaw = math.radians(float(rng.uniform(-5, 5)))
    roll = math.radians(float(rng.uniform(-3, 3)))
    hfov = float(rng.uniform(45, 62))
    width = float(rng.uniform(1100, 1450))  # what the lens frames of the table, mm
    focal = (FRAME_W / 2) / math.tan(math.radians(hfov) / 2)
    distance = (width / 2) / math.tan(math.radians(hfov) / 2)
    target = np.array([TABLE_W / 2 + rng.uniform(-50, 50), 410 + rng.uniform(-40, 40), 0.0])
    # on the players' side, above, looking at the dealer's (small y): the table's x runs to
    # the right of the frame and its y downwards, as its top-down plan reads (no mirror)
    back = np.array([math.sin(yaw) * math.sin(tilt), math.cos(yaw) * math.sin(tilt),
                     math.cos(tilt)])
    forward = -back
    right = np.array([math.cos(yaw), -math.sin(yaw), 0.0])
    down = np.cross(right, forward)
    right, down = (math.cos(roll) * right + math.sin(roll) * down,
                   -math.sin(roll) * right + math.cos(roll) * down)
    rot = np.stack([right, down, forward])
    k1 = float(rng.uniform(-0.06, 0.03))
    lens = Lens(rot, target + distance * back, focal, k1, float(rng.uniform(-0.01, 0.01)))
    return lens, {"tilt": round(math.degrees(tilt), 1), "hfov": round(hfov, 1),
                  "k1": round(k1, 3)}


def _hit(lens: Lens, rays: np.ndarray, z: np.ndarray | float) -> np.ndarray:
    """Where rays (..., 3) meet the level z (table x, y: ..., 2)."""
    s = (z - lens.centre[2]) / rays[..., 2]
    return lens.centre[:2] + rays[..., :2] * s[..., None]


def calibration(lens: Lens) -> CameraPose:
    """The homography of the table plane that fits the distorted view best (least squares over
    the part of the table the frame shows), as the four table corners' pixels."""
    gx, gy = np.meshgrid(np.linspace(-200, TABLE_W + 200, 41), np.linspace(-200, TABLE_H + 200, 25))
    table = np.column_stack([gx.ravel(), gy.ravel()])
    img = lens.project(np.column_stack([table, np.zeros(len(table))]))
    seen = (img[:, 0] >= 0) & (img[:, 0] < FRAME_W) & (img[:, 1] >= 0) & (img[:, 1] < FRAME_H)
    hom, _ = cv2.findHomography(table[seen], img[seen], 0)
    corners = np.array([[0, 0], [TABLE_W, 0], [TABLE_W, TABLE_H], [0, TABLE_H]], np.float64)
    pts = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), hom).reshape(-1, 2)
    return CameraPose(tuple((float(x), float(y)) for x, y in pts))


@dataclass
class _Card:
    code: str
    up: bool
    x: float
    y: float
    angle: float  # degrees; the card's long axis turned from the table's y
    bend: float  # mm its middle rises (a bowed card)
    base: float  # mm: the height it lies at


@dataclass
class _Plan:
    lens: Lens
    notes: dict[str, object]
    art: DeckArt
    aspect: float
    cards: list[_Card]
    places: list[int]  # each card's place (0: the dealer's)
    chips: list[tuple[float, float, int, tuple[float, float, float]]]
    button: tuple[float, float] | None
    hand: tuple[float, float, float, float, tuple[float, float, float]] | None
    lamp: np.ndarray
    light: np.ndarray  # BGR colour of the lamp


def _place_cards(rng: np.random.Generator, count: int, cx: float, cy: float,
                 h: float) -> tuple[str, list[tuple[float, float, float]]]:
    """(x, y, angle) of a place's cards, later ones on top: apart, a row overlapping, a fan
    round a pivot below the cards, or a cascade down and across."""
    style = str(rng.choice(["apart", "overlap", "fan", "cascade"])) if count > 1 else "apart"
    turn = float(rng.normal(0, 6)) + (180.0 if rng.random() < 0.12 else 0.0)
    out = []
    if style == "fan":
        step = float(rng.uniform(9, 20))
        arm = h * float(rng.uniform(0.35, 0.6))
        for i in range(count):
            a = turn + step * (i - (count - 1) / 2)
            r = math.radians(a)
            out.append((cx + arm * math.sin(r), cy + arm * (1 - math.cos(r)), a))
        return style, out
    if style == "cascade":
        sx = float(rng.uniform(0.15, 0.5)) * CARD_WIDTH * rng.choice([-1, 1])
        step = (sx, float(rng.uniform(0.08, 0.4)) * h)
    elif style == "overlap":
        step = (float(rng.uniform(0.35, 0.9)) * CARD_WIDTH, float(rng.normal(0, 4)))
    else:
        step = (float(rng.uniform(1.05, 1.5)) * CARD_WIDTH, float(rng.normal(0, 5)))
    for i in range(count):
        k = i - (count - 1) / 2
        out.append((cx + k * step[0] + rng.normal(0, 1.5), cy + k * step[1] + rng.normal(0, 1.5),
                    turn + float(rng.normal(0, 2.5))))
    return style, out


def _felt_colour(rng: np.random.Generator) -> np.ndarray:
    """A felt's linear BGR colour: hue over the cloths tables use, never a card's white."""
    hue = float(rng.choice([rng.uniform(50, 80), rng.uniform(95, 120), rng.uniform(0, 8),
                            rng.uniform(130, 150), rng.uniform(8, 16)],
                           p=[0.45, 0.3, 0.1, 0.08, 0.07]))  # OpenCV hue, 0..180
    sat, val = float(rng.uniform(120, 235)), float(rng.uniform(70, 160))
    bgr = cv2.cvtColor(np.uint8([[[hue, sat, val]]]), cv2.COLOR_HSV2BGR)
    return _linear(bgr)[0, 0]


def _plan(rng: np.random.Generator, art: DeckArt, kind: DeckKind) -> _Plan:
    lens, notes = _lens(rng)
    scan = _original(None, art)
    aspect = scan.shape[0] / scan.shape[1]
    h = CARD_WIDTH * aspect
    total = int(rng.integers(1, 8))
    places = [(TABLE_W / 2 + rng.uniform(-80, 80), 250 + rng.uniform(-40, 40))]
    players = int(rng.integers(0, 4))
    for i in range(players):  # along the table's curve, the outer ones nearer the dealer
        a = math.radians((i - (players - 1) / 2) * rng.uniform(28, 40))
        places.append((TABLE_W / 2 + 620 * math.sin(a) + rng.uniform(-30, 30),
                       130 + 450 * math.cos(a) + rng.uniform(-30, 30)))
    counts = [1] * min(total, len(places))
    for _ in range(total - len(counts)):
        counts[int(rng.integers(len(counts)))] += 1
    down = int(rng.integers(total)) if rng.random() < 0.25 else -1
    pool = deck(kind)
    cards: list[_Card] = []
    where: list[int] = []
    layouts = []
    for place, ((px, py), count) in enumerate(zip(places, counts, strict=False)):
        style, spots = _place_cards(rng, count, px, py, h)
        layouts.append(f"{style}{count}")
        for layer, (x, y, a) in enumerate(spots):
            bend = float(rng.uniform(-1.5, 4.0)) if rng.random() < 0.6 else 0.0
            cards.append(_Card(pool[int(rng.integers(len(pool)))].code, len(cards) != down,
                               x, y, a, bend, CARD_THICKNESS * (layer + 1)))
            where.append(place)
    notes["layouts"] = layouts
    chips = []
    for px, py in places[:int(rng.integers(0, len(places) + 1))]:
        chip = CHIPS[int(rng.integers(len(CHIPS)))]
        colour = tuple(float(c) for c in _linear(np.uint8([[chip]]))[0, 0])
        chips.append((px + rng.uniform(-160, 160), py + rng.choice([-1, 1]) * rng.uniform(80, 170),
                      int(rng.integers(1, 9)), colour))
    button = (float(rng.uniform(200, 1200)), float(rng.uniform(150, 650))) \
        if rng.random() < 0.3 else None
    hand = None
    if cards and rng.random() < 0.2:  # one scene in five: the dealer's hand over a card
        c = cards[int(rng.integers(len(cards)))]
        tone = _linear(np.uint8([[SKIN[int(rng.integers(len(SKIN)))]]]))[0, 0]
        hand = (c.x + float(rng.uniform(-45, 45)), c.y - float(rng.uniform(10, 70)),
                float(rng.normal(0, 25)), float(rng.uniform(0.85, 1.2)),
                tuple(float(t) for t in tone))
        notes["hand"] = True
    lamp = np.array([rng.uniform(200, 1200), rng.uniform(-300, 600), rng.uniform(1400, 2600)])
    kelvin = float(rng.uniform(2800, 6500))
    light = np.array([0.55 + kelvin / 14000, 0.9, 1.35 - kelvin / 12000], np.float32)
    notes["kelvin"] = round(kelvin)
    return _Plan(lens, notes, art, aspect, cards, where, chips, button, hand, lamp,
                 light / light[1])


CHIPS = ((40, 40, 190), (170, 80, 30), (35, 35, 35), (50, 150, 50), (40, 190, 225),
         (140, 50, 130), (225, 225, 225), (30, 120, 235), (160, 160, 40))
SKIN = ((120, 155, 210), (90, 125, 185), (65, 90, 135), (150, 178, 222), (50, 70, 105),
        (105, 140, 200))


class _Scene:
    """The frame's linear radiance before the sensor, its label image (what lies on top at each
    pixel: 0 the felt, card i+1, CHIP.., BUTTON, HAND) and each card's face coordinates."""

    def __init__(self, plan: _Plan, rng: np.random.Generator) -> None:
        self.plan = plan
        self.rays = plan.lens.rays()
        self.radiance = self._felt(rng)
        self.labels = np.zeros((FRAME_H, FRAME_W), np.int16)
        self.drawn: dict[int, tuple[tuple[int, int, int, int], np.ndarray, np.ndarray,
                                    np.ndarray]] = {}  # label: box, u, v, its pixels
        self.gloss = (float(rng.choice([0.0, rng.uniform(0.05, 0.6)])),
                      float(rng.uniform(15, 80)))

    def _felt(self, rng: np.random.Generator) -> np.ndarray:
        """The cloth: colour, fibre and weave, printing and wrinkles in table coordinates
        (1 mm a texture pixel), lit by the lamp."""
        table = _hit(self.plan.lens, self.rays, 0.0)
        lo = np.clip(np.floor(table.reshape(-1, 2).min(0)), -1500, 2900) - 4
        hi = np.clip(np.ceil(table.reshape(-1, 2).max(0)), -1500, 2900) + 4
        tw, th = int(hi[0] - lo[0]), int(hi[1] - lo[1])
        fibre = np.empty((th, tw), np.float32)
        cv2.setRNGSeed(int(rng.integers(1 << 31)))
        cv2.randn(fibre, 0.0, 1.0)
        fibre = cv2.GaussianBlur(fibre, (0, 0), float(rng.uniform(0.5, 1.4)))
        period = float(rng.uniform(1.2, 3.0))
        weave = np.outer(np.sin(np.arange(th, dtype=np.float32) / period),
                         np.sin(np.arange(tw, dtype=np.float32) / period))
        texture = float(rng.uniform(0.03, 0.1)) * fibre + float(rng.uniform(0, 0.05)) * weave
        prints = np.zeros((th, tw), np.uint8)
        _print_layout(rng, prints, lo)
        mx = (table[..., 0] - lo[0]).astype(np.float32)
        my = (table[..., 1] - lo[1]).astype(np.float32)
        grain = cv2.remap(texture, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        ink = cv2.remap(prints, mx, my, cv2.INTER_LINEAR).astype(np.float32) / 255.0
        colour = _felt_colour(rng)
        ink_colour = _linear(np.uint8([[PRINT_INKS[int(rng.integers(len(PRINT_INKS)))]]]))[0, 0]
        bumps = cv2.resize(rng.normal(0, 1, (9, 16)).astype(np.float32), (FRAME_W, FRAME_H),
                           interpolation=cv2.INTER_CUBIC)
        wrinkle = 1 + float(rng.uniform(0, 0.3)) * cv2.Sobel(bumps, cv2.CV_32F, 1, 1, ksize=3)
        cloth = colour * (1 + grain[..., None]) * wrinkle[..., None]
        albedo = cloth * (1 - ink[..., None]) + ink_colour * ink[..., None]
        lit = self._light(np.zeros((FRAME_H, FRAME_W), np.float32), None,
                          (slice(None), slice(None)), (0.0, 1.0))
        return (albedo * lit[..., None] * self.plan.light).astype(np.float32)

    def _light(self, z: np.ndarray, normal: np.ndarray | None,
               where: tuple[slice, slice], gloss: tuple[float, float]) -> np.ndarray:
        """Ambient, Lambert and Blinn-Phong light of the lamp at the pixels `where`, on the
        surface at heights z with these normals (None: up); gloss is (strength, shininess)."""
        plan = self.plan
        rays = self.rays[where]
        p = np.concatenate([_hit(plan.lens, rays, z), z[..., None]], axis=-1)
        to_lamp = plan.lamp.astype(np.float32) - p
        dist = np.linalg.norm(to_lamp, axis=-1, keepdims=True)
        ray_l = to_lamp / dist
        n = np.array([0, 0, 1], np.float32) if normal is None else normal
        lambert = np.clip((ray_l * n).sum(-1), 0, 1)
        shade = 0.3 + 0.85 * lambert * (plan.lamp[2] / dist[..., 0]) ** 2
        if gloss[0] > 0:
            half = ray_l - rays / np.linalg.norm(rays, axis=-1, keepdims=True)
            half /= np.linalg.norm(half, axis=-1, keepdims=True)
            shade = shade + gloss[0] * np.clip((half * n).sum(-1), 0, 1) ** gloss[1]
        return shade.astype(np.float32)

    def card(self, label: int, card: _Card) -> None:
        """Cast the box's rays onto the card's bowed face and paint what lands on it."""
        plan = self.plan
        w, h = CARD_WIDTH, CARD_WIDTH * plan.aspect
        corners = np.concatenate([_card_corners(card, plan.aspect, card.base),
                                  _card_corners(card, plan.aspect, card.base + card.bend)])
        box = _box(plan.lens.project(corners), 6)
        if box is None:
            return
        x0, y0, x1, y1 = box
        where = (slice(y0, y1), slice(x0, x1))
        rays = self.rays[where]
        a = math.radians(card.angle)
        axis_u = np.array([math.cos(a), math.sin(a)], np.float32)
        axis_v = np.array([-math.sin(a), math.cos(a)], np.float32)
        z = np.full(rays.shape[:2], card.base, np.float32)
        for _ in range(3):  # where a ray lands on the bowed face depends on its height there
            rel = _hit(plan.lens, rays, z) - np.array([card.x, card.y], np.float32)
            u, v = rel @ axis_u / w + 0.5, rel @ axis_v / h + 0.5
            z = (card.base + card.bend * np.sin(np.pi * np.clip(v, 0, 1))).astype(np.float32)
        # the rounded rectangle's signed distance (mm) and a pixel's size there: the edge's
        # coverage, antialiased
        r = CORNER_RADIUS * w
        qx, qy = np.abs(u - 0.5) * w - w / 2 + r, np.abs(v - 0.5) * h - h / 2 + r
        dist = (np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
                + np.minimum(np.maximum(qx, qy), 0) - r)
        gy, gx = np.gradient(u * w)
        alpha = np.clip(0.5 - dist / (np.hypot(gx, gy) + 1e-3), 0, 1).astype(np.float32)
        mine = alpha > 0.5
        if not mine.any():
            return
        scan = _original(card.code if card.up else None, plan.art)
        across = max(8, round(1.5 * math.sqrt(mine.sum() / plan.aspect)))
        small = cv2.resize(scan, (across, round(across * plan.aspect)),
                           interpolation=cv2.INTER_AREA)  # filtered down to its size on screen
        tex = cv2.remap(_linear(small), (u * small.shape[1] - 0.5).astype(np.float32),
                        (v * small.shape[0] - 0.5).astype(np.float32), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
        tex *= np.where(dist > -0.5, 0.55, 1.0).astype(np.float32)[..., None]  # its cut edge
        slope = (card.bend * np.pi * np.cos(np.pi * np.clip(v, 0, 1)) / h).astype(np.float32)
        normal = np.stack([-slope * axis_v[0], -slope * axis_v[1], np.ones_like(slope)], -1)
        normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
        lit = tex * self._light(z, normal, where, self.gloss)[..., None] * plan.light
        roi = self.radiance[where]
        roi[:] = roi * (1 - alpha[..., None]) + lit * alpha[..., None]
        self.labels[where][mine] = label
        self.drawn[label] = (box, u, v, mine)

    def shadow(self, parts: list[np.ndarray], strength: float) -> None:
        """Darken what lies under world polygons `parts` (N, 3 each) cast from the lamp onto
        the felt (near enough for cards, which lie on it)."""
        plan = self.plan
        mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
        for part in parts:
            d = part - plan.lamp
            ground = part - d * (part[:, 2:3] / d[:, 2:3])
            pts = plan.lens.project(ground)
            cv2.fillPoly(mask, [np.round(pts * 8).astype(np.int32)], 255, cv2.LINE_AA, 3)
        soft = cv2.GaussianBlur(mask, (0, 0), 4).astype(np.float32) / 255.0
        self.radiance *= (1 - strength * soft)[..., None]

    def solid(self, parts: list[np.ndarray], colour: np.ndarray, label: int,
              relief: float = 0.4) -> None:
        """Paint world polygons (something standing above the cards) in one colour, rounded
        by `relief` towards its outline."""
        pts = [self.plan.lens.project(p) for p in parts]
        box = _box(np.concatenate(pts), 4)
        if box is None:
            return
        x0, y0, x1, y1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for p in pts:
            cv2.fillPoly(mask, [np.round((p - [x0, y0]) * 8).astype(np.int32)], 255,
                         cv2.LINE_AA, 3)
        depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        depth = np.clip(depth / max(1.0, float(depth.max()) * 0.6), 0, 1)
        shade = (1 - relief) + relief * depth
        alpha = mask.astype(np.float32)[..., None] / 255.0
        roi = self.radiance[y0:y1, x0:x1]
        roi[:] = roi * (1 - alpha) + (colour * self.plan.light) * shade[..., None] * alpha
        self.labels[y0:y1, x0:x1][mask > 127] = label

    def stack(self, x: float, y: float, count: int, radius: float, colour: np.ndarray,
              label: int) -> None:
        """Chips (or a dealer button) as cylinders: each side striped where it faces the
        camera, each top with a ring."""
        t = np.linspace(0, 2 * math.pi, 48, endpoint=False)
        rim = np.column_stack([x + radius * np.cos(t), y + radius * np.sin(t)])
        self.shadow([np.column_stack([rim, np.full(48, count * CHIP_HEIGHT)])], 0.45)
        white = np.array([0.8, 0.8, 0.8], np.float32)
        towards = self.plan.lens.centre[:2] - np.array([x, y])
        for k in range(count):
            z0, z1 = k * CHIP_HEIGHT, (k + 1) * CHIP_HEIGHT
            low = np.column_stack([rim, np.full(48, z0)])
            high = np.column_stack([rim, np.full(48, z1)])
            self.solid([np.concatenate([low, high[::-1]])], colour * 0.6, label, 0.1)
            for s in range(0, 48, 8):  # the edge spots facing the camera
                if np.dot([math.cos(t[s + 2]), math.sin(t[s + 2])], towards) > 0:
                    self.solid([np.concatenate([low[s:s + 4], high[s:s + 4][::-1]])],
                               white, label, 0.0)
            self.solid([high], colour, label, 0.15)
            inner = np.column_stack([x + 0.7 * radius * np.cos(t), y + 0.7 * radius * np.sin(t),
                                     np.full(48, z1)])
            self.solid([inner], white * 0.9 if k == count - 1 else colour, label, 0.0)

    def hand(self, hx: float, hy: float, angle: float, scale: float,
             skin: np.ndarray, sleeve: np.ndarray) -> None:
        """The dealer's hand reaching in from the dealer's side: palm, four fingers and a
        thumb as capsules at their heights, a forearm in a sleeve rising towards the camera."""
        a = math.radians(angle)

        def at(dx: float, dy: float, z: float) -> np.ndarray:
            dx, dy = dx * scale * 1.5, dy * scale * 1.5
            return np.array([hx + dx * math.cos(a) - dy * math.sin(a),
                             hy + dx * math.sin(a) + dy * math.cos(a), z])

        fingers = [capsule(at(dx, 35, 30), at(dx + lean, 35 + length, 12), 13 * scale)
                   for dx, lean, length in ((-30, -6, 48), (-10, -2, 60), (10, 2, 62),
                                            (29, 6, 50))]
        palm = [capsule(at(-14, 0, 38), at(14, 0, 38), 54 * scale)]
        thumb = [capsule(at(-40, -5, 28), at(-58, 40, 14), 15 * scale)]
        arm = [capsule(at(0, -40, 50), at(0, -190, 120), 50 * scale)]
        cuff = [capsule(at(0, -150, 105), at(0, -420, 260), 62 * scale)]
        self.shadow(fingers + palm + thumb + arm + cuff, 0.5)
        self.solid(cuff, sleeve, HAND, 0.3)
        self.solid(arm + palm + thumb + fingers, skin, HAND, 0.45)


def capsule(p0: np.ndarray, p1: np.ndarray, radius: float, n: int = 10) -> np.ndarray:
    """The outline of a rounded segment lying flat at its ends' heights (world points)."""
    d = p1[:2] - p0[:2]
    ang = math.atan2(d[1], d[0])
    ends = []
    for end, start in ((p1, ang - math.pi / 2), (p0, ang + math.pi / 2)):
        t = start + np.linspace(0, math.pi, n)
        ends.append(np.column_stack([end[0] + radius * np.cos(t), end[1] + radius * np.sin(t),
                                     np.full(n, end[2])]))
    return np.concatenate(ends)


def _print_layout(rng: np.random.Generator, prints: np.ndarray, lo: np.ndarray) -> None:
    """The table's printing on the texture (1 mm a pixel, its origin at table point `lo`)."""

    def at(x: float, y: float) -> tuple[int, int]:
        return round(x - lo[0]), round(y - lo[1])

    width = int(rng.integers(2, 6))
    for r in rng.uniform(380, 760, int(rng.integers(1, 3))):
        cv2.ellipse(prints, at(TABLE_W / 2, 120), (int(r), int(r * 0.95)), 0, 10, 170, 255,
                    width, cv2.LINE_AA)
    for i in range(int(rng.integers(0, 6))):
        a = math.radians((i - 2) * 30)
        c = at(TABLE_W / 2 + 560 * math.sin(a), 130 + 430 * math.cos(a))
        s = int(rng.uniform(50, 85))
        if rng.random() < 0.5:
            cv2.circle(prints, c, s, 255, width, cv2.LINE_AA)
        else:
            cv2.rectangle(prints, (c[0] - s, c[1] - int(s * 1.3)), (c[0] + s, c[1] + int(s * 1.3)),
                          255, width, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 4))):
        font = int(rng.choice([cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                               cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX]))
        cv2.putText(prints, WORDS[int(rng.integers(len(WORDS)))],
                    at(rng.uniform(150, 900), rng.uniform(330, 720)), font,
                    float(rng.uniform(1.0, 2.2)), 255, int(rng.integers(2, 5)), cv2.LINE_AA)
    if rng.random() < 0.5:  # a logo: two rings and a star
        c = at(TABLE_W / 2 + rng.uniform(-200, 200), rng.uniform(420, 560))
        for r in (70, 55):
            cv2.circle(prints, c, r, 255, 3, cv2.LINE_AA)
        star = [(c[0] + 45 * math.cos(math.radians(90 + 144 * k)),
                 c[1] - 45 * math.sin(math.radians(90 + 144 * k))) for k in range(5)]
        cv2.polylines(prints, [np.round(np.array(star)).astype(np.int32)], True, 255, 3,
                      cv2.LINE_AA)


WORDS = ("BANCO", "PUNTO", "SETTE E MEZZO", "BLACKJACK PAYS 3 TO 2", "INSURANCE 2 TO 1",
         "DEALER STANDS ON 17", "PAIR 11:1", "TIE 8 TO 1", "LIVE CASINO", "MAZZIERE")
PRINT_INKS = ((80, 190, 220), (230, 230, 230), (40, 140, 200), (200, 215, 225), (30, 30, 30))


def _card_corners(card: _Card, aspect: float, z: float) -> np.ndarray:
    """The card's flat corners (TL, TR, BR, BL of the face) in world mm at height z."""
    a = math.radians(card.angle)
    w, h = CARD_WIDTH, CARD_WIDTH * aspect
    out = []
    for u, v in ((0, 0), (1, 0), (1, 1), (0, 1)):
        x, y = (u - 0.5) * w, (v - 0.5) * h
        out.append((card.x + x * math.cos(a) - y * math.sin(a),
                    card.y + x * math.sin(a) + y * math.cos(a), z))
    return np.array(out, np.float64)


def _disk(radius: float) -> np.ndarray:
    size = 2 * math.ceil(radius) + 1
    yy, xx = np.mgrid[:size, :size] - size // 2
    k = np.clip(radius + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    return k / k.sum()


def _encode(x: np.ndarray) -> np.ndarray:
    """Linear light to sRGB (0..1)."""
    x = np.clip(x, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def _sensor(rng: np.random.Generator, radiance: np.ndarray, notes: dict[str, object],
            grain: np.random.Generator | None = None) -> np.ndarray:
    """The camera: exposure and a white balance a little off, vignetting, chromatic
    aberration, defocus, motion blur, a Bayer mosaic with shot and read noise, demosaicing,
    a tone curve, saturation, sharpening and JPEG. `grain`: this frame's own noise and a
    flicker of the light of about 1% (a camera's frames share everything else)."""
    exposure = float(rng.uniform(0.5, 1.5))
    img = radiance * exposure * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    if grain is not None:
        img *= float(grain.normal(1.0, 0.01))
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    r2 = ((xx - FRAME_W / 2) ** 2 + (yy - FRAME_H / 2) ** 2) / (FRAME_W / 2) ** 2
    vignette = float(rng.uniform(0, 0.4))
    img *= (1 - vignette * r2 / (1 + r2))[..., None] * (1 + vignette / 2)
    ca = float(rng.uniform(0, 0.0015))
    for channel, sign in ((0, 1), (2, -1)):  # blue and red imaged a little larger / smaller
        m = cv2.getRotationMatrix2D((FRAME_W / 2, FRAME_H / 2), 0, 1 + sign * ca)
        img[..., channel] = cv2.warpAffine(img[..., channel], m, (FRAME_W, FRAME_H),
                                           borderMode=cv2.BORDER_REFLECT)
    defocus = float(rng.choice([0.0, rng.uniform(0.5, 1.8)]))
    if defocus > 0:
        img = cv2.filter2D(img, -1, _disk(defocus))
    motion = int(rng.integers(3, 10)) if rng.random() < 0.3 else 0
    if motion:
        k = np.zeros((motion, motion), np.float32)
        k[motion // 2, :] = 1
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D(((motion - 1) / 2, (motion - 1) / 2),
                                                      float(rng.uniform(0, 180)), 1),
                           (motion, motion))
        img = cv2.filter2D(img, -1, k / max(1e-6, float(k.sum())))
    # the mosaic: R at even rows' even columns, B at odd rows' odd columns (OpenCV's BayerBG)
    raw = np.empty((FRAME_H, FRAME_W), np.float32)
    raw[0::2, 0::2] = img[0::2, 0::2, 2]
    raw[0::2, 1::2] = img[0::2, 1::2, 1]
    raw[1::2, 0::2] = img[1::2, 0::2, 1]
    raw[1::2, 1::2] = img[1::2, 1::2, 0]
    raw = np.clip(raw, 0, 1)
    shot, read = float(rng.uniform(0.0003, 0.004)), float(rng.uniform(0.002, 0.012))
    noise = np.empty_like(raw)
    own = int(rng.integers(1 << 31))
    cv2.setRNGSeed(own if grain is None else int(grain.integers(1 << 31)))
    cv2.randn(noise, 0.0, 1.0)
    raw = np.clip(raw + noise * np.sqrt(shot * raw + read * read), 0, 1)
    rgb = cv2.cvtColor((raw * 65535).astype(np.uint16), cv2.COLOR_BayerBG2BGR)
    out = _encode(rgb.astype(np.float32) / 65535)
    contrast = float(rng.uniform(0.8, 1.3))
    out = 0.5 + (out - 0.5) * contrast
    grey = out.mean(axis=-1, keepdims=True)
    saturation = float(rng.uniform(0.75, 1.25))
    out = grey + (out - grey) * saturation
    sharpen = float(rng.uniform(0, 0.8))
    if sharpen > 0.05:
        out = out + sharpen * (out - cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.8, 2.0))))
    quality = int(rng.integers(70, 93))
    ok, jpeg = cv2.imencode(".jpg", np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    notes.update(exposure=round(exposure, 2), vignette=round(vignette, 2),
                 defocus=round(defocus, 2), motion=motion, jpeg=quality,
                 contrast=round(contrast, 2), sharpen=round(sharpen, 2))
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def _truth(scene: _Scene, label: int, card: _Card, french: bool) -> WideTruth:
    """What shows of a card once everything is drawn: of its face, and of each index box."""
    plan = scene.plan
    quad = plan.lens.project(_card_corners(card, plan.aspect, card.base)).astype(np.float32)
    if label not in scene.drawn:
        return WideTruth(card.code, card.up, quad, 0.0, 0.0, False, (0.0, 0.0))
    (x0, y0, x1, y1), u, v, mine = scene.drawn[label]
    top = scene.labels[y0:y1, x0:x1] == label
    visible = float(top.sum()) / max(1, int(mine.sum())) * _in_frame(quad)
    shares = []
    for u0, v0, u1, v1 in INDEX_BOXES:
        box = mine & (u >= u0) & (u <= u1) & (v >= v0) & (v <= v1)
        corners = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
        at = np.array([quad[0] * (1 - a) * (1 - b) + quad[1] * a * (1 - b) + quad[2] * a * b
                       + quad[3] * (1 - a) * b for a, b in corners])
        shares.append(float((box & top).sum()) / max(1, int(box.sum())) * _in_frame(at)
                      if box.any() else 0.0)
    index = max(shares)
    counts = card.up and visible >= MIN_VISIBLE and (not french or index >= MIN_INDEX_VISIBLE)
    return WideTruth(card.code, card.up, quad, visible, index, counts, (shares[0], shares[1]))


def _seeded(seed: int, art: DeckArt, kind: DeckKind, *stream: int) -> np.random.Generator:
    """The seed's draws for this deck (`stream`: another sequence of the same scene's)."""
    return np.random.default_rng([seed, 7, list(DeckArt).index(art),
                                  list(DeckKind).index(kind), *stream])


def labelled_ray_scene(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None
                       ) -> tuple[WideScene, np.ndarray]:
    """One seeded scene of this art and deck kind, and its label image at 1/LABEL_SCALE of
    the frame (the i-th truth is label i + 1; 0 the felt), as wide_scenes' are."""
    art, kind = _kinds(art, kind)
    rng = _seeded(seed, art, kind)
    return render(_plan(rng, art, kind), rng)


Hand = tuple[float, float, float, float, tuple[float, float, float]]


def _compose(plan: _Plan, rng: np.random.Generator, shown: Collection[int] | None = None,
             hand: Hand | None = None, sleeve: np.ndarray | None = None
             ) -> tuple[_Scene, list[WideTruth]]:
    """The plan's cards numbered in `shown` (all: None) in order, the dealer button, the
    chips and `hand` (its sleeve drawn from rng unless given) on the felt, and the truth of
    the cards drawn (in the plan's order)."""
    scene = _Scene(plan, rng)
    labels = [i + 1 for i in range(len(plan.cards)) if shown is None or i in shown]
    for label in labels:
        scene.card(label, plan.cards[label - 1])
    if plan.button is not None:
        scene.stack(*plan.button, 2, 45.0, np.array([0.85, 0.85, 0.85], np.float32), BUTTON)
    for i, (x, y, count, colour) in enumerate(plan.chips):
        radius = float(rng.uniform(*CHIP_RADIUS))
        scene.stack(x, y, count, radius, np.array(colour, np.float32), CHIP + i)
    if hand is not None:
        hx, hy, angle, scale, skin = hand
        if sleeve is None:
            sleeve = _linear(np.uint8([[rng.integers(10, 90, 3)]]))[0, 0]
        scene.hand(hx, hy, angle, scale, np.array(skin, np.float32), sleeve)
    french = plan.art is DeckArt.FRENCH
    return scene, [_truth(scene, label, plan.cards[label - 1], french) for label in labels]


def render(plan: _Plan, rng: np.random.Generator) -> tuple[WideScene, np.ndarray]:
    """A still of a plan (its hand included) through the sensor: the frame, the truth of every
    card and the label image (half size)."""
    scene, truth = _compose(plan, rng, hand=plan.hand)
    frame = _sensor(rng, scene.radiance, plan.notes)
    small = cv2.resize(scene.labels, (FRAME_W // LABEL_SCALE, FRAME_H // LABEL_SCALE),
                       interpolation=cv2.INTER_NEAREST)
    return WideScene(frame, calibration(plan.lens), truth, plan.notes), small


def ray_deal(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None, *,
             opening: int = 3, hand_frames: int = 2, still_frames: int = 10) -> WideDeal:
    """Seed `seed`'s plan (the still's cards, chips, camera, lamp and felt; not its random
    hand) dealt one card at a time, as wide_scenes.wide_deal deals its own: `opening` frames
    of the bets alone, then for each card `hand_frames` with the dealer's hand over it as it
    is laid and `still_frames` of the table still, each frame with its own sensor noise and
    a flicker of the light."""
    art, kind = _kinds(art, kind)
    rng = _seeded(seed, art, kind)
    plan = _plan(rng, art, kind)
    after_plan = copy.deepcopy(rng)
    order = deal_order(plan.places)
    moves = _seeded(seed, art, kind, 1)  # the dealer's hand
    skin = tuple(float(t) for t in _linear(np.uint8([[SKIN[int(moves.integers(len(SKIN)))]]]))[0, 0])
    sleeve = _linear(np.uint8([[moves.integers(10, 90, 3)]]))[0, 0]
    hands: list[Hand] = []
    for i in order:
        c = plan.cards[i]
        hands.append((c.x + float(moves.uniform(-30, 30)), c.y - float(moves.uniform(10, 60)),
                      float(moves.normal(0, 15)), float(moves.uniform(0.85, 1.15)), skin))

    def frames() -> Iterator[WideFrame]:
        n = 0
        for dealt in range(len(order) + 1):
            shown = set(order[:dealt])
            for with_hand, count in ((True, hand_frames),
                                     (False, still_frames if dealt else opening)):
                if with_hand and not dealt:
                    continue
                drawn = copy.deepcopy(after_plan)  # the same felt and chips every frame
                scene, truth = _compose(plan, drawn, shown,
                                        hands[dealt - 1] if with_hand else None, sleeve)
                for _ in range(count):
                    frame = _sensor(copy.deepcopy(drawn), scene.radiance, plan.notes,
                                    _seeded(seed, art, kind, 2, n))
                    n += 1
                    yield WideFrame(frame, truth, tuple(sorted(shown)), dealt, with_hand)

    return WideDeal(calibration(plan.lens), plan.notes, order, frames())


def ray_scene(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None) -> WideScene:
    """One seeded scene rendered by ray casting (see the module's docstring)."""
    return labelled_ray_scene(seed, art, kind)[0]
