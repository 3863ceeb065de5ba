"""Sette e Mezzo hand values, shared by every variant (Live, Quota Fissa, multiplayer).

Values are counted in half points ("halves") so that all arithmetic is on integers:
a figure is 1, an asso 2, a seven 14, and 7 1/2 is 15. A hand is summarised by what the rules
need of it, so the exact mathematics can enumerate hands without holding card lists:
the halves of its ordinary cards, how many mattas it holds, and how many cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import NamedTuple

from studio.cards import Card, CardCodeError, Rank

SETTE_E_MEZZO = 15  # 7 1/2 in halves
SEVEN = 14
FIVE = 10

# What the matta may be worth in a hand of two or more cards (RULES.md): 1/2, 1, 2, ..., 7.
MATTA_VALUES: tuple[int, ...] = (1, 2, 4, 6, 8, 10, 12, 14)

_HALVES = {
    Rank.ASSO: 2, Rank.TWO: 4, Rank.THREE: 6, Rank.FOUR: 8, Rank.FIVE: 10, Rank.SIX: 12,
    Rank.SEVEN: 14, Rank.FANTE: 1, Rank.CAVALLO: 1, Rank.RE: 1,
}


def card_halves(card: Card) -> int:
    """Face value in halves of a card of the 40-card deck (the matta alone counts 1/2)."""
    try:
        return _HALVES[card.rank]
    except KeyError:
        raise CardCodeError(f"{card.code} is not a card of the 40-card deck") from None


@cache
def best_with_mattas(others: int, mattas: int) -> int:
    """Highest total not above 7 1/2 the mattas can make with `others` halves; bust if none.

    One matta exists in a 40-card deck; more are handled for completeness (each is wild).
    """
    lowest = others + mattas  # every matta at 1/2
    if mattas == 0 or lowest > SETTE_E_MEZZO:
        return lowest
    best = lowest
    for v in MATTA_VALUES:
        t = best_with_mattas(others + v, mattas - 1)
        if best < t <= SETTE_E_MEZZO:
            best = t
    return best


class Hand(NamedTuple):
    """A Sette e Mezzo hand as the rules see it. Immutable; `add` returns a new hand."""

    others: int = 0  # halves of the cards that are not the matta
    mattas: int = 0
    count: int = 0

    @staticmethod
    def of(cards: Iterable[Card]) -> Hand:
        h = Hand()
        for c in cards:
            h = h.add(c)
        return h

    @staticmethod
    def of_dealt(cards: tuple[Card, ...]) -> Hand:
        """`of(cards)` for a round's dealt cards, computed once per sequence: each of
        10,000 players' views asks for the same position's and dealer's hands."""
        return _hand_of(cards)

    def add(self, card: Card) -> Hand:
        if card.is_matta:
            return Hand(self.others, self.mattas + 1, self.count + 1)
        return Hand(self.others + card_halves(card), self.mattas, self.count + 1)

    @property
    def total(self) -> int:
        """Value in halves. The matta alone is 1/2; with other cards it is chosen again."""
        if self.mattas == 0:
            return self.others
        if self.count == self.mattas == 1:
            return 1
        return best_with_mattas(self.others, self.mattas)

    @property
    def bust(self) -> bool:
        return self.total > SETTE_E_MEZZO

    @property
    def is_lone_matta(self) -> bool:
        return self.count == 1 and self.mattas == 1

    @property
    def royal(self) -> bool:
        """Sette e Mezzo Royal: exactly two cards, the matta plus a figure or a 7.

        Of the ordinary cards only a figure is worth 1 half and only a 7 is worth 14, so the
        other card's halves identify it.
        """
        return self.count == 2 and self.mattas == 1 and self.others in (1, SEVEN)


def format_halves(halves: int) -> str:
    """7 1/2 style text for a total in halves (used by logs, CLI and pages)."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole} 1/2" if whole else "1/2"


@lru_cache(maxsize=1024)
def _hand_of(cards: tuple[Card, ...]) -> Hand:
    return Hand.of(cards)
