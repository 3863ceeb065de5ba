"""Blackjack's virtual table: the round on the seam (pure), then the private table through the
real actor, ledger and audit (doubles, splits and insurance reserved like bets; a refused
decision changes nothing; the hole card never reaches a player before it is turned over)."""

from __future__ import annotations

import uuid
from fractions import Fraction

import pytest

from studio.cards import parse_card
from studio.config import load_config
from studio.games.blackjack import mathematics as m
from studio.games.blackjack import round as core
from studio.games.blackjack import rules
from studio.games.blackjack.game import GAME
from studio.storage import audit
from studio.table import replay
from studio.table.private import PrivateTables
from studio.table.seam import CardSeen, CloseBetting, Decide, DecisionTimeout, OpenDeck, Placement
from studio.table.seam import RoundError as SeamError
from tests.reveal import shows
from tests.test_private_tables import Tables

CFG = load_config().table("bj-virtual-1")
TABLE = GAME.table_rules(CFG)


def opened(*bets: tuple[int, str, int], player: str = "ann") -> core.RoundState:
    """A game with these bets (position, kind, amount), its deck open."""
    state, _ = core.open_round("r1", TABLE, 10.0)
    placements = tuple(Placement(f"b{i}", player, pos, kind, amount)
                       for i, (pos, kind, amount) in enumerate(bets))
    state, _ = core.step(state, CloseBetting(0.0, placements))
    state, _ = core.step(state, OpenDeck("D1", fresh=True))
    return state


def cards(state: core.RoundState, codes: str) -> tuple[core.RoundState, list]:
    events = []
    for code in codes.split():
        state, out = core.step(state, CardSeen(parse_card(code), "rng", "D1"))
        events += out
    return state, events


def decide(state, choice: str, position: int | None = None, player: str = "ann"):
    return core.step(state, Decide(player, position or state.deciding, GAME.choices[choice]))


def test_the_deal_runs_from_the_right_and_the_hole_card_stays_face_down():
    state = opened((3, "main", 1000), (1, "main", 500), (0, "dealer_pair", 100))
    assert state.expecting().describe() == "deal to position 1"
    state, events = cards(state, "9c 8d 6s 7c Tb")  # 1, 3, dealer up, 1, 3
    assert state.expecting().describe() == "deal to the dealer (hole card, face down)"
    state, out = cards(state, "Kd")
    public = [e for e in events + out if not e.private]
    assert not shows([e.data for e in public], "Kd")
    assert [e.type for e in out if e.private] == ["hole_card"]
    view = GAME.round_view(state, "ann")
    assert view["dealer"] == ["6s", None] and "Kd" not in str(view)
    assert view["deciding"] == 1 and set(view["choices"]) == {"stay", "hit", "double"}
    state, out = decide(state, "stay")                  # position 1: 16 stands
    state, out = decide(state, "stay")                  # position 3: 18 stands
    reveal = [e for e in out if e.type == "hole_card_revealed"]
    assert reveal and reveal[0].data["card"] == "Kd"    # turned over when players are done
    state, out = cards(state, "5d")                     # dealer 16 draws: 21
    (settled,) = [e for e in out if e.type == "game_settled"]
    back = {(b["position"], b["kind"]): b["returned"] for b in settled.data["bets"]}
    assert back == {(1, "main"): 0, (3, "main"): 0, (0, "dealer_pair"): 0}
    assert state.finished


def test_soft_17_stands_and_the_dealer_draws_to_16():
    state = opened((1, "main", 1000))
    state, _ = cards(state, "Tc Ad 9s 6b")               # player 19; dealer A 6 = soft 17
    state, out = decide(state, "no_insurance")           # the ace up: insurance first
    state, out = decide(state, "stay")
    assert state.finished                                # soft 17 stands: 19 wins
    (settled,) = [e for e in out if e.type == "game_settled"]
    assert settled.data["bets"][0]["returned"] == 2000


def test_no_peek_a_dealer_blackjack_takes_the_double_and_the_split():
    state = opened((1, "main", 1000), (2, "main", 1000))
    state, _ = cards(state, "5c 8d Ts 6b 8s Ac")         # 1: 5 6, 2: 8 8, dealer T + hole
    state, out = decide(state, "double")
    added = state.placements[-1]
    assert (added.position, added.kind, added.amount) == (1, "main", 1000)
    state, _ = cards(state, "Td")                        # position 1 doubled: 21
    state, _ = decide(state, "split")
    assert state.placements[-1].kind == "split"
    state, _ = cards(state, "2d 3d")                     # the split hands' second cards
    state, _ = decide(state, "stay")
    state, out = decide(state, "stay")
    (settled,) = [e for e in out if e.type == "game_settled"]
    # the hole card was an ace: blackjack; every main stake is lost, doubled and split alike
    assert {(b["position"], b["kind"]): (b["stake"], b["returned"]) for b in settled.data["bets"]} \
        == {(1, "main"): (2000, 0), (2, "main"): (1000, 0), (2, "split"): (1000, 0)}


def test_split_aces_may_be_hit_and_a_split_21_is_not_blackjack():
    state = opened((1, "main", 1000))
    state, _ = cards(state, "Ac 9d Ad 7s")               # A A; dealer 9 + hole 7 = 16
    state, _ = decide(state, "split")
    state, _ = cards(state, "Kc 5d")                     # hand 1: A K = 21, hand 2: A 5
    assert state.deciding_hand == 0 and "hit" in state.choices()
    state, _ = decide(state, "stay")
    state, _ = decide(state, "hit")                      # split aces may be hit
    state, _ = cards(state, "4c")                        # A 5 4 = 20
    state, _ = decide(state, "stay")
    state, out = cards(state, "Tc")                      # dealer 26: bust
    (settled,) = [e for e in out if e.type == "game_settled"]
    back = {b["kind"]: b["returned"] for b in settled.data["bets"]}
    assert back == {"main": 2000, "split": 2000}         # 21 after a split pays 1:1, not 3:2


def test_insurance_covers_only_the_original_bet_and_times_out_to_no_insurance():
    state = opened((1, "main", 1001), (2, "main", 1000))
    state, _ = cards(state, "Tc 9d As Td Tb Kc")         # dealer A + K: blackjack
    assert state.phase is core.Phase.INSURANCE and state.choices() == ["insure", "no_insurance"]
    with pytest.raises(SeamError) as e:
        decide(state, "stay")
    assert e.value.code == "blackjack.insurance_pending"
    state, _ = decide(state, "insure", 1)
    assert state.placements[-1].amount == 500            # half of 10.01, truncated
    state, out = core.step(state, DecisionTimeout(2, state.turn))  # position 2 said nothing
    assert [e.data["choice"] for e in out if e.type == "decision_timed_out"] == ["no_insurance"]
    state, out = decide(state, "stay")
    state, out = decide(state, "stay")
    (settled,) = [e for e in out if e.type == "game_settled"]
    back = {(b["position"], b["kind"]): b["returned"] for b in settled.data["bets"]}
    assert back == {(1, "main"): 0, (1, "insurance"): 1500, (2, "main"): 0}


@pytest.mark.parametrize(("first", "bad", "code"), [
    ("hit", "double", "blackjack.double_after_hit"),
    (None, "split", "blackjack.split_not_pair"),
    (None, "insure", "blackjack.insurance_no_ace"),
])
def test_bad_decisions_get_a_stable_code_and_change_nothing(first, bad, code):
    state = opened((1, "main", 1000))
    state, _ = cards(state, "2c 9d 3s 7s")
    if first:
        state, _ = decide(state, first)
        state, _ = cards(state, "2d")
    with pytest.raises(SeamError) as e:
        decide(state, bad)
    assert e.value.code == code


def test_acting_for_another_seat_or_another_player_is_refused():
    state = opened((1, "main", 1000), (2, "main", 1000))
    state, _ = cards(state, "2c 3c 9d 3s 4s 7s")
    for cmd, code in ((Decide("ann", 2, rules.Action.STAY), "blackjack.not_your_turn"),
                      (Decide("bob", 1, rules.Action.STAY), "decision.not_your_turn")):
        with pytest.raises(SeamError) as e:
            core.step(state, cmd)
        assert e.value.code == code


def test_each_side_bet_class_and_a_near_miss():
    state = opened((1, "main", 100), (1, "player_pair", 100), (1, "twenty_one_three", 100),
                   (2, "main", 100), (2, "player_pair", 100), (2, "twenty_one_three", 100),
                   (0, "dealer_pair", 100))
    # 1: 7c 7c (perfect pair), 21+3 with the up 7c: suited tris; 2: 8d 9d (no pair; 21+3 8 9 7
    # would be a straight, which this game does not pay: a near miss); dealer 7c + 7b: pair
    state, _ = cards(state, "7c 8d 7c 7c 9d 7b")
    state, _ = decide(state, "stay")
    state, _ = decide(state, "stay")
    state, out = cards(state, "Tc")                      # the dealer's 14 draws: bust
    (settled,) = [e for e in out if e.type == "game_settled"]
    got = {(b["position"], b["kind"]): (b["result"], b["returned"]) for b in settled.data["bets"]}
    assert got[(1, "player_pair")] == ("perfect_pair", 2500)
    assert got[(1, "twenty_one_three")] == ("suited_tris", 10000)
    assert got[(2, "player_pair")] == ("lose", 0)
    assert got[(2, "twenty_one_three")] == ("lose", 0)
    assert got[(0, "dealer_pair")][1] > 0


@pytest.mark.parametrize(("bets", "code"), [
    ([(1, "player_pair", 100)], "bet.side_without_main"),
    ([(0, "dealer_pair", 100)], "bet.side_without_main"),
    ([(1, "main", 50_000), (2, "main", 50_000), (3, "main", 100)], "bet.hand_cap"),
    ([(6, "main", 100)], "bet.unknown_position"),
    ([(1, "insurance", 100)], "bet.unknown_kind"),
    ([(1, "main", 99)], "bet.below_min"),
])
def test_bad_bets_are_refused_with_a_stable_code(bets, code):
    book = core.BetBook(TABLE, 10.0)
    with pytest.raises(SeamError) as e:
        book.check_command("ann", [(f"b{i}", p, k, a) for i, (p, k, a) in enumerate(bets)],
                           0.0)
    assert e.value.code == code and not book.placements


@pytest.mark.slow
def test_the_known_main_game_return_is_the_computed_one():
    """The figure the configuration check uses instead of nine seconds of computing."""
    (key, known), = m.KNOWN_MAIN_RETURNS.items()
    decks, win, blackjack = key
    assert (win, blackjack) == (Fraction(1), Fraction(3, 2)) and decks == rules.DECKS
    computed = m.main_game(decks, rules.Paytable(win=win, blackjack=blackjack)).return_
    assert abs(computed - known) < 1e-12


# ------------------------------------------------------------------- through the table


def bj_tables(store) -> Tables:
    t = Tables(store)
    t.private = PrivateTables(CFG, store, t.clock, t.hub, shoe=lambda: t.shoe)
    return t


async def test_a_game_with_a_double_and_a_split_through_the_ledger_and_the_audit(store):
    t = bj_tables(store)
    t.credit("ann", 10_000)
    t.shoe.stacks.append(["5c", "8d", "Ts", "6b", "8s", "7c", "Td", "2d", "3d", "Kb"])
    actor = await t.private.open("ann")
    answer = await actor.deal("ann", None, uuid.uuid4().hex, [
        {"position": 1, "kind": "main", "amount": 1000},
        {"position": 2, "kind": "main", "amount": 1000}])
    assert answer["ok"], answer
    assert t.balance("ann") == (8_000, 2_000)
    for choice in ("double", "split", "stay", "stay"):
        a = await actor.decide("ann", actor.state.deciding, choice, uuid.uuid4().hex)
        assert a["ok"], (choice, a)
        await actor.drain()
    # 1: 5 6 doubled with a T = 21; 2: 8 8 split, 8 2 and 8 3 stand; dealer T 7 = 17
    assert actor.state.finished
    assert t.balance("ann") == (10_000 + 2000 - 1000 - 1000, 0)
    hidden = [e for _, aud, e in t.seen if aud != "dealer" and e.get("card") == "7c"
              and e["type"] not in ("hole_card_revealed",)]
    assert not hidden  # the hole card reached players only when it was turned over
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:bj-virtual-1/ann": "blackjack"})
    assert report.ok and report.rounds_replayed == 1, report.problems
    await t.private.stop()


async def test_a_double_without_the_credit_is_refused_and_changes_nothing(store):
    t = bj_tables(store)
    t.credit("ann", 1_500)
    t.shoe.stacks.append(["5c", "Ts", "6b", "7c"])
    actor = await t.private.open("ann")
    assert (await actor.deal("ann", None, uuid.uuid4().hex,
                             [{"position": 1, "kind": "main", "amount": 1000}]))["ok"]
    before = actor.state
    a = await actor.decide("ann", 1, "double", uuid.uuid4().hex)
    assert not a["ok"] and a["error"]["code"] == "ledger.insufficient_funds", a
    assert actor.state is before and t.balance("ann") == (500, 1000)
    assert (await actor.decide("ann", 1, "stay", uuid.uuid4().hex))["ok"]
    await actor.drain()
    assert actor.state.finished and t.balance("ann").reserved == 0
    await t.private.stop()
