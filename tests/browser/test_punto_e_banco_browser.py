"""The regulation's virtual Punto e Banco table in Chromium: chips on the spots, Annulla,
Carte, the cards in the order the rules deal them (in the table's French art), the result
with Banco's commission, the balance and the history."""

from __future__ import annotations

from playwright.async_api import expect

from tests.browser.conftest import BROWSER

pytestmark = BROWSER
T = 10_000
PB = "pb-virtual-1"


async def test_a_virtual_hand_bet_cards_result_balance(studio, base_url, browser, screenshot):
    studio.credit("ann", 10_000)
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(f"{base_url}/play?table={PB}&token={studio.token('ann')}&lang=en")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await expect(page.get_by_test_id("balance")).to_have_text("€100.00", timeout=T)
    # chips on spots; Annulla clears them all before Carte
    await page.get_by_test_id("chip-500").click()
    await page.get_by_test_id("spot-pari").click()
    await expect(page.get_by_test_id("stake")).to_have_text("€5.00")
    await page.get_by_test_id("btn-annulla").click()
    await expect(page.get_by_test_id("stake")).to_have_text("–")
    await page.get_by_test_id("chip-1000").click()
    await page.get_by_test_id("spot-banco").click()
    await page.get_by_test_id("chip-500").click()
    await page.get_by_test_id("spot-punto_pair").click()
    await expect(page.get_by_test_id("stake")).to_have_text("€15.00")
    # Punto 2+3 = 5 draws a 5: 0; Banco 3+2 = 5 draws against a 5: a 2, 7. Banco wins.
    studio.pb_shoe.stacks.append(["2c", "3d", "3s", "2b", "5c", "2d"])
    await page.get_by_test_id("btn-carte").click()
    await expect(page.get_by_test_id("result")).to_be_visible(timeout=T)
    await expect(page.get_by_test_id("result")).to_have_attribute("data-outcome", "banco")
    # 10 EUR on Banco: 19.50 back, 0.50 commission; the pair bet lost
    await expect(page.get_by_test_id("result")).to_contain_text("€19.50")
    await expect(page.get_by_test_id("result")).to_contain_text("commission €0.50")
    punto = page.get_by_test_id("punto-cards").locator("[data-card]")
    banco = page.get_by_test_id("banco-cards").locator("[data-card]")
    await expect(punto).to_have_count(3)
    await expect(banco).to_have_count(3)
    assert await punto.nth(2).get_attribute("data-card") == "5c"
    assert await banco.nth(0).get_attribute("src") == "/cards/french/3d.jpg"
    await expect(page.get_by_test_id("punto-total")).to_have_text("0")
    await expect(page.get_by_test_id("banco-total")).to_have_text("7")
    await expect(page.get_by_test_id("balance")).to_have_text("€104.50", timeout=T)
    await expect(page.get_by_test_id("history").locator("li").first).to_contain_text(
        "Banco wins", timeout=T)
    assert studio.balance("ann") == (10_450, 0)
    await screenshot(page, "punto-e-banco")
    # the stakes stay for the next hand, the spots open again
    await expect(page.get_by_test_id("stake")).to_have_text("€15.00")
    await expect(page.get_by_test_id("btn-carte")).to_be_enabled()
