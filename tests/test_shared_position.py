"""A position shared by many players whose hands diverge: each hand a prefix of the cards."""

import pytest

from studio.cards import parse_card
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_live import rules as live
from studio.games.sette_e_mezzo_live.rules import SharedPosition

DEALER_4 = Hand().add(parse_card("4c"))


def deal(pos: SharedPosition, *codes: str) -> SharedPosition:
    for c in codes:
        pos = pos.receive(parse_card(c))
    return pos


def test_everyone_shares_the_deal_and_the_automatic_draws():
    pos = deal(SharedPosition.open(["ann", "bob", "cai"]), "2c")
    assert pos.needs_automatic_card(DEALER_4)          # 2 is below the dealer's 4
    pos = deal(pos, "Jb")
    assert pos.needs_automatic_card(DEALER_4)          # 2 1/2
    pos = deal(pos, "2b")
    assert not pos.needs_automatic_card(DEALER_4)      # 4 1/2
    assert {p: len(pos.cards_of(p)) for p in pos.seats} == {"ann": 3, "bob": 3, "cai": 3}


def test_one_stands_one_hits_and_each_holds_a_prefix():
    pos = deal(SharedPosition.open(["ann", "bob", "cai"]), "5c")
    assert set(pos.deciders(DEALER_4)) == {"ann", "bob", "cai"}
    pos = pos.decide({"bob", "cai"}, DEALER_4)           # ann stands (or her timer ran out)
    assert set(pos.in_line()) == {"bob", "cai"}
    pos = deal(pos, "Jb")                                # bob and cai: 5 1/2
    pos = pos.decide({"cai"}, DEALER_4)                  # bob stands
    pos = deal(pos, "Ac")                                # cai: 6 1/2
    pos = pos.decide(set(), DEALER_4)
    assert pos.in_line() == []
    assert [c.code for c in pos.cards] == ["5c", "Jb", "Ac"]
    for player, n in {"ann": 1, "bob": 2, "cai": 3}.items():
        assert pos.cards_of(player) == pos.cards[:n]
    assert pos.hand_of("cai").total == 13


def test_a_player_who_busts_receives_no_more_cards():
    pos = deal(SharedPosition.open(["ann", "bob"]), "6c")
    pos = pos.decide({"ann", "bob"}, DEALER_4)
    pos = deal(pos, "3b")                                # 9: both bust
    assert pos.hand_of("ann").bust and pos.in_line() == []
    with pytest.raises(ValueError):
        pos.receive(parse_card("Ac"))


def test_only_deciders_may_ask_for_a_card():
    pos = deal(SharedPosition.open(["ann"]), "7c", "Jb")  # 7 1/2: stands automatically
    with pytest.raises(ValueError, match="not allowed"):
        pos.decide({"ann"}, DEALER_4)
    pos = pos.decide(set(), DEALER_4)
    assert pos.seats["ann"].stood


def test_settlement_uses_each_players_own_prefix():
    pos = deal(SharedPosition.open(["ann", "bob"]), "6c")
    pos = pos.decide({"bob"}, DEALER_4)
    pos = deal(pos, "2b")                                # bob: 8, bust; ann stays on 6
    dealer = [parse_card("4c"), parse_card("Jb"), parse_card("Ac")]  # 5 1/2
    pt = live.LivePaytable()
    ann = live.settle_player(live.Bets(1000, 0, 200), pos.cards_of("ann"), dealer, pt)
    bob = live.settle_player(live.Bets(1000, 0, 200), pos.cards_of("bob"), dealer, pt)
    assert ann.main is live.MainResult.WIN and ann.main_returned == 2000
    assert ann.mano_di_poker.result is live.SideResult.REFUND    # never had a second card
    assert bob.main is live.MainResult.LOSE and bob.main_returned == 0
    assert bob.mano_di_poker.kind == "none" and bob.mano_di_poker.returned == 0


def test_one_players_decision_is_asked_without_listing_the_others():
    """`decides` and `decider_count` (a view per player and each decision of 10,000 players
    ask them) say what `deciders` says, through stands, hits, a bust and a new dealer card."""
    pos = deal(SharedPosition.open(["ann", "bob", "cai", "dan"]), "5c")
    dealer_k = Hand().add(parse_card("Kc"))
    for step in range(4):
        for dealer in (DEALER_4, dealer_k):
            listed = set(pos.deciders(dealer))
            assert {p for p in pos.seats if pos.decides(p, dealer)} == listed
            assert pos.decider_count(dealer) == len(listed)
            assert not pos.decides("nobody", dealer)
        line = set(pos.in_line())
        if not line:
            break
        hits = sorted(pos.deciders(DEALER_4))[step % 2:]  # some stand each turn
        pos = pos.decide(set(hits), DEALER_4)
        if pos.in_line():
            pos = deal(pos, ("6b", "Jb", "Ac")[step % 3])
    assert pos.decider_count(DEALER_4) == len(pos.deciders(DEALER_4))
