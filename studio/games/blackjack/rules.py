"""Blackjack: the rules, pure (RULES.md "Blackjack" and seeds/blackjack-next.it.txt).

Plain frozen dataclasses and functions: no I/O, clock or randomness. The table (later) and the
mathematics both call these, so there is one copy of every rule.

- Eight 52-card decks, shuffled before every game. Ace 1 or 11 at its best; 2-9 at face value;
  T J Q K 10.
- Positions 1..5 are numbered from the right as the player sees the table: the regulation deals
  "partendo da destra", so position 1 gets the first card. One card to each active position,
  the dealer's up card, a second card to each active position, the dealer's hole card.
- No peek: the hole card is turned over only when the players are done, and a dealer blackjack
  takes every main bet on the table, doubles and splits included (a player's own blackjack, not
  from a split, pushes).
- Dealer draws below 17 and stands on every 17, soft included.
- Double on the first two cards only (the first action), one card, then stand; never after a
  split. One split per position, of two cards of the same rank; split aces may be hit; a split
  hand's 21 in two cards is 21, not blackjack (the regulation's blackjack is the player's
  two-card 21 from the deal; a split hand plays "seguendo le regole del gioco" as a new
  position without side bets). A blackjack from the deal needs no decision.
- Insurance, when the dealer's up card is an ace, before any play: half the original bet
  (truncated to the cent), pays 2:1, covers only the original bet.
- Side bets (Player Pair and 21+3 per position, Dealer Pair per player), only with a main bet;
  the regulation's figures "pagano la puntata moltiplicata per 25" are what comes back, stake
  included (RULES.md), so perfect pair 25 is odds 24:1 (see `Paytable`).
- The regulation's cap: the sum of a player's bets in one game (every position, side bets,
  insurance, doubles and splits) never above EUR 1,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

from studio.cards import Card, Rank, Suit
from studio.odds import returned_cents

DECKS = 8
POSITIONS = 5
HAND_CAP_CENTS = 100_000  # the regulation's EUR 1,000 on the sum of a game's bets
DEALER_STANDS = 17


class BlackjackError(ValueError):
    """An action or card the rules do not allow now; `code` is stable for the table."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


# --------------------------------------------------------------------------- card values

def card_value(card: Card) -> int:
    """Ace 1 (its 11 is the hand's business), 2..9 at face value, ten and figures 10."""
    return min(card.rank.number, 10)


def value_of_rank(rank: Rank) -> int:
    return min(rank.number, 10)


class Score(NamedTuple):
    """What the rules see of a hand: its best total, whether an ace counts 11 in it, bust,
    and blackjack (two-card 21 from the deal, never from a split)."""

    total: int
    soft: bool
    bust: bool
    blackjack: bool


def best_total(hard: int, aces: int) -> tuple[int, bool]:
    """Aces at their best: one of them counts 11 when that does not pass 21."""
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def score_values(values: Sequence[int], from_split: bool = False) -> Score:
    """The score of card values (ace = 1); `from_split`: a split hand has no blackjack."""
    total, soft = best_total(sum(values), values.count(1))
    return Score(total, soft, total > 21,
                 total == 21 and len(values) == 2 and not from_split)


def score(cards: Sequence[Card], from_split: bool = False) -> Score:
    return score_values([card_value(c) for c in cards], from_split)


def dealer_must_draw(total: int, soft: bool) -> bool:
    """Below 17 the dealer draws; on every 17, soft included, and above, it stands."""
    del soft  # stands on soft 17: the softness never matters, by the regulation
    return total < DEALER_STANDS


def dealer_draws(cards: Sequence[Card]) -> bool:
    s = score(cards)
    return dealer_must_draw(s.total, s.soft)


# --------------------------------------------------------------------------- main bet result

class Result(StrEnum):
    BLACKJACK = "blackjack"  # paid 3:2
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


def main_result(player: Score, dealer: Score) -> Result:
    """One hand against the dealer's final hand. No peek: a dealer blackjack beats everything
    but the player's own blackjack (a push)."""
    if player.bust:
        return Result.LOSE
    if dealer.blackjack:
        return Result.PUSH if player.blackjack else Result.LOSE
    if player.blackjack:
        return Result.BLACKJACK
    if dealer.bust or player.total > dealer.total:
        return Result.WIN
    return Result.PUSH if player.total == dealer.total else Result.LOSE


# --------------------------------------------------------------------------- side bets

RED = frozenset({Suit.DENARI, Suit.COPPE})  # quadri, cuori


def is_red(suit: Suit) -> bool:
    return suit in RED


class PairClass(StrEnum):
    PERFECT = "perfect_pair"  # identical cards (rank and suit)
    COLOURED = "coloured_pair"  # same rank, same colour, different suit
    MIXED = "mixed_pair"  # same rank, red and black ("coppia rossa/nera")


def pair_class(first: Card, second: Card) -> PairClass | None:
    """Player Pair / Dealer Pair on a side's first two cards: a pair by rank (a ten and a king
    are no pair)."""
    if first.rank != second.rank:
        return None
    if first.suit == second.suit:
        return PairClass.PERFECT
    return PairClass.COLOURED if is_red(first.suit) == is_red(second.suit) else PairClass.MIXED


class ThreeClass(StrEnum):
    SUITED_TRIS = "suited_tris"  # same rank and suit ("tris dello stesso seme")
    TRIS = "tris"  # same rank, not all of one suit
    COLOUR = "colour"  # one suit, not a tris ("colore")


def three_class(first: Card, second: Card, up: Card) -> ThreeClass | None:
    """21+3 on the player's two cards and the dealer's up card; no straights. The highest
    class only: a suited tris is not also paid as a colour."""
    one_suit = first.suit == second.suit == up.suit
    if first.rank == second.rank == up.rank:
        return ThreeClass.SUITED_TRIS if one_suit else ThreeClass.TRIS
    return ThreeClass.COLOUR if one_suit else None


# --------------------------------------------------------------------------- paytable

@dataclass(frozen=True, slots=True)
class Paytable:
    """Odds "X:1" (the stake comes back plus X times it, studio/odds.py). The regulation's
    side-bet figures are stake included ("la puntata moltiplicata per 25" = 25 back for 1),
    so they are one less as odds: 25 -> 24:1, 12 -> 11:1, 5 -> 4:1, 30 -> 29:1, 100 -> 99:1.
    Main: "moltiplicata per 2" -> 1:1, blackjack "per 2,5" -> 3:2."""

    win: Fraction = Fraction(1)
    blackjack: Fraction = Fraction(3, 2)
    insurance: Fraction = Fraction(2)
    perfect_pair: Fraction = Fraction(24)
    coloured_pair: Fraction = Fraction(11)
    mixed_pair: Fraction = Fraction(4)
    colour: Fraction = Fraction(4)
    tris: Fraction = Fraction(29)
    suited_tris: Fraction = Fraction(99)

    def pair_odds(self, cls: PairClass) -> Fraction:
        return {PairClass.PERFECT: self.perfect_pair, PairClass.COLOURED: self.coloured_pair,
                PairClass.MIXED: self.mixed_pair}[cls]

    def three_odds(self, cls: ThreeClass) -> Fraction:
        return {ThreeClass.SUITED_TRIS: self.suited_tris, ThreeClass.TRIS: self.tris,
                ThreeClass.COLOUR: self.colour}[cls]


def main_returned(stake: int, result: Result, paytable: Paytable) -> int:
    """Cents back on a main hand (stake included), wins truncated to the cent."""
    if result is Result.BLACKJACK:
        return returned_cents(stake, paytable.blackjack)
    if result is Result.WIN:
        return returned_cents(stake, paytable.win)
    return stake if result is Result.PUSH else 0


# --------------------------------------------------------------------------- a position's hand

class Action(StrEnum):
    STAY = "stay"
    HIT = "hit"
    DOUBLE = "double"
    SPLIT = "split"
    INSURE = "insure"
    NO_INSURANCE = "no_insurance"


PLAY_ACTIONS = (Action.STAY, Action.HIT, Action.DOUBLE, Action.SPLIT)
INSURANCE_ACTIONS = (Action.INSURE, Action.NO_INSURANCE)


class HandStatus(StrEnum):
    NEEDS_CARD = "needs_card"  # short of two cards, or a hit or double waits for its card
    DECIDING = "deciding"
    STOOD = "stood"
    BUST = "bust"
    BLACKJACK = "blackjack"


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a position: its cards and its main stake (doubled included)."""

    stake: int
    cards: tuple[Card, ...] = ()
    from_split: bool = False
    doubled: bool = False
    drawing: bool = False  # a hit or double is waiting for its card
    stood: bool = False

    @property
    def score(self) -> Score:
        return score(self.cards, self.from_split)

    @property
    def status(self) -> HandStatus:
        s = self.score
        if s.bust:
            return HandStatus.BUST
        if s.blackjack:
            return HandStatus.BLACKJACK
        if self.drawing or len(self.cards) < 2:
            return HandStatus.NEEDS_CARD
        if self.stood or self.doubled:
            return HandStatus.STOOD
        return HandStatus.DECIDING

    @property
    def done(self) -> bool:
        return self.status in (HandStatus.STOOD, HandStatus.BUST, HandStatus.BLACKJACK)

    def with_card(self, card: Card) -> Hand:
        """The hand's state machine on a card (the game says which hand gets it)."""
        if self.status is not HandStatus.NEEDS_CARD:
            raise BlackjackError("blackjack.card_not_expected",
                                 f"this hand is {self.status.value}, it takes no card")
        return replace(self, cards=(*self.cards, card), drawing=False)


@dataclass(frozen=True, slots=True)
class Position:
    """An active position: its original bet, one hand (two after a split), its side bets and
    its insurance (None: not decided; 0: declined)."""

    number: int
    bet: int
    hands: tuple[Hand, ...]
    player_pair: int = 0
    twenty_one_three: int = 0
    insurance: int | None = None

    @property
    def split(self) -> bool:
        return len(self.hands) == 2

    def staked(self) -> int:
        return (sum(h.stake for h in self.hands) + self.player_pair + self.twenty_one_three
                + (self.insurance or 0))


def new_position(number: int, bet: int, player_pair: int = 0, twenty_one_three: int = 0,
                 positions: int = POSITIONS) -> Position:
    """A position of a table of `positions` (the regulation's five; a live table's seven)."""
    if not 1 <= number <= positions:
        raise BlackjackError("blackjack.no_such_position", f"positions are 1..{positions}")
    if bet <= 0:
        if player_pair or twenty_one_three:
            raise BlackjackError("blackjack.side_bet_without_main",
                                 "side bets open only with a main bet on the position")
        raise BlackjackError("blackjack.no_main_bet", "a position plays with a main bet")
    if player_pair < 0 or twenty_one_three < 0:
        raise BlackjackError("blackjack.negative_bet")
    return Position(number, bet, (Hand(bet),), player_pair, twenty_one_three)


# --------------------------------------------------------------------------- the game

class Recipient(NamedTuple):
    """Who gets the next card: a position's hand, or the dealer (position None)."""

    position: int | None
    hand: int = 0


DEALER = Recipient(None)


@dataclass(frozen=True, slots=True)
class Game:
    """One player's game at the table: the active positions in dealing order (from the right),
    the dealer's cards (up card first) and the Dealer Pair stake."""

    positions: tuple[Position, ...]
    dealer: tuple[Card, ...] = ()
    dealer_pair: int = 0

    def position(self, number: int) -> Position:
        for p in self.positions:
            if p.number == number:
                return p
        raise BlackjackError("blackjack.no_such_position", f"position {number} is not active")

    @property
    def up_card(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    def staked(self) -> int:
        """Every cent the player has on this game: the cap's sum."""
        return self.dealer_pair + sum(p.staked() for p in self.positions)

    @property
    def initial_deal_done(self) -> bool:
        return len(self.dealer) >= 2

    @property
    def insurance_open(self) -> bool:
        """The dealer shows an ace and some position has not yet said yes or no."""
        return (self.initial_deal_done and self.dealer[0].rank is Rank.ASSO
                and any(p.insurance is None for p in self.positions)
                and not self._play_started())

    def _play_started(self) -> bool:
        return any(p.split or any(h.stood or h.doubled or h.drawing or len(h.cards) > 2
                                  for h in p.hands) for p in self.positions)

    def turn(self) -> tuple[int, int] | None:
        """(position, hand) whose play comes now, from the right; None once all are done or
        before the deal is complete."""
        if not self.initial_deal_done or self.insurance_open:
            return None
        for p in self.positions:
            for i, h in enumerate(p.hands):
                if not h.done:
                    return p.number, i
        return None

    @property
    def players_done(self) -> bool:
        return self.initial_deal_done and not self.insurance_open and self.turn() is None

    @property
    def finished(self) -> bool:
        return self.players_done and not dealer_draws(self.dealer)


def new_game(positions: Sequence[Position], dealer_pair: int = 0,
             cap: int = HAND_CAP_CENTS) -> Game:
    """The bets placed before START; refused over the cap, or Dealer Pair with no main bet."""
    if not positions:
        if dealer_pair:
            raise BlackjackError("blackjack.side_bet_without_main",
                                 "Dealer Pair opens only with a main bet")
        raise BlackjackError("blackjack.no_main_bet", "no active position")
    numbers = [p.number for p in positions]
    if len(set(numbers)) != len(numbers):
        raise BlackjackError("blackjack.position_twice")
    game = Game(tuple(sorted(positions, key=lambda p: p.number)), (), dealer_pair)
    if game.staked() > cap:
        raise BlackjackError("blackjack.hand_cap",
                             f"the bets of one game may not pass {cap / 100:.2f} EUR")
    return game


def next_card(game: Game) -> Recipient | None:
    """Who gets the next card, or None when a decision is awaited or the game is over.
    Initial deal: every active position from the right, the dealer's up card, again every
    position, the hole card. Then the hand in turn when it waits for a card; when every hand
    is done, the dealer until it stands."""
    n = len(game.positions)
    dealt = sum(min(len(p.hands[0].cards), 2) for p in game.positions) + len(game.dealer)
    if not game.initial_deal_done:
        i = dealt % (n + 1)
        return DEALER if i == n else Recipient(game.positions[i].number)
    turn = game.turn()
    if turn is not None:
        number, i = turn
        pos = game.position(number)
        for j, h in enumerate(pos.hands):  # a split: each new hand gets its card, then play
            if len(h.cards) < 2:
                return Recipient(number, j)
        return Recipient(number, i) if pos.hands[i].status is HandStatus.NEEDS_CARD else None
    if game.players_done and dealer_draws(game.dealer):
        return DEALER
    return None


def deal(game: Game, card: Card) -> Game:
    """The game after the next card, given to whoever `next_card` names."""
    to = next_card(game)
    if to is None:
        raise BlackjackError("blackjack.card_not_expected", "no card is expected now")
    if to.position is None:
        return replace(game, dealer=(*game.dealer, card))
    pos = game.position(to.position)
    hands = list(pos.hands)
    if not game.initial_deal_done:  # the initial deal: the hand is not yet complete
        hands[0] = replace(hands[0], cards=(*hands[0].cards, card))
    else:
        hands[to.hand] = hands[to.hand].with_card(card)
    return _with_position(game, replace(pos, hands=tuple(hands)))


def _with_position(game: Game, pos: Position) -> Game:
    return replace(game, positions=tuple(pos if p.number == pos.number else p
                                         for p in game.positions))


def refusal(game: Game, number: int, action: Action, credit: int | None = None,
            cap: int = HAND_CAP_CENTS) -> str | None:
    """Why `action` on position `number` is not allowed now (a stable code), or None when it
    is. `credit`: the player's table credit left, when the table knows it."""
    pos = next((p for p in game.positions if p.number == number), None)
    if pos is None:
        return "blackjack.no_such_position"
    if not game.initial_deal_done:
        return "blackjack.deal_in_progress"
    if action in INSURANCE_ACTIONS:
        up = game.dealer[0]
        if up.rank is not Rank.ASSO:
            return "blackjack.insurance_no_ace"
        if pos.insurance is not None:
            return "blackjack.insurance_decided"
        if not game.insurance_open:
            return "blackjack.insurance_closed"
        extra = insurance_stake(pos.bet) if action is Action.INSURE else 0
        return _money_refusal(game, extra, credit, cap)
    if game.insurance_open:
        return "blackjack.insurance_pending"
    turn = game.turn()
    if turn is None or turn[0] != number:
        return "blackjack.not_your_turn"
    hand = pos.hands[turn[1]]
    if hand.status is not HandStatus.DECIDING:
        return "blackjack.card_pending"
    if action is Action.DOUBLE:
        if hand.from_split:
            return "blackjack.double_after_split"
        if len(hand.cards) != 2:
            return "blackjack.double_after_hit"
        return _money_refusal(game, hand.stake, credit, cap)
    if action is Action.SPLIT:
        if pos.split:
            return "blackjack.split_twice"
        if len(hand.cards) != 2:
            return "blackjack.split_after_hit"
        if hand.cards[0].rank != hand.cards[1].rank:
            return "blackjack.split_not_pair"
        return _money_refusal(game, pos.bet, credit, cap)
    return None  # stay and hit are always allowed on a deciding hand


def _money_refusal(game: Game, extra: int, credit: int | None, cap: int) -> str | None:
    if game.staked() + extra > cap:
        return "blackjack.hand_cap"
    if credit is not None and extra > credit:
        return "blackjack.credit"
    return None


def legal_actions(game: Game, number: int, credit: int | None = None,
                  cap: int = HAND_CAP_CENTS) -> tuple[Action, ...]:
    """The buttons to show position `number` now (the others stay hidden)."""
    return tuple(a for a in Action if refusal(game, number, a, credit, cap) is None)


def insurance_stake(bet: int) -> int:
    """Half the original bet, truncated to the cent."""
    return bet // 2


def decide(game: Game, number: int, action: Action, credit: int | None = None,
           cap: int = HAND_CAP_CENTS) -> Game:
    """The game after a player's decision, or BlackjackError with the refusal code."""
    code = refusal(game, number, action, credit, cap)
    if code is not None:
        raise BlackjackError(code, f"{action.value} is not allowed on position {number} now")
    pos = game.position(number)
    if action in INSURANCE_ACTIONS:
        stake = insurance_stake(pos.bet) if action is Action.INSURE else 0
        return _with_position(game, replace(pos, insurance=stake))
    turn = game.turn()
    assert turn is not None  # refusal() checked it
    i = turn[1]
    hand = pos.hands[i]
    if action is Action.SPLIT:
        first, second = hand.cards
        hands = (Hand(pos.bet, (first,), from_split=True), Hand(pos.bet, (second,), from_split=True))
        return _with_position(game, replace(pos, hands=hands))
    new = {Action.STAY: replace(hand, stood=True),
           Action.HIT: replace(hand, drawing=True),
           Action.DOUBLE: replace(hand, stake=2 * hand.stake, doubled=True, drawing=True)}[action]
    hands = list(pos.hands)
    hands[i] = new
    return _with_position(game, replace(pos, hands=tuple(hands)))


# --------------------------------------------------------------------------- settlement

class Bet(StrEnum):
    MAIN = "main"
    INSURANCE = "insurance"
    PLAYER_PAIR = "player_pair"
    TWENTY_ONE_THREE = "twenty_one_three"
    DEALER_PAIR = "dealer_pair"


@dataclass(frozen=True, slots=True)
class Settlement:
    bet: Bet
    position: int | None  # None: Dealer Pair
    hand: int | None  # the hand, for main bets
    stake: int
    returned: int  # stake included; 0 when lost
    result: str  # Result for main bets; the class won, or "lose", for the others


def settle_side(bet: Bet, stake: int, cls: PairClass | ThreeClass | None,
                paytable: Paytable, position: int | None) -> Settlement:
    if cls is None:
        return Settlement(bet, position, None, stake, 0, "lose")
    odds = (paytable.three_odds(cls) if isinstance(cls, ThreeClass)
            else paytable.pair_odds(cls))
    return Settlement(bet, position, None, stake, returned_cents(stake, odds), cls.value)


def settle(game: Game, paytable: Paytable) -> list[Settlement]:
    """Every bet of a finished game, in integer cents. Side bets read the first two cards of
    the deal (a split's hands carry none)."""
    if not game.finished:
        raise BlackjackError("blackjack.not_finished", "the game is still being played")
    dealer = score(game.dealer)
    up = game.dealer[0]
    out: list[Settlement] = []
    for pos in game.positions:
        first_two = (pos.hands[0].cards[0], pos.hands[1].cards[0]) if pos.split \
            else pos.hands[0].cards[:2]
        for i, hand in enumerate(pos.hands):
            result = main_result(hand.score, dealer)
            out.append(Settlement(Bet.MAIN, pos.number, i, hand.stake,
                                  main_returned(hand.stake, result, paytable), result.value))
        if pos.insurance:
            won = dealer.blackjack
            out.append(Settlement(Bet.INSURANCE, pos.number, None, pos.insurance,
                                  returned_cents(pos.insurance, paytable.insurance) if won else 0,
                                  "win" if won else "lose"))
        if pos.player_pair:
            out.append(settle_side(Bet.PLAYER_PAIR, pos.player_pair, pair_class(*first_two),
                                   paytable, pos.number))
        if pos.twenty_one_three:
            out.append(settle_side(Bet.TWENTY_ONE_THREE, pos.twenty_one_three,
                                   three_class(*first_two, up), paytable, pos.number))
    if game.dealer_pair:
        out.append(settle_side(Bet.DEALER_PAIR, game.dealer_pair,
                               pair_class(game.dealer[0], game.dealer[1]), paytable, None))
    return out
