"""The studio's table cameras as a family: a pinhole camera of a known kind, for guessing a
calibration where the frame comes without one.

Why: a table camera is not any homography. It is a pinhole camera with square pixels and its
axis through the frame's middle, tilted 20-35 degrees from vertical, hardly rolled, with a
45-62 degree lens, framing a playing area 1,150-1,500 table units wide (wide_scenes.py draws
its cameras from the same ranges). One card's outline corners, a pixel or two off on a card
~100 pixels wide, allow planes tilted well outside that: fitting the camera's own few
parameters, with the family's ranges as a prior, keeps the guess to planes a table camera can
see; with no card to fit, the family's middle camera at a few framings is a guess to try.
A frame from another kind of camera (render.py's cameras are homographies no such pinhole
makes) shows as cards the fit places several pixels off their corners: `corner_error`.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np

from devices.camera.layout import CARD_WIDTH, FRAME_H, FRAME_W, TABLE_H, TABLE_W, CameraPose

TILT = (20.0, 35.0)  # degrees from vertical
ROLL = (-4.0, 4.0)
HFOV = (45.0, 62.0)  # horizontal field of view, degrees
SPAN = (1150.0, 1500.0)  # table units framed across the image's width at the axis
# the framings tried without a card to fit: ~6% apart, about what the calibrated path allows
FAMILY_SPANS = (1180.0, 1250.0, 1325.0, 1400.0, 1480.0)


def _mid(r: tuple[float, float]) -> float:
    return (r[0] + r[1]) / 2


def _spread(r: tuple[float, float]) -> float:
    """The standard deviation of a uniform range."""
    return (r[1] - r[0]) / math.sqrt(12)


def card_rectangle(aspect: float) -> np.ndarray:
    """A card's corners (TL, TR, BR, BL; the first side short) about its centre, table units."""
    w, h = CARD_WIDTH / 2, CARD_WIDTH * aspect / 2
    return np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64)


def _apply(hom: np.ndarray, points: np.ndarray) -> np.ndarray:
    p = np.column_stack([points, np.ones(len(points))]) @ hom.T
    return p[:, :2] / p[:, 2:3]


def corner_error(hom: np.ndarray, quads: list[np.ndarray], shape: np.ndarray) -> float:
    """The worst card's `corner_errors`."""
    return max(corner_errors(hom, quads, shape))


def corner_errors(hom: np.ndarray, quads: list[np.ndarray], shape: np.ndarray) -> list[float]:
    """Each card's rms corner error (pixels) when the rigid `shape` is placed where its quad
    lands on this plane (least squares) and seen again: how well the plane explains the
    cards, whatever camera made the frame."""
    back = np.linalg.inv(hom)
    errors = []
    for quad in quads:
        q = np.asarray(quad, np.float64).reshape(4, 2)
        p = _apply(back, q)
        cs, cp = shape.mean(axis=0), p.mean(axis=0)
        u, _, vt = np.linalg.svd((shape - cs).T @ (p - cp))
        turn = (u @ np.diag([1.0, np.sign(np.linalg.det(u @ vt)) or 1.0]) @ vt).T
        placed = (shape - cs) @ turn.T + cp
        errors.append(float(np.sqrt(((_apply(hom, placed) - q) ** 2).sum(axis=1).mean())))
    return errors


def focal(hfov: float) -> float:
    return (FRAME_W / 2) / math.tan(math.radians(hfov) / 2)


def intrinsics(f: float) -> np.ndarray:
    return np.array([[f, 0, FRAME_W / 2], [0, f, FRAME_H / 2], [0, 0, 1]])


def camera_homography(tilt: float, roll: float, hfov: float, span: float) -> np.ndarray:
    """Table plane (units) to image: the camera `tilt` degrees from vertical towards the near
    (large y) edge, rolled `roll` degrees, its axis through the table's (TABLE_W / 2, 400)."""
    t, r = math.radians(tilt), math.radians(roll)
    f = focal(hfov)
    distance = span / 2 * f / (FRAME_W / 2)
    back = np.array([0.0, math.sin(t), math.cos(t)])
    centre = np.array([TABLE_W / 2, 400.0, 0.0]) + distance * back
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(right, -back)
    right, down = (math.cos(r) * right + math.sin(r) * down,
                   -math.sin(r) * right + math.cos(r) * down)
    rot = np.stack([right, down, -back])
    hom = intrinsics(f) @ np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    return hom / hom[2, 2]


def pose_of(hom: np.ndarray) -> CameraPose:
    corners = np.array([[0, 0, 1], [TABLE_W, 0, 1], [TABLE_W, TABLE_H, 1], [0, TABLE_H, 1]],
                       np.float64) @ hom.T
    pts = corners[:, :2] / corners[:, 2:3]
    return CameraPose(tuple((float(x), float(y)) for x, y in pts))


@cache
def family_poses(spans: tuple[float, ...] = FAMILY_SPANS,
                 tilt: float = _mid(TILT)) -> tuple[CameraPose, ...]:
    """The family's middle camera framing each of these widths (the scale is what matters
    most: a card's size in the view must be right within a few per cent)."""
    return tuple(pose_of(camera_homography(tilt, 0.0, _mid(HFOV), s)) for s in spans)


def _unpack(params: np.ndarray, cards: int) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    f = math.exp(params[0])
    rvec, tvec = params[1:4], params[4:7]
    place = np.vstack([np.zeros(3), params[7:].reshape(cards - 1, 3)]) if cards > 1 \
        else np.zeros((1, 3))
    return f, rvec, tvec, place


def _residuals(params: np.ndarray, shape: np.ndarray, image: np.ndarray,
               pixel: float) -> np.ndarray:
    f, rvec, tvec, place = _unpack(params, len(image))
    rot, _ = cv2.Rodrigues(rvec)
    c, s = np.cos(place[:, 2])[:, None], np.sin(place[:, 2])[:, None]
    x = shape[None, :, 0] * c - shape[None, :, 1] * s + place[:, :1]  # (cards, 4)
    y = shape[None, :, 0] * s + shape[None, :, 1] * c + place[:, 1:2]
    cam = x[..., None] * rot[:, 0] + y[..., None] * rot[:, 1] + tvec  # (cards, 4, 3)
    proj = f * cam[..., :2] / cam[..., 2:3] + (FRAME_W / 2, FRAME_H / 2)
    normal = rot[:, 2]
    tilt = math.degrees(math.acos(min(1.0, abs(normal[2]))))
    roll = math.degrees(math.atan2(normal[0], abs(normal[1]) + 1e-9))
    height = abs(float(normal @ tvec))  # the camera's distance from the plane
    span = 2 * height / max(1e-9, abs(normal[2])) * (FRAME_W / 2) / f
    prior = [(tilt - _mid(TILT)) / _spread(TILT), (roll - _mid(ROLL)) / _spread(ROLL),
             (f - focal(_mid(HFOV))) / (focal(HFOV[0]) - focal(HFOV[1])) * math.sqrt(12),
             (span - _mid(SPAN)) / _spread(SPAN)]
    return np.concatenate([((proj - image) / pixel).ravel(), prior])


def fit_camera(quads: list[np.ndarray], shape: np.ndarray, pixel: float = 1.5,
               iterations: int = 20) -> np.ndarray | None:
    """The family camera (plane to image homography, plane units as `shape`'s) under which
    these image quads are best the rigid `shape` (a card's corners about its centre) lying
    somewhere on the table: corners `pixel` pixels off count as much as the family's spread.
    Levenberg-Marquardt from the middle camera seeing the first card. None on failure."""
    image = np.array([np.asarray(q, np.float64).reshape(4, 2) for q in quads])
    f0 = focal(_mid(HFOV))
    obj = np.column_stack([shape, np.zeros(4)])
    ok, rvec, tvec = cv2.solvePnP(obj, image[0], intrinsics(f0), None,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return None
    # the other cards' first placement: where their centres land on that card's plane
    rot, _ = cv2.Rodrigues(rvec)
    try:
        back = np.linalg.inv(intrinsics(f0) @ np.column_stack([rot[:, 0], rot[:, 1], tvec]))
    except np.linalg.LinAlgError:
        return None
    places = []
    for q in image[1:]:
        p = np.column_stack([q, np.ones(4)]) @ back.T
        p = p[:, :2] / p[:, 2:3]
        d = (p[1] - p[0]) + (p[2] - p[3])
        places += [*p.mean(axis=0), math.atan2(d[1], d[0])]
    params = np.concatenate([[math.log(f0)], rvec.ravel(), tvec.ravel(), places])
    lam = 1e-3
    res = _residuals(params, shape, image, pixel)
    cost = float(res @ res)
    for _ in range(iterations):
        jac = np.empty((len(res), len(params)))
        for i in range(len(params)):
            step = 1e-6 * max(1.0, abs(params[i]))
            moved = params.copy()
            moved[i] += step
            jac[:, i] = (_residuals(moved, shape, image, pixel) - res) / step
        jtj, jtr = jac.T @ jac, jac.T @ res
        while lam < 1e8:
            try:
                delta = np.linalg.solve(jtj + lam * np.diag(np.diag(jtj) + 1e-9), -jtr)
            except np.linalg.LinAlgError:
                lam *= 10
                continue
            trial = params + delta
            tres = _residuals(trial, shape, image, pixel)
            tcost = float(tres @ tres)
            if np.isfinite(tcost) and tcost < cost:
                params, res, lam = trial, tres, max(lam / 10, 1e-7)
                cost, before = tcost, cost
                break
            lam *= 10
        else:
            break
        if before - cost < 1e-6 * before:
            break
    f, rvec, tvec, _ = _unpack(params, len(image))
    rot, _ = cv2.Rodrigues(rvec)
    hom = intrinsics(f) @ np.column_stack([rot[:, 0], rot[:, 1], tvec])
    return hom / hom[2, 2] if np.isfinite(hom).all() and abs(hom[2, 2]) > 1e-12 else None


def fit_family(quads: list[np.ndarray], shape: np.ndarray, max_error: float,
               drop_worst: bool = True) -> np.ndarray | None:
    """`fit_camera` to these cards, the worst placed card dropped while one is placed more
    than `max_error` pixels off and 3 or more remain (a bent card, a misread outline); None
    when the fit fails or no such few cards fit (not that kind of camera: render.py's are
    4-10 pixels off)."""
    quads = list(quads)
    while True:
        hom = fit_camera(quads, shape)
        if hom is None:
            return None
        errors = corner_errors(hom, quads, shape)
        if max(errors) <= max_error:
            return hom
        if len(quads) < 3 or not drop_worst:
            return None
        del quads[int(np.argmax(errors))]
