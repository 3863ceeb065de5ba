"""Cards, decks and the one card code used everywhere (logs, wire protocol, API, UI).

The card code is two characters: rank then suit.

    rank: A 2 3 4 5 6 7 8 9 T J Q K
    suit: d = denari = quadri (diamonds)    c = coppe = cuori (hearts)
          b = bastoni = fiori (clubs)       s = spade = picche (spades)

Suit letters are the Italian initials (as in the card scans), never the English ones: ``c`` is
coppe/hearts, not clubs. In the 40-card decks (Italian art or French art) the figures are
``J`` = fante (donna), ``Q`` = cavallo, ``K`` = re, so one code names the same card of the game
whatever the art: ``Kd`` is the re di denari, the matta of Sette e Mezzo (the king of diamonds with
French cards). The 52-card French deck adds ``8``, ``9`` and ``T`` (ten).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum


class CardCodeError(ValueError):
    """A card code that is not one of the codes documented in this module."""

    code = "card.unknown_code"


class Suit(StrEnum):
    DENARI = "d"
    COPPE = "c"
    BASTONI = "b"
    SPADE = "s"


class Rank(StrEnum):
    ASSO = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    FANTE = "J"
    CAVALLO = "Q"
    RE = "K"

    @property
    def number(self) -> int:
        """Pip number: asso 1, 2..9, ten 10, J 11, Q 12, K 13 (the French scan numbering)."""
        return _RANK_NUMBER[self]

    @property
    def is_figure(self) -> bool:
        return self in (Rank.FANTE, Rank.CAVALLO, Rank.RE)


_RANK_NUMBER = {r: i for i, r in enumerate(Rank, start=1)}
_RANK_NUMBER[Rank.TEN] = 10
_RANK_NUMBER[Rank.FANTE] = 11
_RANK_NUMBER[Rank.CAVALLO] = 12
_RANK_NUMBER[Rank.RE] = 13


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: Rank
    suit: Suit

    @property
    def code(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    def __str__(self) -> str:
        return self.code

    @property
    def is_matta(self) -> bool:
        """The re di denari (king of diamonds): the wild card of every Sette e Mezzo variant."""
        return self.rank is Rank.RE and self.suit is Suit.DENARI


def parse_card(code: str) -> Card:
    """Parse a two-character card code; anything else raises CardCodeError."""
    if not isinstance(code, str) or len(code) != 2:
        raise CardCodeError(f"card code must be 2 characters (rank+suit), got {code!r}")
    try:
        return Card(Rank(code[0]), Suit(code[1]))
    except ValueError:
        raise CardCodeError(
            f"unknown card code {code!r}: rank one of {''.join(r.value for r in Rank)}, "
            f"suit one of {''.join(s.value for s in Suit)} (d denari, c coppe, b bastoni, s spade)"
        ) from None


def parse_cards(codes: Iterable[str] | str) -> list[Card]:
    """Parse a list of codes, or one string of codes separated by spaces or commas."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [parse_card(c) for c in codes]


MATTA = Card(Rank.RE, Suit.DENARI)


class DeckKind(StrEnum):
    ITALIAN_40 = "italian40"
    FRENCH_40 = "french40"
    FRENCH_52 = "french52"


class DeckArt(StrEnum):
    """The artwork a table shows; the 40-card arts share one set of card codes."""

    NAPOLETANE = "napoletane"
    PIACENTINE = "piacentine"
    FRENCH = "french"


RANKS_40: tuple[Rank, ...] = (
    Rank.ASSO, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
    Rank.FANTE, Rank.CAVALLO, Rank.RE,
)
RANKS_52: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = (Suit.DENARI, Suit.COPPE, Suit.BASTONI, Suit.SPADE)


def deck(kind: DeckKind | str) -> list[Card]:
    """One deck in a fixed, documented order (suit by suit, rank by rank)."""
    ranks = RANKS_52 if DeckKind(kind) is DeckKind.FRENCH_52 else RANKS_40
    return [Card(r, s) for s in SUITS for r in ranks]


def shoe(kind: DeckKind | str, decks: int = 1) -> list[Card]:
    """An N-deck shoe, unshuffled. Shuffling is the caller's (the RNG is injected)."""
    if decks < 1:
        raise ValueError("a shoe holds at least one deck")
    return deck(kind) * decks


def deck_kind_for_art(art: DeckArt | str) -> DeckKind:
    return DeckKind.FRENCH_40 if DeckArt(art) is DeckArt.FRENCH else DeckKind.ITALIAN_40


_ITALIAN_RANK_NAME = {
    Rank.ASSO: "asso", Rank.FANTE: "fante", Rank.CAVALLO: "cavallo", Rank.RE: "re",
}
_ITALIAN_SUIT_NAME = {
    Suit.DENARI: "denari", Suit.COPPE: "coppe", Suit.BASTONI: "bastoni", Suit.SPADE: "spade",
}
_FRENCH_SUIT_NAME = {
    Suit.DENARI: "quadri", Suit.COPPE: "cuori", Suit.BASTONI: "fiori", Suit.SPADE: "picche",
}
_FRENCH_RANK_NAME = {Rank.ASSO: "asso", Rank.TEN: "10", Rank.FANTE: "J", Rank.CAVALLO: "Q",
                     Rank.RE: "K"}


def card_name(card: Card, art: DeckArt | str = DeckArt.NAPOLETANE) -> str:
    """The card's Italian name in the table's art, e.g. 're di denari', 'K di quadri'."""
    if DeckArt(art) is DeckArt.FRENCH:
        rank = _FRENCH_RANK_NAME.get(card.rank, card.rank.value)
        return f"{rank} di {_FRENCH_SUIT_NAME[card.suit]}"
    rank = _ITALIAN_RANK_NAME.get(card.rank, card.rank.value)
    return f"{rank} di {_ITALIAN_SUIT_NAME[card.suit]}"


def scan_file_name(card: Card, art: DeckArt | str) -> str:
    """File name of the card's scan in shared/cards/<art>/ (Italian 8..10 are J Q K)."""
    art = DeckArt(art)
    if art is DeckArt.FRENCH:
        number = card.rank.number
    else:
        italian = {Rank.FANTE: 8, Rank.CAVALLO: 9, Rank.RE: 10}
        if card.rank in (Rank.EIGHT, Rank.NINE, Rank.TEN):
            raise CardCodeError(f"{card.code} is not in a 40-card deck")
        number = italian.get(card.rank, card.rank.number)
    return f"{number}{card.suit.value}.jpg"


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]

