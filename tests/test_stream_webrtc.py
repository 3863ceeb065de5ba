"""Real WebRTC on loopback: aiortc receivers connect through the HTTP signalling route,
receive and decode the 720p stream; refusals carry stable codes; viewers are cleaned up."""

from __future__ import annotations

import re

import pytest
from aiohttp import web
from aiortc import RTCPeerConnection, RTCRtpSender

from streaming.encoder import EncoderSettings, SharedH264Encoder
from streaming.fanout import Broadcaster
from streaming.receiver import OfferRefused, VideoReceiver
from streaming.signalling import VideoService, create_streaming_app
from streaming.source import PacedSource, TestPattern

WAIT = 20.0  # safety-net timeout for conditions; the stream delivers 25 frames a second


def authorize(request: web.Request) -> str | None:
    """Tests' token check: "Bearer good-<player>" is player <player>."""
    token = request.headers.get("Authorization", "").removeprefix("Bearer ")
    return token.removeprefix("good-") if token.startswith("good-") else None


@pytest.fixture
def service() -> VideoService:
    source = PacedSource(TestPattern(1280, 720, 25), 1280, 720, 25)
    return VideoService(Broadcaster(source, SharedH264Encoder(EncoderSettings()), 8))


@pytest.fixture
async def client(aiohttp_client, service):
    app = web.Application()
    app.add_subapp("/video/", create_streaming_app(service, authorize))
    return await aiohttp_client(app)


@pytest.fixture
async def receivers():
    made: list[VideoReceiver] = []

    def make() -> VideoReceiver:
        made.append(VideoReceiver())
        return made[-1]

    yield make
    for r in made:
        await r.close()


def offer_url(client) -> str:
    return str(client.make_url("/video/offer"))


async def test_receiver_decodes_720p_frames_in_order(client, service, receivers) -> None:
    r = receivers()
    await r.connect(offer_url(client), "good-alice", client.session)
    await r.wait_frames(12, WAIT)
    assert r.sizes == {(1280, 720)}
    assert len(r.indices) >= 12  # the stamped counter survived encode, RTP and decode
    assert r.indices == sorted(r.indices) and len(set(r.indices)) == len(r.indices)
    viewer = next(iter(service.broadcaster.viewers.values()))
    assert viewer.player_id == "alice" and viewer.stats.frames_sent >= 12


async def test_two_receivers_share_one_encode(client, service, receivers) -> None:
    a, b = receivers(), receivers()
    await a.connect(offer_url(client), "good-alice", client.session)
    await b.connect(offer_url(client), "good-bob", client.session)
    await a.wait_frames(15, WAIT)
    await b.wait_frames(15, WAIT)
    m = service.metrics()
    assert m["viewers"] == 2 and m["peer_connections"] == 2
    # one encode per captured frame, however many viewers
    assert m["encode_calls"] == m["frames_encoded"] <= m["frames_captured"]
    sent = [v["frames_sent"] for v in m["per_viewer"].values()]
    assert sum(sent) > m["frames_encoded"]  # more frames sent than encoded: shared
    assert all(s <= m["frames_encoded"] for s in sent)
    common = set(a.indices) & set(b.indices)
    assert len(common) >= 10  # the same pictures reached both


async def test_offer_without_token_is_refused_and_leaves_nothing(client, service,
                                                                 receivers) -> None:
    for token in (None, "forged"):
        with pytest.raises(OfferRefused) as refused:
            await receivers().connect(offer_url(client), token, client.session)
        assert refused.value.status == 401 and refused.value.code == "streaming.unauthorized"
    assert service.peers == {} and service.broadcaster.viewers == {}
    assert not service.broadcaster.running  # nobody authorised: no camera, no encoding


async def test_bad_offers_get_stable_codes(client, service) -> None:
    url = "/video/offer"
    headers = {"Authorization": "Bearer good-alice"}
    not_json = await client.post(url, data=b"{", headers=headers)
    assert not_json.status == 400 and (await not_json.json())["error"] == "streaming.bad_offer"
    no_sdp = await client.post(url, json={"type": "offer"}, headers=headers)
    assert (await no_sdp.json())["error"] == "streaming.bad_offer"

    audio_only = RTCPeerConnection()
    audio_only.addTransceiver("audio", direction="recvonly")
    await audio_only.setLocalDescription(await audio_only.createOffer())
    resp = await client.post(url, json={"sdp": audio_only.localDescription.sdp,
                                        "type": "offer"}, headers=headers)
    assert resp.status == 400 and (await resp.json())["error"] == "streaming.bad_offer"
    await audio_only.close()

    vp8_only = RTCPeerConnection()
    t = vp8_only.addTransceiver("video", direction="recvonly")
    t.setCodecPreferences([c for c in RTCRtpSender.getCapabilities("video").codecs
                           if c.mimeType == "video/VP8"])
    await vp8_only.setLocalDescription(await vp8_only.createOffer())
    resp = await client.post(url, json={"sdp": vp8_only.localDescription.sdp,
                                        "type": "offer"}, headers=headers)
    assert resp.status == 400
    assert (await resp.json())["error"] == "streaming.codec_unsupported"
    await vp8_only.close()
    assert service.peers == {} and service.broadcaster.viewers == {}
    assert not service.broadcaster.running  # refused offers do not open the camera


async def test_answer_is_h264_only_with_host_candidates_only(client) -> None:
    pc = RTCPeerConnection()
    pc.addTransceiver("video", direction="recvonly")  # offers VP8 and H.264
    await pc.setLocalDescription(await pc.createOffer())
    assert "VP8" in pc.localDescription.sdp
    resp = await client.post("/video/offer", headers={"Authorization": "Bearer good-a"},
                             json={"sdp": pc.localDescription.sdp, "type": "offer"})
    answer = await resp.json()
    await pc.close()
    assert resp.status == 200 and answer["type"] == "answer"
    codecs = set(re.findall(r"a=rtpmap:\d+ ([\w-]+)/90000", answer["sdp"]))
    assert codecs == {"H264", "rtx"}
    assert "a=sendonly" in answer["sdp"]
    kinds = set(re.findall(r"a=candidate:.* typ (\w+)", answer["sdp"]))
    assert kinds == {"host"}  # no ICE servers configured: no STUN was contacted


async def test_closed_viewer_is_cleaned_up(client, service, receivers) -> None:
    a, b = receivers(), receivers()
    await a.connect(offer_url(client), "good-alice", client.session)
    await b.connect(offer_url(client), "good-bob", client.session)
    await a.wait_frames(3, WAIT)
    await service.wait_viewers(lambda n: n == 2, WAIT)
    await a.close()
    await service.wait_viewers(lambda n: n == 1, WAIT)
    assert [v.player_id for v in service.broadcaster.viewers.values()] == ["bob"]
    frames = b.frames
    await b.wait_frames(frames + 5, WAIT)  # the other viewer is unaffected


async def test_metrics_route(client, service, receivers) -> None:
    unauthorised = await client.get("/video/metrics")
    assert unauthorised.status == 401
    assert (await unauthorised.json())["error"] == "streaming.unauthorized"
    r = receivers()
    await r.connect(offer_url(client), "good-alice", client.session)
    await r.wait_frames(5, WAIT)
    resp = await client.get("/video/metrics", headers={"Authorization": "Bearer good-ops"})
    m = await resp.json()
    assert m["viewers"] == 1 and m["running"] is True and m["error"] is None
    (viewer,) = m["per_viewer"].values()
    assert viewer["player_id"] == "alice" and viewer["frames_sent"] >= 5
    assert viewer["frames_dropped"] == 0 and viewer["queue_cap"] == 8
    assert m["frames_encoded"] >= 5 and m["bitrate_bps"] > 0


async def test_full_stream_refuses_with_a_code(aiohttp_client, receivers) -> None:
    source = PacedSource(TestPattern(1280, 720, 25), 1280, 720, 25)
    service = VideoService(Broadcaster(source, SharedH264Encoder(), 8), max_viewers=1)
    app = web.Application()
    app.add_subapp("/video/", create_streaming_app(service, authorize))
    client = await aiohttp_client(app)
    await receivers().connect(offer_url(client), "good-a", client.session)
    with pytest.raises(OfferRefused) as refused:
        await receivers().connect(offer_url(client), "good-b", client.session)
    assert refused.value.status == 503 and refused.value.code == "streaming.full"


async def test_player_page_and_client_module_are_served(client) -> None:
    page = await client.get("/video/static/player_video.html")
    assert page.status == 200
    html = await page.text()
    assert "<video" in html and "playsinline" in html and "video_client.js" in html
    js = await (await client.get("/video/static/video_client.js")).text()
    assert "export async function startVideo(videoElement, { offerUrl, token" in js
