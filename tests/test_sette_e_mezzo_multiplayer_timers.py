"""Timers, sitout and stand-ups of a multiplayer table on the injected clock (no sleeps)."""

from __future__ import annotations

from studio.storage import Store, event_log
from tests.mp_harness import MpHarness
from tests.test_sette_e_mezzo_multiplayer_table import audit_ok, piatto_bank


def logged(h: MpHarness, type_: str) -> list[dict]:
    with h.store.reader() as tx:
        return [e.payload for e in event_log.read(tx, stream_id=h.table.stream)
                if e.type == type_]


async def test_a_punter_silent_past_its_time_goes_into_sitout_and_the_system_plays(
        store: Store) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 1000)
    h.shoe.stacks = [["Ac", "5c", "2c", "4c"]]  # b A, banker 5, b draws 2 then 4
    await h.ok("b", "join", plays=True)
    await h.ok("b", "stake", amount=200, hit=True)
    assert h.state.awaiting[0] == "b" and h.state.deadline == h.clock.now() + 20
    await h.advance(19.9)
    assert "b" not in h.state.sitout
    await h.advance(0.2)  # b's decision timed out
    assert "b" in h.state.sitout
    auto = logged(h, "automatic_play")
    assert auto[0] == {"player": "b", "hit": True}  # 3 is below the default 4 1/2: Tiro
    assert auto[1] == {"player": "b", "hit": False}  # 7 stands
    assert h.state.bank.decider == "a"  # b's hand is played: the banker's turn
    await h.ok("b", "sitout", on=False)  # "sono tornato"
    assert "b" not in h.state.sitout
    audit_ok(store)
    await h.close()


async def test_a_banker_in_sitout_after_accepting_is_played_by_the_system(store: Store) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 1000)
    h.shoe.stacks = [["6c", "4c", "7c"]]  # b 6 stands; banker 4 draws 7: bust
    await h.ok("b", "join", plays=True)
    await h.ok("a", "sitout", on=True)
    await h.ok("b", "stake", amount=300, hit=False)
    assert logged(h, "automatic_play") == [{"player": "a", "hit": True}]
    assert h.state.bank.punter == "c"  # the banker bust: b won, c's turn
    assert h.pool() == 700
    audit_ok(store)
    await h.close()


async def test_three_skipped_banks_stand_a_player_up_with_its_credit(store: Store) -> None:
    h = MpHarness(store, seed=3)
    await h.sit("a", "b", "c", "d")
    await h.ok("d", "sitout", on=True)
    banks = h.state.bank_no
    await h.bots(until=lambda s: s.bank_no >= banks + 3 and s.bank is None)
    assert "d" not in h.state.seats
    left = logged(h, "seat_left")
    assert left == [{"player": "d", "reason": "three_banks_skipped", "credit": 5000}]
    assert h.wallet("d") == 100_000 and h.seat("d") == 0
    assert h.total() == 0
    audit_ok(store)
    await h.close()


async def test_offers_time_out_and_an_idle_table_stands_everyone_in_sitout_up(
        store: Store) -> None:
    h = MpHarness(store)
    h.shoe.stacks = [["Kd"]]
    await h.sit("a", "b", "c", "d")
    await h.ok("d", "sitout", on=True)
    assert h.state.offer == "a"
    await h.advance(20)  # a silent: sitout, the bank passes right
    assert "a" in h.state.sitout and h.state.offer == "b"
    await h.advance(20)  # b too: c alone cannot play a bank
    assert h.state.sitout == {"a", "b", "d"} and h.state.offer is None
    assert [e["player"] for e in logged(h, "bank_refused")] == ["a", "b"]
    await h.advance(179 - 40)
    assert h.state.players == ["a", "b", "c", "d"]
    await h.advance(1)  # three minutes without a punter playing
    assert h.state.players == ["c"]
    assert [h.wallet(p) for p in "abd"] == [100_000] * 3
    assert h.total() == 0
    audit_ok(store)
    await h.close()


async def test_after_a_restart_the_turn_s_timer_runs_again(store: Store) -> None:
    h = MpHarness(store)
    await piatto_bank(h, 1000)
    h.shoe.stacks = [["4c", "5c"]]
    await h.ok("b", "join", plays=True)
    await h.ok("b", "stake", amount=200, hit=False)  # the banker's turn, when all stops
    await h.restart()
    assert h.state.bank.punter == "b" and h.state.deadline == h.clock.now() + 20
    await h.advance(20)  # b silent again: sitout, and its turn passes
    assert "b" in h.state.sitout and h.state.bank.punter == "c"
    audit_ok(store)
    await h.close()


async def test_the_time_the_studio_was_down_is_nobody_s(store: Store) -> None:
    h = MpHarness(store)
    h.shoe.stacks = [["Kd"]]
    await h.sit("a", "b", "c")
    assert h.state.offer == "a"
    await h.group.stop()
    h.clock.advance(600)  # down for ten minutes: a's offer time and the idle time are past
    await h.restart()
    assert h.state.offer == "a" and h.state.deadline == h.clock.now() + 20
    assert h.state.sitout == frozenset() and h.state.players == ["a", "b", "c"]
    await h.ok("a", "accept", amount=1000)
    audit_ok(store)
    await h.close()
