"""Everything the web application serves, in one object handed to `create_app`.

Built by `studio demo` for the running studio and by the tests (with a ManualClock), so the
routes never construct tables, clocks or devices themselves.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from studio.clock import Clock
from studio.config import OperatorConfig, WebSection
from studio.metrics import StudioMetrics
from studio.operators import launch
from studio.operators.limits import ResponsibleGaming
from studio.storage import Store
from studio.wallet.bridge import WalletBridge
from studio.web.auth import Accounts, TokenSigner
from studio.web.errors import WebError
from studio.web.ratelimit import RateLimiter
from studio.web.sessions import SessionRegistry
from studio.web.tables import TableService

if TYPE_CHECKING:
    from studio.table.actor import TableActor
    from studio.table.private import PrivateTables
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
    janus: dict[str, Any] = field(default_factory=dict)  # table id -> streaming.janus.JanusVideo
    # private tables by table id; each player's instance joins `tables` while it is open
    private: dict[str, PrivateTables] = field(default_factory=dict)
    metrics: StudioMetrics = field(default_factory=StudioMetrics)
    # the operators who launch players here, by id: their configuration and shared secret
    operators: dict[str, tuple[OperatorConfig, bytes]] = field(default_factory=dict)
    rg: ResponsibleGaming = field(init=False)  # the limits operators set per player
    wallets: WalletBridge = field(init=False)  # the operators' wallets, for their players
    dealers_on_duty: dict[str, str] = field(default_factory=dict)  # table id -> dealer's name

    def __post_init__(self) -> None:
        self.rg = ResponsibleGaming(self.store)
        self.wallets = WalletBridge(self.store)
        self.wallets.on_change = self.balance_changed
        launch.ensure_schema(self.store)
        for service in self.tables.values():
            self._serve(service)
        self.metrics.video = self.video  # the same tables' videos, read when scraped

    def _serve(self, service: TableService) -> None:
        """What every served table (and private instance) is joined to: the metrics, the
        wallets' pay-outs, the balance a player holds at an operator's wallet."""
        self.metrics.watch(service)
        self.wallets.watch(service.actor.hub)
        service.outside_money = self.wallets.outside

    def balance_changed(self, player: str) -> None:
        """The player's wallet moved outside a table's events: their pages get a new
        balance."""
        session = self.sessions.current(player)
        for conn in session.sockets if session is not None else ():
            conn.balance_dirty = True
            conn.resync()

    def add_operator(self, cfg: OperatorConfig, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError(f"operator {cfg.id}: the shared secret must be 16+ bytes")
        self.operators[cfg.id] = (cfg, secret)

    def add_table(self, service: TableService) -> None:
        """Serve a live table (one built after the studio was)."""
        self.tables[service.table_id] = service
        self._serve(service)

    def add_private(self, tables: PrivateTables) -> None:
        """Serve a private table: each instance gets its TableService while it is open."""
        self.private[tables.table_id] = tables

        def opened(actor: TableActor) -> None:
            service = self.tables[actor.table_id] = TableService(actor, self.clock)
            self._serve(service)

        def closed(actor: TableActor) -> None:
            service = self.tables.pop(actor.table_id, None)
            if service is not None:
                service.close()
                self.metrics.unwatch(service)
        tables.on_open.append(opened)
        tables.on_close.append(closed)

    async def table_for(self, table_id: str, player: str) -> TableService:
        """The table a player joins: a live table, or the player's instance of a private
        one (opened on first use)."""
        private = self.private.get(table_id)
        if private is None:
            return self.table(table_id)
        actor = await private.open(player)
        return self.tables[actor.table_id]

    def private_of(self, service: TableService) -> PrivateTables | None:
        """The private table an instance belongs to, if it is one."""
        return self.private.get(service.table_id.split("/", 1)[0]) if service.actor.private \
            else None

    @classmethod
    def build(cls, web_cfg: WebSection, clock: Clock, store: Store, secret: str | bytes,
              accounts: Accounts, tables: list[TableService]) -> Studio:
        return cls(web=web_cfg, clock=clock, store=store, signer=TokenSigner(secret, clock),
                   accounts=accounts, tables={t.table_id: t for t in tables},
                   sessions=SessionRegistry(clock, web_cfg.inactivity_s, key=hashlib.sha256(
                       b"sessions|" + (secret.encode() if isinstance(secret, str)
                                       else secret)).digest()),
                   limiter=RateLimiter(clock, web_cfg.command_rate_per_s,
                                       web_cfg.command_burst))

    def table(self, table_id: str) -> TableService:
        t = self.tables.get(table_id)
        if t is None:
            raise WebError(404, "table.unknown", f"no table {table_id!r}")
        return t


STUDIO = web.AppKey("studio", Studio)
