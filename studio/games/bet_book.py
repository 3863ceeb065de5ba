"""The book of a betting window, shared by the games whose bets lie on spots: the sums per
spot (player, position, kind) and per player, each player's placements, adding a placement
once its reservation is committed, cancelling a player's bets, closing the window.

A game's `BetBook` subclasses `SpotBook` and writes `check_command`, its own limits. Every
lookup is a dictionary read: a window of tens of thousands of bets costs linear time.
"""

from __future__ import annotations

from typing import Any

from studio.table.seam import CancelBets, Event, Placement, RoundError


class SpotBook:
    def __init__(self, rules: Any, closes_at: float) -> None:
        self.rules = rules
        self.closes_at = closes_at
        self.open = True
        self.placements: dict[str, Placement] = {}
        self._spot: dict[tuple[str, int, Any], int] = {}
        self._player: dict[str, int] = {}
        self._by_player: dict[str, list[Placement]] = {}
        self.staked = 0

    def stake(self, player: str, position: int, kind: Any) -> int:
        return self._spot.get((player, position, kind), 0)

    def player_total(self, player: str) -> int:
        return self._player.get(player, 0)

    def of(self, player: str) -> list[Placement]:
        return list(self._by_player.get(player, ()))

    def window_events(self, now: float) -> list[Event]:
        """Public news of the window since last asked, beyond each player's own bets (a live
        Blackjack seat taken or given back, the bets behind the seats): the table publishes
        them, it does not log them (they follow from the bets it logs). A game keeps their
        rate bounded: each one reaches every player. Most games have none."""
        return []

    def count(self, p: Placement) -> None:
        """Add ``p`` to the sums only (a pending book of bets not yet committed)."""
        self.placements[p.placement_id] = p
        key = (p.player, p.position, p.kind)
        self._spot[key] = self._spot.get(key, 0) + p.amount
        self._player[p.player] = self._player.get(p.player, 0) + p.amount

    def add(self, p: Placement) -> Event:
        self.count(p)
        self._by_player.setdefault(p.player, []).append(p)
        self.staked += p.amount
        return Event("bet_placed", {"placement_id": p.placement_id, "player": p.player,
                                    "position": p.position, "kind": p.kind, "amount": p.amount,
                                    "spot_total": self._spot[(p.player, p.position, p.kind)]})

    def check_cancel(self, cmd: CancelBets) -> list[Placement]:
        if not self.open or cmd.now >= self.closes_at:
            raise RoundError("bet.window_closed",
                             "Stop alle puntate: bets can no longer be cancelled")
        mine = self.of(cmd.player)
        if not mine:
            raise RoundError("bet.nothing_to_cancel", "you have no bets in this round")
        return mine

    def cancel(self, player: str) -> Event:
        mine = self.of(player)
        for p in mine:
            del self.placements[p.placement_id]
            key = (p.player, p.position, p.kind)
            self._spot[key] -= p.amount
            if not self._spot[key]:
                del self._spot[key]
            self.staked -= p.amount
        self._player.pop(player, None)
        self._by_player.pop(player, None)
        return Event("bets_cancelled", {"player": player,
                                        "placement_ids": [p.placement_id for p in mine],
                                        "amount": sum(p.amount for p in mine)})

    def close(self) -> tuple[Placement, ...]:
        self.open = False
        return tuple(self.placements.values())
