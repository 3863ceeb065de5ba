"""Partita Perfetta and Mano di Poker: every class and every exclusion of RULES.md."""

import pytest

from studio.cards import parse_card, parse_cards
from studio.games.sette_e_mezzo_live import rules as live
from studio.games.sette_e_mezzo_live.rules import ManoDiPoker as M
from studio.games.sette_e_mezzo_live.rules import PartitaPerfetta as P
from studio.games.sette_e_mezzo_live.rules import SideResult

PT = live.LivePaytable()


@pytest.mark.parametrize("player,dealer,kind", [
    ("7c", "7s", P.SEVENS),
    ("Jc", "Jb", P.FIGURES),
    ("Qd", "Qs", P.FIGURES),
    ("Kd", "Kc", P.FIGURES),      # the matta is an ordinary re here
    ("Kc", "Kd", P.FIGURES),
    ("Ac", "Ab", P.LOW), ("6c", "6d", P.LOW), ("3c", "3s", P.LOW),
    ("Jc", "Qc", P.NONE),          # two figures of different kinds are no pair
    ("Kd", "Jd", P.NONE),          # the matta is not wild here
    ("5c", "4c", P.NONE),
])
def test_partita_perfetta_classes(player, dealer, kind):
    assert live.partita_perfetta(parse_card(player), parse_card(dealer)) is kind


@pytest.mark.parametrize("player,dealer,returned", [
    ("7c", "7s", 100 * 56), ("Jc", "Jb", 100 * 11), ("2c", "2b", 100 * 6), ("2c", "3b", 0),
])
def test_partita_perfetta_pays_from_the_paytable(player, dealer, returned):
    s = live.settle_partita_perfetta(100, parse_card(player), parse_card(dealer), PT)
    assert s.returned == returned
    assert s.result is (SideResult.WIN if returned else SideResult.LOSE)


@pytest.mark.parametrize("codes,kind", [
    ("Jc Qc Kc", M.SCALA_REALE),
    ("Jd Qd Kd", M.SCALA_REALE),   # matta as an ordinary re
    ("Ac 2c 3c", M.SCALA_COLORE),
    ("5s 6s 7s", M.SCALA_COLORE),
    ("4b 2b 3b", M.SCALA_COLORE),  # any order
    ("7c 7b 7s", M.TRIS),
    ("Kd Kc Ks", M.TRIS),          # matta as an ordinary re
    ("Jc Jb Jd", M.TRIS),
    ("2c 5c Jc", M.COLORE),
    ("Ac 2b 3c", M.SCALA),
    ("5s 6c 7s", M.SCALA),
    ("Jc Qb Kd", M.SCALA),         # fante-cavallo-re not all one suit
    ("6c 7c Jc", M.COLORE),        # no 6-7-fante run: only a colore
    ("6c 7b Jc", M.NONE),
    ("7c Jc Qc", M.COLORE),        # no 7-fante-cavallo run
    ("7c Jb Qc", M.NONE),
    ("Qc Kc Ac", M.COLORE),        # no wrap-around
    ("Qc Kb Ac", M.NONE),
    ("Kd Jc 5s", M.NONE),          # the matta is not wild
    ("Ac Ab 2c", M.NONE),          # a pair pays nothing
])
def test_mano_di_poker_classes(codes, kind):
    assert live.mano_di_poker(parse_cards(codes)) is kind


def test_mano_di_poker_pays_only_the_best_class():
    # a suited run is a Scala a Colore (75), not also a Colore (6) or a Scala (5)
    s = live.settle_mano_di_poker(100, parse_cards("3c 4c"), parse_card("5c"), PT)
    assert (s.kind, s.returned) == ("scala_a_colore", 100 * 76)
    s = live.settle_mano_di_poker(100, parse_cards("Jb Qb"), parse_card("Kb"), PT)
    assert (s.kind, s.returned) == ("scala_reale", 100 * 151)


def test_mano_di_poker_uses_the_first_two_cards_and_the_dealers_first():
    s = live.settle_mano_di_poker(100, parse_cards("7c 7b Ac"), parse_card("7s"), PT)
    assert s.kind == "tris"


def test_mano_di_poker_is_refunded_without_a_second_card():
    s = live.settle_mano_di_poker(250, parse_cards("6c"), parse_card("5c"), PT)
    assert s.result is SideResult.REFUND and s.returned == 250


def test_mano_di_poker_needs_three_cards():
    with pytest.raises(ValueError):
        live.mano_di_poker(parse_cards("Ac 2c"))
