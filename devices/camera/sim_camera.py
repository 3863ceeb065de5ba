"""The simulated table camera: a live 1280x720 BGR frame source the table can drive.

The table (or a technician) lays cards at a position or in the dealer area, puts chips down,
moves the dealer's hand, and clears the cards at round end; `frame(t)` returns what the camera
sees at time t. The scene is redrawn only when it changes; each frame then only adds a slight
light flicker and fresh sensor noise, so 25 fps costs a few milliseconds per frame on one core.
Everything is deterministic given the seed (card placement jitter, noise per frame index).
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from devices.camera.layout import (
    CARD_WIDTH,
    DEALER,
    Area,
    CameraPose,
    default_areas,
    image_regions,
    position_name,
)
from devices.camera.render import (
    CardItem,
    CardTruth,
    ChipItem,
    HandItem,
    Item,
    Lighting,
    Renderer,
    SceneSpec,
    add_noise,
    apply_lighting,
)
from studio.cards import DeckArt, parse_card

ROW_DROP = 45.0  # table units between rows of a long hand


class SceneError(ValueError):
    """A request the scene cannot honour (unknown area, card already on the table)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class PlacedCard:
    code: str
    area: str
    face_up: bool


class SimCamera:
    """A deterministic table camera. Thread-safe: the table may place cards from one thread
    while a streamer calls `frame(t)` from another.

    SimCamera(art="napoletane", positions=3, seed=0, fps=25.0, lighting=None,
              noise_sigma=3.0, blur_sigma=0.0, copies=1)

    `copies`: decks in the shoe. A French table's eight-deck shoe may put the same card on the
    felt several times in a round; with one deck a second copy is refused.
    """

    def __init__(self, art: DeckArt | str = DeckArt.NAPOLETANE, *, positions: int = 3,
                 seed: int = 0, fps: float = 25.0, lighting: Lighting | None = None,
                 noise_sigma: float = 3.0, blur_sigma: float = 0.0,
                 camera: CameraPose | None = None, copies: int = 1) -> None:
        self.art = DeckArt(art)
        self.copies = max(1, copies)
        self.seed = seed
        self.fps = fps
        self.camera = camera or CameraPose()
        self.areas: tuple[Area, ...] = tuple(default_areas(positions))
        self.lighting = lighting or Lighting(gain=1.0, slope_x=0.08, slope_y=-0.05,
                                             warm_left=0.3, warm_right=-0.2)
        self.noise_sigma = noise_sigma
        self.blur_sigma = blur_sigma
        self._renderer = Renderer()
        self._lock = threading.Lock()
        self._cards: list[tuple[PlacedCard, CardItem]] = []
        self._chips: list[ChipItem] = []
        self._hand: HandItem | None = None
        self._version = 0
        self._cached: tuple[int, np.ndarray, list[CardTruth]] | None = None

    # --- the scene model the table drives -------------------------------------------------

    def area(self, where: int | str) -> Area:
        """An area by position number (1..n) or name ("position-2", "dealer")."""
        name = position_name(where) if isinstance(where, int) else where
        for a in self.areas:
            if a.name == name:
                return a
        raise SceneError("camera.unknown_area", f"no area {where!r} on this table")

    def place_card(self, card: str, where: int | str, *, face_up: bool = True) -> PlacedCard:
        """Lay a card in an area, overlapping the previous card there as a dealer does."""
        code = parse_card(card).code
        area = self.area(where)
        with self._lock:
            if sum(1 for p, _ in self._cards if p.code == code) >= self.copies:
                raise SceneError("camera.card_on_table", f"{code} already lies on the table"
                                 + (f" {self.copies} times" if self.copies > 1 else ""))
            index = sum(1 for p, _ in self._cards if p.area == area.name)
            rng = np.random.default_rng([self.seed, zlib.crc32(f"{area.name}/{index}".encode())])
            # a row overlapping to the right while it fits the area, then the next row a
            # little lower and half a step on, as a dealer keeps a long hand on its box
            step = CARD_WIDTH * 0.62
            per_row = max(1, int((area.w - CARD_WIDTH - 24) // step) + 1)
            row, col = divmod(index, per_row)
            x = (area.cx - area.w / 2 + CARD_WIDTH / 2 + 12 + step * (col + row / 2)
                 + rng.uniform(-4, 4))
            y = area.cy - 10 + ROW_DROP * row + rng.uniform(-6, 6)
            item = CardItem(code, face_up, float(x), float(y), float(rng.normal(0, 4)))
            placed = PlacedCard(code, area.name, face_up)
            self._cards.append((placed, item))
            self._version += 1
        return placed

    def turn_up(self, card: str) -> None:
        """Turn a face-down card face up where it lies (the first face-down copy)."""
        code = parse_card(card).code
        with self._lock:
            for i, (p, item) in enumerate(self._cards):
                if p.code == code and not p.face_up:
                    self._cards[i] = (PlacedCard(code, p.area, True),
                                      CardItem(code, True, item.cx, item.cy, item.angle))
                    self._version += 1
                    return
        raise SceneError("camera.card_not_on_table", f"{code} is not on the table")

    def remove_cards(self, where: int | str | None = None) -> int:
        """Take the cards away (all of them at round end, or one area's); returns how many."""
        name = None if where is None else self.area(where).name
        with self._lock:
            before = len(self._cards)
            self._cards = [(p, i) for p, i in self._cards if name is not None and p.area != name]
            self._version += 1
            return before - len(self._cards)

    def add_chips(self, where: int | str, colour: tuple[int, int, int] = (40, 40, 200),
                  stack: int = 2) -> None:
        """A chip stack on the betting line in front of an area."""
        area = self.area(where)
        with self._lock:
            offset = 45.0 * sum(1 for c in self._chips if abs(c.cy - area.cy) < area.h)
            self._chips.append(ChipItem(area.cx - area.w / 2 + 30 + offset,
                                        area.cy + area.h / 2 + 30, colour, 20.0, stack))
            self._version += 1

    def clear_chips(self) -> None:
        with self._lock:
            self._chips = []
            self._version += 1

    def set_hand(self, where: int | str | None, *, dx: float = 0.0, dy: float = -60.0) -> None:
        """Put the dealer's hand over an area (partly covering its cards), or take it away."""
        with self._lock:
            if where is None:
                self._hand = None
            else:
                area = self.area(where)
                self._hand = HandItem(area.cx + dx, area.cy + dy, 10.0, 1.0)
            self._version += 1

    @property
    def cards(self) -> list[PlacedCard]:
        with self._lock:
            return [p for p, _ in self._cards]

    def regions(self) -> dict[str, np.ndarray]:
        """Each area as an image polygon: give these to the voter to name where cards lie."""
        return image_regions(self.camera, list(self.areas))

    def spec(self) -> SceneSpec:
        with self._lock:
            items: list[Item] = [*self._chips, *(i for _, i in self._cards)]
            if self._hand is not None:
                items.append(self._hand)
        return SceneSpec(self.art, tuple(items), self.camera, self.areas, self.lighting,
                         self.blur_sigma, self.noise_sigma, self.seed % 4)

    # --- frames ---------------------------------------------------------------------------

    def _static(self) -> tuple[np.ndarray, list[CardTruth]]:
        with self._lock:
            version = self._version
            cached = self._cached
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        spec = self.spec()
        drawn, truth = self._renderer.draw_items(spec)
        lit = apply_lighting(drawn, spec.lighting)
        if spec.blur_sigma > 0.25:
            lit = cv2.GaussianBlur(lit, (0, 0), spec.blur_sigma)
        lit.setflags(write=False)
        with self._lock:
            self._cached = (version, lit, truth)
        return lit, truth

    def frame(self, t: float) -> np.ndarray:
        """The camera image at time t seconds (1280x720 BGR uint8, a new array each call)."""
        static, _ = self._static()
        index = round(t * self.fps)
        flicker = 1.0 + 0.015 * np.sin(2 * np.pi * 0.7 * t)  # mains-light shimmer
        lit = cv2.convertScaleAbs(static, alpha=flicker)
        return add_noise(lit, self.noise_sigma, self.seed * 1_000_003 + index)

    def truth(self) -> list[CardTruth]:
        """What is really on the table now (for tests and technicians, never for players)."""
        return self._static()[1]

    def frames(self, start: float = 0.0) -> Iterator[tuple[float, np.ndarray]]:
        """Endless (t, frame) pairs at the camera's frame rate, starting at `start`."""
        n = 0
        while True:
            t = start + n / self.fps
            yield t, self.frame(t)
            n += 1


__all__ = ["DEALER", "PlacedCard", "SceneError", "SimCamera"]
