"""Blackjack, the rules (RULES.md "Blackjack" and seeds/blackjack-next.it.txt), each named by
its test."""

from __future__ import annotations

from fractions import Fraction

import pytest

from studio.cards import parse_card, parse_cards
from studio.games.blackjack import rules
from studio.games.blackjack.rules import (
    DEALER,
    Action,
    Bet,
    BlackjackError,
    PairClass,
    Paytable,
    Recipient,
    ThreeClass,
)

PAY = Paytable()


def play(bets: list[tuple[int, int]], cards: str, decisions=(), dealer_pair: int = 0,
         sides: dict[int, tuple[int, int]] | None = None) -> rules.Game:
    """Deal `cards` in the order the rules ask for them, applying `decisions` (position,
    action) whenever a decision is awaited; returns the game when cards run out."""
    sides = sides or {}
    game = rules.new_game([rules.new_position(n, b, *sides.get(n, (0, 0))) for n, b in bets],
                          dealer_pair=dealer_pair)
    deck = parse_cards(cards)
    todo = list(decisions)
    while True:
        if rules.next_card(game) is not None:
            if not deck:
                return game
            game = rules.deal(game, deck.pop(0))
        elif todo:
            n, action = todo.pop(0)
            game = rules.decide(game, n, action)
        else:
            return game


def mains(game: rules.Game) -> list[tuple[int, int, str]]:
    return [(s.hand, s.returned, s.result) for s in rules.settle(game, PAY) if s.bet is Bet.MAIN]


# ------------------------------------------------------------------ values and totals

def test_ace_counts_eleven_when_it_does_not_bust_else_one():
    assert rules.score(parse_cards("Ac 6d")) == (17, True, False, False)
    assert rules.score(parse_cards("Ac 6d 9s")) == (16, False, False, False)
    assert rules.score(parse_cards("Ac Ad")) == (12, True, False, False)
    assert rules.score(parse_cards("Ac Kd")).blackjack
    assert rules.score(parse_cards("Tc Qd Js")).bust
    assert [rules.card_value(c) for c in parse_cards("Ac 9d Tc Jd Qb Ks")] == [1, 9, 10, 10, 10,
                                                                                 10]


def test_split_hand_21_in_two_cards_is_not_blackjack():
    assert not rules.score(parse_cards("Ac Kd"), from_split=True).blackjack
    assert rules.score(parse_cards("Ac Kd"), from_split=True).total == 21


# ------------------------------------------------------------------ the dealer

@pytest.mark.parametrize("cards,draws", [
    ("Tc 6d", True), ("Tc 7d", False), ("Ac 6d", False),  # soft 17: stands
    ("Ac 5d", True), ("Ac 5d Tc", True), ("9c 8d", False), ("5c 5d 7s", False),
    ("Ac Ad 4c", True),  # soft 16
    ("2c 3d", True),
])
def test_dealer_draws_below_17_and_stands_on_every_17_soft_included(cards, draws):
    assert rules.dealer_draws(parse_cards(cards)) is draws


def test_dealer_stands_on_soft_17_in_a_game():
    game = play([(1, 1000)], "Tc Ac 8d 6s", [(1, Action.NO_INSURANCE), (1, Action.STAY)])
    assert game.finished and rules.next_card(game) is None
    assert mains(game) == [(0, 2000, "win")]  # 18 beats soft 17


def test_dealer_hits_soft_16_until_17():
    game = play([(1, 1000)], "Tc Ac 7d 5s 9c 4d", [(1, Action.NO_INSURANCE), (1, Action.STAY)])
    assert [c.code for c in game.dealer] == ["Ac", "5s", "9c", "4d"]  # 16, 15, 19
    assert mains(game) == [(0, 0, "lose")]


# ------------------------------------------------------------------ dealing order

def test_deal_order_from_the_right_then_dealer_then_again_then_hole_card():
    game = rules.new_game([rules.new_position(n, 100) for n in (3, 1, 5)])
    order = []
    for code in ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]:
        order.append(rules.next_card(game))
        game = rules.deal(game, parse_card(code))
    assert order == [Recipient(1), Recipient(3), Recipient(5), DEALER,
                     Recipient(1), Recipient(3), Recipient(5), DEALER]
    assert [c.code for c in game.dealer] == ["5c", "9c"]
    assert game.turn() == (1, 0)  # the first active position on the right plays first
    assert rules.next_card(game) is None


def test_a_card_when_a_decision_is_awaited_is_refused():
    game = play([(1, 100)], "9c 5d 7s 2c")
    with pytest.raises(BlackjackError) as e:
        rules.deal(game, parse_card("3c"))
    assert e.value.code == "blackjack.card_not_expected"


# ------------------------------------------------------------------ payouts and no peek

def test_blackjack_pays_3_to_2_and_pushes_against_a_dealer_blackjack():
    game = play([(1, 1000)], "Ac 9d Ks 8c")
    assert game.finished  # a blackjack needs no decision
    assert mains(game) == [(0, 2500, "blackjack")]
    game = play([(1, 1000)], "Ac Kd Ks As")  # the dealer shows a king: no insurance
    assert mains(game) == [(0, 1000, "push")]


def test_blackjack_win_is_truncated_to_the_cent():
    game = play([(1, 101)], "Ac 9d Ks 8c")
    assert mains(game) == [(0, 101 + 151, "blackjack")]  # 151.5 -> 151


def test_no_peek_a_dealer_blackjack_takes_doubles_and_splits_too():
    g = rules.new_game([rules.new_position(1, 1000), rules.new_position(2, 1000)])
    for code in ["5c", "8c", "Ad", "6d", "8s", "Kc"]:
        g = rules.deal(g, parse_card(code))
    g = rules.decide(g, 1, Action.NO_INSURANCE)
    g = rules.decide(g, 2, Action.NO_INSURANCE)
    g = rules.decide(g, 1, Action.DOUBLE)
    g = rules.deal(g, parse_card("9c"))  # 5 6 9 = 20, doubled
    g = rules.decide(g, 2, Action.SPLIT)
    g = rules.deal(g, parse_card("9d"))
    g = rules.deal(g, parse_card("Tc"))
    g = rules.decide(g, 2, Action.STAY)
    g = rules.decide(g, 2, Action.STAY)
    assert g.finished  # the dealer's A K is a blackjack: no card more
    out = [(s.position, s.hand, s.stake, s.returned) for s in rules.settle(g, PAY)]
    assert out == [(1, 0, 2000, 0), (2, 0, 1000, 0), (2, 1, 1000, 0)]


# ------------------------------------------------------------------ double

def test_double_one_card_then_stand_stake_doubled():
    game = play([(1, 1000)], "6c 9d 5s 7c", [(1, Action.DOUBLE)])
    assert rules.next_card(game) == Recipient(1)
    game = rules.deal(game, parse_card("Kc"))  # 6 5 K = 21
    hand = game.positions[0].hands[0]
    assert hand.stake == 2000 and hand.status is rules.HandStatus.STOOD
    assert rules.next_card(game) == DEALER  # one card only: the dealer's turn
    game = rules.deal(game, parse_card("Td"))  # 9 7 T = 26
    assert mains(game) == [(0, 4000, "win")]


def test_double_after_hit_is_refused():
    game = play([(1, 1000)], "6c 9d 2s 7c 3d", [(1, Action.HIT)])
    assert rules.refusal(game, 1, Action.DOUBLE) == "blackjack.double_after_hit"
    assert Action.DOUBLE not in rules.legal_actions(game, 1)
    with pytest.raises(BlackjackError) as e:
        rules.decide(game, 1, Action.DOUBLE)
    assert e.value.code == "blackjack.double_after_hit"


# ------------------------------------------------------------------ split

def test_split_of_a_non_pair_is_refused_and_tens_of_two_ranks_are_no_pair():
    game = play([(1, 1000)], "Tc 9d Ks 7c")
    assert rules.refusal(game, 1, Action.SPLIT) == "blackjack.split_not_pair"
    assert rules.legal_actions(game, 1) == (Action.STAY, Action.HIT, Action.DOUBLE)


def test_split_aces_may_be_hit_no_double_no_resplit_and_their_21_is_not_blackjack():
    game = play([(1, 1000)], "Ac 9d As 7c", [(1, Action.SPLIT)])
    # each new hand gets its second card before play
    assert rules.next_card(game) == Recipient(1, 0)
    game = rules.deal(game, parse_card("Ad"))
    assert rules.next_card(game) == Recipient(1, 1)
    game = rules.deal(game, parse_card("Kd"))
    assert rules.legal_actions(game, 1) == (Action.STAY, Action.HIT)
    assert rules.refusal(game, 1, Action.SPLIT) == "blackjack.split_twice"
    assert rules.refusal(game, 1, Action.DOUBLE) == "blackjack.double_after_split"
    game = rules.decide(game, 1, Action.HIT)  # split aces may be hit
    game = rules.deal(game, parse_card("8c"))  # A A 8 = soft 20
    game = rules.decide(game, 1, Action.STAY)
    game = rules.decide(game, 1, Action.STAY)  # A K = 21, not a blackjack
    game = rules.deal(game, parse_card("4c"))  # dealer 9 7 4 = 20
    assert mains(game) == [(0, 1000, "push"), (1, 2000, "win")]


def test_split_pays_a_second_bet_equal_to_the_first():
    game = play([(1, 700)], "8c 9d 8s 7c", [(1, Action.SPLIT)])
    assert [h.stake for h in game.positions[0].hands] == [700, 700]
    assert game.staked() == 1400


# ------------------------------------------------------------------ insurance

def test_insurance_only_when_the_dealer_shows_an_ace():
    game = play([(1, 1000)], "9c 8d 7s 2c")
    assert rules.refusal(game, 1, Action.INSURE) == "blackjack.insurance_no_ace"
    game = play([(1, 1000)], "9c Ad 7s 2c")
    assert game.insurance_open
    assert rules.legal_actions(game, 1) == (Action.INSURE, Action.NO_INSURANCE)
    assert rules.refusal(game, 1, Action.HIT) == "blackjack.insurance_pending"
    game = rules.decide(game, 1, Action.INSURE)
    assert game.positions[0].insurance == 500  # half the bet
    assert rules.refusal(game, 1, Action.INSURE) == "blackjack.insurance_decided"


def test_insurance_covers_only_the_original_bet():
    g = play([(1, 1000)], "5c Ad 6s Kc", [(1, Action.INSURE), (1, Action.DOUBLE)])
    g = rules.deal(g, parse_card("9c"))  # doubled 20; the dealer has A K
    out = {s.bet: (s.stake, s.returned) for s in rules.settle(g, PAY)}
    assert out[Bet.INSURANCE] == (500, 1500)  # 2:1: covers the original 1000 and itself
    assert out[Bet.MAIN] == (2000, 0)  # the double is not covered
    net = sum(r - s for s, r in out.values())
    assert net == -1000  # the original bet covered, the doubling lost


def test_insurance_lost_when_the_dealer_has_no_blackjack():
    g = play([(1, 1000)], "Tc Ad 9s 7c", [(1, Action.INSURE), (1, Action.STAY)])
    out = {s.bet: (s.stake, s.returned, s.result) for s in rules.settle(g, PAY)}
    assert out[Bet.INSURANCE] == (500, 0, "lose")
    assert out[Bet.MAIN] == (1000, 2000, "win")  # 19 against soft 18


# ------------------------------------------------------------------ side bets

@pytest.mark.parametrize("cards,cls", [
    ("8c 8c", PairClass.PERFECT),  # identical cards (eight decks)
    ("8c 8d", PairClass.COLOURED),  # hearts and diamonds: both red
    ("8b 8s", PairClass.COLOURED),  # clubs and spades: both black
    ("8c 8s", PairClass.MIXED),
    ("Tc Kc", None),  # near miss: two tens of different ranks are no pair
    ("8c 9c", None),
])
def test_pair_classes(cards, cls):
    assert rules.pair_class(*parse_cards(cards)) is cls


@pytest.mark.parametrize("cards,cls", [
    ("7c 7c 7c", ThreeClass.SUITED_TRIS),
    ("7c 7d 7s", ThreeClass.TRIS),
    ("7c 7c 7d", ThreeClass.TRIS),  # not all of one suit
    ("2c 9c Kc", ThreeClass.COLOUR),
    ("5c 6c 7c", ThreeClass.COLOUR),  # no straights: a straight flush is a colour
    ("5c 6d 7s", None),  # a straight pays nothing
    ("2c 9c Kd", None),  # near miss
    ("7c 7d 8s", None),
])
def test_twenty_one_plus_three_classes(cards, cls):
    assert rules.three_class(*parse_cards(cards)) is cls


def test_side_bets_return_the_regulations_figure_stake_included():
    # player 8c 8c (perfect pair) + dealer up 8c: suited tris; dealer 8c Kd: no pair
    game = play([(1, 1000)], "8c 8c 8c Kd", [(1, Action.STAY)], dealer_pair=100,
                sides={1: (100, 100)})
    out = {s.bet: (s.returned, s.result) for s in rules.settle(game, PAY)}
    assert out[Bet.PLAYER_PAIR] == (2500, "perfect_pair")  # 25 x the stake
    assert out[Bet.TWENTY_ONE_THREE] == (10000, "suited_tris")  # 100 x the stake
    assert out[Bet.DEALER_PAIR] == (0, "lose")
    game = play([(1, 1000)], "3c 9d 3s 9c", [(1, Action.STAY)], dealer_pair=100,
                sides={1: (100, 100)})
    out = {s.bet: (s.returned, s.result) for s in rules.settle(game, PAY)}
    assert out[Bet.PLAYER_PAIR] == (500, "mixed_pair")
    assert out[Bet.DEALER_PAIR] == (1200, "coloured_pair")
    assert out[Bet.TWENTY_ONE_THREE] == (0, "lose")


def test_side_bets_read_the_deal_not_the_split_hands():
    game = play([(1, 1000)], "8c 9d 8c 7c", [(1, Action.SPLIT)], sides={1: (100, 0)})
    for code in ("2c", "3c"):
        game = rules.deal(game, parse_card(code))
    game = rules.decide(game, 1, Action.STAY)
    game = rules.decide(game, 1, Action.STAY)
    game = rules.deal(game, parse_card("Kc"))
    pp = [s for s in rules.settle(game, PAY) if s.bet is Bet.PLAYER_PAIR]
    assert [(s.returned, s.result) for s in pp] == [(2500, "perfect_pair")]


def test_side_bets_only_with_a_main_bet():
    with pytest.raises(BlackjackError) as e:
        rules.new_position(1, 0, player_pair=100)
    assert e.value.code == "blackjack.side_bet_without_main"
    with pytest.raises(BlackjackError) as e:
        rules.new_game([], dealer_pair=100)
    assert e.value.code == "blackjack.side_bet_without_main"


def test_paytable_figures_are_the_regulation_stake_included():
    assert Paytable() == Paytable(win=Fraction(1), blackjack=Fraction(3, 2),
                                  insurance=Fraction(2), perfect_pair=Fraction(24),
                                  coloured_pair=Fraction(11), mixed_pair=Fraction(4),
                                  colour=Fraction(4), tris=Fraction(29),
                                  suited_tris=Fraction(99))


# ------------------------------------------------------------------ the EUR 1,000 cap

def test_bets_above_the_cap_are_refused_at_start():
    rules.new_game([rules.new_position(1, 90_000, 5_000, 5_000)])  # exactly 1,000
    with pytest.raises(BlackjackError) as e:
        rules.new_game([rules.new_position(1, 90_000, 5_000, 5_000)], dealer_pair=1)
    assert e.value.code == "blackjack.hand_cap"


def test_double_split_and_insurance_count_toward_the_cap():
    game = play([(1, 60_000)], "5c 9d 6s 7c")
    assert rules.refusal(game, 1, Action.DOUBLE) == "blackjack.hand_cap"
    assert rules.legal_actions(game, 1) == (Action.STAY, Action.HIT)
    game = play([(1, 50_000)], "5c 9d 6s 7c")
    assert rules.refusal(game, 1, Action.DOUBLE) is None  # 1,000 exactly
    game = play([(1, 50_001)], "8c 9d 8s 7c")
    assert rules.refusal(game, 1, Action.SPLIT) == "blackjack.hand_cap"
    game = play([(1, 70_000)], "8c Ad 9s 7c")
    assert rules.refusal(game, 1, Action.INSURE) == "blackjack.hand_cap"
    assert rules.refusal(game, 1, Action.NO_INSURANCE) is None


def test_credit_is_checked_when_the_table_gives_it():
    game = play([(1, 1000)], "5c 9d 6s 7c")
    assert rules.refusal(game, 1, Action.DOUBLE, credit=999) == "blackjack.credit"
    assert rules.refusal(game, 1, Action.DOUBLE, credit=1000) is None


# ------------------------------------------------------------------ turn order

def test_only_the_position_in_turn_decides_and_a_bust_passes_the_hand():
    game = play([(1, 1000), (2, 1000)], "Tc 9c 8d 6s 7c 9s")
    assert rules.refusal(game, 2, Action.STAY) == "blackjack.not_your_turn"
    game = rules.decide(game, 1, Action.HIT)
    game = rules.deal(game, parse_card("5d"))  # T 6 5 = 21: still the player's to decide
    assert game.turn() == (1, 0)
    game = rules.decide(game, 1, Action.HIT)
    game = rules.deal(game, parse_card("2d"))  # 23: bust, the hand passes
    assert game.positions[0].hands[0].status is rules.HandStatus.BUST
    assert game.turn() == (2, 0)
    assert rules.refusal(game, 1, Action.STAY) == "blackjack.not_your_turn"
