"""Everything the web application serves, in one object handed to `create_app`.

Built by `studio demo` for the running studio and by the tests (with a ManualClock), so the
routes never construct tables, clocks or devices themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from studio.clock import Clock
from studio.config import WebSection
from studio.storage import Store
from studio.web.auth import Accounts, TokenSigner
from studio.web.errors import WebError
from studio.web.ratelimit import RateLimiter
from studio.web.sessions import SessionRegistry
from studio.web.tables import TableService

if TYPE_CHECKING:
    from studio.web.simulators import SimulatedDevices


@dataclass
class Studio:
    web: WebSection
    clock: Clock
    store: Store
    signer: TokenSigner
    accounts: Accounts
    tables: dict[str, TableService]
    sessions: SessionRegistry
    limiter: RateLimiter
    simulators: dict[str, SimulatedDevices] = field(default_factory=dict)  # by table id
    video: dict[str, Any] = field(default_factory=dict)  # table id -> streaming VideoService

    @classmethod
    def build(cls, web_cfg: WebSection, clock: Clock, store: Store, secret: str | bytes,
              accounts: Accounts, tables: list[TableService]) -> Studio:
        return cls(web=web_cfg, clock=clock, store=store, signer=TokenSigner(secret, clock),
                   accounts=accounts, tables={t.table_id: t for t in tables},
                   sessions=SessionRegistry(clock, web_cfg.inactivity_s),
                   limiter=RateLimiter(clock, web_cfg.command_rate_per_s,
                                       web_cfg.command_burst))

    def table(self, table_id: str) -> TableService:
        t = self.tables.get(table_id)
        if t is None:
            raise WebError(404, "table.unknown", f"no table {table_id!r}")
        return t


STUDIO = web.AppKey("studio", Studio)
