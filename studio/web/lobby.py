"""The lobby: every table a player may open, as it is now, and the player's responsible-
gaming status; the player moves between tables on the same sign-in (the launch's cookie, or
a bearer token).

    GET  /lobby                       the page (static/lobby.html)
    GET  /api/lobby                   {ok, player, balance, limits, tables: [...]}
    GET  /api/player/limits           the player's limits, time played, result, next check
    POST /api/player/reality-check    the player saw the reality check: go on

A table in the lobby: id, name, game, pace (live or private), limits (the main bet's min and
max), players (connected now; a private table: players with an instance open), status
(betting with the seconds left, playing, paused, shuffling, closed), the last results in a
few words, the roads of a baccarat shoe, the dealer on duty, whether it has video.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from studio import ledger
from studio.web.context import STUDIO, Studio
from studio.web.errors import WebError
from studio.web.player_api import player_of
from studio.web.tables import TableService

RESULTS = 8  # last results shown per table


async def page(request: web.Request) -> web.FileResponse:
    from studio.web.app import STATIC_DIR

    return web.FileResponse(STATIC_DIR / "lobby.html")


def _players(service: TableService) -> int:
    return sum(1 for a in service.audiences() if a.startswith("player:"))


def _status(service: TableService, now: float) -> dict[str, Any]:
    actor = service.actor
    rnd = actor.state
    if actor.paused:
        return {"status": "paused"}
    if actor.changing_shoe:
        return {"status": "shuffling"}
    if not actor.running:
        return {"status": "closed"}
    if rnd is not None and rnd.betting:
        return {"status": "betting", "closes_in_s": max(0, round(rnd.closes_at - now))}
    if rnd is not None and not rnd.finished:
        return {"status": "playing"}
    return {"status": "waiting"}


def _live(studio: Studio, service: TableService, now: float) -> dict[str, Any]:
    actor = service.actor
    lim = actor.cfg.limits
    summaries = [h["summary"] for h in actor.history if h.get("summary")][-RESULTS:]
    shoe = actor.snapshot("public").get("shoe")
    return {"id": service.table_id, "name": actor.cfg.name, "game": actor.game.name,
            "pace": "live", "limits": {"min": lim.main_min, "max": lim.main_max},
            "players": _players(service), **_status(service, now),
            "results": [actor.game.result_text(s) for s in reversed(summaries)],
            "roads": {"bead_plate": shoe["bead_plate"][-36:]} if shoe else None,
            "dealer": studio.dealers_on_duty.get(service.table_id),
            "video": service.table_id in studio.video}


def _private(studio: Studio, table_id: str) -> dict[str, Any]:
    tables = studio.private[table_id]
    lim = tables.cfg.limits
    return {"id": table_id, "name": tables.cfg.name, "game": tables.cfg.game,
            "pace": "private", "limits": {"min": lim.main_min, "max": lim.main_max},
            "players": len(tables.instances), "status": "open", "results": [],
            "roads": None, "dealer": None, "video": False}


def _seated(request: web.Request) -> list[dict[str, Any]]:
    """The seated tables (players bank for each other), when this process serves some."""
    from studio.web.seated_api import SEATED

    group = request.app.get(SEATED)
    if group is None:
        return []
    out = []
    for t in group.tables.values():
        cfg = t.cfg
        if getattr(cfg, "kind", "cash") != "cash":
            continue  # a tournament's tables are its own, not the lobby's
        players = t.view().get("players", [])
        out.append({"id": t.table_id, "name": cfg.name, "game": t.game.name, "pace": "seated",
                    "limits": {"min": cfg.min_bet, "max": cfg.buy_in_max},
                    "players": len(players), "seats": cfg.seats,
                    "status": "open" if len(players) < cfg.seats else "full", "results": [],
                    "roads": None, "dealer": None, "video": False,
                    "href": f"/seated?table={t.table_id}"})
    return out


def _holding(studio: Studio, player: str) -> tuple[dict[str, int], int]:
    """The player's balance (the studio's ledger and an operator's wallet), and all of it."""
    with studio.store.reader() as tx:
        b = ledger.balance(tx, player)
    available = b.available + studio.wallets.outside(player)
    return {"available": available, "reserved": b.reserved}, available + b.reserved


async def lobby(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = player_of(request)
    except WebError as e:
        return e.response()
    now = studio.clock.now()
    tables = [_live(studio, t, now) for t in studio.tables.values() if not t.actor.private]
    tables += [_private(studio, table_id) for table_id in studio.private]
    tables += _seated(request)
    balance, holding = _holding(studio, who.id)
    return web.json_response({"ok": True, "player": who.id, "balance": balance,
                              "limits": studio.rg.status(who.id, holding, now),
                              "tables": tables})


async def limits(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = player_of(request)
    except WebError as e:
        return e.response()
    _, holding = _holding(studio, who.id)
    return web.json_response({"ok": True, **studio.rg.status(who.id, holding,
                                                             studio.clock.now())})


async def reality_check(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = player_of(request)
        studio.limiter.take(f"player:{who.id}")
    except WebError as e:
        return e.response()
    _, holding = _holding(studio, who.id)
    return web.json_response({"ok": True, **studio.rg.acknowledge(who.id, holding,
                                                                  studio.clock.now())})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/lobby", page)
    app.router.add_get("/api/lobby", lobby)
    app.router.add_get("/api/player/limits", limits)
    app.router.add_post("/api/player/reality-check", reality_check)
