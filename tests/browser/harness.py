"""A whole studio for a test: a live table on a real SQLite file, the simulated shoe and
shuffler on real pseudo-terminals read by the real readers through the table's devices
adapter (studio/table/devices.py), the web application, and a
ManualClock for the table's timers (the betting window, decisions, inactivity).

The test moves time itself (`advance`), deals real serial frames (`deal`), and waits on
conditions (the device forwarding, the actor's inbox): never a sleep.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from devices.camera.sim_camera import SimCamera
from devices.serial_link import ManualClock as LinkClock
from studio import ledger
from studio.clock import ManualClock
from studio.config import WebAccount, WebSection, load_config
from studio.storage import Store
from studio.table.actor import TableActor
from studio.table.hub import Hub
from studio.table.private import PrivateTables
from studio.web.app import create_app
from studio.web.auth import Accounts, hash_password
from studio.web.context import Studio
from studio.web.simulators import SimulatedDevices
from studio.web.tables import TableService
from tests.quota_fissa_harness import StackedShoe

SECRET = "test-secret-0123456789abcdef"
DEALER = ("dealer1", "dealer-password")
TECHNICIAN = ("tech1", "tech-password")
WAIT_S = 10.0  # safety net on waits for conditions; they hold within milliseconds


def accounts() -> Accounts:
    return Accounts([
        WebAccount(username=DEALER[0], role="dealer",
                   password_hash=hash_password(DEALER[1], iterations=1000)),
        WebAccount(username=TECHNICIAN[0], role="technician",
                   password_hash=hash_password(TECHNICIAN[1], iterations=1000))])


class StudioHarness:
    def __init__(self, tmp: Path, *, burn_card: bool = True, limits: dict | None = None,
                 web: dict | None = None, camera: bool = False,
                 table: str = "sem-live-1") -> None:
        """`table`: the live table on the simulated devices (its config in studio.toml)."""
        self.clock = ManualClock()
        self.store = Store.open(f"sqlite:///{tmp / 'studio.db'}",
                                clock=lambda: datetime.fromtimestamp(self.clock.now(), UTC))
        cfg = load_config().table(table)
        cfg = cfg.model_copy(update={"card_source": "shoe"} | (
            {"burn_card": burn_card} if hasattr(cfg, "burn_card") else {}))
        if limits:
            cfg = cfg.model_copy(update={"limits": cfg.limits.model_copy(update=limits)})
        self.cfg = cfg
        self.hub = Hub()
        self.events: list[tuple[str, dict[str, Any]]] = []
        self._published = asyncio.Event()  # set on each table event: `until` re-checks
        self.hub.subscribe(self._record)
        self.actor = TableActor(cfg, self.store, self.clock, self.hub)
        self.service = TableService(self.actor, self.clock)
        self.studio = Studio.build(WebSection(**(web or {})), self.clock, self.store, SECRET,
                                   accounts(), [self.service])
        # camera: the simulated table camera and the real recogniser cross-check the shoe;
        # the test runs each recognition (`devices.watch.look()`), nothing runs by itself.
        self.camera = SimCamera(cfg.deck_art.value, positions=cfg.positions,
                                copies=getattr(cfg, "decks", 1)) if camera else None
        self.devices = SimulatedDevices(self.service, tmp / "links", heartbeat_s=None,
                                        reader_clock=LinkClock(), auto_deal_s=None,
                                        auto_shuffle=False, camera=self.camera,
                                        camera_fps=None)
        self.studio.simulators[self.service.table_id] = self.devices
        # the private Quota Fissa table: an instance per player, its shoe stackable by tests
        self.qf_shoe = StackedShoe()
        self.qf_cfg = load_config().first_table("sette-e-mezzo-quota-fissa")
        self.private = PrivateTables(self.qf_cfg, self.store, self.clock, self.hub,
                                     shoe=lambda: self.qf_shoe)
        self.studio.add_private(self.private)
        # the regulation's virtual Punto e Banco table, likewise
        self.pb_shoe = StackedShoe()
        self.pb_cfg = load_config().first_table("punto-e-banco")
        self.pb = PrivateTables(self.pb_cfg, self.store, self.clock, self.hub,
                                shoe=lambda: self.pb_shoe)
        self.studio.add_private(self.pb)
        # the regulation's virtual Blackjack table, likewise
        self.bj_shoe = StackedShoe()
        self.bj = PrivateTables(load_config().table("bj-virtual-1"), self.store, self.clock,
                                self.hub, shoe=lambda: self.bj_shoe)
        self.studio.add_private(self.bj)
        self.app = create_app(self.studio)
        self.table_id = self.service.table_id
        self.decks = 0

    async def start(self, running: bool = True) -> None:
        await self.actor.start()
        await self.devices.start()
        await self.new_deck()
        if running:
            await self.actor.dealer("setup", "start", uuid.uuid4().hex)
            await self.actor.drain()

    async def stop(self) -> None:
        await self.private.stop()
        await self.pb.stop()
        await self.bj.stop()
        await self.devices.stop()
        await self.actor.stop()
        self.service.close()
        self.store.dispose()

    # -- money and players ----------------------------------------------------------------

    def credit(self, player: str, cents: int) -> None:
        with self.store.transaction() as tx:
            ledger.credit(tx, f"credit/{player}/{uuid.uuid4().hex}", player, cents)

    def balance(self, player: str) -> ledger.Balance:
        with self.store.reader() as tx:
            return ledger.balance(tx, player)

    def token(self, player: str, ttl_s: float = 3600) -> str:
        return self.studio.signer.player_token(player, ttl_s)

    # -- time and cards -------------------------------------------------------------------

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.actor.drain()

    async def close_betting(self) -> None:
        await self.advance(self.cfg.timers.betting_window_s)

    def _record(self, table: str, audience: str, event: dict[str, Any]) -> None:
        self.events.append((audience, event))
        self._published.set()

    async def until(self, predicate) -> None:
        """Until the table has published what makes `predicate` true: for what a player's
        page did (a decision), which no device input follows, so `_handled` would not
        re-check it."""
        async def published() -> None:
            while not predicate():
                self._published.clear()
                await self._published.wait()
        await asyncio.wait_for(published(), WAIT_S)
        await self.actor.drain()

    async def _handled(self, predicate) -> None:
        """Until the devices adapter has handled what makes `predicate` true, and the table
        has processed what followed."""
        attached = self.devices.attached
        await asyncio.wait_for(attached.wait_until(predicate), WAIT_S)
        await asyncio.wait_for(attached.settle(), WAIT_S)

    async def new_deck(self) -> str:
        """The shuffler prepares a deck; it goes into the shoe; the table hears "deck ready"."""
        self.decks += 1
        deck_set = await self.devices.new_deck(f"T{self.decks}-{uuid.uuid4().hex[:6]}")
        await self._handled(lambda: self.actor.ready_deck == deck_set)
        return deck_set

    async def deal(self, *codes: str) -> None:
        """Each card out of the simulated shoe, as serial frames, through the reader."""
        for code in codes:
            seen = self.device_inputs()
            await self.devices.shoe.deal(code)
            await self._handled(lambda seen=seen: self.device_inputs() > seen)

    def device_inputs(self) -> int:
        """Cards and faults the devices adapter has handled so far."""
        a = self.devices.attached
        return a.counters["cards"] + sum(a.fault_counts().values())

    def expecting(self) -> str | None:
        s = self.actor.state
        return s.expecting().describe() if s is not None and s.expecting() else None

    def phase(self) -> str | None:
        return self.actor.state.phase.value if self.actor.state else None

    def published(self, kind: str, audience: str | None = None) -> list[dict[str, Any]]:
        return [e for a, e in self.events if e["type"] == kind and audience in (None, a)]
