"""The one interface the studio moves a player's money through, whoever keeps the money.

A seamless wallet keeps players' money at the operator; the studio asks it to take a stake
(`debit`), pay a win or a refund (`credit`) and undo a stake (`rollback`). Each request carries
the studio's transaction id, which makes a repeat harmless: the same id with the same content
gets the first answer; with other content it is refused (``wallet.duplicate_mismatch``).

Two implementations: `studio.wallet.embedded.EmbeddedWallet` (the studio's own ledger is the
wallet: the demo) and `studio.wallet.http_wallet.HttpWallet` (the operator's wallet over
HTTP, docs/wallet.md). Their promises to the caller are the same:

- `debit` answers ``ok`` or raises `WalletError`; never "maybe": when the wallet's answer is
  unknown the debit is rolled back and refused (``wallet.unavailable``);
- `credit` and `rollback` answer ``ok`` or ``pending``: a pending one is queued durably and
  retried until the wallet answers (a win is owed to the player, it is never dropped);
- `balance` is the wallet's current available balance.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal, Protocol

MAX_AMOUNT = 10**15  # cents, as the ledger's bound
MAX_ID = 200

Kind = Literal["debit", "credit", "rollback"]
State = Literal["ok", "pending"]


class WalletError(Exception):
    """A refusal. ``code`` is stable (docs/wallet.md, "Error codes"); nothing was applied."""

    def __init__(self, code: str, message: str, transaction_id: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.transaction_id = transaction_id


@dataclass(frozen=True, kw_only=True)
class _Request:
    transaction_id: str
    player_id: str
    round_id: str
    table_id: str
    game: str

    kind: ClassVar[Kind] = "debit"  # each request says its own

    def body(self) -> dict[str, Any]:
        """The request as the protocol sends it (and as a repeat must say it again)."""
        return asdict(self)

    def check(self) -> None:
        """Refuse what no wallet should see (``wallet.invalid_request``/``invalid_amount``)."""
        for name, value in self.body().items():
            if name == "amount":
                if type(value) is not int or not 0 < value <= MAX_AMOUNT:
                    raise WalletError("wallet.invalid_amount",
                                      f"amount must be integer cents, 1 to {MAX_AMOUNT}: "
                                      f"{value!r}", self.transaction_id)
            elif not isinstance(value, str) or not 0 < len(value) <= MAX_ID:
                raise WalletError("wallet.invalid_request",
                                  f"{name} must be a string of 1-{MAX_ID} characters",
                                  str(self.transaction_id))


@dataclass(frozen=True, kw_only=True)
class DebitRequest(_Request):
    """Take a stake from the player's wallet."""

    amount: int
    kind: ClassVar[Kind] = "debit"


@dataclass(frozen=True, kw_only=True)
class CreditRequest(_Request):
    """Pay the player: a win (stake plus winnings) or a refund of a void round."""

    amount: int
    reason: Literal["win", "refund"] = "win"
    kind: ClassVar[Kind] = "credit"

    def check(self) -> None:
        super().check()
        if self.reason not in ("win", "refund"):
            raise WalletError("wallet.invalid_request", "reason must be win or refund",
                              self.transaction_id)


@dataclass(frozen=True, kw_only=True)
class RollbackRequest(_Request):
    """Undo a debit (one the wallet may never have received)."""

    debit_transaction_id: str
    kind: ClassVar[Kind] = "rollback"


WalletRequest = DebitRequest | CreditRequest | RollbackRequest


@dataclass(frozen=True)
class Receipt:
    """The wallet's answer: ``ok`` with the balance after, or ``pending`` (queued)."""

    transaction_id: str
    state: State
    balance: int | None = None
    why: str | None = None  # pending: why the wallet's answer is not known yet


class Wallet(Protocol):
    async def balance(self, player_id: str) -> int:
        """The player's available balance in cents (``wallet.unknown_player``...)."""

    async def debit(self, request: DebitRequest) -> Receipt:
        """Take a stake: ``ok``, or `WalletError` (insufficient funds, unavailable...)."""

    async def credit(self, request: CreditRequest) -> Receipt:
        """Pay a win or a refund: ``ok``, or ``pending`` until the wallet answers."""

    async def rollback(self, request: RollbackRequest) -> Receipt:
        """Undo a debit: ``ok``, or ``pending`` until the wallet answers."""
