"""The HTTP wallet against the simulated operator, a real program over real HTTP: the failure
matrix. Each case asserts what the player's money did at the operator (taken once or not at
all, paid once), what the studio recorded, and that reconcile finds nothing to report."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from studio.storage import Store
from studio.storage.engine import utc_now
from studio.tasks import cancel
from studio.wallet import records
from studio.wallet.client import WalletClient
from studio.wallet.http_wallet import HttpWallet, rollback_id
from studio.wallet.port import CreditRequest, DebitRequest, RollbackRequest, WalletError
from studio.wallet.reconcile import reconcile
from tests.wallet_harness import SECRET, Operator, running_operator

TIMEOUT = 0.5  # the client's; a fault that must outlast it waits HOLD
HOLD = 0.9
ATTEMPTS = 3
START = 10_000


@pytest.fixture
def operator() -> Iterator[Operator]:
    with running_operator(f"alice={START}", "bob=500") as op:
        yield op


@pytest.fixture
def real_clock_store(store: Store) -> Store:
    """The operator stamps its report with the wall clock: so must the studio, to compare."""
    store.clock = utc_now
    return store


def make_wallet(store: Store, url: str, **kw: object) -> HttpWallet:
    client = WalletClient(url, SECRET, timeout=TIMEOUT)
    return HttpWallet(store, client, attempts=ATTEMPTS, **kw)  # type: ignore[arg-type]


@pytest.fixture
async def wallet(real_clock_store: Store, operator: Operator) -> AsyncIterator[HttpWallet]:
    w = make_wallet(real_clock_store, operator.url)
    yield w
    await w.close()


def bet(tid: str, amount: int = 1_000, player: str = "alice") -> DebitRequest:
    return DebitRequest(transaction_id=tid, player_id=player, amount=amount, round_id="R1",
                        table_id="T1", game="sette_e_mezzo")


def win(tid: str, amount: int = 2_000, player: str = "alice") -> CreditRequest:
    return CreditRequest(transaction_id=tid, player_id=player, amount=amount, round_id="R1",
                         table_id="T1", game="sette_e_mezzo")


def state_of(store: Store, tid: str) -> str:
    with store.reader() as tx:
        row = records.get(tx, tid)
    assert row is not None, tid
    return row.state


async def assert_reconciled(store: Store, wallet: HttpWallet) -> None:
    now = datetime.now(UTC)
    diffs = await reconcile(store, wallet.client, now - timedelta(hours=1),
                            now + timedelta(hours=1))
    assert diffs == []


async def test_happy_path_debit_credit_and_repeats(wallet: HttpWallet, operator: Operator,
                                                   real_clock_store: Store) -> None:
    got = await wallet.debit(bet("d1"))
    assert (got.state, got.balance) == ("ok", START - 1_000)
    assert (await wallet.debit(bet("d1"))) == got  # a repeat: the first answer, nothing sent
    paid = await wallet.credit(win("c1"))
    assert (paid.state, paid.balance) == ("ok", START + 1_000)
    assert await wallet.balance("alice") == START + 1_000
    assert operator.balances()["alice"] == START + 1_000
    assert operator.state()["requests"] == {"debit": 1, "credit": 1, "balance": 1}
    with pytest.raises(WalletError) as e:
        await wallet.debit(bet("d1", amount=999))  # same id, other content: never sent
    assert e.value.code == "wallet.duplicate_mismatch"
    await assert_reconciled(real_clock_store, wallet)


async def test_refusals_are_final(wallet: HttpWallet, operator: Operator,
                                  real_clock_store: Store) -> None:
    with pytest.raises(WalletError) as e:
        await wallet.debit(bet("d-big", amount=START + 1))
    assert e.value.code == "wallet.insufficient_funds"
    with pytest.raises(WalletError) as e:
        await wallet.debit(bet("d-ghost", player="ghost"))
    assert e.value.code == "wallet.unknown_player"
    with pytest.raises(WalletError) as e:
        await wallet.balance("ghost")
    assert e.value.code == "wallet.unknown_player"
    with pytest.raises(WalletError) as e:  # the repeat is refused the same way, not resent
        await wallet.debit(bet("d-big", amount=START + 1))
    assert e.value.code == "wallet.insufficient_funds"
    assert operator.state()["requests"]["debit"] == 2
    assert state_of(real_clock_store, "d-big") == "refused"
    assert operator.balances()["alice"] == START
    await assert_reconciled(real_clock_store, wallet)


async def test_every_call_is_reported_to_the_observer(operator: Operator,
                                                     real_clock_store: Store) -> None:
    calls: list[tuple[str, float, str | None]] = []
    client = WalletClient(operator.url, SECRET, timeout=TIMEOUT,
                          observe=lambda *call: calls.append(call))
    wallet = HttpWallet(real_clock_store, client, attempts=2)
    try:
        operator.faults({"endpoint": "debit", "mode": "error"})
        await wallet.debit(bet("d1"))
        with pytest.raises(WalletError):
            await wallet.debit(bet("d2", amount=START))  # refused: an answer, not a failure
    finally:
        await wallet.close()
    assert [(op, why) for op, _, why in calls] == [
        ("debit", "server.failure"), ("debit", None), ("debit", None)]
    assert all(0 < seconds < TIMEOUT for _, seconds, _ in calls)


async def test_slow_wallet_within_the_timeout(wallet: HttpWallet, operator: Operator,
                                              real_clock_store: Store) -> None:
    operator.faults({"endpoint": "debit", "mode": "slow", "delay": TIMEOUT / 3})
    assert (await wallet.debit(bet("d1"))).state == "ok"
    assert operator.state()["requests"]["debit"] == 1
    assert operator.balances()["alice"] == START - 1_000
    await assert_reconciled(real_clock_store, wallet)


@pytest.mark.parametrize("mode", ["drop", "drop_after_apply", "error", "error_after_apply",
                                  "slow"])
@pytest.mark.parametrize("kind", ["debit", "credit"])
async def test_one_lost_answer_is_retried_and_applied_once(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store, mode: str,
        kind: str) -> None:
    """A timeout (applied or not), a 5xx (applied or not), a too slow answer: the retry with
    the same id settles it; the stake is taken, the win paid, exactly once."""
    operator.faults({"endpoint": kind, "mode": mode, "delay": HOLD})
    got = await (wallet.debit(bet("t1")) if kind == "debit" else wallet.credit(win("t1")))
    expected = START - 1_000 if kind == "debit" else START + 2_000
    assert (got.state, got.balance) == ("ok", expected)
    assert operator.state()["requests"][kind] == 2
    assert operator.balances()["alice"] == expected
    assert state_of(real_clock_store, "t1") == "ok"
    await asyncio.sleep(HOLD if mode == "slow" else 0)  # the slow first one lands: a repeat
    assert operator.balances()["alice"] == expected
    await assert_reconciled(real_clock_store, wallet)


@pytest.mark.parametrize("mode", ["drop", "drop_after_apply", "error_after_apply", "error",
                                  "bad_signature"])
async def test_debit_never_answered_is_rolled_back_before_the_bet_is_refused(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store, mode: str) -> None:
    """Every attempt lost (applied or not), or answered with a forged signature: the debit is
    rolled back, then refused; the player has every cent, whatever the wallet did."""
    delay = 0 if mode == "bad_signature" else HOLD  # a forged answer comes at once
    operator.faults({"endpoint": "debit", "mode": mode, "times": ATTEMPTS, "delay": delay})
    with pytest.raises(WalletError) as e:
        await wallet.debit(bet("d1"))
    assert e.value.code == "wallet.unavailable" and "rolled back" in e.value.message
    assert operator.state()["requests"] == {"debit": ATTEMPTS, "rollback": 1}
    assert operator.balances()["alice"] == START
    assert state_of(real_clock_store, "d1") == "rolled_back"
    assert state_of(real_clock_store, rollback_id("d1")) == "ok"
    refunded = {e["transaction_id"]: e for e in operator.report()}[rollback_id("d1")]["amount"]
    applied = mode.endswith("apply") or mode == "bad_signature"
    assert refunded == (1_000 if applied else 0)  # else a tombstone
    with pytest.raises(WalletError) as again:  # the studio will not send it again either
        await wallet.debit(bet("d1"))
    assert again.value.code == "wallet.transaction_rolled_back"
    await asyncio.sleep(HOLD)  # the held requests end (answers nobody reads)
    await assert_reconciled(real_clock_store, wallet)


async def test_rollback_reaches_the_wallet_before_its_debit(
        real_clock_store: Store, operator: Operator) -> None:
    """Out of order: the debit is held in the wallet past the client's patience; the studio's
    rollback arrives first and leaves a tombstone; the debit, applied late, is refused."""
    wallet = make_wallet(real_clock_store, operator.url)
    wallet.attempts = 1
    try:
        operator.faults({"endpoint": "debit", "mode": "late", "delay": HOLD})
        with pytest.raises(WalletError) as e:
            await wallet.debit(bet("d1"))
        assert e.value.code == "wallet.unavailable"
        await asyncio.sleep(HOLD + 0.2)  # the held debit is applied now, after the rollback
        assert operator.balances()["alice"] == START
        report = {e["transaction_id"]: e for e in operator.report()}
        assert "d1" not in report  # refused by the tombstone
        assert report[rollback_id("d1")]["amount"] == 0
        reply = operator.post("/wallet/debit", bet("d1").body())
        assert (reply.status, reply.code) == (409, "wallet.transaction_rolled_back")
        await assert_reconciled(real_clock_store, wallet)
    finally:
        await wallet.close()


async def test_late_first_attempt_after_a_successful_retry_is_a_repeat(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store) -> None:
    operator.faults({"endpoint": "debit", "mode": "late", "delay": HOLD})
    assert (await wallet.debit(bet("d1"))).state == "ok"  # the second attempt
    await asyncio.sleep(HOLD + 0.2)  # the first one lands now: a repeat, answered the same
    assert operator.balances()["alice"] == START - 1_000
    await assert_reconciled(real_clock_store, wallet)


async def test_duplicate_delivery_answers_identically(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store) -> None:
    operator.faults({"endpoint": "debit", "mode": "twice"},
                    {"endpoint": "credit", "mode": "twice"})
    assert (await wallet.debit(bet("d1"))).balance == START - 1_000
    assert (await wallet.credit(win("c1"))).balance == START + 1_000
    assert operator.state()["twice_identical"] == [True, True]
    first = operator.post("/wallet/credit", win("c1").body())
    second = operator.post("/wallet/credit", win("c1").body())
    assert first.status == second.status == 200 and first.raw == second.raw
    assert operator.balances()["alice"] == START + 1_000
    await assert_reconciled(real_clock_store, wallet)


async def test_credit_is_queued_until_the_wallet_answers(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store) -> None:
    operator.faults({"endpoint": "credit", "mode": "error_after_apply", "times": ATTEMPTS},
                    {"endpoint": "credit", "mode": "error", "times": ATTEMPTS})
    assert (await wallet.credit(win("c1"))).state == "pending"
    assert operator.balances()["alice"] == START + 2_000  # applied, but nobody knows yet
    # One call per pass: the wallet fails three more times, then answers.
    assert [await wallet.drain() for _ in range(4)] == [0, 0, 0, 1]
    assert state_of(real_clock_store, "c1") == "ok"
    assert operator.balances()["alice"] == START + 2_000  # paid once
    assert await wallet.drain() == 0
    await assert_reconciled(real_clock_store, wallet)


def reopened(store: Store, url: str) -> Store:
    """A new Store on the same database, as a restarted process would open it."""
    if store.engine.dialect.name == "sqlite":
        return Store.open(url, clock=utc_now, background_checkpoint=False)
    return Store(store.engine, clock=utc_now)


async def test_credit_queue_survives_a_restart(real_clock_store: Store, operator: Operator,
                                               sqlite_url: str) -> None:
    first = make_wallet(real_clock_store, operator.url)
    operator.faults({"endpoint": "credit", "mode": "error", "times": ATTEMPTS},
                    {"endpoint": "rollback", "mode": "error", "times": ATTEMPTS})
    assert (await first.credit(win("c1", 700))).state == "pending"
    assert (await first.rollback(RollbackRequest(
        transaction_id="rb-x", player_id="alice", round_id="R1", table_id="T1",
        game="sette_e_mezzo", debit_transaction_id="never-sent"))).state == "pending"
    await first.close()  # the process ends with two transactions owed
    assert operator.balances()["alice"] == START

    store = reopened(real_clock_store, sqlite_url)
    second = make_wallet(store, operator.url)
    try:
        assert await second.drain() == 2
        assert operator.balances()["alice"] == START + 700
        assert state_of(store, "c1") == state_of(store, "rb-x") == "ok"
        reply = operator.post("/wallet/debit", bet("never-sent").body())
        assert reply.code == "wallet.transaction_rolled_back"  # the tombstone holds
        await assert_reconciled(store, second)
    finally:
        await second.close()
        if store is not real_clock_store:
            store.dispose()


async def test_debit_abandoned_by_a_dead_process_is_rolled_back(
        real_clock_store: Store, operator: Operator) -> None:
    """The studio died after the wallet applied a debit and before it learnt so."""
    assert operator.post("/wallet/debit", bet("d1").body()).status == 200
    records.ensure_schema(real_clock_store)
    with real_clock_store.transaction() as tx:
        records.start(tx, bet("d1"))  # recorded pending, as before sending
    wallet = make_wallet(real_clock_store, operator.url, abandon_after=0.0)
    try:
        assert await wallet.drain() == 1
        assert operator.balances()["alice"] == START
        assert state_of(real_clock_store, "d1") == "rolled_back"
        await assert_reconciled(real_clock_store, wallet)
    finally:
        await wallet.close()


async def test_reconcile_lists_every_difference(wallet: HttpWallet, operator: Operator,
                                                real_clock_store: Store) -> None:
    await wallet.debit(bet("d1"))
    assert operator.post("/wallet/credit", win("c-unknown").body()).status == 200
    with real_clock_store.transaction() as tx:  # a credit the studio thinks paid, never sent
        records.start(tx, win("c-lost"), state="ok")
    operator.faults({"endpoint": "credit", "mode": "error", "times": ATTEMPTS})
    await wallet.credit(win("c-pending"))
    now = datetime.now(UTC)
    diffs = await reconcile(real_clock_store, wallet.client, now - timedelta(hours=1),
                            now + timedelta(hours=1))
    assert sorted((d.transaction_id, d.code) for d in diffs) == [
        ("c-lost", "reconcile.missing_at_wallet"),
        ("c-pending", "reconcile.pending"),
        ("c-unknown", "reconcile.missing_at_studio"),
    ]


async def test_background_queue_and_concurrent_repeats(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store) -> None:
    operator.faults({"endpoint": "credit", "mode": "error", "times": ATTEMPTS + 2})
    assert (await wallet.credit(win("c1"))).state == "pending"
    task = asyncio.create_task(wallet.run(0.02))
    try:
        for _ in range(250):  # the loop drains until the wallet answers
            if state_of(real_clock_store, "c1") == "ok":
                break
            await asyncio.sleep(0.02)
    finally:
        await cancel(task)
    assert state_of(real_clock_store, "c1") == "ok"
    # One bet sent twice at once (a double click, two retries crossing): taken once.
    a, b = await asyncio.gather(wallet.debit(bet("d9")), wallet.debit(bet("d9")))
    assert a.balance == b.balance == START + 2_000 - 1_000
    assert operator.balances()["alice"] == START + 1_000
    await assert_reconciled(real_clock_store, wallet)


@pytest.mark.parametrize("rollback_delay", [0.0, 0.6])
async def test_a_debit_given_up_by_another_process_is_not_accepted(
        real_clock_store: Store, operator: Operator, rollback_delay: float) -> None:
    """Process B takes A's debit for abandoned (abandon_after too short) and rolls it back
    while A still waits. The wallet sees the rollback first (a tombstone refuses the debit),
    or the debit first (the rollback refunds it while A is told ok): either way A must not
    accept the bet, and the player keeps every cent."""
    slow = WalletClient(operator.url, SECRET, timeout=1.0)
    first_process = HttpWallet(real_clock_store, slow, attempts=1)
    other = make_wallet(real_clock_store, operator.url, abandon_after=0.0)
    other.client.timeout = 1.0
    operator.faults({"endpoint": "debit", "mode": "slow", "delay": 0.5},
                    {"endpoint": "rollback", "mode": "slow", "delay": rollback_delay})
    try:
        async def give_up_soon() -> int:
            await asyncio.sleep(0.1)
            return await other.drain()

        first, drained = await asyncio.gather(first_process.debit(bet("d1")), give_up_soon(),
                                              return_exceptions=True)
        assert drained == 1
        assert isinstance(first, WalletError), first
        assert first.code == ("wallet.transaction_rolled_back" if rollback_delay == 0
                              else "wallet.unavailable")
        assert operator.balances()["alice"] == START
        assert state_of(real_clock_store, "d1") in ("rolled_back", "refused")
        await assert_reconciled(real_clock_store, first_process)
    finally:
        await other.close()
        await first_process.close()


async def test_a_pass_stops_when_the_wallet_is_unreachable(real_clock_store: Store) -> None:
    """Nothing listens: the first call fails to connect and the pass ends there; the next
    pass starts with the transactions tried least."""
    down = HttpWallet(real_clock_store, WalletClient("http://127.0.0.1:9", SECRET, timeout=1),
                      attempts=1)
    try:
        for tid in ("c1", "c2", "c3"):
            assert (await down.credit(win(tid))).state == "pending"  # one call each
        assert await down.drain() == 0
        with real_clock_store.reader() as tx:
            tried = {r.id: r.attempts for r in records.pending(tx)}
            order = [r.id for r in records.pending(tx)]
        assert tried == {"c1": 2, "c2": 1, "c3": 1}
        assert order == ["c2", "c3", "c1"]
    finally:
        await down.close()


async def test_reconcile_a_period_whose_credit_was_paid_later(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store) -> None:
    """Queued two hours ago (the wallet was down), paid now: that period reconciles."""
    real_clock_store.clock = lambda: datetime.now(UTC) - timedelta(hours=2)
    with real_clock_store.transaction() as tx:
        records.start(tx, win("c-old"))
    real_clock_store.clock = utc_now
    assert await wallet.drain() == 1
    now = datetime.now(UTC)
    assert await reconcile(real_clock_store, wallet.client, now - timedelta(hours=3),
                           now - timedelta(hours=1)) == []
    later = await reconcile(real_clock_store, wallet.client, now - timedelta(minutes=30), now)
    assert later == []  # listed by the wallet now, recorded by the studio earlier: fine


async def test_a_wallet_that_never_answers(wallet: HttpWallet, operator: Operator,
                                           real_clock_store: Store) -> None:
    """Applied and never answered (the operator holds the answers until it stops)."""
    operator.faults({"endpoint": "debit", "mode": "drop_after_apply", "times": ATTEMPTS})
    with pytest.raises(WalletError) as e:
        await wallet.debit(bet("d1"))
    assert e.value.code == "wallet.unavailable"
    assert operator.balances()["alice"] == START
    await assert_reconciled(real_clock_store, wallet)
    # The operator still holds three answers: it stops at once all the same (the fixture).


@pytest.mark.parametrize(("seed", "timing"), [(1, False), (2, False), (3, True)])
async def test_random_faults_lose_nothing_and_pay_nothing_twice(
        wallet: HttpWallet, operator: Operator, real_clock_store: Store, seed: int,
        timing: bool) -> None:
    """Bets and wins under random faults (each hitting 0 to 4 calls: up to every attempt
    and beyond). Whatever happened, the operator's balance is the start, less the bets the
    studio accepted, plus every win it owed; and reconcile agrees, once the queue drained."""
    rng = random.Random(seed)
    modes = ["error", "error_after_apply", "twice", "bad_signature", "slow"]
    if timing:  # the faults that cost real time: lost answers, late (reordered) requests
        modes = ["drop", "drop_after_apply", "late", "error"]
    accepted: list[int] = []
    owed: list[int] = []
    for n in range(12 if timing else 24):
        kind = rng.choice(["debit", "credit"])
        times = rng.randint(0, 4)
        operator.faults(*([{"endpoint": kind, "mode": rng.choice(modes), "times": times,
                            "delay": HOLD if timing else 0.01}] if times else []))
        amount = rng.randint(1, 300)
        if kind == "debit":
            try:
                await wallet.debit(bet(f"d{n}", amount))
                accepted.append(amount)
            except WalletError as e:
                assert e.code == "wallet.unavailable"
        else:
            await wallet.credit(win(f"c{n}", amount))
            owed.append(amount)
    operator.faults()
    await asyncio.sleep(HOLD if timing else 0)  # late requests land
    while await wallet.drain():
        pass
    with real_clock_store.reader() as tx:
        assert records.pending(tx) == []
    assert operator.balances()["alice"] == START - sum(accepted) + sum(owed)
    await assert_reconciled(real_clock_store, wallet)
