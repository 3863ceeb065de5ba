"""A player of a casino operator, in Chromium: the simulated operator's site launches the
player (a signed request, a one-time address, an HttpOnly cookie), the studio's lobby, the
live table; the bet is taken from the operator's wallet and the win paid back into it; then
a reality check the operator set stops the next bet until the player acknowledges it."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from studio.commands.hosting import add_operator
from studio.config import OperatorConfig
from studio.wallet.operator_sim import OperatorSim
from tests.browser.conftest import BROWSER

pytestmark = BROWSER
T = 10_000
SECRET = b"casino-one-shared-secret-0123456789"


@pytest.fixture
async def casino(studio, base_url):
    sim = OperatorSim(SECRET, accounts={"ann": 50_000}, now=studio.clock.now)
    sim.launches_into(base_url, "casino-one")
    url = await sim.start()
    op = OperatorConfig(id="casino-one", name="Casino One", secret_env="-", wallet_url=url)
    tasks = add_operator(studio.studio, op, SECRET)
    yield sim
    for task in tasks:
        task.cancel()
    await sim.stop()


async def test_a_launch_from_the_operator_to_a_bet_paid_into_its_wallet(
        studio, base_url, browser, casino, screenshot):
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(f"{casino.url}/casino")
    await page.get_by_test_id("play-ann").click()              # the casino's Play button
    await expect(page).to_have_url(f"{base_url}/lobby?lang=it", timeout=T)
    assert "/launch/" not in page.url and "token" not in page.url
    card = page.get_by_test_id("table-sem-live-1")
    await expect(card).to_contain_text("Sette e Mezzo", timeout=T)
    await expect(page.get_by_test_id("balance")).to_have_text("500,00 €", timeout=T)
    cookies = await page.context.cookies()
    (session,) = [c for c in cookies if c["name"] == "studio_player"]
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    await screenshot(page, "lobby")

    await page.get_by_test_id("play-sem-live-1").click()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("spot-1-main").click()
    await expect(page.get_by_test_id("spot-1-main")).to_contain_text("10,00", timeout=T)
    assert casino.book.accounts["ann"] == 49_000                # taken from the wallet
    assert studio.balance("casino-one.ann") == (0, 1_000)       # mirrored, reserved
    await studio.close_betting()
    await studio.deal("7b", "5c", "4d")                        # the burn, ann 5, dealer 4
    await page.get_by_test_id("btn-carta").click()
    await studio.until(lambda: studio.expecting() == "deal to position 1")
    await studio.deal("2s")                                    # ann 7
    await page.get_by_test_id("btn-stai").click()
    await studio.until(lambda: studio.expecting() == "deal to the dealer")
    await studio.deal("2c")                                    # dealer 6: ann wins
    await studio.studio.wallets.settled()
    assert casino.book.accounts["ann"] == 51_000                # 20.00 back into the wallet
    assert studio.balance("casino-one.ann") == (0, 0)           # nothing left in the studio
    await expect(page.get_by_test_id("balance")).to_have_text("510,00 €", timeout=T)
    await screenshot(page, "operator-player-won")
