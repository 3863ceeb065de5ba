"""Who wins between a punter and the banker, what a hand may do, and the cards on the table.

Hand values are the shared ones (`studio.games.sette_e_mezzo.Hand`, in halves, matta wild).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from studio.cards import Card
from studio.games.sette_e_mezzo import SETTE_E_MEZZO, Hand, card_halves
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError


def hand(cards: Iterable[Card]) -> Hand:
    return Hand.of(cards)


def banker_wins(punter: Hand, banker: Hand) -> bool:
    """Punter bust -> banker; else banker bust -> punter; else the higher total; every tie goes
    to the banker, without exception (a punter's two-card 7 1/2 with the matta too)."""
    if punter.bust:
        return True
    if banker.bust:
        return False
    return banker.total >= punter.total


def check_decision(cards: Sequence[Card], hit: bool) -> None:
    """A lone matta counts 1/2, so its holder must draw; at 7 1/2 a card can only bust, so
    "Tiro" is not offered there (our reading: the regulation shows only useful buttons)."""
    h = hand(cards)
    if not hit and h.is_lone_matta:
        raise MultiplayerError("mp.matta_must_draw", "a lone matta counts 1/2: draw a card")
    if hit and h.total >= SETTE_E_MEZZO:
        raise MultiplayerError("mp.cannot_hit", "7 1/2 cannot draw")


def may_stand(cards: Sequence[Card]) -> bool:
    return not hand(cards).is_lone_matta


def may_hit(cards: Sequence[Card]) -> bool:
    return hand(cards).total < SETTE_E_MEZZO


@dataclass(frozen=True, slots=True)
class Shoe:
    """What the rules know of the cards: which came out since the last shuffle, and whether a
    shuffle is due before the next card. The shuffle itself is the table's (its RNG)."""

    dealt: frozenset[Card] = frozenset()
    shuffle_due: bool = True  # every bank starts with a shuffle

    def deal(self, card: Card) -> Shoe:
        card_halves(card)  # a card of the 40-card deck (raises CardCodeError otherwise)
        if self.shuffle_due:
            raise MultiplayerError("mp.shuffle_due", "shuffle the cards before dealing")
        if card in self.dealt:
            raise MultiplayerError("mp.card_already_dealt", f"{card} came out since the shuffle")
        return replace(self, dealt=self.dealt | {card})

    def shuffled(self, in_play: Iterable[Card] = ()) -> Shoe:
        """After a shuffle only the cards still in play are out (a shoe run dry mid-hand is
        reshuffled from the discards, our reading: the regulation is silent)."""
        return Shoe(frozenset(in_play), False)
