"""What every game package shares, so that a game writes only what is its own.

`RoundGame` is a `studio.table.seam.Game` whose round is a module (`round.py`: `open_round`,
`step`, `rules_to_json`, `rules_from_json`, `BetBook`); the game's class adds its names, its
config-to-rules, its settlement events, its history lines and its views. The deck helpers are
the checks every card-dealing round makes the same way.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any

from studio.odds import format_odds, parse_odds
from studio.table.seam import CardSeen, Event, OpenDeck, Placement, RoundError, Target, Void

_MISSING = object()


class RoundGame:
    """The plumbing between the core and a game's round module."""

    round: ModuleType
    choices: Mapping[str, Any]
    page = "page.html"  # the player's page in the package's static/ (none: the live page)
    cross_checks = False  # the camera's recogniser knows this game's art (cross-checks a shoe)
    camera_places: Mapping[str, int | str] = {}  # a place of the game's own -> camera area

    def rules_to_json(self, rules: Any) -> dict[str, Any]:
        return self.round.rules_to_json(rules)

    def rules_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.round.rules_from_json(data)

    def open_round(self, round_id: str, rules: Any, closes_at: float) -> tuple[Any, list[Event]]:
        return self.round.open_round(round_id, rules, closes_at)

    def new_book(self, rules: Any, closes_at: float) -> Any:
        return self.round.BetBook(rules, closes_at)

    def step(self, state: Any, cmd: Any) -> tuple[Any, list[Event]]:
        return self.round.step(state, cmd)

    def choice_word(self, choice: Any) -> str:
        return next(word for word, value in self.choices.items() if value == choice)

    def round_summary(self, closed: Mapping[str, Any]) -> dict[str, Any]:
        """What a history line shows of a closed round (its `round_closed` event): the
        dealer's hand, for the games that have one."""
        return {"dealer": closed.get("dealer") or [], "dealer_total": closed.get("dealer_total")}

    # Decision words that may put money on the table (a double, a split, insurance): an
    # operator's wallet funds them before the table decides.
    choices_adding_money: frozenset[str] = frozenset()

    def result_text(self, summary: Mapping[str, Any]) -> str:
        """A closed round in a few words for the lobby ("Dealer 19"), from `round_summary`."""
        total = summary.get("dealer_total")
        return "" if total is None else f"Dealer {total}"

    def personal_view(self, state: Any, player: str) -> dict[str, Any]:
        """What `player` sees of the round beyond the public view (`round_view(state,
        None)`): the keys that differ. Computed here by difference, for any game; a game
        with thousands of players overrides it with just its personal fields, so that the
        public part is built once per state and only this per player."""
        public = self.round_view(state, None)
        mine = self.round_view(state, player)
        return {k: v for k, v in mine.items() if public.get(k, _MISSING) != v}

    def personal_key(self, state: Any, player: str) -> Hashable | None:
        """A small value that decides `personal_view(state, player)` within a round: equal
        keys, equal views, whoever the player. Thousands of players' views are asked after every card and most
        did not change: a game that can say so cheaply spares building them. None (here):
        no key, the view is built each time."""
        return None

    def personal_changes(self, before: Any, after: Any) -> Iterable[str] | None:
        """The players whose `personal_view` may differ between two states of one round;
        None (here): any. A card to one seat of 10,000 players leaves most views as they
        were: a game that can say whose changed spares asking every player's key after
        every card."""
        return None

    def window_view(self, book: Any, player: str | None) -> dict[str, Any] | None:
        """What players see of the open betting window beyond their own bets (a live
        Blackjack table's seats taken); None: nothing."""
        return None

    def shoe_view(self, closed: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        """What players see of the shoe so far (a baccarat table's roads), from the summaries
        of its closed rounds; None: the game shows nothing of the kind."""
        return None


def open_deck(state: Any, cmd: OpenDeck, deck_size: int) -> tuple[Any, list[Event]]:
    """A deck opens for the round (again: nothing happens); a second one only once the first
    is used up, so no card of a deck can be dealt twice in a round."""
    if cmd.deck_set in state.deck_sets:
        return state, []
    if state.deck_sets and len(state.seen) < deck_size:
        raise RoundError("deck.not_exhausted",
                         "a new deck opens only when the current one is used up")
    new = replace(state, deck_sets=state.deck_sets + (cmd.deck_set,), seen=())
    return new, [Event("deck_opened", {"deck_set": cmd.deck_set, "fresh": cmd.fresh,
                                       "deck_number": len(new.deck_sets)})]


def open_shoe_deck(state: Any, cmd: OpenDeck, deck_size: int, burn_cards: int,
                   dealing: bool) -> tuple[Any, list[Event]]:
    """`open_deck` for a game dealt from a shoe: from a new shoe (`fresh`) the dealer burns
    `burn_cards` first (the state's `burn_due`); `dealing`: the round waits for a card now, so
    the dealer is told the burn comes first."""
    state, events = open_deck(state, cmd, deck_size)
    if events and cmd.fresh and burn_cards:
        state = replace(state, burn_due=burn_cards)
        if dealing:
            events.append(card_expected(state))
    return state, events


def burn(state: Any, cmd: CardSeen) -> tuple[Any, list[Event]]:
    """The card `take_card` sent to the burn: recorded privately (never shown to anyone but the
    audit), players told only that a card was burnt, then where the next one goes."""
    state = replace(state, burn_due=state.burn_due - 1)
    return state, [Event("burn_card", {"card": cmd.card.code, "source": cmd.source},
                         private=True),
                   Event("card_burned", {"source": cmd.source, "left": state.burn_due}),
                   card_expected(state)]


def take_card(state: Any, cmd: CardSeen, deck: frozenset[str], deck_name: str,
              copies: int = 1) -> tuple[Any, Target]:
    """(the state with the card counted as seen, where it goes), or RoundError saying why the
    round may not take it now (the table pauses). `copies`: how many of each card the deck
    set holds (a shoe of eight decks: eight)."""
    code = cmd.card.code

    def reject(code_: str, message: str) -> RoundError:
        return RoundError(code_, f"{message} ({code} from {cmd.source})")

    if state.expecting() is None:
        raise reject("card.not_expected", "no card is expected now")
    if not state.deck_sets:
        raise reject("card.no_deck", "no deck is open for this round")
    if cmd.deck_set is not None and cmd.deck_set != state.deck_sets[-1]:
        raise reject("card.foreign_deck", f"card of deck set {cmd.deck_set}, "
                     f"not of the current {state.deck_sets[-1]}")
    if code not in deck:
        raise reject("card.not_in_deck", f"not a card of the {deck_name}")
    if state.seen.count(code) >= copies:
        raise reject("card.duplicate", "this card was already dealt from this deck"
                     if copies == 1 else f"all {copies} of this card were already dealt")
    return replace(state, seen=state.seen + (code,)), state.expecting()


def card_expected(state: Any) -> Event:
    """The event that tells the dealer (and the players) where the next card goes."""
    target = state.expecting()
    return Event("card_expected", {"to": target.kind, "position": target.position,
                                   "say": target.describe()})


def open_betting(state: Any, rules_json: Mapping[str, Any]) -> tuple[Any, list[Event]]:
    """A new round, its betting window open; its first event records the rules in force, so a
    replay years later uses the paytable and limits the round was played with."""
    return state, [Event("betting_opened", {"round_id": state.round_id,
                                            "closes_at": state.closes_at, "rules": rules_json})]


def void_round(state: Any, cmd: Void, phase: Any, refunds: Iterable[Placement]
               ) -> tuple[Any, list[Event]]:
    """The round is void: the placements not yet settled (`refunds`) come back."""
    return replace(state, phase=phase, void_reason=cmd.reason), [Event("round_voided", {
        "round_id": state.round_id, "reason": cmd.reason,
        "refunds": [{"placement_id": p.placement_id, "player": p.player, "amount": p.amount}
                    for p in refunds]})]


def fields_json(obj: Any) -> dict[str, Any]:
    """A dataclass of plain numbers (a table's limits) as the round's rules record it."""
    return {k: getattr(obj, k) for k in obj.__dataclass_fields__}


def odds_json(paytable: Any) -> dict[str, str]:
    """A paytable dataclass of Fractions as "X:Y" odds (the config's own notation)."""
    return {k: format_odds(getattr(paytable, k)) for k in paytable.__dataclass_fields__}


def odds_from_json(cls: type, data: Mapping[str, str]) -> Any:
    return cls(**{k: parse_odds(v) for k, v in data.items()})
