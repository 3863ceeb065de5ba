"""The live Blackjack table in Chromium, on the simulated eight-deck serial shoe (real
pseudo-terminals, the real reader): one player takes seat 1, another bets behind it; the burn
card, the deal from the right, the hole card face down on both pages until the players are
done; the seated player doubles and the bet behind follows; both results and balances. The
dealer's console says whose turn it is and which hand the next card goes to."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import BROWSER
from tests.browser.harness import DEALER, StudioHarness
from tests.reveal import shows

pytestmark = BROWSER
T = 10_000
BJ = "bj-live-1"


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path, table=BJ)
    await h.start()
    yield h
    await h.stop()


async def open_page(browser, base_url, studio, player):
    context = await browser.new_context(viewport={"width": 1360, "height": 1100})
    page = await context.new_page()
    await page.goto(f"{base_url}/play?table={BJ}&token={studio.token(player)}&lang=en")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting",
                                                                  timeout=T)
    return page


async def test_a_live_round_with_a_bet_behind_that_follows_the_double(studio, base_url,
                                                                      browser, screenshot):
    from tests.browser.test_staff_browser import sign_in

    studio.credit("annika", 10_000)
    studio.credit("bob", 10_000)
    ann = await open_page(browser, base_url, studio, "annika")
    bob = await open_page(browser, base_url, studio, "bob")
    await ann.get_by_test_id("chip-1000").click()
    await ann.get_by_test_id("seat-1-main").click()            # ann takes seat 1
    await expect(ann.get_by_test_id("seat-1")).to_have_attribute("data-state", "mine",
                                                                 timeout=T)
    await expect(ann.get_by_test_id("balance")).to_have_text("€90.00", timeout=T)
    seat = bob.get_by_test_id("seat-1")
    await expect(seat).to_have_attribute("data-state", "taken", timeout=T)
    await expect(bob.get_by_test_id("seat-1-main")).to_have_count(0)  # taken: behind only
    await bob.get_by_test_id("seat-1-behind").click()          # bob bets 5 behind ann
    await expect(bob.get_by_test_id("my-behind-1")).to_contain_text("€5.00", timeout=T)
    await expect(ann.get_by_test_id("behind-1")).to_contain_text("1 behind · €5.00", timeout=T)
    await expect(bob.get_by_test_id("seat-2")).to_have_attribute("data-state", "free")
    assert "annika" not in await bob.content()                  # who sits is never said

    dealer = await sign_in(browser, f"{base_url}/dealer?table={BJ}", DEALER)
    nxt = dealer.get_by_test_id("next-action")
    await studio.close_betting()
    await expect(ann.get_by_test_id("phase")).to_contain_text("burns a card", timeout=T)
    await expect(nxt).to_have_text("Burn a card", timeout=T)
    await studio.deal("Qd")                                    # the burn: never shown
    await expect(nxt).to_have_text("Deal to position 1", timeout=T)
    await studio.deal("5c", "6s", "6b")                        # seat 1: 5 6; dealer up 6
    await expect(nxt).to_contain_text("hole card", timeout=T)
    await studio.deal("Tc")                                    # the hole card
    await expect(nxt).to_have_text("Seat 1 decides: stay, hit, double", timeout=T)
    for page in (ann, bob):
        await expect(page.get_by_test_id("dealer-cards").locator("[data-face-down]")
                     ).to_have_count(1, timeout=T)
        assert not shows(await page.content(), "Tc")
    await expect(bob.get_by_test_id("decision")).to_be_hidden()  # bob has no say
    await expect(ann.get_by_test_id("decision")).to_be_visible(timeout=T)
    await expect(ann.get_by_test_id("btn-split")).to_have_count(0)  # only what is allowed
    await expect(ann.get_by_test_id("timer-box")).to_be_visible()
    await ann.get_by_test_id("btn-double").click()
    await expect(bob.get_by_test_id("balance")).to_have_text("€90.00", timeout=T)  # followed
    await expect(nxt).to_have_text("Deal to position 1", timeout=T)
    await studio.deal("Td")                                    # seat 1: 21
    await expect(nxt).to_contain_text("Deal to the dealer", timeout=T)
    await studio.deal("8c")                                    # dealer 6 T 8: bust
    await expect(ann.get_by_test_id("result")).to_contain_text("Won", timeout=T)
    await expect(ann.get_by_test_id("result")).to_contain_text("€40.00")
    await expect(bob.get_by_test_id("result")).to_contain_text("€20.00", timeout=T)
    await expect(ann.get_by_test_id("balance")).to_have_text("€120.00", timeout=T)
    await expect(bob.get_by_test_id("balance")).to_have_text("€110.00", timeout=T)
    assert studio.balance("annika") == (12_000, 0) and studio.balance("bob") == (11_000, 0)
    assert not shows(await ann.content() + await bob.content(), "Qd")
    await expect(ann.get_by_test_id("history").locator("li")).to_have_count(1, timeout=T)
    await expect(dealer.locator("#dealer-total")).to_have_text("24", timeout=T)
    await screenshot(ann, "blackjack-live-seated")
    await screenshot(bob, "blackjack-live-behind")
    await screenshot(dealer, "dealer-blackjack-live")
