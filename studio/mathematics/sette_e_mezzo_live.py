"""Theoretical return of Sette e Mezzo Live, by exact enumeration over the 40-card deck.

RULES.md, "Theoretical return": one position against the dealer, a fresh deck per round, the
player's best decision given every card seen. Side bets: the paytable return over all equally
likely card combinations, and the effective return under best main-game play with the Mano di
Poker refund. Everything here calls the rules module the tables use.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from studio.cards import DeckKind, deck
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_live import rules as live
from studio.mathematics.best_play import DecisionCell, summarise
from studio.mathematics.enumeration import Enumerator, GameRules


def game_rules(paytable: live.LivePaytable) -> GameRules:
    nets = {r: float(live.main_net(r, paytable)) for r in live.MainResult}
    return GameRules(
        must_draw=live.must_draw_automatically,
        may_decide=live.may_decide,
        dealer_must_draw=live.dealer_must_draw,
        net=lambda player, dealer: nets[live.settle_main(player, dealer)],
        automatic_win=live.automatic_win,
    )


@cache
def engine(paytable: live.LivePaytable) -> Enumerator:
    """One memoised engine per paytable (the table and the simulation share it)."""
    return Enumerator(game_rules(paytable), deck(DeckKind.ITALIAN_40))


@dataclass
class LiveReport:
    paytable: live.LivePaytable
    main_return: float
    outcomes: dict[str, float]
    automatic_win: float
    decisions: list[DecisionCell]
    pp_classes: dict[str, float]
    pp_return: float
    mdp_classes: dict[str, float]
    mdp_return: float
    mdp_effective_return: float
    mdp_refund: float
    mdp_resolved_return: float
    extra: dict = field(default_factory=dict)


def _partita_perfetta(paytable: live.LivePaytable) -> tuple[dict[str, float], float]:
    cards = deck(DeckKind.ITALIAN_40)
    counts: dict[str, int] = defaultdict(int)
    returned = 0.0
    pairs = 0
    for a in cards:
        for b in cards:
            if a == b:
                continue
            pairs += 1
            kind = live.partita_perfetta(a, b)
            counts[kind.value] += 1
            odds = live.partita_perfetta_odds(kind, paytable)
            if odds is not None:
                returned += 1 + float(odds)
    return {k.value: counts[k.value] / pairs for k in live.PartitaPerfetta}, returned / pairs


def _mano_di_poker(eng: Enumerator, paytable: live.LivePaytable
                   ) -> tuple[dict[str, float], float, float, float, float]:
    cards = deck(DeckKind.ITALIAN_40)
    index = {c: i for i, c in enumerate(cards)}
    counts: dict[str, int] = defaultdict(int)
    # pair_sum[a][b]: total returned over every third card c, for the hand {a, b, c}
    pair_sum = [[0.0] * len(cards) for _ in cards]
    triples = 0
    returned = 0.0
    for a, b, c in combinations(cards, 3):
        triples += 1
        kind = live.mano_di_poker([a, b, c])
        counts[kind.value] += 1
        odds = live.mano_di_poker_odds(kind, paytable)
        if odds is None:
            continue
        r = 1 + float(odds)
        returned += r
        ia, ib, ic = index[a], index[b], index[c]
        for x, y in ((ia, ib), (ia, ic), (ib, ic)):
            pair_sum[x][y] += r
            pair_sum[y][x] += r
    classes = {k.value: counts[k.value] / triples for k in live.ManoDiPoker}

    # Effective return: the player's second card comes only from an automatic draw or a Carta
    # chosen by best main-game play; with no second card the stake is refunded.
    n = len(cards)
    effective = refund = 0.0
    for p1 in cards:
        for d1 in cards:
            if p1 == d1:
                continue
            prob = 1 / (n * (n - 1))
            left = eng.take(eng.take(eng.full, eng.class_of(p1)), eng.class_of(d1))
            if eng.hits(Hand().add(p1), Hand().add(d1), left):
                effective += prob * pair_sum[index[p1]][index[d1]] / (n - 2)
            else:
                refund += prob
                effective += prob
    resolved = (effective - refund) / (1 - refund) if refund < 1 else 0.0
    return classes, returned / triples, effective, refund, resolved


def compute(paytable: live.LivePaytable) -> LiveReport:
    eng = engine(paytable)
    main_return = 1.0 + eng.expected_net()
    play = summarise(eng, lambda p, d: live.settle_main(p, d).value, live.automatic_win)
    outcomes = {r.value: play.outcomes.get(r.value, 0.0) for r in live.MainResult}
    automatic, decisions = play.automatic_win, play.decisions
    pp_classes, pp_return = _partita_perfetta(paytable)
    mdp_classes, mdp_return, mdp_eff, mdp_refund, mdp_resolved = _mano_di_poker(eng, paytable)
    return LiveReport(paytable, main_return, outcomes, automatic, decisions, pp_classes,
                      pp_return, mdp_classes, mdp_return, mdp_eff, mdp_refund, mdp_resolved)
