"""The scoreboards baccarat players expect from a live table, computed from the shoe's results.

- Bead plate: every hand in order, six to a column, top to bottom then left to right.
- Big road: Punto (P) and Banco (B) wins; a new column each time the winner changes; ties are
  counted on the cell of the hand before them (a tie before any win waits for the first one).
  A column longer than six turns right along the bottom row (the "dragon tail").
- The derived roads (big eye boy, small road, cockroach pig) say whether the big road repeats
  itself: red when it does, blue when it does not. Each compares columns 1, 2 and 3 apart.

All pure: a road is a function of the results so far, so every client (and the lobby) draws
the same board from the same hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

ROWS = 6


@dataclass(frozen=True, slots=True)
class Cell:
    """A mark on a road: where it stands, which side won, the ties on it."""

    col: int
    row: int
    winner: str  # "P" | "B" | "T" (bead plate only) | "R" / "U" red / blue (derived)
    ties: int = 0


def bead_plate(results: Sequence[str]) -> list[Cell]:
    """results: "punto" | "banco" | "pari" per hand, in order."""
    mark = {"punto": "P", "banco": "B", "pari": "T"}
    return [Cell(i // ROWS, i % ROWS, mark[r]) for i, r in enumerate(results)]


@dataclass
class _Column:
    winner: str
    length: int = 0


@dataclass
class BigRoad:
    cells: list[Cell] = field(default_factory=list)
    columns: list[int] = field(default_factory=list)  # the logical length of each column


def big_road(results: Sequence[str]) -> BigRoad:
    road = BigRoad()
    placed: dict[tuple[int, int], int] = {}  # (col, row) -> index in cells
    logical: list[_Column] = []
    leading_ties = 0
    col = row = -1
    turned = False  # the current column has turned right (its dragon tail)
    for r in results:
        if r == "pari":
            if road.cells:
                last = road.cells[-1]
                road.cells[-1] = Cell(last.col, last.row, last.winner, last.ties + 1)
            else:
                leading_ties += 1
            continue
        w = "P" if r == "punto" else "B"
        if logical and logical[-1].winner == w:
            logical[-1].length += 1
            # down while there is room below, then right along the row (the dragon tail)
            if not turned and row + 1 < ROWS and (col, row + 1) not in placed:
                row += 1
            else:
                col += 1
                turned = True
        else:
            logical.append(_Column(w, 1))
            col, row, turned = len(logical) - 1, 0, False
            while (col, row) in placed:  # a tail from an earlier column is in the way
                col += 1
        placed[(col, row)] = len(road.cells)
        road.cells.append(Cell(col, row, w, leading_ties))
        leading_ties = 0
    road.columns = [c.length for c in logical]
    return road


def derived_road(columns: Sequence[int], distance: int) -> list[str]:
    """Red ("R") or blue ("U") marks of the road that compares columns `distance` apart
    (big eye boy 1, small road 2, cockroach pig 3), one per big-road hand from where it
    starts. The standard reading: for the first hand of a column, compare the lengths of the
    two columns before it that are `distance` apart (equal: red); for a later hand, red when
    the column `distance` to the left has a hand in that row, or was exactly one shorter
    (blue when it was shorter than that)."""
    marks: list[str] = []
    for c, length in enumerate(columns):
        for r in range(length):
            if r == 0:
                if c - distance - 1 < 0:
                    continue
                marks.append("R" if columns[c - 1] == columns[c - 1 - distance] else "U")
            else:
                if c - distance < 0:
                    continue
                other = columns[c - distance]
                marks.append("R" if r < other or r > other else "U")
    return marks


def column_marks(marks: Sequence[str]) -> list[list[str]]:
    """A derived road's marks in columns (a new column each time the colour changes)."""
    cols: list[list[str]] = []
    for m in marks:
        if cols and cols[-1][-1] == m:
            cols[-1].append(m)
        else:
            cols.append([m])
    return cols


def roads(results: Sequence[str]) -> dict[str, object]:
    """Every board and the shoe's statistics, as a page draws them."""
    big = big_road(results)
    return {
        "hands": len(results),
        "counts": {k: sum(1 for r in results if r == k) for k in ("punto", "banco", "pari")},
        "bead_plate": [(c.col, c.row, c.winner) for c in bead_plate(results)],
        "big_road": [(c.col, c.row, c.winner, c.ties) for c in big.cells],
        "big_eye_boy": column_marks(derived_road(big.columns, 1)),
        "small_road": column_marks(derived_road(big.columns, 2)),
        "cockroach_pig": column_marks(derived_road(big.columns, 3)),
    }
