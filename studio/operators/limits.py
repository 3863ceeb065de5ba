"""Responsible gaming: the limits an operator sets for a player at launch, enforced by the
studio on every bet, server side (a page can be bypassed; the table cannot).

- `stake_limit_cents`: the most the player may stake in this session (every bet counted);
- `loss_limit_cents`: the most the player may lose in this session: a bet is refused if
  losing it would take the session's net loss past the limit (what is in play counts as lost);
- `session_time_limit_s`: after this long since the launch, no more bets;
- `reality_check_s`: every so often the player is shown the time played and the net result
  and must acknowledge it before the next bet.

A session starts at each launch (the operator's limits may change between launches). The
limits and the session's stake so far are kept in the database (`player_limits`), so a restart
forgets nothing; players without limits cost nothing (no row, no write).

Decisions that add money to a bet already placed (a double, a split, insurance) are checked
against the session's time and its reality check, not against the amounts: the table names
their amount only as it adds them.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import BigInteger, Column
from sqlmodel import Field, SQLModel

from studio.storage.engine import Store

KEYS = ("loss_limit_cents", "stake_limit_cents", "session_time_limit_s", "reality_check_s")
MAX_LIMIT = 10**12


class LimitsRefused(Exception):
    """A limit stops this bet; `code` is stable (rg.*), `details` tells the page why."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


@dataclass(frozen=True)
class Limits:
    loss_limit_cents: int | None = None
    stake_limit_cents: int | None = None
    session_time_limit_s: int | None = None
    reality_check_s: int | None = None

    @property
    def any(self) -> bool:
        return any(getattr(self, k) is not None for k in KEYS)


def parse_limits(data: Any) -> Limits:
    """The operator's limits (a JSON object, every key optional, positive whole numbers);
    ValueError (TypeError: not an object) naming what is wrong."""
    if data is None:
        return Limits()
    if not isinstance(data, dict):
        raise TypeError("limits is an object")
    unknown = set(data) - set(KEYS)
    if unknown:
        raise ValueError(f"no limit called {min(unknown)!r}")
    for k, v in data.items():
        if v is not None and (type(v) is not int or not 0 < v <= MAX_LIMIT):
            raise ValueError(f"{k} is a positive whole number")
    return Limits(**data)


class PlayerLimits(SQLModel, table=True):
    __tablename__ = "player_limits"

    player_id: str = Field(primary_key=True, max_length=64)
    operator: str = Field(max_length=40)
    loss_limit_cents: int | None = Field(default=None, sa_column=Column(BigInteger))
    stake_limit_cents: int | None = Field(default=None, sa_column=Column(BigInteger))
    session_time_limit_s: int | None = None
    reality_check_s: int | None = None
    started_at: float
    start_balance: int = Field(sa_column=Column(BigInteger, nullable=False))
    staked: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    checked_at: float  # the session's start, or the last reality check acknowledged


_T = PlayerLimits.__table__


@dataclass(frozen=True)
class Session:
    player_id: str
    limits: Limits
    started_at: float
    start_balance: int
    staked: int
    checked_at: float

    def net(self, holding: int) -> int:
        """The session's result so far: what the player holds (available and in play) less
        what they held at the launch."""
        return holding - self.start_balance


class ResponsibleGaming:
    def __init__(self, store: Store) -> None:
        self.store = store
        _T.create(store.engine, checkfirst=True)
        self._cache: dict[str, Session | None] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, player: str) -> contextlib.AbstractAsyncContextManager[Any]:
        """Held around check, bet and record: a player's bets on two tables at once are
        checked one after the other (a player without limits takes no lock)."""
        if self.session(player) is None:
            return contextlib.nullcontext()
        return self._locks.setdefault(player, asyncio.Lock())

    def start(self, player: str, operator: str, limits: Limits, holding: int,
              now: float) -> None:
        """A launch: the player's session starts now with these limits (none: no row)."""
        with self.store.transaction() as tx:
            tx.conn.execute(_T.delete().where(_T.c.player_id == player))
            if limits.any:
                tx.conn.execute(_T.insert().values(
                    player_id=player, operator=operator, started_at=now, start_balance=holding,
                    staked=0, checked_at=now, **{k: getattr(limits, k) for k in KEYS}))
        self._cache[player] = (Session(player, limits, now, holding, 0, now) if limits.any
                               else None)

    def session(self, player: str) -> Session | None:
        if player not in self._cache:
            with self.store.reader() as tx:
                r = tx.conn.execute(_T.select().where(_T.c.player_id == player)).first()
            self._cache[player] = None if r is None else Session(
                player, Limits(**{k: getattr(r, k) for k in KEYS}), r.started_at,
                int(r.start_balance), int(r.staked), r.checked_at)
        return self._cache[player]

    def check(self, player: str, stake: int | None, available: int, reserved: int,
              now: float) -> None:
        """Whether the player may stake `stake` now (None: a decision, amount unknown), with
        `available` and `reserved` (in play). LimitsRefused with the reason if not."""
        holding = available + reserved
        s = self.session(player)
        if s is None:
            return
        lim, played = s.limits, now - s.started_at
        facts = {"played_s": int(played), "net_cents": s.net(holding), "staked_cents": s.staked}
        if lim.session_time_limit_s is not None and played >= lim.session_time_limit_s:
            raise LimitsRefused("rg.session_time_limit", "your session time limit is reached: "
                                "no more bets in this session", **facts)
        if lim.reality_check_s is not None and now - s.checked_at >= lim.reality_check_s:
            raise LimitsRefused("rg.reality_check_due", "time for a reality check: see how "
                                "long you have played and your result, then go on", **facts)
        if stake is None:
            return
        if lim.stake_limit_cents is not None and s.staked + stake > lim.stake_limit_cents:
            raise LimitsRefused("rg.stake_limit", "this bet would pass your stake limit for "
                                "this session", limit_cents=lim.stake_limit_cents, **facts)
        worst = available - stake - s.start_balance  # every bet in play lost, and this one
        if lim.loss_limit_cents is not None and -worst > lim.loss_limit_cents:
            raise LimitsRefused("rg.loss_limit", "losing this bet would pass your loss limit "
                                "for this session", limit_cents=lim.loss_limit_cents, **facts)

    def record(self, player: str, stake: int) -> None:
        """A bet the table accepted counts towards the session's stake."""
        s = self.session(player)
        if s is None or stake <= 0:
            return
        with self.store.transaction() as tx:
            tx.conn.execute(_T.update().where(_T.c.player_id == player)
                            .values(staked=_T.c.staked + stake))
        self._cache[player] = replace(s, staked=s.staked + stake)

    def acknowledge(self, player: str, holding: int, now: float) -> dict[str, Any]:
        """The player saw the reality check: the next one is due a period from now."""
        s = self.session(player)
        if s is None:
            return {"limits": None}
        with self.store.transaction() as tx:
            tx.conn.execute(_T.update().where(_T.c.player_id == player).values(checked_at=now))
        self._cache[player] = s = replace(s, checked_at=now)
        return self.status(player, holding, now)

    def status(self, player: str, holding: int, now: float) -> dict[str, Any]:
        """What the page shows: the limits, the time played, the result, the stake so far,
        and when the next reality check is due."""
        s = self.session(player)
        if s is None:
            return {"limits": None}
        lim = s.limits
        return {"limits": {k: getattr(lim, k) for k in KEYS}, "played_s": int(now - s.started_at),
                "net_cents": s.net(holding), "staked_cents": s.staked,
                "reality_check_in_s": None if lim.reality_check_s is None else
                max(0, int(s.checked_at + lim.reality_check_s - now))}
