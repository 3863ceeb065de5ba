"""Start-up and the history read the table's recent rounds, not its whole log."""

from unittest import mock

from studio.games.sette_e_mezzo_live.game import GAME
from studio.storage import event_log
from studio.storage.event_log import NewEvent
from studio.table import actor as actor_module
from studio.web.history import HistoryProjection
from tests.table_harness import Harness


def write_rounds(store, stream: str, rounds: int, *, last_open: bool = False) -> None:
    with store.transaction() as tx:
        for n in range(1, rounds + 1):
            rid = f"T-{n:06d}"
            events = [NewEvent(stream, "betting_opened", {"round_id": rid, "round_no": n}, rid),
                      NewEvent(stream, "bets_placed", {"bets": [
                          {"placement_id": f"b{n}", "player": f"p{n % 7}", "position": 1,
                           "kind": "main", "amount": 100 + n}]}, rid)]
            if not (last_open and n == rounds):
                events.append(NewEvent(stream, "round_closed", {"round_id": rid, "dealer": [],
                                                                "dealer_total": 0}, rid))
            event_log.append(tx, events)


def test_recent_start_finds_where_the_last_rounds_begin(store):
    write_rounds(store, "table:T", 10)
    with store.reader() as tx:
        assert event_log.recent_start(tx, "table:T", "betting_opened", 3) == 21  # round 8
        assert event_log.recent_start(tx, "table:T", "betting_opened", 10) == 0
        assert event_log.recent_start(tx, "table:T", "betting_opened", 50) == 0
        assert event_log.recent_start(tx, "table:other", "betting_opened", 3) == 0


def test_the_history_keeps_and_reads_only_its_rounds(store):
    write_rounds(store, "table:T", 30)
    history = HistoryProjection(store, "T", GAME, max_rounds=5)
    # p1 bet in rounds 29, 22, 15...: only 29 is among the five kept
    assert [r["round_id"] for r in history.for_player("p1", limit=99)] == ["T-000029"]
    assert list(history.rounds) == [f"T-{n:06d}" for n in range(26, 31)]
    opened = NewEvent("table:T", "betting_opened", {"round_id": "T-000031"}, "T-000031")
    with store.transaction() as tx:
        event_log.append(tx, [opened])
    history.catch_up()  # then only what is new
    assert list(history.rounds)[-1] == "T-000031" and len(history.rounds) == 5


async def test_start_up_reads_the_recent_rounds_and_voids_the_one_in_flight(store):
    h = Harness(store)
    write_rounds(store, f"table:{h.actor.table_id}", 40, last_open=True)
    with mock.patch.object(actor_module, "RECOVERY_ROUNDS", 5):
        await h.actor.start()
    try:
        assert h.actor.round_no == 40
        voided = h.events("round_voided")
        [stored] = [e for e in _stream(store, h.actor.table_id) if e.type == "round_voided"]
        assert stored.round_id == "T-000040" and stored.payload["recovery"] is True
        assert not voided or voided[0]["round_id"] == "T-000040"
        # Ripunta remembers the recent rounds' bets (p5 bet in round 40, p4 in round 39)
        assert h.actor.last_bets["p5"] == [(1, "main", 140)]
        assert h.actor.last_bets["p4"] == [(1, "main", 139)]
        assert set(h.actor.last_bets) == {"p1", "p2", "p3", "p4", "p5"}  # rounds 36..40 only
    finally:
        await h.actor.stop()


def _stream(store, table_id: str):
    with store.reader() as tx:
        return list(event_log.iter_events(tx, stream_id=f"table:{table_id}"))
