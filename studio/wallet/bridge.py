"""Between the tables and the operators' wallets: a launched player's money lives in the
operator's wallet, and the studio's ledger mirrors every movement of it.

The tables reserve and settle bets on the studio's ledger, as always. For a player whose
operator has a wallet of its own ("<operator>.<player>", `studio.wallet.http_wallet`):

- **stake** (before a bet, a Ripunta, a deal goes to the table): the stake is debited from
  the wallet (the transaction id is the command's idempotency key: a repeat is harmless), then
  the same amount is credited to the player's account in the studio's ledger (movement
  `wallet:<transaction id>`), where the table reserves it as ever. A debit the wallet refuses
  or does not answer refuses the bet (`wallet.*`), with nothing moved.
- **a bet the table refuses**: the debit is rolled back; the ledger's mirror of it leaves
  in the same database transaction that records the rollback for the queue.
- **pay out** (after every round end): whatever such a player holds available in the studio
  (wins, refunds, a stake the table refused) goes back to the wallet as a credit; the ledger
  debit and the queued credit are written in ONE database transaction, so a crash can lose
  neither; the credit is retried until the wallet answers (`HttpWallet.run`).
- a decision that may add money (a double, a split, insurance: `Game.choices_adding_money`)
  is funded first with what the player has on that position, and what it did not use is paid
  back after it.
- after a crash, `recover` mirrors in any debit the wallet took whose mirror was not written,
  and pays out what players hold.

A player with no operator wallet (the embedded demo, rehearsal tokens) is untouched: the
studio's ledger is their wallet. Per player, stake and pay-out run one at a time (a lock), so
a pay-out never takes the money a bet is about to reserve.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

from studio import ledger
from studio.ledger import LedgerError
from studio.storage.engine import Store
from studio.wallet import records
from studio.wallet.port import (
    CreditRequest,
    DebitRequest,
    RollbackRequest,
    Wallet,
    WalletError,
)

log = logging.getLogger(__name__)
ROUND_ENDS = frozenset({"round_closed", "round_voided"})
PAY_AT_ONCE = 32  # pay-outs in flight to the wallets at once


def mirror_id(transaction_id: str) -> str:
    return f"wallet:{transaction_id}"


class WalletBridge:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.wallets: dict[str, Wallet] = {}  # operator id -> its wallet
        self.cached: dict[str, int] = {}  # player -> the wallet's balance as last told
        self._locks: dict[str, asyncio.Lock] = {}
        self._players: set[str] = set()  # wallet players who staked since the start
        self._hubs: set[int] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.on_change: Callable[[str], None] = lambda player: None  # tell the player's pages
        records.ensure_schema(store)

    def add(self, operator: str, wallet: Wallet) -> None:
        self.wallets[operator] = wallet

    def wallet_of(self, player: str) -> Wallet | None:
        operator, dot, _ = player.partition(".")
        return self.wallets.get(operator) if dot else None

    def operator_player(self, player: str) -> str:
        """The operator's own id for the player (the studio's is "<operator>.<id>")."""
        return player.partition(".")[2]

    def lock(self, player: str) -> asyncio.Lock:
        return self._locks.setdefault(player, asyncio.Lock())

    # -- the wallet's balance, as the pages show it --------------------------------------

    async def refresh(self, player: str) -> int | None:
        wallet = self.wallet_of(player)
        if wallet is None:
            return None
        try:
            self.cached[player] = await wallet.balance(self.operator_player(player))
        except WalletError as e:
            log.warning("wallet balance of %s: %s", player, e.code)
        return self.cached.get(player)

    def outside(self, player: str) -> int:
        """Cents the player has at the operator's wallet (0 for a studio-ledger player)."""
        return self.cached.get(player, 0) if self.wallet_of(player) is not None else 0

    # -- stakes -------------------------------------------------------------------------

    async def stake(self, player: str, amount: int, key: str, table_id: str, round_id: str,
                    game: str) -> str | None:
        """Debit `amount` from the player's wallet and mirror it into the studio; the debit's
        transaction id (None: not a wallet player, or nothing to take). WalletError if the
        wallet refuses."""
        wallet = self.wallet_of(player)
        if wallet is None or amount <= 0:
            return None
        tid = f"bet:{player}:{key}"
        receipt = await wallet.debit(DebitRequest(
            transaction_id=tid, player_id=self.operator_player(player), round_id=round_id,
            table_id=table_id, game=game, amount=amount))
        self._players.add(player)
        if receipt.balance is not None:
            self.cached[player] = receipt.balance
        self._mirror_in(player, tid, amount)
        return tid

    def _mirror_in(self, player: str, tid: str, amount: int) -> None:
        with self.store.transaction() as tx:
            if ledger.movement(tx, mirror_id(tid)) is None:
                ledger.credit(tx, mirror_id(tid), player, amount)

    async def unstake(self, player: str, tid: str, amount: int, table_id: str, round_id: str,
                      game: str) -> None:
        """The table refused the bet this debit funded: give the money back to the wallet."""
        wallet = self.wallet_of(player)
        if wallet is None:
            return
        request = RollbackRequest(
            transaction_id=f"rollback:{tid}", player_id=self.operator_player(player),
            round_id=round_id, table_id=table_id, game=game, debit_transaction_id=tid)
        with self.store.transaction() as tx:
            _row, new = records.start(tx, request)
            if new:
                ledger.debit(tx, mirror_id(request.transaction_id), player, amount)
        await self._send(wallet.rollback(request), player)

    async def funded(self, player: str, amount: int, key: str, table_id: str, round_id: str,
                     game: str, run: Callable[[], Any], *, give_back: bool = False
                     ) -> dict[str, Any]:
        """`run()` (a command at a table) with `amount` taken from the player's wallet first:
        back to the wallet if the table refuses; `give_back`: what the command did not use
        goes back after it (a decision funded for what it might add)."""
        wallet = self.wallet_of(player)
        if wallet is None or amount <= 0:
            return await run()
        async with self.lock(player):
            try:
                tid = await self.stake(player, amount, key, table_id, round_id, game)
            except WalletError as e:
                return {"ok": False, "error": {"code": e.code, "message": e.message}}
            answer = await run()
            if not answer.get("ok"):
                await self.unstake(player, tid, amount, table_id, round_id, game)
            elif give_back:
                await self._pay_out(wallet, player, table_id, round_id, game, "win")
            return answer

    # -- pay-outs -----------------------------------------------------------------------

    async def pay_out(self, player: str, table_id: str = "", round_id: str = "",
                      game: str = "", reason: str = "win") -> int:
        """Whatever the player holds available in the studio, back to the wallet; the cents
        paid (queued if the wallet does not answer now)."""
        wallet = self.wallet_of(player)
        if wallet is None:
            return 0
        async with self.lock(player):
            return await self._pay_out(wallet, player, table_id, round_id, game, reason)

    async def _pay_out(self, wallet: Wallet, player: str, table_id: str, round_id: str,
                       game: str, reason: str) -> int:
        with self.store.transaction() as tx:
            amount = ledger.balance(tx, player).available
            if amount <= 0:
                return 0
            request = CreditRequest(
                transaction_id=f"pay:{player}:{uuid.uuid4().hex}",
                player_id=self.operator_player(player), round_id=round_id or "-",
                table_id=table_id or "-", game=game or "-", amount=amount,
                reason="refund" if reason == "refund" else "win")
            records.start(tx, request)  # the queue's record and the mirror: one transaction
            ledger.debit(tx, mirror_id(request.transaction_id), player, amount)
        await self._send(wallet.credit(request), player)
        return amount

    async def _send(self, call: Any, player: str) -> None:
        try:
            receipt = await call
        except WalletError as e:  # recorded as refused: reconcile lists it for a person
            log.error("wallet refused a payment to %s: %s", player, e.code)
            return
        if receipt.balance is not None:
            self.cached[player] = receipt.balance
        self.on_change(player)

    # -- the tables ---------------------------------------------------------------------

    def watch(self, hub: Any) -> None:
        """After every round end, pay out what wallet players hold (one subscription per
        hub: tables may share one)."""
        if id(hub) in self._hubs:
            return
        self._hubs.add(id(hub))
        hub.subscribe(self._on_event)

    def _on_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if audience != "public" or event.get("type") not in ROUND_ENDS or not self._players:
            return
        reason = "refund" if event["type"] == "round_voided" else "win"
        task = asyncio.get_running_loop().create_task(
            self._pay_everyone(table_id, event.get("round_id") or "", reason))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _pay_everyone(self, table_id: str, round_id: str, reason: str) -> None:
        """Every wallet player's pay-out, `PAY_AT_ONCE` calls to the wallets at a time (a
        round of thousands of winners would otherwise wait on each answer in turn)."""
        gate = asyncio.Semaphore(PAY_AT_ONCE)

        async def one(player: str) -> None:
            async with gate:
                try:
                    await self.pay_out(player, table_id, round_id, "", reason)
                except (LedgerError, WalletError):
                    log.exception("pay-out to %s failed", player)
        await asyncio.gather(*(one(p) for p in list(self._players)))

    async def settled(self) -> None:
        """Until every pay-out under way is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def recover(self) -> None:
        """After a crash: a debit the wallet took whose mirror was not written is mirrored
        in; then every wallet player's available money is paid out."""
        with self.store.reader() as tx:  # (a debit still pending is HttpWallet's to undo)
            done = records.debits_ok(tx)
        for r in done:
            if self.wallet_of(_studio_player(r)) is not None:
                self._mirror_in(_studio_player(r), r.id, int(r.amount))
                self._players.add(_studio_player(r))
        for player in list(self._players):
            await self.pay_out(player, reason="win")


def _studio_player(row: Any) -> str:
    """A bet's debit id is "bet:<studio player>:<key>": the studio's id of its player."""
    return row.id.split(":", 2)[1] if row.id.startswith("bet:") else ""
