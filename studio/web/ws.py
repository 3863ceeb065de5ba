"""The WebSocket of a client: the table's state first, then its events.

Server -> client messages:

    {"type": "state", "table": {...}, "balance": {...}?, "session": {...}?}
        first, on every (re)connection, and again after each burst of events (coalesced):
        the client renders the table from it, so a reconnection restores the whole view.
    {"type": "event", "event": {...}}      each table event this client may see, in order
    {"type": "pong"}                       answer to {"type": "ping"}
    {"type": "error", "error": {code, message}}   a message of the client was refused
    {"type": "session_closed", "code", "message"} then the socket closes (4001 replaced,
                                           4002 inactive, 4003 closed, 4008 too slow,
                                           4009 the session opened too many sockets)

Client -> server: {"type": "ping"} and {"type": "resync"} (schemas.WS_MESSAGES). Commands go
over HTTP, where each has its idempotency key and its answer.

The state is taken, and the subscription made, in one synchronous step: no event can fall
between the snapshot and the feed. A client too slow to keep up is dropped (4008) rather
than buffered without end; it reconnects and gets a fresh state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from studio.web.errors import WebError
from studio.web.ratelimit import RateLimiter
from studio.web.schemas import WsResync, parse_ws
from studio.web.sessions import CLOSE_MESSAGES
from studio.web.tables import TableService

log = logging.getLogger(__name__)

MAX_QUEUE = 1000  # messages waiting for one client, whatever put them there
MAX_SOCKETS_PER_SESSION = 3  # a session opening a fourth socket loses its oldest
CLOSE_CODES = {"session.replaced": 4001, "session.inactive": 4002, "session.closed": 4003,
               "ws.too_slow": 4008, "ws.replaced": 4009}
_CLOSE = object()


def origin_allowed(request: web.Request, allowed: list[str]) -> bool:
    """Browsers always send Origin on a WebSocket: it must be this server or a listed one."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    return origin == f"{request.scheme}://{request.host}" or origin in allowed


class Connection:
    """One client's socket: a bounded queue of messages and a sender task."""

    def __init__(self, ws: web.WebSocketResponse, service: TableService, audience: str,
                 state: Callable[[bool], dict[str, Any] | str]) -> None:
        self.ws = ws
        self.service = service
        self.audience = audience
        self._state = state  # state(with_balance) -> the "state" message (or its text)
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.dirty = False
        self.balance_dirty = False
        self.closing: tuple[int, str] | None = None

    def start(self) -> Callable[[], None]:
        """Queue the state and subscribe, in one synchronous step; returns the unsubscribe."""
        self.queue.put_nowait(self._state(True))
        return self.service.subscribe(self.audience, self.deliver, self.deliver_text)

    def deliver(self, event: dict[str, Any]) -> None:
        self.deliver_text(None, event)

    def deliver_text(self, text: str | None, event: dict[str, Any]) -> None:
        """An event, already encoded once for every client that sees it in this form."""
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close("ws.too_slow", "the connection could not keep up; reconnect")
            return
        self.queue.put_nowait(text if text is not None else {"type": "event", "event": event})
        self.dirty = True
        if event.get("player") is not None or event.get("type") in (
                "bet_refunded", "round_voided", "player_settled"):
            self.balance_dirty = True

    def resync(self) -> None:
        self.dirty = self.balance_dirty = True
        self.queue.put_nowait(None)  # wake the sender

    def send_now(self, message: dict[str, Any]) -> None:
        """An answer to the client's own message (pong, error): bounded like the events, so a
        client that sends and never reads is dropped instead of growing the server."""
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close("ws.too_slow", "the connection could not keep up; reconnect")
            return
        self.queue.put_nowait(message)

    def close(self, code: str, message: str | None = None) -> None:
        if self.closing:
            return
        self.closing = (CLOSE_CODES.get(code, 4000), code)
        if code == "ws.too_slow":
            self.service.on_drop()
        self.queue.put_nowait({"type": "session_closed", "code": code,
                               "message": message or CLOSE_MESSAGES.get(code, code)})
        self.queue.put_nowait(_CLOSE)

    async def sender(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is _CLOSE:
                code, reason = self.closing or (4000, "closed")
                await self.ws.close(code=code, message=reason.encode())
                return
            if isinstance(msg, str):
                await self.ws.send_str(msg)  # encoded once for all its readers
            elif msg is not None:
                await self.ws.send_json(msg)
            if self.queue.empty() and self.dirty and not self.closing:
                self.dirty = False
                with_balance, self.balance_dirty = self.balance_dirty, False
                state = self._state(with_balance)
                if isinstance(state, str):
                    await self.ws.send_str(state)  # already encoded (tables.state_text)
                else:
                    await self.ws.send_json(state)


async def serve(request: web.Request, conn: Connection, limiter: RateLimiter,
                on_close: list[Callable[[], None]]) -> web.WebSocketResponse:
    """Run a prepared connection until either side closes it."""
    ws = conn.ws
    unsubscribe = conn.start()
    sender = asyncio.create_task(conn.sender())
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                conn.send_now(WebError(400, "ws.text_only", "send JSON text").body() | {
                    "type": "error"})
                continue
            try:
                limiter.take(f"ws:{conn.audience}")
                parsed = parse_ws(msg.data)
            except WebError as e:
                conn.send_now({"type": "error", "error": e.body()["error"]})
                continue
            if isinstance(parsed, WsResync):
                conn.resync()
            else:
                conn.send_now({"type": "pong", "server_time": conn.service.clock.now()})
    finally:
        unsubscribe()
        for f in on_close:
            f()
        if not sender.done():
            # let a pending session_closed go out before we stop
            if conn.closing:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sender, 1.0)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
    return ws


async def refuse(request: web.Request, error: WebError, close_code: int = 4401
                 ) -> web.WebSocketResponse:
    """Accept the handshake only to say why we close: a browser cannot read a refused
    handshake's HTTP status, but it can read this message."""
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    await ws.send_json({"type": "error", "error": error.body()["error"]})
    await ws.close(code=close_code, message=error.code.encode())
    return ws
