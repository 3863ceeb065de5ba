"""Blackjack's live seven-seat table through the real actor, ledger and event log: seats taken
by their first bet, bets behind a seat following its player's double, split and insurance
where the follower's credit allows, the decision timer's default, a seated player who leaves
standing at once, the burn and hole cards kept back, and bad input refused with nothing
changed."""

from __future__ import annotations

import uuid

import pytest

from studio.config import load_config
from studio.games.blackjack.live import GAME
from studio.storage import audit
from studio.table import replay
from tests.reveal import shows
from tests.table_harness import Harness


def bj_live(**changes):
    return load_config().table("bj-live-1").model_copy(update=changes)


@pytest.fixture
async def h(store):
    harness = Harness(store, cfg=bj_live())
    for p in ("ann", "bob", "cat"):
        harness.credit(p, 100_000)
    yield harness
    await harness.actor.stop()


async def bet(h: Harness, player: str, *spots: tuple[int, str, int]) -> dict:
    return await h.actor.place_bets(
        player, [{"position": n, "kind": k, "amount": a} for n, k, a in spots], uuid.uuid4().hex)


async def begin(h: Harness) -> None:
    """The shuffler announces a shoe, the dealer starts the table."""
    await h.start(running=False)
    h.actor.deck_ready("S1")
    await h.actor.drain()
    await h.dealer("start")
    await h.actor.drain()


def says(h: Harness) -> str:
    return h.actor.snapshot("dealer")["round"]["expecting"]


def available(h: Harness, player: str) -> int:
    return h.balance(player).available


def settled(h: Harness, player: str) -> dict[tuple[int, str], int]:
    """(seat, kind) -> returned, from the player's settlement of the last round."""
    (done,) = [e for e in h.events("game_settled") if e["player"] == player][-1:]
    return {(b["position"], b["kind"]): b["returned"] for b in done["bets"]}


def verify(h: Harness) -> None:
    report = audit.verify(h.store, replayers=replay.replayers(),
                          games={h.actor.stream: "blackjack-live"})
    assert report.ok, report.problems


async def test_a_double_is_followed_behind_the_seat_and_the_dealer_is_told_every_card(h):
    await begin(h)
    assert (await bet(h, "ann", (1, "main", 1000)))["ok"]
    assert (await bet(h, "cat", (2, "main", 1000)))["ok"]
    assert (await bet(h, "bob", (1, "behind", 500)))["ok"]
    await h.close_betting()
    assert says(h) == "burn a card"
    await h.cards("Qd")
    assert says(h) == "deal to position 1"
    await h.cards("5c 9d 6s 6b 9s")           # seat 1: 5 6, seat 2: 9 9, dealer up 6
    assert says(h) == "deal to the dealer (hole card, face down)"
    await h.cards("Tc")
    dealer = h.actor.snapshot("dealer")["round"]
    assert dealer["waiting_for"] == "Seat 1 decides: stay, hit, double"
    assert (await h.decide("ann", 1, "double"))["ok"]
    assert available(h, "bob") == 100_000 - 1000  # bob's bet behind doubled with ann's
    await h.cards("Td")                       # seat 1: 21
    assert (await h.decide("cat", 2, "stay"))["ok"]
    await h.cards("8c")                       # dealer 6 T 8: bust
    assert h.actor.state.finished
    assert available(h, "ann") == 100_000 + 2000
    assert available(h, "bob") == 100_000 + 1000
    assert available(h, "cat") == 100_000 + 1000
    assert settled(h, "bob") == {(1, "behind"): 2000}
    public = str([e for a, e in h.seen if a != "dealer"])
    assert not shows(public, "Qd")                # the burn card: never shown
    verify(h)


async def test_a_follower_without_the_credit_keeps_the_bet_as_it_was(h):
    h.credit("dan", 600)
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    assert (await bet(h, "dan", (1, "behind", 500)))["ok"]
    await bet(h, "bob", (1, "behind", 500))
    await h.close_betting()
    await h.cards("Qd 5c 6s 6b Tc")
    assert (await h.decide("ann", 1, "double"))["ok"]  # dan has 100 left: cannot follow
    (made,) = h.events("decision_made")
    assert made["unfunded"] == ["dan"]
    assert available(h, "dan") == 100 and h.balance("dan").reserved == 500
    await h.cards("Td 8c")                    # seat 1: 21; dealer 6 T 8 bust
    assert settled(h, "dan") == {(1, "behind"): 1000}
    assert settled(h, "bob") == {(1, "behind"): 2000}
    assert available(h, "dan") == 1100
    verify(h)                                 # the replay decides alike (unfunded logged)


async def test_a_split_and_insurance_are_followed(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await bet(h, "bob", (1, "behind", 400))
    await h.close_betting()
    await h.cards("Qd 8c Ad 8s Tc")           # seat 1: 8 8; dealer ace up
    assert h.actor.snapshot("player:ann")["round"]["insurance"]
    assert (await h.decide("ann", 1, "insure"))["ok"]
    assert h.balance("bob").reserved == 400 + 200
    assert (await h.decide("ann", 1, "split"))["ok"]
    assert h.balance("bob").reserved == 400 + 200 + 400
    await h.cards("3d 2d")                    # hand 1: 8 3, hand 2: 8 2 (cards to both first)
    assert (await h.decide("ann", 1, "stay"))["ok"]
    assert (await h.decide("ann", 1, "stay"))["ok"]
    # the dealer's hole card Tc: blackjack. Both hands lose; insurance pays 2:1.
    assert h.actor.state.finished
    assert settled(h, "bob") == {(1, "behind"): 0, (1, "behind_split"): 0,
                                 (1, "behind_insurance"): 600}
    assert available(h, "bob") == 100_000 - 400 - 400 - 200 + 600
    assert available(h, "ann") == 100_000 - 2000 - 500 + 1500
    verify(h)


async def test_the_decision_timer_stands_and_a_player_who_leaves_stands_at_once(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await bet(h, "cat", (3, "main", 1000))
    await h.close_betting()
    await h.cards("Qd 5c 9d 6s 6b 9s Tc")
    assert h.actor.state.deciding == 1
    await h.advance(h.cfg.timers.decision_s)   # ann says nothing: she stands
    assert h.actor.state.deciding == 3
    h.actor.player_present("cat", True)
    h.actor.player_present("cat", False)       # cat's last socket closes on her turn
    await h.actor.drain()
    assert h.events("decider_gone")
    assert h.actor.state.deciding is None      # cat stood; the dealer plays
    await h.cards("2c")                        # dealer 6 T 2 = 18: 11 and 18... ann 11 loses
    assert h.actor.state.finished
    assert available(h, "ann") == 100_000 - 1000
    assert available(h, "cat") == 100_000      # 18 against 18: a push
    verify(h)


async def test_a_player_still_connected_elsewhere_keeps_the_turn(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await h.close_betting()
    await h.cards("Qd 5c 6s 6b Tc")
    h.actor.player_present("ann", True)
    h.actor.player_present("ann", True)
    h.actor.player_present("ann", False)       # one of two tabs closed
    await h.actor.drain()
    assert h.actor.state.deciding == 1 and not h.events("decider_gone")


@pytest.mark.parametrize(("player", "spots", "code"), [
    ("bob", [(1, "main", 1000)], "bet.seat_taken"),
    ("bob", [(2, "behind", 1000)], "bet.seat_empty"),
    ("ann", [(1, "behind", 1000)], "bet.behind_own_seat"),
    ("bob", [(8, "main", 1000)], "bet.unknown_position"),
    ("bob", [(2, "player_pair", 100)], "bet.side_without_main"),
    ("bob", [(1, "behind", 99)], "bet.below_min"),
    ("bob", [(1, "behind", 250_001)], "bet.above_max"),
    ("bob", [(2, "main", 1000), (3, "dragon", 100)], "bet.unknown_kind"),
])
async def test_bad_bets_get_a_stable_code_and_change_nothing(h, player, spots, code):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    before = available(h, player)
    answer = await bet(h, player, *spots)
    assert answer["error"]["code"] == code, answer
    assert available(h, player) == before
    seats = h.actor.snapshot(f"player:{player}")["round"]["seats"]
    assert [n for n, s in seats.items() if s["taken"]] == ["1"]


async def test_two_players_for_one_seat_in_one_batch_the_second_bets_behind_or_not_at_all(h):
    await begin(h)
    first = h.actor.place_bets("ann", [{"position": 4, "kind": "main", "amount": 1000}], "k1")
    second = h.actor.place_bets("bob", [{"position": 4, "kind": "main", "amount": 1000}], "k2")
    import asyncio
    a, b = await asyncio.gather(first, second)
    assert a["ok"] and b["error"]["code"] == "bet.seat_taken"
    assert available(h, "bob") == 100_000


async def test_bad_decisions_get_a_stable_code_and_change_nothing(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await bet(h, "bob", (1, "behind", 500))
    await bet(h, "cat", (2, "main", 1000))
    await h.close_betting()
    await h.cards("Qd 5c 9d 6s 7b 8s Tc")      # seat 1: 5 7, seat 2: 9 8
    before = h.actor.state
    for player, seat, choice, code in [
        ("bob", 1, "hit", "decision.not_your_turn"),     # behind a seat: no say
        ("cat", 2, "stay", "blackjack.not_your_turn"),    # not her turn yet
        ("ann", 1, "split", "blackjack.split_not_pair"),
        ("ann", 1, "insure", "blackjack.insurance_no_ace"),
    ]:
        answer = await h.decide(player, seat, choice)
        assert answer["error"]["code"] == code, (player, choice, answer)
        assert h.actor.state is before
    assert (await h.decide("ann", 1, "hit"))["ok"]
    await h.cards("2c")
    answer = await h.decide("ann", 1, "double")         # double after a hit
    assert answer["error"]["code"] == "blackjack.double_after_hit", answer


async def test_a_bet_behind_a_seat_given_back_is_refunded_when_betting_closes(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await bet(h, "bob", (1, "behind", 500))
    assert (await h.actor.cancel_bets("ann", uuid.uuid4().hex))["ok"]
    await h.close_betting()
    assert available(h, "bob") == 100_000 and h.balance("bob").reserved == 0
    assert settled(h, "bob") == {(1, "behind"): None}
    verify(h)


async def test_what_players_see_never_holds_the_hole_card_or_who_sits(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await bet(h, "bob", (1, "behind", 700))
    window = h.actor.snapshot("player:cat")["round"]["seats"]["1"]
    assert window == {"taken": True, "mine": False, "behind": 1, "behind_total": 700,
                      "my_behind": 0}
    await h.close_betting()
    await h.cards("Qd 5c 6s 7b Kh".replace("Kh", "Kc"))
    for who in ("ann", "bob", "cat"):
        view = h.actor.snapshot(f"player:{who}")
        assert not shows(view, "Kc") and "ann" not in str(view["round"].get("seats"))
    bob = h.actor.snapshot("player:bob")["round"]["seats"]["1"]
    assert bob["my_behind"] == 700 and not bob["mine"]
    assert h.actor.snapshot("player:ann")["round"]["choices"]
    assert not h.actor.snapshot("player:bob")["round"]["choices"]
    assert GAME.stands_when_gone


async def test_a_restart_mid_round_voids_it_and_returns_every_stake_once(h, store):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await bet(h, "bob", (1, "behind", 500))
    await h.close_betting()
    await h.cards("Qd 5c 6s 6b Tc")
    assert (await h.decide("ann", 1, "double"))["ok"]   # bob's stake followed: 1000 reserved
    assert h.balance("bob").reserved == 1000
    await h.actor.stop()                                # the process dies mid-round
    again = Harness(store, cfg=bj_live())
    again.clock = h.clock
    await again.actor.start()
    try:
        for who in ("ann", "bob"):
            assert again.balance(who) == (100_000, 0)     # every stake back, the double too
        await again.actor.stop()
        await again.actor.start()                       # a second restart refunds nothing more
        assert again.balance("bob") == (100_000, 0)
        verify(again)
    finally:
        await again.actor.stop()


async def test_the_cut_card_finishes_the_round_then_the_new_shoe_burns_again(h):
    await begin(h)
    await bet(h, "ann", (1, "main", 1000))
    await h.close_betting()
    await h.cards("Qd 9c")
    h.actor.cut_card()                                  # the shoe reports the cut card
    await h.cards("6s 8b Tc")                           # seat 1: 9 8 = 17; dealer 6 T
    assert (await h.decide("ann", 1, "stay"))["ok"]
    await h.cards("2c")                                 # dealer 18: ann's 17 loses
    assert h.actor.state.finished and h.events("shoe_change_started", "public")
    await h.advance(60)
    assert len(h.events("betting_opened")) == 1         # no round until the new shoe
    h.actor.deck_ready("S2")
    await h.actor.drain()
    await h.advance(h.cfg.timers.pause_between_rounds_s)
    assert len(h.events("betting_opened")) == 2
    await bet(h, "ann", (1, "main", 1000))
    await h.close_betting()
    assert says(h) == "burn a card"


async def test_a_players_view_is_decided_by_its_key_and_a_card_changes_no_key_behind(h):
    """`personal_key`: at any two moments of a round where a player's key is the same, that
    player's view is the same (seats held, bets behind, insurance, a split, a double); a
    card changes the key of no one betting behind (10,000 of them: no view built again).
    `personal_changes`: between any two states seen, a player it does not name has the same
    view in both."""
    players = ("ann", "bob", "cat")
    seen: dict = {}
    states: list = []
    narrowed = [0]  # pairs of states the game named some players for, not all

    def observe() -> dict[str, object]:
        s = h.actor.state
        if not s.betting:
            for before in states:
                changes = GAME.personal_changes(before, s)
                narrowed[0] += changes is not None
                for p in players if changes is not None else ():
                    if p not in changes:
                        assert GAME.personal_view(before, p) == GAME.personal_view(s, p), p
            states.append(s)
        keys = {}
        for p in players:
            key = GAME.personal_key(s, p)
            view = GAME.personal_view(s, p)
            assert seen.setdefault((s.round_id, p, key), view) == view, (p, key)
            keys[p] = key
        return keys

    async def step(do) -> dict[str, object]:  # type: ignore[no-untyped-def]
        answer = await do
        assert answer is None or answer["ok"], answer
        return observe()

    await begin(h)
    assert (await bet(h, "ann", (1, "main", 1000)))["ok"]
    assert (await bet(h, "cat", (2, "main", 1000)))["ok"]
    assert (await bet(h, "bob", (1, "behind", 400), (2, "behind", 300)))["ok"]
    await h.close_betting()
    observe()
    # the burn; seat 1: 8 8, seat 2: 9 9, the dealer's ace up
    for code in ("Qd", "8c", "9d", "Ad", "8s", "9s"):
        before = observe()["bob"]
        assert (await step(h.cards(code)))["bob"] == before, code
    await step(h.cards("5c"))                 # the hole card: no blackjack
    await step(h.decide("ann", 1, "insure"))
    await step(h.decide("cat", 2, "no_insurance"))
    await step(h.decide("ann", 1, "split"))
    for code in ("3d", "2d"):
        await step(h.cards(code))
    await step(h.decide("ann", 1, "hit"))    # hand 1: 8 3
    await step(h.cards("5s"))                 # 16
    await step(h.decide("ann", 1, "stay"))
    await step(h.decide("ann", 1, "stay"))    # hand 2: 8 2
    await step(h.decide("cat", 2, "double"))  # 9 9 doubled: bob's bet behind follows
    await step(h.cards("Ts"))
    for code in ("Kc", "9c"):                 # the dealer: A 5, K (16), 9: bust
        await step(h.cards(code))
    assert h.actor.state.finished
    assert len({k for (_, p, k) in seen if p == "bob"}) > 2  # bob's view did change
    assert narrowed[0] > 20
