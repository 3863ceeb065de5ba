"""Players' signalling for the table video when it goes through Janus (streaming/janus.py).

    POST /api/video/{table_id}/watch     {}              -> {ok, id, sdp (Janus's offer)}
    POST /api/video/{table_id}/answer    {id, sdp}       -> {ok}
    POST /api/video/{table_id}/leave     {id}            -> {ok}

A player (bearer token or the launch's cookie) gets an opaque viewer id of the studio's, never
a Janus session or credential; a viewer id is good only for the player it was made for, and
every stream of a player ends with the player's session.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from streaming.janus import JanusError
from studio.web.context import STUDIO
from studio.web.errors import WebError
from studio.web.player_api import player_of
from studio.web.schemas import parse_json

MAX_SDP = 20_000


def _janus(request: web.Request) -> Any:
    studio = request.app[STUDIO]
    video = studio.janus.get(request.match_info["table_id"])
    if video is None:
        raise WebError(404, "streaming.no_video", "this table's video does not go through Janus")
    return video


async def _body(request: web.Request, *keys: str) -> dict[str, str]:
    data = parse_json(await request.read())
    if not isinstance(data, dict) or any(not isinstance(data.get(k), str) or
                                         not 0 < len(data[k]) <= MAX_SDP for k in keys):
        raise WebError(400, "request.invalid", f"the body is {{{', '.join(keys)}}} (text)")
    return data


def _failed(e: JanusError) -> web.Response:
    status = 404 if e.code == "streaming.unknown_viewer" else 502
    return WebError(status, e.code if e.code.startswith("streaming.") else
                    "streaming.sfu_unavailable", e.message if status == 404 else
                    "the video server did not answer; the table plays on").response()


async def watch(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = player_of(request)
        studio.limiter.take(f"player:{who.id}")
        video = _janus(request)
        viewer, sdp = await video.watch(who.id)
    except WebError as e:
        return e.response()
    except JanusError as e:
        return _failed(e)
    return web.json_response({"ok": True, "id": viewer, "sdp": sdp})


async def answer(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = player_of(request)
        studio.limiter.take(f"player:{who.id}")
        video = _janus(request)
        body = await _body(request, "id", "sdp")
        await video.answer(body["id"], who.id, body["sdp"])
    except WebError as e:
        return e.response()
    except JanusError as e:
        return _failed(e)
    return web.json_response({"ok": True})


async def leave(request: web.Request) -> web.Response:
    try:
        who = player_of(request)
        video = _janus(request)
        body = await _body(request, "id")
        await video.leave(body["id"], who.id)
    except WebError as e:
        return e.response()
    except JanusError as e:
        return _failed(e)
    return web.json_response({"ok": True})


def add_routes(app: web.Application) -> None:
    app.router.add_post("/api/video/{table_id}/watch", watch)
    app.router.add_post("/api/video/{table_id}/answer", answer)
    app.router.add_post("/api/video/{table_id}/leave", leave)
