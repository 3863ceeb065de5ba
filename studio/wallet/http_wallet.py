"""The operator's wallet over HTTP (docs/wallet.md), behind the `Wallet` interface.

The rules it keeps, so that no stake is taken twice and no win is lost:

- every request is first written to ``wallet_tx`` (`records`), then sent; what the wallet
  answers is written back. A crash between the two leaves a ``pending`` row, never a gap;
- a debit whose outcome stays unknown after ``attempts`` tries is rolled back, and only then
  refused (``wallet.unavailable``). The rollback is queued like a credit, so it reaches the
  wallet even if the wallet is down now; and the wallet's tombstone refuses the debit should
  it arrive late;
- credits and rollbacks are retried until the wallet answers: `drain` sends every pending
  one (the queue is the ``pending`` rows of the database, so a new process on the same
  database resumes it) and `run` drains every ``interval`` seconds;
- a debit left ``pending`` by a process that died (older than ``abandon_after`` seconds,
  which must exceed the time a debit's attempts can take) is treated as unknown: rolled back,
  as if it had timed out; should its own process still learn it was applied, it does not
  accept the bet (the debit is written ``ok`` only while it is still ``pending``);
- answers are judged by `client.WalletClient`: a bad signature is an unknown outcome.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from datetime import timedelta

from studio.storage.engine import Store, Tx, format_ts
from studio.wallet import records
from studio.wallet.client import Outcome, WalletClient, with_retries
from studio.wallet.port import (
    CreditRequest,
    DebitRequest,
    Receipt,
    RollbackRequest,
    WalletError,
)

log = logging.getLogger(__name__)
UNREACHABLE = ("wallet.timeout", "wallet.connection_failed")


def rollback_id(debit_id: str) -> str:
    """The id of the rollback the studio sends for ``debit_id`` itself (at most 200 chars)."""
    rid = f"rollback:{debit_id}"
    return rid if len(rid) <= 200 else "rollback:" + hashlib.sha256(debit_id.encode()).hexdigest()


class HttpWallet:
    """`Wallet` on an operator's HTTP wallet, with its queue in ``store``'s database."""

    def __init__(self, store: Store, client: WalletClient, *, attempts: int = 3,
                 retry_delay: float = 0.0, abandon_after: float = 60.0) -> None:
        self.store = store
        self.client = client
        self.attempts = attempts
        self.retry_delay = retry_delay
        self.abandon_after = abandon_after
        self._inflight: set[str] = set()
        records.ensure_schema(store)

    async def close(self) -> None:
        await self.client.close()

    async def balance(self, player_id: str) -> int:
        outcome, _ = await with_retries(self.client, "balance", {"player_id": player_id},
                                        attempts=self.attempts, retry_delay=self.retry_delay)
        if outcome.kind == "refused":
            raise WalletError(outcome.code, outcome.answer.get("message", outcome.code))
        if outcome.kind == "unknown" or type(outcome.answer.get("balance")) is not int:
            raise WalletError("wallet.unavailable", f"no answer from the wallet ({outcome.code})")
        return outcome.answer["balance"]

    async def debit(self, request: DebitRequest) -> Receipt:
        request.check()
        tid = request.transaction_id
        with self.store.transaction() as tx:
            tombstone = records.rollback_of(tx, tid)
            if tombstone is not None:
                raise WalletError("wallet.transaction_rolled_back",
                                  f"debit {tid!r} was rolled back by {tombstone.id!r}", tid)
            row, _ = records.start(tx, request)
        if row.state != "pending":
            return records.answer(row)
        self._inflight.add(tid)
        try:
            outcome, calls = await self._call(request.kind, request.body())
            if outcome.kind != "unknown":
                return self._settle(request.kind, tid, outcome, calls)
            with self.store.transaction() as tx:
                if not records.mark(tx, tid, "unknown", code=outcome.code, attempts=calls,
                                    only_if="pending"):
                    # A concurrent repeat of this debit settled it (or gave it up) meanwhile.
                    return records.answer(_row(tx, tid))
        finally:
            self._inflight.discard(tid)
        log.warning("debit %s: no answer (%s); rolling it back", tid, outcome.code)
        undo = await self._undo(request)
        raise WalletError("wallet.unavailable",
                          f"the wallet did not answer the debit ({outcome.code}); it was "
                          + ("rolled back" if undo.state == "ok" else "queued for rollback"),
                          tid)

    async def credit(self, request: CreditRequest) -> Receipt:
        return await self._queued(request)

    async def rollback(self, request: RollbackRequest) -> Receipt:
        return await self._queued(request)

    # --- the queue --------------------------------------------------------------------------

    async def drain(self) -> int:
        """Send every pending credit and rollback once (and roll back abandoned debits);
        the number of transactions settled.

        One call per transaction per pass, least tried first, so one transaction the wallet
        chokes on does not hold up the others; a pass stops at the first timeout or refused
        connection (the wallet is down: the next pass tries again)."""
        settled = 0
        with self.store.transaction() as tx:
            queue = records.pending(tx)
            horizon = format_ts(tx.now() - timedelta(seconds=self.abandon_after))
        for row in queue:
            if row.id in self._inflight:
                continue
            if row.kind == "debit":
                if row.created_at <= horizon:
                    with self.store.transaction() as tx:
                        given_up = records.mark(tx, row.id, "unknown", code="wallet.abandoned",
                                                only_if="pending")
                    if given_up:
                        settled += (await self._undo_row(row)).state == "ok"
                continue
            try:
                receipt = await self._deliver(row.kind, row.id, records.body(row), attempts=1)
            except WalletError:
                settled += 1  # refused: settled, for a person to look at (reconcile lists it)
                continue
            settled += receipt.state == "ok"
            if receipt.state == "pending" and receipt.why in UNREACHABLE:
                break
        return settled

    async def run(self, interval: float) -> None:
        """Drain forever, every ``interval`` seconds (cancel the task to stop)."""
        while True:
            try:
                await self.drain()
            except Exception:  # the queue must outlive one bad pass
                log.exception("wallet queue: drain failed")
            await asyncio.sleep(interval)

    # --- internals --------------------------------------------------------------------------

    async def _call(self, kind: str, body: dict, attempts: int | None = None
                    ) -> tuple[Outcome, int]:
        return await with_retries(self.client, kind, body, attempts=attempts or self.attempts,
                                  retry_delay=self.retry_delay)

    async def _queued(self, request: CreditRequest | RollbackRequest) -> Receipt:
        request.check()
        with self.store.transaction() as tx:
            row, _ = records.start(tx, request)
        if row.state != "pending":
            return records.answer(row)
        return await self._deliver(request.kind, request.transaction_id, request.body())

    async def _deliver(self, kind: str, tid: str, body: dict, attempts: int | None = None
                       ) -> Receipt:
        self._inflight.add(tid)
        try:
            outcome, calls = await self._call(kind, body, attempts)
            if outcome.kind == "unknown":
                with self.store.transaction() as tx:
                    records.mark(tx, tid, "pending", code=outcome.code, attempts=calls)
                return Receipt(tid, "pending", why=outcome.code)
            return self._settle(kind, tid, outcome, calls)
        finally:
            self._inflight.discard(tid)

    def _settle(self, kind: str, tid: str, outcome: Outcome, calls: int) -> Receipt:
        """Write down a known outcome; a refusal raises `WalletError` after it is written."""
        answer = outcome.answer
        with self.store.transaction() as tx:
            if outcome.kind == "refused":
                records.mark(tx, tid, "refused", code=outcome.code, attempts=calls)
            else:
                refunded = answer.get("refunded") if kind == "rollback" else None
                # A debit another process gave up on (and is rolling back) stays given up.
                if not records.mark(tx, tid, "ok", balance_after=answer.get("balance"),
                                    amount=refunded, attempts=calls,
                                    only_if="pending" if kind == "debit" else None):
                    records.answer(_row(tx, tid))  # ok by a concurrent repeat is fine
                row = _row(tx, tid)
                if kind == "rollback" and row.ref is not None:
                    records.mark(tx, row.ref, "rolled_back")  # no row: nothing is marked
        if outcome.kind == "refused":
            raise WalletError(outcome.code, answer.get("message", outcome.code), tid)
        return Receipt(tid, "ok", answer.get("balance"))

    async def _undo(self, debit: DebitRequest) -> Receipt:
        request = RollbackRequest(
            transaction_id=rollback_id(debit.transaction_id), player_id=debit.player_id,
            round_id=debit.round_id, table_id=debit.table_id, game=debit.game,
            debit_transaction_id=debit.transaction_id)
        try:
            return await self._queued(request)
        except WalletError as e:  # refused: recorded; reconcile will show it
            log.error("rollback of %s refused: %s", debit.transaction_id, e)
            return Receipt(request.transaction_id, "pending")

    async def _undo_row(self, row: records.Row) -> Receipt:
        return await self._undo(DebitRequest(**records.body(row)))



def _row(tx: Tx, transaction_id: str) -> records.Row:
    row = records.get(tx, transaction_id)
    assert row is not None, transaction_id  # rows are never deleted
    return row
