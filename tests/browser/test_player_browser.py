"""The player client in Chromium, on a real table dealt through the simulated shoe on a pty.

The test moves the table's ManualClock (Stop alle puntate, decision timers) and deals real
serial frames; it waits on the page's DOM with Playwright's expect, never with a sleep.
"""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.browser.conftest import BROWSER

pytestmark = BROWSER
T = 10_000  # ms: a safety net for DOM conditions that hold within a moment


async def open_player(browser, base_url: str, studio, name: str, lang: str = "it"):
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(f"{base_url}/play?token={studio.token(name)}&lang={lang}")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    return page


async def wait_phase(page, phase: str) -> None:
    await expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", phase, timeout=T)


async def test_a_player_bets_hits_stands_and_sees_the_settlement(
        studio, base_url, browser, screenshot) -> None:
    studio.credit("ann", 100_000)
    page = await open_player(browser, base_url, studio, "ann", lang="en")
    await expect(page.get_by_test_id("balance")).to_have_text("€1,000.00", timeout=T)
    await wait_phase(page, "betting")
    await expect(page.get_by_test_id("timer")).to_have_text(re.compile(r"^\d+$"))
    # no choice is offered outside a decision
    await expect(page.get_by_test_id("decision")).to_be_hidden()

    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("spot-1-main").click()
    await expect(page.get_by_test_id("spot-1-main")).to_contain_text("€10.00", timeout=T)
    await expect(page.get_by_test_id("balance")).to_have_text("€990.00", timeout=T)
    assert studio.balance("ann") == (99_000, 1000)

    await studio.close_betting()
    await expect(page.get_by_test_id("banner")).to_contain_text("Stop alle puntate", timeout=T)
    await wait_phase(page, "burn")
    await expect(page.get_by_test_id("spot-1-main")).to_be_disabled()

    await studio.deal("7b")  # the burn card: never shown
    await studio.deal("5c", "4d")  # position 1, then the dealer
    await expect(page.get_by_test_id("position-1-cards").locator("[data-card]")).to_have_count(1)
    await expect(page.get_by_test_id("dealer-cards").locator("[data-card='4d']")).to_be_visible()
    await expect(page.get_by_test_id("position-1-total")).to_have_text("5")
    await expect(page.get_by_test_id("btn-carta")).to_have_text("Carta (hit)", timeout=T)
    await expect(page.get_by_test_id("decision-timer")).to_have_text(re.compile(r"^\d+$"))
    # while the 10-second timer runs, Carta and Stai are in sight without scrolling
    for button in ("btn-carta", "btn-stai"):
        box = await page.get_by_test_id(button).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 900, box
    assert await page.locator("[data-card='7b']").count() == 0

    # the connection drops: the client reconnects and the state restores the view
    await page.evaluate("() => window.__player.ws.close()")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("btn-carta")).to_be_visible(timeout=T)
    await expect(page.get_by_test_id("position-1-cards").locator("[data-card='5c']")
                 ).to_be_visible()
    # the token left the address bar at once; a reload still signs in (this tab's storage)
    assert "token" not in page.url and "lang=en" in page.url
    await page.reload()
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("btn-carta")).to_be_visible(timeout=T)
    await screenshot(page, "player")

    await page.get_by_test_id("btn-carta").click()
    await wait_phase(page, "hit")
    await expect(page.get_by_test_id("decision")).to_be_hidden()
    await studio.deal("2s")  # 5 + 2 = 7
    await expect(page.get_by_test_id("position-1-total")).to_have_text("7", timeout=T)
    await expect(page.get_by_test_id("btn-stai")).to_be_visible(timeout=T)
    await page.get_by_test_id("btn-stai").click()
    await wait_phase(page, "dealer")
    await studio.deal("2c")  # the dealer: 4 + 2 = 6, stands; 7 beats 6

    await expect(page.get_by_test_id("result")).to_contain_text("Won", timeout=T)
    await expect(page.get_by_test_id("result").locator("[data-result=win]")).to_contain_text(
        "€20.00")
    await expect(page.get_by_test_id("balance")).to_have_text("€1,010.00", timeout=T)
    entry = page.get_by_test_id("history").locator("li").first
    await expect(entry).to_contain_text("+€10.00", timeout=T)
    await expect(entry).to_contain_text("5♥ 2♠")
    assert studio.balance("ann") == (101_000, 0)
    await screenshot(page, "player-settled")

    # the next round: Ripunta repeats the bets, Autoplay repeats them for N rounds
    await studio.advance(studio.cfg.timers.pause_between_rounds_s)
    await wait_phase(page, "betting")
    await expect(page.get_by_test_id("spot-1-main")).not_to_contain_text("€")
    await page.get_by_test_id("btn-ripunta").click()
    await expect(page.get_by_test_id("spot-1-main")).to_contain_text("€10.00", timeout=T)
    await expect(page.get_by_test_id("balance")).to_have_text("€1,000.00", timeout=T)
    await page.get_by_test_id("btn-autoplay").click()
    await page.get_by_test_id("autoplay-rounds").select_option("5")
    await page.get_by_test_id("autoplay-start").click()
    await expect(page.get_by_test_id("btn-autoplay")).to_have_attribute("data-left", "5",
                                                                         timeout=T)
    assert studio.actor.autoplay["ann"] == 5


async def test_two_players_on_one_position_one_stands_one_hits(
        studio, base_url, browser, screenshot) -> None:
    studio.credit("ann", 100_000)
    studio.credit("bob", 100_000)
    ann = await open_player(browser, base_url, studio, "ann")
    bob = await open_player(browser, base_url, studio, "bob")
    for page in (ann, bob):
        await wait_phase(page, "betting")
        await page.get_by_test_id("chip-1000").click()
        await page.get_by_test_id("spot-2-main").click()
        await expect(page.get_by_test_id("spot-2-main")).to_contain_text("10,00", timeout=T)
    # each sees only their own bet on the shared position
    await expect(ann.get_by_test_id("spot-2-main")).not_to_contain_text("20,00")

    await studio.close_betting()
    await studio.deal("Ab", "4c", "3d")  # burn; position 2 gets 4; the dealer 3
    for page in (ann, bob):
        await expect(page.get_by_test_id("btn-stai")).to_be_visible(timeout=T)
    await ann.get_by_test_id("btn-stai").click()
    await expect(ann.get_by_test_id("decision")).to_be_hidden()
    await bob.get_by_test_id("btn-carta").click()
    await wait_phase(bob, "hit")
    await studio.deal("3s")  # only bob receives it: 7
    await expect(bob.get_by_test_id("position-2-total")).to_have_text("7", timeout=T)
    await expect(ann.get_by_test_id("position-2-total")).to_have_text("4", timeout=T)
    await expect(ann.get_by_test_id("position-2-cards").locator(".card.dim")).to_have_count(1)
    await expect(bob.get_by_test_id("btn-stai")).to_be_visible(timeout=T)
    await expect(ann.get_by_test_id("decision")).to_be_hidden()
    await bob.get_by_test_id("btn-stai").click()
    await wait_phase(bob, "dealer")
    await studio.deal("2b")  # dealer 3 + 2 = 5, stands: ann's 4 loses, bob's 7 wins

    await expect(bob.get_by_test_id("result")).to_contain_text("Vinto", timeout=T)
    await expect(ann.get_by_test_id("result")).to_contain_text("Perso", timeout=T)
    lost = await ann.get_by_test_id("result").locator("[data-result=lose]").text_content()
    assert "  " not in lost and lost.startswith("Posizione 2: Perso — "), lost
    await expect(ann.get_by_test_id("balance")).to_have_text(re.compile(r"^990,00\s€$"),
                                                             timeout=T)
    await expect(bob.get_by_test_id("balance")).to_have_text(re.compile(r"^1\.010,00\s€$"),
                                                             timeout=T)
    await expect(ann.get_by_test_id("history").locator("li").first).to_contain_text("4♥")
    assert studio.balance("ann") == (99_000, 0) and studio.balance("bob") == (101_000, 0)
    settled = {p: studio.published("player_settled", f"player:{p}")[-1] for p in ("ann", "bob")}
    assert settled["ann"]["cards"] == ["4c"] and settled["bob"]["cards"] == ["4c", "3s"]
    assert studio.published("settlement_summary", "dealer")[-1]["settled"] == 2


async def test_refusals_are_shown_and_change_nothing(studio, base_url, browser) -> None:
    studio.credit("poor", 300)
    page = await open_player(browser, base_url, studio, "poor", lang="en")
    await wait_phase(page, "betting")
    await page.get_by_test_id("chip-500").click()
    await page.get_by_test_id("spot-1-main").click()
    await expect(page.get_by_test_id("toast")).to_have_attribute(
        "data-code", "ledger.insufficient_funds", timeout=T)
    await expect(page.get_by_test_id("toast")).to_contain_text("Insufficient credit")
    await page.get_by_test_id("chip-100").click()
    await page.get_by_test_id("spot-1-partita_perfetta").click()
    await expect(page.get_by_test_id("toast")).to_have_attribute(
        "data-code", "bet.side_without_main", timeout=T)
    await expect(page.get_by_test_id("spot-1-main")).not_to_have_class(re.compile("has-bet"))
    assert studio.balance("poor") == (300, 0)
    # the same player opening a second window closes this one
    second = await open_player(browser, base_url, studio, "poor", lang="en")
    await expect(page.get_by_test_id("overlay")).to_have_attribute("data-code",
                                                                    "session.replaced",
                                                                    timeout=T)
    await expect(page.get_by_test_id("overlay")).to_contain_text("another window")
    await expect(second.get_by_test_id("overlay")).to_be_hidden()
    # Italian and English
    await second.get_by_test_id("lang").click()
    await expect(second.get_by_test_id("btn-ripunta")).to_have_text("Ripunta")
    await expect(second.get_by_test_id("phase")).to_have_text("Piazzate le vostre puntate")
