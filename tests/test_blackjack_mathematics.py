"""Blackjack mathematics: side bets exact (against closed forms), the main game under best
play (its figure, a published range, known strategy cells), the dealer's grouped paths against
the card-by-card recursion, the paytable check at configuration load, and the commands."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from studio.cli import main as cli
from studio.config import ConfigError, parse_config
from studio.games.blackjack import mathematics as m
from studio.games.blackjack.rules import Bet, Paytable
from tests.bench.bench_rtp_blackjack import straightforward_dealer

N = 416  # eight decks


@pytest.fixture(scope="module")
def main() -> m.MainReport:
    return m.main_game(8, Paytable())


def test_pair_bets_exact():
    # the second card against the first: 7 identical, 8 of the other suit of its colour,
    # 16 of the other colour, out of 415
    expected = Fraction(7 * 25 + 8 * 12 + 16 * 5, 415)
    returns = m.side_returns(Paytable())
    assert returns[Bet.PLAYER_PAIR] == returns[Bet.DEALER_PAIR] == expected
    assert round(float(expected) * 100, 4) == 84.5783


def test_twenty_one_plus_three_exact():
    suited = Fraction(7 * 6, 415 * 414)
    tris = Fraction(31 * 30, 415 * 414) - suited
    colour = Fraction(103 * 102, 415 * 414) - suited
    expected = 5 * colour + 30 * tris + 100 * suited
    assert m.side_returns(Paytable())[Bet.TWENTY_ONE_THREE] == expected
    assert round(float(expected) * 100, 4) == 48.4023


def test_insurance_exact():
    assert m.side_returns(Paytable())[Bet.INSURANCE] == Fraction(3 * 128, 415)


def test_dealer_paths_match_the_card_by_card_recursion():
    left = list(m.shoe_counts(8))
    for v, k in ((10, 3), (5, 2), (1, 1), (2, 4)):  # some cards out
        left[v - 1] -= k
    for up in m.VALUES:
        rest = left.copy()
        rest[up - 1] -= 1
        grouped = m.DealerPaths.enumerate(up).distribution(tuple(rest))
        assert grouped == pytest.approx(straightforward_dealer(rest, up), abs=1e-13)
        assert grouped.sum() == pytest.approx(1.0, abs=1e-12)


def test_main_game_figure(main):
    assert round(main.return_ * 100, 4) == 99.4589
    # published: 8 decks S17 no DAS no resplit around 0.57-0.60 % with a peek and no hitting
    # of split aces; hitting split aces about -0.13, no peek (lose all) about +0.11
    assert 0.45 < -main.expected_net * 100 < 0.65


def test_strategy_cells_no_hole_card(main):
    cells = {(c.row, c.up): c.action for c in main.table}
    assert cells[("hard 11", 10)] == "H"  # no peek: not a double against a ten
    assert cells[("hard 11", 9)] == "D"
    assert cells[("pair 8", 10)] == "H"  # no peek: 8,8 against a ten is not split
    assert cells[("pair A", 1)] == "P"
    assert cells[("hard 12", 4)] == "S" and cells[("hard 12", 3)] == "H"
    assert cells[("hard 16", 10)] == "H"
    assert cells[("soft 18", 3)] == "Ds"
    assert cells[("pair 10", 6)] == "S"
    assert main.after_first[("hard", 16, 10)] == "S"  # three cards: composition tips it


def test_a_split_hands_21_is_not_paid_as_blackjack():
    solver = m.Solver()
    ace_ten = (1,) + (0,) * 8 + (1,)
    dealt = solver.stand(ace_ten, 6)  # blackjack: 3:2 unless the dealer has one
    after_split = solver.stand(ace_ten, 6, extra=1)  # 21: 1:1, and a dealer blackjack wins
    assert dealt == pytest.approx(1.5, abs=0.01)
    assert 0.85 < after_split < 1.0


BLACKJACK_TOML = {
    "studio": {"database_url": "sqlite://"},
    "tables": [{"id": "bj-1", "name": "Blackjack", "game": "blackjack",
                "limits": {"main_min": 100, "main_max": 100_000, "side_min": 100,
                           "side_max": 10_000, "round_max_total": 100_000}}],
}


def test_config_accepts_the_regulation_paytable(main):
    cfg = parse_config(BLACKJACK_TOML)
    table = cfg.first_table("blackjack")
    assert table.decks == 8 and table.positions == 5
    assert table.paytable.to_paytable() == Paytable()


def test_config_refuses_a_paytable_above_100_percent(main):
    data = json.loads(json.dumps(BLACKJACK_TOML))
    data["tables"][0]["paytable"] = {"perfect_pair": "250:1"}
    with pytest.raises(ConfigError) as e:
        parse_config(data)
    assert "player_pair returns" in str(e.value) and "8 deck(s)" in str(e.value)
    assert "dealer_pair returns" in str(e.value)
    assert m.check_paytable(Paytable(insurance=Fraction(3))) == [
        "insurance returns 123.3735 % with 8 deck(s) (above the bound of 100 %)"]


def test_rtp_command(main, capsys):
    assert cli(["rtp", "blackjack", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["main"]["return_pct"] == 99.4589
    assert data["side_bets"]["twenty_one_three"]["return_pct"] == 48.4023
    assert data["strategy"]["first_decision"]["pair A vs A"] == "P"
    assert cli(["rtp", "blackjack"]) == 0
    text = capsys.readouterr().out
    assert "main bet return" in text and "pair 8" in text and "Player Pair" in text


@pytest.mark.slow
def test_monte_carlo_agrees_with_the_exact_figures(main, capsys):
    assert cli(["simulate", "blackjack", "--rounds", "20000", "--seed", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for bet in ("main", "player_pair", "twenty_one_three", "dealer_pair"):
        assert abs(data["bets"][bet]["z"]) < 4, (bet, data["bets"][bet])
    assert data["bets"]["main"]["standard_error_pct"] < 1.0
