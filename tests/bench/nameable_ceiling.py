"""How many counted cards of the wide scenes could be named at all from what shows of them, and
how the recogniser's misses sort by it: measured on the generator's truth, not the recogniser.

    .venv/bin/python -m tests.bench.nameable_ceiling [--scenes N] [--first-seed S]
        [--decks napoletane,piacentine,...] [--source wide|ray] [--misses] [--show]

A card counts when 45% of its face shows (wide_scoring.py). A Napoletane or Piacentine card
has no corner index: where what shows of it is the same on another card (a 6 and a 7 of cups
whose difference lies under the next card), no method can tell which it is. For each counted
card: its truly visible pixels (the generator's label image, warped to the card's face at
CEIL_W x CEIL_H), and the fewest of them on which another card of the deck (either way up)
differs visibly from it on the clean scans (any channel by more than DIFF after a blur of
BLUR pixels, matched within SHIFT: devices/camera/telling.py). `--misses` runs the recogniser
(calibrated) too and sorts its misses by the same count.

A conservative measure: a card told apart by many pixels here is nameable from what shows; one
told apart by few may still be, at a camera's full resolution. For French cards it is far too
coarse (their corner indices blur into each other: tune 27,000-27,299, 78-82% told apart by a
pixel or more, while the recogniser names 96-97%), so read it for the Italian decks. There,
on tune 27,000-27,299 calibrated: napoletane 99.88% of 842 counted cards told apart by a
pixel or more, 99.41% by 100 or more; piacentine 99.50% and 97.49% of 796; of the
recogniser's misses, 22 of 23 and 38 of 43 were told apart by 10 pixels or more (15 and 23
by 300 or more): most of what it misses shows enough to be named.

It reads the scans and the generator only and tunes nothing, so it may run on any seeds.
"""

from __future__ import annotations

import argparse
from collections import Counter

from devices.camera.ray_scenes import labelled_ray_scene
from devices.camera.recognizer import Recognizer
from devices.camera.telling import telling_pixels
from devices.camera.wide_scenes import _kinds, labelled_wide_scene, visible_mask
from devices.camera.wide_scoring import inside
from tests.bench.bench_wide_scenes import DECKS

STEPS = (1, 10, 30, 100, 300)  # pixels that must differ (of 9,600)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--decks", default="napoletane,piacentine,french40,french52")
    parser.add_argument("--source", choices=("wide", "ray"), default="wide",
                        help="the generator: wide_scenes.py or ray_scenes.py")
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--show", action="store_true", help="print the cards nearly unnameable")
    args = parser.parse_args()
    labelled = labelled_ray_scene if args.source == "ray" else labelled_wide_scene
    for name in args.decks.split(","):
        art, kind = _kinds(*DECKS[name])
        rec = Recognizer(*DECKS[name]) if args.misses else None
        counted, missed = [], []
        for seed in range(args.first_seed, args.first_seed + args.scenes):
            scene, labels = labelled(seed, art, kind)
            found = []
            if rec is not None:
                rec.view(scene.camera)
                found = rec.recognize(scene.frame, scene.camera)
            for label, t in enumerate(scene.truth, 1):
                if not t.counts:
                    continue
                n = telling_pixels(t.code, visible_mask(labels, label, t.quad), art, kind)
                counted.append(n)
                if args.show and n < STEPS[2]:
                    print(f"  {seed} {t.code} {t.visible:.2f} shows, told apart by {n} px")
                if rec is not None and not any(d.code == t.code and inside(t, d.center)
                                               for d in found):
                    missed.append(n)
        total = len(counted)
        line = "  ".join(f">={s}px {100.0 * sum(n >= s for n in counted) / total:6.2f}%"
                         for s in STEPS)
        print(f"{name:<11} {total} counted  nameable {line}", flush=True)
        if rec is not None:
            bins = Counter(next((f"<{s}" for s in STEPS if n < s), f">={STEPS[-1]}")
                           for n in missed)
            print(f"{'':<11} {len(missed)} missed, by telling pixels: "
                  + "  ".join(f"{k} {bins[k]}" for k in [f"<{s}" for s in STEPS]
                              + [f">={STEPS[-1]}"]), flush=True)


if __name__ == "__main__":
    main()
