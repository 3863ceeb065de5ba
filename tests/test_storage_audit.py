"""Audit: the books, the replay hook (with a small fake game) and `studio audit verify`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy import text

from studio import ledger as L
from studio.cli import main
from studio.commands.audit import load_replayers
from studio.storage import Store
from studio.storage.audit import verify, verify_ledger
from studio.storage.event_log import NewEvent, StoredEvent

TABLE = "fake-1"
GAMES = {TABLE: "fake-game"}


def fake_replayer(events: Sequence[StoredEvent]) -> list[L.Request]:
    """The money a round of the fake game implies, read from its events alone."""
    out: list[L.Request] = []
    for e in events:
        bet = f"{e.round_id}:{e.payload.get('bet')}"
        if e.type == "BetAccepted":
            out.append(L.Reserve(bet, e.payload["player"], e.payload["amount"], e.round_id))
        elif e.type == "BetSettled":
            out.append(L.Post(f"{bet}:post", bet, e.payload["payout"]))
        elif e.type == "BetVoided":
            out.append(L.Release(f"{bet}:void", bet))
    return out


def play_round(store: Store, round_id: str, bets: dict[str, tuple[str, int]],
               payouts: dict[str, int | None], *, ledger_payouts: dict[str, int] | None = None
               ) -> None:
    """A fake table: accept bets, then settle (payout) or void (None) each, events and money in
    the same transactions. ``ledger_payouts`` simulates a table bug paying other amounts."""
    with store.transaction() as tx:
        tx.append_events([NewEvent(TABLE, "BetAccepted", {"bet": b, "player": p, "amount": a},
                                   round_id) for b, (p, a) in bets.items()])
        outcomes = L.reserve_many(tx, [L.Reserve(f"{round_id}:{b}", p, a, round_id)
                                       for b, (p, a) in bets.items()])
        assert all(o.ok for o in outcomes)
    with store.transaction() as tx:
        requests: list[L.Post | L.Release] = []
        for b, payout in payouts.items():
            bet = f"{round_id}:{b}"
            if payout is None:
                tx.append_events([NewEvent(TABLE, "BetVoided", {"bet": b}, round_id)])
                requests.append(L.Release(f"{bet}:void", bet))
            else:
                tx.append_events([NewEvent(TABLE, "BetSettled", {"bet": b, "payout": payout},
                                           round_id)])
                paid = (ledger_payouts or {}).get(b, payout)
                requests.append(L.Post(f"{bet}:post", bet, paid))
        L.settle_many(tx, requests)


def a_session(store: Store) -> None:
    with store.transaction() as tx:
        L.credit(tx, "demo:alice", "alice", 10_000)
        L.credit(tx, "demo:bob", "bob", 10_000)
    play_round(store, "fake-1:1", {"b1": ("alice", 500), "b2": ("bob", 300)},
               {"b1": 1_000, "b2": 0})
    play_round(store, "fake-1:2", {"b1": ("alice", 200), "b2": ("alice", 100)},
               {"b1": 200, "b2": None})


def test_a_clean_history_passes_every_check(store: Store) -> None:
    a_session(store)
    report = verify(store, replayers={"fake-game": fake_replayer}, games=GAMES)
    assert report.problems == []
    assert report.ok
    assert (report.events, report.streams, report.rounds_replayed) == (8, 1, 2)
    assert report.movements == 10 and report.accounts == 6


def test_a_round_paid_otherwise_than_its_log_is_named(store: Store) -> None:
    a_session(store)
    play_round(store, "fake-1:3", {"b1": ("bob", 400)}, {"b1": 0}, ledger_payouts={"b1": 800})
    report = verify(store, replayers={"fake-game": fake_replayer}, games=GAMES)
    assert [(p.code, p.round_id) for p in report.problems] == [
        ("audit.replay_mismatch", "fake-1:3")]
    assert "different in the ledger: fake-1:3:b1:post" in report.problems[0].message


def test_money_without_events_and_events_without_money_are_found(store: Store) -> None:
    a_session(store)
    with store.transaction() as tx:  # a bet reserved but never logged
        tx.append_events([NewEvent(TABLE, "RoundOpened", {}, "fake-1:4")])
        L.reserve(tx, "fake-1:4:ghost", "bob", 100, round_id="fake-1:4")
    with store.transaction() as tx:  # a bet logged but never reserved
        tx.append_events([NewEvent(TABLE, "BetAccepted",
                                   {"bet": "b9", "player": "bob", "amount": 5}, "fake-1:5")])
    report = verify(store, replayers={"fake-game": fake_replayer}, games=GAMES)
    found: dict[str, str] = {}
    for p in report.problems:
        found[p.round_id] = found.get(p.round_id, "") + p.message
    assert set(found) == {"fake-1:4", "fake-1:5"}
    assert "not implied by the log: fake-1:4:ghost" in found["fake-1:4"]
    # and the ghost holds money though its round is over (another began after it)
    assert "is over but holds 1 open reservation" in found["fake-1:4"]
    assert "not in the ledger: fake-1:5:b9" in found["fake-1:5"]


def test_a_replayer_that_fails_is_reported_and_others_are_skipped(store: Store) -> None:
    a_session(store)

    def broken(events: Sequence[StoredEvent]) -> list[L.Request]:
        raise KeyError("card")

    report = verify(store, replayers={"fake-game": broken}, games=GAMES)
    assert {p.code for p in report.problems} == {"audit.replay_failed"}
    assert verify(store, replayers={"other-game": broken}, games=GAMES).rounds_replayed == 0


def test_books_edited_by_hand_are_found(store: Store) -> None:
    a_session(store)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE ledger_account SET balance = balance + 100 "
                          "WHERE id = 'player:bob'"))
        conn.execute(text("UPDATE ledger_account SET balance = balance + 7 "
                          "WHERE id = 'player:alice:held'"))
    with store.reader() as tx:
        problems = verify_ledger(tx)[0]
    assert {(p.code, p.account_id) for p in problems} == {
        ("audit.ledger_sum", None),
        ("audit.ledger_balance", "player:bob"),
        ("audit.ledger_balance", "player:alice:held"),
        ("audit.ledger_held", "player:alice:held"),
    }


def test_legs_rewritten_by_hand_are_found(store: Store) -> None:
    """Balanced legs that are not those of their movement's kind (the CHECK constraint only
    proves a movement balances), written by someone who dropped the append-only triggers."""
    a_session(store)
    with store.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER ledger_movement_no_update"))
        else:
            conn.execute(text("DROP TRIGGER ledger_movement_no_change ON ledger_movement"))
        conn.execute(text("UPDATE ledger_movement SET player_leg = player_leg + 5, "
                          "cash_leg = cash_leg - 5 WHERE kind = 'credit' AND player_id = 'bob'"))
    with store.reader() as tx:
        problems = verify_ledger(tx)[0]
    assert {(p.code, p.account_id) for p in problems} == {
        ("audit.ledger_legs", None),
        ("audit.ledger_balance", "player:bob"),
        ("audit.ledger_balance", "cash"),
    }


# --- the command ------------------------------------------------------------------------------


def test_studio_audit_verify_passes_a_clean_database(sqlite_url: str, capsys) -> None:
    store = Store.open(sqlite_url)
    a_session(store)
    store.dispose()
    assert main(["audit", "verify", "--database", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "8 events in 1 streams, hash chain intact" in out
    assert out.strip().endswith("OK")


def test_studio_audit_verify_reports_the_first_broken_link(sqlite_url: str, capsys) -> None:
    store = Store.open(sqlite_url)
    a_session(store)
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER event_log_no_update"))
        conn.execute(text("UPDATE event_log SET payload = :p WHERE stream_seq IN (4, 7)"),
                     {"p": '{"bet":"b2","payout":9}'})
    store.dispose()
    assert main(["audit", "verify", "--database", sqlite_url]) == 1
    out = capsys.readouterr().out
    assert "first broken link: stream 'fake-1' event 4 (seq 4)" in out
    assert "FAILED" in out


def test_studio_audit_verify_refuses_what_is_not_a_studio_database(tmp_path: Path,
                                                                   capsys) -> None:
    assert main(["audit", "verify", "--database", f"sqlite:///{tmp_path / 'none.db'}"]) == 1
    assert "no database file" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert main(["audit", "verify", "--database", f"sqlite:///{empty}"]) == 1
    assert "has no studio tables" in capsys.readouterr().err


def test_replayers_are_found_by_dotted_path() -> None:
    found = load_replayers({"fake-game": "tests.test_storage_audit:fake_replayer"})
    assert found == {"fake-game": fake_replayer}


@pytest.mark.parametrize("bad", ["not a url", "nosuchdb://x"])
def test_a_bad_url_is_a_clear_failure(bad: str, capsys) -> None:
    assert main(["audit", "verify", "--database", bad]) == 1
    assert "FAILED" in capsys.readouterr().err
