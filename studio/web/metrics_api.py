"""The studio's figures: `/metrics` for Prometheus, and one table's at a glance for the
technicians' page.

    GET /metrics                               Prometheus text (a technician's or dealer's
                                               session, or `Authorization: Bearer` with the
                                               scrape token from STUDIO_METRICS_TOKEN)
    GET /api/tables/{table_id}/metrics         {ok, metrics: {...}} for technicians

The figures name tables and games, never players; still, they are the studio's business, not
the players' (auth.forbidden for a player token).
"""

from __future__ import annotations

import hmac
import os

from aiohttp import web

from studio.metrics import CONTENT_TYPE
from studio.web.context import STUDIO
from studio.web.errors import WebError
from studio.web.staff import staff_of

TOKEN_ENV = "STUDIO_METRICS_TOKEN"


def _scraper(request: web.Request) -> bool:
    """A Prometheus server with the scrape token."""
    token = os.environ.get(TOKEN_ENV, "")
    header = request.headers.get("Authorization", "")
    given = header[7:].strip() if header.startswith("Bearer ") else ""
    return len(token) >= 16 and hmac.compare_digest(given.encode(), token.encode())


async def metrics(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    if not _scraper(request):
        try:
            staff_of(request, "technician", "dealer")
        except WebError as e:
            return e.response()
    return web.Response(body=studio.metrics.exposition(),
                        headers={"Content-Type": CONTENT_TYPE})


async def table_metrics(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        staff_of(request, "technician")
        table = studio.table(request.match_info["table_id"])
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "metrics": studio.metrics.summary(table.table_id)})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/metrics", metrics)
    app.router.add_get("/api/tables/{table_id}/metrics", table_metrics)
