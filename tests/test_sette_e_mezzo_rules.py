"""Sette e Mezzo Live rules, case by case as RULES.md states them."""

import pytest

from studio.cards import parse_cards
from studio.games.sette_e_mezzo import Hand, format_halves
from studio.games.sette_e_mezzo_live import rules as live
from studio.games.sette_e_mezzo_live.rules import MainResult as R


def hand(codes: str) -> Hand:
    return Hand.of(parse_cards(codes))


def value(codes: str) -> str:
    return format_halves(hand(codes).total)


# ---------------------------------------------------------------- the matta

@pytest.mark.parametrize("codes,expected", [
    ("Kd", "1/2"),            # alone: 1/2
    ("Kd Jc", "7 1/2"),       # + figure: matta is 7
    ("Kd 7s", "7 1/2"),       # + 7: matta is 1/2
    ("Kd Ac", "7"),           # + asso: 6 makes 7 (1/2 would only make 1 1/2)
    ("Kd 3c", "7"),
    ("Kd 6b", "7"),
    ("Kd 2c Qs", "7 1/2"),    # others 2 1/2: matta 5
    ("Kd Jc Qs", "7"),        # two figures make 1: matta 6 (7 1/2 is out of reach)
    ("Kd 3c 4s", "7 1/2"),    # others 7: matta 1/2
    ("Kd 4c 4s", "8 1/2"),    # others 8 exceed 7: bust, matta at its lowest 1/2
    ("Kd 7c Jb", "8"),        # others 7 1/2 exceed 7: bust
    ("Jc Kd", "7 1/2"),       # order does not matter
    ("5c 2b Kd", "7 1/2"),    # others 7
    ("Ac Ab Kd", "7"),        # others 2
])
def test_matta_cases(codes, expected):
    assert value(codes) == expected


def test_matta_value_is_chosen_again_after_every_card():
    assert value("Kd 3c") == "7"            # matta 4
    assert value("Kd 3c Jb") == "7 1/2"     # matta 4 -> 4: 3 1/2 + 4
    assert value("Kd 3c Jb 2s") == "7 1/2"  # matta 2
    assert value("Kd 3c Jb 2s Qs") == "7"   # others 6: matta 1
    assert value("Kd 3c Jb 2s Qs Ac") == "7 1/2"  # others 7: matta 1/2
    assert hand("Kd 3c Jb 2s Qs Ac Jd").bust  # others 7 1/2: bust


def test_the_dealers_matta_works_the_same_way():
    assert not live.dealer_must_draw(hand("Kd 2c"))    # 7
    assert live.dealer_must_draw(hand("Kd"))           # 1/2
    assert hand("Jc Kd").royal                         # dealer Royal: figure then matta


def test_figures_count_half_and_numbers_face_value():
    assert value("Jc Qb Ks") == "1 1/2"
    assert value("Ac 2c 3c") == "6"
    assert hand("7c Ac").bust


# ---------------------------------------------------------------- Royal

@pytest.mark.parametrize("codes,royal", [
    ("Kd Jc", True), ("Kd Qs", True), ("Kd Kc", True), ("Kd 7b", True), ("7b Kd", True),
    ("Kd 6b", False),          # 7, not 7 1/2
    ("Kd 3c 4s", False),       # 7 1/2 on three cards
    ("Kc Jc", False),          # no matta
    ("7c Jc", False),          # ordinary 7 1/2
])
def test_royal_is_two_cards_matta_plus_figure_or_seven(codes, royal):
    assert hand(codes).royal is royal


def test_player_royal_beats_an_ordinary_seven_and_a_half_and_pays_3_to_2():
    assert live.settle_main(hand("Kd Jc"), hand("7c Qb")) is R.ROYAL
    assert live.main_returned(1000, R.ROYAL, live.LivePaytable()) == 2500


def test_dealer_royal_beats_an_ordinary_seven_and_a_half():
    assert live.settle_main(hand("7c Qb"), hand("Jc Kd")) is R.LOSE
    assert live.settle_main(hand("3c 4b Jc"), hand("Kd 7s")) is R.LOSE


def test_player_royal_always_wins_even_if_the_dealer_busts():
    assert live.settle_main(hand("Kd 7b"), hand("4c 4b")) is R.ROYAL


def test_royal_is_truncated_to_the_cent():
    assert live.main_returned(101, R.ROYAL, live.LivePaytable()) == 101 + 151  # 151.5 -> 151


# ---------------------------------------------------------------- settlement

@pytest.mark.parametrize("player,dealer,result", [
    ("7c Jb", "6c Ab", R.WIN),        # 7 1/2 vs 7
    ("5c", "5b", R.LOSE),              # tie at 5 is lost
    ("3c 2b", "4c Ab", R.LOSE),        # tie at 5 on more cards too
    ("5c Jb", "5b Qc", R.PUSH),        # tie at 5 1/2 is a push
    ("7c", "6c Ab", R.PUSH),           # tie at 7
    ("7c Jb", "7b Jc", R.PUSH),        # ordinary 7 1/2 tie
    ("6c", "4c 4b", R.WIN),            # dealer bust pays 1:1
    ("6c 3b", "4c 4b", R.LOSE),        # player bust loses even when the dealer busts
    ("5c", "6c", R.LOSE),
])
def test_settlement(player, dealer, result):
    assert live.settle_main(hand(player), hand(dealer)) is result


def test_returns_in_cents():
    pt = live.LivePaytable()
    assert live.main_returned(500, R.WIN, pt) == 1000
    assert live.main_returned(500, R.PUSH, pt) == 500
    assert live.main_returned(500, R.LOSE, pt) == 0


# ---------------------------------------------------------------- automatic draws and decisions

def test_automatic_draw_when_the_only_card_is_the_matta():
    assert live.must_draw_automatically(hand("Kd"), hand("Jc"))
    assert not live.may_decide(hand("Kd"), hand("Jc"))


@pytest.mark.parametrize("player,draws", [
    ("6c", True), ("6c Jb", True), ("3c 3b", True), ("7c", False), ("Jb 5c Ab", True), ("Jb 6c Ab", False),
    ("3c 4b", False), ("7c Jb", False),
])
def test_automatic_draw_below_7_when_the_dealer_shows_the_matta(player, draws):
    assert live.must_draw_automatically(hand(player), hand("Kd")) is draws


def test_automatic_draw_while_below_the_dealers_first_card():
    assert live.must_draw_automatically(hand("3c"), hand("4c"))
    assert live.must_draw_automatically(hand("3c Jb"), hand("4c"))
    assert not live.must_draw_automatically(hand("4c"), hand("4b"))   # equal is not below
    assert not live.must_draw_automatically(hand("Jc"), hand("Qb"))   # 1/2 vs 1/2


def test_a_bust_hand_draws_nothing_more():
    assert not live.must_draw_automatically(hand("6c 5b"), hand("7c"))


def test_decisions_at_7_or_less_and_not_below_the_dealer():
    assert live.may_decide(hand("4c"), hand("4b"))
    assert live.may_decide(hand("7c"), hand("2b"))
    assert live.may_decide(hand("Kd 2b"), hand("Kc"))      # a matta hand worth 7
    assert not live.may_decide(hand("7c Jb"), hand("2b"))  # 7 1/2 stands automatically
    assert not live.may_decide(hand("3c"), hand("4b"))     # below: automatic, not a choice


@pytest.mark.parametrize("player,dealer,wins", [
    ("4c 2b", "5c", True),      # 6 > 5, two cards
    ("6c", "5c", False),        # one card only
    ("3c 2b", "5c", False),     # 5 does not beat 5
    ("4c 3b", "7c", False),     # 7 does not beat 7
    ("7c Jb", "7c", True),
    ("4c 2b", "4b", False),     # the dealer shows 4: will draw
    ("Jc Kd", "6c", True),      # a Royal wins at once too (and settles as Royal)
])
def test_automatic_win(player, dealer, wins):
    assert live.automatic_win(hand(player), hand(dealer)) is wins


def test_automatic_win_of_a_royal_pays_as_a_royal():
    assert live.settle_main(hand("Jc Kd"), hand("6c")) is R.ROYAL


def test_dealer_draws_below_5_and_stands_on_5():
    assert live.dealer_must_draw(hand("4c Jb"))
    assert not live.dealer_must_draw(hand("5c"))
    assert not live.dealer_must_draw(hand("2c 3b"))


def test_deal_order_is_positions_then_dealer():
    assert live.deal_order([3, 1]) == [1, 3, None]


def test_a_hand_that_already_won_automatically_is_not_offered_a_choice():
    assert live.automatic_win(hand("4c 2b"), hand("5c"))
    assert not live.may_decide(hand("4c 2b"), hand("5c"))
    assert live.may_decide(hand("6c"), hand("5c"))  # one card: no automatic win yet


def test_a_dealt_sequences_hand_is_the_hand_of_its_cards():
    """`Hand.of_dealt` (computed once per sequence for thousands of views) is `Hand.of`."""
    from studio.cards import parse_card

    for codes in ((), ("Kc",), ("7b", "Kd"), ("5c", "6d", "Ks"), ("Ab", "2b", "3b", "Kd")):
        cards = tuple(parse_card(c) for c in codes)
        assert Hand.of_dealt(cards) == Hand.of(cards) == Hand.of_dealt(cards)
