"""The WebSocket of a client: the table's state first, then its events.

Server -> client messages:

    {"type": "state", "table": {...}, "balance": {...}?, "session": {...}?}
        first, on every (re)connection, with the session and the balance; again after each
        burst of events that changed the table as this player sees it (coalesced; the balance
        when it may have changed): the client renders the table from it, so a reconnection
        restores the whole view.
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
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from studio import timeline
from studio.web.errors import WebError
from studio.web.frames import Outgoing
from studio.web.ratelimit import RateLimiter
from studio.web.schemas import WsResync, parse_ws
from studio.web.sessions import CLOSE_MESSAGES
from studio.web.tables import TableService

log = logging.getLogger(__name__)

MAX_QUEUE = 1000  # messages waiting for one client, whatever put them there
# unsent bytes in one client's socket (past the kernel's buffers) before it is dropped: a few
# hundred states, seconds of a round; a reader that far behind reconnects to a fresh state
MAX_WRITE_BUFFER = 1 << 20
MAX_SOCKETS_PER_SESSION = 3  # a session opening a fourth socket loses its oldest
CLOSE_CODES = {"session.replaced": 4001, "session.inactive": 4002, "session.closed": 4003,
               "ws.too_slow": 4008, "ws.replaced": 4009}
_CLOSE = object()


_BALANCE_EVENTS = frozenset(("bet_refunded", "round_voided", "player_settled"))
_LAST_EVENT: list[Any] = [None, False]  # (the last event asked, its answer): one per fan-out


def touches_balance(event: dict[str, Any]) -> bool:
    """Whether a player's balance may have changed with `event` (then the state carries it).
    Asked for every player an event reaches: answered once per event."""
    last = _LAST_EVENT
    if last[0] is event:
        return last[1]
    touched = event.get("player") is not None or event.get("type") in _BALANCE_EVENTS
    last[0], last[1] = event, touched
    return touched


def origin_allowed(request: web.Request, allowed: list[str]) -> bool:
    """Browsers always send Origin on a WebSocket: it must be this server or a listed one."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    return origin == f"{request.scheme}://{request.host}" or origin in allowed


class Connection:
    """One client's socket: a bounded queue of messages and a sender task.

    With `transport` (a socket that takes frames as they are: no permessage-deflate), a
    message shared by many clients is written straight to the socket when nothing waits
    before it, in the fan-out's own loop, without waking this client's task; otherwise it
    waits in the queue, in order. A client whose socket holds more than `max_buffer` unsent
    bytes, or whose queue more than MAX_QUEUE messages, is dropped (4008): the server never
    buffers without end for one slow reader, and the others are not held up."""

    def __init__(self, ws: web.WebSocketResponse, service: TableService, audience: str,
                 state: Callable[[bool], dict[str, Any] | str], *,
                 transport: asyncio.Transport | None = None, shared_state: bool = False,
                 max_buffer: int = MAX_WRITE_BUFFER) -> None:
        self.ws = ws
        self.service = service
        self.audience = audience
        self._state = state  # state(with_balance) -> the "state" message (or its text)
        # after a burst, the state as `service.shared_state` makes it (no session, no
        # balance: both come when they change) rather than `state`
        self._shared_state = shared_state
        self.transport = transport
        self.max_buffer = max_buffer
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        # the queue's own deque: `not self._waiting` is `queue.empty()` without a method call
        # (asked for every player of every event)
        self._waiting = self.queue._queue  # type: ignore[attr-defined]
        self.dirty = False
        self.balance_dirty = False
        self.closing: tuple[int, str] | None = None
        self._last_state: Outgoing | None = None  # the shared state this client has
        self.written = 0  # frames written straight to the socket (tests, metrics)
        # frames taken in this burst, written in one go when the burst is out (`flush`): a
        # card's events and the state after it are one write, not three or four
        self.outbox: list[Outgoing] = []

    def start(self) -> Callable[[], None]:
        """Queue the state and subscribe, in one synchronous step; returns the unsubscribe."""
        self.queue.put_nowait(self._state(True))
        return self.service.subscribe(self.audience, self.deliver, self.deliver_text)

    def deliver(self, event: dict[str, Any]) -> None:
        self._take({"type": "event", "event": event}, event)

    def deliver_text(self, out: Outgoing, event: dict[str, Any]) -> None:
        """An event, already encoded (and framed) once for every client that sees it. Once a
        burst's first frame is in the outbox (the socket took it, nothing waits: `_put`) and
        its state is owed, the burst's later frames join it with no more checks; its first
        frame, when its state is not owed yet, is `_take` in line (one call a player less)."""
        outbox = self.outbox
        if outbox:
            if self.dirty:  # (an outbox is only ever filled while nothing waits)
                outbox.append(out)
                if not self.balance_dirty and touches_balance(event):
                    self.balance_dirty = True
                return
        elif not self.dirty and not self._waiting and not self.closing:
            transport = self.transport
            if transport is not None and not transport.is_closing() and \
                    transport.get_write_buffer_size() <= self.max_buffer:
                # a burst's first frame, the socket fine: `_take` and `_put`, in line; no
                # `flush_due`: the state owed writes it (`send_state`), or the sender does
                outbox.append(out)
                self.dirty = True
                self.service.state_due(self.send_state, self.audience)
                if not self.balance_dirty and touches_balance(event):
                    self.balance_dirty = True
                return
        self._take(out, event)

    def _take(self, message: Any, event: dict[str, Any]) -> None:
        if self.closing or not self._put(message):
            return
        if not self.dirty:
            self.dirty = True
            self.service.state_due(self.send_state, self.audience)
        if not self.balance_dirty and touches_balance(event):
            self.balance_dirty = True

    def _put(self, message: Any) -> bool:
        """Into the outbox if nothing waits before it and the socket takes it (written with
        the rest of the burst, `flush`), else queued; False: the client was dropped instead."""
        transport = self.transport
        if transport is not None and isinstance(message, Outgoing) and not self._waiting:
            if self.outbox:  # the burst's first frame found the socket fine: so soon, it is
                self.outbox.append(message)
                return True
            if transport.is_closing():
                return False  # gone: the reader's end closes the connection
            if transport.get_write_buffer_size() > self.max_buffer:
                self.close("ws.too_slow", "the connection could not keep up; reconnect")
                return False
            self.service.flush_due(self, self.audience)
            self.outbox.append(message)
            return True
        if self.queue.qsize() >= MAX_QUEUE:
            self.close("ws.too_slow", "the connection could not keep up; reconnect")
            return False
        self.flush()  # what the burst wrote so far goes first
        self.queue.put_nowait(message)
        return True

    def flush(self, joined: dict[Any, Any] | None = None) -> None:
        """The outbox in one write. `joined`: the bytes of outboxes written in this pass, by
        their frames: players who got the same burst share one join."""
        out = self.outbox
        if not out:
            return
        self.outbox = []
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if len(out) == 1:
            data = out[0].frame
        elif joined is None:
            data = b"".join([o.frame for o in out])
        else:
            key = tuple(out)  # the frames themselves (hashed by identity), kept alive by it
            data = joined.get(key)
            if data is None:
                data = joined[key] = b"".join([o.frame for o in out])
        transport.write(data)
        self.written += len(out)
        if timeline.WROTE is not None:  # the benchmark's timeline
            timeline.WROTE()

    def send_state(self) -> None:
        """The state after a burst, once its events are out: written now, with the burst's
        events, if the socket takes frames and nothing waits (the first players' write does
        not wait for the last players' states); else the sender sends it when its queue
        drains."""
        if self.closing or not self.dirty or self.transport is None or self._waiting:
            return
        if self._shared_state and not self.balance_dirty:  # `_next_state`'s common case
            self.dirty = False
            state: Any = self.service.shared_state(self.audience)
            if state is self._last_state:
                state = None  # neither the table nor the player's part changed
            else:
                self._last_state = state
        else:
            state = self._next_state()
        if state is not None:
            if not isinstance(state, Outgoing):
                state = Outgoing(state if isinstance(state, str) else json.dumps(state))
            if self.outbox:  # the burst's frames went in: the state joins them (`_put`)
                self.outbox.append(state)
            else:
                self._put(state)
        self.flush(self.service.joined)

    def _next_state(self) -> Outgoing | dict[str, Any] | str | None:
        """The state owed, or None if this client has it already."""
        self.dirty = False
        if self._shared_state and not self.balance_dirty:
            out = self.service.shared_state(self.audience)
            if out is self._last_state:
                return None  # neither the table nor the player's part changed
            self._last_state = out
            return out
        self._last_state = None
        with_balance, self.balance_dirty = self.balance_dirty, False
        return self._state(with_balance)

    def resync(self) -> None:
        self.dirty = self.balance_dirty = True
        self.flush()
        self.queue.put_nowait(None)  # wake the sender

    def send_now(self, message: dict[str, Any]) -> None:
        """An answer to the client's own message (pong, error): bounded like the events, so a
        client that sends and never reads is dropped instead of growing the server."""
        if self.closing:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close("ws.too_slow", "the connection could not keep up; reconnect")
            return
        self.flush()
        self.queue.put_nowait(message)

    def close(self, code: str, message: str | None = None) -> None:
        if self.closing:
            return
        self.closing = (CLOSE_CODES.get(code, 4000), code)
        if code == "ws.too_slow":
            self.service.on_drop()
            self.outbox = []  # it reads nothing: nothing more is written to it
        else:
            self.flush()
        self.queue.put_nowait({"type": "session_closed", "code": code,
                               "message": message or CLOSE_MESSAGES.get(code, code)})
        self.queue.put_nowait(_CLOSE)

    async def _send(self, msg: Any) -> None:
        if isinstance(msg, Outgoing):
            await self.ws.send_str(msg.text)  # encoded once for all its readers
        elif isinstance(msg, str):
            await self.ws.send_str(msg)
        elif msg is not None:
            await self.ws.send_json(msg)

    async def sender(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is _CLOSE:
                transport = self.transport
                if transport is not None and transport.get_write_buffer_size() > \
                        self.max_buffer:  # it reads nothing: no goodbye, its buffer freed now
                    transport.abort()
                    return
                code, reason = self.closing or (4000, "closed")
                await self.ws.close(code=code, message=reason.encode())
                return
            await self._send(msg)
            await self._state_owed()

    async def _state_owed(self) -> None:
        """After each message the sender wrote: the state owed, if nothing else waits; before
        it, the frames of a burst that came while it wrote (the state is after them)."""
        if self.queue.empty() and self.dirty and not self.closing:
            self.flush()
            await self._send(self._next_state())


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
