"""Player sessions, as the regulation has them.

- A player joins a table and gets a session; commands and the WebSocket name it.
- A second connection of the same player closes the first (`session.replaced`).
- No game action for `inactivity_s` (20 minutes) closes the session (`session.inactive`).
- A session's end never touches the round: bets stand, missing decisions default to stand
  (the table's decision timer), and the result is in the history.

Timers run on the injected clock, so a test moves 20 minutes in one call.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio.clock import Clock, Timer
from studio.web.errors import WebError

CLOSE_MESSAGES = {
    "session.replaced": "you connected from another window or device: this one is closed",
    "session.inactive": "no game action for 20 minutes: the session is closed",
    "session.closed": "the session is closed",
    "ws.replaced": "this session opened newer connections: this one is closed",
}


@dataclass
class PlayerSession:
    id: str
    player: str
    table_id: str
    opened_at: float
    last_action: float
    closed: str | None = None  # the closing code, once closed
    _listeners: list[Callable[[str], None]] = field(default_factory=list)
    sockets: list[Any] = field(default_factory=list)  # its open WebSockets, oldest first
    _timer: Timer | None = None

    def on_close(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """Call `listener(code)` when the session closes; returns an unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None


class SessionRegistry:
    """The players' sessions of this process. With `key` (the studio's secret), a session id
    is signed: another process of the studio (an edge) that never saw it takes it up
    (`adopt`), so a player's session survives moving to another edge; `on_open` tells the
    other edges, which close their older session of that player (one session per player)."""

    def __init__(self, clock: Clock, inactivity_s: float, key: bytes | None = None) -> None:
        self.clock = clock
        self.inactivity_s = inactivity_s
        self.key = key
        self._current: dict[str, PlayerSession] = {}  # player -> their one open session
        self._closed: dict[str, str] = {}  # session id -> closing code (bounded)
        self.on_open: Callable[[PlayerSession], None] = lambda s: None

    def _sign(self, player: str, table_id: str, nonce: str) -> str:
        assert self.key is not None
        mac = hmac.new(self.key, f"{player}|{table_id}|{nonce}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:12]).decode().rstrip("=")

    def _new_id(self, player: str, table_id: str) -> str:
        nonce = secrets.token_urlsafe(12)
        if self.key is None:
            return nonce
        return f"{nonce}.{table_id}.{self._sign(player, table_id, nonce)}"

    def open(self, player: str, table_id: str) -> PlayerSession:
        s = self._start(player, table_id, self._new_id(player, table_id))
        self.on_open(s)
        return s

    def _start(self, player: str, table_id: str, session_id: str) -> PlayerSession:
        old = self._current.get(player)
        if old is not None:
            self.close(old, "session.replaced")
        now = self.clock.now()
        s = PlayerSession(session_id, player, table_id, now, now)
        self._current[player] = s
        self._arm(s)
        return s

    def get(self, player: str, session_id: str | None) -> PlayerSession:
        """The player's open session with this id, or WebError saying why not."""
        s = self._current.get(player)
        if s is not None and session_id and secrets.compare_digest(s.id, session_id):
            return s
        code = self._closed.get(session_id or "")
        if code is not None:
            raise WebError(409, code, CLOSE_MESSAGES[code])
        adopted = self._adopt(player, session_id)
        if adopted is not None:
            return adopted
        raise WebError(409, "session.unknown", "join the table first")

    def _adopt(self, player: str, session_id: str | None) -> PlayerSession | None:
        """A session another process of the studio opened (its id is signed for this
        player): the player moved here; it goes on here, and the other process is told."""
        if self.key is None or not session_id or session_id.count(".") != 2:
            return None
        nonce, table_id, mac = session_id.split(".")
        if not secrets.compare_digest(mac, self._sign(player, table_id, nonce)):
            return None
        s = self._start(player, table_id, session_id)
        self.on_open(s)
        return s

    def replaced_elsewhere(self, player: str, session_id: str) -> None:
        """Another process opened (or took up) the player's session `session_id`: an older
        one here is replaced, as a second window would replace it."""
        s = self._current.get(player)
        if s is not None and s.id != session_id:
            self.close(s, "session.replaced")

    def current(self, player: str) -> PlayerSession | None:
        return self._current.get(player)

    def touch(self, s: PlayerSession) -> None:
        """A game action: the inactivity countdown starts again."""
        s.last_action = self.clock.now()
        self._arm(s)

    def close(self, s: PlayerSession, code: str = "session.closed") -> None:
        if s.closed:
            return
        s.closed = code
        if s._timer is not None:
            s._timer.cancel()
        if self._current.get(s.player) is s:
            del self._current[s.player]
        self._closed[s.id] = code
        if len(self._closed) > 50_000:
            for k in list(self._closed)[:10_000]:
                del self._closed[k]
        for listener in list(s._listeners):
            listener(code)

    def _arm(self, s: PlayerSession) -> None:
        if s._timer is not None:
            s._timer.cancel()
        due = s.last_action + self.inactivity_s

        def expire() -> None:
            if not s.closed and s.last_action + self.inactivity_s <= self.clock.now():
                self.close(s, "session.inactive")

        s._timer = self.clock.call_at(due, expire, f"session:{s.player}")
