"""Exact enumeration of a one-position Sette e Mezzo round against the dealer (or bank).

No sampling: every card order of a fresh 40-card deck is weighed by its probability. The engine
knows nothing of any game's rules: it is handed the game's own rule functions (`GameRules`), the
same functions the tables call, so the figures follow the rules code and the config's paytable.

Cards that the rules cannot tell apart (the eleven ordinary figures, the four aces, ...) are
grouped into classes, and the remaining deck is a tuple of counts per class. The player's best
decision is taken given every card seen (their own and the dealer's first card), as RULES.md asks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from studio.cards import Card
from studio.games.sette_e_mezzo import SETTE_E_MEZZO, Hand, card_halves

Deck = tuple[int, ...]


@dataclass(frozen=True)
class GameRules:
    """The rule functions of one game, as the engine needs them."""

    must_draw: Callable[[Hand, Hand], bool]  # the player draws with no choice
    may_decide: Callable[[Hand, Hand], bool]  # the player chooses hit or stand
    dealer_must_draw: Callable[[Hand], bool]
    net: Callable[[Hand, Hand], float]  # player's net per unit staked against a final dealer hand
    # Paid before the dealer plays (Live's automatic win); None where the game has none.
    automatic_win: Callable[[Hand, Hand], bool] | None = None


def card_class(card: Card) -> tuple[bool, int]:
    """What the rules can see of a card: whether it is the matta, and its halves."""
    return (card.is_matta, card_halves(card))


class Enumerator:
    """Exact expected values under best play; memoised, so reuse one instance per paytable."""

    def __init__(self, rules: GameRules, cards: Sequence[Card], *, plain: bool = False) -> None:
        """`plain=True` weighs the dealer's draws by the straightforward recursion instead of the
        precomputed paths: slower, kept as the reference the tests and the benchmark compare."""
        self.rules = rules
        self.plain = plain
        classes: dict[tuple[bool, int], int] = {}
        reps: list[Card] = []
        counts: list[int] = []
        for c in cards:
            k = card_class(c)
            if k not in classes:
                classes[k] = len(reps)
                reps.append(c)
                counts.append(0)
            counts[classes[k]] += 1
        self.classes = classes
        self.reps: tuple[Card, ...] = tuple(reps)
        self.full: Deck = tuple(counts)
        self._add: dict[tuple[Hand, int], Hand] = {}
        self._paths: dict[Hand, _DealerPaths] = {}
        self._dealer: dict[tuple[Deck, Hand], dict[Hand, float]] = {}
        self._value: dict[tuple[Hand, Hand, Deck], float] = {}
        self._stand: dict[tuple[Hand, Hand, Deck], float] = {}

    # ------------------------------------------------------------------ helpers

    def class_of(self, card: Card) -> int:
        return self.classes[card_class(card)]

    def add(self, hand: Hand, i: int) -> Hand:
        key = (hand, i)
        h = self._add.get(key)
        if h is None:
            h = self._add[key] = hand.add(self.reps[i])
        return h

    @staticmethod
    def take(deck: Deck, i: int) -> Deck:
        return deck[:i] + (deck[i] - 1,) + deck[i + 1:]

    @staticmethod
    def _canonical(dealer: Hand) -> Hand:
        """Collapse final dealer hands that settle alike, to keep the distributions short."""
        if dealer.bust:
            return Hand(SETTE_E_MEZZO + 1, 0, 3)
        if dealer.royal:
            return dealer
        return Hand(dealer.total, 0, 3)

    # ------------------------------------------------------------------ dealer

    def dealer_outcomes(self, deck: Deck, dealer: Hand) -> dict[Hand, float]:
        """Distribution of the dealer's final hand, drawing from `deck` by the dealer policy."""
        key = (deck, dealer)
        dist = self._dealer.get(key)
        if dist is not None:
            return dist
        if not self.rules.dealer_must_draw(dealer):
            dist = {self._canonical(dealer): 1.0}
        else:
            dist = {}
            n = sum(deck)
            for i, k in enumerate(deck):
                if not k:
                    continue
                p = k / n
                for h, q in self.dealer_outcomes(self.take(deck, i), self.add(dealer, i)).items():
                    dist[h] = dist.get(h, 0.0) + p * q
        self._dealer[key] = dist
        return dist

    def dealer_paths(self, dealer_first: Hand) -> _DealerPaths:
        paths = self._paths.get(dealer_first)
        if paths is None:
            paths = self._paths[dealer_first] = _DealerPaths.build(self, dealer_first)
        return paths

    def dealer_distribution(self, deck: Deck, dealer_first: Hand) -> dict[Hand, float]:
        """Same distribution as `dealer_outcomes`, computed from the precomputed paths."""
        return self.dealer_paths(dealer_first).distribution(deck)

    # ------------------------------------------------------------------ player

    def stand_ev(self, player: Hand, dealer_first: Hand, deck: Deck) -> float:
        key = (player, dealer_first, deck)
        ev = self._stand.get(key)
        if ev is not None:
            return ev
        rules = self.rules
        if player.bust or (rules.automatic_win is not None
                           and rules.automatic_win(player, dealer_first)):
            ev = rules.net(player, dealer_first)
        elif self.plain:
            ev = sum(q * rules.net(player, h)
                     for h, q in self.dealer_outcomes(deck, dealer_first).items())
        else:
            ev = self.dealer_paths(dealer_first).expected_net(deck, player, rules.net)
        self._stand[key] = ev
        return ev

    def draw_ev(self, player: Hand, dealer_first: Hand, deck: Deck) -> float:
        """Expected value of taking one card now and playing on at best."""
        n = sum(deck)
        return sum(
            k / n * self.value(self.add(player, i), dealer_first, self.take(deck, i))
            for i, k in enumerate(deck) if k
        )

    def value(self, player: Hand, dealer_first: Hand, deck: Deck) -> float:
        """Expected net of the position from here, with the best decision at every choice."""
        key = (player, dealer_first, deck)
        v = self._value.get(key)
        if v is not None:
            return v
        rules = self.rules
        if player.bust:
            v = -1.0
        elif rules.must_draw(player, dealer_first):
            v = self.draw_ev(player, dealer_first, deck)
        elif rules.may_decide(player, dealer_first):
            v = max(self.stand_ev(player, dealer_first, deck),
                    self.draw_ev(player, dealer_first, deck))
        else:
            v = self.stand_ev(player, dealer_first, deck)
        self._value[key] = v
        return v

    def best_is_hit(self, player: Hand, dealer_first: Hand, deck: Deck) -> bool:
        """The best decision where the player chooses (ties go to Stai)."""
        return self.draw_ev(player, dealer_first, deck) > self.stand_ev(player, dealer_first, deck)

    def hits(self, player: Hand, dealer_first: Hand, deck: Deck) -> bool:
        """Whether the position takes a card here under best play (forced or chosen)."""
        if player.bust:
            return False
        if self.rules.must_draw(player, dealer_first):
            return True
        return self.rules.may_decide(player, dealer_first) and self.best_is_hit(
            player, dealer_first, deck)

    # ------------------------------------------------------------------ the round

    def deals(self):
        """Every (player first card class, dealer first card class, probability, deck left)."""
        full = self.full
        n = sum(full)
        for i, ki in enumerate(full):
            d1 = self.take(full, i)
            for j, kj in enumerate(d1):
                if not kj:
                    continue
                yield i, j, ki / n * kj / (n - 1), self.take(d1, j)

    def expected_net(self) -> float:
        total = 0.0
        for i, j, p, deck in self.deals():
            total += p * self.value(self.add(Hand(), i), self.add(Hand(), j), deck)
        return total

    def reach(self) -> dict[tuple[Hand, Hand, Deck], float]:
        """Probability of reaching every state of the round under best play (forward pass).

        Keys are (player hand, dealer first card, deck left); a state is listed once even when
        several card orders lead to it, since the deck left identifies the player's cards.
        """
        frontier: dict[tuple[Hand, Hand, Deck], float] = {}
        for i, j, p, deck in self.deals():
            key = (self.add(Hand(), i), self.add(Hand(), j), deck)
            frontier[key] = frontier.get(key, 0.0) + p
        seen: dict[tuple[Hand, Hand, Deck], float] = {}
        while frontier:
            nxt: dict[tuple[Hand, Hand, Deck], float] = {}
            for (player, dealer_first, deck), p in frontier.items():
                seen[(player, dealer_first, deck)] = p
                if not self.hits(player, dealer_first, deck):
                    continue
                n = sum(deck)
                for i, k in enumerate(deck):
                    if k:
                        key = (self.add(player, i), dealer_first, self.take(deck, i))
                        nxt[key] = nxt.get(key, 0.0) + p * k / n
            frontier = nxt
        return seen


class _DealerPaths:
    """All the ways the dealer can draw from a given first card, grouped for speed.

    The dealer's draws stop at the first total of 5 or more, so which orders of cards are
    possible does not depend on the deck, only their probabilities do. We enumerate once the
    draw sequences (by card class), group them by multiset (the final hand depends only on the
    multiset) with the number of valid orders, and for a given deck weigh each multiset by
    orders * prod(falling factorial of each class count) / falling factorial of the deck size.
    Equal to the plain recursion (`Enumerator.dealer_outcomes`), which the tests compare.
    """

    def __init__(self, multisets: np.ndarray, orders: np.ndarray, lengths: np.ndarray,
                 outcome_index: np.ndarray, outcomes: list[Hand]) -> None:
        self.multisets = multisets  # (K, classes) int
        self.orders = orders.astype(float)  # (K,)
        self.lengths = lengths  # (K,)
        self.outcome_index = outcome_index  # (K,)
        self.outcomes = outcomes
        self.max_draw = int(multisets.max(initial=0))
        self.max_length = int(lengths.max(initial=0))
        self._cols = np.arange(multisets.shape[1])
        self._steps = np.arange(self.max_draw, dtype=float)[None, :]
        self._length_steps = np.arange(self.max_length, dtype=float)
        self._net_cache: dict[Hand, np.ndarray] = {}

    @staticmethod
    def build(engine: Enumerator, dealer_first: Hand) -> _DealerPaths:
        classes = len(engine.full)
        bound = list(engine.full)
        groups: dict[tuple[tuple[int, ...], Hand], int] = {}
        counts = [0] * classes

        def walk(hand: Hand) -> None:
            if not engine.rules.dealer_must_draw(hand):
                key = (tuple(counts), engine._canonical(hand))
                groups[key] = groups.get(key, 0) + 1
                return
            for i in range(classes):
                if counts[i] < bound[i]:
                    counts[i] += 1
                    walk(engine.add(hand, i))
                    counts[i] -= 1

        walk(dealer_first)
        outcomes: list[Hand] = []
        index: dict[Hand, int] = {}
        rows, orders, lengths, out_idx = [], [], [], []
        for (ms, outcome), n in groups.items():
            if outcome not in index:
                index[outcome] = len(outcomes)
                outcomes.append(outcome)
            rows.append(ms)
            orders.append(n)
            lengths.append(sum(ms))
            out_idx.append(index[outcome])
        return _DealerPaths(np.array(rows, dtype=np.int64).reshape(len(rows), classes),
                            np.array(orders), np.array(lengths, dtype=np.int64),
                            np.array(out_idx, dtype=np.int64), outcomes)

    def distribution_vector(self, deck: Deck) -> np.ndarray:
        counts = np.array(deck, dtype=float)
        # falling[c, k] = deck[c] * (deck[c]-1) * ... (k factors): ways to draw k cards of class c
        steps = np.clip(counts[:, None] - self._steps, 0, None)
        falling = np.ones((len(deck), self.max_draw + 1))
        np.cumprod(steps, axis=1, out=falling[:, 1:])
        denom = np.ones(self.max_length + 1)
        np.cumprod(np.clip(counts.sum() - self._length_steps, 0, None), out=denom[1:])
        weights = falling[self._cols, self.multisets].prod(axis=1) * self.orders
        weights /= denom[self.lengths]
        return np.bincount(self.outcome_index, weights, minlength=len(self.outcomes))

    def distribution(self, deck: Deck) -> dict[Hand, float]:
        vec = self.distribution_vector(deck)
        return {h: float(q) for h, q in zip(self.outcomes, vec) if q > 0}

    def expected_net(self, deck: Deck, player: Hand, net: Callable[[Hand, Hand], float]) -> float:
        nets = self._net_cache.get(player)
        if nets is None:
            nets = self._net_cache[player] = np.array([net(player, h) for h in self.outcomes])
        return float(self.distribution_vector(deck) @ nets)
