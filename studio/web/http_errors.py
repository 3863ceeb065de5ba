"""Errors aiohttp answers before the application sees the request (a request line or header
too long, a malformed request), in the studio's JSON error shape instead of aiohttp's text.

Headers up to MAX_HEADER are parsed (so they reach the application, which refuses anything over
8 KB with `request.header_too_large`); beyond that aiohttp's parser stops, and this handler
still answers in JSON.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import LineTooLong
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_server import Server

from studio.web.errors import WebError

MAX_HEADER = 8 * 1024  # what the studio accepts in one header or the request line
PARSER_LIMIT = 64 * 1024  # what aiohttp parses before giving up


class JsonErrorHandler(RequestHandler):
    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)  # logs, checks
        if isinstance(exc, LineTooLong):
            error = WebError(431, "request.header_too_large",
                             f"a header or the request line is over {MAX_HEADER} bytes")
        elif status >= 500:
            error = WebError(status, "server.internal_error", "something went wrong on our side")
        else:
            error = WebError(status, "request.malformed", "the HTTP request is malformed")
        out = error.response()
        out.force_close()
        return out if response is not None else response


class JsonErrorServer(Server):
    def __call__(self) -> RequestHandler:
        return JsonErrorHandler(self, loop=self._loop, **self._kwargs)


@web.middleware
async def header_limit(request: web.Request, handler: Any) -> web.StreamResponse:
    """Refuse a header (or the request line) over MAX_HEADER, as JSON."""
    if len(request.raw_path) > MAX_HEADER or any(
            len(k) + len(v) > MAX_HEADER for k, v in request.raw_headers):
        return WebError(431, "request.header_too_large",
                        f"a header or the request line is over {MAX_HEADER} bytes").response()
    return await handler(request)
