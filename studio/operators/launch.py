"""A player's launch: the operator's server asks, with a signed request, for a one-time
address; the player's browser opens it once and gets a session cookie instead.

Why one-time codes: a bearer token in an address ends up in the browser's history, in proxy
and server logs, in a Referer header. The code in the launch address is worth nothing once
used (or after `ttl_s`, a minute by default), and the cookie it is exchanged for is HttpOnly,
so no page script, log line or referrer ever holds a credential that outlives the moment.

The codes live in the database (`launch_code`): any web process of the studio can exchange a
code another one issued, and a code is used at most once even when two requests race (the
use is one conditional UPDATE).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Text, update
from sqlmodel import Field, SQLModel

from studio.storage.engine import Store

CODE_BYTES = 24


class LaunchCode(SQLModel, table=True):
    """One launch: whom it signs in, for which operator, where to, and the player's limits.
    Only the code's hash is kept: a database read gives no code to use."""

    __tablename__ = "launch_code"

    code_hash: str = Field(primary_key=True, max_length=64)
    operator: str = Field(max_length=40)
    player_id: str = Field(max_length=64)  # the studio's id (operator-qualified)
    table_id: str | None = Field(default=None, max_length=80)
    lang: str = Field(default="it", max_length=5)
    limits: str = Field(sa_column=Column(Text, nullable=False))  # JSON, see studio.operators.limits
    return_url: str | None = Field(default=None, max_length=500)
    expires_at: float
    used_at: float | None = None


_T = LaunchCode.__table__


def ensure_schema(store: Store) -> None:
    _T.create(store.engine, checkfirst=True)


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode("ascii", "replace")).hexdigest()


@dataclass(frozen=True)
class Launch:
    operator: str
    player_id: str
    table_id: str | None
    lang: str
    limits: dict[str, Any]
    return_url: str | None


def issue(store: Store, launch: Launch, now: float, ttl_s: float) -> tuple[str, float]:
    """A new one-time code for `launch`, and when it expires."""
    code = secrets.token_urlsafe(CODE_BYTES)
    expires = now + ttl_s
    with store.transaction() as tx:
        tx.conn.execute(_T.insert().values(
            code_hash=_hash(code), operator=launch.operator, player_id=launch.player_id,
            table_id=launch.table_id, lang=launch.lang,
            limits=json.dumps(launch.limits, sort_keys=True), return_url=launch.return_url,
            expires_at=expires, used_at=None))
    return code, expires


class LaunchRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def redeem(store: Store, code: str, now: float) -> Launch:
    """The launch behind `code`, marked used; `LaunchRefused` (launch.unknown, launch.used,
    launch.expired) when it cannot be used. Exactly one of two racing requests gets it."""
    if not isinstance(code, str) or not code.isascii() or len(code) > 200:
        raise LaunchRefused("launch.unknown", "this launch address is not valid")
    h = _hash(code)
    with store.transaction() as tx:
        row = tx.conn.execute(_T.select().where(_T.c.code_hash == h)).first()
        if row is None:
            raise LaunchRefused("launch.unknown", "this launch address is not valid")
        if row.used_at is not None:
            raise LaunchRefused("launch.used", "this launch address was already used: "
                                "open the game again from the casino")
        if row.expires_at <= now:
            raise LaunchRefused("launch.expired", "this launch address has expired: open the "
                                "game again from the casino")
        done = tx.conn.execute(update(_T).where(_T.c.code_hash == h, _T.c.used_at.is_(None))
                               .values(used_at=now))
        if done.rowcount != 1:
            raise LaunchRefused("launch.used", "this launch address was already used")
    return Launch(row.operator, row.player_id, row.table_id, row.lang, json.loads(row.limits),
                  row.return_url)
