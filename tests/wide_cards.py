"""What the recogniser names on one wide tune scene with a switch on and off: the tests of a
change that names a card the pipeline before it refused (test_cascade, test_edge_snap)."""

from __future__ import annotations

from devices.camera.recognizer import Detection, Options, Recognizer
from devices.camera.scoring import inside
from devices.camera.wide_scenes import WideScene, wide_scene


def both_ways(deck: str, seed: int, on: Options, off: Options, kind: str | None = None
              ) -> tuple[WideScene, list[Detection], list[Detection]]:
    """Scene `seed` of `deck` (calibrated; `kind` the deck kind, French 40 or 52), and the
    cards named with options `on` and `off`."""
    scene = wide_scene(seed, deck, kind)
    return (scene, Recognizer(deck, kind, options=on).recognize(scene.frame, scene.camera),
            Recognizer(deck, kind, options=off).recognize(scene.frame, scene.camera))


def named_right(scene: WideScene, found: list[Detection], code: str) -> bool:
    """The scene's card `code` is among `found`, named where it lies."""
    truth = next(t for t in scene.truth if t.code == code)
    return any(d.code == code and inside(truth, d.center) for d in found)
