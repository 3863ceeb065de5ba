"""What a table fixes for every bank it plays: variant, cash or tournament, limits and rake.

Amounts are integer cents; the rake is in basis points (500 = 5 %). The prize share of the stakes
is never below 90 % (regulation): a winner pays win x 2 x rake, i.e. rake x (both stakes), so the
rake may not pass 5 % (500 bp). The checks run when the rules are built, not mid-bank.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError

RAKE_CAP_BP = 500  # 2 x 5 % = 10 % of the stakes: the prize share stays at 90 % or more
BP = 10_000


class Variant(StrEnum):
    PIATTO = "piatto"
    CLASSICA = "classica"


class Kind(StrEnum):
    CASH = "cash"
    TOURNAMENT = "tournament"


@dataclass(frozen=True, slots=True)
class TableRules:
    """`min_bank` is the minimum piatto (piatto) or the minimum unit bank, i.e. the lowest
    maximum bet a banker may offer each punter (classica); `min_bet` is the punter's minimum."""

    variant: Variant
    kind: Kind
    min_bet: int
    min_bank: int
    rake_bp: int = 0

    def __post_init__(self) -> None:
        if self.min_bet <= 0 or self.min_bank <= 0:
            raise MultiplayerError("mp.bad_limits", "minimum bet and minimum bank must be > 0")
        if self.variant is Variant.CLASSICA and self.min_bank < self.min_bet:
            raise MultiplayerError(
                "mp.bad_limits", "classica: the minimum unit bank is at least the minimum bet")
        if self.kind is Kind.TOURNAMENT and self.variant is not Variant.PIATTO:
            raise MultiplayerError("mp.tournament_piatto_only",
                                   "tournaments are played in the piatto variant only")
        if not 0 <= self.rake_bp <= RAKE_CAP_BP:
            raise MultiplayerError("mp.rake_above_cap",
                                   "the rake may not take more than 10 % of the stakes")
        if self.kind is Kind.TOURNAMENT and self.rake_bp:
            raise MultiplayerError("mp.rake_in_tournament", "the rake is for cash tables")

    @property
    def tournament(self) -> bool:
        return self.kind is Kind.TOURNAMENT
