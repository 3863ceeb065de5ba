"""The ledger: two phases, at most once per movement id, nothing half-applied."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from studio import ledger as L
from studio.storage import Store
from studio.storage.event_log import NewEvent, read
from studio.storage.models import STORAGE_TABLES


def snapshot(store: Store) -> dict[str, object]:
    """Everything the ledger and the log hold: row counts and every balance."""
    with store.reader() as tx:
        counts = {
            t.name: tx.conn.execute(select(func.count()).select_from(t)).scalar_one()
            for t in STORAGE_TABLES
        }
        accounts = dict(tx.conn.execute(text("SELECT id, balance FROM ledger_account")).all())
    return {"counts": counts, "accounts": accounts}


def funded(store: Store, **players: int) -> None:
    with store.transaction() as tx:
        for player, amount in players.items():
            L.credit(tx, f"credit:{player}", player, amount)


def test_credit_comes_from_the_cash_desk(store: Store) -> None:
    funded(store, alice=10_000)
    with store.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(available=10_000, reserved=0)
        assert L.account_balance(tx, L.CASH_ACCOUNT) == -10_000
        assert L.total_balance(tx) == 0


def test_reserve_then_post_a_win(store: Store, store_clock) -> None:
    funded(store, alice=10_000)
    with store.transaction() as tx:
        res = L.reserve(tx, "r1:b1:reserve", "alice", 1_000, round_id="r1")
        assert res.balance_after == 9_000
        assert L.balance(tx, "alice") == L.Balance(9_000, 1_000)
    store_clock.advance(20)
    with store.transaction() as tx:
        won = L.post(tx, "r1:b1:post", "r1:b1:reserve", 2_000)
    assert (won.kind, won.player_id, won.amount, won.payout) == ("post", "alice", 1_000, 2_000)
    assert won.round_id == "r1" and won.balance_after == 11_000
    assert won.created_at == "2026-11-22T20:00:20.000000Z"
    with store.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(11_000, 0)
        assert L.house_balance(tx) == -1_000
        assert L.total_balance(tx) == 0
        legs = [(e.account_id, e.amount) for e in L.entries(tx, "r1:b1:post")]
    assert legs == [("player:alice:held", -1_000), ("house", -1_000), ("player:alice", 2_000)]


@pytest.mark.parametrize(("payout", "house"), [(0, 500), (500, 0), (1_250, -750)])
def test_post_loss_push_and_royal(store: Store, payout: int, house: int) -> None:
    funded(store, bob=500)
    with store.transaction() as tx:
        L.reserve(tx, "b", "bob", 500, round_id="r")
        L.post(tx, "b:post", "b", payout)
        assert L.balance(tx, "bob") == L.Balance(payout, 0)
        assert L.house_balance(tx) == house
        assert L.total_balance(tx) == 0


def test_void_releases_the_reservation(store: Store) -> None:
    funded(store, alice=3_000)
    with store.transaction() as tx:
        L.reserve_many(tx, [L.Reserve(f"r9:{i}", "alice", 1_000, "r9") for i in range(3)])
        assert L.balance(tx, "alice") == L.Balance(0, 3_000)
        assert [m.id for m in L.open_reservations(tx, round_id="r9")] == ["r9:0", "r9:1", "r9:2"]
    with store.transaction() as tx:
        back = L.release_many(tx, [L.Release(f"r9:{i}:void", f"r9:{i}") for i in range(3)])
    assert [m.balance_after for m in back] == [1_000, 2_000, 3_000]
    with store.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(3_000, 0)
        assert L.house_balance(tx) == 0
        assert L.open_reservations(tx) == []
        assert {m.kind for m in L.movements_for_round(tx, "r9")} == {"reserve", "release"}


def test_a_repeated_id_returns_the_first_result_and_changes_nothing(store: Store,
                                                                      store_clock) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        first = L.reserve(tx, "m1", "alice", 400, round_id="r")
        first_post = L.post(tx, "m1:post", "m1", 800)
    before = snapshot(store)
    store_clock.advance(5)
    with store.transaction() as tx:
        assert L.reserve(tx, "m1", "alice", 400, round_id="r") == first
        assert L.post(tx, "m1:post", "m1", 800) == first_post
        assert L.credit(tx, "credit:alice", "alice", 1_000).created_at == first.created_at
        again = L.reserve_many(tx, [L.Reserve("m1", "alice", 400, "r")])[0]
    assert again.ok and again.duplicate and again.movement == first
    assert snapshot(store) == before


def test_a_repeat_is_answered_as_a_repeat_even_when_the_money_is_spent(store: Store) -> None:
    """The first reserve spent the balance: the repeat must not look like a new, refused bet
    (found by the property test once reserves were written optimistically)."""
    funded(store, alice=200)
    with store.transaction() as tx:
        [first] = L.reserve_many(tx, [L.Reserve("all-in", "alice", 200, "r")])
    with store.transaction() as tx:
        [again] = L.reserve_many(tx, [L.Reserve("all-in", "alice", 200, "r")])
    assert again.ok and again.duplicate and again.movement == first.movement


def test_a_repeat_inside_one_batch_is_applied_once(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        out = L.reserve_many(tx, [L.Reserve("x", "alice", 300), L.Reserve("x", "alice", 300)])
        assert [o.duplicate for o in out] == [False, True]
        assert out[0].movement == out[1].movement
        posts = L.post_many(tx, [L.Post("x:p", "x", 0), L.Post("x:p", "x", 0)])
        assert posts[0] == posts[1]
        assert L.balance(tx, "alice") == L.Balance(700, 0)


def test_reusing_an_id_with_other_content_is_refused(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        L.reserve(tx, "m1", "alice", 100, round_id="r")
        L.reserve(tx, "m2", "alice", 100, round_id="r")
        L.post(tx, "m2:post", "m2", 200)
    before = snapshot(store)
    cases = [
        lambda tx: L.reserve(tx, "m1", "alice", 200, round_id="r"),
        lambda tx: L.reserve(tx, "m1", "alice", 100, round_id="other-round"),
        lambda tx: L.release(tx, "m1", "m2"),
        lambda tx: L.post(tx, "m2:post", "m2", 300),
        lambda tx: L.credit(tx, "credit:alice", "alice", 999),
        lambda tx: L.post_many(tx, [L.Post("p", "m1", 1), L.Post("p", "m1", 2)]),
    ]
    for case in cases:
        with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
            case(tx)
        assert err.value.code == "ledger.movement_conflict"
    assert snapshot(store) == before


def test_a_reservation_closes_once(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        L.reserve(tx, "m1", "alice", 100)
        L.post(tx, "m1:post", "m1", 0)
    before = snapshot(store)
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.release(tx, "m1:void", "m1")
    assert err.value.code == "ledger.reservation_closed"
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.release(tx, "nope:void", "nope")
    assert err.value.code == "ledger.unknown_reservation"
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.release(tx, "credit-as-res", "credit:alice")
    assert err.value.code == "ledger.unknown_reservation"
    with store.transaction() as tx:
        L.reserve(tx, "m2", "alice", 100)
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.settle_many(tx, [L.Post("m2:post", "m2", 0), L.Release("m2:void", "m2")])
    assert err.value.code == "ledger.reservation_closed"
    with store.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(800, 100)
    assert snapshot(store)["counts"]["ledger_movement"] == before["counts"]["ledger_movement"] + 1


def test_a_settlement_with_some_repeats_answers_them_and_writes_the_rest(store: Store) -> None:
    """The optimistic write meets the unique index on the repeated id; the same transaction
    goes on (savepoint) and the careful path answers the repeat with its first result."""
    funded(store, alice=1_000)
    with store.transaction() as tx:
        for i in range(3):
            L.reserve(tx, f"s{i}", "alice", 100)
        first = L.post(tx, "s0:post", "s0", 200)
    with store.transaction() as tx:
        L.credit(tx, "in-the-same-tx", "alice", 5)  # written before: must survive the retry
        out = L.settle_many(tx, [L.Post("s0:post", "s0", 200), L.Post("s1:post", "s1", 0),
                                 L.Release("s2:void", "s2")])
    assert out[0] == first and [m.kind for m in out] == ["post", "post", "release"]
    with store.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(1_000 - 300 + 200 + 100 + 5, 0)
        assert L.total_balance(tx) == 0


def test_closes_of_described_reservations_give_what_the_careful_path_gives(
        store: Store) -> None:
    """The same settlement written with `Known` (no reads first) and without: same movements
    (but their ids and time), same balances."""
    funded(store, alice=10_000, bob=10_000)
    results = {}
    for tag, known in (("plain", False), ("known", True)):
        with store.transaction() as tx:
            L.reserve_many(tx, [L.Reserve(f"{tag}{i}", "alice" if i % 2 else "bob", 100 + i,
                                          f"R-{tag}") for i in range(6)])
        reqs = [L.Post(f"{tag}{i}:post", f"{tag}{i}", 50 * i,
                       L.Known("alice" if i % 2 else "bob", 100 + i, f"R-{tag}") if known
                       else None) for i in range(5)]
        reqs.append(L.Release(f"{tag}5:void", f"{tag}5",
                              L.Known("alice", 105, f"R-{tag}") if known else None))
        with store.transaction() as tx:
            out = L.settle_many(tx, reqs)
        results[tag] = [(m.kind, m.player_id, m.amount, m.payout) for m in out]
        with store.transaction() as tx:  # a repeat answers the first results
            assert [m.content() for m in L.settle_many(tx, reqs)] == [m.content() for m in out]
            assert L.total_balance(tx) == 0 and not L.open_reservations(tx)
    assert results["plain"] == results["known"]
    with store.reader() as tx:  # alice (bets 1, 3, 5), each round: -101 -103, +50 +150
        assert L.balance(tx, "alice") == L.Balance(10_000 + 2 * (-101 - 103 + 50 + 150), 0)


@pytest.mark.parametrize("known", [
    L.Known("bob", 100, "R"),      # another player
    L.Known("alice", 99, "R"),     # another amount
    L.Known("alice", 100, "R2"),   # another round
])
def test_a_described_reservation_that_differs_is_refused_and_nothing_moves(
        store: Store, known: L.Known) -> None:
    funded(store, alice=1_000, bob=1_000)
    with store.transaction() as tx:
        L.reserve(tx, "m1", "alice", 100, round_id="R")
        L.reserve(tx, "m2", "alice", 100, round_id="R")
    before = snapshot(store)
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.settle_many(tx, [L.Post("m2:post", "m2", 0, L.Known("alice", 100, "R")),
                           L.Post("m1:post", "m1", 200, known)])
    assert err.value.code == "ledger.reservation_mismatch"
    assert snapshot(store) == before
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.settle_many(tx, [L.Post("x:post", "nope", 0, L.Known("alice", 100, "R"))])
    assert err.value.code == "ledger.unknown_reservation"
    assert snapshot(store) == before


def test_settlement_rows_write_once_and_refuse_what_is_wrong(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        L.reserve_many(tx, [L.Reserve(f"r{i}", "alice", 100, "R") for i in range(3)])
    rows = [("r0:post", "r0", 300, "alice", 100, "R"), ("r1:post", "r1", 0, "alice", 100, "R"),
            ("r2:void", "r2", None, "alice", 100, "R")]
    with store.transaction() as tx:
        L.settle_rows(tx, rows)
    after = snapshot(store)
    with store.reader() as tx:
        assert L.balance(tx, "alice") == L.Balance(1_000 - 300 + 300 + 0 + 100, 0)
        assert [m.kind for m in L.movements_for_round(tx, "R")].count("release") == 1
    with store.transaction() as tx:
        L.settle_rows(tx, rows)  # a repeat: answered, nothing more moves
    assert snapshot(store) == after
    with store.transaction() as tx:
        L.reserve(tx, "r3", "alice", 100, round_id="R")
    before = snapshot(store)
    for bad, code in [(("r3:post", "r3", -1, "alice", 100, "R"), "ledger.invalid_amount"),
                      (("r3:post", "r3", 0, "alice", 99, "R"), "ledger.reservation_mismatch"),
                      (("r3:post", "nope", 0, "alice", 100, "R"), "ledger.unknown_reservation"),
                      (("r3:post", "r0", 0, "alice", 100, "R"), "ledger.reservation_closed")]:
        with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
            L.settle_rows(tx, [bad])
        assert err.value.code == code, bad
    assert snapshot(store) == before


def test_insufficient_funds_leaves_everything_unchanged(store: Store) -> None:
    funded(store, alice=1_000, bob=50)
    with store.transaction() as tx:
        L.reserve(tx, "a1", "alice", 900)
    before = snapshot(store)
    for attempt in (
        lambda tx: L.reserve(tx, "a2", "alice", 101),
        lambda tx: L.reserve(tx, "z1", "zoe", 1),  # never credited
        lambda tx: L.debit(tx, "cashout", "alice", 101),
        lambda tx: L.credit_many(tx, [L.Credit("c2", "bob", 10), L.Debit("d2", "bob", 61)]),
    ):
        with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
            attempt(tx)
        assert err.value.code == "ledger.insufficient_funds"
    assert snapshot(store) == before


def test_a_refused_bet_group_applies_none_of_its_bets(store: Store) -> None:
    funded(store, alice=1_000, bob=1_000)
    requests = [
        L.Reserve("a:main", "alice", 600, "r", group="alice-cmd"),
        L.Reserve("b:main", "bob", 700, "r", group="bob-cmd"),
        L.Reserve("a:pp", "alice", 300, "r", group="alice-cmd"),
        L.Reserve("a:mdp", "alice", 200, "r", group="alice-cmd"),  # 1100 > 1000
        L.Reserve("b:pp", "bob", 300, "r", group="bob-cmd"),
        L.Reserve("a:alone", "alice", 1_000, "r"),
    ]
    with store.transaction() as tx:
        out = L.reserve_many(tx, requests)
        assert [o.ok for o in out] == [False, True, False, False, True, True]
        assert {o.error.code for o in out if o.error} == {"ledger.insufficient_funds"}
        assert out[0].error.movement_id == "a:mdp"  # the first bet the money does not cover
        assert L.balances(tx, ["alice", "bob"]) == {
            "alice": L.Balance(0, 1_000), "bob": L.Balance(0, 1_000)}
        assert L.movement(tx, "a:main") is None


def test_a_failing_settlement_batch_applies_nothing(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        L.reserve_many(tx, [L.Reserve(f"b{i}", "alice", 100, "r") for i in range(3)])
    before = snapshot(store)
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.post_many(tx, [L.Post("b0:p", "b0", 200), L.Post("b1:p", "b1", -1),
                         L.Post("b2:p", "b2", 0)])
    assert err.value.code == "ledger.invalid_amount" and err.value.movement_id == "b1:p"
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.post_many(tx, [L.Post("b0:p", "b0", 200), L.Post("bX:p", "missing", 0)])
    assert err.value.code == "ledger.unknown_reservation"
    assert snapshot(store) == before


@pytest.mark.parametrize("amount", [1.5, 10.0, True, -5, 0, "100", Decimal(1), None, 10**16])
def test_amounts_must_be_positive_int_cents(store: Store, amount: object) -> None:
    funded(store, alice=1_000)
    before = snapshot(store)
    with store.transaction() as tx:
        out = L.reserve_many(tx, [L.Reserve("bad", "alice", amount)])  # type: ignore[arg-type]
    assert out[0].error is not None and out[0].error.code == "ledger.invalid_amount"
    for call in (lambda tx: L.credit(tx, "c", "alice", amount),
                 lambda tx: L.reserve(tx, "r", "alice", amount)):
        with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
            call(tx)
        assert err.value.code == "ledger.invalid_amount"
    assert snapshot(store) == before


def test_payout_may_be_zero_but_not_negative_or_float(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        L.reserve(tx, "r", "alice", 100)
    for payout in (-1, 150.0):
        with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
            L.post(tx, "p", "r", payout)  # type: ignore[arg-type]
        assert err.value.code == "ledger.invalid_amount"


@pytest.mark.parametrize("bad_id", ["", None, 7, "x" * 201])
def test_ids_must_be_short_strings(store: Store, bad_id: object) -> None:
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.credit(tx, bad_id, "alice", 100)  # type: ignore[arg-type]
    assert err.value.code == "ledger.invalid_id"
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.credit(tx, "c", bad_id, 100)  # type: ignore[arg-type]
    assert err.value.code == "ledger.invalid_id"


def test_a_player_id_cannot_contain_a_colon(store: Store) -> None:
    # ':' separates the parts of account ids (player:<id>:held): no player can alias another
    with pytest.raises(L.LedgerError) as err, store.transaction() as tx:
        L.credit(tx, "c", "alice:held", 100)
    assert err.value.code == "ledger.invalid_id"


def test_earlier_bets_have_first_call_on_the_money(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        out = L.reserve_many(tx, [L.Reserve("1", "alice", 600), L.Reserve("2", "alice", 600),
                                  L.Reserve("3", "alice", 400)])
    assert [o.ok for o in out] == [True, False, True]
    assert [o.movement.balance_after for o in out if o.movement] == [400, 0]


def test_events_and_money_commit_together_or_not_at_all(store: Store) -> None:
    funded(store, alice=1_000)
    published: list[int] = []
    before = snapshot(store)
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.append_events([NewEvent("t1", "BetPlaced", {"bet": "b1", "amount": 100}, "r1")])
        L.reserve(tx, "b1", "alice", 100, round_id="r1")
        tx.on_commit(lambda: published.append(1))
        raise RuntimeError("the table crashed before commit")
    assert snapshot(store) == before and published == []
    with store.transaction() as tx:
        tx.append_events([NewEvent("t1", "BetPlaced", {"bet": "b1", "amount": 100}, "r1")])
        L.reserve(tx, "b1", "alice", 100, round_id="r1")
        tx.on_commit(lambda: published.append(2))
        assert published == []
    assert published == [2]
    with store.reader() as tx:
        assert [e.type for e in read(tx, round_id="r1")] == ["BetPlaced"]
        assert L.balance(tx, "alice") == L.Balance(900, 100)


def test_the_database_itself_refuses_a_negative_player_balance(store: Store) -> None:
    funded(store, alice=100)
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(text("UPDATE ledger_account SET balance = -1 WHERE id = 'player:alice'"))
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(text("UPDATE ledger_account SET balance = -1 WHERE id = 'player:alice:held'"))
    with store.engine.begin() as conn:  # the house may owe money
        conn.execute(text("UPDATE ledger_account SET balance = -1 WHERE id = 'cash'"))


def test_the_database_itself_refuses_unbalanced_legs_and_a_second_closer(store: Store) -> None:
    funded(store, alice=1_000)
    with store.transaction() as tx:
        L.reserve(tx, "r1", "alice", 100)
        L.post(tx, "r1:post", "r1", 0)
        seq = tx.conn.execute(text("SELECT seq FROM ledger_movement WHERE id = 'r1'")).scalar()
    insert = ("INSERT INTO ledger_movement (id, kind, player_id, closes, amount, payout, "
              "balance_after, created_at, player_leg, held_leg, house_leg, cash_leg) "
              "VALUES (:id, :kind, 'alice', :closes, 100, NULL, 0, 'x', :p, :h, 0, 0)")
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # legs sum to 1
        conn.execute(text(insert), {"id": "bad", "kind": "credit", "closes": None,
                                    "p": 101, "h": -100})
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # r1 is already closed
        conn.execute(text(insert), {"id": "r1:again", "kind": "release", "closes": seq,
                                    "p": 100, "h": -100})
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # ids are unique
        conn.execute(text(insert), {"id": "r1", "kind": "credit", "closes": None,
                                    "p": 0, "h": 0})
