"""Sette e Mezzo Live: the rules of RULES.md, pure (no I/O, no clock, no randomness).

The round controller, the exact mathematics and the Monte Carlo simulation all call these
functions, so the rules exist once. Numbers are in halves (see `sette_e_mezzo`), money in cents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from studio.cards import Card, Rank
from studio.games.sette_e_mezzo import FIVE, SEVEN, Hand
from studio.odds import returned_cents


@dataclass(frozen=True, slots=True)
class LivePaytable:
    """Payout odds of the main bet and the two side bets (config/*.toml sets them)."""

    win: Fraction = Fraction(1)
    royal: Fraction = Fraction(3, 2)
    pp_sevens: Fraction = Fraction(55)
    pp_figures: Fraction = Fraction(10)
    pp_low: Fraction = Fraction(5)
    mdp_scala_reale: Fraction = Fraction(150)
    mdp_scala_colore: Fraction = Fraction(75)
    mdp_tris: Fraction = Fraction(50)
    mdp_colore: Fraction = Fraction(6)
    mdp_scala: Fraction = Fraction(5)


# ---------------------------------------------------------------- the player's hand in play


def must_draw_automatically(player: Hand, dealer_first: Hand) -> bool:
    """Step 6: the position draws with no choice while any of the three conditions holds."""
    if player.bust:
        return False
    total = player.total
    return (
        player.is_lone_matta
        or (dealer_first.is_lone_matta and total < SEVEN)
        or total < dealer_first.total
    )


@lru_cache(maxsize=256)
def _sequence_decides(cards: tuple[Card, ...], dealer_first: Hand) -> bool:
    """Whether whoever holds all of a position's cards decides: once per sequence and
    dealer's card, not once for each of its thousands of players."""
    hand = Hand.of_dealt(cards)
    return not hand.bust and may_decide(hand, dealer_first)


def may_decide(player: Hand, dealer_first: Hand) -> bool:
    """Step 7: Carta or Stai is offered at 7 or less, once no automatic draw applies.

    A hand that already meets the automatic win (step 8) has won "at once" (the regulation:
    the round ends automatically when the conditions hold), so it is not offered a choice.
    """
    return (
        not player.bust
        and player.total <= SEVEN
        and not must_draw_automatically(player, dealer_first)
        and not automatic_win(player, dealer_first)
    )


def automatic_win(player: Hand, dealer_first: Hand) -> bool:
    """Step 8: the dealer shows 5, 6 or 7 (will stand), the player has 2+ cards and beats it."""
    return (
        dealer_first.count == 1
        and FIVE <= dealer_first.total <= SEVEN
        and player.count >= 2
        and not player.bust
        and player.total > dealer_first.total
    )


def dealer_must_draw(dealer: Hand) -> bool:
    """Step 9: the dealer draws below 5 and stands on 5 or more."""
    return dealer.total < FIVE


# ---------------------------------------------------------------- main bet


class MainResult(StrEnum):
    LOSE = "lose"
    PUSH = "push"
    WIN = "win"
    ROYAL = "royal"


def settle_main(player: Hand, dealer: Hand) -> MainResult:
    """Step 10, in the order RULES.md gives it."""
    if player.bust:
        return MainResult.LOSE
    if player.royal:
        return MainResult.ROYAL
    if dealer.royal:
        return MainResult.LOSE
    if dealer.bust:
        return MainResult.WIN
    p, d = player.total, dealer.total
    if p > d:
        return MainResult.WIN
    if p < d:
        return MainResult.LOSE
    # A tie at 5 is lost, at 5 1/2 or more a push. (The dealer stands only on 5 or more, so a
    # tie below 5 cannot reach settlement; it is lost like the tie at 5.)
    return MainResult.PUSH if p > FIVE else MainResult.LOSE


def main_returned(stake: int, result: MainResult, paytable: LivePaytable) -> int:
    """Cents returned to the player for a main bet of `stake` cents (0 when lost)."""
    if result is MainResult.ROYAL:
        return returned_cents(stake, paytable.royal)
    if result is MainResult.WIN:
        return returned_cents(stake, paytable.win)
    if result is MainResult.PUSH:
        return stake
    return 0


def main_net(result: MainResult, paytable: LivePaytable) -> Fraction:
    """Net result of one unit staked (for the mathematics)."""
    return {
        MainResult.ROYAL: paytable.royal,
        MainResult.WIN: paytable.win,
        MainResult.PUSH: Fraction(0),
        MainResult.LOSE: Fraction(-1),
    }[result]


# ---------------------------------------------------------------- Partita Perfetta


class PartitaPerfetta(StrEnum):
    SEVENS = "pair_of_sevens"
    FIGURES = "pair_of_figures"
    LOW = "pair_asso_to_6"
    NONE = "none"


_LOW_RANKS = frozenset({Rank.ASSO, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX})


def partita_perfetta(player_first: Card, dealer_first: Card) -> PartitaPerfetta:
    """Step 5: the position's first card and the dealer's first card of the same rank.

    The matta is an ordinary re here: re-re is a pair of figures.
    """
    if player_first.rank is not dealer_first.rank:
        return PartitaPerfetta.NONE
    if player_first.rank is Rank.SEVEN:
        return PartitaPerfetta.SEVENS
    if player_first.rank.is_figure:
        return PartitaPerfetta.FIGURES
    if player_first.rank in _LOW_RANKS:
        return PartitaPerfetta.LOW
    return PartitaPerfetta.NONE


def partita_perfetta_odds(kind: PartitaPerfetta, paytable: LivePaytable) -> Fraction | None:
    return {
        PartitaPerfetta.SEVENS: paytable.pp_sevens,
        PartitaPerfetta.FIGURES: paytable.pp_figures,
        PartitaPerfetta.LOW: paytable.pp_low,
    }.get(kind)


# ---------------------------------------------------------------- Mano di Poker


class ManoDiPoker(StrEnum):
    SCALA_REALE = "scala_reale"
    SCALA_COLORE = "scala_a_colore"
    TRIS = "tris"
    COLORE = "colore"
    SCALA = "scala"
    NONE = "none"


# Order of the 40-card deck for runs: asso 1 .. 7, then fante, cavallo, re.
_RUN_ORDER = {Rank.ASSO: 1, Rank.TWO: 2, Rank.THREE: 3, Rank.FOUR: 4, Rank.FIVE: 5,
              Rank.SIX: 6, Rank.SEVEN: 7, Rank.FANTE: 8, Rank.CAVALLO: 9, Rank.RE: 10}
# The only runs that count: A-2-3 .. 5-6-7, and fante-cavallo-re. No 6-7-fante,
# no 7-fante-cavallo, no wrap-around.
_LOW_RUNS = frozenset(frozenset(range(s, s + 3)) for s in range(1, 6))
_FIGURE_RUN = frozenset({8, 9, 10})


def mano_di_poker(cards: Sequence[Card]) -> ManoDiPoker:
    """Step 11: the player's first two cards plus the dealer's first card; best class only."""
    if len(cards) != 3:
        raise ValueError("Mano di Poker is made of exactly three cards")
    ranks = frozenset(_RUN_ORDER[c.rank] for c in cards)
    suited = len({c.suit for c in cards}) == 1
    if ranks == _FIGURE_RUN:
        return ManoDiPoker.SCALA_REALE if suited else ManoDiPoker.SCALA
    if ranks in _LOW_RUNS:
        return ManoDiPoker.SCALA_COLORE if suited else ManoDiPoker.SCALA
    if len(ranks) == 1:
        return ManoDiPoker.TRIS
    if suited:
        return ManoDiPoker.COLORE
    return ManoDiPoker.NONE


def mano_di_poker_odds(kind: ManoDiPoker, paytable: LivePaytable) -> Fraction | None:
    return {
        ManoDiPoker.SCALA_REALE: paytable.mdp_scala_reale,
        ManoDiPoker.SCALA_COLORE: paytable.mdp_scala_colore,
        ManoDiPoker.TRIS: paytable.mdp_tris,
        ManoDiPoker.COLORE: paytable.mdp_colore,
        ManoDiPoker.SCALA: paytable.mdp_scala,
    }.get(kind)


class SideResult(StrEnum):
    LOSE = "lose"
    WIN = "win"
    REFUND = "refund"


@dataclass(frozen=True, slots=True)
class SideSettlement:
    result: SideResult
    kind: str
    returned: int  # cents


def settle_partita_perfetta(stake: int, player_first: Card, dealer_first: Card,
                            paytable: LivePaytable) -> SideSettlement:
    kind = partita_perfetta(player_first, dealer_first)
    odds = partita_perfetta_odds(kind, paytable)
    if odds is None:
        return SideSettlement(SideResult.LOSE, kind.value, 0)
    return SideSettlement(SideResult.WIN, kind.value, returned_cents(stake, odds))


def settle_mano_di_poker(stake: int, player_cards: Sequence[Card], dealer_first: Card,
                         paytable: LivePaytable) -> SideSettlement:
    """A player who never received a second card has no hand: the stake is refunded."""
    if len(player_cards) < 2:
        return SideSettlement(SideResult.REFUND, "no_second_card", stake)
    kind = mano_di_poker([player_cards[0], player_cards[1], dealer_first])
    odds = mano_di_poker_odds(kind, paytable)
    if odds is None:
        return SideSettlement(SideResult.LOSE, kind.value, 0)
    return SideSettlement(SideResult.WIN, kind.value, returned_cents(stake, odds))


# ---------------------------------------------------------------- one player's settlement


@dataclass(frozen=True, slots=True)
class Bets:
    """One player's stakes on one position, in cents (0 = no such bet)."""

    main: int
    partita_perfetta: int = 0
    mano_di_poker: int = 0

    @property
    def staked(self) -> int:
        return self.main + self.partita_perfetta + self.mano_di_poker


@dataclass(frozen=True, slots=True)
class PlayerSettlement:
    main: MainResult
    main_returned: int
    partita_perfetta: SideSettlement | None
    mano_di_poker: SideSettlement | None
    staked: int

    @property
    def returned(self) -> int:
        side = sum(s.returned for s in (self.partita_perfetta, self.mano_di_poker) if s)
        return self.main_returned + side

    @property
    def house_result(self) -> int:
        """What the house keeps (negative when it pays out more than was staked)."""
        return self.staked - self.returned


def settle_player(bets: Bets, player_cards: Sequence[Card], dealer_cards: Sequence[Card],
                  paytable: LivePaytable, *, automatic: bool = False) -> PlayerSettlement:
    """Settle one player's bets on one position. `player_cards` is the player's own prefix of
    the position's cards; `dealer_cards` the dealer's hand as it stands (one card for an
    automatic win or when the dealer did not need to draw).
    """
    if bets.main <= 0:
        raise ValueError("a position is played only with a main bet")
    if not player_cards or not dealer_cards:
        raise ValueError("settlement needs the first card of the player and of the dealer")
    player = Hand.of(player_cards)
    dealer = Hand.of(dealer_cards[:1] if automatic else dealer_cards)
    result = settle_main(player, dealer)
    pp = (settle_partita_perfetta(bets.partita_perfetta, player_cards[0], dealer_cards[0],
                                  paytable) if bets.partita_perfetta else None)
    mdp = (settle_mano_di_poker(bets.mano_di_poker, player_cards, dealer_cards[0], paytable)
           if bets.mano_di_poker else None)
    return PlayerSettlement(result, main_returned(bets.main, result, paytable), pp, mdp,
                            bets.staked)


# ---------------------------------------------------------------- a shared position


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One player's hand on a position: the first `length` cards of the position's sequence."""

    length: int
    stood: bool = False


# the last `SharedPosition.decider_count`: (the position, the dealer's first card, the count);
# a position is immutable, so the same object has the same deciders
_LAST_COUNT: list[Any] = []


@dataclass(frozen=True, slots=True)
class SharedPosition:
    """A betting position dealt to many players at once, whose hands may diverge.

    Every player shares the position's cards until they decide differently: a player who stands
    keeps the prefix they hold; the next card goes to the players still in line (those who hold
    the whole sequence, have not stood and are not bust). So each hand is a prefix of `cards`.
    """

    cards: tuple[Card, ...] = ()
    seats: Mapping[str, SeatHand] = field(default_factory=dict)

    @staticmethod
    def open(players: Iterable[str]) -> SharedPosition:
        return SharedPosition((), {p: SeatHand(0) for p in players})

    def cards_of(self, player: str) -> tuple[Card, ...]:
        return self.cards[: self.seats[player].length]

    def prefix_hands(self) -> list[Hand]:
        """The hand of every prefix of the position's cards (index = number of cards): each
        player's hand is one of them, so many players cost one pass over the cards."""
        hands = [Hand()]
        for c in self.cards:
            hands.append(hands[-1].add(c))
        return hands

    def hand_of(self, player: str) -> Hand:
        return Hand.of(self.cards_of(player))

    def in_line(self, hands: list[Hand] | None = None) -> list[str]:
        """Players who receive the next card dealt to this position."""
        n = len(self.cards)
        if hands is None:
            hands = self.prefix_hands()
        if hands[n].bust:
            return []
        return [p for p, s in self.seats.items() if not s.stood and s.length == n]

    def receive(self, card: Card) -> SharedPosition:
        """The dealer deals one card to the position: every player in line receives it."""
        receivers = set(self.in_line())
        if not receivers:
            raise ValueError("no player on this position is waiting for a card")
        seats = {
            p: (replace(s, length=s.length + 1) if p in receivers else s)
            for p, s in self.seats.items()
        }
        return SharedPosition(self.cards + (card,), seats)

    def needs_automatic_card(self, dealer_first: Hand) -> bool:
        """Step 6. Before decisions every player holds the same cards, so one check serves all."""
        hands = self.prefix_hands()
        return bool(self.in_line(hands)) and must_draw_automatically(hands[-1], dealer_first)

    def deciders(self, dealer_first: Hand) -> list[str]:
        """Players who are offered Carta/Stai now (all in line hold the same hand)."""
        hands = self.prefix_hands()
        line = self.in_line(hands)
        return line if line and may_decide(hands[-1], dealer_first) else []

    def decides(self, player: str, dealer_first: Hand) -> bool:
        """`player in deciders(dealer_first)`, without listing the thousands of others: a
        view per player after each card must not cost the square of the players."""
        seat = self.seats.get(player)
        n = len(self.cards)
        if seat is None or seat.stood or seat.length != n:
            return False
        return _sequence_decides(self.cards, dealer_first)

    def decider_count(self, dealer_first: Hand) -> int:
        """len(deciders(dealer_first)), counted once per position and dealer's card: each
        of 10,000 players' decisions asks whether all have answered."""
        last = _LAST_COUNT
        if last and last[0] is self and last[1] == dealer_first:
            return last[2]
        n = len(self.deciders(dealer_first))
        _LAST_COUNT[:] = [self, dealer_first, n]
        return n

    def decide(self, hits: Iterable[str], dealer_first: Hand) -> SharedPosition:
        """Apply one round of decisions. Whoever is in line and did not ask Carta stands
        (no answer means Stai; 7 1/2 stands automatically). Returns the new position; a card
        is due when `in_line()` is not empty.
        """
        hits = set(hits)
        unknown = hits - set(self.deciders(dealer_first))
        if unknown:
            raise ValueError(f"not allowed to ask for a card now: {sorted(unknown)}")
        standing = set(self.in_line()) - hits
        seats = {p: (replace(s, stood=True) if p in standing else s)
                 for p, s in self.seats.items()}
        return SharedPosition(self.cards, seats)


def deal_order(positions: Sequence[int]) -> list[int | None]:
    """Step 4: one card to each dealt position in position order, then one to the dealer
    (None)."""
    return [*sorted(positions), None]
