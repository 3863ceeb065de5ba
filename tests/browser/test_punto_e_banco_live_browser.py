"""The live Punto e Banco table in Chromium: an eight-deck shoe on the simulated serial shoe
(real pseudo-terminals, the real reader), bets in the betting window, the burn card, the cards
as the dealer deals them, the result with Banco's commission, the balance, the scoreboards of
the shoe; then the cut card: the hand completes, the players see the shoe changed and the
shuffle, and the new shoe starts with empty scoreboards."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.browser.conftest import BROWSER
from tests.browser.harness import StudioHarness
from tests.reveal import shows

pytestmark = BROWSER
T = 10_000
PB = "pb-live-1"


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path, table=PB)
    await h.start()
    yield h
    await h.stop()


async def test_a_live_round_then_the_cut_card_and_a_new_shoe(studio, base_url, browser,
                                                             screenshot):
    studio.credit("ann", 10_000)
    page = await (await browser.new_context(viewport={"width": 1360, "height": 1000})).new_page()
    await page.goto(f"{base_url}/play?table={PB}&token={studio.token('ann')}&lang=en")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting",
                                                                  timeout=T)
    await expect(page.get_by_test_id("spot-punto_pair")).to_contain_text("11:1")  # the table's
    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("spot-banco").click()
    await page.get_by_test_id("chip-500").click()
    await page.get_by_test_id("spot-pari").click()
    await expect(page.get_by_test_id("spot-banco")).to_contain_text("€10.00", timeout=T)
    await expect(page.get_by_test_id("balance")).to_have_text("€85.00", timeout=T)
    await studio.close_betting()
    await expect(page.get_by_test_id("phase")).to_contain_text("burns a card", timeout=T)
    # the burn, then Punto 2c 3d = 5 and Banco 3s 2b = 5; Punto draws 5c (0), Banco draws 2d (7)
    await studio.deal("Ks")
    await studio.deal("2c", "3s", "3d")
    await expect(page.get_by_test_id("phase")).to_contain_text("Next card to Banco", timeout=T)
    await studio.deal("2b", "5c", "2d")
    result = page.get_by_test_id("result")
    await expect(result).to_have_attribute("data-outcome", "banco", timeout=T)
    await expect(result).to_contain_text("€19.50", timeout=T)        # 10 back + 9.50
    await expect(result).to_contain_text("commission €0.50")
    await expect(page.get_by_test_id("punto-cards").locator("[data-card]")).to_have_count(3)
    assert not shows(await page.content(), "Ks")                         # the burn never shows
    await expect(page.get_by_test_id("balance")).to_have_text("€104.50", timeout=T)
    assert studio.balance("ann") == (10_450, 0)
    await expect(page.get_by_test_id("bead-plate").locator(".mark")).to_have_count(1, timeout=T)
    await expect(page.get_by_test_id("big-road").locator(".mark.B")).to_have_count(1)
    await expect(page.get_by_test_id("shoe-stats")).to_contain_text("Hands 1")
    await screenshot(page, "punto-e-banco-live")

    # the next hand: the cut card comes out with its first card
    await studio.advance(studio.cfg.timers.pause_between_rounds_s)
    await expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting",
                                                                  timeout=T)
    await page.get_by_test_id("btn-repeat").click()                # Ripunta: banco and pari
    await expect(page.get_by_test_id("balance")).to_have_text("€89.50", timeout=T)
    await studio.close_betting()
    studio.devices.shoe.cut_at = len(studio.devices.shoe.remaining) - 1
    await studio.deal("4c")
    await studio._handled(lambda: studio.actor.shoe_change_due)
    await expect(page.get_by_test_id("shoe-note")).to_have_attribute("data-state", "last_hand",
                                                                      timeout=T)
    await studio.deal("3b", "4d", "2s")                              # Punto 8 natural
    await expect(result).to_have_attribute("data-outcome", "punto", timeout=T)
    await expect(page.get_by_test_id("shoe-note")).to_have_attribute("data-state", "shuffling",
                                                                      timeout=T)
    await expect(page.get_by_test_id("shoe-stats")).to_contain_text("Hands 2")
    await studio.advance(60)                                         # no hand without a shoe
    await expect(page.get_by_test_id("phase")).not_to_have_attribute("data-phase", "betting")
    await studio.new_deck()                                          # the new shoe is in
    await expect(page.get_by_test_id("shoe-note")).to_be_hidden(timeout=T)
    await expect(page.get_by_test_id("shoe-stats")).to_contain_text("Hands 0", timeout=T)
    await studio.advance(studio.cfg.timers.pause_between_rounds_s)
    await expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting",
                                                                  timeout=T)
    assert studio.balance("ann") == (10_450 - 1500, 0)


async def test_the_dealer_is_told_each_place_and_the_technician_places_the_cut_card(
        studio, base_url, browser, screenshot):
    from tests.browser.harness import DEALER, TECHNICIAN
    from tests.browser.test_staff_browser import sign_in

    studio.credit("ann", 10_000)
    await studio.actor.place_bets("ann", [{"kind": "punto", "amount": 1000}], "k1")
    dealer = await sign_in(browser, f"{base_url}/dealer?table={PB}", DEALER)
    nxt = dealer.get_by_test_id("next-action")
    await expect(nxt).to_contain_text("Betting is open", timeout=T)
    await studio.close_betting()
    await expect(nxt).to_have_text("Burn a card", timeout=T)
    await studio.deal("9d")
    await expect(nxt).to_have_text("Deal to Punto", timeout=T)
    await studio.deal("2c", "3s", "3d", "2b")          # Punto 5, Banco 5: both may draw
    await expect(nxt).to_have_text("Deal to Punto (third card)", timeout=T)
    await expect(dealer.get_by_test_id("hand-punto")).to_contain_text("5")
    await studio.deal("5c")
    await expect(nxt).to_have_text("Deal to Banco (third card)", timeout=T)
    assert await dealer.locator("[data-card='9d']").count() == 0   # the burn stays face down
    await screenshot(dealer, "dealer-punto-e-banco-live")

    tech = await sign_in(browser, f"{base_url}/technician?table={PB}", TECHNICIAN)
    info = tech.get_by_test_id("shoe-info")
    await expect(info).to_contain_text("(8 decks)", timeout=T)
    await expect(info).to_contain_text("cut card 70 from the end")
    await tech.get_by_test_id("cut-at").fill("409")   # 410 left: after the next card
    await tech.get_by_test_id("set-cut").click()
    await expect(info).to_contain_text("cut card 409 from the end", timeout=T)
    await tech.get_by_test_id("deal-next").click()      # Banco's third card: the cut card too
    await studio._handled(lambda: studio.actor.state.finished and studio.actor.shoe_change_due)
    await expect(nxt).to_contain_text("Change the shoe", timeout=T)
