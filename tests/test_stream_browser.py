"""The player page in Chromium decodes the stream: framesDecoded > 0, a 1280x720 video.

Debian's chromium (apt-get install chromium) driven by Playwright; never `playwright install`.
"""

from __future__ import annotations

import os

import pytest
from aiohttp import web

from streaming.encoder import EncoderSettings, SharedH264Encoder
from streaming.fanout import Broadcaster
from streaming.signalling import VideoService, create_streaming_app
from streaming.source import PacedSource, TestPattern

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 30_000  # safety net; frames arrive within about a second

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is absent (apt-get install chromium)"),
]


def authorize(request: web.Request) -> str | None:
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    return token.removeprefix("good-") if token.startswith("good-") else None


@pytest.fixture
async def served(aiohttp_client):
    source = PacedSource(TestPattern(1280, 720, 25), 1280, 720, 25)
    service = VideoService(Broadcaster(source, SharedH264Encoder(EncoderSettings()), 8))
    app = web.Application()
    app.add_subapp("/video/", create_streaming_app(service, authorize))
    client = await aiohttp_client(app)
    return client, service


@pytest.fixture
async def page():
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield await browser.new_page()
        finally:
            await browser.close()


async def test_player_page_decodes_720p_frames(served, page) -> None:
    client, service = served
    await page.goto(str(client.make_url("/video/static/player_video.html?token=good-alice")))
    # the page polls getStats() into window.__video.stats; wait on that condition
    await page.wait_for_function(
        """() => {
            const s = window.__video && window.__video.stats;
            return !!s && s.framesDecoded > 5
                && document.getElementById("video").videoWidth > 0;
        }""",
        polling=100, timeout=WAIT_MS)
    result = await page.evaluate(
        """() => {
            const v = document.getElementById("video");
            return {...window.__video.stats, videoWidth: v.videoWidth,
                    videoHeight: v.videoHeight, state: window.__video.state};
        }""")
    assert result["framesDecoded"] > 5
    assert result["videoWidth"] == 1280 and result["videoHeight"] == 720
    assert (result["frameWidth"], result["frameHeight"]) == (1280, 720)
    (viewer,) = service.broadcaster.viewers.values()
    assert viewer.player_id == "alice" and viewer.stats.frames_sent > 5


async def test_player_page_without_a_valid_token_shows_the_refusal(served, page) -> None:
    client, service = served
    await page.goto(str(client.make_url("/video/static/player_video.html?token=forged")))
    await page.wait_for_function("() => window.__video && window.__video.state === 'error'",
                                 polling=50, timeout=WAIT_MS)
    assert await page.evaluate("() => window.__video.error") == "streaming.unauthorized"
    assert service.broadcaster.viewers == {}
