"""What the recogniser names on one wide tune scene with a switch on and off: the tests of a
change that names a card the pipeline before it refused (test_cascade, test_edge_snap)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from devices.camera.card_classifier import CardClassifier
from devices.camera.recognizer import Detection, Options, Recognizer, Thresholds
from devices.camera.scoring import inside
from devices.camera.wide_scenes import WideScene, wide_scene


@cache
def blanks_weights(art: str) -> CardClassifier | None:
    """The eighteenth session's Italian classifier weights (trained on blanks; tests/data
    ..._2026-11-27b), which the tests made with them are pinned to: the later fine-tunes
    (Piacentine's with blobs, Napoletane's with straddling crops) name or refuse some of their
    cards with or without their change. None for French (its weights are still those)."""
    path = Path(__file__).parent / "data" / f"card_classifier_{art}_2026-11-27b.npz"
    return CardClassifier.load(path) if path.exists() else None


def both_ways(deck: str, seed: int, on: Options, off: Options, kind: str | None = None,
              classifier: CardClassifier | None = None, thresholds: Thresholds | None = None
              ) -> tuple[WideScene, list[Detection], list[Detection]]:
    """Scene `seed` of `deck` (calibrated; `kind` the deck kind, French 40 or 52), and the
    cards named with options `on` and `off` (with `classifier`'s weights and `thresholds`,
    when given)."""
    scene = wide_scene(seed, deck, kind)
    th = thresholds or Thresholds()
    return (scene, Recognizer(deck, kind, th, options=on, classifier=classifier).recognize(
                scene.frame, scene.camera),
            Recognizer(deck, kind, th, options=off, classifier=classifier).recognize(
                scene.frame, scene.camera))


def named_right(scene: WideScene, found: list[Detection], code: str) -> bool:
    """The scene's card `code` is among `found`, named where it lies."""
    truth = next(t for t in scene.truth if t.code == code)
    return any(d.code == code and inside(truth, d.center) for d in found)
