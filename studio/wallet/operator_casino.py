"""The simulated operator's casino site: what a real operator's web site does for the studio.
Its players pick a table (or the lobby) and press Play; the site's server asks the studio
for a launch address with a signed request (docs/operators.md) and sends the browser there.

    GET /casino                               the players, their balances, the Play links
    GET /casino/play?player=ID[&table=T][&lang=it|en][&reality_check_s=N][&loss_limit_cents=N]
                                              -> 303 to the studio's one-time launch address

The limits in the query are the casino's responsible-gaming settings for the player (a real
operator keeps them in its own records); the studio enforces them.
"""

from __future__ import annotations

import html
import json
from typing import Any

import aiohttp
from aiohttp import web

from studio.wallet import signing

LIMIT_KEYS = ("loss_limit_cents", "stake_limit_cents", "session_time_limit_s",
              "reality_check_s")


class Casino:
    """The site of `operator_id`, launching into the studio at `studio_url`."""

    def __init__(self, operator_id: str, studio_url: str, key: bytes,
                 accounts: dict[str, int], now: signing.Now) -> None:
        self.operator_id = operator_id
        self.studio_url = studio_url.rstrip("/")
        self.key = key
        self.accounts = accounts
        self.now = now

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/casino", self.page)
        app.router.add_get("/casino/play", self.play)

    async def page(self, request: web.Request) -> web.Response:
        rows = "".join(
            f"<li data-player='{html.escape(p)}'>{html.escape(p)}: €{c / 100:,.2f} "
            f"<a href='/casino/play?player={html.escape(p)}' data-testid='play-{html.escape(p)}'"
            f">Play</a></li>" for p, c in sorted(self.accounts.items()))
        return web.Response(text=f"<!doctype html><html><meta charset='utf-8'><title>Casino"
                                 f"</title><body><h1>Casino {html.escape(self.operator_id)}"
                                 f"</h1><ul>{rows}</ul></body></html>",
                            content_type="text/html")

    async def play(self, request: web.Request) -> web.Response:
        q = request.query
        player = q.get("player", "")
        if player not in self.accounts:
            return web.json_response({"ok": False, "error": {
                "code": "casino.unknown_player", "message": "no such player here"}}, status=404)
        body: dict[str, Any] = {"player_id": player, "lang": q.get("lang", "it")}
        if q.get("table"):
            body["table_id"] = q["table"]
        limits = {k: int(q[k]) for k in LIMIT_KEYS if q.get(k, "").isdigit()}
        if limits:
            body["limits"] = limits
        answer, status = await self._launch(body)
        if status != 200 or not answer.get("ok"):
            return web.json_response(answer, status=502 if status >= 500 else status)
        return web.Response(status=303, headers={"Location": answer["launch_url"],
                                                 "Referrer-Policy": "no-referrer"})

    async def _launch(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        raw = json.dumps(body).encode()
        headers = {"X-Operator": self.operator_id, "Content-Type": "application/json",
                   **signing.sign(self.key, raw, now=self.now)}
        async with aiohttp.ClientSession() as s, s.post(
                f"{self.studio_url}/api/operator/launch", data=raw, headers=headers,
                timeout=aiohttp.ClientTimeout(total=10)) as r:
            data = await r.read()
            if r.status != 401:  # a known operator's answer is signed: check it
                signing.verify(self.key, r.headers, data, now=self.now,
                               bound_to=headers[signing.SIGNATURE_HEADER])
            return json.loads(data), r.status
