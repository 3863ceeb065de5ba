"""Monte Carlo Blackjack through the game's own rules (`rules.new_game`, `deal`, `decide`,
`settle`): a fresh eight-deck shoe shuffled before every game, one position with a main bet and
both of its side bets plus Dealer Pair, played by the strategy table the mathematics prints.
The realised return of each bet, with its standard error, is set against the exact figure."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from studio.cards import Card, DeckKind, shoe
from studio.games.blackjack import rules
from studio.games.blackjack.rules import Action, Bet, Paytable
from studio.games.blackjack.strategy import Strategy
from studio.simulation.tally import Tally

STAKE = 1000  # cents: every bet's payout is a whole number of cents, nothing truncated


@dataclass
class SimulationResult:
    rounds: int
    seed: int
    bets: dict[Bet, Tally] = field(default_factory=dict)


def play_game(cards: list[Card], strategy: Strategy, paytable: Paytable) -> list[rules.Settlement]:
    """One game on a shuffled shoe (cards are popped from the end), by the strategy."""
    game = rules.new_game([rules.new_position(1, STAKE, STAKE, STAKE)], dealer_pair=STAKE)
    while not game.finished:
        if rules.next_card(game) is not None:
            game = rules.deal(game, cards.pop())
            continue
        if game.insurance_open:
            game = rules.decide(game, 1, Action.NO_INSURANCE)
            continue
        turn = game.turn()
        assert turn is not None
        number, i = turn
        hand = game.position(number).hands[i]
        legal = rules.legal_actions(game, number)
        action = strategy.choose(hand, rules.card_value(game.dealer[0]), legal)
        game = rules.decide(game, number, action)
    return rules.settle(game, paytable)


def simulate(rounds: int, seed: int, strategy: Strategy, paytable: Paytable | None = None,
             decks: int = rules.DECKS) -> SimulationResult:
    paytable = paytable or Paytable()
    rng = random.Random(seed)
    base = shoe(DeckKind.FRENCH_52, decks)
    result = SimulationResult(rounds, seed, {b: Tally() for b in
                                             (Bet.MAIN, Bet.PLAYER_PAIR, Bet.TWENTY_ONE_THREE,
                                              Bet.DEALER_PAIR)})
    for _ in range(rounds):
        cards = base.copy()
        rng.shuffle(cards)  # shuffled before every game
        net = dict.fromkeys(result.bets, 0)
        for s in play_game(cards, strategy, paytable):
            net[s.bet] += s.returned - s.stake
        for bet, tally in result.bets.items():
            tally.add(net[bet] / STAKE)  # per unit of the original bet
    return result
