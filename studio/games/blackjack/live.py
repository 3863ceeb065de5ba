"""Blackjack's shared live table on the serial shoe ("blackjack-live"): the same game as the
virtual table (`round.py` with `TableRules.shared`), seven seats each taken by one player for
the round, any number of players betting behind a seat (`behind.py`), eight decks with a cut
card and a burn card, a decision timer whose default is stand, and a seated player who
disconnects stands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from studio.games.blackjack import round as core
from studio.games.blackjack.behind import SeatBook
from studio.games.blackjack.game import Blackjack
from studio.games.blackjack.rules import Action


class BlackjackLive(Blackjack):
    """The game object the studio registers as "blackjack-live"."""

    name = "blackjack-live"
    page = "live.html"
    grouped: Mapping[str, str] = {"game_settled": "games_settled"}  # thousands per round
    stands_when_gone = True  # a seated player who disconnects stands (the table waits for none)

    def new_book(self, rules: core.TableRules, closes_at: float) -> SeatBook:
        return SeatBook(rules, closes_at)

    def window_view(self, book: SeatBook, player: str | None) -> dict[str, Any]:
        return {"seats": book.seats_view(player)}

    def round_view(self, s: core.RoundState, player: str | None) -> dict[str, Any]:
        """The virtual table's view, and per seat whether it is taken (never by whom), the
        bets behind it and the player's own; for the dealer, every hand in dealing order and
        whose turn it is."""
        view = super().round_view(s, player)
        if s.betting:
            return view
        seats = {}
        for n in range(1, s.rules.positions + 1):
            owner = s.owner(n)
            count, cents = s.behind_sums.get(n, (0, 0))
            mine = s.behind.get(n, {}).get(player) if player else None
            seats[str(n)] = {"taken": owner is not None, "mine": owner is not None
                             and owner == player, "behind": count, "behind_total": cents,
                             "my_behind": sum(mine.hands) if mine else 0,
                             "my_behind_hands": list(mine.hands) if mine else [],
                             "my_behind_insurance": mine.insurance if mine else None}
        view["seats"] = seats
        view["hands"] = [{"place": f"{p.number}.{i + 1}",
                          "name": f"Seat {p.number}" + (f", hand {i + 1}" if p.split else ""),
                          "cards": [c.code for c in h.cards], "total": h.score.total}
                         for p in (s.game.positions if s.game else ()) for i, h in
                         enumerate(p.hands)]
        view["next_to"] = self._place_now(s)
        view["waiting_for"] = self._waiting_for(s)
        return view

    @staticmethod
    def _place_now(s: core.RoundState) -> str | None:
        """The hand the next card or decision is for ("3.1"), to light it up."""
        target = s.expecting()
        if target is not None and target.kind == "position":
            to = core.rules.next_card(s.game)
            return f"{to.position}.{to.hand + 1}"
        if s.deciding is not None:
            return f"{s.deciding}.{(s.deciding_hand or 0) + 1}"
        return None

    @staticmethod
    def _waiting_for(s: core.RoundState) -> str | None:
        """Whose turn it is, in the dealer's words."""
        if s.deciding is None:
            return None
        if s.phase is core.Phase.INSURANCE:
            return f"Seat {s.deciding} decides: insurance or not"
        hand = f", hand {s.deciding_hand + 1}" if s.game.position(s.deciding).split else ""
        words = ", ".join(Action(c).value for c in s.choices())
        return f"Seat {s.deciding}{hand} decides: {words}"


GAME = BlackjackLive()
