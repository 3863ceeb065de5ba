"""A shoe cross-checked by the table camera, in Chromium: the technician rehearses a misread
card from the camera panel, the dealer console shows both readings, the dealer confirms the
shoe's and resumes, and the player sees the card only then."""

from __future__ import annotations

import uuid

import pytest
from playwright.async_api import expect

from tests.browser.conftest import BROWSER
from tests.browser.harness import DEALER, TECHNICIAN, StudioHarness
from tests.browser.test_player_browser import T, open_player
from tests.browser.test_staff_browser import sign_in
from tests.test_camera_watch import look_until

pytestmark = BROWSER


@pytest.fixture
async def studio(tmp_path):
    """The conftest's studio with the simulated camera and the real recogniser."""
    h = StudioHarness(tmp_path, camera=True)
    await h.start()
    yield h
    await h.stop()


async def test_a_card_the_camera_misreads_is_settled_by_the_dealer_on_the_console(
        studio, base_url, browser, screenshot) -> None:
    studio.credit("ann", 100_000)
    assert (await studio.actor.place_bets("ann", [{"position": 2, "kind": "main",
                                                   "amount": 1000}], uuid.uuid4().hex))["ok"]
    ann = await open_player(browser, base_url, studio, "ann")
    await studio.close_betting()
    attached = studio.devices.attached

    tech = await sign_in(browser, f"{base_url}/technician", TECHNICIAN)
    await expect(tech.get_by_test_id("camera-info")).to_contain_text("frames looked at",
                                                                     timeout=T)
    await tech.get_by_test_id("card-code").fill("Qs")
    await tech.get_by_test_id("deal-card").click()  # the burn: face down, on the shoe's word
    await expect(tech.get_by_test_id("expecting")).to_have_text("deal to position 2",
                                                                timeout=T)

    await tech.get_by_test_id("swap-card").fill("Kd")
    await tech.get_by_test_id("camera-swap").click()
    await expect(tech.locator("#log")).to_contain_text("laid as Kd", timeout=T)
    await tech.get_by_test_id("card-code").fill("7c")
    await tech.get_by_test_id("deal-card").click()  # the shoe reads 7c, the felt shows Kd
    await expect(tech.locator("#log")).to_contain_text("dealt 7c", timeout=T)
    assert await look_until(studio, lambda: attached.cross.disputed is not None) <= 25

    dealer = await sign_in(browser, f"{base_url}/dealer", DEALER)
    await expect(dealer.get_by_test_id("dispute")).to_be_visible(timeout=T)
    await expect(dealer.locator("#dispute-text")).to_have_text(
        "Shoe read 7c, camera read Kd", timeout=T)
    await expect(dealer.get_by_test_id("devices")).to_contain_text("checked by the table camera")
    # nothing is shown to the player on a doubtful card
    await expect(ann.get_by_test_id("position-2-cards").locator("[data-card]")).to_have_count(0)
    await screenshot(dealer, "dealer-dispute")

    await dealer.get_by_test_id("confirm-shoe").click()  # the card goes in, by the dealer
    await expect(ann.get_by_test_id("position-2-cards").locator("[data-card='7c']")) \
        .to_have_count(1, timeout=T)
    await dealer.get_by_test_id("resume").click()  # and the dispute is over
    await expect(dealer.get_by_test_id("dispute")).to_be_hidden(timeout=T)
    await expect(dealer.get_by_test_id("next-action")).to_have_text("Deal to the dealer",
                                                                    timeout=T)
    assert studio.devices.info()["camera"]["cards_seen"] >= 1
    await screenshot(tech, "technician-camera")
