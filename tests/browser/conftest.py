"""Fixtures of the browser tests: a whole studio served on 127.0.0.1 and Debian's Chromium
driven by Playwright (never `playwright install`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.harness import StudioHarness

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


BROWSER = [pytest.mark.browser, pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"{CHROMIUM} is absent (scripts/test installs it from Debian)")]


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    yield h
    await h.stop()


@pytest.fixture
async def base_url(studio, aiohttp_server) -> str:
    server = await aiohttp_server(studio.app, host="127.0.0.1")
    return str(server.make_url("")).rstrip("/")


@pytest.fixture
async def browser():
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            await b.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    async def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        await page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000  # a real render, not an empty page
        return path

    return take
