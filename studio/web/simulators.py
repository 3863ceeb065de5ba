"""A table's simulated shoe and shuffler, on real pseudo-terminals, read by the real readers.

What technicians drive from their page (and the demo runs by itself): the shuffler prepares a
fresh deck for every round and the deck goes into the shoe; the shoe deals a card when told
(or, with auto-deal on, whenever the table expects one). The readers see the serial frames
exactly as from real devices, and `DeviceForwarding` hands what they report to the table actor.

`DeviceForwarding` is the minimal link from readers to the actor that the web layer needed before
the devices adapter (studio/table/devices.py) existed: cards -> card_seen, a deck ready ->
deck_ready, online/offline and faults -> device_status (a fault pauses the table). Nothing here
exposes the order of the cards left in the shoe: `info()` says how many remain, never which.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from devices.events import (
    CardDrawn,
    DeviceEvent,
    DeviceFault,
    DeviceStatus,
    ShufflerPhase,
    ShufflerState,
)
from devices.pty_pair import PtyPair
from devices.serial_link import Clock as LinkClock
from devices.shoe import ShoeReader
from devices.shuffler import ShufflerReader
from devices.sim_device import SimError
from devices.sim_shoe import ShoeSim
from devices.sim_shuffler import ShufflerSim
from studio.table.actor import TableActor
from studio.web.errors import WebError
from studio.web.tables import TableService

log = logging.getLogger(__name__)


class DeviceForwarding:
    """Reader events -> the table actor, and the devices' health -> the table service."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.actor: TableActor = service.actor
        self.shoe: ShoeReader | None = None  # told the deck set of each deck the table opens
        self.delivered = 0  # cards handed to the table
        self.faults = 0  # faults reported (each pauses the table)
        self._seen_online: set[str] = set()
        self.last_deck_ready: str | None = None
        self.forwarded = 0  # events of any kind handled
        self.changed = asyncio.Condition()

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Until `predicate()` holds, checked after each forwarded event (tests wait on it)."""
        async with self.changed:
            await self.changed.wait_for(predicate)

    async def __call__(self, event: DeviceEvent) -> None:
        self._forward(event)
        async with self.changed:
            self.forwarded += 1
            self.changed.notify_all()

    def _forward(self, event: DeviceEvent) -> None:
        device = event.device.rsplit("/", 1)[-1]
        if isinstance(event, CardDrawn):
            self.delivered += 1
            self.actor.card_seen(event.card.code, "shoe", event.deck_set)
        elif isinstance(event, ShufflerState):
            if event.state is ShufflerPhase.DECK_READY and event.deck_set:
                # The shoe reader learns the set when the ROUND opens the deck (deck_opened),
                # so a deck shuffled during a round does not make the shoe refuse its cards.
                self.last_deck_ready = event.deck_set
                self.actor.deck_ready(event.deck_set)
            elif event.state is ShufflerPhase.ERROR:
                self.actor.device_status(device, False, f"shuffler error {event.error_code}")
        elif isinstance(event, DeviceStatus):
            self.service.set_device(device, event.online, event.detail)
            if event.online and device not in self._seen_online:
                self._seen_online.add(device)  # the first ONLINE is a start, not a return
                return
            self.actor.device_status(device, event.online, event.detail)
        elif isinstance(event, DeviceFault):
            self.faults += 1
            self.service.set_device(device, False, f"{event.code}: {event.detail}")
            self.actor.device_status(device, False, f"{event.code}: {event.detail}")


class SimulatedDevices:
    """The simulated shoe and shuffler of one table, and the readers on their ports."""

    def __init__(self, service: TableService, link_dir: Path, *, heartbeat_s: float | None = 1.0,
                 heartbeat_timeout_s: float = 3.0, reader_clock: LinkClock | None = None,
                 auto_deal_s: float | None = None, auto_shuffle: bool = True) -> None:
        table_id = service.table_id
        self.service = service
        self.shoe_link = PtyPair(link_dir / f"{table_id}-shoe")
        self.shuffler_link = PtyPair(link_dir / f"{table_id}-shuffler")
        self.shoe = ShoeSim(self.shoe_link, heartbeat_s=heartbeat_s)
        self.shuffler = ShufflerSim(self.shuffler_link, heartbeat_s=heartbeat_s)
        link: dict[str, Any] = {"heartbeat_timeout_s": heartbeat_timeout_s}
        if reader_clock is not None:
            link["clock"] = reader_clock
        self.forwarding = DeviceForwarding(service)
        self.shoe_reader = ShoeReader(self.shoe_link.path, name=f"{table_id}/shoe",
                                      sink=self.forwarding, **link)
        self.forwarding.shoe = self.shoe_reader
        self.shuffler_reader = ShufflerReader(self.shuffler_link.path,
                                              name=f"{table_id}/shuffler",
                                              sink=self.forwarding, **link)
        self.auto_deal_s = auto_deal_s  # None: a technician (or a test) deals each card
        self.auto_shuffle = auto_shuffle
        self._tasks: set[asyncio.Task] = set()
        self._unsubscribe = None
        self._deck_waiting: str | None = None
        self.log: list[str] = []  # what technicians did, newest last

    async def start(self) -> None:
        await self.shoe.start()
        await self.shuffler.start()
        await self.shoe_reader.start()
        await self.shuffler_reader.start()
        await self.shoe_reader.wait_port_open()
        await self.shuffler_reader.wait_port_open()
        self._unsubscribe = self.service.actor.hub.subscribe(self._on_table_event)

    async def stop(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        for t in list(self._tasks):
            t.cancel()
        for reader in (self.shoe_reader, self.shuffler_reader):
            await reader.stop()
        for sim in (self.shoe, self.shuffler):
            await sim.stop()

    async def new_deck(self, deck_set: str | None = None) -> str:
        """Shuffle a fresh deck; it goes into the shoe now, or when the round being dealt ends."""
        deck_set = deck_set or self.shuffler.next_set_id()
        s = self.service.actor.state
        if s is not None and not s.finished and s.phase.value != "betting":
            self._deck_waiting = deck_set  # the shoe keeps this round's deck until it ends
        else:
            self.shoe.load_deck(deck_set)
        await self.shuffler.shuffle(deck_set)
        self.log.append(f"new deck {deck_set}")
        return deck_set

    # -- automation (demo) ----------------------------------------------------------------

    def _on_table_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != self.service.table_id:
            return
        kind = event.get("type")
        if kind == "deck_opened" and audience == "dealer":
            self.shoe_reader.set_deck_set(event["deck_set"])
        if audience != "public":
            return
        if kind in ("round_closed", "round_voided"):
            if self._deck_waiting is not None:  # shuffled during the round: into the shoe now
                self.shoe.load_deck(self._deck_waiting)
                self._deck_waiting = None
            elif self.auto_shuffle:
                self._spawn(self.new_deck())
        elif kind == "card_expected" and self.auto_deal_s is not None:
            self._spawn(self._auto_deal())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _auto_deal(self) -> None:
        await asyncio.sleep(self.auto_deal_s or 0)  # the dealer's hand, in the demo
        actor = self.service.actor
        if actor.paused or actor.state is None or actor.state.expecting() is None:
            return
        await self.shoe.deal_next()

    # -- the technicians' commands --------------------------------------------------------

    async def command(self, device: str, action: str, arg: str | None) -> str:
        """Run one technician command; returns what was done, or raises WebError sim.*."""
        try:
            result = await self._command(device, action, arg)
        except SimError as e:
            raise WebError(400, e.code, str(e)) from None
        self.log.append(f"{device} {action} {arg or ''}: {result}".strip())
        del self.log[:-50]
        return result

    async def _command(self, device: str, action: str, arg: str | None) -> str:
        if device == "shoe":
            if action == "deal":
                card = await self.shoe.deal_next()
                return "dealt a card" if card else "the shoe is empty"
            if action == "deal_card":
                if not arg:
                    raise SimError("sim.missing_argument", "which card? e.g. Kd")
                await self.shoe.deal(arg)
                return f"dealt {arg}"
            if action == "status":
                await self.shoe.set_status(arg or "ready")
                return f"status {arg or 'ready'}"
            if action == "fault":
                return await self.shoe.inject(*_fault(arg))
        if device == "shuffler":
            if action == "shuffle":
                return f"deck ready {await self.new_deck(arg or None)}"
            if action == "fault":
                return await self.shuffler.inject(*_fault(arg))
        if action == "auto_deal":
            self.auto_deal_s = None if arg == "off" else float(arg or 1.5)
            return "auto-deal off" if self.auto_deal_s is None else \
                f"auto-deal every {self.auto_deal_s:g} s"
        raise SimError("sim.bad_command", f"{device} cannot {action}")

    def info(self) -> dict[str, Any]:
        """What a technician sees: health and counters, never the order of the cards."""
        return {
            "auto_deal_s": self.auto_deal_s, "auto_shuffle": self.auto_shuffle,
            "shoe": {"path": self.shoe.path, "deck_set": self.shoe.deck_set,
                     "remaining": len(self.shoe.remaining), "online": self.shoe_reader.online,
                     "reader_deck_set": self.shoe_reader.deck_set,
                     "faults": self.shoe_reader.fault_counts(),
                     "cards_delivered": self.forwarding.delivered},
            "shuffler": {"path": self.shuffler.path, "decks_made": self.shuffler.decks_made,
                         "ready_deck_set": self.shuffler.ready_deck_set,
                         "online": self.shuffler_reader.online,
                         "faults": self.shuffler_reader.fault_counts()},
            "log": self.log[-20:],
        }


def _fault(arg: str | None) -> tuple[str, str | None]:
    """"drop 2" -> ("drop", "2")."""
    name, _, rest = (arg or "").strip().partition(" ")
    return name, rest.strip() or None


async def close_quietly(devices: SimulatedDevices) -> None:
    with contextlib.suppress(Exception):
        await devices.stop()
