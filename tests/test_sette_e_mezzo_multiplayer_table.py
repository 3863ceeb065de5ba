"""Sette e Mezzo multiplayer tables through the real seated-table core and the database:
banks to their end, the money of each hand in one ledger transfer, refusals, restarts, audit."""

from __future__ import annotations

import pytest

from studio.storage import Store, audit
from studio.table import replay
from tests.mp_harness import MpHarness

GAMES = {"table:mp-piatto": "sette-e-mezzo-multiplayer",
         "table:mp-classica": "sette-e-mezzo-multiplayer"}


def audit_ok(store: Store) -> audit.AuditReport:
    report = audit.verify(store, replayers=replay.replayers(), games=GAMES)
    assert report.problems == []
    return report


async def piatto_bank(h: MpHarness, piatto: int) -> None:
    """a, b, c seated; the matta deal gives a the bank; a puts up `piatto`."""
    h.shoe.stacks = [["Kd"]]
    await h.sit("a", "b", "c")
    assert h.state.offer == "a"
    await h.ok("a", "accept", amount=piatto)


async def test_piatto_bank_ends_when_a_punter_wins_the_whole_piatto(store: Store) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 1000)
    assert h.pool() == 1000 and h.seat("a") == 4000
    h.shoe.stacks = [["7c", "5c"]]  # b 7, banker 5
    await h.ok("b", "join", plays=True)
    await h.ok("b", "stake", amount=1000, hit=False)
    assert h.seat("b") == 5000  # the stake in play is still b's table credit
    await h.ok("a", "decide", hit=False)
    assert h.state.bank is None  # the piatto is empty: the bank is over, c never played
    assert (h.seat("a"), h.seat("b"), h.seat("c"), h.pool(), h.rake()) == (
        4000, 5950, 5000, 0, 50)  # b wins 1,000 and pays 1,000 x 2 x 2.5 % of rake
    assert h.state.offer == "b"  # the bank passes right, to one who has bet
    assert h.total() == 0
    audit_ok(store)
    await h.close()


async def test_piatto_bank_ends_when_every_punter_has_played(store: Store) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 2000)
    h.shoe.stacks = [["4c", "5c", "6c", "7c"]]  # b 4 v 5; c 6 v 7
    await h.ok("b", "join", plays=True)
    await h.ok("b", "stake", amount=500, hit=False)
    await h.ok("a", "decide", hit=False)
    assert h.pool() == 2475  # b's lost stake entered the piatto net of rake
    await h.ok("c", "join", plays=True)
    await h.ok("c", "stake", amount=300, hit=False)
    await h.ok("a", "decide", hit=False)
    assert h.state.bank is None
    assert (h.seat("a"), h.seat("b"), h.seat("c"), h.pool(), h.rake()) == (
        5760, 4500, 4700, 0, 40)
    assert h.total() == 0
    report = audit_ok(store)
    assert report.rounds_replayed == 1
    await h.close()


async def test_classica_bank_with_an_all_in_banker(store: Store) -> None:
    h = MpHarness(store, "classica")
    h.shoe.stacks = [["Kd"]]
    h.credit("a", 900)
    await h.ok("a", "sit", amount=900)
    await h.sit("b", "c", "d")
    assert h.state.offer == "a"
    h.shoe.stacks = [["7c", "6c", "2c", "5c", "3c"]]  # b 7, c 6, d 2, banker 5; d draws 3
    answer = await h.ok("a", "accept", amount=None)  # 900 < 500 x 3: all-in, 300 a punter
    assert answer["state"]["max_bet"] == 300
    assert (await h.act("b", "stake", amount=301, hit=False))["error"]["code"] == \
        "mp.stake_above_maximum"
    await h.ok("b", "stake", amount=300, hit=False)
    await h.ok("c", "stake", amount=300, hit=False)
    await h.ok("d", "stake", amount=300, hit=True)
    await h.ok("d", "decide", hit=False)
    await h.ok("a", "decide", hit=False)  # 5 v 7, 6 and 5: the tie goes to the banker
    assert h.state.bank is None
    assert (h.seat("a"), h.seat("b"), h.seat("c"), h.seat("d"), h.rake()) == (
        600, 5285, 5285, 4700, 30)  # the banker lost 300 net: no banker rake
    assert h.total() == 0
    audit_ok(store)
    await h.close()


async def test_bad_input_is_refused_with_a_stable_code_and_nothing_changes(store: Store
                                                                            ) -> None:
    h = MpHarness(store)
    h.shoe.stacks = [["Kd"]]
    await h.sit("a", "b", "c")
    before = (h.state, h.seat("a"), h.wallet("a"))
    assert (await h.act("a", "accept", amount=499))["error"]["code"] == "mp.bank_below_minimum"
    assert (await h.act("b", "accept", amount=1000))["error"]["code"] == "mp.not_offered"
    assert (await h.act("a", "rebuy", amount=10**9))["error"]["code"] == \
        "ledger.insufficient_funds"
    assert (h.state, h.seat("a"), h.wallet("a")) == before
    await h.ok("a", "accept", amount=1000)
    assert (await h.act("c", "join", plays=True))["error"]["code"] == "mp.not_your_turn"
    await h.ok("b", "join", plays=True)
    assert (await h.act("b", "stake", amount=1001, hit=False))["error"]["code"] == \
        "mp.stake_above_piatto"
    assert (await h.act("x", "stake", amount=100, hit=False))["error"]["code"] == \
        "mp.not_at_table"
    assert h.pool() == 1000 and h.seat("b") == 5000 and h.total() == 0
    audit_ok(store)
    await h.close()


async def test_rebuy_during_a_hand_is_credited_at_its_end_with_a_ticket(store: Store) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 1000)
    h.shoe.stacks = [["4c", "5c"]]
    await h.ok("b", "join", plays=True)
    await h.ok("b", "stake", amount=500, hit=False)
    answer = await h.ok("b", "rebuy", amount=700)
    assert answer["state"]["me"]["rebuy_pending"] == 700
    assert h.wallet("b") == 100_000 - 5000 - 700 and h.seat("b") == 5700
    await h.ok("a", "decide", hit=False)
    assert h.state.bank.credits["b"] == 5000 - 500 + 700
    audit_ok(store)
    await h.close()


async def test_restart_mid_hand_voids_it_and_keeps_the_last_completed_hand(store: Store
                                                                         ) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 2000)
    h.shoe.stacks = [["4c", "5c", "Ac", "7c", "2c"]]
    await h.ok("b", "join", plays=True)
    await h.ok("b", "stake", amount=500, hit=False)
    await h.ok("a", "decide", hit=False)  # hand 1 complete: the piatto holds 2,475
    await h.ok("c", "join", plays=True)
    await h.ok("c", "stake", amount=300, hit=True)  # hand 2 in flight...
    await h.ok("c", "rebuy", amount=1000)
    await h.restart()  # ... when the process dies
    s = h.state
    assert s.bank is not None and s.bank.punter == "c" and s.bank.phase.value == "join"
    assert s.bank.piatto == 2475 and s.bank.credits["c"] == 5000
    assert (h.pool(), h.seat("a"), h.seat("b"), h.seat("c")) == (2475, 3000, 4500, 5000)
    assert h.wallet("c") == 100_000 - 5000  # the rebuy of the void hand went back
    assert h.total() == 0
    audit_ok(store)
    h.shoe.stacks = [["6c", "7c"]]
    await h.ok("c", "join", plays=True)  # the bank goes on
    await h.ok("c", "stake", amount=300, hit=False)
    await h.ok("a", "decide", hit=False)
    assert h.state.bank is None and h.seat("a") == 5760
    audit_ok(store)
    await h.close()


@pytest.mark.parametrize("variant", ["piatto", "classica"])
async def test_bots_play_many_banks_and_the_audit_replays_every_one(store: Store,
                                                                    variant: str) -> None:
    h = MpHarness(store, variant, seed=7, seats=6)
    await h.sit("a", "b", "c", "d", "e")
    await h.bots(until=lambda s: s.bank_no >= 12)
    assert h.state.bank_no >= 12
    assert h.total() == 0
    report = audit_ok(store)
    assert report.rounds_replayed >= 11
    await h.close()


async def test_a_decision_set_in_advance_is_played_at_its_turn_and_remove_undoes_it(
        store: Store) -> None:
    h = MpHarness(store, "classica")
    h.shoe.stacks = [["Kd"]]
    await h.sit("a", "b", "c")
    h.shoe.stacks = [["7c", "6c", "5c", "2c"]]  # b 7, c 6, banker 5 then draws 2
    await h.ok("a", "accept", amount=500)
    assert h.state.bank.decider == "b"
    view = (await h.ok("c", "preset", amount=300, hit=False))["state"]["me"]
    assert [b["label"] for b in view["buttons"]] == ["Remove"]
    await h.ok("c", "remove_preset")
    await h.ok("c", "preset", amount=200, hit=False)
    answer = await h.ok("a", "preset", hit=True)  # the banker, while the punters play
    assert [b["label"] for b in answer["state"]["me"]["buttons"]] == ["Remove"]
    assert (await h.act("b", "preset", amount=100, hit=False))["error"]["code"] == \
        "mp.preset_not_allowed"  # b's turn is now: it decides, not in advance
    await h.ok("b", "stake", amount=300, hit=False)  # then c's preset, then the banker's
    assert h.state.presets == {}  # both played: the banker drew (5 + 2), and decides again
    assert h.state.bank.decider == "a" and len(h.state.bank.banker_cards) == 2
    await h.ok("a", "decide", hit=False)
    assert h.state.bank is None
    results = {r["punter"]: r for r in h.state.results}
    assert results["c"]["stake"] == 200 and results["c"]["banker_won"]  # 6 v 7
    assert results["b"]["banker_won"]  # 7 v 7: the tie goes to the banker
    audit_ok(store)
    await h.close()
