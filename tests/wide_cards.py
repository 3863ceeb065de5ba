"""What the recogniser names on one wide tune scene with a switch on and off: the tests of a
change that names a card the pipeline before it refused (test_cascade, test_edge_snap)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from devices.camera.card_classifier import CardClassifier
from devices.camera.index_reader import IndexReader
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
              classifier: CardClassifier | None = None, thresholds: Thresholds | None = None,
              index_net: IndexReader | None = None,
              source: Callable[[int, str, str | None], WideScene] = wide_scene,
              ) -> tuple[WideScene, list[Detection], list[Detection]]:
    """Scene `seed` of `deck` (calibrated; `kind` the deck kind, French 40 or 52), and the
    cards named with options `on` and `off` (with `classifier`'s weights, `thresholds` and the
    index reader `index_net`, when given). `source`: the scenes' generator (wide_scene, or
    ray_scenes.ray_scene, the renderer built apart)."""
    scene = source(seed, deck, kind)
    th = thresholds or Thresholds()
    return (scene, Recognizer(deck, kind, th, options=on, classifier=classifier,
                              index_net=index_net).recognize(scene.frame, scene.camera),
            Recognizer(deck, kind, th, options=off, classifier=classifier,
                       index_net=index_net).recognize(scene.frame, scene.camera))


# the French index reader before 2026-12-02's (trained in display values only), which the
# French tests made before it judge their changes with: the newer reader reads some of their
# cards' faded indices and names them with or without the change
INDEX_THEN = IndexReader(CardClassifier.load(
    Path(__file__).parent / "data" / "index_reader_french_2026-11-25.npz"))


def named_right(scene: WideScene, found: list[Detection], code: str) -> bool:
    """The scene's card `code` is among `found`, named where it lies."""
    truth = next(t for t in scene.truth if t.code == code)
    return any(d.code == code and inside(truth, d.center) for d in found)
