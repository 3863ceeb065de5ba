"""The studio's ledger as the wallet: the same promises as the operator's wallet, on each
database; and `studio wallet reconcile` as a program (exit codes)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from studio import ledger
from studio.storage import Store
from studio.wallet import records
from studio.wallet.embedded import EmbeddedWallet, movement_id
from studio.wallet.port import CreditRequest, DebitRequest, RollbackRequest, WalletError
from tests.wallet_harness import ROOT, SECRET, Operator, running_operator

COMMON = {"round_id": "R1", "table_id": "T1", "game": "punto_e_banco"}


def debit(tid: str, amount: int = 300, player: str = "p1") -> DebitRequest:
    return DebitRequest(transaction_id=tid, player_id=player, amount=amount, **COMMON)


def credit(tid: str, amount: int = 500, player: str = "p1") -> CreditRequest:
    return CreditRequest(transaction_id=tid, player_id=player, amount=amount, **COMMON)


def rollback(tid: str, of: str, player: str = "p1") -> RollbackRequest:
    return RollbackRequest(transaction_id=tid, player_id=player, debit_transaction_id=of,
                           **COMMON)


async def test_embedded_wallet_moves_the_ledger_once(store: Store) -> None:
    wallet = EmbeddedWallet(store)
    assert (await wallet.credit(credit("c1", 1_000))).balance == 1_000
    assert (await wallet.debit(debit("d1"))).balance == 700
    assert (await wallet.debit(debit("d1"))).balance == 700  # repeat: the first answer
    assert await wallet.balance("p1") == 700
    with pytest.raises(WalletError) as e:
        await wallet.debit(debit("d1", amount=301))
    assert e.value.code == "wallet.duplicate_mismatch"
    with pytest.raises(WalletError) as e:
        await wallet.debit(debit("d2", amount=701))
    assert e.value.code == "wallet.insufficient_funds"
    with pytest.raises(WalletError) as e:  # a refusal is final for its id
        await wallet.debit(debit("d2", amount=701))
    assert e.value.code == "wallet.insufficient_funds"
    with pytest.raises(WalletError) as e:
        await wallet.debit(debit("d3", amount=-1))
    assert e.value.code == "wallet.invalid_amount"

    undo = await wallet.rollback(rollback("r1", of="d1"))
    assert undo.balance == 1_000
    assert (await wallet.rollback(rollback("r2", of="d1"))).balance == 1_000  # nothing left
    with pytest.raises(WalletError) as e:
        await wallet.rollback(rollback("r3", of="c1"))
    assert e.value.code == "wallet.not_rollbackable"
    with store.reader() as tx:
        assert ledger.balance(tx, "p1").available == 1_000
        assert ledger.total_balance(tx) == 0  # double entry holds
        assert ledger.movement(tx, movement_id("r1")) is not None
        assert records.get(tx, "d1").state == "rolled_back"  # type: ignore[union-attr]
        assert records.get(tx, "r1").amount == 300  # type: ignore[union-attr]
        assert records.get(tx, "d2").state == "refused"  # type: ignore[union-attr]


async def test_embedded_rollback_first_leaves_a_tombstone(store: Store) -> None:
    wallet = EmbeddedWallet(store)
    await wallet.credit(credit("c1", 1_000))
    assert (await wallet.rollback(rollback("r1", of="late"))).balance == 1_000
    with pytest.raises(WalletError) as e:
        await wallet.debit(debit("late"))
    assert e.value.code == "wallet.transaction_rolled_back"
    assert await wallet.balance("p1") == 1_000


@pytest.fixture
def operator() -> Iterator[Operator]:
    with running_operator("alice=1000") as op:
        yield op


def reconcile_cli(url: str, database: str, *extra: str, command: str = "reconcile"
                  ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "studio.cli", "wallet", command, "--database", database,
         "--operator-url", url, *extra], cwd=ROOT, capture_output=True, text=True, timeout=60,
        check=False,
        env={"STUDIO_WALLET_SECRET": SECRET, "PYTHONPATH": str(ROOT), "PATH": "/usr/bin"})


def test_reconcile_command_exit_codes(operator: Operator, sqlite_url: str) -> None:
    clean = reconcile_cli(operator.url, sqlite_url)
    assert clean.returncode == 0, clean.stderr
    assert clean.stdout.startswith("0 difference(s) from ")
    body = {"transaction_id": "stray", "player_id": "alice", "amount": 100, **COMMON}
    assert operator.post("/wallet/debit", body).status == 200
    found = reconcile_cli(operator.url, sqlite_url)
    assert found.returncode == 1
    assert "[reconcile.missing_at_studio] stray" in found.stdout
    assert "1 difference(s)" in found.stdout
    before = reconcile_cli(operator.url, sqlite_url, "--to", "2001-01-01T00:00:00+00:00")
    assert before.returncode == 0  # not in that period
    down = reconcile_cli("http://127.0.0.1:9", sqlite_url, "--timeout", "1")
    assert down.returncode == 2 and "reconcile.no_report" in down.stderr


def test_drain_command_pays_what_is_owed(operator: Operator, sqlite_url: str) -> None:
    store = Store.open(sqlite_url, background_checkpoint=False)
    try:
        records.ensure_schema(store)
        with store.transaction() as tx:  # a win the previous process could not deliver
            records.start(tx, credit("c1", 250, player="alice"))
    finally:
        store.dispose()
    drained = reconcile_cli(operator.url, sqlite_url, command="drain")
    assert (drained.returncode, drained.stdout.strip()) == (0, "1 settled, 0 still pending")
    assert operator.balances()["alice"] == 1_250
    assert reconcile_cli(operator.url, sqlite_url).returncode == 0
