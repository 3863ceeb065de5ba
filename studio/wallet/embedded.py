"""The studio's own ledger as the wallet: the demo's wallet, and the default.

A debit is a ledger ``debit`` (player -> cash desk), a credit a ledger ``credit``, a rollback
a credit of the debit's amount; the movement id is ``wallet:<transaction id>``, so the
ledger's at-most-once rule is the wallet's. Each transaction is also written to ``wallet_tx``
in the same database transaction, like the HTTP wallet's, so both keep one record and the
same rules: a repeat gets the first answer, a rollback of a debit never seen leaves a
tombstone that refuses the debit later. Every player is known (a new one has 0 cents); a
refusal is recorded too, so its repeat is refused the same way.
"""

from __future__ import annotations

from studio import ledger
from studio.ledger import LedgerError
from studio.storage.engine import Store, Tx
from studio.wallet import records
from studio.wallet.port import (
    CreditRequest,
    DebitRequest,
    Receipt,
    RollbackRequest,
    WalletError,
    WalletRequest,
)

_CODES = {"ledger.insufficient_funds": "wallet.insufficient_funds",
          "ledger.movement_conflict": "wallet.duplicate_mismatch",
          "ledger.invalid_id": "wallet.invalid_request",
          "ledger.invalid_amount": "wallet.invalid_amount"}


def movement_id(transaction_id: str) -> str:
    return f"wallet:{transaction_id}"


class EmbeddedWallet:
    """`Wallet` on the studio's ledger (synchronous inside: one database transaction each)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        records.ensure_schema(store)

    async def balance(self, player_id: str) -> int:
        with self.store.reader() as tx:
            return ledger.balance(tx, player_id).available

    async def debit(self, request: DebitRequest) -> Receipt:
        return self._apply(request)

    async def credit(self, request: CreditRequest) -> Receipt:
        return self._apply(request)

    async def rollback(self, request: RollbackRequest) -> Receipt:
        return self._apply(request)

    def _apply(self, request: WalletRequest) -> Receipt:
        request.check()
        tid = request.transaction_id
        try:
            with self.store.transaction() as tx:
                row, new = records.start(tx, request, state="ok")
                if not new:
                    return records.answer(row)
                balance = self._move(tx, request)
                records.mark(tx, tid, "ok", balance_after=balance)
                return Receipt(tid, "ok", balance)
        except (LedgerError, WalletError) as e:
            code = _CODES.get(e.code, e.code)
            if code != "wallet.duplicate_mismatch":
                with self.store.transaction() as tx:
                    records.start(tx, request, state="refused")
                    records.mark(tx, tid, "refused", code=code)
            raise WalletError(code, e.message, tid) from None

    def _move(self, tx: Tx, request: WalletRequest) -> int:
        """Apply ``request`` to the ledger; the player's balance after."""
        mid = movement_id(request.transaction_id)
        if isinstance(request, DebitRequest):
            tombstone = records.rollback_of(tx, request.transaction_id)
            if tombstone is not None:
                raise WalletError("wallet.transaction_rolled_back",
                                  f"rolled back by {tombstone.id!r} before it arrived")
            return ledger.debit(tx, mid, request.player_id, request.amount).balance_after
        if isinstance(request, CreditRequest):
            return ledger.credit(tx, mid, request.player_id, request.amount).balance_after
        debit = records.get(tx, request.debit_transaction_id)
        if debit is not None and (debit.kind != "debit" or debit.player_id != request.player_id):
            raise WalletError("wallet.not_rollbackable",
                              f"{request.debit_transaction_id!r} is not a debit of "
                              f"{request.player_id!r}")
        if debit is None or debit.state != "ok":  # a tombstone, or nothing taken to give back
            return ledger.balance(tx, request.player_id).available
        records.mark(tx, debit.id, "rolled_back")
        records.mark(tx, request.transaction_id, "ok", amount=debit.amount)
        return ledger.credit(tx, mid, request.player_id, debit.amount).balance_after

