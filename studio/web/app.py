"""The studio's one aiohttp application: player, dealer and technician APIs, their WebSockets,
and the three pages.

    create_app(studio) -> web.Application

`studio` (studio/web/context.py) carries the tables, clock, store, signer and accounts; the
app builds nothing itself, so the demo runs it on the wall clock and the tests on a
ManualClock. Pages:

    /play?token=...&table=...&lang=it|en   the player client (static/player.html)
    /dealer                                 the dealer console (dealer_console/)
    /technician                             the technicians' page (static/technician.html)
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path

from aiohttp import web
from sqlalchemy.exc import SQLAlchemyError

from dealer_console import routes as dealer_routes
from devices.camera.assets import ASSETS_DIR, BACK_FILE
from studio.cards import CardCodeError, DeckArt, parse_card, scan_file_name
from studio.games import GAMES, game_for
from studio.storage import StorageError
from studio.web import (
    janus_api,
    launch_api,
    lobby,
    metrics_api,
    player_api,
    staff,
    technician_api,
)
from studio.web.context import STUDIO, Studio
from studio.web.errors import WebError
from studio.web.http_errors import header_limit

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
VIDEO_STATIC = Path(__file__).resolve().parents[2] / "streaming" / "static"

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # the player's token is in the page URL
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self' ws: wss:; media-src 'self' blob:; frame-ancestors 'none'"),
}


@web.middleware
async def errors_as_json(request: web.Request, handler):
    """API errors are JSON with a stable code, including the ones aiohttp raises itself."""
    try:
        response = await handler(request)
    except web.HTTPException as e:
        if not request.path.startswith("/api/") or e.status < 400:
            raise
        code = {404: "request.not_found", 405: "request.method_not_allowed",
                413: "request.too_large"}.get(e.status, "request.refused")
        return WebError(e.status, code, e.reason).response()
    except WebError as e:
        return e.response()
    except (SQLAlchemyError, StorageError):
        log.exception("storage failed on %s %s", request.method, request.path)
        if request.path.startswith("/api/"):
            return WebError(503, "server.storage_unavailable",
                            "the studio cannot reach its records right now; try again shortly"
                            ).response()
        raise
    except Exception:
        log.exception("unexpected error on %s %s", request.method, request.path)
        if request.path.startswith("/api/"):
            return WebError(500, "server.internal_error", "something went wrong on our side"
                            ).response()
        raise
    if not isinstance(response, web.WebSocketResponse):
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
    return response


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC_DIR / "index.html")


async def play(request: web.Request) -> web.FileResponse:
    """The player's page: the table's game may bring a page of its own (its package's
    static/page.html); otherwise the live table's page."""
    studio = request.app[STUDIO]
    table_id = request.query.get("table", "")
    private = studio.private.get(table_id)
    game = private.cfg.game if private else (
        studio.tables[table_id].actor.game.name if table_id in studio.tables else None)
    page = game_static(game, game_for(game).page) if game else None
    return web.FileResponse(page if page is not None and page.is_file()
                            else STATIC_DIR / "player.html")


def game_static(game: str, name: str) -> Path | None:
    """A file of a game package's static/ folder (None for an unknown game or a bad name)."""
    module = GAMES.get(game)
    if module is None or not name or "/" in name or name.startswith("."):
        return None
    package = module.rsplit(".", 1)[0]
    folder = Path(importlib.import_module(package).__file__).resolve().parent / "static"
    return folder / name


async def game_file(request: web.Request) -> web.FileResponse:
    path = game_static(request.match_info["game"], request.match_info["name"])
    if path is None or not path.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(path)


async def card_image(request: web.Request) -> web.FileResponse:
    """A card in a table's art (the shipped scans): pages draw cards as the table shows them."""
    try:
        art = DeckArt(request.match_info["art"])
        code = request.match_info["code"]
        path = ASSETS_DIR / art.value / (BACK_FILE if code == "back" else
                                          scan_file_name(parse_card(code), art))
    except (ValueError, CardCodeError):
        raise web.HTTPNotFound() from None
    if not path.is_file():
        raise web.HTTPNotFound()
    response = web.FileResponse(path)
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


async def tables(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    live = [{"id": t.table_id, "name": t.actor.cfg.name, "game": t.actor.game.name,
             "pace": "live", "video": "janus" if t.table_id in studio.janus
             else t.table_id in studio.video}
            for t in studio.tables.values() if not t.actor.private]
    private = [{"id": p.table_id, "name": p.cfg.name, "game": p.cfg.game, "pace": "private",
                "video": False} for p in studio.private.values()]
    return web.json_response({"ok": True, "tables": live + private})


def create_app(studio: Studio) -> web.Application:
    app = web.Application(middlewares=[header_limit, errors_as_json],
                          client_max_size=64 * 1024)
    app[STUDIO] = studio
    app.router.add_get("/", index)
    app.router.add_get("/play", play)
    app.router.add_get("/api/tables", tables)
    app.router.add_static("/static/", STATIC_DIR)
    app.router.add_get("/games/{game}/{name}", game_file)
    app.router.add_get("/cards/{art}/{code}.jpg", card_image)
    player_api.add_routes(app)
    staff.add_routes(app)
    dealer_routes.add_routes(app)
    technician_api.add_routes(app)
    metrics_api.add_routes(app)
    launch_api.add_routes(app)
    lobby.add_routes(app)
    janus_api.add_routes(app)
    app.router.add_static("/video-static/", VIDEO_STATIC)
    for table_id, service in studio.video.items():
        _mount_video(app, studio, table_id, service)
    return app


def _mount_video(app: web.Application, studio: Studio, table_id: str, service) -> None:
    """The table's WebRTC signalling (streaming/), for players with a valid token."""
    from streaming.signalling import create_streaming_app

    def authorize(request: web.Request) -> str | None:
        from studio.web.player_api import player_of

        try:
            return player_of(request, studio).id  # a bearer token, or a launch's cookie
        except WebError:
            return None

    def authorize_staff(request: web.Request) -> str | None:
        """The stream's metrics name every viewer's player id: staff only."""
        from studio.web.staff import COOKIE

        try:
            return studio.signer.staff(request.cookies.get(COOKIE)).id
        except WebError:
            return None

    app.add_subapp(f"/video/{table_id}/", create_streaming_app(service, authorize,
                                                               authorize_staff))
