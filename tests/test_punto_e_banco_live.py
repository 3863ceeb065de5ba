"""Punto e Banco's live table through the real actor, ledger and event log: an eight-deck shoe,
burn cards from a new shoe, the cut card, the scoreboards, and bad input."""

from __future__ import annotations

import json
import uuid

import pytest

from studio.config import load_config
from studio.storage import event_log
from tests.reveal import shows
from tests.table_harness import Harness, count_personal_views

WINDOW = 15


def pb_live(**changes):
    cfg = load_config().table("pb-live-1")
    return cfg.model_copy(update={"card_source": "shoe", **changes})


@pytest.fixture
async def h(store):
    harness = Harness(store, cfg=pb_live())
    for p in ("ann", "bob"):
        harness.credit(p, 100_000)
    yield harness
    await harness.actor.stop()


async def bets(h: Harness, player: str, *spots: tuple[str, int]) -> dict:
    return await h.actor.place_bets(player, [{"kind": k, "amount": a} for k, a in spots],
                                    uuid.uuid4().hex)


async def begin(h: Harness) -> None:
    """The shuffler announces the first shoe, the dealer starts the table."""
    await h.start(running=False)
    await new_shoe(h, "S1")
    await h.dealer("start")
    await h.actor.drain()


async def new_shoe(h: Harness, deck_set: str) -> None:
    h.actor.deck_ready(deck_set)
    await h.actor.drain()


def says(h: Harness) -> str:
    return h.actor.snapshot("dealer")["round"]["expecting"]


async def test_a_live_round_burns_from_the_new_shoe_and_settles_every_bet(h):
    await begin(h)
    assert (await bets(h, "ann", ("punto", 1000), ("punto_pair", 100), ("pari", 100)))["ok"]
    assert (await bets(h, "bob", ("banco", 2001)))["ok"]
    await h.close_betting()
    assert says(h) == "burn a card"
    await h.cards("Ks")                       # the burn: never shown
    assert says(h) == "deal to Punto"
    await h.cards("4c 3b 4d 2s")              # Punto 4c 4d = 8 natural, Banco 3b 2s = 5
    assert h.actor.state.finished
    assert h.balance("ann").available == 100_000 - 1200 + 2000 + 1200  # punto 1:1, pair 11:1
    assert h.balance("bob").available == 100_000 - 2001                # banco lost
    public = [e for a, e in h.seen if a == "public"]
    assert not shows(public, "Ks") and not h.events("burn_card")  # the burn stays private
    assert [e["left"] for e in h.events("card_burned")] == [0]
    board = h.actor.snapshot("player:ann")["shoe"]
    assert board["hands"] == 1 and board["counts"]["punto"] == 1
    assert board["pairs"] == {"punto_pair": 1, "banco_pair": 0}
    plate = h.events("shoe_scoreboard", "public")[-1]["bead_plate"]
    assert [list(c) for c in plate] == [[0, 0, "P"]]


async def test_the_dealer_is_told_every_third_card_and_the_same_card_may_come_twice(h):
    await begin(h)
    await bets(h, "bob", ("banco", 2001))
    await h.close_betting()
    await h.cards("Qd")                       # burn
    await h.cards("2c 2c 3d Tc")              # Punto 2c 3d = 5, Banco 2c Tc = 2: two 2c
    assert says(h) == "deal to Punto (third card)"
    await h.cards("9s")                       # Punto 4 with 9 as third card
    assert says(h) == "deal to Banco (third card)"  # Banco on 2 always draws
    await h.cards("5b")                       # Banco 7 beats Punto 4: 2001 less 5 % of 2001
    # the win 2001 less 5 % (100.05) is 1900.95, truncated to the cent: 1900
    assert h.balance("bob").available == 100_000 + 1900
    (settled,) = h.events("player_settled")
    assert settled["bets"][0]["commission"] == 101


async def test_the_second_hand_of_a_shoe_burns_nothing(h):
    await begin(h)
    await bets(h, "ann", ("punto", 100))
    await h.close_betting()
    await h.cards("Qd 4c 3b 4d 2s")
    await h.advance(h.cfg.timers.pause_between_rounds_s)
    await bets(h, "ann", ("punto", 100))
    await h.close_betting()
    assert says(h) == "deal to Punto"
    assert len(h.events("card_burned")) == 1


async def test_a_cut_card_mid_shoe_finishes_the_round_then_changes_the_shoe(h):
    await begin(h)
    for _ in range(2):
        await bets(h, "ann", ("banco", 1000))
        await h.close_betting()
        if not h.events("card_burned"):
            await h.cards("Qd")
        await h.cards("4c 3b 4d 2s")          # Punto wins with a natural 8
        await h.advance(h.cfg.timers.pause_between_rounds_s)
    await bets(h, "ann", ("banco", 1000))
    await h.close_betting()
    await h.cards("9c")
    h.actor.cut_card()                        # the shoe reports the cut card mid-hand
    await h.actor.drain()
    assert h.events("cut_card_out", "public")
    assert h.actor.snapshot()["last_hand_of_shoe"]
    await h.cards("Tb Kd Jd")                 # the hand completes: Punto 9 natural
    assert h.actor.state.finished and h.balance("ann").available == 100_000 - 3000
    assert h.events("shoe_change_started", "public")
    assert h.actor.snapshot()["shoe"]["hands"] == 3
    opened = len(h.events("betting_opened"))
    await h.advance(60)                       # no round while the shoe is changed
    assert len(h.events("betting_opened")) == opened
    assert (await h.dealer("start"))["ok"]    # the table runs: it waits for the new shoe
    await h.actor.drain()
    assert len(h.events("betting_opened")) == opened
    await new_shoe(h, "S1")                   # the same shoe again is no new shoe
    await h.advance(60)
    assert len(h.events("betting_opened")) == opened
    await new_shoe(h, "S2")
    assert h.events("shoe_changed", "public")[-1]["deck_set"] is None  # staff's business
    assert h.actor.snapshot()["shoe"]["hands"] == 0  # a new shoe, new scoreboards
    await h.advance(h.cfg.timers.pause_between_rounds_s)
    assert len(h.events("betting_opened")) == opened + 1
    await bets(h, "ann", ("punto", 100))
    await h.close_betting()
    assert says(h) == "burn a card"           # the new shoe burns again
    with h.store.reader() as tx:
        types = [e.type for e in event_log.iter_events(tx, stream_id=h.actor.stream)]
    assert types.index("cut_card_out") < types.index("shoe_change_started") \
        < types.index("shoe_changed")


async def test_a_restart_during_the_shoe_change_keeps_waiting_and_keeps_the_roads(h, store):
    await begin(h)
    await bets(h, "ann", ("banco", 1000))
    await h.close_betting()
    await h.cards("Qd 4c 3b")
    h.actor.cut_card()
    await h.cards("4d 2s")
    await h.actor.stop()
    again = Harness(store, cfg=pb_live())
    again.clock = h.clock
    await again.actor.start()
    try:
        assert again.actor.changing_shoe
        assert again.actor.snapshot()["shoe"]["counts"]["punto"] == 1
    finally:
        await again.actor.stop()


async def test_a_restart_after_the_shoe_change_starts_with_empty_roads(h, store):
    await begin(h)
    await bets(h, "ann", ("banco", 1000))
    await h.close_betting()
    await h.cards("Qd 4c 3b")
    h.actor.cut_card()
    await h.cards("4d 2s")
    await new_shoe(h, "S2")
    await h.actor.stop()
    again = Harness(store, cfg=pb_live())
    await again.actor.start()
    try:
        assert not again.actor.changing_shoe
        assert again.actor.snapshot()["shoe"]["hands"] == 0  # the old shoe's roads are gone
    finally:
        await again.actor.stop()


@pytest.mark.parametrize(("spots", "code"), [
    ([("dragon", 100)], "bet.unknown_kind"),
    ([("punto", 500_001)], "bet.above_max"),
    ([("pari", 10_001)], "bet.above_max"),
    ([("punto", 99)], "bet.below_min"),
    ([("punto", 1000), ("banco", "ten")], "bet.bad_amount"),
])
async def test_bad_bets_get_a_stable_code_and_change_nothing(h, spots, code):
    await begin(h)
    answer = await bets(h, "ann", *spots)
    assert answer["error"]["code"] == code
    assert h.balance("ann").available == 100_000 and h.actor.book.staked == 0


async def test_a_bet_after_the_window_is_refused_and_changes_nothing(h):
    await begin(h)
    await h.close_betting()
    answer = await bets(h, "ann", ("punto", 1000))
    assert answer["error"]["code"] == "bet.window_closed"
    assert h.balance("ann").available == 100_000


def test_the_live_tables_default_paytable_passes_and_a_15_to_1_pair_is_refused():
    import tomllib
    from pathlib import Path

    from studio.config import ConfigError, parse_config

    data = tomllib.loads((Path(__file__).parents[1] / "config" / "studio.toml").read_text())
    live = next(t for t in data["tables"] if t["game"] == "punto-e-banco-live")
    del live["paytable"]  # the model's default: a casino's eight-deck paytable
    assert parse_config(data).table("pb-live-1").paytable.punto_pair == "11:1"
    live["paytable"] = {"banco_pair": "15:1"}
    with pytest.raises(ConfigError) as e:
        parse_config(data)
    assert "banco_pair returns 119.5181 % with 8 deck(s)" in str(e.value)
    live["paytable"] = {}
    live["cut_card"] = 416
    with pytest.raises(ConfigError, match="not inside the shoe of 8 decks"):
        parse_config(data)


async def test_the_players_parts_are_built_once_a_round_and_stay_true(h):
    """A hand has nothing personal: after the betting window the players' part is built
    once for them all (the same key), and each card after it reuses it (10,000 players, no part built per card), and it
    is still the part built afresh."""
    await begin(h)
    assert (await bets(h, "ann", ("punto", 1000)))["ok"]
    assert (await bets(h, "bob", ("banco", 2000)))["ok"]
    with count_personal_views(h.actor) as built:
        await h.close_betting()
        await h.cards("Ks")                       # the burn
        texts = {p: h.actor.personal_text(p) for p in ("ann", "bob")}
        assert built == ["ann"]  # the game's part (nothing) built once: bob's is ann's
        for code in ("2c", "3d", "4h"):
            built.clear()
            await h.cards(code)
            assert [h.actor.personal_text(p) for p in ("ann", "bob")] == list(texts.values())
            assert built == [], built
        assert json.loads("{" + texts["bob"] + "}") == h.actor.personal("bob")
        assert [(b["kind"], b["amount"]) for b in json.loads("{" + texts["bob"] + "}")[
            "my_bets"]] == [("banco", 2000)]
