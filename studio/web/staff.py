"""Dealers and technicians: login, logout, and the checks their routes share.

    POST /api/staff/login   {username, password}  -> sets the HttpOnly session cookie
    POST /api/staff/logout
    GET  /api/staff/me

The session is a signed, expiring token in a SameSite=Strict, HttpOnly cookie; every staff
POST must also come from an allowed Origin, so another site cannot drive the table through a
logged-in dealer's browser.
"""

from __future__ import annotations

from aiohttp import web

from studio.web import schemas as s
from studio.web.auth import Identity
from studio.web.context import STUDIO
from studio.web.errors import WebError

COOKIE = "studio_staff"


def staff_of(request: web.Request, *roles: str) -> Identity:
    """The logged-in staff member, if their role is one of `roles`; else WebError."""
    studio = request.app[STUDIO]
    who = studio.signer.staff(request.cookies.get(COOKIE))
    if roles and who.kind not in roles:
        raise WebError(403, "auth.forbidden", f"a {' or '.join(roles)} may do this, "
                       f"not a {who.kind}")
    same_site_only(request, studio.web.allowed_origins)
    return who


def same_site_only(request: web.Request, allowed_origins: list[str]) -> None:
    """A change asked with a cookie must come from the studio's own pages (a cookie goes
    with any site's request: this refuses another site's form or script)."""
    if request.method == "GET":
        return
    origin = request.headers.get("Origin")
    own = f"{request.scheme}://{request.host}"
    if origin is not None and origin != own and origin not in allowed_origins:
        raise WebError(403, "auth.origin_forbidden", "request from another site")


async def login(request: web.Request) -> web.Response:
    studio = request.app[STUDIO]
    try:
        studio.limiter.take(f"login:{request.remote}")
        body = s.parse(s.LoginRequest, await request.read())
        who = studio.accounts.login(body.username, body.password)
    except WebError as e:
        return e.response()
    token = studio.signer.staff_token(who.id, who.kind, studio.web.staff_session_ttl_s)
    response = web.json_response({"ok": True, "user": who.id, "role": who.kind})
    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/",
                        max_age=studio.web.staff_session_ttl_s)
    return response


async def logout(request: web.Request) -> web.Response:
    response = web.json_response({"ok": True})
    response.del_cookie(COOKIE, path="/")
    return response


async def me(request: web.Request) -> web.Response:
    try:
        who = staff_of(request)
    except WebError as e:
        return e.response()
    return web.json_response({"ok": True, "user": who.id, "role": who.kind,
                              "tables": sorted(request.app[STUDIO].tables)})


def add_routes(app: web.Application) -> None:
    app.router.add_post("/api/staff/login", login)
    app.router.add_post("/api/staff/logout", logout)
    app.router.add_get("/api/staff/me", me)
