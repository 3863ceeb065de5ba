"""The table actor end to end: real database, ledger, event log, manual clock."""

import uuid
from itertools import pairwise

import pytest

from studio import ledger
from studio.storage import event_log
from tests.table_harness import Harness


@pytest.fixture
async def h(store):
    harness = Harness(store)
    harness.credit("ann", 100_000)
    harness.credit("bob", 100_000)
    yield harness
    await harness.actor.stop()


async def test_a_round_from_bets_to_settlement_with_two_players_on_one_position(h):
    await h.start()
    assert (await h.bet("ann", 1, 1000))["ok"]
    answer = await h.bet("bob", 1, 1000)
    assert answer["ok"] and answer["balance"] == {"available": 99_000, "reserved": 1000}
    await h.bet("bob", 1, 200, "mano_di_poker")
    await h.close_betting()
    assert h.actor.snapshot("dealer")["round"]["expecting"] == "burn a card"
    await h.cards("Qs 4c 3b")                   # burn, position 1, dealer
    assert h.actor.state.deciders() == ["ann", "bob"]
    assert (await h.decide("ann", 1, "stai"))["ok"]
    assert (await h.decide("bob", 1, "carta"))["ok"]
    await h.cards("2c")                          # bob: 6
    await h.decide("bob", 1, "stai")
    await h.cards("Jb 2s")                       # dealer 3 1/2 then 5 1/2
    assert h.actor.state.finished
    assert h.balance("ann").available == 99_000              # lost 10.00
    assert h.balance("bob").available == 100_000 + 1000 + 1000  # won 10 + scala 5:1 on 2
    assert h.balance("bob").reserved == 0
    assert h.total() == 0
    # players never see the burn card
    public = [e for a, e in h.seen if a != "dealer"]
    assert all("Qs" not in str(e) for e in public)
    assert h.events("card_burned")


async def test_each_player_gets_their_settlement_and_the_dealer_one_summary(h):
    await h.start()
    await h.bet("ann", 1, 1000)
    await h.bet("bob", 2, 1000)
    await h.bet("bob", 2, 200, "mano_di_poker")
    await h.close_betting()
    await h.cards("Qs 7c 7b 4s")          # burn, ann 7, bob 7, dealer 4
    for player, position in (("ann", 1), ("bob", 2)):
        await h.decide(player, position, "stai")
    await h.cards("2c")                   # dealer 6: stands
    assert h.actor.state.finished
    settled = [(a, e["player"]) for a, e in h.seen if e["type"] == "player_settled"]
    assert sorted(settled) == [("player:ann", "ann"), ("player:bob", "bob")]
    [summary] = [e for a, e in h.seen if e["type"] == "settlement_summary"]
    assert [a for a, e in h.seen if e["type"] == "settlement_summary"] == ["dealer"]
    bob = next(e for a, e in h.seen if e["type"] == "player_settled" and e["player"] == "bob")
    returned = 2000 + 2000 + bob["mano_di_poker"]["returned"]  # 7 beats the dealer's 6
    assert summary == {"type": "settlement_summary", "table_id": h.actor.table_id,
                       "round_id": h.actor.state.round_id, "settled": 2, "staked": 2200,
                       "returned": returned}


async def test_a_repeated_command_returns_the_first_answer_and_changes_nothing(h):
    await h.start()
    first = await h.bet("ann", 2, 500, key="k1")
    again = await h.bet("ann", 2, 500, key="k1")
    assert first == again and first["ok"]
    assert h.balance("ann").reserved == 500
    with h.store.reader() as tx:
        assert len(ledger.open_reservations(tx, player_id="ann")) == 1


async def test_bets_after_the_window_closes_are_refused_whatever_the_client_says(h):
    await h.start()
    h.clock.advance(h.cfg.timers.betting_window_s + 0.001)  # the close timer has not run yet
    late = await h.actor.place_bets("ann", [{"position": 1, "amount": 1000}], "late")
    assert late["error"]["code"] == "bet.window_closed"
    assert h.balance("ann").reserved == 0


async def test_a_malformed_bet_list_is_refused_and_the_table_plays_on(h):
    await h.start()
    r = await h.actor.place_bets("ann", [{"position": 1, "amount": 500}, "chips"], "bad")
    assert r["error"]["code"] == "bet.invalid"
    r = await h.actor.place_bets("ann", [], "empty")
    assert r["error"]["code"] == "bet.empty"
    assert h.actor.paused is None and h.balance("ann").reserved == 0
    assert (await h.bet("ann", 1, 500))["ok"]


async def test_over_credit_and_over_limit_change_nothing(h):
    await h.start()
    h.credit("poor", 500)
    r = await h.bet("poor", 1, 1000)
    assert r["error"]["code"] == "ledger.insufficient_funds"
    r = await h.bet("ann", 1, 10**9)
    assert r["error"]["code"] == "bet.above_max"
    r = await h.bet("ann", 1, 500, "partita_perfetta")
    assert r["error"]["code"] == "bet.side_without_main"
    r = await h.actor.place_bets("ann", [{"position": 9, "amount": 500}], "x")
    assert r["error"]["code"] == "bet.unknown_position"
    assert h.balance("poor").available == 500 and h.balance("ann").reserved == 0
    # a command with two bets is accepted or refused as a whole
    r = await h.actor.place_bets("poor", [{"position": 1, "amount": 300},
                                          {"position": 2, "amount": 300}], "both")
    assert r["error"]["code"] == "ledger.insufficient_funds"
    assert h.balance("poor") == ledger.Balance(500, 0)


async def test_cancel_during_the_window_gives_the_money_back(h):
    await h.start()
    await h.bet("ann", 1, 1000)
    r = await h.actor.cancel_bets("ann", "c1")
    assert r["ok"] and r["balance"] == {"available": 100_000, "reserved": 0}
    await h.close_betting()
    assert h.actor.state.finished  # nobody bet: no round dealt


async def test_ripunta_and_autoplay(h):
    await h.start()
    await h.bet("ann", 2, 700)
    await h.close_betting()
    await h.cards("Ac 7c 5b")                     # burn, pos 2: 7, dealer 5
    await h.decide("ann", 2, "stai")              # 7 beats the dealer's 5 at the end
    assert h.actor.state.finished
    await h.advance(h.cfg.timers.pause_between_rounds_s)   # next round opens
    r = await h.actor.repeat_bets("ann", "rip1")
    assert r["ok"] and r["bets"] == [{"position": 2, "kind": "main", "amount": 700}]
    assert (await h.actor.set_autoplay("ann", 2, "auto1"))["ok"]
    await h.close_betting()
    await h.cards("Ad 7d 5c")
    await h.decide("ann", 2, "stai")
    await h.advance(h.cfg.timers.pause_between_rounds_s)   # autoplay bets for her
    assert h.actor.book.player_total("ann") == 700
    assert h.actor.autoplay["ann"] == 1


async def test_autoplay_stops_on_insufficient_credit(h):
    h.credit("carl", 1000)
    await h.start()
    await h.bet("carl", 1, 600)
    await h.actor.set_autoplay("carl", 5, "a")
    await h.close_betting()
    await h.cards("Ac 6c 6b")                     # burn, carl 6, dealer 6
    await h.decide("carl", 1, "stai")             # push at 6: stake back
    await h.advance(h.cfg.timers.pause_between_rounds_s)   # autoplay: 600 of 1000
    assert h.actor.book.player_total("carl") == 600
    await h.close_betting()
    await h.cards("Ad 6d 6s")
    await h.decide("carl", 1, "carta")
    await h.cards("5s")                            # bust: 400 left
    await h.advance(h.cfg.timers.pause_between_rounds_s)
    assert h.actor.book.player_total("carl") == 0
    assert "carl" not in h.actor.autoplay
    assert h.events("autoplay_changed", "player:carl")[-1]["reason"] == \
        "ledger.insufficient_funds"


async def test_no_answer_means_stai(h):
    await h.start()
    await h.bet("ann", 1, 1000)
    await h.close_betting()
    await h.cards("Ac 5c 3b")
    assert h.actor.state.deciders() == ["ann"]
    await h.advance(h.cfg.timers.decision_s)
    assert h.events("decision_timed_out")
    assert h.actor.snapshot()["round"]["expecting"] == "deal to the dealer"


async def test_a_doubtful_card_pauses_the_table_and_is_never_settled(h):
    await h.start()
    await h.bet("ann", 1, 1000)
    await h.close_betting()
    await h.cards("Ac 5c")
    await h.cards("5c")                           # the same card again
    assert h.actor.paused and "card.duplicate" in h.actor.paused
    alerts = h.events("alert", "dealer")
    assert alerts[-1]["code"] == "card.duplicate" and alerts[-1]["card"] == "5c"
    assert not [e for a, e in h.seen if a != "dealer" and e["type"] == "alert"]
    await h.cards("3b")                           # devices are ignored while paused
    assert len(h.actor.state.dealer) == 0
    r = await h.dealer("card", code="3b")         # the dealer keys the right card
    assert r["ok"] and h.actor.state.dealer[0].code == "3b"
    await h.dealer("resume")
    await h.advance(h.cfg.timers.decision_s)
    assert not h.actor.paused


async def test_void_refunds_every_bet_not_settled(h):
    await h.start()
    await h.bet("ann", 1, 1000)
    await h.bet("ann", 1, 100, "partita_perfetta")
    await h.bet("bob", 2, 2000)
    await h.close_betting()
    await h.cards("Jc 3c 4c 3b")                  # burn; ann 3, bob 4, dealer 3: pair of 3s
    assert h.balance("ann").available == 100_000 - 1100 + 600
    r = await h.dealer("void", reason="shoe jammed")
    assert r["ok"]
    assert h.balance("ann") == ledger.Balance(100_000 + 500, 0)   # the pair stands
    assert h.balance("bob") == ledger.Balance(100_000, 0)
    assert h.total() == 0
    assert (await h.dealer("void", reason=""))["error"]["code"] == "void.reason_required"


async def test_events_are_stored_hash_chained_with_the_money(h):
    await h.start()
    await h.bet("ann", 1, 1000)
    await h.close_betting()
    await h.cards("Jc 7c 7b")
    await h.decide("ann", 1, "stai")
    with h.store.reader() as tx:
        events = event_log.read(tx, stream_id="table:sem-live-1")
        types = [e.type for e in events]
        assert types[0] == "betting_opened" and "players_settled" in types
        assert all(b.prev_hash == a.hash for a, b in pairwise(events))
        round_id = events[0].round_id
        kinds = sorted(m.kind for m in ledger.movements_for_round(tx, round_id))
        assert kinds == ["post", "reserve"]


async def test_rng_table_plays_rounds_by_itself(store):
    h = Harness(store, card_source="rng", seed=42)
    for p in ("ann", "bob", "cai"):
        h.credit(p, 1_000_000)
    await h.start()
    for _ in range(20):
        for i, p in enumerate(("ann", "bob", "cai")):
            await h.bet(p, 1 + i % 2, 1000)
        await h.close_betting()
        while not h.actor.state.finished:
            await h.advance(h.cfg.timers.decision_s)
        await h.advance(h.cfg.timers.pause_between_rounds_s)
    assert h.actor.rounds_completed == 20
    assert h.total() == 0
    with h.store.reader() as tx:
        assert not ledger.open_reservations(tx, round_id=h.actor.state.round_id)
    await h.actor.stop()


async def test_uuid_keys_differ_per_player(h):
    await h.start()
    key = uuid.uuid4().hex
    assert (await h.bet("ann", 1, 500, key=key))["ok"]
    assert (await h.bet("bob", 1, 500, key=key))["ok"]  # keys are per player


def test_settlements_are_stored_as_tables_and_expand_back_to_the_events():
    from studio.games.sette_e_mezzo_live import round as core
    from studio.games.sette_e_mezzo_live.game import GAME
    from studio.table.actor import expand_stored, stored_events

    events = [
        core.Event("player_settled", {"player": "ann", "position": 1, "main": {"stake": 1}}),
        core.Event("player_settled", {"position": 2, "player": "bob", "main": {"stake": 2}}),
        core.Event("side_bet_settled", {"player": "ann", "kind": "partita_perfetta"}),
        core.Event("player_settled", {"player": "cy", "position": 3, "main": None,
                                      "extra": True}),
        core.Event("round_closed", {"round_id": "R"}),
    ]
    stored = stored_events(events, GAME.grouped)
    assert [t for t, _, _ in stored] == ["players_settled", "side_bets_settled",
                                         "players_settled", "round_closed"]
    assert stored[0][1]["columns"] == ["player", "position", "main"]
    assert stored[0][1]["rows"][1] == ["bob", 2, {"stake": 2}]  # the columns' order
    expanded = [x for t, payload, _ in stored for x in expand_stored(t, payload, GAME.grouped)]
    assert expanded == [(e.type, e.data) for e in events]
    # the first stored form (a list of objects) still expands, for logs written before
    assert expand_stored("players_settled", {"settlements": [{"player": "ann"}]},
                         GAME.grouped) == [
        ("player_settled", {"player": "ann"})]


async def test_one_players_commands_in_one_batch_count_together_towards_the_limits(h):
    """Commands submitted together are committed as one batch: a player's second command in
    it must see the first one's bets (spot maximum, round total, side bet on a main bet)."""
    import asyncio

    h.credit("ann", h.cfg.limits.main_max)
    await h.start()
    main_max = h.cfg.limits.main_max
    answers = await asyncio.gather(
        h.actor.place_bets("ann", [{"position": 1, "amount": main_max}], "a1"),
        h.actor.place_bets("bob", [{"position": 1, "amount": 500}], "b1"),
        h.actor.place_bets("ann", [{"position": 1, "amount": 100}], "a2"),       # over the max
        h.actor.place_bets("ann", [{"position": 1, "kind": "partita_perfetta",
                                    "amount": 100}], "a3"),                      # on a1's main
        h.actor.place_bets("bob", [{"position": 1, "amount": 500}], "b2"),
    )
    assert [a["ok"] for a in answers] == [True, True, False, True, True]
    assert answers[2]["error"]["code"] == "bet.above_max"
    assert h.balance("ann").reserved == main_max + 100 and h.balance("bob").reserved == 1000
