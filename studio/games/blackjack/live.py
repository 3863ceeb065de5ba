"""Blackjack's shared live table on the serial shoe ("blackjack-live"): the same game as the
virtual table (`round.py` with `TableRules.shared`), seven seats each taken by one player for
the round, any number of players betting behind a seat (`behind.py`), eight decks with a cut
card and a burn card, a decision timer whose default is stand, and a seated player who
disconnects stands."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from studio.games.blackjack import round as core
from studio.games.blackjack.behind import SeatBook
from studio.games.blackjack.game import Blackjack
from studio.games.blackjack.rules import Action


class BlackjackLive(Blackjack):
    """The game object the studio registers as "blackjack-live"."""

    name = "blackjack-live"
    page = "live.html"
    cross_checks = True  # French 52, eight decks; the hole card passes on the shoe's word
    grouped: Mapping[str, str] = {"game_settled": "games_settled"}  # thousands per round
    stands_when_gone = True  # a seated player who disconnects stands (the table waits for none)

    def __init__(self) -> None:
        super().__init__()
        self._last_shared: tuple[Any, dict[str, Any]] = (None, {})
        self._last_key: tuple[Any, Any] = (None, None)  # (state, `_key_shared(state)`)

    def new_book(self, rules: core.TableRules, closes_at: float) -> SeatBook:
        return SeatBook(rules, closes_at)

    def window_view(self, book: SeatBook, player: str | None) -> dict[str, Any]:
        return {"seats": book.seats_view(player)}

    def round_view(self, s: core.RoundState, player: str | None) -> dict[str, Any]:
        """The virtual table's view, and per seat whether it is taken (never by whom), the
        bets behind it and the player's own; for the dealer, every hand in dealing order and
        whose turn it is. What every player sees alike is built once per state (each of
        thousands of players is sent the table after every card); only the player's own
        part (`personal_view`) is built per player."""
        view = dict(self._shared_view(s))
        if player is not None:
            view.update(self.personal_view(s, player))
        return view

    def personal_view(self, s: core.RoundState, player: str) -> dict[str, Any]:
        mine: dict[str, Any] = {"choices": s.choices()} if player == s.owner(s.deciding) \
            else {}
        if s.betting:
            return mine
        seats = {}
        for n, public in self._shared_view(s)["seats"].items():
            behind = s.behind.get(int(n), {}).get(player)
            if not behind and s.owner(int(n)) != player:
                continue  # not the player's: as everyone sees it
            seats[n] = {**public, "mine": s.owner(int(n)) == player,
                        "my_behind": sum(behind.hands) if behind else 0,
                        "my_behind_hands": list(behind.hands) if behind else [],
                        "my_behind_insurance": behind.insurance if behind else None}
        if seats:
            mine["seats"] = {**self._shared_view(s)["seats"], **seats}
        return mine

    def personal_key(self, s: core.RoundState, player: str) -> Hashable | None:
        """What `personal_view` reads: the turn's choices if the player holds the seat in
        turn, the seats the player holds, the player's bets behind, and (when the player has
        any of those) the seats' public part, which changes with bets, not with cards: a card
        to 10,000 players betting behind builds none of their views again."""
        if s.betting:
            return None
        turn_owner, choices, seats = self._key_shared(s)
        owned = tuple(n for n, p in s.owners.items() if p == player)
        behind = tuple((n, b) for n, seat in s.behind.items()
                       if (b := seat.get(player)) is not None)
        return (choices if turn_owner == player else None, owned, behind,
                seats if owned or behind else None)

    def personal_changes(self, before: core.RoundState, after: core.RoundState
                         ) -> Iterable[str] | None:
        """The players holding the seat in turn before and after (their choices); anyone's
        when the seats' holders, the bets behind or the seats' public part changed (bets,
        not cards: a card to a seat with 10,000 players behind it changes no view of
        theirs)."""
        if before.round_id != after.round_id or before.owners != after.owners or (
                before.behind is not after.behind and before.behind != after.behind):
            return None
        if self._key_shared(before)[2] != self._key_shared(after)[2]:
            return None
        return {p for p in (before.owner(before.deciding), after.owner(after.deciding))
                if p is not None}

    def _key_shared(self, s: core.RoundState) -> tuple[str | None, tuple[str, ...], tuple]:
        """(who holds the seat in turn, its choices, each seat's public part), once per state
        (the states are immutable)."""
        if self._last_key[0] is s:
            return self._last_key[1]
        turn_owner = s.owner(s.deciding)
        shared = (turn_owner, tuple(s.choices()) if turn_owner else (),
                  tuple((n, s.owner(n) is not None, s.behind_sums.get(n, (0, 0)))
                        for n in range(1, s.rules.positions + 1)))
        self._last_key = (s, shared)
        return shared

    def _shared_view(self, s: core.RoundState) -> dict[str, Any]:
        """The part of the view no player's identity changes, for the last state asked (the
        states are immutable: the same object is the same view)."""
        if self._last_shared[0] is s:
            return self._last_shared[1]
        view = super().round_view(s, None)
        if not s.betting:
            view["seats"] = {str(n): {"taken": s.owner(n) is not None, "mine": False,
                                      "behind": s.behind_sums.get(n, (0, 0))[0],
                                      "behind_total": s.behind_sums.get(n, (0, 0))[1],
                                      "my_behind": 0, "my_behind_hands": [],
                                      "my_behind_insurance": None}
                             for n in range(1, s.rules.positions + 1)}
            view["hands"] = [{"place": f"{p.number}.{i + 1}",
                              "name": f"Seat {p.number}" + (f", hand {i + 1}" if p.split
                                                            else ""),
                              "cards": [c.code for c in h.cards], "total": h.score.total}
                             for p in (s.game.positions if s.game else ()) for i, h in
                             enumerate(p.hands)]
            view["next_to"] = self._place_now(s)
            view["waiting_for"] = self._waiting_for(s)
        self._last_shared = (s, view)
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
