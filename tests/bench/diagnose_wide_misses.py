"""Where the recogniser loses cards on the wide scenes: a breakdown of the misses, to know what
to work on (localisation or naming). Tune seeds only.

    .venv/bin/python -m tests.bench.diagnose_wide_misses [--scenes N] [--decks ...]
        [--modes calibrated,uncalibrated] [--set OPTION=0|1 ...] [--source wide|wide-linear|ray]

Each counted card that is not named right falls in one class:

- not located: no quad the recogniser examined lies on the card (mean corner distance under
  a tenth of the card's width, either way up);
- located, refused: such a quad was examined, nothing accepted there;
- named wrongly: a detection with another code lies on the card.

Beside the class: whether the judge names the card right on its true quad (the oracle
outline), split into cards seen whole (>= 98%) and partly covered.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from devices.camera.recognizer import Candidate, Options, Recognizer, order_quad
from devices.camera.scoring import quad_distance
from devices.camera.wide_scenes import HELD_OUT_SEED_BASE, SEEN_WHOLE, WideTruth
from devices.camera.wide_scoring import score_wide
from tests.bench.bench_wide_scenes import DECKS, SOURCES


@dataclass
class Probe:
    """Every quad a recogniser looked at in one frame (hypotheses and judged candidates)."""

    looked: list[np.ndarray] = field(default_factory=list)
    judged: list[Candidate] = field(default_factory=list)

    def attach(self, rec: Recognizer) -> None:
        quick, judge, partial = rec._quick_match, rec._judge, rec._judge_partial

        def q(frame: np.ndarray, quad: np.ndarray):  # type: ignore[no-untyped-def]
            self.looked.append(np.asarray(quad, np.float32).copy())
            return quick(frame, quad)

        def j(frame: np.ndarray, quad: np.ndarray, *a, **k):  # type: ignore[no-untyped-def]
            cand = judge(frame, quad, *a, **k)
            self.judged.append(cand)
            return cand

        def p(frame: np.ndarray, quad: np.ndarray, *a, **k):  # type: ignore[no-untyped-def]
            cand, cells = partial(frame, quad, *a, **k)
            self.judged.append(cand)
            return cand, cells

        rec._quick_match, rec._judge, rec._judge_partial = q, j, p  # type: ignore[method-assign]


def _on(t: WideTruth, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(t.quad.reshape(-1, 1, 2), point, False) >= 0


def classify(t: WideTruth, truth: list[WideTruth], probe: Probe, found: list,
             near: float) -> str:
    """A missed card's class (see the module's docstring); a detection of the card on top
    of it (its centre on both) is not a wrong name."""
    wrong = [d for d in found if _on(t, d.center) and not any(
        o.face_up and o.code == d.code and _on(o, d.center) for o in truth)]
    if wrong:
        return "named wrongly"
    quads = probe.looked + [c.quad for c in probe.judged]
    if not any(quad_distance(q, t.quad) < near for q in quads):
        return "not located"
    return "located, refused"


def oracle(rec: Recognizer, frame: np.ndarray, t: WideTruth) -> bool:
    """The card is named right from its true outline (whole judge, then the partial one)."""
    quad = order_quad(t.quad)
    cand = rec._judge(frame, quad, rec.thresholds.aligned_min_separation)
    if cand.accepted:
        return cand.label == t.code
    cand, _ = rec._judge_partial(frame, quad, None)
    return cand.accepted and cand.label == t.code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--decks", default=",".join(DECKS))
    parser.add_argument("--modes", default="calibrated,uncalibrated")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=0|1",
                        help="an Options switch for the recogniser examined, e.g. localiser=0")
    parser.add_argument("--source", choices=tuple(SOURCES), default="wide",
                        help="the scenes' generator: wide_scenes.py (wide-linear: in linear "
                             "light) or ray_scenes.py")
    args = parser.parse_args()
    options = replace(Options(), **{k: bool(int(v)) for k, v in
                                    (s.split("=") for s in args.set)})
    if args.first_seed + args.scenes > HELD_OUT_SEED_BASE:
        raise SystemExit("tune seeds only")
    cv2.setNumThreads(1)
    for deck in args.decks.split(","):
        art, kind = DECKS[deck]
        for mode in args.modes.split(","):
            rec, plain = Recognizer(art, kind, options=options), Recognizer(art, kind)
            classes: Counter[str] = Counter()
            right = expected = 0
            for seed in range(args.first_seed, args.first_seed + args.scenes):
                scene = SOURCES[args.source](seed, art, kind)
                camera = scene.camera if mode == "calibrated" else None
                probe = Probe()
                probe.attach(rec)
                found = rec.recognize(scene.frame, camera)
                tally = score_wide(found, scene.truth)
                right += tally.right
                expected += tally.expected
                for t in scene.truth:
                    if not t.counts:
                        continue
                    if any(d.code == t.code and _on(t, d.center) for d in found):
                        continue
                    width = float(np.linalg.norm(t.quad[1] - t.quad[0]))
                    cls = classify(t, scene.truth, probe, found, 0.1 * width)
                    whole = "whole" if t.visible >= SEEN_WHOLE else "covered"
                    ok = "oracle right" if oracle(plain, scene.frame, t) else "oracle refused"
                    classes[f"{cls:<17} {whole:<8} {ok}"] += 1
            print(f"{deck} {mode}: right {right}/{expected} "
                  f"({100.0 * right / max(1, expected):.1f}%)", flush=True)
            for key, n in sorted(classes.items(), key=lambda kv: -kv[1]):
                print(f"    {n:5d}  {key}", flush=True)


if __name__ == "__main__":
    main()
