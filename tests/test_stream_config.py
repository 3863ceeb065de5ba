"""The video service built from config/studio.toml: the [streaming] section, the table's
camera (the simulated table camera streamed end to end), ICE servers only when configured."""

from __future__ import annotations

import copy
import tomllib

import numpy as np
import pytest
from aiohttp import web

from devices.camera.sim_camera import SimCamera
from streaming.receiver import VideoReceiver
from streaming.signalling import VideoService, create_streaming_app
from streaming.source import OpenCVCameraSource, PacedSource, TestPattern
from studio.config import DEFAULT_CONFIG, ConfigError, parse_config


@pytest.fixture(scope="module")
def base() -> dict:
    return tomllib.loads(DEFAULT_CONFIG.read_text(encoding="utf-8"))


def with_camera(base: dict, source: str, streaming: dict | None = None):
    data = copy.deepcopy(base)
    data["tables"][0].setdefault("devices", {})["camera"] = {
        "source": source, "width": 1280, "height": 720, "fps": 25}
    if streaming is not None:
        data["streaming"] = streaming
    return parse_config(data)


def test_streaming_section_defaults_contact_no_stun(base) -> None:
    cfg = parse_config(copy.deepcopy(base))
    assert cfg.streaming.ice_servers == []
    assert cfg.streaming.keyframe_interval_frames == 25
    service = VideoService.from_config(cfg)
    assert service.ice_servers == []  # aiortc would otherwise default to a public STUN
    assert isinstance(service.broadcaster.source, PacedSource)
    assert isinstance(service.broadcaster.source.renderer, TestPattern)


def test_streaming_section_configures_encoder_queue_and_ice(base) -> None:
    cfg = with_camera(base, "rtsp://camera.local/table1", {
        "ice_servers": [{"urls": ["turn:turn.studio.local:3478"], "username": "u",
                         "credential": "c"}],
        "bitrate_bps": 1_000_000, "keyframe_interval_frames": 50, "viewer_queue_frames": 4,
        "max_viewers": 7})
    service = VideoService.from_config(cfg, cfg.tables[0].id)
    settings = service.broadcaster.encoder.settings
    assert (settings.bitrate_bps, settings.keyframe_interval) == (1_000_000, 50)
    assert service.broadcaster.queue_frames == 4 and service.max_viewers == 7
    assert [(s.urls, s.username) for s in service.ice_servers] == [
        (["turn:turn.studio.local:3478"], "u")]
    source = service.broadcaster.source
    assert isinstance(source, OpenCVCameraSource)
    assert source.spec == "rtsp://camera.local/table1"


def test_bad_streaming_section_names_the_key(base) -> None:
    data = copy.deepcopy(base)
    data["streaming"] = {"bitrate_bps": 10}
    with pytest.raises(ConfigError, match=r"streaming\.bitrate_bps"):
        parse_config(data)


async def test_simulated_table_camera_streams_end_to_end(base, aiohttp_client) -> None:
    cfg = with_camera(base, "sim")
    camera = SimCamera(cfg.tables[0].deck_art, positions=3, seed=3)
    camera.place_card("Kd", 2)
    service = VideoService.from_config(cfg, cfg.tables[0].id, sim_renderer=camera)
    assert service.broadcaster.source.renderer is camera
    app = web.Application()
    app.add_subapp("/video/", create_streaming_app(service, lambda request: "alice"))
    client = await aiohttp_client(app)
    pictures: list[np.ndarray] = []
    receiver = VideoReceiver(on_frame=lambda frame, index, now: pictures.append(
        frame.to_ndarray(format="bgr24")) if len(pictures) < 8 else None)
    try:
        await receiver.connect(str(client.make_url("/video/offer")), None, client.session)
        await receiver.wait_frames(8, 20)
    finally:
        await receiver.close()
    assert receiver.sizes == {(1280, 720)}
    expected = camera.frame(0.0).astype(np.float64)  # same scene; only noise and flicker vary
    mse = float(np.mean((pictures[-1].astype(np.float64) - expected) ** 2))
    psnr = 10 * np.log10(255**2 / mse)
    assert psnr > 28, psnr  # about 34 dB; the same table without the card is about 21
