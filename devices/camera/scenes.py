"""Random table scenes, seeded: the test and benchmark material for the recogniser.

Each seed gives one scene: cards fanned at the positions and in the dealer area (each next card
overlapping the previous one), a face-down card now and then, chip stacks, often the dealer's
hand over a card, and a random camera mount, lighting, blur and noise. The same seed always gives
the same scene. Seeds below 1,000,000 are the tuning/test range; the benchmark uses seeds from
BENCH_SEED_BASE up, which were never used for tuning.
"""

from __future__ import annotations

import numpy as np

from devices.camera.assets import deck_cards
from devices.camera.layout import CARD_WIDTH, DEALER, CameraPose, default_areas
from devices.camera.render import (
    CardItem,
    ChipItem,
    HandItem,
    Item,
    Lighting,
    SceneSpec,
    card_aspect,
)
from studio.cards import DeckArt, DeckKind

BENCH_SEED_BASE = 7_000_000
CHIP_COLOURS = ((40, 40, 200), (190, 90, 30), (30, 30, 30), (40, 160, 60), (30, 200, 230),
                (150, 60, 160), (235, 235, 235))


def random_scene(seed: int, art: DeckArt | str, kind: DeckKind | str | None = None) -> SceneSpec:
    """One seeded scene of this art (French scenes use all 52 cards unless `kind` says 40)."""
    art = DeckArt(art)
    rng = np.random.default_rng([seed, list(DeckArt).index(art)])
    camera = CameraPose().jittered(rng, 35.0)
    positions = int(rng.choice([2, 3, 3, 3, 4, 5]))
    areas = tuple(default_areas(positions))
    pool = deck_cards(art, kind)
    order = rng.permutation(len(pool))
    codes = iter([pool[i].code for i in order])
    aspect = card_aspect(art)
    items: list[Item] = []
    cards: list[CardItem] = []
    for area in areas:
        count = int(rng.choice([0, 1, 1, 2, 2, 3] if area.name != DEALER else [1, 1, 2, 3, 4]))
        step = CARD_WIDTH * rng.uniform(0.45, 0.8)
        span = CARD_WIDTH + step * max(0, count - 1)
        x = area.cx - span / 2 + CARD_WIDTH / 2 + rng.uniform(-15, 15)
        y = area.cy + rng.uniform(-20, 15)
        flip = 180.0 if rng.random() < 0.1 else 0.0
        for _ in range(count):
            angle = flip + rng.normal(0, 6) + (90.0 if rng.random() < 0.04 else 0.0)
            card = CardItem(next(codes), rng.random() > 0.08, float(x), float(y), float(angle))
            items.append(card)
            cards.append(card)
            x += step
            y += rng.uniform(-12, 12)
    if rng.random() < 0.5:  # the burn/discard pile beside the dealer area, face down
        items.insert(0, CardItem(next(codes), False, float(rng.uniform(120, 260)),
                                 float(rng.uniform(120, 260)), float(rng.uniform(-40, 40))))
    for _ in range(int(rng.integers(2, 9))):
        area = areas[int(rng.integers(1, len(areas)))]
        items.insert(0, ChipItem(float(area.cx + rng.uniform(-area.w / 2, area.w / 2)),
                                 float(area.cy + area.h / 2 + rng.uniform(-20, 70)),
                                 CHIP_COLOURS[int(rng.integers(len(CHIP_COLOURS)))],
                                 float(rng.uniform(17, 23)), int(rng.integers(1, 5))))
    if cards and rng.random() < 0.6:
        target = cards[int(rng.integers(len(cards)))]
        half_h = CARD_WIDTH * aspect / 2
        items.append(HandItem(float(target.cx + rng.uniform(-40, 40)),
                              float(target.cy - half_h - rng.uniform(-20, 40)),
                              float(rng.normal(0, 15)), float(rng.uniform(0.85, 1.1))))
    lighting = Lighting(gain=float(rng.uniform(0.75, 1.15)), slope_x=float(rng.uniform(-0.2, 0.2)),
                        slope_y=float(rng.uniform(-0.2, 0.2)),
                        warm_left=float(rng.uniform(-1, 1)), warm_right=float(rng.uniform(-1, 1)))
    return SceneSpec(art=art, items=tuple(items), camera=camera, areas=areas, lighting=lighting,
                     blur_sigma=float(rng.choice([0.0, rng.uniform(0.4, 1.4)])),
                     noise_sigma=float(rng.uniform(1.5, 6.0)), felt_seed=int(rng.integers(4)))
