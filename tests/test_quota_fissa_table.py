"""Sette e Mezzo Quota Fissa on the table core: a private table, one player, cards from the RNG
shoe, the stake placed and the hand dealt by "Carte"; the money through the real ledger and the
hands through the audit's replay."""

from __future__ import annotations

import pytest

from studio.cards import parse_card
from studio.games.sette_e_mezzo_quota_fissa import round as r
from studio.games.sette_e_mezzo_quota_fissa.game import GAME
from studio.storage import audit, event_log
from studio.table import replay
from studio.table.seam import CardSeen, CloseBetting, Decide, DecisionTimeout, OpenDeck, Placement
from tests.quota_fissa_harness import PrivateHarness

RULES = r.TableRules(50, 100_000, r.parse_odds("1:1"))


def dealt(*codes: str, choices: list[bool] = ()) -> r.RoundState:
    """A pure hand: stake 1,000 on position 1, the cards in order, the decisions given."""
    s, _ = r.open_round("R1", RULES, 10.0)
    s, _ = r.step(s, CloseBetting(1.0, (Placement("b1", "ann", 1, "main", 1000),)))
    s, _ = r.step(s, OpenDeck("d1"))
    answers = list(choices)
    for code in codes:
        while s.awaiting_decision:
            s, _ = r.step(s, Decide("ann", 1, answers.pop(0)))
        s, _ = r.step(s, CardSeen(parse_card(code), "rng"))
    return s


# ------------------------------------------------------------------------------- pure rules


def test_player_then_bank_get_one_face_up_card_each_and_the_player_is_asked():
    s = dealt("5c", "3d")
    assert [c.code for c in s.cards] == ["5c"] and [c.code for c in s.bank] == ["3d"]
    assert s.awaiting_decision and s.choices() == ["carta", "stai"]


def test_below_the_banks_card_only_carta_is_offered_and_stai_is_refused():
    s = dealt("2c", "6d")
    assert s.choices() == ["carta"]
    with pytest.raises(r.RoundError) as e:
        r.step(s, Decide("ann", 1, False))
    assert e.value.code == "decision.must_hit"


def test_a_lone_matta_must_draw():
    assert dealt("Kd", "Ac").choices() == ["carta"]


def test_a_bust_loses_at_once_and_the_bank_does_not_play():
    s = dealt("6c", "2d", "5s", choices=[True])
    assert s.finished and len(s.bank) == 1


def test_the_bank_draws_below_five_and_stands_on_five():
    s = dealt("6c", "2d", "2s", "Js", "3b", choices=[False])  # bank 2, 4, 4 1/2, 7 1/2
    assert [c.code for c in s.bank] == ["2d", "2s", "Js", "3b"] and s.finished


def test_seven_and_a_half_cannot_draw_the_bank_plays():
    s = dealt("7c", "5d", "Jc", choices=[True])  # 7 1/2 and no choice
    assert s.finished and s.hand().total == 15


def test_a_week_away_the_system_chooses_as_the_regulation_lists():
    # against a bank matta the player draws to 7
    s = dealt("4c", "Kd")
    assert r.automatic_hit(s)
    s = dealt("7c", "Kd")
    assert not r.automatic_hit(s)
    # otherwise below 5 or below the bank
    assert r.automatic_hit(dealt("4c", "2d"))
    assert not r.automatic_hit(dealt("5c", "2d"))
    # a first-card matta draws once
    assert r.automatic_hit(dealt("Kd", "2d"))
    _, events = r.step(dealt("5c", "2d"), DecisionTimeout(1, 1))
    assert events[0].type == "decision_timed_out" and events[0].data["choice"] == "stai"


# ------------------------------------------------------------------- through the real actor


async def play(h: PrivateHarness, stake: int, cards: str, choices: list[str]) -> dict:
    answer = await h.deal(stake, cards)
    assert answer["ok"], answer
    for choice in choices:
        assert (await h.decide(choice))["ok"]
    return h.events("hand_settled")[-1]


@pytest.mark.parametrize("cards, choices, result, back", [
    ("6c 5d", ["stai"], "win", 2000),           # 6 against the bank's 5: paid 1:1
    ("6c 3d 7s", ["stai"], "win", 2000),        # the bank draws to 10: bust
    ("5c 5d", ["stai"], "push", 1000),          # 5-5: the stake comes back
    ("5c 3d 3s", ["stai"], "lose", 0),          # the bank draws to 6
    ("6c 2d 5s", ["carta"], "lose", 0),         # 11: bust, lost at once
])
async def test_hands_settle_through_the_ledger(store, cards, choices, result, back):
    h = PrivateHarness(store)
    h.credit(10_000)
    await h.actor.start()
    settled = await play(h, 1000, cards, choices)
    assert settled["result"] == result, settled
    assert settled["returned"] == back
    assert h.balance().available == 10_000 - 1000 + back and h.balance().reserved == 0
    report = audit.verify(store, replayers=replay.replayers(),
                          games={h.actor.stream: GAME.name})
    assert report.ok and report.rounds_replayed == 1, report.problems
    await h.actor.stop()


async def test_carte_refused_leaves_nothing_behind(store):
    h = PrivateHarness(store)
    h.credit(500)
    await h.actor.start()
    with store.reader() as tx:
        before = event_log.count(tx)
    for amount, code in [(600, "ledger.insufficient_funds"), (10, "bet.below_min"),
                         (100_001, "bet.above_max"), ("5", "bet.bad_amount"),
                         (-5, "bet.bad_amount")]:
        answer = await h.deal(amount)
        assert not answer["ok"] and answer["error"]["code"] == code, (amount, answer)
    with store.reader() as tx:
        assert event_log.count(tx) == before
    assert h.balance().available == 500 and h.balance().reserved == 0
    assert h.actor.state is None and h.actor.round_no == 0
    await h.actor.stop()


async def test_a_second_carte_during_a_hand_and_bad_choices_are_refused(store):
    h = PrivateHarness(store)
    h.credit(5_000)
    await h.actor.start()
    assert (await h.deal(1000, "2c 6d"))["ok"]
    second = await h.deal(1000)
    assert second["error"]["code"] == "round.in_progress"
    assert (await h.decide("stai"))["error"]["code"] == "decision.must_hit"
    assert (await h.decide("raddoppia"))["error"]["code"] == "decision.bad_choice"
    assert (await h.decide("carta", player="bob"))["error"]["code"] == "decision.not_your_turn"
    assert h.balance().reserved == 1000
    await h.actor.stop()


async def test_a_repeated_carte_key_is_answered_once(store):
    h = PrivateHarness(store)
    h.credit(5_000)
    await h.actor.start()
    first = await h.deal(1000, "7c 5d", key="k1")
    again = await h.deal(1000, key="k1")
    assert first == again and h.actor.round_no == 1
    await h.actor.stop()


async def test_the_bank_draws_are_published_card_by_card_and_the_deck_order_stays_private(store):
    h = PrivateHarness(store)
    h.credit(5_000)
    await h.actor.start()
    await play(h, 1000, "6c 2d 2s Js 3b", ["stai"])
    dealt_to = [(e["to"], e["card"]) for e in h.events("card_dealt")]
    assert dealt_to == [("position", "6c"), ("dealer", "2d"), ("dealer", "2s"),
                        ("dealer", "Js"), ("dealer", "3b")]
    assert not h.events("deck_prepared")  # the shuffled order is logged privately only
    with store.reader() as tx:
        logged = [e for e in event_log.iter_events(tx, stream_id=h.actor.stream)
                  if e.type == "deck_prepared"]
    assert logged and logged[0].payload["private"]
    await h.actor.stop()
