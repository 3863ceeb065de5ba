"""The dealer console and the technicians' page in Chromium, with players at the table."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.browser.conftest import BROWSER
from tests.browser.harness import DEALER, TECHNICIAN
from tests.browser.test_player_browser import T, open_player, wait_phase

pytestmark = BROWSER


async def sign_in(browser, url: str, who: tuple[str, str]):
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(url)
    await page.get_by_test_id("username").fill(who[0])
    await page.get_by_test_id("password").fill(who[1])
    await page.get_by_test_id("login").click()
    return page


async def test_the_dealer_voids_a_round_and_both_players_are_refunded(
        studio, base_url, browser, screenshot) -> None:
    studio.credit("ann", 100_000)
    studio.credit("bob", 100_000)
    ann = await open_player(browser, base_url, studio, "ann")
    bob = await open_player(browser, base_url, studio, "bob")
    for page, spot in ((ann, "spot-1-main"), (bob, "spot-3-main")):
        await page.get_by_test_id("chip-2500").click()
        await page.get_by_test_id(spot).click()
        await expect(page.get_by_test_id(spot)).to_contain_text("25,00", timeout=T)
    await bob.get_by_test_id("chip-100").click()
    await bob.get_by_test_id("spot-3-mano_di_poker").click()
    await expect(bob.get_by_test_id("spot-3-mano_di_poker")).to_contain_text("1,00", timeout=T)

    dealer = await sign_in(browser, f"{base_url}/dealer", DEALER)
    await expect(dealer.get_by_test_id("next-action")).to_contain_text("Betting is open",
                                                                       timeout=T)
    await studio.close_betting()
    await expect(dealer.get_by_test_id("next-action")).to_have_text("Burn a card", timeout=T)
    await studio.deal("6d")
    await expect(dealer.get_by_test_id("next-action")).to_have_text("Deal to position 1",
                                                                    timeout=T)
    await studio.deal("2c")
    await expect(dealer.get_by_test_id("next-action")).to_have_text("Deal to position 3",
                                                                    timeout=T)
    seen = dealer.get_by_test_id("cards-seen").locator("li")
    await expect(seen).to_have_count(2)
    await expect(seen.first).to_contain_text("from shoe")
    await expect(seen.last).to_contain_text("burn card, face down")
    assert await dealer.locator("[data-card='6d']").count() == 0  # the burn stays face down
    await expect(dealer.get_by_test_id("devices")).to_contain_text("shuffler")
    await screenshot(dealer, "dealer")

    # voiding needs a reason
    await dealer.get_by_test_id("void").click()
    await expect(dealer.get_by_test_id("error")).to_have_attribute(
        "data-code", "void.reason_required", timeout=T)
    await dealer.get_by_test_id("void-reason").fill("card fell off the table")
    await dealer.get_by_test_id("void").click()
    await expect(dealer.get_by_test_id("phase")).to_have_text("void", timeout=T)
    for page, cents in ((ann, "25,00"), (bob, "26,00")):
        await expect(page.get_by_test_id("result")).to_contain_text(f"Rimborsato {cents}",
                                                                    timeout=T)
        await expect(page.get_by_test_id("balance")).to_have_text(
            re.compile(r"^1\.000,00\s€$"), timeout=T)
        entry = page.get_by_test_id("history").locator("li").first
        await expect(entry).to_contain_text("card fell off the table", timeout=T)
        await expect(entry).to_have_attribute("data-net", "0")
    assert studio.balance("ann") == (100_000, 0) and studio.balance("bob") == (100_000, 0)

    # manual card entry and pause/resume from the console, in the next round
    await dealer.get_by_test_id("pause-reason").fill("changing the cloth")
    await dealer.get_by_test_id("pause").click()
    await expect(dealer.get_by_test_id("paused")).to_contain_text("changing the cloth",
                                                                  timeout=T)
    await wait_phase(ann, "paused")
    await dealer.get_by_test_id("resume").click()
    await expect(dealer.get_by_test_id("paused")).to_have_text("", timeout=T)


async def test_the_technician_drives_the_simulators_and_a_dealer_cannot(
        studio, base_url, browser, screenshot) -> None:
    studio.credit("ann", 100_000)
    ann = await open_player(browser, base_url, studio, "ann")
    await ann.get_by_test_id("chip-1000").click()
    await ann.get_by_test_id("spot-2-main").click()
    await expect(ann.get_by_test_id("spot-2-main")).to_contain_text("10,00", timeout=T)
    await studio.close_betting()

    tech = await sign_in(browser, f"{base_url}/technician", TECHNICIAN)
    await expect(tech.get_by_test_id("expecting")).to_have_text("burn a card", timeout=T)
    decks = studio.devices.shuffler.decks_made
    await tech.get_by_test_id("shuffle").click()
    await expect(tech.get_by_test_id("shuffler-info")).to_contain_text(f"{decks + 1} decks",
                                                                      timeout=T)
    # the shuffled deck waits for the next round: this round's shoe is unchanged
    await tech.get_by_test_id("card-code").fill("Qs")
    await tech.get_by_test_id("deal-card").click()  # the burn
    await expect(tech.get_by_test_id("expecting")).to_have_text("deal to position 2",
                                                                timeout=T)
    await tech.get_by_test_id("deal-next").click()  # a card from the shoe's own order
    await expect(tech.get_by_test_id("expecting")).to_have_text("deal to the dealer",
                                                                timeout=T)
    await expect(ann.get_by_test_id("position-2-cards").locator("[data-card]")).to_have_count(
        1, timeout=T)
    info = await tech.get_by_test_id("shoe-info").text_content()
    assert "38 cards left" in info
    glance = tech.get_by_test_id("glance")             # the table's figures at a glance
    await expect(glance.locator("[data-metric='bets_placed']")).to_have_text("1", timeout=T)
    await expect(glance.locator("[data-metric='ws_clients']")).to_have_text("1")
    await expect(glance.locator("[data-metric='bet_ack_ms_mean']")).to_contain_text("ms")
    await screenshot(tech, "technician")

    dealer = await sign_in(browser, f"{base_url}/technician", DEALER)
    await expect(dealer.locator("#login .error")).to_contain_text("not allowed", timeout=T)
    assert await dealer.get_by_test_id("deal-next").is_hidden()

    # a device fault: the table pauses, the dealer console says so and lists the fault
    await dealer.goto(f"{base_url}/dealer")
    await expect(dealer.get_by_test_id("next-action")).to_have_text("Deal to the dealer",
                                                                    timeout=T)
    await tech.get_by_test_id("shoe-fault").select_option("badcode")
    await tech.get_by_test_id("inject-shoe").click()
    await expect(dealer.get_by_test_id("next-action")).to_contain_text("Table paused",
                                                                       timeout=T)
    await expect(dealer.get_by_test_id("alerts").locator(
        "[data-code='serial.card_bad_code']")).to_contain_text("shoe fault", timeout=T)
    await wait_phase(ann, "paused")
