"""Theoretical return of Sette e Mezzo Quota Fissa, by exact enumeration over the 40-card deck,
with the player's best decision given every card seen. Calls the Quota Fissa rules module.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from studio.cards import DeckKind, deck
from studio.games.sette_e_mezzo_quota_fissa import rules as qf
from studio.mathematics.best_play import DecisionCell, summarise
from studio.mathematics.enumeration import Enumerator, GameRules


def game_rules(win_odds: Fraction) -> GameRules:
    nets = {r: float(qf.net(r, win_odds)) for r in qf.Result}
    return GameRules(
        must_draw=qf.must_hit,
        may_decide=qf.may_hit,
        dealer_must_draw=qf.bank_must_draw,
        net=lambda player, bank: nets[qf.settle(player, bank)],
    )


@cache
def engine(win_odds: Fraction) -> Enumerator:
    return Enumerator(game_rules(win_odds), deck(DeckKind.ITALIAN_40))


@dataclass
class QuotaFissaReport:
    win_odds: Fraction
    main_return: float
    outcomes: dict[str, float]
    decisions: list[DecisionCell]


def compute(win_odds: Fraction) -> QuotaFissaReport:
    eng = engine(win_odds)
    play = summarise(eng, lambda p, b: qf.settle(p, b).value)
    outcomes = {r.value: play.outcomes.get(r.value, 0.0) for r in qf.Result}
    return QuotaFissaReport(win_odds, 1.0 + eng.expected_net(), outcomes, play.decisions)
