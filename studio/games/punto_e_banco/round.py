"""One hand (coup) of Punto e Banco, as a pure state machine on `studio.table.seam`.

    step(state, command) -> (state, events)      or RoundError, with the state unchanged

The bets are on the table before a card is dealt (Punto, Banco, Pari, the two pairs, all in
one hand if the player likes). Cards come in the order the rules say (`rules.next_card`: 1 and
3 to Punto, 2 and 4 to Banco, then the third cards), so the dealer is always told which side
gets the next card and whether a third card is due. No decision is ever asked of a player.

At a live table the cards come from a shoe of `decks` decks that lasts many hands: the first
round dealt from a new shoe (`OpenDeck(fresh=True)`) burns `burn_cards` cards first, face down
and never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from studio.cards import Card, DeckKind, deck
from studio.games.base import (
    burn,
    card_expected,
    fields_json,
    odds_from_json,
    odds_json,
    open_betting,
    open_shoe_deck,
    take_card,
    void_round,
)
from studio.games.bet_book import SpotBook
from studio.games.bet_limits import check_round_total, check_spot
from studio.games.punto_e_banco import rules
from studio.games.punto_e_banco.rules import Bet, Paytable
from studio.table.seam import (
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

FIFTY_TWO = frozenset(c.code for c in deck(DeckKind.FRENCH_52))
POSITION = 1
MAIN_BETS = frozenset({Bet.PUNTO, Bet.BANCO})
_BETS = {b.value: b for b in Bet}


class Phase(StrEnum):
    BETTING = "betting"
    DEAL = "deal"
    CLOSED = "closed"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class Limits:
    main_min: int  # Punto and Banco
    main_max: int
    side_min: int  # Pari and the pairs
    side_max: int
    round_max_total: int


@dataclass(frozen=True, slots=True)
class TableRules:
    limits: Limits
    paytable: Paytable
    positions: int = 1
    decks: int = 1  # decks in a deck set: each card may come this many times
    burn_cards: int = 0  # burnt from a new shoe before its first hand


@dataclass(frozen=True, slots=True)
class RoundState:
    round_id: str
    rules: TableRules
    phase: Phase = Phase.BETTING
    closes_at: float = 0.0
    placements: tuple[Placement, ...] = ()
    deck_sets: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()  # the codes dealt from the open deck, in order
    punto: tuple[Card, ...] = ()
    banco: tuple[Card, ...] = ()
    burn_due: int = 0  # cards still to burn from the new shoe
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
        return False

    def expecting(self) -> Target | None:
        if self.phase is not Phase.DEAL:
            return None
        if self.burn_due:
            return Target("burn")
        side = rules.next_card(self.punto, self.banco)
        if side is None:
            return None
        third = len(self.punto if side == "punto" else self.banco) == 2
        return Target(side, note="third card" if third else None)

    def deciders(self) -> list[str]:
        return []


def open_round(round_id: str, table: TableRules, closes_at: float
               ) -> tuple[RoundState, list[Event]]:
    return open_betting(RoundState(round_id=round_id, rules=table, closes_at=closes_at),
                        rules_to_json(table))


def rules_to_json(table: TableRules) -> dict[str, Any]:
    return {"limits": fields_json(table.limits), "paytable": odds_json(table.paytable),
            "decks": table.decks, "burn_cards": table.burn_cards}


def rules_from_json(data: Mapping[str, Any]) -> TableRules:
    return TableRules(Limits(**data["limits"]), odds_from_json(Paytable, data["paytable"]),
                      decks=int(data.get("decks", 1)), burn_cards=int(data.get("burn_cards", 0)))


def step(state: RoundState, cmd: Command) -> tuple[RoundState, list[Event]]:
    if state.finished:
        raise RoundError("round.finished", f"round {state.round_id} is {state.phase.value}")
    handler = _HANDLERS.get(type(cmd))
    if handler is None:
        raise RoundError("decision.not_your_turn", "Punto e Banco asks no decision")
    return handler(state, cmd)


# ------------------------------------------------------------------------------------- the book


class BetBook(SpotBook):
    """The bets of one hand: Punto and Banco between the main limits, Pari and the pairs
    between the side limits, all of a player's stakes within the round's maximum."""

    def check_command(self, player: str, bets: Sequence[tuple[str, Any, Any, Any]], now: float,
                      pending: BetBook | None = None) -> list[Placement]:
        if not self.open or now >= self.closes_at:
            raise RoundError("bet.window_closed", "Stop alle puntate: bets are closed")
        lim = self.rules.limits
        total = self._player.get(player, 0) + (pending._player.get(player, 0) if pending else 0)
        local: dict[str, int] = {}
        out: list[Placement] = []
        for placement_id, position, kind_name, amount in bets:
            if type(amount) is not int or amount <= 0:
                raise RoundError("bet.bad_amount", "a bet is a positive whole number of cents")
            if position not in (None, POSITION):
                raise RoundError("bet.unknown_position", f"no position {position} at this table")
            kind = _BETS.get(kind_name) if isinstance(kind_name, str) else None
            if kind is None:
                raise RoundError("bet.unknown_kind", f"no bet called {kind_name!r}")
            if placement_id in self.placements or (pending and placement_id in
                                                   pending.placements):
                raise RoundError("bet.duplicate_id", "this bet was already placed")
            key = (player, POSITION, kind)
            spot = (self._spot.get(key, 0) + local.get(kind, 0) + amount
                    + (pending._spot.get(key, 0) if pending else 0))
            low, high = ((lim.main_min, lim.main_max) if kind in MAIN_BETS
                         else (lim.side_min, lim.side_max))
            check_spot(spot, low, high, kind.value)
            total += amount
            check_round_total(total, lim.round_max_total, "hand")
            local[kind] = local.get(kind, 0) + amount
            out.append(Placement(placement_id, player, POSITION, kind, amount))
        return out


# ------------------------------------------------------------------------------------- the step


def _close_betting(state: RoundState, cmd: CloseBetting) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.BETTING:
        raise RoundError("round.not_betting", "betting is not open")
    state = replace(state, placements=cmd.placements)
    events = [Event("betting_closed", {"round_id": state.round_id, "bets": len(cmd.placements),
                                       "staked": sum(p.amount for p in cmd.placements)})]
    if not cmd.placements:
        events.append(Event("round_closed", {"round_id": state.round_id, "no_bets": True}))
        return replace(state, phase=Phase.CLOSED), events
    new = replace(state, phase=Phase.DEAL)
    return new, events + [card_expected(new)]


def _open_deck(state: RoundState, cmd: OpenDeck) -> tuple[RoundState, list[Event]]:
    return open_shoe_deck(state, cmd, len(FIFTY_TWO) * state.rules.decks,
                          state.rules.burn_cards, state.phase is Phase.DEAL)


def _card(state: RoundState, cmd: CardSeen) -> tuple[RoundState, list[Event]]:
    decks = state.rules.decks
    state, target = take_card(state, cmd, FIFTY_TWO,
                              "52-card deck" if decks == 1 else f"{decks}-deck shoe", decks)
    if target.kind == "burn":
        return burn(state, cmd)
    events = [Event("card_dealt", {"card": cmd.card.code, "source": cmd.source,
                                   "to": target.kind, "position": None})]
    if target.kind == "punto":
        state = replace(state, punto=state.punto + (cmd.card,))
    else:
        state = replace(state, banco=state.banco + (cmd.card,))
    if state.expecting() is not None:
        return state, events + [card_expected(state)]
    return _settle(state, events)


def _settle(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    """The hand is complete: every player's bets, one event per player."""
    pt = state.rules.paytable
    p_total, b_total = rules.total(state.punto), rules.total(state.banco)
    result = rules.outcome(state.punto, state.banco)
    by_player: dict[str, dict[str, int]] = {}
    for p in state.placements:
        spots = by_player.setdefault(p.player, {})
        spots[p.kind] = spots.get(p.kind, 0) + p.amount
    for player, spots in by_player.items():
        bets = []
        for kind, stake in spots.items():
            s = rules.settle(Bet(kind), stake, state.punto, state.banco, pt)
            bets.append({"kind": str(kind), "stake": stake, "result": s.result,
                         "returned": s.returned, "commission": s.commission})
        events.append(Event("player_settled", {
            "player": player, "position": POSITION, "outcome": result.value, "bets": bets}))
    events.append(Event("round_closed", {
        "round_id": state.round_id, "outcome": result.value,
        "punto": [c.code for c in state.punto], "banco": [c.code for c in state.banco],
        "punto_total": p_total, "banco_total": b_total,
        "punto_pair": rules.is_pair(state.punto), "banco_pair": rules.is_pair(state.banco),
        "natural": rules.is_natural(state.punto[:2]) or rules.is_natural(state.banco[:2]),
        "deck_sets": list(state.deck_sets)}))
    return replace(state, phase=Phase.CLOSED, settled=True), events


def _void(state: RoundState, cmd: Void) -> tuple[RoundState, list[Event]]:
    return void_round(state, cmd, Phase.VOID, () if state.settled else state.placements)


def _no_decision(state: RoundState, cmd: Decide | DecisionTimeout) -> tuple[RoundState,
                                                                            list[Event]]:
    raise RoundError("decision.not_your_turn", "Punto e Banco asks no decision")


_HANDLERS: dict[type, Any] = {
    CloseBetting: _close_betting, CardSeen: _card, Void: _void,
    Decide: _no_decision, DecisionTimeout: _no_decision,
    OpenDeck: _open_deck,
}
