"""The tables through an operator's wallet: a launched player's stake is debited from the
simulated operator (a real aiohttp service) and mirrored into the studio's ledger, the win or
the refund paid back into it; a wallet that does not answer, refuses, or loses an answer
costs the player nothing and pays nothing twice, and `studio wallet reconcile` finds the two
books alike."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from studio.config import OperatorConfig
from studio.wallet.client import WalletClient
from studio.wallet.http_wallet import HttpWallet
from studio.wallet.operator_sim import Fault, OperatorSim
from studio.wallet.reconcile import reconcile
from tests.browser.harness import DEALER, StudioHarness
from tests.test_web_api import Player

SECRET = b"casino-one-shared-secret-0123456789"
ANN = "casino-one.ann"


@pytest.fixture
async def studio(tmp_path, request):
    h = StudioHarness(tmp_path, table=getattr(request, "param", "sem-live-1"))
    await h.start()
    yield h
    await h.stop()


@pytest.fixture
async def casino(studio):
    def when() -> datetime:
        return datetime.fromtimestamp(studio.clock.now(), UTC)

    sim = OperatorSim(SECRET, accounts={"ann": 50_000}, now=studio.clock.now, clock=when)
    url = await sim.start()
    op = OperatorConfig(id="casino-one", name="Casino One", secret_env="-", wallet_url=url)
    studio.studio.add_operator(op, SECRET)
    client = WalletClient(url, SECRET, timeout=0.3, now=studio.clock.now)
    wallet = HttpWallet(studio.store, client)
    studio.studio.wallets.add("casino-one", wallet)
    sim.wallet, sim.client, sim.when = wallet, client, when
    yield sim
    await wallet.close()
    await sim.stop()


@pytest.fixture
async def ann(studio, casino, aiohttp_client):
    client = await aiohttp_client(studio.app)
    p = Player(client, studio, ANN)
    await p.join()
    return p


async def clean_books(studio, casino) -> None:
    """Nothing left in the studio for a wallet player, nothing pending, reconcile agrees."""
    await studio.studio.wallets.settled()
    assert studio.balance(ANN) == (0, 0)
    now = casino.when()
    diffs = await reconcile(studio.store, casino.client, now - timedelta(hours=1),
                            now + timedelta(seconds=1), now=casino.when)
    assert diffs == []


async def sem_win(studio, ann: Player) -> None:
    """ann's 10.00 on position 1 wins: ann 7 against the dealer's 6."""
    await studio.close_betting()
    await studio.deal("7b", "5c", "4d")
    assert (await ann.decide(1, "carta"))[1]["ok"]
    await studio.deal("2s")
    assert (await ann.decide(1, "stai"))[1]["ok"]
    await studio.deal("2c")


async def test_a_bet_from_the_wallet_and_its_win_paid_back(studio, casino, ann):
    status, answer = await ann.bet(1, 1_000)
    assert status == 200 and answer["ok"], answer
    assert answer["balance"]["reserved"] == 1_000
    assert casino.book.accounts["ann"] == 49_000
    await sem_win(studio, ann)
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 51_000
    await clean_books(studio, casino)
    status, answer = await ann.get("balance")
    assert answer["balance"] == {"available": 51_000, "reserved": 0}


async def test_a_wallet_that_does_not_answer_refuses_the_bet_and_takes_nothing(
        studio, casino, ann):
    casino.faults.append(Fault("debit", "drop", times=3))     # every attempt lost
    _status, answer = await ann.bet(1, 1_000)
    assert answer["error"]["code"] == "wallet.unavailable", answer
    assert studio.actor.book.staked == 0 and studio.balance(ANN) == (0, 0)
    assert casino.book.accounts["ann"] == 50_000
    await clean_books(studio, casino)


async def test_a_refused_debit_refuses_the_bet(studio, casino, ann):
    _status, answer = await ann.bet(1, 60_000)                 # more than the wallet holds
    assert answer["error"]["code"] == "wallet.insufficient_funds", answer
    assert studio.actor.book.staked == 0 and casino.book.accounts["ann"] == 50_000


async def test_a_bet_the_table_refuses_goes_back_to_the_wallet(studio, casino, ann):
    assert (await ann.bet(1, 6_000))[1]["ok"]
    _status, answer = await ann.bet(9, 1_000)                   # no position 9: the table says no
    assert answer["error"]["code"] == "bet.unknown_position", answer
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 50_000 - 6_000       # the refused stake came back
    assert studio.balance(ANN) == (0, 6_000)


async def test_a_win_the_wallet_fails_to_hear_is_queued_and_paid_once(studio, casino, ann):
    assert (await ann.bet(1, 1_000))[1]["ok"]
    casino.faults.append(Fault("credit", "error_after_apply", times=1))  # paid, answer lost
    casino.faults.append(Fault("credit", "error", times=10))            # then down
    await sem_win(studio, ann)
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 51_000               # the first attempt was applied
    casino.faults.clear()
    await casino.wallet.drain()                                # the queue asks again
    assert casino.book.accounts["ann"] == 51_000               # and is told: already paid
    await clean_books(studio, casino)


async def test_a_void_round_refunds_into_the_wallet(studio, casino, ann, aiohttp_client):
    assert (await ann.bet(1, 1_000))[1]["ok"]
    await studio.close_betting()
    answer = await studio.actor.dealer(DEALER[0], "void", uuid.uuid4().hex, reason="test")
    assert answer["ok"], answer
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 50_000
    await clean_books(studio, casino)


async def test_recovery_mirrors_a_debit_whose_mirror_was_lost_and_pays_it_back(
        studio, casino, ann):
    from studio.wallet.port import DebitRequest

    # the wallet took a stake, and the process died before the studio wrote its mirror
    await casino.wallet.debit(DebitRequest(
        transaction_id=f"bet:{ANN}:lost-mirror-key", player_id="ann", round_id="r0",
        table_id="sem-live-1", game="sette-e-mezzo-live", amount=700))
    assert casino.book.accounts["ann"] == 49_300 and studio.balance(ANN) == (0, 0)
    await studio.studio.wallets.recover()
    assert casino.book.accounts["ann"] == 50_000               # mirrored in, then paid back
    await clean_books(studio, casino)


@pytest.mark.parametrize("studio", ["bj-live-1"], indirect=True)
async def test_a_blackjack_double_is_funded_from_the_wallet_a_stand_takes_nothing(
        studio, casino, ann):
    assert (await ann.bet(1, 1_000))[1]["ok"]
    await studio.close_betting()
    await studio.deal("Qd", "5c", "6s", "6b", "Tc")            # burn; seat 1: 11, dealer 6 T
    _, answer = await ann.decide(1, "double")
    assert answer["ok"], answer
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 48_000               # the double taken as well
    assert studio.balance(ANN) == (0, 2_000)
    await studio.deal("Td", "8c")                              # 21; the dealer busts
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 52_000
    await clean_books(studio, casino)
