"""Table views and card poses cut from the wide, domain-randomised scenes, for the card
localiser (devices/camera/card_localiser.py).

Why: the localiser must see the view the recogniser sees (the calibrated top-down view,
halved) under every cloth, light, blur and cover the wide generator draws, with every
drawn card's true centre and long axis there. Tune seeds only, from a range apart from
everyone else's (200,000-299,999); never the held-out seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from devices.camera.card_localiser import view_input_image
from devices.camera.table_view import TableView
from devices.camera.wide_scenes import HELD_OUT_SEED_BASE, wide_scene

DECKS = {"napoletane": ("napoletane", "italian40"), "piacentine": ("piacentine", "italian40"),
         "french40": ("french", "french40"), "french52": ("french", "french52")}
SEED_RANGE = range(200_000, 300_000)
T = TypeVar("T")


def scene_sample(seed: int, deck: str) -> tuple[np.ndarray, np.ndarray]:
    """The localiser's input image (uint8, halved view) and one row per drawn card:
    centre x, y (view pixels), long-axis angle (radians), visible share, face up (1/0)."""
    if seed not in SEED_RANGE or seed >= HELD_OUT_SEED_BASE:
        raise ValueError("localiser data: tune seeds 200,000-299,999 only")
    scene = wide_scene(seed, *DECKS[deck])
    view = TableView(scene.camera)
    image = view_input_image(view.rectify(scene.frame))
    rows = []
    for t in scene.truth:
        q = cv2.perspectiveTransform(t.quad.reshape(-1, 1, 2).astype(np.float64),
                                     view.to_view).reshape(4, 2)
        centre = q.mean(axis=0)
        axis = (q[2] + q[3]) / 2 - (q[0] + q[1]) / 2  # TL, TR, BR, BL: top to bottom
        rows.append((centre[0], centre[1], np.arctan2(axis[1], axis[0]), t.visible,
                     float(t.face_up)))
    return image, np.array(rows, np.float32).reshape(-1, 5)


def _one(job: tuple[int, str]) -> tuple[np.ndarray, np.ndarray]:
    cv2.setNumThreads(1)
    return scene_sample(*job)


def per_deck(one: Callable[[tuple[int, str]], T], first_seed: int, seeds: int,
             workers: int = 2) -> list[T]:
    """`one((seed, deck))` for `seeds` seeds from `first_seed`, each deck's in turn (seed by
    seed), in `workers` processes (`one` a module's function, so that it pickles)."""
    jobs = [(seed, deck) for seed in range(first_seed, first_seed + seeds) for deck in DECKS]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one, jobs, chunksize=8))


def make(first_seed: int, per_deck_seeds: int, out: Path, workers: int = 2) -> None:
    """Views of `per_deck_seeds` seeds from `first_seed` for each deck, written to `out`."""
    samples = per_deck(_one, first_seed, per_deck_seeds, workers)
    images = np.stack([s[0] for s in samples])
    cards = np.concatenate([s[1] for s in samples])
    counts = np.array([len(s[1]) for s in samples], np.int32)
    np.savez(out, images=images, cards=cards, counts=counts)
