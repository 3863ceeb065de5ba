"""WebRTC signalling over HTTP: the player POSTs an SDP offer, gets the answer back.

Mount on the studio's aiohttp app:

    service = VideoService.from_config(cfg, table_id)         # or VideoService(broadcaster)
    app.add_subapp("/video/", create_streaming_app(service, authorize))

`authorize(request)` is supplied by whoever mounts the routes (the web app checks the
player's token); it returns the player id, or None to refuse with 401. Non-trickle ICE: the
answer carries all our candidates, so one round trip sets the call up. No ICE servers unless
configured: nothing outside the studio is contacted by default.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web
from aiortc import (
    RTCConfiguration,
    RTCIceServer,
    RTCPeerConnection,
    RTCRtpSender,
    RTCSessionDescription,
)
from aiortc.exceptions import (
    InternalError,
    InvalidAccessError,
    InvalidStateError,
    OperationError,
)

from streaming.encoder import EncoderSettings, SharedH264Encoder
from streaming.fanout import Broadcaster
from streaming.source import FrameRenderer, FrameSource, source_for_camera
from streaming.track import ViewerTrack
from studio.config import StudioConfig
from studio.web.errors import WebError
from studio.web.schemas import parse_json

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"

Authorize = Callable[[web.Request], "Awaitable[str | None] | str | None"]


class SignallingError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def h264_preferences() -> list:
    """H.264 only (plus its RTX), constrained baseline first: what our encoder produces."""
    codecs = RTCRtpSender.getCapabilities("video").codecs
    h264 = [c for c in codecs if c.mimeType.lower() == "video/h264"]
    h264.sort(key=lambda c: 0 if str(c.parameters.get("profile-level-id", "")).startswith(
        "42e0") else 1)
    rtx = [c for c in codecs if c.mimeType.lower() == "video/rtx"]
    return h264 + rtx


class VideoService:
    """One table's video: the broadcaster plus the peer connections of its viewers."""

    def __init__(self, broadcaster: Broadcaster, ice_servers: list[RTCIceServer] | None = None,
                 max_viewers: int = 500) -> None:
        self.broadcaster = broadcaster
        self.ice_servers = list(ice_servers or [])  # [] - aiortc would default to Google STUN
        self.max_viewers = max_viewers
        self.peers: dict[RTCPeerConnection, str] = {}  # pc -> viewer id
        self.peers_changed = asyncio.Condition()  # notified when a viewer comes or goes

    @classmethod
    def from_config(cls, config: StudioConfig, table_id: str | None = None,
                    sim_renderer: FrameRenderer | None = None,
                    source: FrameSource | None = None) -> VideoService:
        """Build from a StudioConfig: the table's camera (or the test pattern when the table
        has none) and the [streaming] section."""
        streaming = config.streaming
        table = config.table(table_id) if table_id is not None else None
        camera = getattr(getattr(table, "devices", None), "camera", None)
        width, height, fps = (camera.width, camera.height, camera.fps) if camera else (
            1280, 720, 25)
        if source is None:
            spec = camera.source if camera else "testpattern"
            if spec == "sim" and sim_renderer is None:
                sim_renderer = _default_sim_camera(table, fps)
            source = source_for_camera(spec, width, height, fps, sim_renderer=sim_renderer)
        encoder = SharedH264Encoder(EncoderSettings(
            width=width, height=height, fps=fps, bitrate_bps=streaming.bitrate_bps,
            keyframe_interval=streaming.keyframe_interval_frames, preset=streaming.preset))
        ice = [RTCIceServer(urls=s.urls, username=s.username, credential=s.credential)
               for s in streaming.ice_servers]
        return cls(Broadcaster(source, encoder, streaming.viewer_queue_frames), ice,
                   streaming.max_viewers)

    async def answer(self, sdp: str, sdp_type: str, player_id: str) -> RTCSessionDescription:
        """Accept a player's offer and return our answer; on any failure nothing is left
        behind (no peer connection, no viewer)."""
        if sdp_type != "offer":
            raise SignallingError(400, "streaming.bad_offer", "type must be 'offer'")
        if "m=video" not in sdp:
            raise SignallingError(400, "streaming.bad_offer", "the offer has no video section")
        if len(self.broadcaster.viewers) >= self.max_viewers:
            raise SignallingError(503, "streaming.full", "too many viewers on this stream")
        if self.broadcaster.error is not None:
            raise SignallingError(503, "streaming.source_failed", "the table camera is down")
        pc = RTCPeerConnection(RTCConfiguration(iceServers=self.ice_servers))
        track = self.broadcaster.add_viewer(player_id)
        self.peers[pc] = track.viewer_id

        @pc.on("connectionstatechange")
        async def _state() -> None:
            log.info("viewer %s (%s): %s", track.viewer_id, player_id, pc.connectionState)
            if pc.connectionState in ("failed", "closed"):
                await self._drop(pc, track)

        try:
            # preferences before the remote description: that is when aiortc negotiates
            transceiver = pc.addTransceiver(track, direction="sendonly")
            transceiver.setCodecPreferences(h264_preferences())
            try:
                await pc.setRemoteDescription(RTCSessionDescription(sdp=sdp, type="offer"))
            except (ValueError, InternalError, InvalidAccessError, InvalidStateError,
                    OperationError) as e:
                code = ("streaming.codec_unsupported" if "send parameters" in str(e)
                        else "streaming.bad_offer")
                raise SignallingError(400, code, f"offer refused: {e}") from None
            if transceiver.mid is None:
                raise SignallingError(400, "streaming.bad_offer", "no video section to answer")
            await pc.setLocalDescription(await pc.createAnswer())
        except BaseException:
            await self._drop(pc, track)
            raise
        self.broadcaster.start()  # the camera opens for the first accepted viewer
        await self._notify()
        return pc.localDescription

    async def _notify(self) -> None:
        async with self.peers_changed:
            self.peers_changed.notify_all()

    async def wait_viewers(self, predicate: Callable[[int], bool], timeout: float) -> None:
        """Wait until predicate(number of peer connections) holds (timeout: a safety net)."""
        async def holds() -> None:
            async with self.peers_changed:
                await self.peers_changed.wait_for(lambda: predicate(len(self.peers)))

        await asyncio.wait_for(holds(), timeout)

    async def _drop(self, pc: RTCPeerConnection, track: ViewerTrack) -> None:
        if self.peers.pop(pc, None) is None and track.readyState == "ended":
            return  # already dropped (closing the pc fires connectionstatechange again)
        self.broadcaster.remove_viewer(track)
        await pc.close()
        await self._notify()

    async def close(self) -> None:
        for pc in list(self.peers):
            await pc.close()
        self.peers.clear()
        await self.broadcaster.stop()

    def metrics(self) -> dict:
        data = self.broadcaster.snapshot()
        data["peer_connections"] = len(self.peers)
        return data


SERVICE_KEY = web.AppKey("video_service", VideoService)


def _default_sim_camera(table: object, fps: int) -> FrameRenderer | None:
    """An empty simulated table for "sim" when the caller did not hand over the instance the
    table drives (pass that one as `sim_renderer` to see the cards being dealt)."""
    try:
        from devices.camera.sim_camera import SimCamera
    except ImportError:
        return None
    return SimCamera(getattr(table, "deck_art", "napoletane"),
                     positions=getattr(table, "positions", 3), fps=fps)


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


async def _call(authorize: Authorize, request: web.Request) -> str | None:
    result = authorize(request)
    if inspect.isawaitable(result):
        result = await result
    return result


def create_streaming_app(service: VideoService, authorize: Authorize,
                         authorize_metrics: Authorize | None = None) -> web.Application:
    """The signalling sub-application. Routes (relative to where it is mounted):

    POST offer       {sdp, type:"offer"} -> {sdp, type:"answer"}; 401 streaming.unauthorized
    GET  metrics     the stream's metrics as JSON (authorize_metrics, else authorize)
    GET  static/...  player_video.html and video_client.js
    The service is closed when the app shuts down.
    """
    app = web.Application()
    app[SERVICE_KEY] = service

    async def offer(request: web.Request) -> web.Response:
        player_id = await _call(authorize, request)
        if not player_id:
            return _error(401, "streaming.unauthorized", "a valid player token is required")
        try:  # bounded like every other body: size, depth (a body nested thousands deep
            body = parse_json(await request.read())  # would exhaust the parser's recursion)
        except WebError as e:  # not JSON: this endpoint's own code, as before
            if e.code == "request.malformed_json":
                return _error(400, "streaming.bad_offer", "the body must be JSON {sdp, type}")
            return _error(e.status, e.code, e.message)
        if not isinstance(body, dict) or not isinstance(body.get("sdp"), str):
            return _error(400, "streaming.bad_offer", "the body must be JSON {sdp, type}")
        try:
            answer = await service.answer(body["sdp"], str(body.get("type")), player_id)
        except SignallingError as e:
            return _error(e.status, e.code, e.message)
        return web.json_response({"sdp": answer.sdp, "type": answer.type})

    async def metrics(request: web.Request) -> web.Response:
        if not await _call(authorize_metrics or authorize, request):
            return _error(401, "streaming.unauthorized", "not allowed to read stream metrics")
        return web.json_response(service.metrics())

    async def _shutdown(_app: web.Application) -> None:
        await service.close()

    app.router.add_post("/offer", offer)
    app.router.add_get("/metrics", metrics)
    app.router.add_static("/static/", STATIC_DIR)
    app.on_shutdown.append(_shutdown)
    return app
