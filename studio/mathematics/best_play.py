"""What best play looks like, for any game the enumeration engine handles: the probability of
each result and the decision table (dealer's first card x player's hand).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from studio.games.sette_e_mezzo import Hand, format_halves
from studio.mathematics.enumeration import Enumerator


def dealer_card_label(dealer_first: Hand) -> str:
    if dealer_first.is_lone_matta:
        return "matta"
    return format_halves(dealer_first.total)


def dealer_label_order(label: str) -> float:
    """Sort key for the table's columns: matta, 1/2, 1, 2, ... 7."""
    return -1.0 if label == "matta" else 0.0 if label == "1/2" else float(label)


@dataclass(frozen=True)
class DecisionCell:
    """Where the player chooses: how often best play says Carta, weighted by probability."""

    dealer: str
    player_total: int  # halves
    one_card: bool
    reach: float  # probability of a decision in this cell in one round
    hit: float  # the part of `reach` where Carta is best

    @property
    def hit_share(self) -> float:
        return self.hit / self.reach if self.reach else 0.0

    @property
    def advice(self) -> str:
        """C = Carta always, S = Stai always, C37% = Carta in 37% of the cases (by probability):
        best play depends on which cards were seen, not only on the totals."""
        share = self.hit_share
        if share >= 1 - 1e-12:
            return "C"
        if share <= 1e-12:
            return "S"
        return f"C{round(100 * share)}%"


@dataclass
class PlaySummary:
    outcomes: dict[str, float]  # result label -> probability
    automatic_win: float
    decisions: list[DecisionCell]


def summarise(eng: Enumerator, settle: Callable[[Hand, Hand], str],
              automatic_win: Callable[[Hand, Hand], bool] | None = None) -> PlaySummary:
    """Walk every state best play reaches; settle where the position stops taking cards."""
    outcomes: dict[str, float] = defaultdict(float)
    automatic = 0.0
    cells: dict[tuple[str, int, bool], list[float]] = {}
    for (player, dealer_first, left), p in eng.reach().items():
        if eng.rules.may_decide(player, dealer_first):
            key = (dealer_card_label(dealer_first), player.total, player.count == 1)
            cell = cells.setdefault(key, [0.0, 0.0])
            cell[0] += p
            if eng.best_is_hit(player, dealer_first, left):
                cell[1] += p
                continue
        elif eng.hits(player, dealer_first, left):
            continue
        if player.bust:
            outcomes[settle(player, dealer_first)] += p
        elif automatic_win is not None and automatic_win(player, dealer_first):
            automatic += p
            outcomes[settle(player, dealer_first)] += p
        else:
            for dealer, q in eng.dealer_distribution(left, dealer_first).items():
                outcomes[settle(player, dealer)] += p * q
    decisions = [
        DecisionCell(d, t, one, reach, hit)
        for (d, t, one), (reach, hit) in sorted(
            cells.items(), key=lambda kv: (dealer_label_order(kv[0][0]), kv[0][1], not kv[0][2]))
    ]
    return PlaySummary(dict(outcomes), automatic, decisions)
