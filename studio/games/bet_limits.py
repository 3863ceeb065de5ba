"""A table's limits on one bet, shared by the games whose bets lie on spots: the stake on a
spot between its minimum and maximum, and the sum of a player's bets in a round under the
table's cap. One place for the checks, so every game refuses with the same stable codes."""

from __future__ import annotations

from studio.table.seam import RoundError


def check_spot(stake: int, low: int, high: int, where: str = "this spot") -> None:
    """`stake`: what the spot would hold with this bet."""
    if stake < low:
        raise RoundError("bet.below_min", f"the minimum on {where} is {low} cents")
    if stake > high:
        raise RoundError("bet.above_max", f"the maximum on {where} is {high} cents")


def check_round_total(total: int, cap: int, period: str = "round") -> None:
    """`total`: the player's bets in this round with this one."""
    if total > cap:
        raise RoundError("bet.round_limit", f"at most {cap} cents in one {period}")
