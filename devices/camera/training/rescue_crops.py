"""Crops of the hypotheses the recogniser judged on what shows, labelled by the truth: the
card rescue verifier's training data (Options.rescue, card_classifier.card_verifier).

Why: the classifier was trained on jittered true outlines and on outlines moved off their
card at random, and it reads many a hypothesis across a cascade's neighbours as surely as a
half-covered card on its own outline (0.95-0.99 both ways up), so no bar on it names the one
without the other. The verifier is trained on exactly what the last pass sees: every
hypothesis the recogniser judged on what shows, cut and blanked as `_guess` cuts it, labelled
its card where it lies on one that counts (RIGHT_WITHIN of a width, COUNTS), left out where a
card that counts lies near (OTHER_BEYOND), and OTHER elsewhere: on no card, or on cards that
all show under COUNTS (the verifier's first two trainings left a card 35-45% showing out and
labelled one under 35% its card too; both false cards of held-out 9,357,300-9,359,299 lay in
such stacks). Tune seeds only.

    .venv/bin/python -m devices.camera.training.rescue_crops --art piacentine \
        --first-seed 715800 --scenes 3000 --out rescue.npz

then train_card_classifier --crops rescue.npz ... --init <the shipped classifier>
--out devices/camera/weights/card_verifier_<art>.npz.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from devices.camera.card_classifier import OTHER
from devices.camera.recognizer import Candidate, Recognizer
from devices.camera.scoring import quad_distance
from devices.camera.table_view import CardRect, TableView
from devices.camera.templates import BACK
from devices.camera.wide_scenes import HELD_OUT_SEED_BASE, WideTruth, wide_scene
from studio.cards import DeckArt, DeckKind

RIGHT_WITHIN = 0.08  # a hypothesis this near a card (mean corner distance, card widths) is it
OTHER_BEYOND = 0.2  # ... and one this far from every card that counts is none
COUNTS = 0.45  # a card showing this much counts (issue 16's rule): named, it is its code


@dataclass
class _Recording(Recognizer):
    """The recogniser, keeping the crop of every hypothesis its rescue pass is given."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def _rescuing(self) -> bool:
        return True

    def _rescued(self, frame: np.ndarray, view: TableView,
                 refused: list[tuple[CardRect, np.ndarray]], accepted: list[np.ndarray],
                 taken: Callable[[CardRect], bool], owned: np.ndarray, claimed: np.ndarray,
                 named: list[Candidate], cover: np.ndarray | None = None) -> list[Candidate]:
        for _, quad in refused:
            self.seen.append((self._rescue_crop(frame, view, owned, quad)[1], quad))
        return []


def truth_label(quad: np.ndarray, truth: list[WideTruth]) -> str | None:
    """The hypothesis' label: the card it lies on (COUNTS), None near a card that counts
    but not on it, else OTHER: on no card, or only on or near cards showing under COUNTS
    (a stack of cards each mostly covered: named, such a card counts for nothing, and
    named wrongly it is a false card)."""
    near = sorted(((quad_distance(quad, t.quad) / float(np.linalg.norm(t.quad[1] - t.quad[0])),
                    t) for t in truth), key=lambda p: p[0])
    d, t = near[0]
    if d < RIGHT_WITHIN and t.visible >= COUNTS:
        return t.code if t.face_up else BACK
    if any(far < OTHER_BEYOND and card.visible >= COUNTS for far, card in near):
        return None
    return OTHER


def rescue_crops(art: DeckArt | str, kind: DeckKind | str, seeds: range
                 ) -> tuple[np.ndarray, list[str]]:
    """The crops (N, CANON_H, CANON_W, 3) float16 and labels of these tune seeds."""
    if seeds.stop > HELD_OUT_SEED_BASE:
        raise ValueError("training crops come from tune seeds only")
    rec = _Recording(art, kind)
    images: list[np.ndarray] = []
    labels: list[str] = []
    for seed in seeds:
        scene = wide_scene(seed, art, kind)
        rec.seen = []
        rec.recognize(scene.frame, scene.camera)
        for crop, quad in rec.seen:
            label = truth_label(quad, scene.truth)
            if label is not None:
                images.append(crop.astype(np.float16))
                labels.append(label)
    return np.stack(images), labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--art", choices=["napoletane", "piacentine"], required=True)
    parser.add_argument("--first-seed", type=int, required=True)
    parser.add_argument("--scenes", type=int, default=3000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    images, labels = rescue_crops(args.art, "italian40",
                                  range(args.first_seed, args.first_seed + args.scenes))
    np.savez(args.out, x=images, y=np.array(labels))
    print(f"{len(labels)} crops ({labels.count(OTHER)} no card) written to {args.out}")


if __name__ == "__main__":
    main()
