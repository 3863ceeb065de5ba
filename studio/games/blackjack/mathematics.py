"""The mathematics of Blackjack: the main game's return under the best composition-dependent
play, the basic-strategy table it implies, and each side bet's exact return.

Main game (floats: exact fractions would be far too slow). The player decides knowing its own
cards and the dealer's up card: every expected value is taken against the full shoe less those
cards ("composition-dependent"). The dealer's final hand is weighed exactly on that remaining
composition: its draw sequences from each up card are enumerated once (`DealerPaths`, grouped
by the multiset of cards drawn, with the number of orders the dealer's rule lets happen), and
on a composition each multiset's probability is a product of falling factorials. The dealer's
distribution is memoised on (cards removed, up card), the player's values on (the player's
cards as a multiset, up card, the other split card). No peek: the hole card is one of the
remaining cards, so a dealer blackjack is one of the dealer's outcomes and takes doubles and
split hands too.

Split (the one approximation): EV(split) = 2 x EV of one hand that starts with one card of the
pair and is played best for its own cards (hit or stand: no double after a split, no resplit),
against the shoe less the up card, both cards of the pair and that hand's own draws. The other
hand's drawn cards are not removed (they are not known when the first is played, and the second
is valued as if the first drew nothing): the usual "post-split composition" approximation.
Everything else is exact for the composition-dependent player.

The rules are the game's own (`rules.score_values`, `rules.dealer_must_draw`,
`rules.main_result`, `rules.pair_class`, `rules.three_class`): no second copy here. Insurance is
never worth taking with eight decks (at most 128 tens in 413 unseen cards, below 1/3), so best
play declines it and the main figure is unchanged by it; its own return is reported.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from studio.cards import DeckKind, Rank, shoe
from studio.games.blackjack import rules
from studio.games.blackjack.rules import Bet, PairClass, Paytable, Result, Score, ThreeClass
from studio.games.blackjack.strategy import Strategy, row_label

VALUES = tuple(range(1, 11))  # ace = 1 ... ten-valued = 10; index = value - 1
Counts = tuple[int, ...]  # cards of each value, ace first

# The dealer's final hands, as the rules score them: 17..21, blackjack, bust.
DEALER_FINALS: tuple[Score, ...] = (
    *(Score(t, False, False, False) for t in range(17, 22)),
    Score(21, False, False, True),
    Score(22, False, True, False),
)
DEALER_LABELS = ("17", "18", "19", "20", "21", "blackjack", "bust")


def shoe_counts(decks: int) -> Counts:
    """Cards of each value in a shoe of `decks` French 52-card decks."""
    counts = [0] * 10
    for card in shoe(DeckKind.FRENCH_52, decks):
        counts[rules.card_value(card) - 1] += 1
    return tuple(counts)


def final_index(s: Score) -> int:
    if s.bust:
        return 6
    if s.blackjack:
        return 5
    return s.total - 17


@dataclass(frozen=True)
class DealerPaths:
    """Every way the dealer can complete a hand from one up card, by multiset of cards drawn
    (the hole card included): how many draw orders the rule allows, and the final hand."""

    drawn: np.ndarray  # (paths, 10) cards of each value drawn
    orders: np.ndarray  # (paths,) number of draw orders the dealer rule lets happen
    sizes: np.ndarray  # (paths,) cards drawn
    final: np.ndarray  # (paths,) index into DEALER_FINALS

    @classmethod
    def enumerate(cls, up: int) -> DealerPaths:
        found: dict[Counts, list[int]] = {}
        values = [up]
        drawn = [0] * 10

        def walk() -> None:
            s = rules.score_values(values)
            if not rules.dealer_must_draw(s.total, s.soft):
                key = tuple(drawn)
                entry = found.setdefault(key, [0, final_index(s)])
                entry[0] += 1
                return
            for v in VALUES:
                values.append(v)
                drawn[v - 1] += 1
                walk()
                drawn[v - 1] -= 1
                values.pop()

        walk()
        keys = list(found)
        return cls(np.array(keys, dtype=np.int64),
                   np.array([found[k][0] for k in keys], dtype=np.float64),
                   np.array([sum(k) for k in keys], dtype=np.int64),
                   np.array([found[k][1] for k in keys], dtype=np.int64))

    def distribution(self, left: Counts) -> np.ndarray:
        """Probability of each dealer final hand with `left` cards in the shoe (up card out)."""
        c = np.array(left, dtype=np.float64)
        depth = int(self.drawn.max()) + 1
        # falling[i, k] = c_i (c_i - 1) ... (c_i - k + 1)
        steps = np.maximum(c[:, None] - np.arange(depth - 1)[None, :], 0.0)
        falling = np.concatenate([np.ones((10, 1)), np.cumprod(steps, axis=1)], axis=1)
        n = float(sum(left))
        total = np.concatenate([[1.0], np.cumprod(n - np.arange(int(self.sizes.max())))])
        weight = falling[np.arange(10)[None, :], self.drawn].prod(axis=1)
        p = self.orders * weight / total[self.sizes]
        return np.bincount(self.final, weights=p, minlength=len(DEALER_FINALS))


def _net(result: Result, paytable: Paytable) -> float:
    """Net per unit staked for a main-bet result (the game's own settlement, as odds)."""
    return {Result.BLACKJACK: float(paytable.blackjack), Result.WIN: float(paytable.win),
            Result.PUSH: 0.0, Result.LOSE: -1.0}[result]


def _with(counts: Counts, i: int, k: int = 1) -> Counts:
    out = list(counts)
    out[i] += k
    return tuple(out)


@cache
def _score(hand: Counts, from_split: bool) -> Score:
    values = [v for v, n in zip(VALUES, hand, strict=True) for _ in range(n)]
    return rules.score_values(values, from_split)


class Solver:
    """Composition-dependent expected values for one shoe and paytable (memoised: reuse)."""

    def __init__(self, decks: int = rules.DECKS, paytable: Paytable | None = None) -> None:
        self.decks = decks
        self.paytable = paytable or Paytable()
        self.full = shoe_counts(decks)
        self.paths = {u: DealerPaths.enumerate(u) for u in VALUES}
        # net of a player score (total, blackjack) against each dealer final, by main_result
        self._nets: dict[tuple[int, bool], np.ndarray] = {}
        self._dealer: dict[tuple[Counts, int], np.ndarray] = {}
        self._stand: dict[tuple[Counts, int, int], float] = {}
        self._play: dict[tuple[Counts, int, int], float] = {}
        self._hit: dict[tuple[Counts, int, int], float] = {}

    # ------------------------------------------------------------------ building blocks

    def left(self, removed: Counts, up: int) -> Counts:
        """The shoe less the up card and `removed`."""
        return tuple(f - r - (i == up - 1) for i, (f, r) in
                     enumerate(zip(self.full, removed, strict=True)))

    def dealer(self, removed: Counts, up: int) -> np.ndarray:
        key = (removed, up)
        d = self._dealer.get(key)
        if d is None:
            d = self._dealer[key] = self.paths[up].distribution(self.left(removed, up))
        return d

    def nets(self, s: Score) -> np.ndarray:
        key = (s.total, s.blackjack)
        v = self._nets.get(key)
        if v is None:
            v = self._nets[key] = np.array(
                [_net(rules.main_result(s, d), self.paytable) for d in DEALER_FINALS])
        return v

    def stand(self, hand: Counts, up: int, extra: int = 0) -> float:
        """Net per unit when the hand stands; `extra`: the value of the other split card (0:
        not a split hand), which is out of the shoe."""
        key = (hand, up, extra)
        v = self._stand.get(key)
        if v is None:
            s = _score(hand, extra != 0)
            if s.bust:
                v = -1.0
            else:
                removed = _with(hand, extra - 1) if extra else hand
                v = float(self.nets(s) @ self.dealer(removed, up))
            self._stand[key] = v
        return v

    def draws(self, hand: Counts, up: int, extra: int = 0) -> Iterable[tuple[float, Counts]]:
        """Each card the hand can draw: its probability and the hand after it."""
        left = self.left(_with(hand, extra - 1) if extra else hand, up)
        n = sum(left)
        for i, c in enumerate(left):
            if c:
                yield c / n, _with(hand, i)

    def play(self, hand: Counts, up: int, extra: int = 0) -> float:
        """Best of hit and stand from here (no double: after a hit or a split)."""
        key = (hand, up, extra)
        v = self._play.get(key)
        if v is None:
            v = self._play[key] = max(self.stand(hand, up, extra), self.hit(hand, up, extra))
        return v

    def hit(self, hand: Counts, up: int, extra: int = 0) -> float:
        """One more card, then the best play (a bust loses the stake)."""
        key = (hand, up, extra)
        v = self._hit.get(key)
        if v is None:
            v = 0.0
            for p, after in self.draws(hand, up, extra):
                v += p * (-1.0 if _score(after, True).bust else self.play(after, up, extra))
            self._hit[key] = v
        return v

    def double(self, hand: Counts, up: int) -> float:
        return 2.0 * sum(p * self.stand(after, up) for p, after in self.draws(hand, up))

    def split(self, value: int, up: int) -> float:
        """Two hands from the pair, each valued alone against the post-split composition."""
        pair = _with((0,) * 10, value - 1, 2)
        single = _with((0,) * 10, value - 1)
        left = self.left(pair, up)
        n = sum(left)
        ev = sum(c / n * self.play(_with(single, i), up, value)
                 for i, c in enumerate(left) if c)
        return 2.0 * ev

    # ------------------------------------------------------------------ the first decision

    def options(self, first: int, second: int, up: int) -> dict[str, float]:
        """Every legal first decision's net per unit on two cards of these values (a pair of
        values may split; a blackjack stands)."""
        hand = _with(_with((0,) * 10, first - 1), second - 1)
        if _score(hand, False).blackjack:
            return {"S": self.stand(hand, up)}
        out = {"S": self.stand(hand, up), "H": self.hit(hand, up), "D": self.double(hand, up)}
        if first == second:
            out["P"] = self.split(first, up)
        return out


def initial_weights(full: Counts) -> Iterable[tuple[int, int, int, float]]:
    """(first, second, up, probability) of the player's two values and the dealer's up card,
    first <= second (exchangeable: the order of the three cards does not matter)."""
    n = sum(full)
    for a, b in itertools.combinations_with_replacement(VALUES, 2):
        for u in VALUES:
            c = list(full)
            p = 1.0
            for i, v in enumerate((a, b, u)):
                p *= c[v - 1] / (n - i)
                c[v - 1] -= 1
            yield a, b, u, p * (1 if a == b else 2)


def same_rank_share(decks: int) -> float:
    """Of two ten-valued cards, the share that is one rank (a pair the rules let split)."""
    per_rank = 4 * decks
    tens = 4 * per_rank
    return 4 * per_rank * (per_rank - 1) / (tens * (tens - 1))


@dataclass(frozen=True)
class StrategyCell:
    row: str  # "hard 12", "soft 18", "pair 8"
    up: int
    action: str  # S H D P (D: double, else hit; 'Ds': double, else stand)
    weight: float


@dataclass(frozen=True)
class MainReport:
    decks: int
    expected_net: float  # per unit of the original bet
    options_ev: dict[tuple[int, int, int, bool], dict[str, float]]
    table: list[StrategyCell]
    after_first: dict[tuple[str, int, int], str]  # ("hard"/"soft", total, up) -> H or S

    @property
    def return_(self) -> float:
        return 1.0 + self.expected_net

    def strategy(self) -> Strategy:
        """The table as a player (what the simulation plays)."""
        return Strategy({(c.row, c.up): c.action for c in self.table}, dict(self.after_first))


@cache
def main_game(decks: int = rules.DECKS, paytable: Paytable | None = None,
              solver_class: type[Solver] | None = None) -> MainReport:
    """Best composition-dependent play: its return and the strategy table it implies
    (computed once per shoe and paytable in a process: a configuration load asks too)."""
    solver = (solver_class or Solver)(decks, paytable)
    share = same_rank_share(decks)
    total = 0.0
    options_ev: dict[tuple[int, int, int, bool], dict[str, float]] = {}
    cells: dict[tuple[str, int], dict[str, float]] = {}
    weights: dict[tuple[str, int], float] = {}
    for a, b, u, p in initial_weights(solver.full):
        opts = solver.options(a, b, u)
        if a == b == 10:  # only a same-rank pair splits; two different tens are hard 20
            splits = [(share, True), (1 - share, False)]
        else:
            splits = [(1.0, a == b)]
        for frac, pair in splits:
            allowed = opts if pair else {k: v for k, v in opts.items() if k != "P"}
            options_ev[(a, b, u, pair)] = allowed
            total += p * frac * max(allowed.values())
            if len(allowed) > 1:  # a blackjack needs no decision
                key = (row_label(a, b, pair), u)
                cell = cells.setdefault(key, dict.fromkeys(allowed, 0.0))
                for k, v in allowed.items():
                    cell[k] += p * frac * v
                weights[key] = weights.get(key, 0.0) + p * frac
    table = []
    for (row, u), evs in cells.items():
        best = max(evs, key=evs.__getitem__)
        if best == "D":  # the fallback where a double is not allowed
            best = "D" if evs["H"] >= evs["S"] else "Ds"
        table.append(StrategyCell(row, u, best, weights[(row, u)]))
    return MainReport(decks, total, options_ev, table, _after_first(solver))


def _after_first(solver: Solver) -> dict[tuple[str, int, int], str]:
    """Hit or stand for a hand past its first decision (three cards or more, or a split hand),
    by total and softness: the action best on average over the hands of that class, each
    weighed by how likely its cards are."""
    sums: dict[tuple[str, int, int], list[float]] = {}
    n = sum(solver.full)

    def walk(hand: list[int], start: int, cards: int, hard: int) -> None:
        if cards >= 3:
            key_hand = tuple(hand)
            s = _score(key_hand, False)
            prob = _multiset_probability(solver.full, key_hand, n)
            for u in VALUES:
                if any(hand[i] + (i == u - 1) > solver.full[i] for i in range(10)):
                    continue
                st = solver.stand(key_hand, u)
                ht = solver.hit(key_hand, u)
                key = ("soft" if s.soft else "hard", s.total, u)
                acc = sums.setdefault(key, [0.0, 0.0])
                acc[0] += prob * st
                acc[1] += prob * ht
        for v in range(start, 11):
            if hard + v > 20:  # 21 or more: no decision worth asking
                break
            hand[v - 1] += 1
            walk(hand, v, cards + 1, hard + v)
            hand[v - 1] -= 1

    walk([0] * 10, 1, 0, 0)
    return {k: ("H" if h > s else "S") for k, (s, h) in sums.items()}


def _multiset_probability(full: Counts, hand: Counts, n: int) -> float:
    """Probability that the first cards dealt are this multiset, in any order."""
    ways = math.prod(math.comb(f, h) for f, h in zip(full, hand, strict=True))
    return ways / math.comb(n, sum(hand))


# --------------------------------------------------------------------------- side bets (exact)

@cache
def _card_counts(decks: int) -> tuple[tuple[object, int], ...]:
    counts: dict[object, int] = {}
    for card in shoe(DeckKind.FRENCH_52, decks):
        counts[card] = counts.get(card, 0) + 1
    return tuple(counts.items())


@cache
def pair_probabilities(decks: int) -> dict[PairClass, Fraction]:
    """A side's first two cards, by `rules.pair_class`: any two cards of the shoe."""
    cards = _card_counts(decks)
    n = sum(k for _, k in cards)
    weights = dict.fromkeys(PairClass, 0)
    for (c1, k1), (c2, k2) in itertools.product(cards, repeat=2):
        if c1.rank != c2.rank:  # type: ignore[attr-defined]
            continue  # no pair: skip the 2,500 pairs the rules would reject
        cls = rules.pair_class(c1, c2)  # type: ignore[arg-type]
        if cls is not None:
            weights[cls] += k1 * (k2 - (c1 == c2))
    return {c: Fraction(w, n * (n - 1)) for c, w in weights.items()}


@cache
def three_probabilities(decks: int) -> dict[ThreeClass, Fraction]:
    """21+3: the player's two cards and the dealer's up card, any three cards of the shoe,
    classed by `rules.three_class`."""
    cards = _card_counts(decks)
    n = sum(k for _, k in cards)
    weights = dict.fromkeys(ThreeClass, 0)
    for (c1, k1), (c2, k2) in itertools.product(cards, repeat=2):
        if c1.rank != c2.rank and c1.suit != c2.suit:  # type: ignore[attr-defined]
            continue  # neither a tris nor a colour can follow
        w12 = k1 * (k2 - (c1 == c2))
        for c3, k3 in cards:
            cls = rules.three_class(c1, c2, c3)  # type: ignore[arg-type]
            if cls is not None:
                weights[cls] += w12 * (k3 - (c3 == c1) - (c3 == c2))
    return {c: Fraction(w, n * (n - 1) * (n - 2)) for c, w in weights.items()}


def insurance_return(paytable: Paytable, decks: int = rules.DECKS) -> Fraction:
    """Insurance when the dealer shows an ace, knowing only the up card: the hole card is
    ten-valued with probability tens / (cards - 1)."""
    tens = sum(4 * decks for r in Rank if rules.value_of_rank(r) == 10)
    p = Fraction(tens, 52 * decks - 1)
    return p * (1 + paytable.insurance)


def side_returns(paytable: Paytable, decks: int = rules.DECKS) -> dict[Bet, Fraction]:
    """Expected amount back per unit staked (1 = 100 %), exact."""
    pairs = pair_probabilities(decks)
    threes = three_probabilities(decks)
    pair = sum((p * (1 + paytable.pair_odds(c)) for c, p in pairs.items()), Fraction(0))
    three = sum((p * (1 + paytable.three_odds(c)) for c, p in threes.items()), Fraction(0))
    return {Bet.PLAYER_PAIR: pair, Bet.DEALER_PAIR: pair, Bet.TWENTY_ONE_THREE: three,
            Bet.INSURANCE: insurance_return(paytable, decks)}




# The main game's return under best play for the regulation's odds (win 1:1, blackjack 3:2),
# by decks: what `main_game` computes in about 9 s, kept so that loading a configuration (every
# process of the studio, every test) does not pay it. tests/test_blackjack_table.py recomputes
# it and compares.
KNOWN_MAIN_RETURNS: dict[tuple[int, Fraction, Fraction], float] = {
    (8, Fraction(1), Fraction(3, 2)): 0.9945890241835631,
}


def main_return(decks: int, win: Fraction, blackjack: Fraction) -> float:
    known = KNOWN_MAIN_RETURNS.get((decks, win, blackjack))
    if known is not None:
        return known
    return main_game(decks, Paytable(win=win, blackjack=blackjack)).return_


def check_paytable(paytable: Paytable, decks: int = rules.DECKS,
                   max_return: Fraction = Fraction(1)) -> list[str]:
    """The paytable's problems: each bet whose exact return is above `max_return`, naming the
    bet, the figure and the deck count (the main game under best play, within 1e-9)."""
    returns: dict[str, float] = {b.value: float(r) for b, r in side_returns(paytable, decks)
                                 .items() if r > max_return}
    main = main_return(decks, paytable.win, paytable.blackjack)
    if main > float(max_return) + 1e-9:
        returns = {Bet.MAIN.value: main, **returns}
    return [f"{bet} returns {r * 100:.4f} % with {decks} deck(s) (above the bound of "
            f"{float(max_return) * 100:g} %)" for bet, r in returns.items()]
