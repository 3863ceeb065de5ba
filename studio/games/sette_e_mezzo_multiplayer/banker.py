"""Who banks: the matta deal at the start, the turn to the right, the resumption.

Seats are numbered in turn order: a player's right is the next seat number (wrapping round), so
"to the banker's right" is "the next occupied seat". A table is a sequence of seats, each a player
id or None when empty; a seat's index is its number.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from studio.cards import Card
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError

Seats = Sequence[str | None]


def to_the_right(seats: Seats, seat: int) -> list[int]:
    """The occupied seats in turn order, starting from the one right of `seat` (itself last)."""
    n = len(seats)
    return [(seat + k) % n for k in range(1, n + 1) if seats[(seat + k) % n] is not None]


def seat_of(seats: Seats, player: str) -> int:
    try:
        return list(seats).index(player)
    except ValueError:
        raise MultiplayerError("mp.not_at_table", f"{player} is not seated") from None


def matta_deal(seats: Seats, sitout: Collection[str], first: int,
               cards: Iterable[Card]) -> str:
    """One card at a time to every seated player not in sitout, from seat `first` (chosen at
    random by the caller), the cards of a freshly shuffled deck; whoever receives the matta banks.
    """
    if not 0 <= first < len(seats) or seats[first] is None:
        raise MultiplayerError("mp.bad_seat", "the deal starts from an occupied seat")
    players = [p for i in [first, *to_the_right(seats, first)][:-1]
               if (p := seats[i]) is not None and p not in sitout]
    if not players:
        raise MultiplayerError("mp.no_players", "nobody to deal to")
    for i, card in enumerate(cards):
        if card.is_matta:
            return players[i % len(players)]
    raise MultiplayerError("mp.matta_not_dealt", "the deal ended without the matta")


def next_banker(seats: Seats, banker_seat: int, has_bet: Collection[str]) -> str | None:
    """At the end of a bank: the player to the banker's right, skipping one who has not yet
    placed a bet at this table. The banker's seat may be empty by now (it left). None: nobody
    else qualifies (the banker itself is the last candidate, if it is still seated)."""
    for i in to_the_right(seats, banker_seat):
        p = seats[i]
        if p is not None and p in has_bet:
            return p
    return None


def resume_banker(seats: Seats, due_seat: int, present_at_interruption: Collection[str]
                  ) -> str | None:
    """After an interruption (too few players): the first in turn, from the seat whose bank was
    due at the interruption, among those present then and seated now; None: deal for the matta
    again, as at the start."""
    for i in [due_seat, *to_the_right(seats, due_seat)]:
        p = seats[i]
        if p is not None and p in present_at_interruption:
            return p
    return None
