"""Sette e Mezzo Quota Fissa rules (RULES.md and the regulation's disconnection defaults)."""

import pytest

from studio.cards import parse_cards
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_quota_fissa import rules as qf


def hand(codes: str) -> Hand:
    return Hand.of(parse_cards(codes))


def test_must_hit_below_the_banks_card_and_on_a_lone_matta():
    assert qf.must_hit(hand("3c"), hand("4c"))
    assert qf.must_hit(hand("Kd"), hand("Jc"))
    assert not qf.must_hit(hand("4c"), hand("4b"))


def test_cannot_hit_at_seven_and_a_half_otherwise_free():
    assert not qf.may_hit(hand("7c Jb"), hand("2c"))
    assert qf.may_hit(hand("7c"), hand("2c"))
    assert qf.may_hit(hand("Kd 3c"), hand("2c"))  # 7 with the matta: still free
    assert not qf.may_hit(hand("6c 3b"), hand("2c"))  # bust


def test_no_royal_bonus_and_every_tie_is_a_push():
    assert qf.settle(hand("Kd Jc"), hand("7c Jb")) is qf.Result.PUSH
    assert qf.settle(hand("5c"), hand("5b")) is qf.Result.PUSH      # 5-5 included
    assert qf.settle(hand("6c"), hand("4c 4b")) is qf.Result.WIN     # bank bust pays
    assert qf.settle(hand("6c 3b"), hand("4c 4b")) is qf.Result.LOSE  # player bust first
    assert qf.returned(1000, qf.Result.WIN, qf.Fraction(1)) == 2000
    assert qf.returned(1000, qf.Result.PUSH, qf.Fraction(1)) == 1000


def test_bank_draws_below_five_with_its_matta_wild():
    assert qf.bank_must_draw(hand("Kd"))
    assert not qf.bank_must_draw(hand("Kd 2c"))  # 7


@pytest.mark.parametrize("player,bank,hits", [
    ("Kd", "5c", True),        # first-card matta hits
    ("5c", "Kd", True),        # against the bank's matta: hit up to 7
    ("6c Jb", "Kd", True),
    ("7c", "Kd", False),
    ("4c", "2c", True),        # below 5
    ("5c", "2c", False),
    ("5c", "6c", True),        # below the bank (forced anyway)
])
def test_choices_made_for_a_player_who_never_comes_back(player, bank, hits):
    assert qf.disconnected_player_hits(hand(player), hand(bank)) is hits
