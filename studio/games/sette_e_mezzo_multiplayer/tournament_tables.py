"""A tournament's tables: the draw of the seats, balancing and merging as players are
eliminated, and the prizes. Pure: the order of the players comes shuffled by the caller (its
RNG), and moves are applied by the tournament between the banks of the tables concerned.

Balancing (our reading; the regulation says only that tables are merged): a tournament uses
as few tables as its players fill, at most `seats` a table. When the players left fit in one
table fewer, the table with the fewest players closes and its players go, one at a time, to
the table with the fewest players then; otherwise, when two tables differ by more than one
player, the last in turn of the largest table (the one furthest from the bank: it waits
longest for it either way) moves to the smallest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from studio.games.sette_e_mezzo_multiplayer.money import share_cents
from studio.games.sette_e_mezzo_multiplayer.table_rules import BP
from studio.games.sette_e_mezzo_multiplayer.turns import require


def draw(players: Sequence[str], seats: int) -> list[list[str]]:
    """The tables of a tournament from its shuffled players: as few as they fill, sizes
    within one of each other, dealt round the tables in the shuffled order."""
    require(len(players) >= 2, "mp.too_few_players", "a tournament needs two players")
    n = -(-len(players) // seats)
    return [list(players[i::n]) for i in range(n)]


def rebalance(tables: Mapping[str, Sequence[str]], seats: int
              ) -> list[tuple[str, str, str]]:
    """Moves (player, from table, to table) that merge and balance the tables (see above)."""
    alive = {t: list(ps) for t, ps in tables.items() if ps}
    total = sum(len(ps) for ps in alive.values())
    needed = max(1, -(-total // seats))
    moves: list[tuple[str, str, str]] = []

    def smallest(exclude: str | None = None) -> str:
        return min((t for t in alive if t != exclude), key=lambda t: (len(alive[t]), t))

    while len(alive) > needed:
        closing = smallest()
        for p in alive.pop(closing):
            to = smallest()
            alive[to].append(p)
            moves.append((p, closing, to))
    while len(alive) > 1:
        big = max(alive, key=lambda t: (len(alive[t]), t))
        small = smallest()
        if len(alive[big]) - len(alive[small]) <= 1:
            break
        p = alive[big].pop()
        alive[small].append(p)
        moves.append((p, big, small))
    return moves


def prizes(pool: int, shares_bp: Sequence[int], places: int) -> list[int]:
    """The prize of each place, first to last: `shares_bp` of the pool (basis points, summing
    to 10,000), only as many places as there were players; the cents a truncation leaves go
    to the first places, so the whole pool is paid."""
    require(sum(shares_bp) == BP, "mp.bad_prizes", "the prize shares sum to 100 %")
    shares = list(shares_bp[:places])
    shares[0] += BP - sum(shares)  # fewer players than prizes: the rest to the winner
    amounts = [pool * s // BP for s in shares]
    rest = share_cents(pool - sum(amounts), [str(i) for i in range(len(amounts))])
    return [a + rest[str(i)] for i, a in enumerate(amounts)]
