"""The dealer console's routes: its page, its state, its commands, its WebSocket.

    GET  /dealer                                    the console (dealer_console/static/)
    GET  /api/tables/{table_id}/dealer/state        the dealer's view of the table
    POST /api/tables/{table_id}/dealer              {key, command, reason?, code?}
         command: start | stop | pause (reason) | resume | card (code, manual entry) |
                  void (reason)
    GET  /ws/staff?table=<id>                       state first, then every event the dealer
                                                    may see (studio/web/ws.py)

Only a logged-in dealer may command the table; technicians may watch it. A dealer has no
player token, so a dealer can never bet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp import web

from studio.web import schemas as s
from studio.web import ws as wsmod
from studio.web.context import STUDIO
from studio.web.errors import WebError, answer_response
from studio.web.staff import staff_of

STATIC_DIR = Path(__file__).resolve().parent / "static"


async def page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC_DIR / "dealer.html")


async def state(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        staff_of(request, "dealer", "technician")
        table = studio.table(request.match_info["table_id"])
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "table": table.view("dealer")})


async def command(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = staff_of(request, "dealer")
        table = studio.table(request.match_info["table_id"])
        studio.limiter.take(f"dealer:{who.id}")
        body = s.parse(s.DealerCommand, await request.read())
    except WebError as e:
        return e.response()
    args: dict[str, Any] = {}
    if body.command in ("pause", "void"):
        args["reason"] = body.reason or ""
    if body.command == "card":
        args["code"] = body.code or ""
    if body.command == "confirm":  # settle a shoe/camera disagreement with one of its readings
        if table.attached is None or body.source is None:
            return answer_response({"ok": False, "error": {
                "code": "cross_check.no_dispute", "message": "there is no dispute to settle"}})
        return answer_response(await table.attached.confirm(body.source, who.id, body.key))
    answer = await table.actor.dealer(who.id, body.command, body.key, **args)
    return answer_response(answer)


async def staff_websocket(request: web.Request) -> web.StreamResponse:
    studio = request.app[STUDIO]
    if not wsmod.origin_allowed(request, studio.web.allowed_origins):
        return WebError(403, "ws.origin_forbidden", "connect from the studio's own pages"
                        ).response()
    try:
        who = staff_of(request, "dealer", "technician")
        table = studio.table(request.query.get("table", ""))
    except WebError as e:
        return await wsmod.refuse(request, e)
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    sims = studio.simulators.get(table.table_id)

    def state_message(_with_balance: bool) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "state", "table": table.view("dealer"),
                               "user": who.id, "role": who.kind}
        if who.kind == "technician" and sims is not None:
            msg["simulators"] = sims.info()
        return msg

    conn = wsmod.Connection(ws, table, "dealer", state_message)
    if who.kind != "dealer":
        return await wsmod.serve(request, conn, studio.limiter, [])
    name = studio.accounts.display_name(who.id)
    studio.dealers_on_duty[table.table_id] = name  # the lobby names the dealer at the table

    def off_duty() -> None:
        if studio.dealers_on_duty.get(table.table_id) == name:
            del studio.dealers_on_duty[table.table_id]
    return await wsmod.serve(request, conn, studio.limiter, [off_duty])


def add_routes(app: web.Application) -> None:
    app.router.add_get("/dealer", page)
    app.router.add_static("/dealer/static/", STATIC_DIR)
    app.router.add_get("/api/tables/{table_id}/dealer/state", state)
    app.router.add_post("/api/tables/{table_id}/dealer", command)
    app.router.add_get("/ws/staff", staff_websocket)
