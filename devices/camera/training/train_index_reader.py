"""Train the French corner-index reader (devices/camera/index_reader.py) from the wide
generator's tune scenes and write its weights into the package, for numpy to run.

    pip install -e '.[train]'
    .venv/bin/python -m devices.camera.training.train_index_reader [--scenes 1600] \
        [--first-seed 400000] [--epochs 14]

Crops: both index corners of every French card drawn, jittered as a corner-built outline reads
them; labelled with the card where the index box shows (>= 90%), OTHER where it hardly shows
(< 40%: covered, or the card face down), and OTHER for corners of outlines moved off the cards
(not on any index). Tune seeds only, from 400,000: apart from the benchmark's (0 and up) and
the card classifier's (100,000 and up). The last tenth is held back for the validation figure.
Every odd seed's scene is drawn in linear light (wide_scenes.py's `linear_light`): a lens fades
an index's thin rank strokes, which display-value drawing keeps dark.

The shipped weights (2026-12-02): --scenes 2400 --first-seed 400000 --epochs 14, 73,613
corners, 98.91% on the held-back tenth (crops about 8 min, 13 s an epoch, two cores).
"""

from __future__ import annotations

import argparse

import numpy as np

from devices.camera.card_classifier import OTHER
from devices.camera.index_reader import WEIGHTS, _corner_maps, corner_crops
from devices.camera.recognizer import order_quad
from devices.camera.training.crops import _jitter
from devices.camera.training.train_card_classifier import build as build_classifier
from devices.camera.training.train_card_classifier import fit, save
from devices.camera.wide_scenes import (
    HELD_OUT_SEED_BASE,
    WideScene,
    _index_boxes,
    trained_in_linear_light,
    wide_scene,
)
from studio.cards import DeckArt, DeckKind

SHOWS, HIDDEN = 0.9, 0.4  # index box shares labelled as the card, and as OTHER
WIDTHS = (16, 32, 64)  # channels of the three conv layers: ~2 M multiply-adds per corner
HIDDEN_UNITS = 96


def _canonical_start(t_quad: np.ndarray, ordered: np.ndarray) -> int:
    """0 when the ordered quad starts at the card's own top-left corner, 1 when at its
    bottom-right (the card upside down in the image): which index box each corner reads."""
    return int(np.linalg.norm(ordered[0] - t_quad[2]) < np.linalg.norm(ordered[0] - t_quad[0]))


def _on_an_index(point: np.ndarray, boxes: list[np.ndarray], limit: float) -> bool:
    return any(float(np.linalg.norm(point - b.mean(axis=0))) < limit for b in boxes)


def scene_corners(scene: WideScene, rng: np.random.Generator,
                  jitters: int = 3) -> list[tuple[np.ndarray, str]]:
    """Labelled corner crops of one scene (see the module's docstring)."""
    out: list[tuple[np.ndarray, str]] = []
    boxes = [b for t in scene.truth for b in _index_boxes(t.quad)]
    h, w = scene.frame.shape[:2]
    for t in scene.truth:
        width = float(np.linalg.norm(t.quad[1] - t.quad[0]))
        for _ in range(jitters):
            ordered = order_quad(_jitter(t.quad, rng, width))
            start = _canonical_start(t.quad, ordered)
            for k, crop in enumerate(corner_crops(scene.frame, ordered)):
                share = t.index_shares[(k + start) % 2]
                if t.face_up and share >= SHOWS:
                    out.append((crop, t.code))
                elif share < HIDDEN or not t.face_up:
                    out.append((crop, OTHER))
        angle = rng.uniform(0, 2 * np.pi)
        moved = order_quad((t.quad + np.float32([np.cos(angle), np.sin(angle)])
                            * rng.uniform(0.3, 1.2) * width).astype(np.float32))
        if moved.min() < 0 or moved[:, 0].max() >= w or moved[:, 1].max() >= h:
            continue
        for m, crop in zip(_corner_maps(moved), corner_crops(scene.frame, moved), strict=True):
            centre = (m @ np.array([12.0, 16.0, 1.0]))[:2] / (m @ np.array([12.0, 16.0, 1.0]))[2]
            if not _on_an_index(centre, boxes, 0.2 * width):
                out.append((crop, OTHER))
    return out


def corner_set(seeds: range) -> tuple[np.ndarray, list[str]]:
    """Crops (N, 32, 24, 3) float16 and labels of the French 52-card scenes of these seeds."""
    if seeds.stop > HELD_OUT_SEED_BASE:
        raise ValueError("training crops come from tune seeds only")
    images: list[np.ndarray] = []
    labels: list[str] = []
    for seed in seeds:
        scene = wide_scene(seed, DeckArt.FRENCH, DeckKind.FRENCH_52,
                           linear_light=trained_in_linear_light(seed))
        for crop, label in scene_corners(scene, np.random.default_rng([seed, 11])):
            images.append(crop.astype(np.float16))
            labels.append(label)
    return np.stack(images), labels


def build(n_classes: int):  # type: ignore[no-untyped-def]
    """32x24 in, the card classifier's layers (4x3 left after three poolings): what
    card_classifier.CardClassifier runs."""
    return build_classifier(n_classes, WIDTHS, HIDDEN_UNITS, (4, 3))


def train(images: np.ndarray, labels: list[str], epochs: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """Train on the first nine tenths, report accuracy on the rest (no augmentation: the
    corners are upright, and the crops' jitter is the outline's)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    names = sorted(set(labels) - {OTHER}) + [OTHER]
    return fit(build(len(names)), images, labels, names, epochs, np.random.default_rng(seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=1600)
    parser.add_argument("--first-seed", type=int, default=400_000)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--crops", help="crops made earlier (x, y arrays)")
    parser.add_argument("--save-crops", help="keep the crops made here")
    args = parser.parse_args()
    if args.crops:
        with np.load(args.crops) as data:
            images, labels = data["x"], [str(s) for s in data["y"]]
    else:
        images, labels = corner_set(range(args.first_seed, args.first_seed + args.scenes))
        if args.save_crops:
            np.savez(args.save_crops, x=images, y=np.array(labels))
    print(f"{len(labels)} corners, {len(set(labels))} labels, "
          f"{sum(s == OTHER for s in labels)} OTHER", flush=True)
    net, acc = train(images, labels, args.epochs)
    save(net, WEIGHTS)
    print(f"validation accuracy {100 * acc:.2f}%; written {WEIGHTS}")


if __name__ == "__main__":
    main()
