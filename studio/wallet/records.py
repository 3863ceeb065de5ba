"""``wallet_tx``: the studio's record of every wallet transaction, and the retry queue.

One row per transaction id the studio sent (or the embedded wallet applied): what was asked
(the exact request body, so a retry repeats it byte for byte), and what the studio knows of
its fate. This is the studio's mirror of the player's money at the operator: `reconcile`
compares it with the operator's report. The rows whose ``state`` is ``pending`` are the queue
of credits and rollbacks still owed to the wallet; being rows of the studio's database (same
engine, same transactions as everything else), the queue survives a restart.

States: ``pending`` (sent or to be sent; outcome not known yet), ``ok`` (the wallet applied
it), ``refused`` (the wallet refused it, ``code`` says why; nothing moved), ``unknown`` (a
debit whose answer never came: its rollback is queued) and ``rolled_back`` (a debit undone
by a rollback the wallet confirmed).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Column, Index, Integer, Text, and_, insert, select, update
from sqlmodel import Field, SQLModel

from studio.storage.engine import Store, Tx
from studio.wallet.port import Receipt, WalletError, WalletRequest
from studio.wallet.wire import encode

STATES = ("pending", "ok", "refused", "unknown", "rolled_back")


class WalletTx(SQLModel, table=True):
    """A wallet transaction as the studio asked it and knows it."""

    __tablename__ = "wallet_tx"
    __table_args__ = (
        Index("ix_wallet_tx_state", "state"),
        Index("ix_wallet_tx_ref", "ref"),
        Index("ix_wallet_tx_created", "created_at"),
    )

    seq: int | None = Field(
        default=None,
        sa_column=Column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                         autoincrement=True),
    )
    id: str = Field(max_length=200, unique=True)
    kind: str = Field(max_length=16)
    player_id: str = Field(max_length=200)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))
    ref: str | None = Field(default=None, max_length=200)  # a rollback's debit
    request: str = Field(sa_column=Column(Text, nullable=False))  # the body, canonical JSON
    state: str = Field(max_length=16)
    code: str | None = Field(default=None, max_length=80)  # refusal or last failure
    attempts: int = Field(default=0)
    balance_after: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    created_at: str = Field(max_length=32)
    updated_at: str = Field(max_length=32)


_T = WalletTx.__table__


@dataclass(frozen=True)
class Row:
    id: str
    kind: str
    player_id: str
    amount: int
    ref: str | None
    request: str
    state: str
    code: str | None
    attempts: int
    balance_after: int | None
    created_at: str


def ensure_schema(store: Store) -> None:
    """Create ``wallet_tx`` on the store's engine if it is missing."""
    _T.create(store.engine, checkfirst=True)


def canonical(body: dict[str, Any]) -> str:
    """The body as sent (`wire.encode`), as text."""
    return encode(body).decode("utf-8")


def body(row: Row) -> dict[str, Any]:
    """The request body recorded for ``row`` (a retry sends exactly this)."""
    return json.loads(row.request)


def _row(r: Any) -> Row:
    return Row(r.id, r.kind, r.player_id, int(r.amount), r.ref, r.request, r.state, r.code,
               int(r.attempts), None if r.balance_after is None else int(r.balance_after),
               r.created_at)


def get(tx: Tx, transaction_id: str) -> Row | None:
    r = tx.conn.execute(select(_T).where(_T.c.id == transaction_id)).first()
    return None if r is None else _row(r)


def rollback_of(tx: Tx, debit_id: str) -> Row | None:
    """The rollback recorded for ``debit_id`` (a tombstone if the debit never came)."""
    r = tx.conn.execute(select(_T).where(and_(_T.c.ref == debit_id,
                                              _T.c.kind == "rollback"))).first()
    return None if r is None else _row(r)


def start(tx: Tx, request: WalletRequest, *, state: str = "pending", amount: int | None = None
          ) -> tuple[Row, bool]:
    """Record ``request`` (``(row, True)``), or find its earlier record (``(row, False)``).

    A repeated id with another body is refused (``wallet.duplicate_mismatch``) before anything
    is sent: the studio never asks the wallet two different things under one id."""
    body = canonical(request.body())
    first = get(tx, request.transaction_id)
    if first is not None:
        if first.request != body:
            raise WalletError("wallet.duplicate_mismatch",
                              f"transaction {request.transaction_id!r} was sent with other "
                              "content", request.transaction_id)
        return first, False
    now = tx.now_ts()
    value = amount if amount is not None else getattr(request, "amount", 0)
    tx.conn.execute(insert(_T).values(
        id=request.transaction_id, kind=request.kind, player_id=request.player_id,
        amount=value, ref=getattr(request, "debit_transaction_id", None), request=body,
        state=state, code=None, attempts=0, balance_after=None, created_at=now,
        updated_at=now))
    row = get(tx, request.transaction_id)
    assert row is not None
    return row, True


def mark(tx: Tx, transaction_id: str, state: str, *, code: str | None = None,
         balance_after: int | None = None, amount: int | None = None,
         attempts: int = 0, only_if: str | None = None) -> bool:
    """Record what the studio now knows of a transaction (and the attempts it took).

    ``only_if``: change the row only while it is in that state (another process may have
    settled it meanwhile); whether the row was changed."""
    assert state in STATES, state
    values: dict[str, Any] = {"state": state, "code": code, "updated_at": tx.now_ts(),
                              "attempts": _T.c.attempts + attempts}
    if balance_after is not None:
        values["balance_after"] = balance_after
    if amount is not None:
        values["amount"] = amount
    where = _T.c.id == transaction_id
    if only_if is not None:
        where = and_(where, _T.c.state == only_if)
    return tx.conn.execute(update(_T).where(where).values(**values)).rowcount == 1


def pending(tx: Tx, kinds: Sequence[str] = ("credit", "rollback", "debit")) -> list[Row]:
    """The queue: transactions whose outcome is still to be learnt, least tried first, then
    oldest first (one the wallet keeps failing on goes to the back)."""
    rows = tx.conn.execute(select(_T).where(and_(_T.c.state == "pending",
                                                 _T.c.kind.in_(list(kinds))))
                           .order_by(_T.c.attempts, _T.c.seq))
    return [_row(r) for r in rows]


def debits_ok(tx: Tx) -> list[Row]:
    """The debits the wallet took (a recovery checks each has its mirror)."""
    rows = tx.conn.execute(select(_T).where(and_(_T.c.kind == "debit", _T.c.state == "ok")))
    return [_row(r) for r in rows]


def between(tx: Tx, start_ts: str, end_ts: str) -> list[Row]:
    """Transactions the studio recorded in [start, end) (ISO-8601 UTC text)."""
    rows = tx.conn.execute(select(_T).where(and_(_T.c.created_at >= start_ts,
                                                 _T.c.created_at < end_ts)).order_by(_T.c.seq))
    return [_row(r) for r in rows]


def by_ids(tx: Tx, ids: Sequence[str]) -> dict[str, Row]:
    if not ids:
        return {}
    rows = tx.conn.execute(select(_T).where(_T.c.id.in_(list(ids))))
    return {r.id: _row(r) for r in rows}


def answer(row: Row) -> Receipt:
    """The answer to a repeat of a transaction already settled: its receipt, or its refusal
    again (``wallet.unavailable`` for a debit whose outcome was never learnt)."""
    if row.state == "ok":
        return Receipt(row.id, "ok", row.balance_after)
    if row.state == "refused":
        raise WalletError(row.code or "wallet.refused", "refused by the wallet earlier", row.id)
    raise WalletError("wallet.unavailable", f"the transaction is {row.state}", row.id)
