"""Private tables and the regulation's session rules, on the injected clock: a week is a clock
advance, never a sleep."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import pytest

from studio import ledger
from studio.clock import ManualClock
from studio.storage import audit, event_log
from studio.table import replay
from studio.table.hub import Hub
from studio.table.private import PrivateTables
from tests.quota_fissa_harness import StackedShoe, quota_fissa_config

WEEK = 7 * 24 * 3600


class Tables:
    def __init__(self, store) -> None:
        self.clock = ManualClock()
        store.clock = lambda: datetime.fromtimestamp(self.clock.now(), UTC)
        self.store = store
        self.hub = Hub()
        self.seen: list[tuple[str, str, dict]] = []
        self.hub.subscribe(lambda table, audience, ev: self.seen.append((table, audience, ev)))
        self.shoe = StackedShoe()
        self.private = PrivateTables(quota_fissa_config(), store, self.clock, self.hub,
                                     shoe=lambda: self.shoe)

    def credit(self, player: str, cents: int) -> None:
        with self.store.transaction() as tx:
            ledger.credit(tx, f"credit/{uuid.uuid4().hex}", player, cents)

    def balance(self, player: str) -> ledger.Balance:
        with self.store.reader() as tx:
            return ledger.balance(tx, player)

    async def deal(self, player: str, amount: int, cards: str) -> dict:
        self.shoe.stacks.append(cards.split())
        actor = await self.private.open(player)
        answer = await actor.deal(player, amount, uuid.uuid4().hex)
        await actor.drain()
        return answer

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        for _ in range(5):  # let tasks started by timers run to their end
            await asyncio.sleep(0)
            for inst in list(self.private.instances.values()):
                await inst.actor.drain()
        while self.private._tasks:
            await asyncio.gather(*list(self.private._tasks))

    def events(self, type_: str) -> list[dict]:
        return [e for _, _, e in self.seen if e["type"] == type_]


@pytest.fixture
async def t(store):
    tables = Tables(store)
    yield tables
    await tables.private.stop()


async def test_each_player_gets_an_instance_of_their_own(t):
    t.credit("ann", 5_000)
    t.credit("bob", 5_000)
    a = await t.private.open("ann")
    b = await t.private.open("bob")
    assert a is not b and a.table_id == "sem-quota-fissa-1/ann" and a.stream != b.stream
    assert await t.private.open("ann") is a


async def test_a_choice_pending_waits_a_week_for_the_player(t):
    t.credit("ann", 5_000)
    assert (await t.deal("ann", 1000, "4c 2d"))["ok"]
    t.private.connected("ann")
    t.private.disconnected("ann")
    await t.advance(WEEK - 1)
    actor = t.private.instances["ann"].actor
    assert actor.state.awaiting_decision  # still waiting for the player
    t.private.connected("ann")  # back: the player chooses
    await t.advance(WEEK)  # the week's timer was cancelled
    assert "ann" in t.private.instances and actor.state.awaiting_decision
    answer = await actor.decide("ann", 1, "stai", uuid.uuid4().hex)
    assert answer["ok"]


async def test_after_a_week_the_system_chooses_settles_and_closes_the_session(t):
    t.credit("ann", 5_000)
    # 4 against the bank's 2: the regulation's choice is to draw (below 5), to 7; then to
    # stand (not below 5, not below the bank); the bank draws from 2 to 7: a push.
    await t.deal("ann", 1000, "4c 2d 3s 5b")
    stream = t.private.instances["ann"].actor.stream
    t.private.connected("ann")
    t.private.disconnected("ann")
    await t.advance(WEEK)
    assert "ann" not in t.private.instances  # the game session is closed
    timed_out = t.events("decision_timed_out")
    assert [e["choice"] for e in timed_out] == ["carta", "stai"]
    settled = t.events("hand_settled")[-1]
    assert settled["cards"] == ["4c", "3s"] and settled["bank"] == ["2d", "5b"]
    assert settled["result"] == "push" and t.balance("ann").available == 5_000
    closed = t.events("game_session_closed")
    assert closed[-1]["reason"] == "away" and closed[-1]["credit"] == 5_000
    report = audit.verify(t.store, replayers=replay.replayers(),
                          games={stream: "sette-e-mezzo-quota-fissa"})
    assert report.ok, report.problems


async def test_nothing_pending_closes_after_five_minutes_unless_the_player_returns(t):
    t.credit("ann", 5_000)
    await t.deal("ann", 1000, "6c 5d")
    await t.private.instances["ann"].actor.decide("ann", 1, "stai", uuid.uuid4().hex)
    t.private.connected("ann")
    t.private.disconnected("ann")
    await t.advance(299)
    t.private.connected("ann")  # back within the 5 minutes
    await t.advance(600)
    assert "ann" in t.private.instances
    t.private.disconnected("ann")
    await t.advance(300)
    assert "ann" not in t.private.instances
    assert t.events("game_session_closed")[-1]["credit"] == 6_000


async def test_a_hand_in_flight_at_a_crash_is_void_and_refunded_once_on_restart(t, store):
    t.credit("ann", 5_000)
    await t.deal("ann", 1000, "4c 2d")
    assert t.balance("ann").reserved == 1000
    # the process dies: nothing closes the instance; a new process recovers the table
    await t.private.stop()
    again = PrivateTables(quota_fissa_config(), store, t.clock, Hub())
    assert await again.recover() == ["ann"]
    assert t.balance("ann").available == 5_000 and t.balance("ann").reserved == 0
    assert await again.recover() == []  # once
    with store.reader() as tx:
        voided = [e for e in event_log.iter_events(tx, stream_id="table:sem-quota-fissa-1/ann")
                  if e.type == "round_voided"]
    assert len(voided) == 1 and voided[0].payload["recovery"]
    # the regulation: the player reads the outcome of the hand in the history
    from studio.games.sette_e_mezzo_quota_fissa.game import GAME
    from studio.web.history import HistoryProjection

    (hand,) = HistoryProjection(store, "sem-quota-fissa-1/ann", GAME).for_player("ann")
    assert hand["status"] == "void" and hand["returned"] == 1000 and hand["net"] == 0
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:sem-quota-fissa-1/ann": "sette-e-mezzo-quota-fissa"})
    assert report.ok, report.problems
    await again.stop()


async def test_the_audit_replays_every_instance_by_its_tables_game(t, store):
    for player in ("ann", "bob"):
        t.credit(player, 5_000)
        await t.deal(player, 1000, "6c 5d")
        await t.private.instances[player].actor.decide(player, 1, "stai", uuid.uuid4().hex)
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:sem-quota-fissa-1": "sette-e-mezzo-quota-fissa"})
    assert report.ok and report.replay_streams == 2 and report.rounds_replayed == 2


def test_simulate_through_many_private_tables_lands_on_the_exact_return(tmp_path):
    """`studio simulate sette-e-mezzo-quota-fissa --through-table`: bots on private tables at
    once through the real actor and database; the ledger balances, the audit replays every
    hand, and the realised return is within 4 standard errors of the exact 99.8274 %."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    studio = Path(sys.executable).parent / "studio"
    out = subprocess.run(
        [str(studio), "simulate", "sette-e-mezzo-quota-fissa", "--through-table", "--rounds",
         "1500", "--players", "40", "--seed", "11", "--json",
         "--database", f"sqlite:///{tmp_path / 'sim.db'}"],
        check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    r = json.loads(out.stdout)
    assert r["hands"] == 1500 and r["tables"] == 40
    main = r["bets"]["main"]
    assert main["exact_return_pct"] == 99.8274
    assert abs(main["realised_return_pct"] - main["exact_return_pct"]) <= \
        4 * main["standard_error_pct"]
    assert r["ledger_total"] == 0 and r["open_reservations"] == 0
    assert r["mismatched_balances"] == 0 and r["audit_ok"]
