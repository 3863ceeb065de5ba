"""A table's simulated shoe and shuffler, on real pseudo-terminals, plugged into the table by
the same devices adapter as real hardware (studio/table/devices.py).

What technicians drive from their page (and the demo runs by itself): the shuffler prepares a
fresh deck for every round and the deck goes into the shoe; the shoe deals a card when told
(or, with auto-deal on, whenever the table expects one). The readers see the serial frames
exactly as from real devices. Nothing here exposes the order of the cards left in the shoe:
`info()` says how many remain, never which.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from devices.pty_pair import PtyPair
from devices.serial_link import Clock as LinkClock
from devices.sim_device import SimError
from devices.sim_shoe import ShoeSim
from devices.sim_shuffler import ShufflerSim
from studio.config import SerialDevice, TableDevices
from studio.table.devices import AttachedDevices
from studio.web.errors import WebError
from studio.web.tables import TableService

log = logging.getLogger(__name__)


class SimulatedDevices:
    """The simulated shoe and shuffler of one table, and the table's devices adapter on them."""

    def __init__(self, service: TableService, link_dir: Path, *, heartbeat_s: float | None = 1.0,
                 heartbeat_timeout_s: float = 3.0, reader_clock: LinkClock | None = None,
                 auto_deal_s: float | None = None, auto_shuffle: bool = True,
                 baud: int = 115200) -> None:
        table_id = service.table_id
        self.service = service
        self.actor = service.actor
        self.shoe_link = PtyPair(link_dir / f"{table_id}-shoe")
        self.shuffler_link = PtyPair(link_dir / f"{table_id}-shuffler")
        self.shoe = ShoeSim(self.shoe_link, heartbeat_s=heartbeat_s)
        self.shuffler = ShufflerSim(self.shuffler_link, heartbeat_s=heartbeat_s)
        cfg = TableDevices(shoe=SerialDevice(port=self.shoe_link.path, baud=baud),
                           shuffler=SerialDevice(port=self.shuffler_link.path, baud=baud),
                           cross_check_s=self.actor.cfg.devices.cross_check_s)
        self.attached = AttachedDevices(self.actor, cfg, reader_clock=reader_clock,
                                        heartbeat_timeout_s=heartbeat_timeout_s)
        service.attached = self.attached
        self.auto_deal_s = auto_deal_s  # None: a technician (or a test) deals each card
        self.auto_shuffle = auto_shuffle
        self._tasks: set[asyncio.Task] = set()
        self._unsubscribe = None
        self._deck_waiting: str | None = None
        self.log: list[str] = []  # what technicians did, newest last

    async def start(self) -> None:
        await self.shoe.start()
        await self.shuffler.start()
        await self.attached.start()
        for reader in self.attached.readers:
            await reader.wait_port_open()
        self._unsubscribe = self.actor.hub.subscribe(self._on_table_event)

    async def stop(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        for t in list(self._tasks):
            t.cancel()
        await self.attached.stop()
        for sim in (self.shoe, self.shuffler):
            await sim.stop()

    async def new_deck(self, deck_set: str | None = None) -> str:
        """Shuffle a fresh deck; it goes into the shoe now, or when the round being dealt ends."""
        deck_set = deck_set or self.shuffler.next_set_id()
        s = self.actor.state
        if s is not None and not s.finished and s.phase.value != "betting":
            self._deck_waiting = deck_set  # the shoe keeps this round's deck until it ends
        else:
            self.shoe.load_deck(deck_set)
        await self.shuffler.shuffle(deck_set)
        self.log.append(f"new deck {deck_set}")
        return deck_set

    # -- automation (demo) ----------------------------------------------------------------

    def _on_table_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != self.service.table_id or audience != "public":
            return
        kind = event.get("type")
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
        s = self.actor.state
        if self.actor.paused or s is None or s.expecting() is None:
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
            try:
                self.auto_deal_s = None if arg == "off" else float(arg or 1.5)
            except ValueError:
                raise SimError("sim.bad_argument", "auto_deal takes seconds or 'off'") from None
            return "auto-deal off" if self.auto_deal_s is None else \
                f"auto-deal every {self.auto_deal_s:g} s"
        raise SimError("sim.bad_command", f"{device} cannot {action}")

    def info(self) -> dict[str, Any]:
        """What a technician sees: health and counters, never the order of the cards."""
        a = self.attached
        online = {k.rsplit("/", 1)[-1]: v for k, v in a.online.items()}
        return {
            "auto_deal_s": self.auto_deal_s, "auto_shuffle": self.auto_shuffle,
            "shoe": {"path": self.shoe.path, "deck_set": self.shoe.deck_set,
                     "remaining": len(self.shoe.remaining), "online": online.get("shoe", False),
                     "state": a.shoe_state,
                     "reader_deck_set": a.shoe.deck_set if a.shoe else None,
                     "faults": a.shoe.fault_counts() if a.shoe else {},
                     "cards_delivered": a.counters["cards"]},
            "shuffler": {"path": self.shuffler.path, "decks_made": self.shuffler.decks_made,
                         "ready_deck_set": self.shuffler.ready_deck_set,
                         "online": online.get("shuffler", False), "state": a.shuffler_state,
                         "faults": a.shuffler.fault_counts() if a.shuffler else {}},
            "log": self.log[-20:],
        }


def _fault(arg: str | None) -> tuple[str, str | None]:
    """"drop 2" -> ("drop", "2")."""
    name, _, rest = (arg or "").strip().partition(" ")
    return name, rest.strip() or None
