"""The engine and unit of work: SQLite pragmas on a real file, persistence, idempotency store."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from studio import ledger as L
from studio.storage import StorageError, Store
from studio.storage.engine import make_engine
from studio.storage.event_log import NewEvent, read
from studio.storage.idempotency import recall_many, remember_many


def pragma(store: Store, name: str) -> object:
    with store.reader() as tx:
        return tx.conn.exec_driver_sql(f"PRAGMA {name}").scalar_one()


def test_sqlite_file_runs_in_wal_mode_with_full_sync_and_foreign_keys(tmp_path: Path,
                                                                       sqlite_url: str) -> None:
    store = Store.open(sqlite_url)
    with store.transaction() as tx:
        L.credit(tx, "c1", "alice", 100)
    assert pragma(store, "journal_mode") == "wal"
    assert pragma(store, "synchronous") == 2  # FULL
    assert pragma(store, "foreign_keys") == 1
    assert pragma(store, "page_size") == 2048
    assert (tmp_path / "studio.db-wal").exists()
    store.dispose()


def test_checkpoints_run_in_the_background_and_commits_stay_durable(sqlite_url: str) -> None:
    store = Store.open(sqlite_url)
    assert store.checkpointer is not None
    assert pragma(store, "wal_autocheckpoint") == 16_384  # the backstop, not 1000
    with store.transaction() as tx:
        L.credit(tx, "c1", "alice", 100)
    for _ in range(1000):  # the background thread may be checkpointing this very commit
        busy, wal_pages, copied = store.checkpointer.checkpoint()
        if not busy:
            break
    assert busy == 0 and wal_pages > 0 and copied == wal_pages
    store.dispose()  # stops the thread
    assert store.checkpointer._thread is not None and not store.checkpointer._thread.is_alive()
    again = Store.open(sqlite_url, background_checkpoint=False)
    assert again.checkpointer is None and pragma(again, "wal_autocheckpoint") == 1000
    with again.reader() as tx:
        assert L.balance(tx, "alice").available == 100
    again.dispose()


def test_synchronous_can_be_relaxed_or_is_refused_when_unknown(sqlite_url: str) -> None:
    store = Store.open(sqlite_url, synchronous="normal")
    assert pragma(store, "synchronous") == 1
    store.dispose()
    with pytest.raises(StorageError) as err:
        make_engine(sqlite_url, synchronous="sometimes")
    assert err.value.code == "storage.bad_setting"


def test_committed_work_survives_reopening_the_file(sqlite_url: str, store_clock) -> None:
    store = Store.open(sqlite_url, clock=store_clock)
    with store.transaction() as tx:
        L.credit(tx, "c1", "alice", 1_000)
        L.reserve(tx, "b1", "alice", 300, round_id="r1")
        tx.append_events([NewEvent("t1", "BetPlaced", {"bet": "b1"}, "r1")])
    store.dispose()
    again = Store.open(sqlite_url, clock=store_clock)  # create_schema is harmless when present
    with again.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(700, 300)
        assert [e.type for e in read(tx)] == ["BetPlaced"]
    again.dispose()


def test_a_reader_sees_a_consistent_snapshot(store: Store) -> None:
    with store.transaction() as tx:
        L.credit(tx, "c1", "alice", 1_000)
    with store.reader() as tx:
        assert L.balance(tx, "alice").available == 1_000
        with store.transaction() as writer:
            L.credit(writer, "c2", "alice", 1)
        assert L.balance(tx, "alice").available == 1_000
    with store.reader() as tx:
        assert L.balance(tx, "alice").available == 1_001


def test_a_naive_clock_is_refused(sqlite_url: str) -> None:
    store = Store.open(sqlite_url, clock=lambda: datetime(2026, 1, 1))
    with pytest.raises(StorageError) as err, store.transaction() as tx:
        L.credit(tx, "c1", "alice", 1)
    assert err.value.code == "storage.naive_timestamp"
    store.dispose()


def test_on_commit_runs_after_commit_only(store: Store) -> None:
    calls: list[str] = []
    with pytest.raises(ValueError), store.transaction() as tx:
        tx.on_commit(lambda: calls.append("rolled back"))
        raise ValueError
    with store.transaction() as tx:
        tx.on_commit(lambda: calls.append("committed"))
    assert calls == ["committed"]


def test_the_orm_session_writes_in_the_same_transaction(store: Store) -> None:
    from studio.storage.models import IdempotencyRecord

    with pytest.raises(ValueError), store.transaction() as tx:
        tx.session().add(IdempotencyRecord(actor="a", key="k", answer="1", created_at="x"))
        raise ValueError
    with store.transaction() as tx:
        tx.session().add(IdempotencyRecord(actor="a", key="k", answer="1", created_at="x"))
    with store.reader() as tx:
        assert tx.recall("a", "k") == 1


# --- idempotency ------------------------------------------------------------------------------


def test_recall_gives_the_first_answer(store: Store) -> None:
    with store.transaction() as tx:
        assert tx.recall("player:alice", "cmd-1") is None
        tx.remember("player:alice", "cmd-1", {"ok": True, "balance": 700, "bets": ["b1"]})
    with store.reader() as tx:
        assert tx.recall("player:alice", "cmd-1") == {"ok": True, "balance": 700, "bets": ["b1"]}
        assert tx.recall("player:bob", "cmd-1") is None  # keys are per actor
    with pytest.raises(StorageError) as err, store.transaction() as tx:
        tx.remember("player:alice", "cmd-1", {"ok": False})
    assert err.value.code == "idempotency.already_answered"
    with store.reader() as tx:
        assert tx.recall("player:alice", "cmd-1")["ok"] is True


def test_an_answer_rolled_back_with_its_command_is_forgotten(store: Store) -> None:
    with pytest.raises(L.LedgerError), store.transaction() as tx:
        tx.remember("player:zoe", "cmd-1", {"ok": True})
        L.reserve(tx, "b1", "zoe", 100)  # zoe has no money: the whole command rolls back
    with store.reader() as tx:
        assert tx.recall("player:zoe", "cmd-1") is None


def test_answers_in_batches(store: Store) -> None:
    items = [(f"player:{i % 7}", f"cmd-{i}", {"n": i}) for i in range(1200)]
    with store.transaction() as tx:
        remember_many(tx, items)
    with store.reader() as tx:
        found = recall_many(tx, [(a, k) for a, k, _ in items[::3]] + [("player:1", "nope")])
    assert found == {(a, k): ans for a, k, ans in items[::3]}
    with pytest.raises(StorageError) as err, store.transaction() as tx:
        remember_many(tx, [("a", "new", 1), ("a", "new", 2)])
    assert err.value.code == "idempotency.already_answered"


def test_recall_then_remember_still_refuses_a_second_answer(store: Store) -> None:
    with store.transaction() as tx:
        assert recall_many(tx, [("a", "k1"), ("a", "k2")]) == {}
        remember_many(tx, [("a", "k1", {"n": 1})])
        with pytest.raises(StorageError) as err:
            remember_many(tx, [("a", "k2", {"n": 2}), ("a", "k1", {"n": 3})])
        assert err.value.code == "idempotency.already_answered"
        assert recall_many(tx, [("a", "k1"), ("a", "k2")]) == {("a", "k1"): {"n": 1}}


@pytest.mark.parametrize(("actor", "key", "answer", "code"), [
    ("", "k", 1, "idempotency.invalid_key"),
    ("a", "", 1, "idempotency.invalid_key"),
    ("a", "k", None, "idempotency.invalid_answer"),
    ("a", "k", {"x": object()}, "idempotency.invalid_answer"),
])
def test_bad_idempotency_input_is_refused(store: Store, actor, key, answer, code) -> None:
    with pytest.raises(StorageError) as err, store.transaction() as tx:
        tx.remember(actor, key, answer)
    assert err.value.code == code
