"""The table video through Janus (Debian's janus, a real process): the studio encodes the
camera once and sends it to Janus as RTP; the player's page in Chromium gets Janus's offer
through the studio's signalling (never a Janus session) and decodes the stream:
framesDecoded > 0, a 1280x720 video. A player's viewer id is no good to another player."""

from __future__ import annotations

import shutil
import socket

import aiohttp
import pytest
from playwright.async_api import expect

from streaming.encoder import EncoderSettings, SharedH264Encoder
from streaming.fanout import Broadcaster
from streaming.janus import JanusProcess, JanusVideo, Mountpoint, RtpPublisher, free_port
from streaming.source import PacedSource, TestPattern
from studio.web.app import create_app
from tests.browser.conftest import BROWSER

pytestmark = [*BROWSER, pytest.mark.skipif(shutil.which("janus") is None,
                                           reason="Debian's janus (scripts/test installs it)")]
T = 30_000


@pytest.fixture
async def janus(studio):
    mount = Mountpoint(studio.table_id, 1, free_port(socket.SOCK_DGRAM))
    process = JanusProcess([mount])
    await process.start()
    source = PacedSource(TestPattern(1280, 720, 25), 1280, 720, 25)
    broadcaster = Broadcaster(source, SharedH264Encoder(EncoderSettings()), 8)
    publisher = RtpPublisher(broadcaster, mount.rtp_port)
    publisher.start()
    broadcaster.start()
    video = JanusVideo(process.url, mount,
                       alive=lambda p: studio.studio.sessions.current(p) is not None)
    studio.studio.janus[studio.table_id] = video
    yield video
    await video.close()
    await publisher.stop()
    await broadcaster.stop()
    process.stop()


async def test_a_player_page_decodes_the_table_video_from_janus(studio, janus, browser,
                                                                aiohttp_server):
    server = await aiohttp_server(create_app(studio.studio), host="127.0.0.1")
    base = str(server.make_url("")).rstrip("/")
    studio.credit("ann", 10_000)
    page = await (await browser.new_context(viewport={"width": 1360, "height": 900})).new_page()
    await page.goto(f"{base}/play?token={studio.token('ann')}&lang=en")
    await expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "up",
                                                                       timeout=T)
    await page.wait_for_function(
        "() => { const v = document.getElementById('video');"
        " return v && v.videoWidth === 1280 && v.videoHeight === 720; }", timeout=T)
    decoded = await page.evaluate("""async () => {
        const s = await window.__player.video.stats();
        return s ? s.framesDecoded : 0; }""")
    assert decoded > 0
    (viewer,) = janus.viewers.values()
    assert viewer.player_id == "ann"
    # the page never saw a Janus session id
    assert str(viewer.session) not in await page.content()
    async with aiohttp.ClientSession() as s:
        (vid,) = janus.viewers
        r = await s.post(f"{base}/api/video/{studio.table_id}/leave", json={"id": vid},
                         headers={"Authorization": f"Bearer {studio.token('bob')}"})
        assert r.status == 404 and (await r.json())["error"]["code"] == \
            "streaming.unknown_viewer"
    await page.context.close()  # before the server stops: it would wait for the socket
    studio.studio.sessions.close(studio.studio.sessions.current("ann"), "session.closed")
    await janus.sweep()                       # ann's studio session ended: so does her stream
    assert not janus.viewers
