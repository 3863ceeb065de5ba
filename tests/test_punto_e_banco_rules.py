"""Punto e Banco, the rules (RULES.md and the regulation), each named by its test."""

from __future__ import annotations

from fractions import Fraction

import pytest

from studio.cards import parse_cards
from studio.games.punto_e_banco import rules
from studio.games.punto_e_banco.rules import Bet, Paytable

# The regulation's table exactly as printed: Banco's total, then S/C for Punto's third card
# worth 0 1 2 3 4 5 6 7 8 9.
PRINTED = """
7 S S S S S S S S S S
6 S S S S S S C C S S
5 S S S S C C C C S S
4 S S C C C C C C S S
3 C C C C C C C C S C
2 C C C C C C C C C C
1 C C C C C C C C C C
0 C C C C C C C C C C
"""
CELLS = [(int(row.split()[0]), third, mark == "C")
         for row in PRINTED.strip().splitlines() for third, mark in enumerate(row.split()[1:])]
# a card worth each point value, as Punto's third card
CARD_WORTH = {0: "Kd", 1: "Ac", 2: "2c", 3: "3c", 4: "4c", 5: "5c", 6: "6c", 7: "7c",
              8: "8c", 9: "9c"}


def cards(text: str):
    return parse_cards(text)


def test_card_values_and_totals_modulo_ten():
    assert [rules.points(c) for c in cards("Ac 2d 9s Tc Jd Qb Ks")] == [1, 2, 9, 0, 0, 0, 0]
    assert rules.total(cards("5c 9d")) == 4  # the regulation's example: 5 + 9 = 14 -> 4
    assert rules.total(cards("Kc Qd")) == 0


@pytest.mark.parametrize("banco_total, third, draws", CELLS)
def test_every_cell_of_the_banco_table(banco_total, third, draws):
    card = parse_cards(CARD_WORTH[third])[0]
    assert rules.banco_draws(banco_total, card) is draws


def test_the_table_has_all_eighty_cells():
    assert len(CELLS) == 80 and set(rules.BANCO_TABLE) == set(range(8))


@pytest.mark.parametrize("total, draws", [(t, t <= 5) for t in range(8)])
def test_punto_draws_on_0_to_5_and_stands_on_6_and_7(total, draws):
    assert rules.punto_draws(total) is draws


@pytest.mark.parametrize("total, draws", [(t, t <= 5) for t in range(8)])
def test_banco_draws_on_0_to_5_when_punto_stood(total, draws):
    assert rules.banco_draws(total, None) is draws


def test_cards_one_and_three_to_punto_two_and_four_to_banco_then_third_cards():
    p, b = [], []
    deal = iter(cards("2c 3d 3s 4b 5c 6d"))  # Punto 2+3=5 draws; Banco 3+4=7
    while (side := rules.next_card(p, b)) is not None:
        (p if side == "punto" else b).append(next(deal))
    assert [c.code for c in p] == ["2c", "3s", "5c"] and [c.code for c in b] == ["3d", "4b"]
    # Banco at 7 stands whatever Punto's third card: 5 + 5 = 0 against 7
    assert rules.outcome(p, b) is rules.Outcome.BANCO


def test_a_natural_ends_the_hand():
    assert rules.next_card(cards("8c Kd"), cards("2s 3b")) is None
    assert rules.next_card(cards("2c 3d"), cards("9s Kb")) is None
    assert rules.is_natural(cards("4c 5d")) and not rules.is_natural(cards("4c 3d"))


def test_punto_stands_banco_draws_on_five_or_less():
    assert rules.next_card(cards("6c Kd"), cards("2s 3b")) == "banco"
    assert rules.next_card(cards("7c Kd"), cards("3s 3b")) is None


def test_banco_wins_pay_one_to_one_less_five_percent_truncated_to_the_cent():
    pt = Paytable()
    won = rules.settle(Bet.BANCO, 199, cards("2c 3d"), cards("4s 4b"), pt)  # 5 vs 8
    assert won.returned == 199 + 189 and won.commission == 10  # 189.05 -> 189
    won = rules.settle(Bet.BANCO, 1000, cards("2c 3d"), cards("4s 4b"), pt)
    assert won.returned == 1950 and won.commission == 50
    assert rules.settle(Bet.BANCO, 333, cards("2c 3d"), cards("4s 4b"), pt).returned == 333 + 316


def test_punto_pays_one_to_one_and_ties_return_punto_and_banco_bets():
    pt = Paytable()
    assert rules.settle(Bet.PUNTO, 1000, cards("4s 4b"), cards("2c 3d"), pt).returned == 2000
    tie_p, tie_b = cards("4s 3b"), cards("5c 2d")  # 7 - 7
    for bet in (Bet.PUNTO, Bet.BANCO):
        s = rules.settle(bet, 1000, tie_p, tie_b, pt)
        assert (s.returned, s.result) == (1000, "push")
    assert rules.settle(Bet.PARI, 1000, tie_p, tie_b, pt).returned == 10_000  # 9:1
    assert rules.settle(Bet.PARI, 1000, cards("4s 4b"), cards("2c 3d"), pt).returned == 0


def test_pairs_are_that_sides_first_two_cards_of_the_same_rank():
    pt = Paytable()
    p, b = cards("7s 7d 2c"), cards("Kc Qd 5s")
    assert rules.settle(Bet.PUNTO_PAIR, 100, p, b, pt).returned == 1600  # 15:1
    assert rules.settle(Bet.BANCO_PAIR, 100, p, b, pt).returned == 0  # K and Q: no pair
    assert rules.is_pair(cards("Kc Kd")) and not rules.is_pair(cards("Kc Qc"))
    # a third card never makes a pair
    assert not rules.is_pair(cards("2c 3c 2d"))


def test_every_bet_may_be_played_in_one_hand():
    pt = Paytable(punto_pair=Fraction(11), banco_pair=Fraction(11))
    p, b = cards("9c 9d"), cards("Ks Kc")
    back = {bet: rules.settle(bet, 100, p, b, pt).returned for bet in Bet}
    assert back == {Bet.PUNTO: 200, Bet.BANCO: 0, Bet.PARI: 0, Bet.PUNTO_PAIR: 1200,
                    Bet.BANCO_PAIR: 1200}
