"""Punto e Banco: the rules, pure (RULES.md "Punto e Banco" and the regulation).

Cards 1 and 3 go to Punto, 2 and 4 to Banco; totals are the points modulo 10 (asso 1, 2..9 at
face value, 10 and figures 0). A natural (8 or 9 on two cards) ends the hand. Otherwise Punto
draws on 0-5 and stands on 6-7; Banco then draws on 0-5 if Punto stood, or follows the
regulation's table (its total against Punto's third card) if Punto drew.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from studio.cards import Card, Rank
from studio.odds import returned_cents, win_cents

ZERO_RANKS = frozenset({Rank.TEN, Rank.FANTE, Rank.CAVALLO, Rank.RE})


def points(card: Card) -> int:
    """Asso 1, 2..9 at face value, 10 and figures 0."""
    return 0 if card.rank in ZERO_RANKS else card.rank.number


def total(cards: Sequence[Card]) -> int:
    return sum(points(c) for c in cards) % 10


def is_natural(cards: Sequence[Card]) -> bool:
    """8 or 9 on the first two cards."""
    return len(cards) == 2 and total(cards) >= 8


def punto_draws(punto_total: int) -> bool:
    """Punto takes a third card on 0-5 and stands on 6-7 (8-9 is a natural)."""
    return punto_total <= 5


# The regulation's table, as it prints it: Banco's total -> S (sto) or C (carta) for Punto's
# third card worth 0..9. Banco at 8 or 9 has a natural; the hand ended before this table.
BANCO_TABLE: dict[int, str] = {
    7: "SSSSSSSSSS",
    6: "SSSSSSCCSS",
    5: "SSSSCCCCSS",
    4: "SSCCCCCCSS",
    3: "CCCCCCCCSC",
    2: "CCCCCCCCCC",
    1: "CCCCCCCCCC",
    0: "CCCCCCCCCC",
}


def banco_draws_by_points(banco_total: int, punto_third_points: int | None) -> bool:
    """Whether Banco takes a third card. `punto_third_points`: None when Punto stood."""
    if punto_third_points is None:
        return banco_total <= 5
    return BANCO_TABLE[banco_total][punto_third_points] == "C"


def banco_draws(banco_total: int, punto_third: Card | None) -> bool:
    return banco_draws_by_points(banco_total,
                                 None if punto_third is None else points(punto_third))


def next_card(punto: Sequence[Card], banco: Sequence[Card]) -> str | None:
    """Who gets the next card ("punto" or "banco"), or None when the hand is complete: the
    tableau is the rules', never the dealer's memory."""
    if len(punto) + len(banco) < 4:
        return "punto" if len(punto) == len(banco) else "banco"
    if is_natural(punto[:2]) or is_natural(banco[:2]):
        return None
    if len(punto) == 2 and len(banco) == 2 and punto_draws(total(punto)):
        return "punto"
    if len(banco) == 2 and banco_draws(total(banco), punto[2] if len(punto) == 3 else None):
        return "banco"
    return None


class Outcome(StrEnum):
    PUNTO = "punto"
    BANCO = "banco"
    PARI = "pari"


def outcome(punto: Sequence[Card], banco: Sequence[Card]) -> Outcome:
    p, b = total(punto), total(banco)
    return Outcome.PUNTO if p > b else Outcome.BANCO if b > p else Outcome.PARI


def is_pair(cards: Sequence[Card]) -> bool:
    """That side's first two cards of the same rank (suits do not count)."""
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


class Bet(StrEnum):
    PUNTO = "punto"
    BANCO = "banco"
    PARI = "pari"
    PUNTO_PAIR = "punto_pair"
    BANCO_PAIR = "banco_pair"


@dataclass(frozen=True, slots=True)
class Paytable:
    """Odds as "X:1" fractions; the commission on Banco's win as a fraction."""

    punto: Fraction = Fraction(1)
    banco: Fraction = Fraction(1)
    banco_commission: Fraction = Fraction(5, 100)
    pari: Fraction = Fraction(9)
    punto_pair: Fraction = Fraction(15)
    banco_pair: Fraction = Fraction(15)


@dataclass(frozen=True, slots=True)
class Settlement:
    returned: int  # stake included; 0 when lost
    result: str  # "win" | "lose" | "push"
    commission: int = 0  # the cents Banco's win gave up


def settle(bet: Bet, stake: int, punto: Sequence[Card], banco: Sequence[Card],
           paytable: Paytable) -> Settlement:
    """What one bet returns in integer cents; Banco's win less 5 % commission, truncated."""
    result = outcome(punto, banco)
    if bet in (Bet.PUNTO_PAIR, Bet.BANCO_PAIR):
        hit = is_pair(punto) if bet is Bet.PUNTO_PAIR else is_pair(banco)
        odds = paytable.punto_pair if bet is Bet.PUNTO_PAIR else paytable.banco_pair
        return Settlement(returned_cents(stake, odds), "win") if hit else Settlement(0, "lose")
    if bet is Bet.PARI:
        return (Settlement(returned_cents(stake, paytable.pari), "win")
                if result is Outcome.PARI else Settlement(0, "lose"))
    if result is Outcome.PARI:  # Punto and Banco bets come back on a tie
        return Settlement(stake, "push")
    if bet is Bet.PUNTO:
        return (Settlement(returned_cents(stake, paytable.punto), "win")
                if result is Outcome.PUNTO else Settlement(0, "lose"))
    if result is not Outcome.BANCO:
        return Settlement(0, "lose")
    gross = win_cents(stake, paytable.banco)
    net = win_cents(stake, paytable.banco * (1 - paytable.banco_commission))
    return Settlement(stake + net, "win", commission=gross - net)
