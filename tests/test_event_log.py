"""The event log: appends in order, reads back, a hash chain that reveals any rewrite, and a
database that refuses UPDATE and DELETE on history."""

from __future__ import annotations

from itertools import pairwise

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from studio import ledger as L
from studio.storage import StorageError, Store
from studio.storage.audit import verify_chain
from studio.storage.event_log import (
    GENESIS_HASH,
    NewEvent,
    event_hash,
    head,
    iter_events,
    read,
    streams,
)


def append(store: Store, *events: NewEvent) -> list:
    with store.transaction() as tx:
        return tx.append_events(list(events))


def some_rounds(store: Store, store_clock) -> None:
    """Two tables, interleaved, three rounds."""
    for n in range(3):
        table = "t1" if n != 1 else "t2"
        append(store, NewEvent(table, "RoundOpened", {"n": n}, f"{table}:{n}"),
               NewEvent(table, "BetPlaced", {"bet": f"b{n}", "amount": 100 * n}, f"{table}:{n}"))
        store_clock.advance(1.5)
        append(store, NewEvent(table, "RoundClosed", {"n": n}, f"{table}:{n}"))
    append(store, NewEvent("t1", "TableNote", {"text": "è pausa"}))


def unprotect(store: Store, table: str = "event_log") -> None:
    """Drop the append-only triggers, as someone with raw access to the database could."""
    with store.engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.execute(text(f"DROP TRIGGER {table}_no_update"))
            conn.execute(text(f"DROP TRIGGER {table}_no_delete"))
        else:
            conn.execute(text(f"DROP TRIGGER {table}_no_change ON {table}"))


def raw(store: Store, sql: str, **params: object) -> None:
    with store.engine.begin() as conn:
        conn.execute(text(sql), params)


def chain_problems(store: Store, anchors=None) -> list:
    with store.reader() as tx:
        return verify_chain(tx, anchors)[0]


def test_appended_events_read_back_in_order_with_their_links(store: Store, store_clock) -> None:
    some_rounds(store, store_clock)
    with store.reader() as tx:
        everything = read(tx)
        t1 = read(tx, stream_id="t1")
        assert streams(tx) == ["t1", "t2"]
        assert head(tx, "t1") == (t1[-1].stream_seq, t1[-1].hash)
        assert head(tx, "nobody") == (0, GENESIS_HASH)
        assert [e.type for e in read(tx, round_id="t2:1")] == [
            "RoundOpened", "BetPlaced", "RoundClosed"]
        assert [e.seq for e in read(tx, after_seq=5)] == [6, 7, 8, 9, 10]
        assert [e.stream_seq for e in read(tx, stream_id="t1", after_stream_seq=4)] == [5, 6, 7]
        assert [e.seq for e in iter_events(tx, page=2, limit=5)] == [1, 2, 3, 4, 5]
        assert len(list(iter_events(tx, page=3))) == 10
    assert [e.seq for e in everything] == list(range(1, 11))
    assert [e.stream_seq for e in t1] == [1, 2, 3, 4, 5, 6, 7]
    assert t1[0].prev_hash == GENESIS_HASH
    assert all(b.prev_hash == a.hash for a, b in pairwise(t1))
    assert everything[-1].payload == {"text": "è pausa"} and everything[-1].round_id is None
    assert everything[0].ts == "2026-11-22T20:00:00.000000Z"
    assert everything[2].ts == "2026-11-22T20:00:01.500000Z"
    e = everything[1]
    assert e.hash == event_hash(stream_id=e.stream_id, stream_seq=e.stream_seq,
                                round_id=e.round_id, type=e.type, payload=e.payload_json,
                                ts=e.ts, prev_hash=e.prev_hash)
    assert chain_problems(store) == []


def test_append_returns_what_was_stored(store: Store) -> None:
    stored = append(store, NewEvent("t1", "A", {"x": 1}), NewEvent("t1", "B", {"y": [1, 2]}))
    with store.reader() as tx:
        assert read(tx) == stored


@pytest.mark.parametrize("payload", [{"x": float("nan")}, {"x": {1, 2}}, ["not", "object"]])
def test_a_payload_that_is_not_a_json_object_is_refused(store: Store, payload) -> None:
    with pytest.raises(StorageError) as err, store.transaction() as tx:
        tx.append_events([NewEvent("t1", "Ok", {}), NewEvent("t1", "Bad", payload)])
    assert err.value.code == "event_log.invalid_payload"
    with store.reader() as tx:
        assert read(tx) == []


@pytest.mark.parametrize("event", [NewEvent("", "A"), NewEvent("t", ""),
                                   NewEvent("t", "A", {}, "")])
def test_an_event_without_stream_or_type_is_refused(store: Store, event: NewEvent) -> None:
    with pytest.raises(StorageError) as err, store.transaction() as tx:
        tx.append_events([event])
    assert err.value.code == "event_log.invalid_event"


@pytest.mark.parametrize("table", ["event_log", "ledger_movement"])
def test_the_database_refuses_to_rewrite_history(store: Store, table: str) -> None:
    append(store, NewEvent("t1", "A", {"x": 1}))
    with store.transaction() as tx:
        L.credit(tx, "c1", "alice", 100)
    column = {"event_log": "type", "ledger_movement": "kind"}[table]
    for sql in (f"UPDATE {table} SET {column} = 'x'",
                f"DELETE FROM {table}"):
        with pytest.raises(DBAPIError) as err:
            raw(store, sql)
        assert "storage.append_only" in str(err.value)
    if store.engine.dialect.name == "postgresql":
        with pytest.raises(DBAPIError) as err:
            raw(store, f"TRUNCATE {table} CASCADE")
        assert "storage.append_only" in str(err.value)
    with store.reader() as tx:
        assert [e.type for e in read(tx)] == ["A"]
        assert L.balance(tx, "alice").available == 100


def test_a_changed_payload_is_the_first_broken_link(store: Store, store_clock) -> None:
    some_rounds(store, store_clock)
    unprotect(store)
    raw(store, "UPDATE event_log SET payload = :p WHERE stream_id = 't1' AND stream_seq = 5",
        p='{"amount":100000,"bet":"b2"}')
    problems = chain_problems(store)
    assert [(p.code, p.stream_id, p.stream_seq) for p in problems] == [
        ("audit.chain_hash", "t1", 5)]


def test_a_rewrite_that_recomputes_its_hash_breaks_the_next_link(store: Store,
                                                                 store_clock) -> None:
    some_rounds(store, store_clock)
    with store.reader() as tx:
        target = read(tx, stream_id="t1")[3]
    forged = '{"amount":0,"bet":"b2"}'
    new_hash = event_hash(stream_id="t1", stream_seq=target.stream_seq, round_id=target.round_id,
                          type=target.type, payload=forged, ts=target.ts,
                          prev_hash=target.prev_hash)
    unprotect(store)
    raw(store, "UPDATE event_log SET payload = :p, hash = :h WHERE seq = :s",
        p=forged, h=new_hash, s=target.seq)
    problems = chain_problems(store)
    assert [(p.code, p.stream_seq) for p in problems] == [("audit.chain_link", 5)]


def test_a_deleted_event_is_a_gap(store: Store, store_clock) -> None:
    some_rounds(store, store_clock)
    unprotect(store)
    raw(store, "DELETE FROM event_log WHERE stream_id = 't2' AND stream_seq = 2")
    problems = chain_problems(store)
    assert [(p.code, p.stream_id, p.stream_seq) for p in problems] == [
        ("audit.chain_gap", "t2", 3)]


def test_an_anchor_reveals_a_log_cut_short(store: Store, store_clock) -> None:
    some_rounds(store, store_clock)
    with store.reader() as tx:
        anchor = {"t1": head(tx, "t1")}
    assert chain_problems(store, anchor) == []
    unprotect(store)
    raw(store, "DELETE FROM event_log WHERE stream_id = 't1' AND stream_seq = 7")
    assert chain_problems(store) == []  # a cut at the very end leaves a valid chain...
    problems = chain_problems(store, anchor)  # ...that the recorded head exposes
    assert [(p.code, p.stream_seq) for p in problems] == [("audit.chain_anchor", 7)]


def test_two_writers_of_one_stream_cannot_fork_it(store: Store) -> None:
    [first] = append(store, NewEvent("t1", "A"))
    with pytest.raises(DBAPIError), store.transaction() as tx:
        tx.append_events([NewEvent("t1", "B")])
        # A second writer that read the head before B was written would link C to A:
        tx.cache["event_log.heads"]["t1"] = (first.stream_seq, first.hash)
        tx.append_events([NewEvent("t1", "C")])
    assert chain_problems(store) == []
