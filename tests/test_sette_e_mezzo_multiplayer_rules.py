"""Sette e Mezzo multiplayer (piatto and classica): every rule of RULES.md's section, by name.

Cards are given explicitly (the table's RNG shoe supplies them in play); amounts in cents.
"""

from __future__ import annotations

import pytest

from studio.cards import parse_card, parse_cards
from studio.games.sette_e_mezzo_multiplayer import classica as C
from studio.games.sette_e_mezzo_multiplayer import piatto as P
from studio.games.sette_e_mezzo_multiplayer.acceptance import (
    accept_classica,
    accept_piatto,
    bank_range,
    tournament_refusal_penalty,
)
from studio.games.sette_e_mezzo_multiplayer.advance import Preset, apply, remove_preset, set_preset
from studio.games.sette_e_mezzo_multiplayer.attendance import after_bank, idle_stand_up
from studio.games.sette_e_mezzo_multiplayer.autoplay import (
    DEFAULT_THRESHOLD,
    AutoPlay,
    auto_hits,
    banker_hits,
    punter_hits,
)
from studio.games.sette_e_mezzo_multiplayer.banker import matta_deal, next_banker, resume_banker
from studio.games.sette_e_mezzo_multiplayer.buttons import (
    Button,
    advance_buttons,
    buttons,
    offer_buttons,
)
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.hands import banker_wins, hand
from studio.games.sette_e_mezzo_multiplayer.money import rake_cents, share_cents
from studio.games.sette_e_mezzo_multiplayer.table_rules import Kind, TableRules, Variant
from studio.games.sette_e_mezzo_multiplayer.tournament import Elimination, ranking
from studio.games.sette_e_mezzo_multiplayer.turns import Deal, Phase

PIATTO_CASH = TableRules(Variant.PIATTO, Kind.CASH, min_bet=100, min_bank=1000, rake_bp=500)
PIATTO_TOURNAMENT = TableRules(Variant.PIATTO, Kind.TOURNAMENT, min_bet=100, min_bank=1000)
CLASSICA = TableRules(Variant.CLASSICA, Kind.CASH, min_bet=100, min_bank=200, rake_bp=500)
SEATS = ["A", "B", "C", None, "D"]  # A's right is B, then C, then D, then A


def h(codes: str):
    return hand(parse_cards(codes))


def feed(module, bank, codes: str):
    """Deal the given cards, one by one, to whoever the bank expects."""
    for card in parse_cards(codes):
        bank = module.deal(bank, card)
    return bank


def refused(code: str, step, *args):
    """The step is refused with `code`, and the state passed in is unchanged."""
    state = args[0]
    before = repr(state)
    with pytest.raises(MultiplayerError) as e:
        step(*args)
    assert e.value.code == code
    assert repr(state) == before


def piatto_bank(credits=None, piatto=2000, rules=PIATTO_CASH, sitout=()):
    credits = credits or {"A": 5000, "B": 3000, "C": 3000, "D": 3000}
    return P.shuffled(P.open_bank(rules, SEATS, "A", piatto, credits, sitout))


# --------------------------------------------------------------------------- the banker

def test_banker_at_the_start_is_who_receives_the_matta_one_card_at_a_time_from_a_random_one():
    # From seat 1 (B): B, C, D, A, B, ... ; the matta is the 6th card -> C.
    cards = parse_cards("2c 3c 4c 5c 6c Kd")
    assert matta_deal(SEATS, (), 1, cards) == "C"
    assert matta_deal(SEATS, (), 0, cards) == "B"  # A, B, C, D, A, B


def test_banker_at_the_start_deals_only_to_seated_players_not_in_sitout():
    cards = parse_cards("2c 3c Kd")
    assert matta_deal(SEATS, ("B",), 0, cards) == "D"  # A, C, D
    with pytest.raises(MultiplayerError) as e:
        matta_deal(SEATS, (), 3, cards)
    assert e.value.code == "mp.bad_seat"
    with pytest.raises(MultiplayerError) as e:
        matta_deal(SEATS, (), 0, parse_cards("2c 3c"))
    assert e.value.code == "mp.matta_not_dealt"


def test_bank_passes_to_the_right_skipping_a_player_who_has_not_yet_bet_at_this_table():
    assert next_banker(SEATS, 0, {"A", "B", "C", "D"}) == "B"
    assert next_banker(SEATS, 0, {"A", "C", "D"}) == "C"  # B just sat down
    assert next_banker(SEATS, 2, {"A", "B", "C", "D"}) == "D"  # the empty seat 3 is skipped
    assert next_banker(SEATS, 4, {"A", "B"}) == "A"  # wraps round
    left = ["A", None, "C", None, "D"]  # B, the banker, has left: its right still counts
    assert next_banker(left, 1, {"A", "C", "D"}) == "C"


def test_after_an_interruption_the_first_in_turn_among_those_present_then_banks():
    now = ["E", "B", None, None, "D"]
    assert resume_banker(now, 1, {"A", "B", "C", "D"}) == "B"
    assert resume_banker(now, 2, {"A", "B", "C", "D"}) == "D"  # C, due, has gone
    assert resume_banker(now, 2, {"A", "C"}) is None  # nobody from then: the matta deal again


# --------------------------------------------------------------------------- accepting the bank

def test_accepting_the_piatto_at_least_the_minimum_or_all_credit_when_less():
    assert accept_piatto(PIATTO_CASH, 5000, 1000) == 1000
    assert accept_piatto(PIATTO_CASH, 600, 600) == 600  # all-in
    assert bank_range(PIATTO_CASH, 600) == (600, 600)
    for credit, amount, code in [(5000, 999, "mp.bank_below_minimum"),
                                 (600, 500, "mp.bank_below_minimum"),
                                 (5000, 5001, "mp.bank_above_credit"),
                                 (0, 0, "mp.no_credit")]:
        with pytest.raises(MultiplayerError) as e:
            accept_piatto(PIATTO_CASH, credit, amount)
        assert e.value.code == code


def test_accepting_a_classica_bank_states_the_maximum_bet_shown_with_its_maximum_loss():
    terms = accept_classica(CLASSICA, 5000, 500, ["B", "C", "D"], {})
    assert (terms.max_bet, terms.max_loss, terms.all_in) == (500, 1500, False)
    assert offer_buttons(CLASSICA, 5000, 3) == (Button("Accetto", 200, 1666),)


def test_classica_minimum_bank_is_the_unit_minimum_times_the_punters():
    with pytest.raises(MultiplayerError) as e:
        accept_classica(CLASSICA, 5000, 199, ["B", "C", "D"], {})
    assert e.value.code == "mp.bank_below_minimum"
    with pytest.raises(MultiplayerError) as e:
        accept_classica(CLASSICA, 5000, 1700, ["B", "C", "D"], {})  # 5100 > 5000
    assert e.value.code == "mp.bank_above_credit"
    # 599 < 200 x 3: not enough for the minimum bank -> all-in
    assert accept_classica(CLASSICA, 599, 500, ["B", "C", "D"], {}).all_in


def test_classica_all_in_banker_maximum_is_credit_divided_by_punters_remainder_on_the_first():
    terms = accept_classica(CLASSICA, 500, None, ["B", "C", "D"], {})  # 500 < 600
    assert terms.all_in and terms.max_loss == 500
    assert dict(terms.caps) == {"B": 168, "C": 166, "D": 166}


def test_classica_all_in_first_punters_must_bet_the_minimum_until_the_bank_is_covered():
    credits = {"B": 3000, "C": 3000, "D": 3000}
    terms = accept_classica(CLASSICA, 250, None, ["B", "C", "D"], credits)  # 83 < 100 each
    assert dict(terms.forced) == {"B": 100, "C": 100, "D": 50}
    terms = accept_classica(CLASSICA, 150, None, ["B", "C", "D"], credits)
    assert dict(terms.forced) == {"B": 100, "C": 50}  # D is beyond the cover: sits out


def test_cash_tables_may_refuse_the_bank_freely_and_it_passes_right():
    with pytest.raises(MultiplayerError) as e:
        tournament_refusal_penalty(PIATTO_CASH, 5000, "A", ["B", "C", "D"])
    assert e.value.code == "mp.not_a_tournament"
    assert next_banker(SEATS, 0, {"A", "B", "C", "D"}) == "B"  # A refused: B is offered it


def test_tournament_refusal_costs_half_the_minimum_piatto_shared_remainder_to_the_first():
    # 1000 // 2 = 500 shared by 3: 167, 167, 166 (the remainder's cents from A's right)
    assert tournament_refusal_penalty(PIATTO_TOURNAMENT, 5000, "A", ["B", "C", "D"]) == {
        "A": -500, "B": 167, "C": 167, "D": 166}
    # less credit than that: all of it
    assert tournament_refusal_penalty(PIATTO_TOURNAMENT, 200, "A", ["B", "C"]) == {
        "A": -200, "B": 100, "C": 100}
    assert share_cents(5, ["x", "y", "z"]) == {"x": 2, "y": 2, "z": 1}


def test_a_banker_in_sitout_does_not_accept_a_piatto_bank():
    with pytest.raises(MultiplayerError) as e:
        P.open_bank(PIATTO_CASH, SEATS, "A", 2000, {"A": 5000, "B": 100}, sitout=("A",))
    assert e.value.code == "mp.banker_in_sitout"


# --------------------------------------------------------------------------- who wins

def test_who_wins_punter_bust_goes_to_the_banker_even_if_the_banker_busts_too():
    assert banker_wins(h("7c 4b"), h("6c 5b"))


def test_who_wins_banker_bust_pays_a_standing_punter():
    assert not banker_wins(h("2c"), h("6c 5b"))


def test_who_wins_the_higher_total():
    assert not banker_wins(h("6c Jb"), h("6b"))
    assert banker_wins(h("5c"), h("3c 3b"))


def test_every_tie_goes_to_the_banker_even_a_punters_two_card_sette_e_mezzo_with_the_matta():
    assert banker_wins(h("Kd 7d"), h("2c 3c 2b Jb"))  # matta + 7 di denari vs 7 1/2 in four
    assert banker_wins(h("4c"), h("4b"))
    assert banker_wins(h("Jc"), h("Qc"))


def test_no_double_payments_a_punters_two_card_sette_e_mezzo_is_paid_even_money():
    b = feed(P, P.join(piatto_bank(), "B", True), "Kd 4c")
    b = feed(P, P.stake(b, "B", 500, True), "Jd")  # matta + figure: 7 1/2 in two cards
    b = P.decide(P.decide(b, "B", False), "A", False)
    assert not b.results[-1].banker_won
    assert b.credits["B"] == 3000 + 500 - 50 and b.piatto == 1500


def test_hand_values_are_the_shared_ones_the_matta_at_its_best_and_a_lone_matta_half():
    assert h("Kd").total == 1 and h("Kd Jc").total == 15 and h("Kd 3c").total == 14
    assert h("Kd 4c 4b").bust and not h("Kd 4c 3b").bust  # bust only when the others pass 7


# --------------------------------------------------------------------------- rake

def test_rake_the_regulations_example_win_10_euro_at_5_percent_is_1_euro():
    assert rake_cents(1000, 500) == 100


def test_rake_classica_banker_net_20_euro_at_5_percent_is_2_euro():
    assert rake_cents(2000, 500) == 200


def test_rake_is_truncated_to_the_cent_and_nothing_on_a_negative_net():
    assert rake_cents(333, 500) == 33  # 33.3 cents: the house's disfavour
    assert rake_cents(-2000, 500) == 0
    assert rake_cents(0, 500) == 0


def test_prize_share_never_below_90_percent_caps_the_rake_at_5_percent():
    with pytest.raises(MultiplayerError) as e:
        TableRules(Variant.PIATTO, Kind.CASH, 100, 1000, rake_bp=501)
    assert e.value.code == "mp.rake_above_cap"
    stakes, paid = 2 * 1000, rake_cents(1000, 500)
    assert (stakes - paid) * 10 >= stakes * 9


def test_tournaments_are_piatto_only():
    with pytest.raises(MultiplayerError) as e:
        TableRules(Variant.CLASSICA, Kind.TOURNAMENT, 100, 200)
    assert e.value.code == "mp.tournament_piatto_only"


# --------------------------------------------------------------------------- piatto

def test_piatto_one_punter_at_a_time_from_the_bankers_right_face_down_to_punter_then_banker():
    b = piatto_bank()
    assert b.punters == ("B", "C", "D") and b.decider == "B" and b.phase is Phase.JOIN
    b = P.join(b, "B", True)
    assert b.expecting == Deal("B", False)
    b = P.deal(b, parse_card("5c"))
    assert b.expecting == Deal("A", False)
    b = P.deal(b, parse_card("4c"))
    assert b.expecting is None and b.decider == "B" and b.phase is Phase.STAKE


def test_piatto_punter_hits_face_up_cards_then_stands_and_the_banker_plays():
    b = feed(P, P.join(piatto_bank(), "B", True), "5c 4c")
    b = P.stake(b, "B", 500, hit=True)
    assert b.expecting == Deal("B", True)
    b = feed(P, b, "Jc")
    assert b.decider == "B" and b.phase is Phase.PUNTER
    b = P.decide(b, "B", hit=False)
    assert b.decider == "A" and b.phase is Phase.BANKER
    b = P.decide(b, "A", hit=True)
    b = feed(P, b, "2c")  # banker 6 beats 5 1/2
    assert b.results == () and b.decider == "A"  # not bust: it decides again
    b = P.decide(b, "A", hit=False)
    assert b.results[-1].banker_won and b.decider == "C"


def test_piatto_a_punter_bust_loses_at_once_without_the_banker_playing():
    b = feed(P, P.join(piatto_bank(), "B", True), "5c 4c")
    b = feed(P, P.stake(b, "B", 500, hit=True), "6b")
    r = b.results[-1]
    assert r.banker_won and len(r.banker_cards) == 1 and b.decider == "C"
    assert b.piatto == 2000 + 500 - 50  # the lost stake enters the piatto net of rake
    assert b.rake == 50 and b.credits["B"] == 2500


def test_piatto_a_win_is_paid_from_the_piatto_at_once_net_of_rake():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 1000, hit=False), "A", hit=False)  # 6 vs 4
    assert not b.results[-1].banker_won
    assert b.piatto == 1000 and b.credits["B"] == 3000 + 1000 - 100 and b.rake == 100


def test_piatto_stake_between_the_minimum_and_the_piatto():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    refused("mp.stake_above_piatto", P.stake, b, "B", 2001, False)
    refused("mp.stake_below_minimum", P.stake, b, "B", 99, False)
    assert P.stake(b, "B", 2000, False).stake == 2000


def test_piatto_stake_all_in_below_the_minimum():
    credits = {"A": 5000, "B": 60, "C": 3000, "D": 3000}
    b = feed(P, P.join(piatto_bank(credits), "B", True), "6c 4c")
    refused("mp.stake_below_minimum", P.stake, b, "B", 50, False)
    refused("mp.stake_above_credit", P.stake, b, "B", 100, False)
    assert P.stake(b, "B", 60, False).stake == 60
    assert buttons(b, "B") == (Button("Sto", 60, 60), Button("Tiro", 60, 60))


def test_piatto_bank_ends_when_a_punter_who_staked_the_whole_piatto_wins():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 2000, hit=False), "A", hit=False)
    assert b.phase is Phase.OVER and b.piatto == 0
    assert b.credits == {"A": 3000, "B": 3000 + 2000 - 200, "C": 3000, "D": 3000}
    assert b.rake == 200 and b.total_money() == 14000


def test_piatto_bank_ends_when_every_punter_has_played_and_the_banker_takes_the_piatto():
    b = piatto_bank()
    b = feed(P, P.join(b, "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 500, False), "A", False)  # B wins 500, rake 50
    b = feed(P, P.join(b, "C", True), "2c 5b")
    b = P.decide(P.stake(b, "C", 1000, False), "A", False)  # A wins 1000, rake 100
    b = feed(P, P.join(b, "D", True), "3b 7b")
    b = P.decide(P.stake(b, "D", 100, False), "A", False)  # A wins 100, rake 10
    assert b.phase is Phase.OVER and b.piatto == 0
    # piatto 2000 - 500 + 900 + 90 = 2490 back to A
    assert b.credits == {"A": 3000 + 2490, "B": 3450, "C": 2000, "D": 2900}
    assert b.rake == 160 and b.total_money() == 14000
    assert [r.banker_won for r in b.results] == [False, True, True]


def test_piatto_shuffle_at_every_bank_start():
    b = P.open_bank(PIATTO_CASH, SEATS, "A", 2000, {"A": 5000, "B": 3000})
    b = P.join(b, "B", True)
    refused("mp.shuffle_due", P.deal, b, parse_card("5c"))


def test_piatto_shuffle_at_the_end_of_a_hand_where_the_matta_came_out():
    b = feed(P, P.join(piatto_bank(), "B", True), "Kd 4c")
    b = feed(P, P.stake(b, "B", 500, hit=True), "3c")  # matta + 3 = 7
    b = P.decide(P.decide(b, "B", False), "A", False)
    b = P.join(b, "C", True)
    refused("mp.shuffle_due", P.deal, b, parse_card("6b"))
    b = feed(P, P.shuffled(b), "Kd 5c")  # the matta again: a new deck
    assert b.punter_cards == (parse_card("Kd"),)


def test_piatto_no_shuffle_without_the_matta_and_no_card_twice():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 500, False), "A", False)
    b = P.join(b, "C", True)
    refused("mp.card_already_dealt", P.deal, b, parse_card("6c"))
    assert P.deal(b, parse_card("7c")).punter_cards == (parse_card("7c"),)


def test_piatto_banker_sees_drawn_cards_not_the_first_one_and_a_lone_matta_must_draw():
    b = feed(P, P.join(piatto_bank(), "B", True), "Kd 4c")
    refused("mp.matta_must_draw", P.stake, b, "B", 500, False)
    b = feed(P, P.stake(b, "B", 500, True), "2c")
    assert buttons(b, "B") == (Button("Sto"), Button("Tiro"))


def test_piatto_seven_and_a_half_cannot_draw():
    b = feed(P, P.join(piatto_bank(), "B", True), "7c 4c")
    b = feed(P, P.stake(b, "B", 500, True), "Jc")
    assert buttons(b, "B") == (Button("Sto"),)
    refused("mp.cannot_hit", P.decide, b, "B", True)


def test_piatto_punter_not_playing_non_gioco_at_cash_tables():
    b = P.join(piatto_bank(), "B", False)
    assert b.decider == "C" and "B" in b.skipped


def test_piatto_punter_in_sitout_at_its_turn_is_skipped_at_cash_tables():
    b = piatto_bank(sitout=("C",))
    assert b.punters == ("B", "D")
    b = P.set_sitout(b, "B", True)
    assert b.decider == "D" and b.skipped == {"B"}
    assert b.total_money() == 14000


# --------------------------------------------------------------------------- tournaments

def test_tournament_every_punter_must_play():
    b = piatto_bank(rules=PIATTO_TOURNAMENT)
    assert buttons(b, "B") == (Button("Gioco"),)
    refused("mp.must_play_in_tournament", P.join, b, "B", False)


def test_tournament_punter_in_sitout_at_betting_time_loses_half_the_minimum_to_the_bank():
    b = feed(P, P.join(piatto_bank(rules=PIATTO_TOURNAMENT), "B", True), "6c 4c")
    b = P.set_sitout(b, "B", True)  # cards seen, no stake yet
    assert b.credits["B"] == 3000 - 50 and b.piatto == 2050 and b.decider == "C"
    assert b.fines == {"B": 50}
    assert b.punter_cards == () and b.banker_cards == () and b.skipped == {"B"}


def test_tournament_sitout_penalty_is_all_credit_if_less():
    credits = {"A": 5000, "B": 30, "C": 3000, "D": 3000}
    b = P.set_sitout(piatto_bank(credits, rules=PIATTO_TOURNAMENT), "B", True)
    assert b.credits["B"] == 0 and b.piatto == 2030


def test_tournament_two_eliminated_by_the_same_banker_in_one_round_rank_by_chips_before():
    order = ranking([Elimination("X", 1, "A", 500),
                     Elimination("B", 2, "A", 300), Elimination("C", 2, "A", 800),
                     Elimination("D", 3, "C", 100)], survivors=["A"])
    assert order == ["A", "D", "C", "B", "X"]


# --------------------------------------------------------------------------- classica

def classica_bank(credits=None, max_bet=500, sitout=()):
    credits = credits or {"A": 5000, "B": 3000, "C": 3000, "D": 3000}
    return C.shuffled(C.open_bank(CLASSICA, SEATS, "A", max_bet, credits, sitout))


def test_classica_every_punter_gets_a_face_down_card_then_the_banker():
    b = classica_bank()
    assert b.expecting == Deal("B", False)
    b = feed(C, b, "2c 3c")
    assert b.expecting == Deal("D", False)
    b = feed(C, b, "4c")
    assert b.expecting == Deal("A", False)
    b = feed(C, b, "5c")
    assert b.decider == "B" and b.phase is Phase.STAKE


def test_classica_all_punters_play_then_the_banker_settled_at_the_end_of_the_bank():
    b = feed(C, classica_bank(), "2c 6c 4c 5c")
    b = feed(C, C.stake(b, "B", 500, True), "3c")  # B: 5
    b = C.decide(b, "B", False)
    assert b.credits["B"] == 2500  # stake held, nothing settled yet
    b = C.stake(b, "C", 200, False)  # C: 6
    b = feed(C, C.stake(b, "D", 100, True), "7b")  # D: 11, bust
    assert b.decider == "A" and b.phase is Phase.BANKER
    b = feed(C, C.decide(b, "A", True), "Jb")  # A: 5 1/2
    b = C.decide(b, "A", False)
    assert b.phase is Phase.OVER
    # B loses 500, C wins 200 (rake 20), D loses 100; banker net 400, rake 40
    assert b.credits == {"A": 5000 + 400 - 40, "B": 2500, "C": 3000 + 200 - 20, "D": 2900}
    assert b.rake == 60 and b.total_money() == 14000


def test_classica_stakes_between_the_minimum_and_the_bankers_maximum():
    b = feed(C, classica_bank(), "2c 6c 4c 5c")
    refused("mp.stake_above_maximum", C.stake, b, "B", 501, False)
    refused("mp.stake_below_minimum", C.stake, b, "B", 99, False)
    assert buttons(b, "B") == (Button("Sto", 100, 500), Button("Tiro", 100, 500))


def test_classica_bank_with_an_all_in_banker_and_the_remainder():
    credits = {"A": 500, "B": 3000, "C": 3000, "D": 3000}
    b = classica_bank(credits, max_bet=None)
    assert dict(b.terms.caps) == {"B": 168, "C": 166, "D": 166}
    b = feed(C, b, "6c 6b 6s 2c")
    refused("mp.stake_above_maximum", C.stake, b, "B", 169, False)
    b = C.stake(b, "B", 168, False)
    refused("mp.stake_above_maximum", C.stake, b, "C", 167, False)
    b = C.stake(C.stake(b, "C", 166, False), "D", 166, False)
    b = feed(C, C.decide(b, "A", True), "3c")  # banker 5 against three 6
    b = C.decide(b, "A", False)
    assert b.credits["A"] == 0  # the whole credit covered the three wins exactly
    assert b.credits["B"] == 3000 + 168 - 16 and b.credits["D"] == 3000 + 166 - 16
    assert b.total_money() == 9500


def test_classica_all_in_below_the_minimum_forces_the_first_punters_to_bet_the_minimum():
    credits = {"A": 250, "B": 3000, "C": 3000, "D": 3000}
    b = feed(C, classica_bank(credits, max_bet=None), "6c 6b 6s 2c")
    refused("mp.stake_above_maximum", C.stake, b, "B", 150, False)
    refused("mp.stake_below_minimum", C.stake, b, "B", 99, False)
    b = C.stake(C.stake(b, "B", 100, False), "C", 100, False)
    assert buttons(b, "D") == (Button("Sto", 50, 50), Button("Tiro", 50, 50))


def test_classica_banker_in_sitout_at_betting_time_pays_every_punter_twice_the_minimum():
    b = classica_bank(sitout=())
    b = feed(C, b, "2c 6c 4c 5c")
    b = C.stake(b, "B", 300, False)
    b = C.set_sitout(b, "A", True)
    assert b.phase is Phase.OVER and dict(b.sitout_penalty) == {"B": 200, "C": 200, "D": 200}
    assert b.credits == {"A": 4400, "B": 3200, "C": 3200, "D": 3200}  # B's stake back


def test_classica_banker_in_sitout_short_of_the_penalty_shares_its_credit():
    credits = {"A": 500, "B": 3000, "C": 3000, "D": 3000}
    b = C.open_bank(CLASSICA, SEATS, "A", None, credits, sitout=("A",))
    assert dict(b.sitout_penalty) == {"B": 167, "C": 167, "D": 166}
    assert b.credits["A"] == 0 and b.total_money() == 9500


def test_classica_shuffle_only_at_bank_start_the_matta_changes_nothing():
    b = C.open_bank(CLASSICA, SEATS, "A", 500, {"A": 5000, "B": 3000, "C": 3000})
    refused("mp.shuffle_due", C.deal, b, parse_card("2c"))
    b = feed(C, C.shuffled(b), "Kd 6c 4c")
    b = feed(C, C.stake(b, "B", 100, True), "2c")
    assert b.shoe.shuffle_due is False


def test_classica_a_punter_in_sitout_at_its_turn_does_not_play():
    b = feed(C, classica_bank(), "2c 6c 4c 5c")
    b = C.set_sitout(b, "B", True)
    assert b.decider == "C" and b.out == {"B"}
    b = C.stake(b, "C", 100, False)
    b = C.set_sitout(b, "D", True)
    assert b.decider == "A"


def test_classica_banker_does_not_play_when_every_punter_is_bust():
    credits = {"A": 5000, "B": 3000, "C": 3000}
    b = feed(C, C.shuffled(C.open_bank(CLASSICA, SEATS, "A", 500, credits)), "7c 7b 2c")
    b = feed(C, C.stake(b, "B", 100, True), "6c")
    b = feed(C, C.stake(b, "C", 100, True), "6b")
    assert b.phase is Phase.OVER and b.banker_cards == (parse_card("2c"),)
    assert b.credits["A"] == 5000 + 200 - 20 and b.rake == 20  # banker's rake on its net


def test_classica_banker_net_negative_pays_no_rake():
    credits = {"A": 5000, "B": 3000, "C": 3000}
    b = feed(C, C.shuffled(C.open_bank(CLASSICA, SEATS, "A", 500, credits)), "7c 2b 4c")
    b = C.stake(C.stake(b, "B", 500, False), "C", 100, False)
    b = C.decide(b, "A", False)  # banker 4: loses 500 to B, wins 100 from C
    assert b.credits["A"] == 4600 and b.rake == 50  # only B's rake


# --------------------------------------------------------------------------- automatic play

def test_autoplay_thresholds_3_4_5_6_6_and_a_half_with_the_literal_default_4_and_a_half():
    assert AutoPlay() == AutoPlay(DEFAULT_THRESHOLD, DEFAULT_THRESHOLD) == AutoPlay(9, 9)
    for t in (6, 8, 10, 12, 13):
        AutoPlay(t, t)
    with pytest.raises(MultiplayerError) as e:
        AutoPlay(punter=14)
    assert e.value.code == "mp.bad_threshold"


def test_autoplay_punter_stands_from_its_threshold():
    assert punter_hits(parse_cards("4c"), AutoPlay())
    assert not punter_hits(parse_cards("4c Jc"), AutoPlay())  # 4 1/2
    assert punter_hits(parse_cards("4c Jc"), AutoPlay(punter=10))
    assert punter_hits(parse_cards("Kd"), AutoPlay(punter=6))  # a lone matta draws


def test_autoplay_banker_after_a_punter_stood_stands_from_its_threshold():
    stood = [parse_cards("5c")]
    assert banker_hits(parse_cards("4c"), stood, AutoPlay())
    assert not banker_hits(parse_cards("4c Jc"), stood, AutoPlay())
    assert banker_hits(parse_cards("4c Jc"), stood, AutoPlay(banker=12))


def test_autoplay_banker_after_a_punter_drew_stands_once_it_beats_the_visible_cards_by_half():
    drew = [parse_cards("2c 3b")]  # visible 3
    assert banker_hits(parse_cards("3c"), drew, AutoPlay(banker=6))
    assert not banker_hits(parse_cards("3c Jc"), drew, AutoPlay(banker=13))
    assert banker_hits(parse_cards("Kd"), drew, AutoPlay())  # lone matta draws


def test_autoplay_plays_for_a_banker_in_sitout_after_accepting():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 2c")
    b = P.set_sitout(P.stake(b, "B", 500, False), "A", True)
    assert auto_hits(b, {}) is True  # 1 < 4 1/2
    b = feed(P, P.decide(b, "A", True), "3c")  # 5
    assert auto_hits(b, {}) is False
    with pytest.raises(MultiplayerError) as e:
        auto_hits(P.join(piatto_bank(), "B", True), {})
    assert e.value.code == "mp.no_automatic_decision"


# --------------------------------------------------------------------------- cash tables

def test_three_consecutive_banks_skipped_stand_the_player_up():
    skips, up = after_bank({}, ["A", "B", "C"], played={"A", "C"})
    assert (skips, up) == ({"A": 0, "B": 1, "C": 0}, ())
    skips, up = after_bank(skips, ["A", "B", "C"], played={"A"})
    skips, up = after_bank(skips, ["A", "B", "C"], played={"A", "C"})
    assert up == ("B",) and "B" not in skips and skips["C"] == 0


# --------------------------------------------------------------------------- buttons

def test_buttons_only_those_allowed_now():
    assert offer_buttons(PIATTO_CASH, 5000, 3) == (Button("Accetto", 1000, 5000),)
    b = piatto_bank()
    assert buttons(b, "B") == (Button("Gioco"), Button("Non gioco"))
    assert buttons(b, "C") == () and buttons(b, "A") == ()
    b = P.join(b, "B", True)
    assert buttons(b, "B") == ()  # cards being dealt
    b = feed(P, b, "6c 2c")
    assert buttons(b, "B") == (Button("Sto", 100, 2000), Button("Tiro", 100, 2000))
    b = P.stake(b, "B", 500, False)
    assert buttons(b, "A") == (Button("Sto"), Button("Tiro")) and buttons(b, "B") == ()


# --------------------------------------------------------------------------- bad input

def test_bad_input_acting_out_of_turn_is_refused_with_the_state_unchanged():
    b = piatto_bank()
    refused("mp.not_your_turn", P.join, b, "C", True)
    refused("mp.not_your_turn", P.join, b, "A", True)
    b = feed(P, P.join(b, "B", True), "6c 2c")
    refused("mp.not_your_turn", P.decide, b, "A", False)
    refused("mp.wrong_phase", P.decide, b, "B", False)  # the stake first
    refused("mp.no_card_expected", P.deal, b, parse_card("3c"))
    k = feed(C, classica_bank(), "2c 6c 4c")
    refused("mp.awaiting_card", C.stake, k, "B", 100, False)


def test_bad_input_a_stake_above_the_piatto_is_refused_with_the_state_unchanged():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 2c")
    refused("mp.stake_above_piatto", P.stake, b, "B", 2500, False)


def test_bad_input_accepting_a_bank_below_the_minimum_is_refused():
    credits = {"A": 5000, "B": 3000}
    refused("mp.bank_below_minimum", P.open_bank, PIATTO_CASH, SEATS, "A", 999, credits)
    assert credits == {"A": 5000, "B": 3000}
    refused("mp.bank_below_minimum", C.open_bank, CLASSICA, SEATS, "A", 150, credits)


def test_bad_input_after_the_bank_is_over():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 2000, hit=False), "A", hit=False)
    refused("mp.bank_over", P.decide, b, "A", False)


# --------------------------------------------------------------------------- more readings

def test_piatto_when_the_piatto_holds_less_than_the_minimum_the_stake_is_the_whole_piatto():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 1950, hit=False), "A", hit=False)  # piatto 2000 -> 50
    b = feed(P, P.join(b, "C", True), "5b 4b")
    assert buttons(b, "C") == (Button("Sto", 50, 50), Button("Tiro", 50, 50))
    refused("mp.stake_above_piatto", P.stake, b, "C", 100, False)
    b = P.decide(P.stake(b, "C", 50, False), "A", False)  # C wins the whole piatto
    assert b.phase is Phase.OVER and b.credits["A"] == 3000


def test_only_players_present_at_the_bank_start_play_it_and_sono_tornato_ends_sitout():
    b = piatto_bank(sitout=("C",))
    refused("mp.not_in_bank", P.set_sitout, b, "C", False)
    b = P.set_sitout(P.set_sitout(b, "D", True), "D", False)
    assert "D" not in b.sitout and b.punters == ("B", "D")


def test_tournament_punter_already_in_sitout_when_its_turn_comes_pays_into_the_piatto():
    b = P.set_sitout(piatto_bank(rules=PIATTO_TOURNAMENT), "C", True)  # before its turn
    b = feed(P, P.join(b, "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 100, False), "A", False)  # B wins 100 (no rake)
    assert b.decider == "D" and b.piatto == 2000 - 100 + 50 and b.credits["C"] == 2950


def test_autoplay_plays_for_a_punter_in_sitout_after_its_stake():
    b = feed(P, P.join(piatto_bank(), "B", True), "3c 2c")
    b = P.set_sitout(feed(P, P.stake(b, "B", 500, True), "Jc"), "B", True)
    assert b.decider == "B" and b.phase is Phase.PUNTER
    assert auto_hits(b, {}) is True  # 3 1/2 < 4 1/2
    assert auto_hits(b, {"B": AutoPlay(punter=6)}) is False  # stands from 3


def test_autoplay_classica_banker_takes_the_strictest_need_over_the_punters_standing():
    b = feed(C, classica_bank(), "2c 6c 4c 5c")
    b = feed(C, C.stake(b, "B", 100, True), "3c")  # B: 5, visible 3
    b = C.decide(b, "B", False)
    b = C.stake(b, "C", 100, False)  # C stood on 6
    b = C.stake(b, "D", 100, False)  # D stood on 4
    b = C.set_sitout(b, "A", True)  # every stake in: the system plays for the banker
    assert b.phase is Phase.BANKER
    assert auto_hits(b, {"A": AutoPlay(banker=8)}) is False  # 5 >= 4 and >= 3 + 1/2
    assert auto_hits(b, {"A": AutoPlay(banker=12)}) is True  # 5 < 6


def test_cards_are_of_the_40_card_deck_only():
    from studio.cards import CardCodeError

    b = P.join(piatto_bank(), "B", True)
    with pytest.raises(CardCodeError):
        P.deal(b, parse_card("8c"))


def test_cash_tables_to_skip_a_hand_go_into_sitout_before_the_cards_are_dealt():
    # piatto: before its own cards (its turn); classica: before the bank's cards (the previous
    # hand's end), so a player in sitout at the bank's start is not dealt in
    b = P.set_sitout(piatto_bank(), "C", True)
    b = feed(P, P.join(b, "B", True), "6c 4c")
    b = P.decide(P.stake(b, "B", 100, False), "A", False)
    assert b.decider == "D" and "C" in b.skipped
    k = classica_bank(sitout=("C",))
    assert k.punters == ("B", "D") and "C" not in k.hands


def test_cash_tables_three_minutes_without_a_punter_stand_everyone_in_sitout_up():
    assert idle_stand_up(("B", "C"), punters_playing=0, idle_seconds=180) == ("B", "C")
    assert idle_stand_up(("B", "C"), punters_playing=0, idle_seconds=179.9) == ()
    assert idle_stand_up(("B", "C"), punters_playing=1, idle_seconds=500) == ()


# --------------------------------------------------------------------------- decisions in advance

def test_buttons_a_decision_set_in_advance_is_played_when_the_turn_comes_and_remove_undoes_it():
    b = feed(C, classica_bank(), "2c 6c 4c 5c")
    assert advance_buttons(b, "C", {}) == (Button("Sto", 100, 500), Button("Tiro", 100, 500))
    assert advance_buttons(b, "B", {}) == ()  # its turn: the ordinary buttons
    presets = set_preset({}, b, "C", Preset(hit=False, amount=300))  # C waits for B
    assert advance_buttons(b, "C", presets) == (Button("Remove"),)
    presets = set_preset(presets, b, "A", Preset(hit=False))  # the banker stands on 5
    assert set(remove_preset(presets, "C")) == {"A"}
    with pytest.raises(MultiplayerError) as e:
        set_preset(presets, b, "B", Preset(hit=False, amount=100))  # B decides now, by hand
    assert e.value.code == "mp.preset_not_allowed"
    with pytest.raises(MultiplayerError) as e:
        set_preset(presets, b, "D", Preset(hit=False, amount=900))
    assert e.value.code == "mp.stake_above_maximum"
    b, presets = apply(C.stake(b, "B", 100, False), presets)
    assert b.stakes["C"] == 300 and b.decider == "D" and set(presets) == {"A"}
    b, presets = apply(C.stake(b, "D", 100, False), presets)
    assert b.phase is Phase.OVER and presets == {}


def test_a_piatto_bankers_preset_for_a_hand_that_ended_without_it_is_dropped():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    presets = set_preset({}, b, "A", Preset(hit=False))
    b = feed(P, P.stake(b, "B", 100, True), "7b")  # B bust: the banker did not play
    b, presets = apply(b, presets)
    assert presets == {} and b.decider == "C"


# --------------------------------------------------------------------------- rebuy

def test_cash_tables_rebuy_at_any_time_available_from_the_end_of_the_hand_in_progress():
    b = feed(P, P.join(piatto_bank(), "B", True), "6c 4c")
    b = P.rebuy(b, "C", 700)  # a hand is in progress: C's credit waits for its end
    assert b.credits["C"] == 3000 and b.rebuys == {"C": 700} and b.total_money() == 14700
    b = P.decide(P.stake(b, "B", 500, False), "A", False)
    assert b.credits["C"] == 3700 and b.rebuys == {}
    b = P.rebuy(b, "D", 100)  # between hands (C's turn to say Gioco): at once
    assert b.credits["D"] == 3100
    refused("mp.bad_amount", P.rebuy, b, "D", 0)
    k = feed(C, classica_bank(), "2c 6c 4c 5c")
    k = C.rebuy(k, "A", 1000)  # classica: the bank is the hand
    k = C.stake(C.stake(C.stake(k, "B", 100, False), "C", 100, False), "D", 100, False)
    assert k.credits["A"] == 5000
    k = C.decide(k, "A", False)
    assert k.phase is Phase.OVER and k.rebuys == {} and k.total_money() == 15000
