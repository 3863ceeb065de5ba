"""Refusals of the web layer: one exception, one JSON shape, stable codes.

Every refusal the client can cause answers `{"ok": false, "error": {"code", "message"}}` with
an HTTP status, the same shape the table actor uses, so a client reads one format whatever
refused it (the schema, the session, the rate limiter, the table or the ledger).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

# HTTP status for the codes the table and the ledger return (anything else refused: 409).
_STATUS_BY_PREFIX = {
    "request.": 400, "auth.": 401, "session.": 409, "ledger.insufficient_funds": 402,
    "table.storage_unavailable": 503,  # the table's records are out of reach for now
}


class WebError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"ok": False, "error": {"code": self.code, "message": self.message,
                                       **self.extra}}

    def response(self) -> web.Response:
        return web.json_response(self.body(), status=self.status)


def status_for(code: str) -> int:
    for prefix, status in _STATUS_BY_PREFIX.items():
        if code.startswith(prefix):
            return status
    return 409


def answer_response(answer: dict[str, Any]) -> web.Response:
    """A table answer as HTTP: 200 when ok, else the status its code calls for."""
    if answer.get("ok"):
        return web.json_response(answer)
    return web.json_response(answer, status=status_for(answer["error"]["code"]))
