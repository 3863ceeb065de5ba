"""The studio's HTTP access log: the path, never the query string.

A player's WebSocket and the launch URL carry the operator's token in the query string (a
browser cannot set headers on a WebSocket); aiohttp's default access line logs the whole
request line, which would write every player's token into the logs."""

from __future__ import annotations

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger


class PathOnlyAccessLogger(AbstractAccessLogger):
    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info('%s "%s %s" %s %.1f ms', request.remote, request.method,
                         logged_path(request.path), response.status, time * 1000)


def logged_path(path: str) -> str:
    """The path as logged: a launch address's one-time code is never written down."""
    return "/launch/…" if path.startswith("/launch/") else path
