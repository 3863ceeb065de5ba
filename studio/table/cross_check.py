"""Cross-check of the shoe and the camera: every face-up card must be seen by both.

Why this shape: the shoe reads a card as it leaves the shoe, the camera a little later when it
lies on the table (after its frame voting), so the shoe is always first for a card. A camera
sighting that matches no shoe card still waiting, while some shoe card waits, can therefore only
be a misreading (or a card that did not come from the shoe): a disagreement at once. A reading
with no partner after `window_s` is a card seen by one source only. Either way nothing is dealt:
the table is paused (by the shell) and the dealer sees both readings and confirms one with the
table's manual card command. Cards are released to the table strictly in shoe order.

Pure logic: no I/O; time comes from an injected clock (anything with `now()`).
The burn card lies face down, so the camera cannot see it: the shell marks it `face_down` and it
passes on the shoe's word alone (source "shoe"); so does a Blackjack dealer's hole card.

A shoe of several decks (`copies` > 1: Punto e Banco and Blackjack deal from eight) may put the
same card on the table more than once in a round. Then a camera sighting of a card already
dealt pairs with a waiting shoe reading of that card if there is one (another copy), and only
otherwise is a repeat; a held shoe reading is dropped on resume only if the dealer keyed in
another copy of it meanwhile. With one deck a card already dealt can never be dealt again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

AGREED_SOURCE = "shoe+camera"


class Clock(Protocol):
    def now(self) -> float: ...


@dataclass(frozen=True, slots=True)
class CameraSeen:
    """A card the camera vouches for (devices/camera/voting.py's CardSeen fits: code, region,
    confidence). `at` is when the cross-check received it (its clock)."""

    card: str
    at: float = 0.0
    region: str | None = None
    confidence: float | None = None


@dataclass(frozen=True, slots=True)
class ShoeSeen:
    """A card the shoe reported; `ref` lets the shell recognise its own pending card."""

    card: str
    deck_set: str | None
    at: float
    face_down: bool = False
    ref: int = 0
    copies_dealt: int = 0  # copies of this card the table reported dealt when the shoe read it


@dataclass(frozen=True, slots=True)
class Deal:
    """Both sources agree (or the card is face down): the table gets this card."""

    card: str
    deck_set: str | None
    source: str  # "shoe+camera", or "shoe" for a face-down card
    shoe: ShoeSeen
    camera: CameraSeen | None


@dataclass(frozen=True, slots=True)
class Dispute:
    """The sources disagree, or one saw a card the other did not: pause, ask the dealer."""

    code: str  # cross_check.mismatch | cross_check.shoe_only | cross_check.camera_only
    shoe: ShoeSeen | None
    camera: CameraSeen | None
    at: float

    def message(self) -> str:
        shoe = self.shoe.card if self.shoe else "nothing"
        camera = self.camera.card if self.camera else "nothing"
        what = {"cross_check.mismatch": "the shoe and the camera disagree",
                "cross_check.shoe_only": "the camera did not see the shoe's card",
                "cross_check.camera_only": "the shoe did not report the camera's card"}[self.code]
        return f"{what}: shoe read {shoe}, camera read {camera}; confirm the card"

    def readings(self) -> dict[str, dict[str, object] | None]:
        """Both readings for the dealer's screen."""
        return {
            "shoe": None if self.shoe is None else {
                "card": self.shoe.card, "deck_set": self.shoe.deck_set, "at": self.shoe.at},
            "camera": None if self.camera is None else {
                "card": self.camera.card, "at": self.camera.at, "region": self.camera.region,
                "confidence": self.camera.confidence},
        }


@dataclass(frozen=True, slots=True)
class Held:
    """A reading that came while a dispute is open: kept, and tried again on `resume`."""

    reading: ShoeSeen | CameraSeen


@dataclass(frozen=True, slots=True)
class Ignored:
    """A camera sighting of a card the table already has (the voter saw it again)."""

    reading: CameraSeen


@dataclass(frozen=True, slots=True)
class Dropped:
    """A held shoe reading of a card the dealer keyed in meanwhile: never dealt twice."""

    reading: ShoeSeen


Outcome = Deal | Dispute | Held | Ignored | Dropped


@dataclass
class _Waiting:
    shoe: ShoeSeen
    camera: CameraSeen | None = None

    @property
    def ready(self) -> bool:
        return self.shoe.face_down or self.camera is not None


@dataclass
class CrossCheck:
    """Pairs shoe and camera readings; see the module docstring for the rules."""

    window_s: float
    clock: Clock
    copies: int = 1  # decks in the shoe: how often one card may come up in a round
    disputed: Dispute | None = None
    _shoe: list[_Waiting] = field(default_factory=list)
    _camera: list[CameraSeen] = field(default_factory=list)
    _held: list[ShoeSeen | CameraSeen] = field(default_factory=list)
    _dealt: Counter[str] = field(default_factory=Counter)  # what the table says it dealt
    _released: Counter[str] = field(default_factory=Counter)  # what this check released

    def __post_init__(self) -> None:
        if self.window_s <= 0:
            raise ValueError("cross_check.bad_window: the window must be positive")
        if self.copies < 1:
            raise ValueError("cross_check.bad_copies: a shoe holds at least one deck")

    # ------------------------------------------------------------------ inputs

    def shoe(self, card: str, deck_set: str | None, *, face_down: bool = False,
             ref: int = 0) -> list[Outcome]:
        reading = ShoeSeen(card, deck_set, self.clock.now(), face_down, ref, self._dealt[card])
        if self.disputed is not None:
            self._held.append(reading)
            return [Held(reading)]
        return self._add_shoe(reading)

    def camera(self, card: str, *, region: str | None = None,
               confidence: float | None = None) -> list[Outcome]:
        reading = CameraSeen(card, self.clock.now(), region, confidence)
        if self.disputed is not None:
            self._held.append(reading)
            return [Held(reading)]
        return self._add_camera(reading)

    def expire(self) -> list[Outcome]:
        """A reading alone for the whole window is a dispute (the shell calls this at
        `deadline()`; calling it early does nothing)."""
        if self.disputed is not None:
            return []
        now = self.clock.now()
        shoe = next((w for w in self._shoe if not w.ready), None)
        candidates: list[tuple[float, Dispute]] = []
        if shoe is not None and shoe.shoe.at + self.window_s <= now:
            candidates.append((shoe.shoe.at, Dispute("cross_check.shoe_only", shoe.shoe, None,
                                                     now)))
        if self._camera and self._camera[0].at + self.window_s <= now:
            candidates.append((self._camera[0].at, Dispute("cross_check.camera_only", None,
                                                           self._camera[0], now)))
        if not candidates:
            return []
        return [self._open(min(candidates, key=lambda c: c[0])[1])]

    def dealt(self, card: str) -> None:
        """The table dealt this card (from any source, the dealer's keys included)."""
        self._dealt[card] += 1

    def resume(self) -> list[Outcome]:
        """The dealer resumed the table: the dispute is over (the dealer confirmed a card with
        the manual command, or chose not to). Readings held meanwhile are tried again, with a
        fresh window; a held shoe card the table already has is dropped."""
        self.disputed = None
        held, self._held = self._held, []
        out: list[Outcome] = []
        now = self.clock.now()
        for i, r in enumerate(held):
            if isinstance(r, ShoeSeen):
                r = ShoeSeen(r.card, r.deck_set, now, r.face_down, r.ref, r.copies_dealt)
                out += [Dropped(r)] if self._keyed_meanwhile(r) else self._add_shoe(r)
            else:
                out += self._add_camera(CameraSeen(r.card, now, r.region, r.confidence))
            if self.disputed is not None:  # a new dispute: the rest stays held
                self._held += held[i + 1:]
                break
        return out

    def new_round(self) -> list[ShoeSeen | CameraSeen]:
        """A new round: the table is cleared. Returns what was still unpaired (for the log)."""
        left: list[ShoeSeen | CameraSeen] = [w.shoe for w in self._shoe]
        left += self._camera + self._held
        self._shoe, self._camera, self._held = [], [], []
        self._dealt, self._released = Counter(), Counter()
        self.disputed = None
        return left

    def _keyed_meanwhile(self, reading: ShoeSeen) -> bool:
        """The table has this held shoe card already: the dealer keyed it in during the
        dispute (with several decks: more copies are dealt than when the shoe read it)."""
        if self.copies == 1:
            return self._on_table(reading.card) > 0
        return self._dealt[reading.card] > reading.copies_dealt

    def _on_table(self, card: str) -> int:
        """Copies of the card on the table this round, as far as this check knows (a card it
        released is reported back by the table a moment later: both count the same copy)."""
        return max(self._dealt[card], self._released[card])

    # ------------------------------------------------------------------ views

    def deadline(self) -> float | None:
        """When `expire` may next find a lonely reading; None when nothing waits."""
        if self.disputed is not None:
            return None
        times = [w.shoe.at for w in self._shoe if not w.ready] + [c.at for c in self._camera]
        return min(times) + self.window_s if times else None

    def waiting(self) -> list[ShoeSeen]:
        """Shoe readings not yet dealt (in order), held ones included."""
        return [w.shoe for w in self._shoe] + [r for r in self._held if isinstance(r, ShoeSeen)]

    # ------------------------------------------------------------------ pairing

    def _add_shoe(self, reading: ShoeSeen) -> list[Outcome]:
        waiting = _Waiting(reading)
        self._shoe.append(waiting)
        if not reading.face_down:
            match = next((c for c in self._camera if c.card == reading.card), None)
            if match is not None:
                self._camera.remove(match)
                waiting.camera = match
            elif self._camera:  # the camera saw a card no shoe reading explains
                self._shoe.remove(waiting)
                return [self._open(Dispute("cross_check.mismatch", reading, self._camera[0],
                                           reading.at))]
        return self._release()

    def _add_camera(self, reading: CameraSeen) -> list[Outcome]:
        lonely = [w for w in self._shoe if not w.ready]
        match = next((w for w in lonely if w.shoe.card == reading.card), None)
        if match is not None and self.copies > 1:  # another copy of a card dealt before
            match.camera = reading
            return self._release()
        if self._on_table(reading.card) or any(w.shoe.card == reading.card and w.camera
                                            for w in self._shoe):
            return [Ignored(reading)]
        if match is not None:
            match.camera = reading
            return self._release()
        if lonely:  # the shoe is first for every card: this can only be a misreading
            self._shoe.remove(lonely[0])
            return [self._open(Dispute("cross_check.mismatch", lonely[0].shoe, reading,
                                       reading.at))]
        self._camera.append(reading)
        return []

    def _release(self) -> list[Outcome]:
        out: list[Outcome] = []
        while self._shoe and self._shoe[0].ready:
            w = self._shoe.pop(0)
            self._released[w.shoe.card] += 1
            out.append(Deal(w.shoe.card, w.shoe.deck_set,
                            "shoe" if w.camera is None else AGREED_SOURCE, w.shoe, w.camera))
        return out

    def _open(self, dispute: Dispute) -> Dispute:
        """Open a dispute. What else was waiting is held for `resume`: nothing is dealt on a
        doubtful card, nor after one until the dealer has looked."""
        self.disputed = dispute
        if dispute.shoe is not None:
            self._shoe = [w for w in self._shoe if w.shoe is not dispute.shoe]
        if dispute.camera is not None and dispute.camera in self._camera:
            self._camera.remove(dispute.camera)
        held: list[ShoeSeen | CameraSeen] = []
        for w in self._shoe:
            held.append(w.shoe)
            if w.camera is not None:
                held.append(w.camera)
        self._held = held + self._camera + self._held
        self._shoe, self._camera = [], []
        return dispute


def summarise(outcomes: Iterable[Outcome]) -> list[str]:
    """One short line per outcome, for logs and test messages."""
    lines = []
    for o in outcomes:
        if isinstance(o, Deal):
            lines.append(f"deal {o.card} ({o.source})")
        elif isinstance(o, Dispute):
            lines.append(f"{o.code}: {o.message()}")
        else:
            lines.append(f"{type(o).__name__.lower()} {o.reading.card}")
    return lines
