"""Tournament ranking: later eliminations rank higher; two players eliminated by the same banker
in one round rank by the chips they had before it (more chips, better place). Equal chips too:
our reading keeps them in seat order from that banker's right (the first ranks better)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Elimination:
    player: str
    round: int
    banker: str
    chips_before: int
    seat_order: int = 0  # the player's place in turn from the banker's right


def ranking(eliminations: Sequence[Elimination], survivors: Sequence[str] = ()) -> list[str]:
    """Places, first to last: survivors (as given), then the eliminated, latest first. Within one
    (round, banker) group, more chips before ranks higher. Groups keep the order of the list."""
    groups: dict[tuple[int, str], list[Elimination]] = {}
    for e in eliminations:
        groups.setdefault((e.round, e.banker), []).append(e)
    ordered: list[str] = []
    for group in reversed(list(groups.values())):
        ordered += [e.player for e in sorted(group, key=lambda e: (-e.chips_before,
                                                                    e.seat_order))]
    return [*survivors, *ordered]
