"""The seam between the studio's table core and a game.

The core (actor, money, replay, audit, web) speaks only this vocabulary; a game package
(`studio/games/<game>/`) implements `Game` over it. The names here are the protocol every game
shares: a round opens with a betting window, closes it, opens decks, takes cards where the game
says the next card goes, asks for decisions, settles spots, and may be void. What a card is
worth, who gets it, which decisions exist and what a spot pays are the game's alone.

Event types the core reads (a game emits them with these fields):

- ``betting_opened`` (round_id, closes_at, rules), ``betting_closed``, ``deck_opened`` (deck_set,
  fresh), ``burn_card`` / ``hole_card`` (private: card, source; a card dealt face down, its
  code kept from everyone but the audit), ``card_dealt`` (card, source, to, position),
  ``decision_requested`` (position, players, turn), ``decision_made`` (player, position,
  choice, turn), ``decision_timed_out`` (position, turn), ``round_closed``, ``round_voided``
  (reason, refunds: [{placement_id, player, amount}]).
- settlement events, whichever the game names, as `Game.spots` reads them.

A decision may put money on the table (a double, a split, insurance): the round adds the
placements to its state, and the table reserves them before it stores the decision. The
decider's are reserved all or none (a refusal refuses the decision). Placements the decision
adds for other players are their followers' (bet behind: they follow the seated player's
double, split or insurance): each follower's where that player's credit allows; the table then
steps the decision again naming the others in `Decide.unfunded` (their bets stay as they
were), and the round records them in `decision_made` (`unfunded`) so a replay decides alike.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from studio.cards import Card, DeckKind


class RoundError(Exception):
    """A command the round refuses. `code` is stable; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Event:
    """What happened. `private` events (the burn card, a deck's order) never reach players."""

    type: str
    data: Mapping[str, Any]
    private: bool = False


@dataclass(frozen=True, slots=True)
class Placement:
    """Chips placed once on one spot; each placement is one ledger reservation. `kind` names
    the bet in the game's words (a str; games use StrEnums)."""

    placement_id: str
    player: str
    position: int
    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class Target:
    """Who receives the next card: the burn, a position, or the dealer (position None)."""

    kind: str  # "burn" | "position" | "dealer" | a place of the game's own ("punto")
    position: int | None = None
    note: str | None = None  # what the dealer must also know ("third card")

    def describe(self) -> str:
        return self._place() + (f" ({self.note})" if self.note else "")

    @property
    def face_down(self) -> bool:
        """The card goes face down (the burn, a Blackjack hole card): the camera cannot see
        it, so the shoe/camera cross-check takes the shoe's word for it."""
        return self.kind == "burn" or "face down" in (self.note or "")

    def _place(self) -> str:
        if self.kind == "burn":
            return "burn a card"
        if self.kind == "dealer":
            return "deal to the dealer"
        if self.kind == "position":
            return f"deal to position {self.position}"
        return f"deal to {self.kind.capitalize()}"  # a place of the game's own (Punto, Banco)


# ------------------------------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class PlaceBet:
    placement_id: str
    player: str
    position: int
    kind: str
    amount: int
    now: float


@dataclass(frozen=True, slots=True)
class CancelBets:
    player: str
    now: float


@dataclass(frozen=True, slots=True)
class CloseBetting:
    """Stop alle puntate: the bets accepted in the window enter the round."""

    now: float
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True, slots=True)
class OpenDeck:
    """A deck set opens for the round; `fresh`: no round of this table has dealt from it yet
    (a new shoe: a game may burn cards first)."""

    deck_set: str
    fresh: bool = False


@dataclass(frozen=True, slots=True)
class CardSeen:
    card: Card
    source: str
    deck_set: str | None = None


@dataclass(frozen=True, slots=True)
class Decide:
    """A player's decision; `choice` is the game's value for it (see `Game.parse_choice`).
    `unfunded`: the followers (players betting behind the decider) whose share of the stake
    the decision adds the table could not reserve; their bets stay as they were."""

    player: str
    position: int
    choice: Any
    unfunded: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class DecisionTimeout:
    position: int
    turn: int


@dataclass(frozen=True, slots=True)
class Void:
    reason: str


Command = CloseBetting | OpenDeck | CardSeen | Decide | DecisionTimeout | Void


# ------------------------------------------------------------------------------ what a game is


class RoundState(Protocol):
    """What the core reads of a game's (immutable) round state."""

    round_id: str
    closes_at: float
    placements: tuple[Placement, ...]
    deck_sets: tuple[str, ...]
    seen: frozenset[str]
    deciding: int | None
    turn: int

    @property
    def finished(self) -> bool: ...

    @property
    def betting(self) -> bool: ...

    @property
    def awaiting_decision(self) -> bool: ...

    def expecting(self) -> Target | None: ...

    def deciders(self) -> list[str]: ...


class BetBook(Protocol):
    """The bets of one betting window (see the game's implementation for the limits)."""

    closes_at: float
    open: bool
    placements: dict[str, Placement]
    staked: int

    def check_command(self, player: str, bets: Sequence[tuple[str, Any, Any, Any]], now: float,
                      pending: BetBook | None = None) -> list[Placement]: ...

    def count(self, p: Placement) -> None: ...

    def add(self, p: Placement) -> Event: ...

    def of(self, player: str) -> list[Placement]: ...

    def window_events(self, now: float) -> list[Event]:
        """Public news of the window (seats taken): published, not logged; rate-bounded."""
        ...

    def check_cancel(self, cmd: CancelBets) -> list[Placement]: ...

    def cancel(self, player: str) -> Event: ...

    def close(self) -> tuple[Placement, ...]: ...


# One settled spot: (player, position, bet kind, stake, returned), returned None when the
# stake is refunded. A plain tuple: a settlement yields tens of thousands of them.
Spot = tuple[str, int, str, int, "int | None"]


class Game(Protocol):
    """A game on the table core. Every method is pure."""

    name: str
    deck: frozenset[str]            # the card codes of one deck of the game
    deck_kind: DeckKind             # which deck that is (the RNG shoe deals it)
    settlement_events: frozenset[str]  # the event types `spots` reads
    grouped: Mapping[str, str]      # settlement event -> stored event holding many of them
    derived_events: frozenset[str]  # events the round derives (the replay must agree)
    choices: Mapping[str, Any]      # decision words players send -> the game's value
    choices_adding_money: frozenset[str]  # those that may put money on the table (a double)
    default_bet: str                # the bet kind of a bet that names none

    def table_rules(self, cfg: Any) -> Any: ...

    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    def rules_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def open_round(self, round_id: str, rules: Any, closes_at: float
                   ) -> tuple[RoundState, list[Event]]: ...

    def new_book(self, rules: Any, closes_at: float) -> BetBook: ...

    def step(self, state: Any, cmd: Command) -> tuple[Any, list[Event]]: ...

    def choice_word(self, choice: Any) -> str: ...

    def bet_kind(self, name: str) -> str: ...

    def spots(self, event: Event) -> Iterable[Spot]: ...

    def history(self, type_: str, data: Mapping[str, Any]
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]: ...

    def round_view(self, state: Any, player: str | None) -> dict[str, Any]: ...

    def round_summary(self, closed: Mapping[str, Any]) -> dict[str, Any]: ...

    def personal_view(self, state: Any, player: str) -> dict[str, Any]:
        """What `player` sees beyond `round_view(state, None)` (the keys that differ)."""
        ...

    def personal_key(self, state: Any, player: str) -> Hashable | None:
        """A small value that decides `personal_view(state, player)` within a round: equal
        keys, equal views, whoever the player (None: none known, the view is built each
        time)."""
        ...

    def personal_changes(self, before: Any, after: Any) -> Iterable[str] | None:
        """The players whose `personal_view` may differ between two states of one round
        (dealing, not betting); None: any of them. Others keep their view without their key
        being asked again."""
        ...

    def result_text(self, summary: Mapping[str, Any]) -> str:
        """A closed round in a few words, from its summary (the lobby)."""
        ...
