"""Transfers: one movement between several accounts (seats, a pool, the rake), all or none."""

from __future__ import annotations

import pytest

from studio import ledger
from studio.ledger import LedgerError
from studio.ledger_transfers import (
    RAKE_ACCOUNT,
    Transfer,
    pool_account,
    seat_account,
    transfer,
    transfer_many,
    transfers_for_round,
)
from studio.storage import Store
from studio.storage.audit import verify_ledger

SEAT_A, SEAT_B, POOL = seat_account("t1", "a"), seat_account("t1", "b"), pool_account("t1")


def _books_ok(store: Store) -> None:
    with store.reader() as tx:
        problems, _, _ = verify_ledger(tx)
        assert problems == []
        assert ledger.total_balance(tx) == 0


def test_a_hand_between_seats_pool_and_rake(store: Store) -> None:
    with store.transaction() as tx:
        ledger.credit(tx, "c-a", "a", 10_000)
        ledger.credit(tx, "c-b", "b", 10_000)
        transfer(tx, "buy-a", {"player:a": -5_000, SEAT_A: 5_000})
        transfer(tx, "buy-b", {"player:b": -5_000, SEAT_B: 5_000})
        transfer(tx, "bank", {SEAT_A: -2_000, POOL: 2_000}, round_id="r1")
        # b wins 1,000 from the piatto and pays 100 of rake, in one movement
        t = transfer(tx, "hand", {POOL: -1_000, SEAT_B: 900, RAKE_ACCOUNT: 100}, round_id="r1")
        assert t.balances == {POOL: 1_000, SEAT_B: 5_900, RAKE_ACCOUNT: 100}
    _books_ok(store)
    with store.reader() as tx:
        assert ledger.account_balance(tx, POOL) == 1_000
        assert ledger.balance(tx, "a").available == 5_000
        got = transfers_for_round(tx, "r1")
    assert got["hand"] == Transfer.of("hand", {POOL: -1_000, SEAT_B: 900, RAKE_ACCOUNT: 100},
                                      "r1").content()


def test_refused_whole_and_repeat_answered_alike(store: Store) -> None:
    with store.transaction() as tx:
        ledger.credit(tx, "c-a", "a", 1_000)
        transfer(tx, "buy", {"player:a": -600, SEAT_A: 600})
    with pytest.raises(LedgerError) as e, store.transaction() as tx:
        transfer_many(tx, [Transfer.of("ok", {SEAT_A: -100, POOL: 100}),
                           Transfer.of("too-much", {"player:a": -500, SEAT_A: 500})])
    assert e.value.code == "ledger.insufficient_funds"
    with store.transaction() as tx:
        again = transfer(tx, "buy", {"player:a": -600, SEAT_A: 600})
        assert again.duplicate
        with pytest.raises(LedgerError) as conflict:
            transfer(tx, "buy", {"player:a": -700, SEAT_A: 700})
        assert conflict.value.code == "ledger.movement_conflict"
    with store.reader() as tx:
        assert ledger.account_balance(tx, POOL) == 0
        assert ledger.account_balance(tx, SEAT_A) == 600
    _books_ok(store)


@pytest.mark.parametrize("legs,code", [
    ({SEAT_A: 100, POOL: -50}, "ledger.unbalanced"),
    ({SEAT_A: 100}, "ledger.invalid_request"),
    ({"player:a:held": 100, SEAT_A: -100}, "ledger.invalid_account"),
])
def test_bad_transfers_have_stable_codes(store: Store, legs: dict[str, int], code: str) -> None:
    with pytest.raises(LedgerError) as e, store.transaction() as tx:
        transfer(tx, "x", legs)
    assert e.value.code == code
