"""Sette e Mezzo Quota Fissa in Chromium: the player's own private table, hands with the deck
stacked through the real RNG shoe, the regulation's session rules on the table's ManualClock
(a week is a clock advance). The test waits on the page's DOM with Playwright's expect, and on
the studio's state with bounded condition waits: never a fixed sleep."""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import expect

from tests.browser.conftest import BROWSER

pytestmark = BROWSER
T = 10_000  # ms: a safety net for DOM conditions that hold within a moment
QF = "sem-quota-fissa-1"
WEEK = 7 * 24 * 3600


async def until(predicate, timeout: float = 10.0) -> None:
    """Until `predicate()` holds (the server side of a browser action), bounded."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def open_table(browser, base_url: str, studio, name: str, lang: str = "en"):
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    page = await context.new_page()
    await page.goto(f"{base_url}/play?table={QF}&token={studio.token(name)}&lang={lang}")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    return page


async def hand(page, studio, stake_chips: list[int], cards: str, choices: list[str]) -> None:
    """Stake with the chips, "Carte", then the choices; the deck stacked with `cards`."""
    studio.qf_shoe.stacks.append(cards.split())
    for chip in stake_chips:
        await page.get_by_test_id(f"chip-{chip}").click()
    await page.get_by_test_id("btn-carte").click()
    for choice in choices:
        button = page.get_by_test_id(f"btn-{choice}")
        await expect(button).to_be_visible(timeout=T)
        await button.click()
    await expect(page.get_by_test_id("result")).to_be_visible(timeout=T)


async def test_a_win_a_loss_a_push_and_a_bust(studio, base_url, browser, screenshot):
    studio.credit("ann", 10_000)
    page = await open_table(browser, base_url, studio, "ann")
    await expect(page.get_by_test_id("balance")).to_have_text("€100.00", timeout=T)
    await expect(page.get_by_test_id("decision")).to_be_hidden()
    # the stake: chips add up, Annulla clears it before "Carte"
    await page.get_by_test_id("chip-500").click()
    await expect(page.get_by_test_id("stake")).to_have_text("€5.00")
    await page.get_by_test_id("btn-annulla").click()
    await expect(page.get_by_test_id("stake")).to_have_text("–")
    await expect(page.get_by_test_id("btn-carte")).to_be_disabled()

    # a win: 6 against the bank's 5 (the bank stands on 5)
    await hand(page, studio, [1000], "6c 5d", ["stai"])
    await expect(page.get_by_test_id("result")).to_have_attribute("data-result", "win")
    await expect(page.get_by_test_id("result")).to_contain_text("€20.00")
    await expect(page.get_by_test_id("balance")).to_have_text("€110.00", timeout=T)
    # cards in the table's own art: the scans, not suit symbols
    img = page.get_by_test_id("player-cards").locator("img[data-card='6c']")
    await expect(img).to_have_attribute("src", f"/cards/{studio.qf_cfg.deck_art.value}/6c.jpg")
    assert await img.evaluate("i => i.naturalWidth") > 0
    await screenshot(page, "quota-fissa-win")

    # a bust: 4 must draw below the bank's 6; at 6 the player draws again: 6 + 5 = 11
    await hand(page, studio, [], "4c 6d 2s 5b", ["carta", "carta"])
    await expect(page.get_by_test_id("result")).to_have_attribute("data-result", "lose")
    await expect(page.get_by_test_id("result")).to_have_text("Bust")
    await expect(page.get_by_test_id("balance")).to_have_text("€100.00", timeout=T)

    # a push: 5 against 5
    await hand(page, studio, [], "5c 5d", ["stai"])
    await expect(page.get_by_test_id("result")).to_have_attribute("data-result", "push")
    await expect(page.get_by_test_id("balance")).to_have_text("€100.00", timeout=T)

    # a loss: 6 against the bank's 3, which draws a 4: 7 beats 6, card by card
    await hand(page, studio, [], "6c 3d 4s", ["stai"])
    await expect(page.get_by_test_id("result")).to_have_attribute("data-result", "lose")
    await expect(page.get_by_test_id("bank-cards").locator("[data-card]")).to_have_count(2)
    await expect(page.get_by_test_id("bank-total")).to_have_text("7")
    await expect(page.get_by_test_id("balance")).to_have_text("€90.00", timeout=T)
    await expect(page.get_by_test_id("history").locator("li")).to_have_count(4, timeout=T)
    assert studio.balance("ann") == (9_000, 0)

    # only the buttons the rules allow: below the bank's card, Carta alone
    studio.qf_shoe.stacks.append(["2c", "6d"])
    await page.get_by_test_id("btn-carte").click()
    await expect(page.get_by_test_id("btn-carta")).to_be_visible(timeout=T)
    await expect(page.get_by_test_id("btn-stai")).to_be_hidden()
    await expect(page.get_by_test_id("btn-carte")).to_be_hidden()
    # Italian
    await page.get_by_test_id("lang").click()
    await expect(page.get_by_test_id("btn-carta")).to_have_text("Carta")
    await expect(page.get_by_test_id("btn-annulla")).to_have_text("Annulla")


async def test_a_player_who_closes_the_tab_with_a_choice_pending_comes_back_to_it(
        studio, base_url, browser):
    studio.credit("ann", 10_000)
    page = await open_table(browser, base_url, studio, "ann")
    studio.qf_shoe.stacks.append(["5c", "3d", "4s"])  # stand on 5: the bank draws to 7
    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("btn-carte").click()
    await expect(page.get_by_test_id("btn-stai")).to_be_visible(timeout=T)
    await page.context.close()  # the tab is gone
    inst = studio.private.instances["ann"]
    await until(lambda: not inst.connections)
    studio.clock.advance(WEEK - 60)  # six days and 23 hours later, the hand still waits
    assert "ann" in studio.private.instances
    page = await open_table(browser, base_url, studio, "ann")
    await expect(page.get_by_test_id("player-cards").locator("[data-card='5c']")).to_be_visible(
        timeout=T)
    await expect(page.get_by_test_id("btn-stai")).to_be_visible(timeout=T)
    studio.clock.advance(120)  # the week passes while the player is here: nothing happens
    await page.get_by_test_id("btn-stai").click()
    await expect(page.get_by_test_id("result")).to_have_attribute("data-result", "lose",
                                                                   timeout=T)
    assert studio.balance("ann") == (9_000, 0)


async def test_after_a_week_away_the_system_chooses_and_the_history_says_so(
        studio, base_url, browser):
    studio.credit("ann", 10_000)
    page = await open_table(browser, base_url, studio, "ann")
    # 4 against the bank's 2: the regulation's choice draws below 5 (4 + 3 = 7), then stands;
    # the bank draws 2 + 4 = 6: the player wins
    studio.qf_shoe.stacks.append(["4c", "2d", "3s", "4b"])
    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("btn-carte").click()
    await expect(page.get_by_test_id("btn-stai")).to_be_visible(timeout=T)
    await page.context.close()
    inst = studio.private.instances["ann"]
    await until(lambda: not inst.connections)
    studio.clock.advance(WEEK)
    await until(lambda: "ann" not in studio.private.instances)
    assert studio.balance("ann") == (11_000, 0)
    page = await open_table(browser, base_url, studio, "ann")
    entry = page.get_by_test_id("history").locator("li").first
    await expect(entry).to_contain_text("You won", timeout=T)
    await expect(entry).to_contain_text("4c 3s")
    await expect(page.get_by_test_id("balance")).to_have_text("€110.00")


async def test_a_second_connection_closes_the_first(studio, base_url, browser):
    studio.credit("ann", 10_000)
    first = await open_table(browser, base_url, studio, "ann")
    second = await open_table(browser, base_url, studio, "ann")
    await expect(first.get_by_test_id("overlay")).to_have_attribute("data-code",
                                                                     "session.replaced",
                                                                     timeout=T)
    await expect(first.get_by_test_id("overlay")).to_contain_text("another window")
    await expect(second.get_by_test_id("overlay")).to_be_hidden()
    # the second plays on
    studio.qf_shoe.stacks.append(["6c", "5d"])
    await second.get_by_test_id("chip-1000").click()
    await second.get_by_test_id("btn-carte").click()
    await expect(second.get_by_test_id("btn-stai")).to_be_visible(timeout=T)


async def test_a_lost_connection_says_reconnecting_then_disconnected(studio, base_url, browser):
    studio.credit("ann", 10_000)
    page = await open_table(browser, base_url, studio, "ann")
    await expect(page.get_by_test_id("alert")).to_be_hidden()
    # the connection drops: the page retries (the regulation's ~2 minutes) and comes back
    await page.evaluate("() => window.__qf.ws.close()")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("alert")).to_be_hidden()
    # past the reconnection window the page stops trying and says so
    await page.evaluate("() => { window.__qf.reconnectS = 0; window.__qf.ws.close(); }")
    await expect(page.get_by_test_id("overlay")).to_have_attribute("data-code", "disconnected",
                                                                    timeout=T)
    await expect(page.get_by_test_id("overlay")).to_contain_text("Disconnected")
    await page.get_by_test_id("rejoin").click()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
