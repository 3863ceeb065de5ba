"""The append-only, hash-chained event log.

Each stream (one per table) is a chain: event n of the stream stores the hash of event n-1
(``prev_hash``, 64 zeros for the first) and its own ``hash`` = sha256 of the canonical JSON of
its fields and ``prev_hash``. Changing, removing or reordering an event breaks every later link,
which ``studio audit verify`` reports. The module offers appends and reads only; triggers in the
database refuse UPDATE and DELETE as well (see ``storage.engine``).

``seq`` is a global order over all streams, for projections that follow the whole log. On
PostgreSQL, concurrent writers of *different* streams may commit ``seq`` values out of order, so
a projection that must not miss events follows one stream by ``stream_seq`` (gap-free: one writer
per table, enforced by the UNIQUE(stream_id, stream_seq) constraint).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from studio.storage import bulk
from studio.storage.engine import StorageError, Tx
from studio.storage.models import EventRecord

GENESIS_HASH = "0" * 64
_COLUMNS = ("stream_id", "stream_seq", "round_id", "type", "payload", "ts", "prev_hash", "hash")
_T = EventRecord.__table__
_HEADS = "event_log.heads"


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False)


def canonical_json(value: Any) -> str:
    """The one JSON spelling of a value: sorted keys, no spaces, UTF-8, no NaN."""
    return _CANONICAL.encode(value)


def event_hash(
    *,
    stream_id: str,
    stream_seq: int,
    round_id: str | None,
    type: str,
    payload: str,
    ts: str,
    prev_hash: str,
) -> str:
    """sha256 (hex) of an event's fields; ``payload`` is the stored canonical JSON text."""
    body = canonical_json(
        {
            "prev_hash": prev_hash,
            "stream_id": stream_id,
            "stream_seq": stream_seq,
            "round_id": round_id,
            "type": type,
            "payload": payload,
            "ts": ts,
        }
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class NewEvent:
    """An event to append. ``payload`` is a JSON object (ints, not floats, for money)."""

    stream_id: str
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    round_id: str | None = None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: its place in the log, its time and its links."""

    seq: int
    stream_id: str
    stream_seq: int
    round_id: str | None
    type: str
    payload: dict[str, Any]
    ts: str
    prev_hash: str
    hash: str
    payload_json: str  # the exact text that was hashed


def _validate(event: NewEvent) -> str:
    if not isinstance(event.stream_id, str) or not event.stream_id:
        raise StorageError("event_log.invalid_event", "stream_id must be a non-empty string")
    if not isinstance(event.type, str) or not event.type:
        raise StorageError("event_log.invalid_event", "type must be a non-empty string")
    if event.round_id is not None and (not isinstance(event.round_id, str) or not event.round_id):
        raise StorageError("event_log.invalid_event", "round_id must be a non-empty string or None")
    if not isinstance(event.payload, Mapping):
        raise StorageError("event_log.invalid_payload", "payload must be a JSON object")
    try:
        return canonical_json(dict(event.payload))
    except (TypeError, ValueError) as e:
        raise StorageError("event_log.invalid_payload", f"payload is not JSON: {e}") from None


def head(tx: Tx, stream_id: str) -> tuple[int, str]:
    """(last stream_seq, its hash) of a stream; (0, GENESIS_HASH) when the stream is empty."""
    heads: dict[str, tuple[int, str]] = tx.cache.setdefault(_HEADS, {})
    if stream_id not in heads:
        row = tx.conn.execute(
            select(_T.c.stream_seq, _T.c.hash)
            .where(_T.c.stream_id == stream_id)
            .order_by(_T.c.stream_seq.desc())
            .limit(1)
        ).first()
        heads[stream_id] = (int(row[0]), row[1]) if row else (0, GENESIS_HASH)
    return heads[stream_id]


def known_heads(tx: Tx) -> dict[str, tuple[int, str]]:
    """The stream heads this transaction has read or advanced (for `seed_heads`)."""
    return dict(tx.cache.get(_HEADS, {}))


def seed_heads(tx: Tx, heads: dict[str, tuple[int, str]]) -> None:
    """Start a transaction knowing these heads: a stream's single writer that committed them
    need not read them again. Were a head stale, the append would fail on the stream's
    UNIQUE constraint and roll back, never fork the chain."""
    tx.cache.setdefault(_HEADS, {}).update(heads)


def recent_start(tx: Tx, stream_id: str, opening_type: str, count: int) -> int:
    """The ``after_stream_seq`` from which to read a stream so as to see its last ``count``
    rounds whole (each begins with an event of ``opening_type``): a table's start-up and its
    history read what they need, not years of log. 0 when the stream has fewer rounds."""
    p = bulk.placeholder(tx.conn)
    rows = bulk.fetch(tx.conn, f"SELECT stream_seq FROM event_log WHERE stream_id = {p} "
                               f"AND type = {p} ORDER BY stream_seq DESC LIMIT 1 OFFSET {p}",
                      (stream_id, opening_type, max(count, 1) - 1))
    return int(rows[0][0]) - 1 if rows else 0


def append(tx: Tx, events: Sequence[NewEvent], *, stored: bool = True) -> list[StoredEvent]:
    """Append events in the given order, in ``tx``; return them as stored (with seq and hash),
    or nothing with ``stored=False`` (a writer that does not need them saves a query per
    stream).

    All events share one timestamp (one clock reading per append: they are one decision of the
    table). A second writer of the same stream fails on the UNIQUE constraint instead of forking
    the chain.
    """
    if not events:
        return []
    payloads = [_validate(e) for e in events]
    ts = tx.now_ts()
    heads: dict[str, tuple[int, str]] = tx.cache.setdefault(_HEADS, {})
    rows: list[tuple[Any, ...]] = []
    for event, payload in zip(events, payloads, strict=True):
        stream_id, round_id, type_ = event.stream_id, event.round_id, event.type
        last_seq, last_hash = heads.get(stream_id) or head(tx, stream_id)
        digest = event_hash(stream_id=stream_id, stream_seq=last_seq + 1, round_id=round_id,
                            type=type_, payload=payload, ts=ts, prev_hash=last_hash)
        heads[stream_id] = (last_seq + 1, digest)
        rows.append((stream_id, last_seq + 1, round_id, type_, payload, ts, last_hash, digest))
    try:
        bulk.insert_rows(tx.conn, "event_log", _COLUMNS, rows)
    except Exception:
        tx.cache.pop(_HEADS, None)  # the heads we advanced were not written
        raise
    if not stored:
        return []
    seqs = _seqs_of(tx, rows)
    return [
        StoredEvent(seq, r[0], r[1], r[2], r[3], dict(e.payload), r[5], r[6], r[7], r[4])
        for seq, e, r in zip(seqs, events, rows, strict=True)
    ]


def _seqs_of(tx: Tx, rows: Sequence[tuple[Any, ...]]) -> list[int]:
    """The global ``seq`` the database gave each appended row (one range query per stream:
    RETURNING with executemany is row-at-a-time on SQLite)."""
    spans: dict[str, tuple[int, int]] = {}
    for r in rows:
        lo, hi = spans.get(r[0], (r[1], r[1]))
        spans[r[0]] = (min(lo, r[1]), max(hi, r[1]))
    p = bulk.placeholder(tx.conn)
    found: dict[tuple[str, int], int] = {}
    for stream_id, (lo, hi) in spans.items():
        for stream_seq, seq in tx.conn.exec_driver_sql(
            f"SELECT stream_seq, seq FROM event_log WHERE stream_id = {p} "
            f"AND stream_seq BETWEEN {p} AND {p}", (stream_id, lo, hi)
        ):
            found[(stream_id, int(stream_seq))] = int(seq)
    return [found[(r[0], r[1])] for r in rows]


def _stored(row: Any) -> StoredEvent:
    m = row._mapping
    return StoredEvent(int(m["seq"]), m["stream_id"], int(m["stream_seq"]), m["round_id"],
                       m["type"], json.loads(m["payload"]), m["ts"], m["prev_hash"], m["hash"],
                       m["payload"])


def read(
    tx: Tx,
    *,
    stream_id: str | None = None,
    round_id: str | None = None,
    after_seq: int | None = None,
    after_stream_seq: int | None = None,
    limit: int | None = None,
) -> list[StoredEvent]:
    """Events in log order, filtered: all, one stream, one round, after a global ``seq`` or
    (with ``stream_id``) after a ``stream_seq``."""
    return list(
        iter_events(
            tx,
            stream_id=stream_id,
            round_id=round_id,
            after_seq=after_seq,
            after_stream_seq=after_stream_seq,
            limit=limit,
        )
    )


def iter_events(
    tx: Tx,
    *,
    stream_id: str | None = None,
    round_id: str | None = None,
    after_seq: int | None = None,
    after_stream_seq: int | None = None,
    limit: int | None = None,
    page: int = 5000,
) -> Iterator[StoredEvent]:
    """Like `read`, but pages through the log so a long history is not held in memory."""
    if after_stream_seq is not None and stream_id is None:
        raise StorageError("event_log.invalid_query", "after_stream_seq needs a stream_id")
    order = _T.c.stream_seq if stream_id is not None else _T.c.seq
    cursor = after_stream_seq if stream_id is not None else after_seq
    if stream_id is not None and after_seq is not None:
        query_extra = [_T.c.seq > after_seq]
    else:
        query_extra = []
    remaining = limit
    while remaining is None or remaining > 0:
        q = select(_T).order_by(order)
        if stream_id is not None:
            q = q.where(_T.c.stream_id == stream_id)
        if round_id is not None:
            q = q.where(_T.c.round_id == round_id)
        if cursor is not None:
            q = q.where(order > cursor)
        for cond in query_extra:
            q = q.where(cond)
        size = page if remaining is None else min(page, remaining)
        rows = tx.conn.execute(q.limit(size)).all()
        for row in rows:
            event = _stored(row)
            yield event
        if len(rows) < size:
            return
        cursor = int(rows[-1]._mapping[order.name])
        if remaining is not None:
            remaining -= len(rows)


def streams(tx: Tx) -> list[str]:
    """Every stream id that has events, sorted."""
    return [r[0] for r in tx.conn.execute(select(_T.c.stream_id).distinct().order_by(_T.c.stream_id))]


def count(tx: Tx) -> int:
    return int(tx.conn.execute(select(func.count()).select_from(_T)).scalar_one())
