"""A Sette e Mezzo piatto cash table in four Chromium pages: four players sit down, the matta
deal gives the first bank, and the players play several banks by pressing the buttons their
page shows (what each presses is chosen by a bot reading the table; the press is the page's).
The credits every page shows agree with the ledger at the end."""

from __future__ import annotations

import asyncio
import random
import re
import time

import pytest
from playwright.async_api import expect

from tests.browser.conftest import BROWSER
from tests.mp_bots import bot_move
from tests.mp_studio import MpStudio

pytestmark = BROWSER
T = 10_000
PLAYERS = ("ann", "bob", "cat", "dan")


@pytest.fixture
async def studio(tmp_path):
    h = MpStudio(tmp_path)
    await h.start(running=False)
    yield h
    await h.stop()


async def until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def euro(cents: int) -> str:
    return f"€{cents / 100:.2f}"


async def press(page, move: dict) -> None:
    """The move a bot chose, made on the player's page."""
    kind = move["type"]
    if kind == "accept":
        await page.get_by_test_id("accept-amount").fill(f"{move['amount'] / 100:.2f}")
        button = page.get_by_test_id("btn-accetto")
    elif kind == "join":
        button = page.get_by_test_id("btn-gioco")
    else:
        if kind == "stake":
            await page.get_by_test_id("stake-amount").fill(f"{move['amount'] / 100:.2f}")
        button = page.get_by_test_id("btn-tiro" if move["hit"] else "btn-sto")
    await expect(button).to_be_visible(timeout=T)
    await button.click()


async def test_four_players_play_several_banks(studio, base_url, browser, screenshot):
    pages = {}
    for p in PLAYERS:
        studio.credit(p, 20_000)
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        page = await context.new_page()
        await page.goto(f"{base_url}/seated?table=mp-1&token={studio.token(p)}")
        await expect(page.get_by_test_id("connection")).to_have_attribute(
            "data-state", "up", timeout=T)
        pages[p] = page
    studio.mp_shoe.stacks = [["Kd"]]
    await pages["dan"].get_by_test_id("art").select_option("piacentine")
    for p in PLAYERS:
        await pages[p].get_by_test_id("sit-amount").fill("50")
        await pages[p].get_by_test_id("btn-sit").click()
        await expect(pages[p].get_by_test_id("credit")).to_have_text("€50.00", timeout=T)
    table = studio.mp
    assert table.state.offer == "ann"
    await expect(pages["ann"].get_by_test_id("btn-accetto")).to_be_visible(timeout=T)
    await expect(pages["ann"].get_by_test_id("btn-non-accetto")).to_be_visible(timeout=T)
    await expect(pages["ann"].get_by_test_id("timer")).to_have_text(re.compile(r"^(20|19|18)s$"), timeout=T)
    await expect(pages["bob"].get_by_test_id("btn-accetto")).to_have_count(0)
    rng = random.Random(11)
    arts: set[str] = set()
    while not (table.state.bank_no >= 4 and table.state.bank is None):
        move = bot_move(table.state, rng)
        assert move is not None, "nobody must act"
        before = table.inputs
        await press(pages[move["player"]], move)
        await until(lambda before=before: table.inputs > before)
        if table.state.bank is not None and table.state.bank.banker_cards:
            banker = table.state.bank.banker
            # the banker's first card is face down for the others until it plays
            view = table.view("ann" if banker != "ann" else "bob")
            seat = next(s for s in view["seats"] if s["player"] == banker)
            if view["phase"] not in ("banker", "over"):
                assert seat["cards"][0] is None
            cards = pages["dan"].locator("img[data-card]")
            if await cards.count():  # dan chose the Piacentine art, ann kept the Napoletane
                arts.add((await cards.first.get_attribute("src")).split("/")[2])
                arts.add((await pages["ann"].locator("img[data-card]").first
                          .get_attribute("src")).split("/")[2])
    seats = {p: studio.mp_seat(p) for p in PLAYERS}
    assert sum(seats.values()) + studio.rake() == 4 * 5000
    for p in PLAYERS:
        await expect(pages[p].get_by_test_id("credit")).to_have_text(euro(seats[p]), timeout=T)
        await expect(pages["ann"].get_by_test_id(f"credit-{p}")).to_have_text(
            euro(seats[p]), timeout=T)
    assert arts == {"piacentine", "napoletane"}
    await pages["bob"].get_by_test_id("btn-tickets").click()  # bob's transaction tickets
    await expect(pages["bob"].locator("[data-ticket]").last).to_contain_text(
        "conto -€50.00, credito al tavolo +€50.00", timeout=T)
    await screenshot(pages["ann"], "sette-e-mezzo-multiplayer-ann")
