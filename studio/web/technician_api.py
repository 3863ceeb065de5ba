"""The technicians' API: the devices' health, and driving the simulated devices.

    GET  /technician                             the page (static/technician.html)
    GET  /api/tables/{table_id}/devices          health, counters, what the simulators did
    POST /api/tables/{table_id}/sim              {device, action, arg?}  (schemas.SimCommand)

Only technicians drive simulators (`auth.forbidden` for anyone else). Nothing here tells the
order of the cards in the shoe.
"""

from __future__ import annotations

from aiohttp import web

from studio.web import schemas as s
from studio.web.context import STUDIO
from studio.web.errors import WebError
from studio.web.staff import staff_of


async def page(request: web.Request) -> web.FileResponse:
    from studio.web.app import STATIC_DIR

    return web.FileResponse(STATIC_DIR / "technician.html")


async def devices(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        staff_of(request, "technician")
        table = studio.table(request.match_info["table_id"])
    except WebError as e:
        return e.response()
    sims = studio.simulators.get(table.table_id)
    return web.json_response({"ok": True, "devices": table.view("dealer")["devices"],
                              "simulators": sims.info() if sims else None})


async def simulate(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        who = staff_of(request, "technician")
        table = studio.table(request.match_info["table_id"])
        studio.limiter.take(f"technician:{who.id}")
        body = s.parse(s.SimCommand, await request.read())
        sims = studio.simulators.get(table.table_id)
        if sims is None:
            raise WebError(404, "sim.none", "this table runs on real devices")
        done = await sims.command(body.device, body.action, body.arg)
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "done": done, "simulators": sims.info()})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/technician", page)
    app.router.add_get("/api/tables/{table_id}/devices", devices)
    app.router.add_post("/api/tables/{table_id}/sim", simulate)
