"""Labelled card crops cut from the wide, domain-randomised scenes, for the card classifier.

Why: the classifier must see what the recogniser sees: a card warped from an outline that is a
pixel or two off, under every light, blur and cover the wide generator draws. Crops are cut
from tune seeds only (< HELD_OUT_SEED_BASE), at the canonical size and normalised as the
recogniser's judge does (`canonical_crop`). Labels: the card's code, BACK for a face-down card,
OTHER for a quad that is no card (felt, chips, half on a card, a neighbour's edge).
"""

from __future__ import annotations

import cv2
import numpy as np

from devices.camera.card_classifier import OTHER, canonical_crop
from devices.camera.recognizer import order_quad
from devices.camera.scoring import quad_distance
from devices.camera.telling import telling_pixels
from devices.camera.templates import BACK
from devices.camera.wide_scenes import (
    HELD_OUT_SEED_BASE,
    SEEN_WHOLE,
    WideScene,
    labelled_wide_scene,
    trained_in_linear_light,
    visible_mask,
)
from studio.cards import DeckArt, DeckKind

MIN_LABELLED_VISIBLE = 0.4  # a covered card shows at least this much to be labelled
COVERED = 0.7  # a card showing less than this is "covered" for `covered_jitters`


def _jitter(quad: np.ndarray, rng: np.random.Generator, width: float) -> np.ndarray:
    """The outline as a corner-based hypothesis may read it: shifted, turned, scaled a little,
    each corner off by a pixel or so."""
    centre = quad.mean(axis=0)
    angle = np.radians(rng.normal(0, 1.5))
    c, s = np.cos(angle), np.sin(angle)
    scale = 1 + rng.normal(0, 0.02)
    out = (quad - centre) @ np.array([[c, s], [-s, c]]) * scale + centre
    out += rng.normal(0, 0.03 * width, 2) + rng.normal(0, 0.8, (4, 2))
    return out.astype(np.float32)


def _near_a_card(quad: np.ndarray, quads: list[np.ndarray], limit: float) -> bool:
    """The quad lies on some drawn card (mean corner distance under `limit`, either way up)."""
    return any(quad_distance(quad, t) < limit for t in quads)


def _in_frame(quad: np.ndarray, w: int, h: int) -> bool:
    """The quad lies in the frame, but for a margin of 20 pixels."""
    return bool(quad.min() > -20 and quad[:, 0].max() < w + 20 and quad[:, 1].max() < h + 20)


def _on_some_card(quad: np.ndarray, quads: list[np.ndarray]) -> bool:
    """The quad's centre lies on a drawn card."""
    x, y = (float(v) for v in quad.mean(axis=0))
    return any(cv2.pointPolygonTest(np.asarray(t, np.float32).reshape(-1, 1, 2), (x, y), False)
               >= 0 for t in quads)


def _straddling(t_quad: np.ndarray, quads: list[np.ndarray], width: float,
                rng: np.random.Generator) -> np.ndarray | None:
    """The card's outline moved 0.3-0.6 of a card along a random direction (a third of the
    time also turned a quarter round about its centre), where it still lies on cards but on
    none of them: what a hypothesis across a cascade's neighbours sees. None where that is
    felt, or a card."""
    angle = rng.uniform(0, 2 * np.pi)
    dist = rng.uniform(0.3, 0.6) * width
    moved = t_quad + np.float32([np.cos(angle) * dist, np.sin(angle) * dist])
    if rng.random() < 1 / 3:
        centre = moved.mean(axis=0)
        moved = (moved - centre) @ np.array([[0, 1], [-1, 0]], np.float32) + centre
    moved = order_quad(moved.astype(np.float32))
    if not _on_some_card(moved, quads) or _near_a_card(moved, quads, 0.25 * width):
        return None
    return moved


def scene_crops(scene: WideScene, rng: np.random.Generator, jitters: int = 4,
                covered_jitters: int | None = None, straddles: int = 0,
                ambiguous: set[int] | None = None) -> list[tuple[np.ndarray, str]]:
    """Crops of one scene: `jitters` per card that shows enough (`covered_jitters` per card
    showing under COVERED, when given: the cards half hidden in fans and cascades are few in a
    scene and most of the recogniser's misses), and `jitters` OTHER crops per card (its
    outline moved off it by half a card or more, or laid on the felt at random); with
    `straddles`, that many OTHER crops more per card across its neighbours (`_straddling`:
    the recogniser's false cards are mostly such outlines, named by the classifier).
    `ambiguous`: the numbers of the cards (in the truth's order) whose visible part another
    card shares, labelled OTHER (`ambiguous_cards`)."""
    out: list[tuple[np.ndarray, str]] = []
    quads = [t.quad for t in scene.truth]
    h, w = scene.frame.shape[:2]
    for i, t in enumerate(scene.truth):
        width = float(np.linalg.norm(t.quad[1] - t.quad[0]))
        if t.visible >= MIN_LABELLED_VISIBLE:
            label = t.code if t.face_up else BACK
            if ambiguous and i in ambiguous:
                label = OTHER
            many = covered_jitters if covered_jitters and t.visible < COVERED else jitters
            for _ in range(many):
                out.append((canonical_crop(scene.frame, order_quad(_jitter(t.quad, rng, width))),
                            label))
        for _ in range(jitters):
            if rng.random() < 0.6:  # moved off the card by half a card or more
                angle = rng.uniform(0, 2 * np.pi)
                dist = rng.uniform(0.5, 1.3) * width
                moved = t.quad + np.float32([np.cos(angle) * dist, np.sin(angle) * dist])
            else:  # anywhere in the frame, at this card's size and a random turn
                centre = np.float32([rng.uniform(60, w - 60), rng.uniform(60, h - 60)])
                angle = rng.uniform(0, 2 * np.pi)
                c, s = np.cos(angle), np.sin(angle)
                rel = t.quad - t.quad.mean(axis=0)
                moved = rel @ np.array([[c, s], [-s, c]], np.float32) + centre
            moved = order_quad(moved.astype(np.float32))
            if _near_a_card(moved, quads, 0.25 * width):
                continue  # that is a card (a neighbour in a row or a cascade): not OTHER
            if not _in_frame(moved, w, h):
                continue
            out.append((canonical_crop(scene.frame, moved), OTHER))
    for t in scene.truth if straddles else ():
        width = float(np.linalg.norm(t.quad[1] - t.quad[0]))
        for _ in range(straddles):
            across = _straddling(t.quad, quads, width, rng)
            if across is not None and _in_frame(across, w, h):
                out.append((canonical_crop(scene.frame, across), OTHER))
    return out


def ambiguous_cards(scene: WideScene, labels: np.ndarray, art: DeckArt | str,
                    kind: DeckKind | str, below: int) -> set[int]:
    """The face-up cards of the scene (their numbers in the truth's order), covered in part,
    whose visible part tells them from another card of the deck by fewer than `below`
    pixels (telling.py; `labels` the scene's label image)."""
    art, kind = DeckArt(art), DeckKind(kind)
    return {i for i, t in enumerate(scene.truth)
            if t.face_up and MIN_LABELLED_VISIBLE <= t.visible < SEEN_WHOLE and
            telling_pixels(t.code, visible_mask(labels, i + 1, t.quad), art, kind) < below}


def crops(art: DeckArt | str, kind: DeckKind | str, seeds: range, jitters: int = 4,
          covered_jitters: int | None = None, straddles: int = 0,
          ambiguous_below: int | None = None,
          linear_light: bool = False) -> tuple[np.ndarray, list[str]]:
    """Crops of the scenes of these (tune) seeds: images (N, CANON_H, CANON_W, 3) float16 and
    their labels; with `ambiguous_below`, a covered card told apart by fewer pixels from
    another is labelled OTHER (`ambiguous_cards`); with `linear_light`, every odd seed's
    scene is drawn in linear light (wide_scenes' `linear_light`), as the index reader's
    training scenes are (tried for the Italian classifiers: card_classifier.py)."""
    if seeds.stop > HELD_OUT_SEED_BASE:
        raise ValueError("training crops come from tune seeds only")
    images: list[np.ndarray] = []
    labels: list[str] = []
    for seed in seeds:
        linear = linear_light and trained_in_linear_light(seed)
        scene, label_image = labelled_wide_scene(seed, art, kind, linear_light=linear)
        rng = np.random.default_rng([seed, 7])
        ambiguous = ambiguous_cards(scene, label_image, art, kind, ambiguous_below) \
            if ambiguous_below else None
        for img, label in scene_crops(scene, rng, jitters, covered_jitters, straddles,
                                      ambiguous):
            images.append(img.astype(np.float16))
            labels.append(label)
    return np.stack(images), labels
