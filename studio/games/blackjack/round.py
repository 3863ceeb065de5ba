"""One game of Blackjack as a pure state machine on `studio.table.seam`: the regulation's
virtual table (a private table: one player, up to five positions and Dealer Pair) and the
shared live table (`TableRules.shared`: seven seats each taken by one player, and any number
of players betting behind a seat, following its player's decisions).

    step(state, command) -> (state, events)      or RoundError, with the state unchanged

Every rule is `rules.py`'s (`new_game`, `next_card`, `deal`, `decide`, `settle`); this module
turns them into the seam's vocabulary:

- The bets (main, Player Pair and 21+3 per position, Dealer Pair) come with the deal; the
  initial deal runs from the right, the dealer's second card face down: its card is logged
  privately (`hole_card`) and players are told only that a card lies face down. It is turned
  over (`hole_card_revealed`) when every position is done, never before (no peek).
- With the dealer's ace up, each position is asked for insurance first (INSURE or
  NO_INSURANCE), then each hand is played from the right (STAY, HIT, DOUBLE, SPLIT).
- A decision that puts more money on the table (double, split, insurance) adds a placement to
  the state; the table reserves it before it commits the decision, or refuses the decision.
- A decision not made in time (`DecisionTimeout`, the session's rules) is NO_INSURANCE, then
  STAY: the regulation's defaults.
- Bet behind (the live table): a bet behind seat N rides on that seat's hands. Its player
  follows the seated player's double, split and insurance where the player's credit allows
  (the table reserves the stake, or names the player in `Decide.unfunded`); otherwise the bet
  stays as it was: not doubled, on the first hand of a split, not insured. We follow rather
  than ask each of thousands of players: the seat's decision is the product (the regulars bet
  behind a seat to ride its player's play), and asking would hold the table for the slowest
  of them. A bet behind a seat nobody took is refunded when betting closes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from studio.cards import DeckKind, deck
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
from studio.games.bet_limits import check_spot
from studio.games.blackjack import rules
from studio.games.blackjack.behind import (
    Behind,
    refund_orphans,
    seats_and_behind,
    settle_behind,
    sums_of,
)
from studio.games.blackjack.behind import follow as follow_seat
from studio.games.blackjack.rules import Action, BlackjackError, Paytable
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
DEALER_SPOT = 0  # Dealer Pair's position: it is the player's, not a position's
MAIN, SPLIT, INSURANCE = "main", "split", "insurance"  # a position's money after the deal
PLAYER_PAIR, TWENTY_ONE_THREE, DEALER_PAIR = "player_pair", "twenty_one_three", "dealer_pair"
SIDE_BETS = (PLAYER_PAIR, TWENTY_ONE_THREE)
HAND_KINDS = (MAIN, SPLIT)  # the spot of hand 0 and of the hand a split makes
NO_CAP = 10**15  # the live table has no cap on a game: each seat's and player's limits apply
_SETTLED_KIND = {rules.Bet.INSURANCE: INSURANCE, rules.Bet.PLAYER_PAIR: PLAYER_PAIR,
                 rules.Bet.TWENTY_ONE_THREE: TWENTY_ONE_THREE,
                 rules.Bet.DEALER_PAIR: DEALER_PAIR}


class Phase(StrEnum):
    BETTING = "betting"
    DEAL = "deal"
    INSURANCE = "insurance"
    DECISIONS = "decisions"
    DEALER = "dealer"
    CLOSED = "closed"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class Limits:
    main_min: int
    main_max: int
    side_min: int  # Player Pair, 21+3 and Dealer Pair
    side_max: int
    round_max_total: int  # the regulation's cap on a game's bets (EUR 1,000)


@dataclass(frozen=True, slots=True)
class TableRules:
    limits: Limits
    paytable: Paytable
    positions: int = rules.POSITIONS
    decks: int = rules.DECKS
    shared: bool = False  # the live table: seats, bet behind, a shoe
    burn_cards: int = 0  # burnt face down from a new shoe (the live table)


@dataclass(frozen=True, slots=True)
class RoundState:
    round_id: str
    rules: TableRules
    phase: Phase = Phase.BETTING
    closes_at: float = 0.0
    placements: tuple[Placement, ...] = ()
    deck_sets: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()
    game: rules.Game | None = None
    player: str | None = None  # the virtual table's one player
    owners: Mapping[int, str] = field(default_factory=dict)  # position -> its player
    behind: Mapping[int, Mapping[str, Behind]] = field(default_factory=dict)
    behind_sums: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # (bets, cents)
    refunded: frozenset[str] = frozenset()  # placements refunded at the close (no seat)
    burn_due: int = 0
    hole_shown: bool = False
    turn: int = 0
    settled: bool = False
    void_reason: str | None = None

    def owner(self, number: int | None) -> str | None:
        return self.owners.get(number) if number is not None else None

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.CLOSED, Phase.VOID)

    @property
    def betting(self) -> bool:
        return self.phase is Phase.BETTING

    @property
    def awaiting_decision(self) -> bool:
        return self.phase in (Phase.INSURANCE, Phase.DECISIONS) and self._waiting_card() is None

    @property
    def deciding(self) -> int | None:
        """The position asked now: the first still to answer insurance, or the hand in turn."""
        if not self.awaiting_decision or self.game is None:
            return None
        if self.phase is Phase.INSURANCE:
            return next(p.number for p in self.game.positions if p.insurance is None)
        turn = self.game.turn()
        return turn[0] if turn else None

    @property
    def deciding_hand(self) -> int | None:
        turn = self.game.turn() if self.game is not None and self.phase is Phase.DECISIONS \
            else None
        return turn[1] if turn else None

    def _waiting_card(self) -> rules.Recipient | None:
        if self.burn_due and self.phase is Phase.DEAL:
            return None
        if self.game is None or self.phase not in (Phase.DEAL, Phase.DECISIONS, Phase.DEALER):
            return None
        return rules.next_card(self.game)

    def expecting(self) -> Target | None:
        if self.burn_due and self.phase is Phase.DEAL:
            return Target("burn")
        to = self._waiting_card()
        if to is None:
            return None
        if to.position is None:
            return Target("dealer", note="hole card, face down" if len(self.game.dealer) == 1
                          else None)
        split = self.game.position(to.position).split
        return Target("position", to.position, note=f"hand {to.hand + 1}" if split else None)

    def deciders(self) -> list[str]:
        owner = self.owner(self.deciding)
        return [owner] if owner else []

    def choices(self) -> list[str]:
        """The buttons to show now (the others stay hidden)."""
        number = self.deciding
        if number is None:
            return []
        return [a.value for a in rules.legal_actions(self.game, number, None, self._cap())
                if (a in rules.INSURANCE_ACTIONS) == (self.phase is Phase.INSURANCE)]

    def _cap(self) -> int:
        return _cap(self.rules)


def _cap(table: TableRules) -> int:
    """The regulation's cap on a game's bets, doubles and splits included: the virtual
    table's (one player's game); the live table limits each player's bets instead."""
    return NO_CAP if table.shared else min(rules.HAND_CAP_CENTS, table.limits.round_max_total)


def open_round(round_id: str, table: TableRules, closes_at: float
               ) -> tuple[RoundState, list[Event]]:
    return open_betting(RoundState(round_id=round_id, rules=table, closes_at=closes_at),
                        rules_to_json(table))


def rules_to_json(table: TableRules) -> dict[str, Any]:
    out = {"limits": fields_json(table.limits), "paytable": odds_json(table.paytable),
           "positions": table.positions, "decks": table.decks}
    if table.shared:
        out |= {"shared": True, "burn_cards": table.burn_cards}
    return out


def rules_from_json(data: Mapping[str, Any]) -> TableRules:
    return TableRules(Limits(**data["limits"]), odds_from_json(Paytable, data["paytable"]),
                      int(data["positions"]), int(data["decks"]), bool(data.get("shared")),
                      int(data.get("burn_cards", 0)))


def step(state: RoundState, cmd: Command) -> tuple[RoundState, list[Event]]:
    if state.finished:
        raise RoundError("round.finished", f"round {state.round_id} is {state.phase.value}")
    handler = _HANDLERS.get(type(cmd))
    if handler is None:
        raise RoundError("round.bad_command", f"{type(cmd).__name__} does not apply")
    return handler(state, cmd)


# ------------------------------------------------------------------------------------- the book


class BetBook(SpotBook):
    """The bets of a game: main, Player Pair and 21+3 on positions 1..5, Dealer Pair on the
    player (position 0); side bets only beside a main bet; every stake within the table's
    limits; the whole game within the regulation's EUR 1,000."""

    def check_command(self, player: str, bets: Sequence[tuple[str, Any, Any, Any]], now: float,
                      pending: BetBook | None = None) -> list[Placement]:
        if not self.open or now >= self.closes_at:
            raise RoundError("bet.window_closed", "the cards are already dealt")
        lim = self.rules.limits
        out: list[Placement] = []
        spots: dict[tuple[int, str], int] = {}
        for placement_id, position, kind, amount in bets:
            if type(amount) is not int or amount <= 0:
                raise RoundError("bet.bad_amount", "a bet is a positive whole number of cents")
            if kind == DEALER_PAIR:
                position = DEALER_SPOT
            elif kind not in (MAIN, *SIDE_BETS):
                raise RoundError("bet.unknown_kind", f"no bet called {kind!r}")
            elif type(position) is not int or not 1 <= position <= self.rules.positions:
                raise RoundError("bet.unknown_position", f"no position {position} at this table")
            if placement_id in self.placements:
                raise RoundError("bet.duplicate_id", "this bet was already placed")
            spots[(position, kind)] = spots.get((position, kind), 0) + amount
            out.append(Placement(placement_id, player, position, kind, amount))
        for (position, kind), stake in spots.items():
            low, high = ((lim.main_min, lim.main_max) if kind == MAIN
                         else (lim.side_min, lim.side_max))
            check_spot(stake, low, high, kind)
        _new_game(spots, _cap(self.rules), self.rules.positions)  # side bets, the cap
        return out


def _new_game(spots: Mapping[tuple[int, str], int], cap: int, seats: int) -> rules.Game:
    numbers = sorted({n for n, _ in spots if n != DEALER_SPOT})
    try:
        return rules.new_game(
            [rules.new_position(n, spots.get((n, MAIN), 0), spots.get((n, PLAYER_PAIR), 0),
                                spots.get((n, TWENTY_ONE_THREE), 0), seats) for n in numbers],
            spots.get((DEALER_SPOT, DEALER_PAIR), 0), cap)
    except BlackjackError as e:
        raise RoundError(_BET_CODES.get(e.code, e.code), str(e) or e.code) from None


_BET_CODES = {"blackjack.side_bet_without_main": "bet.side_without_main",
              "blackjack.no_main_bet": "bet.side_without_main",
              "blackjack.hand_cap": "bet.hand_cap"}


# ------------------------------------------------------------------------------------- the step


def _close_betting(state: RoundState, cmd: CloseBetting) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.BETTING:
        raise RoundError("round.not_betting", "betting is not open")
    events = [Event("betting_closed", {"round_id": state.round_id, "bets": len(cmd.placements),
                                       "staked": sum(p.amount for p in cmd.placements)})]
    state = replace(state, placements=cmd.placements)
    if state.rules.shared:  # seats, and bets behind them; behind an empty seat: refunded
        spots, owners, behind, orphans = seats_and_behind(cmd.placements)
        events += refund_orphans(orphans)
        state = replace(state, owners=owners, behind=behind,
                        behind_sums={n: sums_of(seat) for n, seat in behind.items()},
                        refunded=frozenset(p.placement_id for p in orphans))
    else:  # the virtual table: one player, every position theirs
        spots = {}
        for p in cmd.placements:
            spots[(p.position, p.kind)] = spots.get((p.position, p.kind), 0) + p.amount
        player = cmd.placements[0].player if cmd.placements else None
        owners = {n: player for n, _ in spots}
        state = replace(state, player=player, owners=owners)
    if not owners:
        events.append(Event("round_closed", {"round_id": state.round_id, "no_bets": True}))
        return replace(state, phase=Phase.CLOSED), events
    game = _new_game(spots, _cap(state.rules), state.rules.positions)
    new = replace(state, game=game, phase=Phase.DEAL)
    return new, events + [card_expected(new)]


def _card(state: RoundState, cmd: CardSeen) -> tuple[RoundState, list[Event]]:
    decks = state.rules.decks
    state, target = take_card(state, cmd, FIFTY_TWO, f"{decks}-deck shoe", decks)
    if target.kind == "burn":
        return burn(state, cmd)
    to = rules.next_card(state.game)
    game = rules.deal(state.game, cmd.card)
    state = replace(state, game=game)
    if to.position is None and len(game.dealer) == 2:  # the hole card: face down, no peek
        events = [Event("hole_card", {"card": cmd.card.code, "source": cmd.source},
                        private=True),
                  Event("hole_card_dealt", {"source": cmd.source, "to": "dealer"})]
    else:
        events = [Event("card_dealt", {"card": cmd.card.code, "source": cmd.source,
                                       "to": target.kind, "position": to.position,
                                       "hand": to.hand})]
    return _advance(state, events)


def _advance(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    """Whatever the game waits for next: a card, a decision, the hole card turned over, the
    dealer's cards, the settlement."""
    game = state.game
    if not game.initial_deal_done:
        return state, events + [card_expected(state)]
    if game.insurance_open:
        return _ask(replace(state, phase=Phase.INSURANCE), events)
    if game.turn() is not None:
        state = replace(state, phase=Phase.DECISIONS)
        if rules.next_card(game) is not None:  # a hit, a double or a split hand's card
            return state, events + [card_expected(state)]
        return _ask(state, events)
    if not state.hole_shown:
        state = replace(state, hole_shown=True)
        events.append(Event("hole_card_revealed", {"card": game.dealer[1].code,
                                                   "dealer": [c.code for c in game.dealer]}))
    if rules.next_card(game) is not None:
        state = replace(state, phase=Phase.DEALER)
        return state, events + [card_expected(state)]
    return _settle(state, events)


def _ask(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    state = replace(state, turn=state.turn + 1)
    events.append(Event("decision_requested", {
        "position": state.deciding, "hand": state.deciding_hand, "players": state.deciders(),
        "turn": state.turn, "choices": state.choices(),
        "insurance": state.phase is Phase.INSURANCE}))
    return state, events


def _decide(state: RoundState, cmd: Decide) -> tuple[RoundState, list[Event]]:
    if not state.awaiting_decision:
        raise RoundError("decision.not_your_turn", "no decision is asked now")
    if cmd.player != state.owner(cmd.position):
        raise RoundError("decision.not_your_turn", "this is not your seat"
                         if state.rules.shared else "this is not your game")
    action = Action(cmd.choice)
    if state.phase is Phase.INSURANCE and action not in rules.INSURANCE_ACTIONS:
        raise RoundError("blackjack.insurance_pending", "answer insurance first")
    if state.phase is Phase.DECISIONS and action in rules.INSURANCE_ACTIONS:
        code = rules.refusal(state.game, cmd.position, action) or "blackjack.insurance_closed"
        raise RoundError(code, "insurance is offered only when the dealer shows an ace, "
                               "before play")
    made = {"player": cmd.player, "position": cmd.position, "hand": state.deciding_hand,
            "choice": action.value, "turn": state.turn}
    if cmd.unfunded:
        made["unfunded"] = sorted(cmd.unfunded)
    return _apply(state, cmd.position, action, [Event("decision_made", made)], cmd.unfunded)


def _decision_timeout(state: RoundState, cmd: DecisionTimeout) -> tuple[RoundState, list[Event]]:
    """No answer in time (or the seated player gone): the regulation's defaults, no insurance
    and stand."""
    if not state.awaiting_decision or cmd.turn != state.turn:
        raise RoundError("decision.stale_timer", "that decision turn is over")
    action = Action.NO_INSURANCE if state.phase is Phase.INSURANCE else Action.STAY
    position = state.deciding
    return _apply(state, position, action, [Event("decision_timed_out", {
        "position": position, "players": state.deciders(), "turn": state.turn,
        "choice": action.value})])


def _apply(state: RoundState, number: int, action: Action, events: list[Event],
           unfunded: frozenset[str] = frozenset()) -> tuple[RoundState, list[Event]]:
    before = state.game
    try:
        game = rules.decide(before, number, action, None, state._cap())
    except BlackjackError as e:
        raise RoundError(e.code, str(e)) from None
    added = _stake_added(state, before, game, number, action)
    if number in state.behind:  # the bets behind the seat follow its player
        turn = before.turn()
        seat, followed = follow_seat(state.behind[number], number, action,
                                     turn[1] if turn else 0, unfunded)
        state = replace(state, behind={**state.behind, number: seat},
                        behind_sums={**state.behind_sums, number: sums_of(seat)})
        added += tuple(followed)
    state = replace(state, game=game, placements=state.placements + added)
    return _advance(state, events)


def _stake_added(state: RoundState, before: rules.Game, after: rules.Game, number: int,
                 action: Action) -> tuple[Placement, ...]:
    """The money a decision puts on the table, as placements the table reserves: the double
    on the hand's spot, the split's new hand, the insurance."""
    pos_before, pos = before.position(number), after.position(number)
    player = state.owner(number)
    if action is Action.DOUBLE:
        i = before.turn()[1]
        kind, amount, what = HAND_KINDS[i], pos_before.hands[i].stake, f"double{i}"
    elif action is Action.SPLIT:
        kind, amount, what = SPLIT, pos.bet, "split"
    elif action is Action.INSURE and pos.insurance:
        kind, amount, what = INSURANCE, pos.insurance, "insurance"
    else:
        return ()
    return (Placement(f"{player}/{number}/{what}", player, number, kind, amount),)


def _settle(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    """Every bet of the game: one `game_settled` per player (a seat's, and the bets behind)."""
    game = state.game
    dealer = rules.score(game.dealer)
    by_player: dict[str, list[dict[str, Any]]] = {}
    for s in rules.settle(game, state.rules.paytable):
        kind = HAND_KINDS[s.hand] if s.bet is rules.Bet.MAIN else _SETTLED_KIND[s.bet]
        who = state.player if s.position is None else state.owner(s.position)
        by_player.setdefault(who, []).append({
            "position": DEALER_SPOT if s.position is None else s.position, "kind": kind,
            "stake": s.stake, "returned": s.returned, "result": s.result})
    for who, bet in settle_behind(game, state.behind, state.rules.paytable):
        by_player.setdefault(who, []).append(bet)
    events.extend(Event("game_settled", {"player": who, "bets": bets})
                  for who, bets in by_player.items())
    events.append(Event("round_closed", {
        "round_id": state.round_id, "dealer": [c.code for c in game.dealer],
        "dealer_total": dealer.total, "dealer_blackjack": dealer.blackjack,
        "positions": {str(p.number): [{"cards": [c.code for c in h.cards],
                                       "total": h.score.total, "stake": h.stake}
                                      for h in p.hands] for p in game.positions}}))
    return replace(state, phase=Phase.CLOSED, settled=True), events


def _void(state: RoundState, cmd: Void) -> tuple[RoundState, list[Event]]:
    return void_round(state, cmd, Phase.VOID, () if state.settled else [
        p for p in state.placements if p.placement_id not in state.refunded])


def _open_deck(state: RoundState, cmd: OpenDeck) -> tuple[RoundState, list[Event]]:
    return open_shoe_deck(state, cmd, len(FIFTY_TWO) * state.rules.decks,
                          state.rules.burn_cards, state.phase is Phase.DEAL)


_HANDLERS: dict[type, Any] = {
    CloseBetting: _close_betting, OpenDeck: _open_deck, CardSeen: _card, Decide: _decide,
    DecisionTimeout: _decision_timeout, Void: _void,
}
