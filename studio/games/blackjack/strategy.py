"""The basic-strategy table the mathematics implies, as a player: which button to press.

Two-card hands (not from a split) follow the table by row (hard total, soft total, or pair by
rank) and dealer up card; "D" doubles where the rules allow it and hits where they do not, "Ds"
doubles or stands. Every later decision (three cards or more, or a split hand) is hit or stand
by total and softness. Insurance is never taken (never worth it with eight decks).
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.games.blackjack import rules
from studio.games.blackjack.rules import Action, Hand


def row_label(first: int, second: int, pair: bool) -> str:
    """The table's row of a two-card hand by card values (ace = 1): "pair 8", "soft 18",
    "hard 12". `pair`: the two cards are one rank (only then may they split)."""
    if pair:
        return f"pair {'A' if first == 1 else first}"
    s = rules.score_values([first, second])
    return f"{'soft' if s.soft else 'hard'} {s.total}"


def row_of_cards(hand: Hand) -> str:
    first, second = hand.cards
    return row_label(rules.card_value(first), rules.card_value(second),
                     first.rank == second.rank)


@dataclass(frozen=True)
class Strategy:
    first: dict[tuple[str, int], str]  # (row, up value) -> S H D Ds P
    later: dict[tuple[str, int, int], str]  # ("hard"/"soft", total, up value) -> H or S

    def choose(self, hand: Hand, up: int, legal: tuple[Action, ...]) -> Action:
        """The action for `hand` against the dealer's up card value (ace = 1)."""
        s = hand.score
        if len(hand.cards) == 2 and not hand.from_split:
            advice = self.first.get((row_of_cards(hand), up), "S")
            if advice == "P" and Action.SPLIT in legal:
                return Action.SPLIT
            if advice in ("D", "Ds") and Action.DOUBLE in legal:
                return Action.DOUBLE
            if advice == "Ds":
                return Action.STAY
            if advice in ("H", "D"):
                return Action.HIT
            if advice == "S":
                return Action.STAY
            # a pair whose split is not allowed: the hard or soft row of its total
            advice = self.first.get((f"{'soft' if s.soft else 'hard'} {s.total}", up), "")
            if advice:
                return Action.HIT if advice in ("H", "D") else Action.STAY
        later = self.later.get(("soft" if s.soft else "hard", s.total, up))
        if later is None:  # a total no three-card hand makes (hard 4, 5): it cannot bust
            later = "H" if s.total <= 11 else "S"
        return Action.HIT if later == "H" else Action.STAY
