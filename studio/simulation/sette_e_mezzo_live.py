"""Monte Carlo rounds of Sette e Mezzo Live (one position against the dealer), played with the
rules module the tables use and the best-play decisions of the exact engine: a cross-check of
the enumeration that shares none of its arithmetic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from studio.cards import Card, DeckKind, deck
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_live import rules as live
from studio.mathematics.sette_e_mezzo_live import engine
from studio.simulation.tally import Tally


@dataclass
class SimulationResult:
    main: Tally
    partita_perfetta: Tally
    mano_di_poker: Tally


class _Deck:
    """A fresh 40-card deck; cards come out uniformly at random, drawn lazily."""

    def __init__(self, cards: list[Card], rng: random.Random) -> None:
        self.cards = list(cards)
        self.rng = rng

    def draw(self) -> Card:
        i = self.rng.randrange(len(self.cards))
        cards = self.cards
        cards[i], cards[-1] = cards[-1], cards[i]
        return cards.pop()


def simulate(rounds: int, seed: int, paytable: live.LivePaytable) -> SimulationResult:
    eng = engine(paytable)
    nets = {r: float(live.main_net(r, paytable)) for r in live.MainResult}
    rng = random.Random(seed)
    fresh = deck(DeckKind.ITALIAN_40)
    result = SimulationResult(Tally(), Tally(), Tally())
    empty = Hand()
    for _ in range(rounds):
        shoe = _Deck(fresh, rng)
        p1, d1 = shoe.draw(), shoe.draw()
        player_cards = [p1]
        player, dealer_first = empty.add(p1), empty.add(d1)
        left = eng.take(eng.take(eng.full, eng.class_of(p1)), eng.class_of(d1))
        # Partita Perfetta settles at the deal.
        odds = live.partita_perfetta_odds(live.partita_perfetta(p1, d1), paytable)
        result.partita_perfetta.add(float(odds) if odds is not None else -1.0)
        # Automatic draws and best-play decisions.
        while eng.hits(player, dealer_first, left):
            card = shoe.draw()
            player_cards.append(card)
            player = player.add(card)
            left = eng.take(left, eng.class_of(card))
        if player.bust or live.automatic_win(player, dealer_first):
            outcome = live.settle_main(player, dealer_first)
        else:
            dealer = dealer_first
            while live.dealer_must_draw(dealer):
                dealer = dealer.add(shoe.draw())
            outcome = live.settle_main(player, dealer)
        result.main.add(nets[outcome])
        # Mano di Poker: refunded (net 0) without a second card.
        if len(player_cards) < 2:
            result.mano_di_poker.add(0.0)
        else:
            kind = live.mano_di_poker([player_cards[0], player_cards[1], d1])
            odds = live.mano_di_poker_odds(kind, paytable)
            result.mano_di_poker.add(float(odds) if odds is not None else -1.0)
    return result
