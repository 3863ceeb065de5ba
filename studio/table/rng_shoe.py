"""The RNG shoe of virtual tables and simulations: a fresh deck of the game per round, shuffled with
a cryptographic generator, its order recorded (privately) so the audit can replay the round."""

from __future__ import annotations

import random
import secrets

from studio.cards import Card, DeckKind, deck


class RngShoe:
    name = "rng"

    def __init__(self, rng: random.Random | None = None,
                 cards: list[Card] | None = None) -> None:
        # SystemRandom draws from the OS's cryptographic source; a seeded Random only in
        # simulations and tests that must repeat.
        self.rng = rng or secrets.SystemRandom()
        self.cards = cards  # one deck of the table's game (the table sets it when absent)
        self._cards: list[Card] = []
        self.deck_set: str | None = None

    def new_deck(self, deck_set: str) -> list[Card]:
        cards = list(self.cards) if self.cards is not None else deck(DeckKind.ITALIAN_40)
        self.rng.shuffle(cards)
        self._cards = cards
        self.deck_set = deck_set
        return list(cards)

    def next_card(self) -> Card | None:
        return self._cards.pop(0) if self._cards else None
