"""Cash tables: three consecutive banks skipped stand a player up; so does a long idle table.

A bank is skipped by a player who was in sitout through it or refused it as banker; a player who
took part (punter that played, or banker) starts counting again. Our reading: a punter's "Non
gioco" is a refusal too, so it counts as a skip. The table returns the stood-up player's credit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

SKIPS_TO_STAND_UP = 3
IDLE_SECONDS = 180  # the regulation's 3 minutes; the table may pass its configured value


def after_bank(skips: Mapping[str, int], seated: Collection[str], played: Collection[str]
               ) -> tuple[dict[str, int], tuple[str, ...]]:
    """New consecutive-skip counts of the seated players after a bank, and who stands up now
    (in the order of `seated`)."""
    counts = {p: 0 if p in played else skips.get(p, 0) + 1 for p in seated}
    up = tuple(p for p in seated if counts[p] >= SKIPS_TO_STAND_UP)
    return {p: c for p, c in counts.items() if p not in up}, up


def idle_stand_up(sitout: Collection[str], punters_playing: int, idle_seconds: float,
                  limit: float = IDLE_SECONDS) -> tuple[str, ...]:
    """No punter has joined the bank for `limit` seconds of idle play: everyone in sitout
    stands up (the clock is the table's; this only says who)."""
    if punters_playing or idle_seconds < limit:
        return ()
    return tuple(sitout)
