"""Draw a table scene as the camera sees it: felt, printed areas, cards in perspective, chips,
the dealer's hand, lighting, blur and sensor noise.

`Renderer.render(spec)` returns the frame and the ground truth (which card lies where and how
much of it is visible), so the recogniser is scored against what was really drawn. Costly parts
are cached (the felt per camera, each card's prepared scan) so a live source can redraw only
when the scene changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from devices.camera.assets import back_scan, card_scan
from devices.camera.layout import (
    CARD_WIDTH,
    FRAME_H,
    FRAME_W,
    Area,
    CameraPose,
    default_areas,
    image_regions,
)
from studio.cards import DeckArt, parse_card

FELT_BGR = (38, 112, 30)
MARKING_BGR = (70, 175, 205)  # gold print on the felt
SKIN_BGR = (125, 160, 215)
TRUTH_SCALE = 4  # occlusion is measured on a quarter-size label image


@dataclass(frozen=True)
class CardItem:
    """A card lying on the table: centre and angle in table units/degrees."""

    code: str
    face_up: bool
    cx: float
    cy: float
    angle: float = 0.0


@dataclass(frozen=True)
class ChipItem:
    """A chip stack: `stack` discs of one colour, radius in table units."""

    cx: float
    cy: float
    colour: tuple[int, int, int]
    radius: float = 20.0
    stack: int = 1


@dataclass(frozen=True)
class HandItem:
    """The dealer's hand (palm, fingers, forearm towards the dealer's side)."""

    cx: float
    cy: float
    angle: float = 0.0
    scale: float = 1.0


Item = CardItem | ChipItem | HandItem


@dataclass(frozen=True)
class Lighting:
    """Brightness and colour temperature, each a gradient across the image.

    gain: overall brightness; slope_x/slope_y: relative change from centre to edge;
    warm_left/warm_right: colour temperature at each side (-1 cool/blue .. +1 warm/orange).
    """

    gain: float = 1.0
    slope_x: float = 0.0
    slope_y: float = 0.0
    warm_left: float = 0.0
    warm_right: float = 0.0


@dataclass(frozen=True)
class SceneSpec:
    """Everything needed to draw one frame; items are drawn in order (later ones on top)."""

    art: DeckArt
    items: tuple[Item, ...] = ()
    camera: CameraPose = field(default_factory=CameraPose)
    areas: tuple[Area, ...] = field(default_factory=lambda: tuple(default_areas()))
    lighting: Lighting = field(default_factory=Lighting)
    blur_sigma: float = 0.0
    noise_sigma: float = 3.0
    felt_seed: int = 0


@dataclass(frozen=True)
class CardTruth:
    """One drawn card: its code, image quad (TL, TR, BR, BL of the card), visible share."""

    code: str
    face_up: bool
    quad: np.ndarray
    area: str | None
    visible: float

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])


def _rounded_alpha(h: int, w: int) -> np.ndarray:
    radius = max(2, round(0.065 * w))
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for x, y in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                 (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
    return alpha


@lru_cache(maxsize=512)
def prepared_card(code: str | None, art: DeckArt) -> np.ndarray:
    """The scan as BGRA with rounded corners and a thin grey edge (the card's thickness)."""
    scan = back_scan(art) if code is None else card_scan(parse_card(code), art)
    h, w = scan.shape[:2]
    alpha = _rounded_alpha(h, w)
    inner = cv2.erode(alpha, np.ones((5, 5), np.uint8))
    edge = (alpha > 0) & (inner < 255)
    bgra = cv2.cvtColor(scan, cv2.COLOR_BGR2BGRA)
    bgra[edge, :3] = (bgra[edge, :3] * 0.55).astype(np.uint8)
    bgra[:, :, 3] = alpha
    bgra.setflags(write=False)
    return bgra


def card_aspect(art: DeckArt | str) -> float:
    """Height / width of this art's cards."""
    h, w = back_scan(art).shape[:2]
    return h / w


def _card_homography(item: CardItem, scan_shape: tuple[int, ...], camera: CameraPose) -> np.ndarray:
    h, w = scan_shape[:2]
    s = CARD_WIDTH / w
    a = math.radians(item.angle)
    c, si = math.cos(a) * s, math.sin(a) * s
    tx = item.cx - (c * w / 2 - si * h / 2)
    ty = item.cy - (si * w / 2 + c * h / 2)
    table = np.array([[c, -si, tx], [si, c, ty], [0, 0, 1]], np.float64)
    return camera.homography @ table


def _bbox(points: np.ndarray, pad: int) -> tuple[int, int, int, int] | None:
    x0 = max(0, math.floor(points[:, 0].min()) - pad)
    y0 = max(0, math.floor(points[:, 1].min()) - pad)
    x1 = min(FRAME_W, math.ceil(points[:, 0].max()) + pad)
    y1 = min(FRAME_H, math.ceil(points[:, 1].max()) + pad)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _shade(roi: np.ndarray, alpha: np.ndarray, strength: float) -> None:
    """Darken roi in place by alpha (uint8 0..255) times strength."""
    factor = 1.0 - (alpha.astype(np.float32) * (strength / 255.0))
    roi[:] = (roi * factor[:, :, None]).astype(np.uint8)


def _blend(roi: np.ndarray, colour: np.ndarray, alpha: np.ndarray) -> None:
    a = alpha.astype(np.float32)[:, :, None] * (1.0 / 255.0)
    roi[:] = (roi * (1.0 - a) + colour * a).astype(np.uint8)


def _ellipse_points(cx: float, cy: float, rx: float, ry: float, angle: float,
                    n: int = 28) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    x, y = rx * np.cos(t), ry * np.sin(t)
    a = math.radians(angle)
    return np.stack([cx + x * math.cos(a) - y * math.sin(a),
                     cy + x * math.sin(a) + y * math.cos(a)], axis=1)


def hand_polygons(hand: HandItem) -> list[np.ndarray]:
    """Table-plane polygons of palm, fingers, thumb and forearm (the forearm points to -y)."""
    s, a = hand.scale, hand.angle
    rad = math.radians(a)

    def at(dx: float, dy: float) -> tuple[float, float]:
        return (hand.cx + s * (dx * math.cos(rad) - dy * math.sin(rad)),
                hand.cy + s * (dx * math.sin(rad) + dy * math.cos(rad)))

    parts = [_ellipse_points(*at(0, 0), 48 * s, 58 * s, a)]
    for i, dx in enumerate((-33, -11, 11, 32)):
        length = (40, 50, 52, 44)[i]
        parts.append(_ellipse_points(*at(dx, 50 + length / 2), 11 * s, length * s / 2 + 10, a))
    parts.append(_ellipse_points(*at(-58, 5), 12 * s, 34 * s, a + 35))
    fx, fy = at(0, -170)
    parts.append(_ellipse_points(fx, fy, 42 * s, 150 * s, a))
    return parts


@lru_cache(maxsize=4)
def _felt_texture(felt_seed: int) -> np.ndarray:
    """Green felt with fibre texture and mottling (the costly part, cached per seed)."""
    rng = np.random.default_rng(felt_seed)
    base = np.empty((FRAME_H, FRAME_W, 3), np.float32)
    base[:] = FELT_BGR
    mottle = cv2.resize(rng.normal(0, 1, (9, 16)).astype(np.float32), (FRAME_W, FRAME_H),
                        interpolation=cv2.INTER_CUBIC)
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (FRAME_H, FRAME_W)).astype(np.float32),
                             (0, 0), 0.8)
    texture = 1.0 + 0.06 * mottle + 0.10 * fibre
    felt = np.clip(base * texture[:, :, None], 0, 255).astype(np.uint8)
    felt.setflags(write=False)
    return felt


@lru_cache(maxsize=8)
def _felt(camera: CameraPose, areas: tuple[Area, ...], felt_seed: int) -> np.ndarray:
    """The felt with the printed areas as this camera sees them."""
    felt = _felt_texture(felt_seed).copy()
    for area in areas:
        quad = camera.project(area.corners()).round().astype(np.int32)
        cv2.polylines(felt, [quad], True, MARKING_BGR, 3, cv2.LINE_AA)
        label_at = camera.project(
            np.array([[area.cx - area.w / 2 + 12, area.cy + area.h / 2 - 14]]))
        cv2.putText(felt, area.label, tuple(int(v) for v in label_at[0]),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.8, MARKING_BGR, 2, cv2.LINE_AA)
    felt.setflags(write=False)
    return felt


@lru_cache(maxsize=8)
def _gain_map(lighting: Lighting) -> np.ndarray:
    small_w, small_h = 64, 36
    x = np.linspace(-1, 1, small_w, dtype=np.float32)[None, :]
    y = np.linspace(-1, 1, small_h, dtype=np.float32)[:, None]
    bright = lighting.gain * (1 + lighting.slope_x * x + lighting.slope_y * y)
    bright = bright * (1 - 0.12 * (x * x + y * y))  # vignetting
    warm = lighting.warm_left + (lighting.warm_right - lighting.warm_left) * (x + 1) / 2
    gains = np.stack([bright * (1 - 0.14 * warm), bright * (1 + 0.0 * warm),
                      bright * (1 + 0.14 * warm)], axis=2) * np.ones((small_h, 1, 1), np.float32)
    full = cv2.resize(gains.astype(np.float32), (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)
    full.setflags(write=False)
    return full


def apply_lighting(frame: np.ndarray, lighting: Lighting) -> np.ndarray:
    return cv2.multiply(frame, _gain_map(lighting), dtype=cv2.CV_8U)


_NOISE_PAD = 64


@lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """Unit Gaussian noise a little larger than a frame; frames take shifted crops of it."""
    bank = np.empty((FRAME_H + _NOISE_PAD, FRAME_W + _NOISE_PAD, 3), np.float32)
    cv2.setRNGSeed(20240607)
    cv2.randn(bank, 0, 1)
    bank.setflags(write=False)
    return bank


def add_noise(frame: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """Sensor noise, deterministic per seed (a seeded crop of a fixed noise field: cheap)."""
    if sigma <= 0:
        return frame
    h, w = frame.shape[:2]
    dy, dx = (seed * 7919) % _NOISE_PAD, (seed * 104729 // _NOISE_PAD) % _NOISE_PAD
    crop = _noise_bank()[dy:dy + h, dx:dx + w]
    return cv2.addWeighted(frame, 1.0, crop, float(sigma), 0.0, dtype=cv2.CV_8U)


class Renderer:
    """Draws `SceneSpec`s; one renderer serves any art (card images are cached per art)."""

    def draw_items(self, spec: SceneSpec) -> tuple[np.ndarray, list[CardTruth]]:
        """Felt plus items, before lighting, blur and noise; also the ground truth."""
        frame = _felt(spec.camera, spec.areas, spec.felt_seed).copy()
        small = (FRAME_H // TRUTH_SCALE, FRAME_W // TRUTH_SCALE)
        labels = np.zeros(small, np.int16)
        own_area: dict[int, int] = {}
        cards: list[tuple[int, CardItem, np.ndarray]] = []
        for index, item in enumerate(spec.items, start=1):
            if isinstance(item, CardItem):
                quad = self._draw_card(frame, item, spec)
                cards.append((index, item, quad))
                outline = [quad]
            elif isinstance(item, ChipItem):
                outline = self._draw_chip(frame, item, spec.camera)
            else:
                outline = self._draw_hand(frame, item, spec.camera)
            mask = np.zeros(small, np.uint8)
            for poly in outline:
                cv2.fillPoly(mask, [np.round(poly / TRUTH_SCALE).astype(np.int32)], 1)
            labels[mask > 0] = index
            own_area[index] = int(mask.sum())
        regions = image_regions(spec.camera, list(spec.areas))
        truth = []
        for index, item, quad in cards:
            visible = float((labels == index).sum()) / max(1, own_area[index])
            truth.append(CardTruth(item.code, item.face_up, quad, _region_of(quad, regions),
                                   visible))
        return frame, truth

    def render(self, spec: SceneSpec, noise_seed: int = 0) -> tuple[np.ndarray, list[CardTruth]]:
        frame, truth = self.draw_items(spec)
        frame = self.finish(frame, spec, noise_seed)
        return frame, truth

    @staticmethod
    def finish(frame: np.ndarray, spec: SceneSpec, noise_seed: int) -> np.ndarray:
        """Lighting, lens blur and sensor noise on a drawn frame."""
        frame = apply_lighting(frame, spec.lighting)
        if spec.blur_sigma > 0.25:
            frame = cv2.GaussianBlur(frame, (0, 0), spec.blur_sigma)
        return add_noise(frame, spec.noise_sigma, noise_seed)

    def _draw_card(self, frame: np.ndarray, item: CardItem, spec: SceneSpec) -> np.ndarray:
        image = prepared_card(item.code if item.face_up else None, spec.art)
        h, w = image.shape[:2]
        hom = _card_homography(item, image.shape, spec.camera)
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64).reshape(-1, 1, 2)
        quad = cv2.perspectiveTransform(corners, hom).reshape(-1, 2)
        box = _bbox(quad, 8)
        if box is None:
            return quad
        x0, y0, x1, y1 = box
        roi = frame[y0:y1, x0:x1]
        local = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ hom
        warped = cv2.warpPerspective(image, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        alpha = warped[:, :, 3]
        # contact shadow all round (the card is raised by its thickness) plus the light's shadow
        contact = cv2.GaussianBlur(alpha, (0, 0), 1.2)
        cast = cv2.GaussianBlur(np.roll(alpha, (3, 2), axis=(0, 1)), (0, 0), 2.0)
        _shade(roi, cv2.max(contact, cast), 0.4)
        _blend(roi, warped[:, :, :3], alpha)
        return quad

    @staticmethod
    def _draw_chip(frame: np.ndarray, chip: ChipItem, camera: CameraPose) -> list[np.ndarray]:
        outlines = []
        colour = np.array(chip.colour, np.float32)
        for level in range(chip.stack):
            lift = 4.0 * level  # image pixels up per chip in the stack
            rim = camera.project(_ellipse_points(chip.cx, chip.cy, chip.radius, chip.radius, 0))
            rim[:, 1] -= lift
            pts = np.round(rim).astype(np.int32)
            if level == 0:
                shadow = pts + np.array([3, 3], np.int32)
                box = _bbox(shadow.astype(np.float64), 6)
                if box:
                    x0, y0, x1, y1 = box
                    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
                    cv2.fillPoly(mask, [shadow - [x0, y0]], 255)
                    _shade(frame[y0:y1, x0:x1], cv2.GaussianBlur(mask, (0, 0), 2), 0.4)
            cv2.fillPoly(frame, [pts], tuple(int(c) for c in colour * 0.8), cv2.LINE_AA)
            top = rim.copy()
            top[:, 1] -= 2
            cv2.fillPoly(frame, [np.round(top).astype(np.int32)], chip.colour, cv2.LINE_AA)
            for k in range(6):  # the white inserts on the rim
                t0, t1 = k * math.pi / 3, k * math.pi / 3 + 0.35
                t = np.linspace(t0, t1, 4)
                outer = np.stack([chip.cx + chip.radius * np.cos(t),
                                  chip.cy + chip.radius * np.sin(t)], 1)
                inner = np.stack([chip.cx + 0.72 * chip.radius * np.cos(t[::-1]),
                                  chip.cy + 0.72 * chip.radius * np.sin(t[::-1])], 1)
                seg = camera.project(np.concatenate([outer, inner]))
                seg[:, 1] -= lift + 2
                cv2.fillPoly(frame, [np.round(seg).astype(np.int32)], (235, 235, 235),
                             cv2.LINE_AA)
            centre = camera.project(_ellipse_points(chip.cx, chip.cy, 0.5 * chip.radius,
                                                    0.5 * chip.radius, 0, 20))
            centre[:, 1] -= lift + 2
            cv2.polylines(frame, [np.round(centre).astype(np.int32)], True,
                          tuple(int(c) for c in colour * 0.6), 1, cv2.LINE_AA)
            outlines.append(rim)
        return outlines

    @staticmethod
    def _draw_hand(frame: np.ndarray, hand: HandItem, camera: CameraPose) -> list[np.ndarray]:
        polys = [camera.project(p) for p in hand_polygons(hand)]
        allpts = np.concatenate(polys)
        box = _bbox(allpts, 10)
        if box is None:
            return polys
        x0, y0, x1, y1 = box
        roi = frame[y0:y1, x0:x1]
        mask = np.zeros(roi.shape[:2], np.uint8)
        for p in polys:
            cv2.fillPoly(mask, [np.round(p - [x0, y0]).astype(np.int32)], 255, cv2.LINE_AA)
        _shade(roi, cv2.GaussianBlur(np.roll(mask, (6, 4), axis=(0, 1)), (0, 0), 4), 0.35)
        soft = cv2.GaussianBlur(mask, (0, 0), 1.0)
        # skin shading: lit from the top-left, darker towards the edges of the blob
        depth = cv2.GaussianBlur(mask, (0, 0), 6).astype(np.float32) / 255.0
        colour = np.array(SKIN_BGR, np.float32)[None, None, :] * (0.7 + 0.35 * depth[:, :, None])
        _blend(roi, np.clip(colour, 0, 255), soft)
        return polys


def _region_of(quad: np.ndarray, regions: dict[str, np.ndarray]) -> str | None:
    cx, cy = quad.mean(axis=0)
    for name, poly in regions.items():
        if cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (float(cx), float(cy)), False) >= 0:
            return name
    return None
