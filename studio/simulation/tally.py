"""A bet's running Monte Carlo tally: the realised return and its standard error, for every
game's simulation."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Tally:
    """Running sums of one bet's net result per unit staked."""

    rounds: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, net: float) -> None:
        self.rounds += 1
        self.total += net
        self.squares += net * net

    @property
    def realised_return(self) -> float:
        return 1.0 + self.total / self.rounds

    @property
    def standard_error(self) -> float:
        n = self.rounds
        mean = self.total / n
        variance = max(self.squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
        return math.sqrt(variance / n)
