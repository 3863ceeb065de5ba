"""The operator launches a player; the player's browser exchanges the launch for a cookie.

    POST /api/operator/launch    (server to server, signed: docs/operators.md)
         {player_id, table_id?, lang?, limits?, return_url?}
         -> {ok, launch_url, expires_at, player}           (the answer is signed too)
    GET  /launch/{code}          once: sets the HttpOnly session cookie, then 303 to the
                                 table or the lobby; used, expired or unknown: a page that
                                 says so (410/404), with its stable code

The operator's request is signed like its wallet's messages (`studio.wallet.signing`, the
secret both sides share) and names the operator in `X-Operator`. The player's id in the
studio is qualified by the operator ("<operator>.<player>"): two operators' players never
share an account.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from studio import ledger
from studio.operators import launch
from studio.operators.limits import parse_limits
from studio.wallet import signing
from studio.wallet.signing import SignatureError
from studio.web.auth import valid_player_id
from studio.web.context import STUDIO, Studio
from studio.web.errors import WebError
from studio.web.player_api import PLAYER_COOKIE
from studio.web.schemas import parse_json

OPERATOR_HEADER = "X-Operator"
_PLAYER = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


def _signed(studio: Studio, key: bytes, request_signature: str, status: int,
            body: dict[str, Any]) -> web.Response:
    data = json.dumps(body, separators=(",", ":")).encode()
    headers = signing.sign(key, data, now=studio.clock.now, bound_to=request_signature)
    return web.Response(status=status, body=data, content_type="application/json",
                        headers=headers)


def _operator(studio: Studio, request: web.Request, raw: bytes) -> tuple[Any, bytes, str]:
    op_id = request.headers.get(OPERATOR_HEADER, "")
    known = studio.operators.get(op_id)
    if known is None:
        raise WebError(401, "operator.unknown", "no such operator: name it in X-Operator")
    cfg, key = known
    try:
        sig = signing.verify(key, request.headers, raw, now=studio.clock.now)
    except SignatureError as e:
        raise WebError(401, e.code, e.message) from None
    return cfg, key, sig


def _launch_body(studio: Studio, cfg: Any, data: Any) -> launch.Launch:
    if not isinstance(data, dict):
        raise WebError(400, "request.invalid", "the body is a JSON object")
    unknown = set(data) - {"player_id", "table_id", "lang", "limits", "return_url"}
    if unknown:
        raise WebError(400, "request.invalid", f"unknown field {min(unknown)!r}")
    player = data.get("player_id")
    if not isinstance(player, str) or not _PLAYER.fullmatch(player):
        raise WebError(400, "launch.bad_player", "player_id is 1 to 40 letters, digits, '.', "
                       "'_' or '-'")
    studio_id = f"{cfg.id}.{player}"
    if not valid_player_id(studio_id):
        raise WebError(400, "launch.bad_player", "player_id is too long")
    table = data.get("table_id")
    if table is not None and (not isinstance(table, str) or (
            table not in studio.tables and table not in studio.private)):
        raise WebError(404, "table.unknown", "no such table")
    lang = data.get("lang", "it")
    if lang not in ("it", "en"):
        raise WebError(400, "launch.bad_lang", "lang is 'it' or 'en'")
    back = data.get("return_url")
    if back is not None and (not isinstance(back, str) or len(back) > 500
                             or not back.startswith(("https://", "http://"))):
        raise WebError(400, "launch.bad_return_url", "return_url is an http(s) address")
    try:
        limits = parse_limits(data.get("limits"))
    except (ValueError, TypeError) as e:
        raise WebError(400, "launch.bad_limits", str(e)) from None
    return launch.Launch(cfg.id, studio_id, table, lang,
                         {k: v for k, v in vars(limits).items() if v is not None}, back)


async def operator_launch(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    raw = await request.read()
    try:
        cfg, key, sig = _operator(studio, request, raw)
    except WebError as e:
        return e.response()  # not signed: we do not know whom we answer
    try:
        studio.limiter.take(f"operator:{cfg.id}")
        body = _launch_body(studio, cfg, parse_json(raw))
    except WebError as e:
        return _signed(studio, key, sig, e.status, e.body())
    now = studio.clock.now()
    code, expires = launch.issue(studio.store, body, now, cfg.launch_ttl_s)
    url = f"{request.scheme}://{request.host}/launch/{code}"
    return _signed(studio, key, sig, 200, {
        "ok": True, "launch_url": url, "player": body.player_id,
        "expires_at": datetime.fromtimestamp(expires, UTC).isoformat(timespec="seconds")})


def _refusal_page(status: int, code: str, message: str) -> web.Response:
    page = (f"<!doctype html><html lang='en'><meta charset='utf-8'><title>Live studio</title>"
            f"<body style='font-family:system-ui;background:#0d2a1c;color:#f4f1e6;padding:3rem'>"
            f"<h1>The game could not open</h1><p data-code='{html.escape(code)}'>"
            f"{html.escape(message)}</p><p><small>{html.escape(code)}</small></p></body></html>")
    return web.Response(status=status, text=page, content_type="text/html",
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


async def redeem(request: web.Request) -> web.StreamResponse:
    studio = request.app[STUDIO]
    now = studio.clock.now()
    try:
        got = launch.redeem(studio.store, request.match_info["code"], now)
    except launch.LaunchRefused as e:
        return _refusal_page(404 if e.code == "launch.unknown" else 410, e.code, e.message)
    await studio.wallets.refresh(got.player_id)  # an operator's wallet: what it holds now
    with studio.store.reader() as tx:
        b = ledger.balance(tx, got.player_id)
    held = b.available + b.reserved + studio.wallets.outside(got.player_id)
    studio.rg.start(got.player_id, got.operator, parse_limits(got.limits or None), held, now)
    target = f"/play?table={got.table_id}&lang={got.lang}" if got.table_id else \
        f"/lobby?lang={got.lang}"
    response = web.Response(status=303, headers={
        "Location": target, "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer"})  # the code never leaves in a Referer
    token = studio.signer.sign("player", got.player_id, studio.web.player_token_ttl_s,
                               op=got.operator, **({"back": got.return_url}
                                                   if got.return_url else {}))
    response.set_cookie(PLAYER_COOKIE, token, max_age=studio.web.player_token_ttl_s,
                        httponly=True, samesite="Lax", path="/",
                        secure=request.scheme == "https")
    return response


def add_routes(app: web.Application) -> None:
    app.router.add_post("/api/operator/launch", operator_launch)
    app.router.add_get("/launch/{code}", redeem)
