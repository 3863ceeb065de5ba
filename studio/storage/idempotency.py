"""The first answer to each command, keyed by (actor, idempotency key).

The table actor answers a player or dealer command, and in the same transaction as the
command's effects calls `remember`; a repeat of the command finds the answer with `recall` and
returns it unchanged, doing nothing else. Batch forms serve a tick of bets in one round trip.

`remember_many` refuses a key that already has an answer. The keys `recall_many` found
unanswered in this transaction are remembered in ``tx.cache``, so the usual "recall, then
remember" costs one lookup per key, not two (the primary key still backs the rule).
Answers are stored as compact JSON, not canonical: nothing hashes them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import select

from studio.storage import bulk
from studio.storage.engine import StorageError, Tx
from studio.storage.models import IdempotencyRecord

_T = IdempotencyRecord.__table__
_ABSENT = "idempotency.absent"  # tx.cache: keys recall_many found without an answer
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _check_key(actor: str, key: str) -> None:
    if not isinstance(actor, str) or not actor or not isinstance(key, str) or not key:
        raise StorageError("idempotency.invalid_key", "actor and key must be non-empty strings")


def _encode(answer: Any) -> str:
    if answer is None:
        raise StorageError("idempotency.invalid_answer", "None cannot be remembered (it means "
                           "'no answer yet' to recall)")
    try:
        return _ENCODER.encode(answer)
    except (TypeError, ValueError) as e:
        raise StorageError("idempotency.invalid_answer", f"answer is not JSON: {e}") from None


def remember(tx: Tx, actor: str, key: str, answer: Any) -> None:
    """Store the first answer to (actor, key). Refused (``idempotency.already_answered``) if an
    answer exists: callers `recall` first."""
    remember_many(tx, [(actor, key, answer)])


def remember_many(tx: Tx, items: Iterable[tuple[str, str, Any]]) -> None:
    """`remember` for many commands at once (one INSERT executemany)."""
    ts = tx.now_ts()
    rows = []
    seen: set[tuple[str, str]] = set()
    for actor, key, answer in items:
        _check_key(actor, key)
        if (actor, key) in seen:
            raise StorageError("idempotency.already_answered", f"{actor}/{key} given twice")
        seen.add((actor, key))
        rows.append((actor, key, _encode(answer), ts))
    if not rows:
        return
    absent: set[tuple[str, str]] = tx.cache.get(_ABSENT, set())
    unknown = [k for k in seen if k not in absent]
    existing = recall_many(tx, unknown) if unknown else {}
    if existing:
        (actor, key), _ = next(iter(existing.items()))
        raise StorageError("idempotency.already_answered", f"{actor}/{key} already has an answer")
    bulk.insert_rows(tx.conn, "idempotency_record", ("actor", "key", "answer", "created_at"), rows)
    absent.difference_update(seen)


def recall(tx: Tx, actor: str, key: str) -> Any | None:
    """The first answer to (actor, key), or None if the command was never answered."""
    _check_key(actor, key)
    absent = tx.cache.get(_ABSENT)
    if absent and (actor, key) in absent:  # looked up in this transaction (recall_many)
        return None
    row = tx.conn.execute(
        select(_T.c.answer).where(_T.c.actor == actor, _T.c.key == key)
    ).first()
    return None if row is None else json.loads(row[0])


def recall_many(tx: Tx, keys: Sequence[tuple[str, str]]) -> Mapping[tuple[str, str], Any]:
    """The answers already given among ``keys`` (absent keys are simply missing)."""
    for actor, key in keys:
        _check_key(actor, key)
    rows = bulk.select_by_pairs(tx.conn, "idempotency_record", ("actor", "key", "answer"),
                                ("actor", "key"), list(keys))
    found = {(actor, key): json.loads(answer) for actor, key, answer in rows}
    tx.cache.setdefault(_ABSENT, set()).update(k for k in keys if k not in found)
    return found
