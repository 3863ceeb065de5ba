"""The pure round state machine of Sette e Mezzo Live."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.cards import DeckKind, deck, parse_card
from studio.games.sette_e_mezzo_live import round as r
from studio.games.sette_e_mezzo_live.round import BetKind, Phase, RoundError
from studio.games.sette_e_mezzo_live.rules import LivePaytable

LIMITS = r.Limits(main_min=100, main_max=10_000, side_min=100, side_max=1_000,
                  round_max_total=20_000)
RULES = r.TableRules(positions=3, burn_card=True, limits=LIMITS, paytable=LivePaytable())


class Driver:
    """Feeds a round and keeps every event, as the table actor would."""

    def __init__(self, rules=RULES):
        self.state, self.events = r.open_round("R1", rules, closes_at=15.0)
        self.book = r.BetBook(rules, closes_at=15.0)
        self.n = 0

    def do(self, cmd):
        self.state, ev = r.step(self.state, cmd)
        self.events += ev
        return ev

    def bet(self, player, position, amount, kind=BetKind.MAIN, now=1.0):
        self.n += 1
        placement = self.book.check(r.PlaceBet(f"b{self.n}", player, position, kind, amount, now))
        self.events.append(self.book.add(placement))

    def close(self, deck_set="D1"):
        self.do(r.CloseBetting(15.0, self.book.close()))
        if not self.state.finished:
            self.do(r.OpenDeck(deck_set))

    def cards(self, codes):
        for c in codes.split():
            self.do(r.CardSeen(parse_card(c), "test"))

    def of(self, type_):
        return [e for e in self.events if e.type == type_]


def test_a_whole_round_two_players_share_a_position_and_diverge():
    d = Driver()
    d.bet("ann", 1, 1000)
    d.bet("bob", 1, 1000)
    d.bet("bob", 1, 200, BetKind.MANO_DI_POKER)
    d.close()
    assert d.state.expecting().describe() == "burn a card"
    d.cards("Qs")                                   # burn
    assert d.state.expecting().describe() == "deal to position 1"
    d.cards("4c")
    assert d.state.expecting().describe() == "deal to the dealer"
    d.cards("3b")                                   # dealer shows 3; position 1 has 4
    assert d.state.phase is Phase.DECISIONS and set(d.state.deciders()) == {"ann", "bob"}
    d.do(r.Decide("ann", 1, False))
    d.do(r.Decide("bob", 1, True))
    assert d.state.expecting().describe() == "deal to position 1"
    d.cards("2c")                                   # bob: 6
    assert d.state.deciders() == ["bob"]
    d.do(r.Decide("bob", 1, False))
    assert d.state.expecting().describe() == "deal to the dealer"
    d.cards("Jb")                                   # dealer 3 1/2: draws again
    d.cards("2s")                                   # dealer 5 1/2: stands
    assert d.state.phase is Phase.CLOSED
    settled = {e.data["player"]: e.data for e in d.of("player_settled")}
    assert settled["ann"]["cards"] == ["4c"] and settled["ann"]["main"]["returned"] == 0
    assert settled["bob"]["cards"] == ["4c", "2c"] and settled["bob"]["main"]["returned"] == 2000
    # 4c 2c with the dealer's 3b: a 2-3-4 Scala, 5:1
    assert settled["bob"]["mano_di_poker"] == {"stake": 200, "result": "win", "class": "scala",
                                               "returned": 1200}
    # the burn card is recorded privately, never in a public event
    burn = [e for e in d.events if e.private]
    assert [e.type for e in burn] == ["burn_card"] and burn[0].data["card"] == "Qs"
    assert all("Qs" not in str(e.data) for e in d.events if not e.private)


def test_partita_perfetta_settles_at_the_deal_and_busts_lose_at_once():
    d = Driver(r.TableRules(3, False, LIMITS, LivePaytable()))
    d.bet("ann", 2, 1000)
    d.bet("ann", 2, 100, BetKind.PARTITA_PERFETTA)
    d.close()
    d.cards("7c")
    assert not d.of("side_bet_settled")
    d.cards("7b")                                   # pair of sevens
    (pp,) = d.of("side_bet_settled")
    assert pp.data["class"] == "pair_of_sevens" and pp.data["returned"] == 5600
    d.do(r.Decide("ann", 2, True))
    d.cards("5s")                                   # 12: bust, lost at once
    (s,) = d.of("player_settled")
    assert s.data["main"]["result"] == "lose"
    assert d.state.phase is Phase.CLOSED            # nobody left: no dealer cards
    assert len(d.state.dealer) == 1


def test_automatic_draws_then_automatic_win_paid_at_once():
    d = Driver(r.TableRules(3, False, LIMITS, LivePaytable()))
    d.bet("ann", 1, 1000)
    d.bet("cai", 3, 1000)
    d.close()
    d.cards("2c 6c 5b")                             # pos1 2, pos3 6, dealer 5
    assert d.state.expecting().describe() == "deal to position 1"   # 2 is below 5
    d.cards("4b")                                   # pos1: 6 on two cards beats 5: paid at once
    auto = d.of("player_settled")
    assert auto and auto[0].data["automatic_win"] and auto[0].data["main"]["returned"] == 2000
    # cai has 6 on one card: no automatic win, may choose
    assert d.state.deciders() == ["cai"]
    d.do(r.Decide("cai", 3, False))
    assert d.state.phase is Phase.CLOSED            # the dealer's 5 stands alone
    cai = next(e for e in d.of("player_settled") if e.data["player"] == "cai")
    assert cai.data["main"]["result"] == "win"


def test_decision_timeout_means_stai_and_stale_timers_are_refused():
    d = Driver(r.TableRules(3, False, LIMITS, LivePaytable()))
    d.bet("ann", 1, 1000)
    d.close()
    d.cards("5c 2b")
    turn = d.state.turn
    d.do(r.DecisionTimeout(1, turn))
    assert d.state.expecting().describe() == "deal to the dealer"
    with pytest.raises(RoundError) as e:
        r.step(d.state, r.DecisionTimeout(1, turn))
    assert e.value.code == "decision.stale_timer"


@pytest.mark.parametrize("cmd,code", [
    (r.PlaceBet("x", "ann", 1, BetKind.MAIN, 1000, now=15.0), "bet.window_closed"),
    (r.PlaceBet("x", "ann", 4, BetKind.MAIN, 1000, now=1.0), "bet.unknown_position"),
    (r.PlaceBet("x", "ann", "1", BetKind.MAIN, 1000, now=1.0), "bet.unknown_position"),
    (r.PlaceBet("x", "ann", 1, BetKind.MAIN, 50, now=1.0), "bet.below_min"),
    (r.PlaceBet("x", "ann", 1, BetKind.MAIN, 10_001, now=1.0), "bet.above_max"),
    (r.PlaceBet("x", "ann", 1, BetKind.MAIN, 0, now=1.0), "bet.bad_amount"),
    (r.PlaceBet("x", "ann", 1, BetKind.MAIN, 10.5, now=1.0), "bet.bad_amount"),
    (r.PlaceBet("x", "ann", 1, "jackpot", 1000, now=1.0), "bet.unknown_kind"),
    (r.PlaceBet("x", "ann", 1, BetKind.MANO_DI_POKER, 100, now=1.0), "bet.side_without_main"),
    (r.PlaceBet("b1", "ann", 1, BetKind.MAIN, 1000, now=1.0), "bet.duplicate_id"),
])
def test_bad_bets_are_refused_with_a_code_and_change_nothing(cmd, code):
    d = Driver()
    d.bet("bob", 2, 1000)
    before = dict(d.book.placements)
    with pytest.raises(RoundError) as e:
        d.book.check(cmd)
    assert e.value.code == code
    assert d.book.placements == before


@pytest.mark.parametrize("cmd,code", [
    (r.Decide("ann", 1, True), "decision.not_your_turn"),
    (r.CardSeen(parse_card("Ac"), "shoe"), "card.not_expected"),
    (r.DecisionTimeout(1, 0), "decision.stale_timer"),
])
def test_bad_round_input_is_refused_with_a_code_and_changes_nothing(cmd, code):
    d = Driver()
    d.bet("bob", 2, 1000)
    before = d.state
    with pytest.raises(RoundError) as e:
        r.step(d.state, cmd)
    assert e.value.code == code
    assert d.state == before


def test_bets_not_yet_committed_count_towards_the_limits():
    d = Driver()
    pending = r.BetBook(RULES, closes_at=15.0)
    pending.add(d.book.check(r.PlaceBet("p1", "ann", 1, BetKind.MAIN, 9_000, 1.0)))
    with pytest.raises(RoundError) as e:
        d.book.check(r.PlaceBet("p2", "ann", 1, BetKind.MAIN, 2_000, 1.0), pending)
    assert e.value.code == "bet.above_max"
    # and a side bet may lean on a main bet placed earlier in the same batch
    d.book.check(r.PlaceBet("p3", "ann", 1, BetKind.MANO_DI_POKER, 100, 1.0), pending)


@pytest.mark.parametrize("bets,code", [
    ([("a", 1, "main", 600), ("b", 1, "main", 9_500)], "bet.above_max"),  # together over
    ([("a", 1, "mano_di_poker", 100), ("b", 1, "main", 1000)], "bet.side_without_main"),
    ([("a", 1, "main", 1000), ("a", 2, "main", 1000)], "bet.duplicate_id"),
    ([("a", 1, "main", 10_000), ("b", 2, "main", 10_000), ("c", 3, "main", 100)],
     "bet.round_limit"),
    ([("a", 1, "main", 1000), ("b", 4, "main", 1000)], "bet.unknown_position"),
    ([("a", 1, "main", 1000), ("b", 1, "banco", 100)], "bet.unknown_kind"),
    ([("a", 1, "main", True)], "bet.bad_amount"),
    ([("a", 1, "main", 10.5)], "bet.bad_amount"),
    ([("a", "1", "main", 100)], "bet.unknown_position"),
])
def test_one_command_s_bets_are_checked_together_all_or_none(bets, code):
    d = Driver()
    with pytest.raises(RoundError) as e:
        d.book.check_command("ann", bets, 1.0)
    assert e.value.code == code


def test_a_command_may_put_its_side_bet_on_its_own_main_bet():
    d = Driver()
    placed = d.book.check_command("ann", [("a", 2, "main", 1000),
                                          ("b", 2, "partita_perfetta", 100)], 1.0)
    assert [(p.position, p.kind, p.amount) for p in placed] == [
        (2, BetKind.MAIN, 1000), (2, BetKind.PARTITA_PERFETTA, 100)]
    assert d.book.placements == {}  # checking places nothing


def test_round_total_limit_and_cancel():
    d = Driver()
    d.bet("ann", 1, 10_000)
    d.bet("ann", 2, 10_000)
    with pytest.raises(RoundError, match="20000") as e:
        d.book.check(r.PlaceBet("x", "ann", 3, BetKind.MAIN, 100, 1.0))
    assert e.value.code == "bet.round_limit"
    assert len(d.book.check_cancel(r.CancelBets("ann", 2.0))) == 2
    ev = d.book.cancel("ann")
    assert ev.data["amount"] == 20_000 and d.book.placements == {}
    assert d.book.player_total("ann") == 0
    with pytest.raises(RoundError) as e:
        d.book.check_cancel(r.CancelBets("ann", 2.0))
    assert e.value.code == "bet.nothing_to_cancel"
    with pytest.raises(RoundError) as e:
        d.book.check_cancel(r.CancelBets("bob", 15.0))
    assert e.value.code == "bet.window_closed"


def test_no_bet_is_accepted_after_stop_alle_puntate_whatever_the_clock_says():
    d = Driver()
    d.bet("ann", 1, 1000)
    d.close()
    with pytest.raises(RoundError) as e:
        d.book.check(r.PlaceBet("late", "ann", 1, BetKind.MAIN, 1000, now=0.0))
    assert e.value.code == "bet.window_closed"


@pytest.mark.parametrize("codes,bad,code", [
    ("Qs", "Qs", "card.duplicate"),
    ("Qs", "8c", "card.not_in_deck"),
])
def test_doubtful_cards_are_rejected(codes, bad, code):
    d = Driver()
    d.bet("ann", 1, 1000)
    d.close()
    d.cards(codes)
    before = d.state
    with pytest.raises(RoundError) as e:
        r.step(d.state, r.CardSeen(parse_card(bad), "shoe"))
    assert e.value.code == code and d.state == before
    with pytest.raises(RoundError) as e:
        r.step(d.state, r.CardSeen(parse_card("Ac"), "shoe", deck_set="OTHER"))
    assert e.value.code == "card.foreign_deck"


def test_void_refunds_what_is_not_yet_settled_only():
    d = Driver(r.TableRules(3, False, LIMITS, LivePaytable()))
    d.bet("ann", 1, 1000)
    d.bet("ann", 1, 100, BetKind.PARTITA_PERFETTA)
    d.bet("ann", 1, 100, BetKind.MANO_DI_POKER)
    d.close()
    d.cards("3c 3b")                                # Partita Perfetta settled (pair of 3s)
    d.do(r.Void("shoe fault"))
    (v,) = d.of("round_voided")
    assert sorted(x["amount"] for x in v.data["refunds"]) == [100, 1000]
    assert d.state.phase is Phase.VOID
    with pytest.raises(RoundError) as e:
        r.step(d.state, r.CardSeen(parse_card("Ac"), "shoe"))
    assert e.value.code == "round.finished"


def test_no_bets_no_round():
    d = Driver()
    d.close()
    assert d.state.phase is Phase.CLOSED and d.of("round_closed")[0].data["no_bets"]


def test_a_second_deck_opens_only_when_the_first_is_used_up():
    d = Driver()
    d.bet("ann", 1, 1000)
    d.close()
    with pytest.raises(RoundError) as e:
        r.step(d.state, r.OpenDeck("D2"))
    assert e.value.code == "deck.not_exhausted"


@settings(max_examples=150, deadline=None)
@given(st.permutations(deck(DeckKind.ITALIAN_40)), st.lists(st.booleans(), min_size=60,
       max_size=60), st.integers(0, 100), st.booleans())
def test_every_bet_ends_settled_or_refunded_exactly_once(cards, choices, void_at, burn):
    d = Driver(r.TableRules(3, burn, LIMITS, LivePaytable()))
    players = ["p1", "p2", "p3", "p4"]
    for i, p in enumerate(players):
        d.bet(p, 1 + i % 3, 500 + 100 * i)
        d.bet(p, 1 + i % 3, 100, BetKind.MANO_DI_POKER)
        if i % 2:
            d.bet(p, 1 + i % 3, 100, BetKind.PARTITA_PERFETTA)
    d.close()
    it, ch, steps = iter(cards), iter(choices), 0
    while not d.state.finished:
        steps += 1
        if steps == void_at:
            d.do(r.Void("test"))
            break
        if d.state.expecting() is not None:
            d.do(r.CardSeen(next(it), "rng"))
        else:
            for p in d.state.deciders():
                if not d.state.finished and p in d.state.deciders():
                    d.do(r.Decide(p, d.state.deciding, next(ch, False)))
    counted = Counter()
    for e in d.of("player_settled"):
        counted[(e.data["player"], e.data["position"], "main")] += 1
        if e.data["mano_di_poker"]:
            counted[(e.data["player"], e.data["position"], "mano_di_poker")] += 1
    for e in d.of("side_bet_settled"):
        counted[(e.data["player"], e.data["position"], e.data["kind"])] += 1
    refunded = Counter()
    for e in d.of("round_voided"):
        for x in e.data["refunds"]:
            refunded[x["placement_id"]] += 1
    for p in d.state.placements:
        key = (p.player, p.position, p.kind.value)
        assert counted[key] + refunded[p.placement_id] == 1, (key, counted, refunded)
    for e in d.of("player_settled"):
        if e.data["total"] > 15:
            assert e.data["main"]["returned"] == 0
