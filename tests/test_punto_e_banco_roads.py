"""The roads from known sequences of results, each drawn by hand in the test."""

from __future__ import annotations

from studio.games.punto_e_banco.roads import bead_plate, big_road, derived_road, roads

B, P, T = "banco", "punto", "pari"


def test_bead_plate_six_to_a_column_ties_included():
    cells = [(c.col, c.row, c.winner) for c in bead_plate([B, B, P, T, P, P, B])]
    assert cells == [(0, 0, "B"), (0, 1, "B"), (0, 2, "P"), (0, 3, "T"), (0, 4, "P"),
                     (0, 5, "P"), (1, 0, "B")]


def test_big_road_columns_change_with_the_winner_and_ties_mark_the_cell_before():
    #   col 0  col 1  col 2
    #   B      P(1)   B        P(1): a tie came right after this Punto win
    #   B      P
    #          P
    road = big_road([T, B, B, P, T, P, P, B])
    cells = [(c.col, c.row, c.winner, c.ties) for c in road.cells]
    assert cells == [(0, 0, "B", 1), (0, 1, "B", 0), (1, 0, "P", 1), (1, 1, "P", 0),
                     (1, 2, "P", 0), (2, 0, "B", 0)]  # the leading tie waits for B
    assert road.columns == [2, 3, 1]


def test_a_long_column_turns_right_along_the_bottom_the_dragon_tail():
    #   B P . .
    #   B P . .
    #   B P . .
    #   B P . .
    #   B P P P      the Punto column meets the tail below and turns right too
    #   B B B
    road = big_road([B] * 8 + [P] * 7)
    cells = [(c.col, c.row, c.winner) for c in road.cells]
    assert cells[:8] == [(0, r, "B") for r in range(6)] + [(1, 5, "B"), (2, 5, "B")]
    assert cells[8:] == [(1, r, "P") for r in range(5)] + [(2, 4, "P"), (3, 4, "P")]
    assert road.columns == [8, 7]


def test_big_eye_boy_small_road_and_cockroach_pig():
    # big road columns: [2, 3, 1, 1, 2]
    columns = big_road([B, B, P, P, P, B, P, B, B]).columns
    assert columns == [2, 3, 1, 1, 2]
    # big eye boy (1 apart): col1 row1 (col0 has row1: red), col1 row2 (col0 ends at row1,
    # exactly one short: blue), col2 row0 (cols 1 and 0: 3 vs 2, blue), col3 row0 (cols 2, 1:
    # 1 vs 3, blue), col4 row0 (cols 3, 2: 1 vs 1, red), col4 row1 (col3 has 1: blue)
    assert derived_road(columns, 1) == ["R", "U", "U", "U", "R", "U"]
    # small road (2 apart): starts at col2 row1 or col3 row0: col3 row0 (cols 2, 0: 1 vs 2,
    # blue), col4 row0 (cols 3, 1: 1 vs 3, blue), col4 row1 (col2 has 1 hand: blue)
    assert derived_road(columns, 2) == ["U", "U", "U"]
    # cockroach pig (3 apart): col4 row0 (cols 3, 0: 1 vs 2, blue), col4 row1 (col1 has 3: red)
    assert derived_road(columns, 3) == ["U", "R"]


def test_the_boards_and_the_shoes_statistics_together():
    r = roads([B, P, T, P, B])
    assert r["hands"] == 5 and r["counts"] == {"punto": 2, "banco": 2, "pari": 1}
    assert r["big_road"][1] == (1, 0, "P", 1)
    # big road columns [1, 2, 1]: col1 row1 (col0 is exactly one short: blue), col2 row0
    # (cols 1 and 0 are 2 and 1 long: blue)
    assert r["big_eye_boy"] == [["U", "U"]] and r["small_road"] == []
