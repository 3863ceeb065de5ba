"""The simulated operator's books: player accounts (integer cents) and every transaction id it
has answered, in memory. Pure rules, no I/O: `studio.wallet.operator_sim` serves them over
HTTP (docs/wallet.md is the contract both follow).

A transaction id is answered once: the answer (status and bytes) is kept, and a repeat of the
id with the same body gets those very bytes; with another body, ``wallet.duplicate_mismatch``.
A rollback of a debit the books never saw records a tombstone: the debit, should it arrive
late, is refused (``wallet.transaction_rolled_back``), so a stake the studio gave up on can
never be taken afterwards.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from studio.storage.engine import format_ts, utc_now
from studio.wallet import wire
from studio.wallet.wire import BalanceBody, CreditBody, DebitBody, RollbackBody

Answer = tuple[int, bytes]


@dataclass
class Entry:
    """One transaction the operator answered."""

    transaction_id: str
    kind: str
    player_id: str
    amount: int  # debit/credit: the amount; rollback: what it refunded (0 for a tombstone)
    request: bytes  # canonical body, to tell a repeat from a mismatch
    status: str  # ok | rolled_back (a debit undone) | refused
    at: str
    answer: Answer = (0, b"")
    details: dict[str, Any] = field(default_factory=dict)

    def report(self) -> dict[str, Any]:
        return {"transaction_id": self.transaction_id, "kind": self.kind,
                "player_id": self.player_id, "amount": self.amount, "status": self.status,
                "at": self.at, **self.details}


class OperatorBook:
    """Accounts and transactions of one operator."""

    def __init__(self, accounts: dict[str, int] | None = None,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.accounts: dict[str, int] = dict(accounts or {})
        self.entries: dict[str, Entry] = {}
        self.tombstones: dict[str, str] = {}  # debit id -> the rollback that came first
        self.clock = clock
        self._ids = itertools.count(1)

    # --- the protocol's endpoints -----------------------------------------------------------

    def balance(self, body: BalanceBody) -> Answer:
        if body.player_id not in self.accounts:
            return refusal("wallet.unknown_player", f"no player {body.player_id!r}")
        return _answer(wire.ok(player_id=body.player_id,
                               balance=self.accounts[body.player_id]))

    def apply(self, kind: str, body: DebitBody | CreditBody | RollbackBody) -> Answer:
        """Debit, credit or rollback: the first answer to this id, or a new one."""
        raw = wire.encode(body.model_dump())
        first = self.entries.get(body.transaction_id)
        if first is not None:
            if first.kind != kind or first.request != raw:
                return refusal("wallet.duplicate_mismatch",
                                f"transaction {body.transaction_id!r} was answered for "
                                "another request", transaction_id=body.transaction_id)
            return first.answer
        details = body.model_dump(exclude={"transaction_id", "player_id", "amount"})
        entry = Entry(body.transaction_id, kind, body.player_id,
                      getattr(body, "amount", 0), raw, "refused", format_ts(self.clock()),
                      details=details)
        entry.answer = self._decide(entry, body)
        self.entries[entry.transaction_id] = entry
        return entry.answer

    def report(self, start: str, end: str) -> list[dict[str, Any]]:
        """Every transaction that moved money, or left a tombstone, in [start, end)."""
        return [e.report() for e in self.entries.values()
                if e.status != "refused" and start <= e.at < end]

    # --- rules ------------------------------------------------------------------------------

    def _decide(self, entry: Entry, body: Any) -> Answer:
        pid, tid = entry.player_id, entry.transaction_id
        if pid not in self.accounts:
            return refusal("wallet.unknown_player", f"no player {pid!r}", transaction_id=tid)
        if entry.kind == "debit":
            if tid in self.tombstones:
                return refusal("wallet.transaction_rolled_back",
                                f"debit {tid!r} was rolled back by "
                                f"{self.tombstones[tid]!r} before it arrived",
                                transaction_id=tid)
            if self.accounts[pid] < entry.amount:
                return refusal("wallet.insufficient_funds", "the balance is too low",
                                transaction_id=tid, balance=self.accounts[pid])
            self.accounts[pid] -= entry.amount
        elif entry.kind == "credit":
            self.accounts[pid] += entry.amount
        else:
            target = self.entries.get(body.debit_transaction_id)
            if target is not None and (target.kind != "debit" or target.player_id != pid):
                return refusal("wallet.not_rollbackable",
                                f"{body.debit_transaction_id!r} is not a debit of {pid!r}",
                                transaction_id=tid)
            refunded = 0
            if target is None:
                self.tombstones[body.debit_transaction_id] = tid
            elif target.status == "ok":
                refunded = target.amount
                target.status = "rolled_back"
                self.accounts[pid] += refunded
            entry.amount = refunded
        entry.status = "ok"
        extra = {"refunded": entry.amount} if entry.kind == "rollback" else {}
        return _answer(wire.ok(transaction_id=tid, balance=self.accounts[pid],
                               operator_transaction_id=f"op-{next(self._ids)}", **extra))


def _answer(body: dict[str, Any], status: int = 200) -> Answer:
    return status, wire.encode(body)


def refusal(code: str, message: str, **fields: Any) -> Answer:
    return _answer(wire.error(code, message, **fields), wire.status_of(code))
