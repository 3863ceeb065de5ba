"""One hand of Sette e Mezzo Quota Fissa, as a pure state machine on `studio.table.seam`.

    step(state, command) -> (state, events)      or RoundError, with the state unchanged

One player against the bank on a private table. Reading of RULES.md and the regulation:
- The player's stake is one main bet on position 1 ("Carte" places it and deals).
- Player and bank get one face-up card each, the player first.
- The player is asked whenever a card may be drawn; when the rules force a draw (below the
  bank's card, or a lone matta) the only choice offered is "carta" (the regulation shows only
  the buttons the player can really press). At 7 1/2 there is no choice: the bank plays.
- A bust loses at once and the bank does not play. Otherwise the bank draws below 5.
- A decision left pending (the player gone for a week) is made by `automatic_hit`, the
  regulation's list: `DecisionTimeout` applies it, so a replay decides the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from studio.cards import Card, DeckKind, deck
from studio.games.base import card_expected, open_betting, open_deck, take_card, void_round
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_quota_fissa import rules as qf
from studio.odds import parse_odds
from studio.table.seam import (
    CancelBets,
    CardSeen,
    CloseBetting,
    Command,
    Decide,
    DecisionTimeout,
    Event,
    OpenDeck,
    Placement,
    RoundError,
    Target,
    Void,
)

FORTY = frozenset(c.code for c in deck(DeckKind.ITALIAN_40))
POSITION = 1
MAIN = "main"


class Phase(StrEnum):
    BETTING = "betting"
    DEAL = "deal"
    DECISIONS = "decisions"
    HIT = "hit"
    BANK = "bank"
    CLOSED = "closed"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class TableRules:
    main_min: int
    main_max: int
    win_odds: Fraction
    positions: int = 1


@dataclass(frozen=True, slots=True)
class RoundState:
    round_id: str
    rules: TableRules
    phase: Phase = Phase.BETTING
    closes_at: float = 0.0
    placements: tuple[Placement, ...] = ()
    deck_sets: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()  # the codes dealt from the open deck, in order
    player: str | None = None
    cards: tuple[Card, ...] = ()
    bank: tuple[Card, ...] = ()
    deciding: int | None = None
    turn: int = 0
    settled: bool = False
    void_reason: str | None = None

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.CLOSED, Phase.VOID)

    @property
    def betting(self) -> bool:
        return self.phase is Phase.BETTING

    @property
    def awaiting_decision(self) -> bool:
        return self.phase is Phase.DECISIONS

    @property
    def stake(self) -> int:
        return sum(p.amount for p in self.placements)

    def hand(self) -> Hand:
        return Hand.of(self.cards)

    def bank_hand(self) -> Hand:
        return Hand.of(self.bank)

    def expecting(self) -> Target | None:
        if self.phase is Phase.DEAL:
            return Target("position", POSITION) if not self.cards else Target("dealer")
        if self.phase is Phase.HIT:
            return Target("position", POSITION)
        if self.phase is Phase.BANK:
            return Target("dealer")
        return None

    def deciders(self) -> list[str]:
        return [self.player] if self.phase is Phase.DECISIONS and self.player else []

    def choices(self) -> list[str]:
        """The buttons the player may press now."""
        if self.phase is not Phase.DECISIONS:
            return []
        return ["carta"] if qf.must_hit(self.hand(), self.bank_hand()) else ["carta", "stai"]


def open_round(round_id: str, rules: TableRules, closes_at: float
               ) -> tuple[RoundState, list[Event]]:
    return open_betting(RoundState(round_id=round_id, rules=rules, closes_at=closes_at),
                        rules_to_json(rules))


def rules_to_json(rules: TableRules) -> dict[str, Any]:
    return {"main_min": rules.main_min, "main_max": rules.main_max,
            "win": f"{rules.win_odds.numerator}:{rules.win_odds.denominator}"}


def rules_from_json(data: Mapping[str, Any]) -> TableRules:
    return TableRules(int(data["main_min"]), int(data["main_max"]), parse_odds(data["win"]))


def step(state: RoundState, cmd: Command) -> tuple[RoundState, list[Event]]:
    if state.finished:
        raise RoundError("round.finished", f"round {state.round_id} is {state.phase.value}")
    return _HANDLERS[type(cmd)](state, cmd)


def automatic_hit(state: RoundState) -> bool:
    """The choice the system makes for a player who did not come back (the regulation)."""
    return qf.disconnected_player_hits(state.hand(), state.bank_hand())


# ------------------------------------------------------------------------------------- the book


class BetBook:
    """The one stake of a private hand: a main bet between the table's limits."""

    def __init__(self, rules: TableRules, closes_at: float) -> None:
        self.rules = rules
        self.closes_at = closes_at
        self.open = True
        self.placements: dict[str, Placement] = {}
        self.staked = 0

    def check_command(self, player: str, bets: Sequence[tuple[str, Any, Any, Any]], now: float,
                      pending: BetBook | None = None) -> list[Placement]:
        if not self.open or now >= self.closes_at:
            raise RoundError("bet.window_closed", "the hand is already dealt")
        if len(bets) != 1 or self.placements or (pending and pending.placements):
            raise RoundError("bet.one_stake", "a hand takes one stake")
        placement_id, position, kind, amount = bets[0]
        if type(amount) is not int or amount <= 0:
            raise RoundError("bet.bad_amount", "a bet is a positive whole number of cents")
        if position not in (None, POSITION):
            raise RoundError("bet.unknown_position", f"no position {position} at this table")
        if kind != MAIN:
            raise RoundError("bet.unknown_kind", f"no bet called {kind!r}")
        if amount < self.rules.main_min:
            raise RoundError("bet.below_min", f"the minimum is {self.rules.main_min} cents")
        if amount > self.rules.main_max:
            raise RoundError("bet.above_max", f"the maximum is {self.rules.main_max} cents")
        return [Placement(placement_id, player, POSITION, MAIN, amount)]

    def count(self, p: Placement) -> None:
        self.placements[p.placement_id] = p

    def add(self, p: Placement) -> Event:
        self.count(p)
        self.staked += p.amount
        return Event("bet_placed", {"placement_id": p.placement_id, "player": p.player,
                                    "position": p.position, "kind": p.kind, "amount": p.amount,
                                    "spot_total": p.amount})

    def window_events(self, now: float) -> list[Event]:
        return []  # one player's table: no news for others

    def of(self, player: str) -> list[Placement]:
        return [p for p in self.placements.values() if p.player == player]

    def check_cancel(self, cmd: CancelBets) -> list[Placement]:
        raise RoundError("bet.window_closed", "a stake is placed with the deal: nothing to cancel")

    def cancel(self, player: str) -> Event:  # pragma: no cover - check_cancel always refuses
        raise RoundError("bet.window_closed", "nothing to cancel")

    def close(self) -> tuple[Placement, ...]:
        self.open = False
        return tuple(self.placements.values())


# ------------------------------------------------------------------------------------- the step


def _close_betting(state: RoundState, cmd: CloseBetting) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.BETTING:
        raise RoundError("round.not_betting", "betting is not open")
    state = replace(state, placements=cmd.placements,
                    player=cmd.placements[0].player if cmd.placements else None)
    events = [Event("betting_closed", {"round_id": state.round_id, "bets": len(cmd.placements),
                                       "staked": state.stake})]
    if not cmd.placements:
        events.append(Event("round_closed", {"round_id": state.round_id, "no_bets": True}))
        return replace(state, phase=Phase.CLOSED), events
    new = replace(state, phase=Phase.DEAL)
    return new, events + [_expect(new)]


def _card(state: RoundState, cmd: CardSeen) -> tuple[RoundState, list[Event]]:
    state, target = take_card(state, cmd, FORTY, "40-card deck")
    code = cmd.card.code
    events = [Event("card_dealt", {"card": code, "source": cmd.source, "to": target.kind,
                                   "position": target.position})]
    if target.kind == "dealer":
        state = replace(state, bank=state.bank + (cmd.card,))
        if state.phase is Phase.DEAL:
            return _offer(state, events)
        return _bank_plays(state, events)
    state = replace(state, cards=state.cards + (cmd.card,))
    if state.phase is Phase.DEAL:
        return state, events + [_expect(state)]
    if state.hand().bust:
        return _settle(state, events)
    return _offer(state, events)


def _offer(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    """Ask the player, or hand over to the bank when no card may be drawn (7 1/2)."""
    hand, bank = state.hand(), state.bank_hand()
    if qf.must_hit(hand, bank) or qf.may_hit(hand, bank):
        state = replace(state, phase=Phase.DECISIONS, deciding=POSITION, turn=state.turn + 1)
        events.append(Event("decision_requested", {
            "position": POSITION, "players": [state.player], "turn": state.turn,
            "total": hand.total, "choices": state.choices()}))
        return state, events
    return _bank_plays(replace(state, phase=Phase.BANK, deciding=None), events)


def _bank_plays(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    if qf.bank_must_draw(state.bank_hand()):
        state = replace(state, phase=Phase.BANK)
        return state, events + [_expect(state)]
    return _settle(state, events)


def _settle(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    hand, bank = state.hand(), state.bank_hand()
    result = qf.settle(hand, bank)
    stake = state.stake
    events.append(Event("hand_settled", {
        "player": state.player, "position": POSITION, "kind": MAIN,
        "cards": [c.code for c in state.cards], "total": hand.total,
        "bank": [c.code for c in state.bank], "bank_total": bank.total,
        "stake": stake, "result": result.value,
        "returned": qf.returned(stake, result, state.rules.win_odds)}))
    events.append(Event("round_closed", {
        "round_id": state.round_id, "dealer": [c.code for c in state.bank],
        "dealer_total": bank.total, "deck_sets": list(state.deck_sets)}))
    return replace(state, phase=Phase.CLOSED, deciding=None, settled=True), events


def _expect(state: RoundState) -> Event:
    return card_expected(state)


def _resolve(state: RoundState, hit: bool, events: list[Event]
             ) -> tuple[RoundState, list[Event]]:
    if hit:
        state = replace(state, phase=Phase.HIT)
        return state, events + [_expect(state)]
    return _bank_plays(replace(state, phase=Phase.BANK, deciding=None), events)


def _decide(state: RoundState, cmd: Decide) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.DECISIONS or cmd.position != POSITION:
        raise RoundError("decision.not_your_turn", "no decision is asked now")
    if cmd.player != state.player:
        raise RoundError("decision.not_your_turn", "this is not your hand")
    hit = bool(cmd.choice)
    if not hit and "stai" not in state.choices():
        raise RoundError("decision.must_hit",
                         "below the bank's card, or with the matta alone, you must draw")
    events = [Event("decision_made", {"player": cmd.player, "position": POSITION,
                                      "choice": "carta" if hit else "stai", "turn": state.turn})]
    return _resolve(state, hit, events)


def _decision_timeout(state: RoundState, cmd: DecisionTimeout) -> tuple[RoundState, list[Event]]:
    """The player did not come back in time: the system chooses as the regulation lists."""
    if state.phase is not Phase.DECISIONS or cmd.turn != state.turn:
        raise RoundError("decision.stale_timer", "that decision turn is over")
    hit = automatic_hit(state)
    events = [Event("decision_timed_out", {"position": POSITION, "players": [state.player],
                                           "turn": state.turn,
                                           "choice": "carta" if hit else "stai"})]
    return _resolve(state, hit, events)


def _void(state: RoundState, cmd: Void) -> tuple[RoundState, list[Event]]:
    return void_round(state, cmd, Phase.VOID, () if state.settled else state.placements)


_HANDLERS: dict[type, Any] = {
    CloseBetting: _close_betting, OpenDeck: lambda s, c: open_deck(s, c, len(FORTY)),
    CardSeen: _card, Decide: _decide,
    DecisionTimeout: _decision_timeout, Void: _void,
}
