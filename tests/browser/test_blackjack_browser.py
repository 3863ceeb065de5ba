"""The regulation's virtual Blackjack table in Chromium: chips on a position and its Player
Pair, START, the hole card face down while the player decides (only the allowed buttons),
SPLIT, HIT and STAY hand by hand, the dealer's play, the result and the balance; then REPEAT
deals the same stakes again."""

from __future__ import annotations

from playwright.async_api import expect

from tests.browser.conftest import BROWSER

pytestmark = BROWSER
T = 10_000
BJ = "bj-virtual-1"


async def test_a_virtual_game_with_a_split_then_repeat(studio, base_url, browser, screenshot):
    studio.credit("ann", 10_000)
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(f"{base_url}/play?table={BJ}&token={studio.token('ann')}&lang=en")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("balance")).to_have_text("€100.00", timeout=T)
    await page.get_by_test_id("chip-500").click()
    await page.get_by_test_id("spot-2-main").click()
    await page.get_by_test_id("btn-delete").click()            # DELETE: every chip off
    await expect(page.get_by_test_id("stake")).to_have_text("–")
    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("spot-1-main").click()
    await page.get_by_test_id("chip-500").click()
    await page.get_by_test_id("spot-1-player_pair").click()
    await page.get_by_test_id("spot-3-main").click()
    await page.get_by_test_id("chip-clear").click()            # CLEAR empties one spot
    await page.get_by_test_id("spot-3-main").click()
    await expect(page.get_by_test_id("stake")).to_have_text("€15.00")
    # position 1: 8c 8d (a coloured pair); the dealer 6d up, Ts face down
    studio.bj_shoe.stacks.append(["8c", "6d", "8d", "Ts", "3b", "2s", "9c", "7b"])
    await page.get_by_test_id("btn-start").click()
    decision = page.get_by_test_id("decision")
    await expect(decision).to_be_visible(timeout=T)
    for allowed in ("stay", "hit", "double", "split"):
        await expect(page.get_by_test_id(f"btn-{allowed}")).to_be_visible()
    await expect(page.get_by_test_id("btn-insure")).to_have_count(0)   # no ace up
    await expect(page.locator("[data-face-down]")).to_have_count(1)
    assert await page.locator("[data-card='Ts']").count() == 0       # never sent before
    await screenshot(page, "blackjack")
    await page.get_by_test_id("btn-split").click()
    await expect(page.get_by_test_id("hand-1-1")).to_contain_text("10", timeout=T)
    await expect(page.get_by_test_id("btn-double")).to_have_count(0)  # not after a split
    await page.get_by_test_id("btn-hit").click()
    await expect(page.get_by_test_id("hand-1-0")).to_contain_text("20", timeout=T)
    await page.get_by_test_id("btn-stay").click()
    await expect(page.get_by_test_id("position-1")).to_have_class("bj-position deciding")
    await page.get_by_test_id("btn-stay").click()
    result = page.get_by_test_id("result")
    await expect(result).to_be_visible(timeout=T)
    # 20 and 10 both beat the dealer's 23: 20 + 20 back, the coloured pair 5 x 12 = 60
    await expect(result).to_have_attribute("data-returned", "10000")
    await expect(page.locator("[data-card='Ts']")).to_have_count(1)   # turned over at the end
    await expect(page.get_by_test_id("balance")).to_have_text("€175.00", timeout=T)
    assert studio.balance("ann") == (17_500, 0)

    # REPEAT: the same stakes, dealt at once; T A is a blackjack (3:2), the dealer's 19 stands
    await expect(page.get_by_test_id("btn-start")).to_have_text("REPEAT")
    studio.bj_shoe.stacks.append(["Tc", "9d", "Ac", "Ks"])
    await page.get_by_test_id("btn-start").click()
    await expect(page.get_by_test_id("balance")).to_have_text("€185.00", timeout=T)
    assert studio.balance("ann") == (18_500, 0)
