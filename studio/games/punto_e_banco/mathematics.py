"""The exact mathematics of Punto e Banco: every bet's return by enumeration over the shoe's
composition (one deck for the regulation's virtual table, eight for a live shoe).

Hands are enumerated card by card over the ten point values (asso..9, and the sixteen cards
worth 0 per deck together), each path weighted by how many cards of that value are left, so the
figures are exact: integer weights over a common denominator (the ways to deal six cards).
The drawing rules are the game's own (`rules.punto_draws`, `rules.banco_draws_by_points`):
there is no second copy of them here. The pair bets depend on ranks, not points: by symmetry
the first two cards of a side are any two cards of the shoe, so their probability is closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from studio.cards import Rank
from studio.games.punto_e_banco import rules
from studio.games.punto_e_banco.rules import Bet, Outcome, Paytable

RANKS_PER_DECK = {r: 4 for r in Rank}  # 13 ranks x 4 suits


def point_counts(decks: int) -> list[int]:
    """Cards of each point value 0..9 in a shoe of `decks` 52-card decks."""
    counts = [0] * 10
    for rank, n in RANKS_PER_DECK.items():
        counts[0 if rank in rules.ZERO_RANKS else rank.number] += n * decks
    return counts


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def outcome_weights(counts: list[int]) -> dict[Outcome, int]:
    """Weight of each outcome over the common denominator falling(N, 6)."""
    n = sum(counts)
    scale4, scale5 = _falling(n - 4, 2), n - 5
    # the rule functions, asked once per argument (they are pure)
    punto_draws = [rules.punto_draws(t) for t in range(10)]
    banco_after_stand = [rules.banco_draws_by_points(t, None) for t in range(10)]
    banco_after_draw = [[rules.banco_draws_by_points(t, p) if t <= 7 else False
                         for p in range(10)] for t in range(10)]
    w = {Outcome.PUNTO: 0, Outcome.BANCO: 0, Outcome.PARI: 0}

    def add(pt: int, bt: int, weight: int) -> None:
        w[Outcome.PUNTO if pt > bt else Outcome.BANCO if bt > pt else Outcome.PARI] += weight

    c = counts
    for p1 in range(10):
        w1 = c[p1]
        if not w1:
            continue
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            if not w2:
                continue
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                if not w3:
                    continue
                c[p2] -= 1
                pt = (p1 + p2) % 10
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if not w4:
                        continue
                    c[b2] -= 1
                    bt = (b1 + b2) % 10
                    if pt >= 8 or bt >= 8:  # a natural ends the hand
                        add(pt, bt, w4 * scale4)
                    elif punto_draws[pt]:
                        for p3 in range(10):
                            w5 = w4 * c[p3]
                            if not w5:
                                continue
                            pt3 = (pt + p3) % 10
                            if banco_after_draw[bt][p3]:
                                c[p3] -= 1
                                for b3 in range(10):
                                    if c[b3]:
                                        add(pt3, (bt + b3) % 10, w5 * c[b3])
                                c[p3] += 1
                            else:
                                add(pt3, bt, w5 * scale5)
                    elif banco_after_stand[bt]:
                        for b3 in range(10):
                            if c[b3]:
                                add(pt, (bt + b3) % 10, w4 * c[b3] * scale5)
                    else:
                        add(pt, bt, w4 * scale4)
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return w


def pair_probability(decks: int) -> Fraction:
    """A side's first two cards of the same rank: any two cards of the shoe, by symmetry."""
    n = 52 * decks
    same = sum(k * decks * (k * decks - 1) for k in RANKS_PER_DECK.values())
    return Fraction(same, n * (n - 1))


@dataclass(frozen=True)
class Report:
    decks: int
    probabilities: dict[Outcome, Fraction]
    pair: Fraction
    returns: dict[Bet, Fraction]  # expected amount back per unit staked (1 = 100 %)


@cache
def outcome_probabilities(decks: int) -> dict[Outcome, Fraction]:
    """Punto, Banco and Pari, exact (every configuration load asks: computed once)."""
    weights = outcome_weights(point_counts(decks))
    denom = _falling(52 * decks, 6)
    return {o: Fraction(weights[o], denom) for o in Outcome}


def compute(paytable: Paytable, decks: int = 1) -> Report:
    prob = outcome_probabilities(decks)
    pair = pair_probability(decks)
    p_win, b_win, tie = prob[Outcome.PUNTO], prob[Outcome.BANCO], prob[Outcome.PARI]
    returns = {
        Bet.PUNTO: p_win * (1 + paytable.punto) + tie,
        Bet.BANCO: b_win * (1 + paytable.banco * (1 - paytable.banco_commission)) + tie,
        Bet.PARI: tie * (1 + paytable.pari),
        Bet.PUNTO_PAIR: pair * (1 + paytable.punto_pair),
        Bet.BANCO_PAIR: pair * (1 + paytable.banco_pair),
    }
    return Report(decks, prob, pair, returns)


def check_paytable(paytable: Paytable, decks: int, max_return: Fraction = Fraction(1),
                   min_return: Fraction = Fraction(0)) -> list[str]:
    """The paytable's problems: each bet whose exact return is above `max_return` (or below
    `min_return`), naming the bet, the figure and the deck count. Banco's return ignores the
    cent truncation, which only lowers it."""
    report = compute(paytable, decks)
    return [f"{bet.value} returns {float(r) * 100:.4f} % with {decks} deck(s) "
            f"({'above' if r > max_return else 'below'} the bound of "
            f"{float(max_return if r > max_return else min_return) * 100:g} %)"
            for bet, r in report.returns.items() if r > max_return or r < min_return]
