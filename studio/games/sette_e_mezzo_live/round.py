"""One round of a Sette e Mezzo Live table, as a pure state machine (on `studio.table.seam`).

    step(state, command) -> (state, events)      or RoundError, with the state unchanged

No I/O, no clock (times come in the commands), no randomness. The table actor (the shell) feeds
it bets, cards, decisions and timer expiries, stores the events with the money they move, and
publishes them. Because it is pure, the audit replays a round by feeding the logged inputs again.

Reading of RULES.md where it is silent, and why:
- Automatic draws (step 6) are dealt for every position in order, then decisions (step 7)
  position by position, as the steps are numbered.
- A hand that meets the automatic win is paid at once and not offered a choice; a bust loses at
  once. Partita Perfetta settles at the deal. Money for these moves at once.
- A void (malfunction) refunds every bet not yet settled; bets already settled on verified cards
  (Partita Perfetta at the deal, automatic wins, busts) stand, so no balance is ever taken back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from studio.cards import Card, DeckKind, deck
from studio.games.base import card_expected, open_betting, open_deck, take_card, void_round
from studio.games.bet_book import SpotBook
from studio.games.bet_limits import check_round_total, check_spot
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_live import rules as live
from studio.table.seam import (
    CancelBets,
    CardSeen,
    CloseBetting,
    Command,
    Decide,
    DecisionTimeout,
    Event,
    OpenDeck,
    PlaceBet,
    Placement,
    RoundError,
    Target,
    Void,
)

__all__ = ["CancelBets", "CardSeen", "CloseBetting", "Command", "Decide", "DecisionTimeout",
           "Event", "OpenDeck", "PlaceBet", "Placement", "RoundError", "Target", "Void"]

FORTY = frozenset(c.code for c in deck(DeckKind.ITALIAN_40))


class Phase(StrEnum):
    BETTING = "betting"
    BURN = "burn"
    DEAL = "deal"
    DRAWS = "automatic_draws"
    DECISIONS = "decisions"
    HIT = "hit"
    DEALER = "dealer"
    CLOSED = "closed"
    VOID = "void"


class BetKind(StrEnum):
    MAIN = "main"
    PARTITA_PERFETTA = "partita_perfetta"
    MANO_DI_POKER = "mano_di_poker"


_KINDS: dict[str, BetKind] = {k.value: k for k in BetKind}  # no enum machinery per bet


@dataclass(frozen=True, slots=True)
class Limits:
    main_min: int
    main_max: int
    side_min: int
    side_max: int
    round_max_total: int


@dataclass(frozen=True, slots=True)
class TableRules:
    positions: int
    burn_card: bool
    limits: Limits
    paytable: live.LivePaytable


# ---------------------------------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class RoundState:
    round_id: str
    rules: TableRules
    phase: Phase = Phase.BETTING
    closes_at: float = 0.0
    placements: tuple[Placement, ...] = ()
    deck_sets: tuple[str, ...] = ()
    seen: tuple[str, ...] = ()  # the codes dealt from the open deck, in order
    burn: Card | None = None
    positions: Mapping[int, live.SharedPosition] = field(default_factory=dict)
    deal_index: int = 0
    dealer: tuple[Card, ...] = ()
    deciding: int | None = None
    turn: int = 0  # decision turn counter, so a stale timer is recognised
    answers: Mapping[str, bool] = field(default_factory=dict)
    settled: frozenset[tuple[str, int, str]] = frozenset()  # (player, position, kind)
    void_reason: str | None = None
    stakes: Mapping[tuple[str, int, BetKind], int] = field(default_factory=dict)
    seats: Mapping[int, tuple[str, ...]] = field(default_factory=dict)  # players per position

    # ------------------------------------------------------------------ views

    def stake(self, player: str, position: int, kind: BetKind) -> int:
        return self.stakes.get((player, position, kind), 0)

    def players_on(self, position: int) -> list[str]:
        return list(self.seats.get(position, ()))

    def dealt_positions(self) -> list[int]:
        return sorted(self.seats)

    def dealer_first(self) -> Hand:
        return Hand.of_dealt(self.dealer[:1])

    def expecting(self) -> Target | None:
        """Who receives the next card; None when no card is due."""
        if self.phase is Phase.BURN:
            return Target("burn")
        if self.phase is Phase.DEAL:
            order = live.deal_order(self.dealt_positions())
            pos = order[self.deal_index]
            return Target("dealer") if pos is None else Target("position", pos)
        if self.phase in (Phase.DRAWS, Phase.HIT):
            return Target("position", self.deciding)
        if self.phase is Phase.DEALER:
            return Target("dealer")
        return None

    def deciders(self) -> list[str]:
        if self.phase is not Phase.DECISIONS or self.deciding is None:
            return []
        return self.positions[self.deciding].deciders(self.dealer_first())

    def is_decider(self, player: str) -> bool:
        """`player in deciders()`, in the time of one seat."""
        if self.phase is not Phase.DECISIONS or self.deciding is None:
            return False
        return self.positions[self.deciding].decides(player, self.dealer_first())

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.CLOSED, Phase.VOID)

    @property
    def betting(self) -> bool:
        return self.phase is Phase.BETTING

    @property
    def awaiting_decision(self) -> bool:
        return self.phase is Phase.DECISIONS


def open_round(round_id: str, rules: TableRules, closes_at: float
               ) -> tuple[RoundState, list[Event]]:
    return open_betting(RoundState(round_id=round_id, rules=rules, closes_at=closes_at),
                        rules_to_json(rules))


def rules_to_json(rules: TableRules) -> dict[str, Any]:
    pt = rules.paytable
    return {
        "positions": rules.positions, "burn_card": rules.burn_card,
        "limits": {k: getattr(rules.limits, k) for k in Limits.__dataclass_fields__},
        "paytable": {k: f"{getattr(pt, k).numerator}:{getattr(pt, k).denominator}"
                     for k in live.LivePaytable.__dataclass_fields__},
    }


def rules_from_json(data: Mapping[str, Any]) -> TableRules:
    from studio.odds import parse_odds

    return TableRules(
        positions=int(data["positions"]), burn_card=bool(data["burn_card"]),
        limits=Limits(**data["limits"]),
        paytable=live.LivePaytable(**{k: parse_odds(v) for k, v in data["paytable"].items()}))


# ------------------------------------------------------------------------------------- the step


def step(state: RoundState, cmd: Command) -> tuple[RoundState, list[Event]]:
    if state.finished:
        raise RoundError("round.finished", f"round {state.round_id} is {state.phase.value}")
    handler = _HANDLERS[type(cmd)]
    return handler(state, cmd)


class BetBook(SpotBook):
    """The bets of one betting window, kept by the table actor (its single writer).

    `check` is pure: it says whether a bet may be placed, or raises RoundError. The actor adds a
    placement only once its reservation is committed, so a refused bet leaves no trace.
    """

    def check(self, cmd: PlaceBet, pending: BetBook | None = None) -> Placement:
        """The placement `cmd` would make, given this book (and bets not yet committed)."""
        return self.check_command(cmd.player, [(cmd.placement_id, cmd.position, cmd.kind,
                                                cmd.amount)], cmd.now, pending)[0]

    def check_command(self, player: str, bets: Sequence[tuple[str, Any, Any, Any]], now: float,
                      pending: BetBook | None = None) -> list[Placement]:
        """The placements one command of ``player`` would make (each bet given as placement
        id, position, kind, amount), all or none: the bets of the command count together,
        with this book's and those of `pending` (accepted, not yet committed). Raises
        RoundError for the first bet that may not be placed.

        One pass with local sums, no intermediate objects: a betting window checks tens of
        thousands of bets a second through here."""
        if not self.open or now >= self.closes_at:
            raise RoundError("bet.window_closed", "Stop alle puntate: bets are closed")
        limits, positions = self.rules.limits, self.rules.positions
        spot_of, placed = self._spot.get, self.placements
        p_spot = pending._spot.get if pending is not None else None
        p_placed = pending.placements if pending is not None else {}
        local: dict[tuple[int, BetKind], int] = {}
        ids: set[str] = set()
        total = self._player.get(player, 0) + (
            pending._player.get(player, 0) if pending is not None else 0)
        out: list[Placement] = []
        for placement_id, position, kind_name, amount in bets:
            if type(amount) is not int or amount <= 0:
                raise RoundError("bet.bad_amount", "a bet is a positive whole number of cents")
            if type(position) is not int or not 1 <= position <= positions:
                raise RoundError("bet.unknown_position", f"no position {position} at this table")
            kind = _KINDS.get(kind_name) if isinstance(kind_name, str) else None
            if kind is None:
                raise RoundError("bet.unknown_kind", f"no bet called {kind_name!r}")
            if placement_id in placed or placement_id in p_placed or placement_id in ids:
                raise RoundError("bet.duplicate_id", "this bet was already placed")
            ids.add(placement_id)

            def stake(k: BetKind, position: int = position) -> int:
                key = (player, position, k)
                return (spot_of(key, 0) + (p_spot(key, 0) if p_spot else 0)
                        + local.get((position, k), 0))

            spot = stake(kind) + amount
            if kind is BetKind.MAIN:
                low, high = limits.main_min, limits.main_max
            else:
                if stake(BetKind.MAIN) <= 0:
                    raise RoundError("bet.side_without_main",
                                     "side bets need your main bet on the same position")
                low, high = limits.side_min, limits.side_max
            check_spot(spot, low, high)
            total += amount
            check_round_total(total, limits.round_max_total)
            local[(position, kind)] = local.get((position, kind), 0) + amount
            out.append(Placement(placement_id, player, position, kind, amount))
        return out


def _close_betting(state: RoundState, cmd: CloseBetting) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.BETTING:
        raise RoundError("round.not_betting", "betting is not open")
    stakes: dict[tuple[str, int, BetKind], int] = {}
    seats: dict[int, dict[str, None]] = {}
    for p in cmd.placements:
        key = (p.player, p.position, p.kind)
        stakes[key] = stakes.get(key, 0) + p.amount
        if p.kind is BetKind.MAIN:
            seats.setdefault(p.position, {})[p.player] = None
    for p in cmd.placements:
        if p.kind is not BetKind.MAIN and (p.player, p.position, BetKind.MAIN) not in stakes:
            raise RoundError("bet.side_without_main", f"{p.placement_id} has no main bet")
    state = replace(state, placements=cmd.placements, stakes=stakes,
                    seats={n: tuple(players) for n, players in seats.items()})
    events = [Event("betting_closed", {"round_id": state.round_id,
                                       "bets": len(cmd.placements),
                                       "staked": sum(p.amount for p in cmd.placements)})]
    if not seats:
        events.append(Event("round_closed", {"round_id": state.round_id, "no_bets": True}))
        return replace(state, phase=Phase.CLOSED), events
    positions = {n: live.SharedPosition.open(state.players_on(n)) for n in sorted(seats)}
    phase = Phase.BURN if state.rules.burn_card else Phase.DEAL
    new = replace(state, phase=phase, positions=positions)
    return new, events + [_expect(new)]


def _card(state: RoundState, cmd: CardSeen) -> tuple[RoundState, list[Event]]:
    state, target = take_card(state, cmd, FORTY, "40-card deck")
    code = cmd.card.code
    if target.kind == "burn":
        # The burn card is recorded (privately) but never shown to players.
        return _advance(replace(state, burn=cmd.card, phase=Phase.DEAL), [
            Event("burn_card", {"card": code, "source": cmd.source}, private=True),
            Event("card_burned", {"source": cmd.source})])
    events = [Event("card_dealt", {"card": code, "source": cmd.source, "to": target.kind,
                                   "position": target.position})]
    if target.kind == "dealer":
        state = replace(state, dealer=state.dealer + (cmd.card,))
        if state.phase is Phase.DEAL:
            return _after_initial_deal(state, events)
        return _advance(state, events)
    pos = state.positions[target.position].receive(cmd.card)
    state = replace(state, positions={**state.positions, target.position: pos})
    if state.phase is Phase.DEAL:
        return _advance(replace(state, deal_index=state.deal_index + 1), events)
    if state.phase is Phase.HIT:
        state = replace(state, phase=Phase.DECISIONS)
    return _advance(state, events)


def _after_initial_deal(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    """Step 5: Partita Perfetta settles as soon as the dealer's first card is out."""
    pt = state.rules.paytable
    settled = set(state.settled)
    for n in state.dealt_positions():
        first = state.positions[n].cards[0]
        for player in state.players_on(n):
            stake = state.stake(player, n, BetKind.PARTITA_PERFETTA)
            if not stake:
                continue
            s = live.settle_partita_perfetta(stake, first, state.dealer[0], pt)
            settled.add((player, n, BetKind.PARTITA_PERFETTA.value))
            events.append(Event("side_bet_settled", {
                "player": player, "position": n, "kind": BetKind.PARTITA_PERFETTA.value,
                "stake": stake, "result": s.result.value, "class": s.kind,
                "returned": s.returned}))
    state = replace(state, phase=Phase.DRAWS, settled=frozenset(settled), deciding=None)
    return _advance(state, events)


def _settle_players(state: RoundState, who: list[tuple[str, int, bool]],
                    events: list[Event]) -> RoundState:
    """Main bet and Mano di Poker of each (player, position, automatic) given, once each.

    Players holding the same prefix of a position's cards have the same result, so the rules
    are asked once per (position, prefix, automatic) and only the money is worked out per
    player: a table of thousands of players settles in linear time.
    """
    done: set[tuple[str, int, str]] = set()
    pt = state.rules.paytable
    settled, stakes = state.settled, state.stakes
    main, mdp_kind = BetKind.MAIN, BetKind.MANO_DI_POKER
    outcome: dict[tuple[int, int, bool], tuple[list[str], int, live.MainResult, str]] = {}
    returned: dict[tuple[int, live.MainResult], int] = {}  # a handful of distinct stakes
    for player, position, automatic in who:
        key = (player, position, "main")
        if key in settled or key in done:
            continue
        pos = state.positions[position]
        length = pos.seats[player].length
        memo = outcome.get((position, length, automatic))
        if memo is None:
            cards = pos.cards[:length]
            hand = Hand.of(cards)
            dealer = Hand.of(state.dealer[:1] if automatic else state.dealer)
            result = live.settle_main(hand, dealer)
            memo = ([c.code for c in cards], hand.total, result, result.value)
            outcome[(position, length, automatic)] = memo
        codes, total, result, result_name = memo
        stake = stakes.get((player, position, main), 0)
        back = returned.get((stake, result))
        if back is None:
            back = returned[(stake, result)] = live.main_returned(stake, result, pt)
        mdp_stake = stakes.get((player, position, mdp_kind), 0)
        mdp = None
        if mdp_stake:
            m = live.settle_mano_di_poker(mdp_stake, pos.cards[:length], state.dealer[0], pt)
            mdp = {"stake": mdp_stake, "result": m.result.value, "class": m.kind,
                   "returned": m.returned}
            done.add((player, position, "mano_di_poker"))
        events.append(Event("player_settled", {
            "player": player, "position": position, "cards": codes, "total": total,
            "automatic_win": automatic,
            "main": {"stake": stake, "result": result_name, "returned": back},
            "mano_di_poker": mdp,
        }))
        done.add(key)
    return replace(state, settled=state.settled | done) if done else state


def _settle_early(state: RoundState, position: int, events: list[Event]) -> RoundState:
    """Busts lose at once; hands meeting the automatic win are paid at once and stand."""
    pos = state.positions[position]
    first = state.dealer_first()
    hands = pos.prefix_hands()
    line = set(pos.in_line(hands))
    who: list[tuple[str, int, bool]] = []
    winners = set()
    for player, seat in pos.seats.items():
        hand = hands[seat.length]
        if hand.bust:
            who.append((player, position, False))
        elif player in line and live.automatic_win(hand, first):
            who.append((player, position, True))
            winners.add(player)
    state = _settle_players(state, who, events)
    if winners:
        seats = {p: (replace(s, stood=True) if p in winners else s) for p, s in pos.seats.items()}
        state = replace(state, positions={**state.positions,
                                          position: live.SharedPosition(pos.cards, seats)})
    return state


def _advance(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    """Run the automatic steps until a card or a decision is awaited, or the round ends."""
    first = state.dealer_first()
    while True:
        if state.phase in (Phase.BURN, Phase.DEAL):
            events.append(_expect(state))
            return state, events
        if state.phase is Phase.DRAWS:
            for n in state.dealt_positions():
                if state.positions[n].needs_automatic_card(first):
                    state = replace(state, deciding=n)
                    events.append(_expect(state))
                    return state, events
                state = _settle_early(state, n, events)
            state = replace(state, phase=Phase.DECISIONS, deciding=None)
            continue
        if state.phase is Phase.DECISIONS:
            order = state.dealt_positions()
            n = state.deciding if state.deciding is not None else order[0]
            state = _settle_early(replace(state, deciding=n), n, events)
            deciders = state.positions[n].deciders(first)
            if deciders:
                state = replace(state, turn=state.turn + 1, answers={})
                events.append(Event("decision_requested", {
                    "position": n, "players": deciders, "turn": state.turn,
                    "total": state.positions[n].prefix_hands()[-1].total}))
                return state, events
            # Nobody can choose: whoever is still in line stands (7 1/2).
            pos = state.positions[n].decide(set(), first)
            state = replace(state, positions={**state.positions, n: pos})
            later = [m for m in order if m > n]
            if later:
                state = replace(state, deciding=later[0])
                continue
            state = replace(state, phase=Phase.DEALER, deciding=None)
            continue
        if state.phase is Phase.DEALER:
            pending = [(p, n) for n in state.dealt_positions() for p in state.players_on(n)
                       if (p, n, "main") not in state.settled]
            if pending and live.dealer_must_draw(Hand.of(state.dealer)):
                events.append(_expect(state))
                return state, events
            state = _settle_players(state, [(p, n, False) for p, n in pending], events)
            events.append(Event("round_closed", {
                "round_id": state.round_id, "dealer": [c.code for c in state.dealer],
                "dealer_total": Hand.of(state.dealer).total,
                "deck_sets": list(state.deck_sets)}))
            return replace(state, phase=Phase.CLOSED), events
        return state, events


def _expect(state: RoundState) -> Event:
    return card_expected(state)


def _decide(state: RoundState, cmd: Decide) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.DECISIONS or cmd.position != state.deciding:
        raise RoundError("decision.not_your_turn", "no decision is asked on this position now")
    if not state.is_decider(cmd.player):
        raise RoundError("decision.not_your_turn", "you have no choice to make now")
    if cmd.player in state.answers:
        raise RoundError("decision.already_made", "you already chose for this card")
    answers = {**state.answers, cmd.player: bool(cmd.choice)}
    state = replace(state, answers=answers)
    events = [Event("decision_made", {"player": cmd.player, "position": cmd.position,
                                      "choice": "carta" if cmd.choice else "stai",
                                      "turn": state.turn})]
    # every answer was a decider's (above), and the deciders do not change within a turn
    if len(answers) >= state.positions[state.deciding].decider_count(state.dealer_first()):
        return _resolve_decisions(state, events)
    return state, events


def _decision_timeout(state: RoundState, cmd: DecisionTimeout) -> tuple[RoundState, list[Event]]:
    if state.phase is not Phase.DECISIONS or cmd.position != state.deciding or \
            cmd.turn != state.turn:
        raise RoundError("decision.stale_timer", "that decision turn is over")
    missing = [p for p in state.deciders() if p not in state.answers]
    events = [Event("decision_timed_out", {"position": cmd.position, "players": missing,
                                           "turn": state.turn})]
    return _resolve_decisions(state, events)


def _resolve_decisions(state: RoundState, events: list[Event]) -> tuple[RoundState, list[Event]]:
    n = state.deciding
    hits = {p for p, hit in state.answers.items() if hit}
    pos = state.positions[n].decide(hits, state.dealer_first())
    state = replace(state, positions={**state.positions, n: pos}, answers={})
    if pos.in_line():
        state = replace(state, phase=Phase.HIT)
        events.append(_expect(state))
        return state, events
    later = [m for m in state.dealt_positions() if m > n]
    if later:
        return _advance(replace(state, deciding=later[0]), events)
    return _advance(replace(state, phase=Phase.DEALER, deciding=None), events)


def _void(state: RoundState, cmd: Void) -> tuple[RoundState, list[Event]]:
    refunds = [p for p in state.placements
               if (p.player, p.position, p.kind) not in state.settled]
    return void_round(state, cmd, Phase.VOID, refunds)


_HANDLERS = {
    CloseBetting: _close_betting,
    OpenDeck: lambda s, c: open_deck(s, c, len(FORTY)), CardSeen: _card, Decide: _decide,
    DecisionTimeout: _decision_timeout, Void: _void,
}
