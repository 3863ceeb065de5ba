"""A table's simulated shoe and shuffler, on real pseudo-terminals, plugged into the table by
the same devices adapter as real hardware (studio/table/devices.py).

What technicians drive from their page (and the demo runs by itself): the shuffler prepares a
fresh deck for every round and the deck goes into the shoe (a table whose shoe lasts many rounds,
`cut_card` in its config: a new shoe of `decks` decks when the table changes it after the cut
card, the shuffle taking `shuffle_s`); the shoe deals a card when told
(or, with auto-deal on, whenever the table expects one). The readers see the serial frames
exactly as from real devices. With a simulated camera, each card the shoe deals is laid face up
where it goes (the burn card goes to the discard, off camera), the felt is cleared when betting
opens, and the real recogniser watches the camera's frames: the table cross-checks every card
between the shoe and the camera as it would with real hardware. Nothing here exposes the order of the cards left in the shoe:
`info()` says how many remain, never which.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from devices.camera.sim_camera import SceneError, SimCamera
from devices.camera.voting import CameraCardSource
from devices.pty_pair import PtyPair
from devices.serial_link import Clock as LinkClock
from devices.sim_device import SimError
from devices.sim_shoe import ShoeSim
from devices.sim_shuffler import ShufflerSim
from studio.cards import Card, CardCodeError, parse_card
from studio.config import CameraDevice, SerialDevice, TableDevices
from studio.table.camera_watch import CameraWatch
from studio.table.devices import AttachedDevices
from studio.web.errors import WebError
from studio.web.tables import TableService

LINK_WAIT_S = 2.0  # a card frame reaches the reader in milliseconds; a garbled one never

log = logging.getLogger(__name__)


class SimulatedDevices:
    """The simulated shoe and shuffler of one table, and the table's devices adapter on them."""

    def __init__(self, service: TableService, link_dir: Path, *, heartbeat_s: float | None = 1.0,
                 heartbeat_timeout_s: float = 3.0, reader_clock: LinkClock | None = None,
                 auto_deal_s: float | None = None, auto_shuffle: bool = True,
                 baud: int = 115200, camera: SimCamera | None = None,
                 camera_fps: float | None = 5.0, shuffle_s: float = 0.0) -> None:
        """camera: a simulated table camera to cross-check the shoe against (None: the shoe
        alone); camera_fps: how often the recogniser looks (None: only when `watch.look()` is
        called, as tests do)."""
        table_id = service.table_id
        self.service = service
        self.actor = service.actor
        self.shoe_link = PtyPair(link_dir / f"{table_id}-shoe")
        self.shuffler_link = PtyPair(link_dir / f"{table_id}-shuffler")
        table = self.actor.cfg
        self.cut_card: int | None = getattr(table, "cut_card", None)  # a shoe of many rounds
        self.shoe = ShoeSim(self.shoe_link, heartbeat_s=heartbeat_s,
                            deck_kind=self.actor.game.deck_kind,
                            decks=getattr(table, "decks", 1), cut_card=self.cut_card)
        self.shuffler = ShufflerSim(self.shuffler_link, heartbeat_s=heartbeat_s,
                                    shuffle_s=shuffle_s)
        cam_cfg = None if camera is None else CameraDevice(
            source="sim", width=1280, height=720, fps=max(1, round(camera.fps)))
        cfg = TableDevices(shoe=SerialDevice(port=self.shoe_link.path, baud=baud),
                           shuffler=SerialDevice(port=self.shuffler_link.path, baud=baud),
                           camera=cam_cfg, cross_check_s=self.actor.cfg.devices.cross_check_s)
        self.attached = AttachedDevices(self.actor, cfg, reader_clock=reader_clock,
                                        heartbeat_timeout_s=heartbeat_timeout_s)
        service.attached = self.attached
        self.camera = camera
        self.camera_fps = camera_fps
        self.watch: CameraWatch | None = None
        self._camera_next: str | None = None  # a technician's fault for the next card laid
        if camera is not None:
            source = CameraCardSource.calibrated(camera.art, camera.camera,
                                                 self.actor.cfg.positions,
                                                 kind=self.actor.game.deck_kind)
            self.watch = CameraWatch(source, camera.frame, self.attached.camera_seen,
                                     fps=camera_fps or 5.0, time_fn=self.actor.clock.now)
        self.auto_deal_s = auto_deal_s  # None: a technician (or a test) deals each card
        self.auto_shuffle = auto_shuffle
        self._tasks: set[asyncio.Task] = set()
        self._unsubscribe = None
        self._deck_waiting: str | None = None
        self._dealing = asyncio.Lock()
        self.log: list[str] = []  # what technicians did, newest last

    async def start(self) -> None:
        await self.shoe.start()
        await self.shuffler.start()
        await self.attached.start()
        for reader in self.attached.readers:
            await reader.wait_port_open()
        self._unsubscribe = self.actor.hub.subscribe(self._on_table_event)
        if self.watch is not None and self.camera_fps is not None:
            self.watch.start()

    async def stop(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
        if self.watch is not None:
            await self.watch.stop()
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
        if kind == "betting_opened" and self.camera is not None and self.watch is not None:
            self.camera.remove_cards()  # the dealer clears the felt for the new round
            self.watch.felt_cleared()
        if kind == "hole_card_revealed" and self.camera is not None and event.get("card"):
            try:
                self.camera.turn_up(str(event["card"]))
            except SceneError as e:
                log.warning("table %s simulated camera: %s", self.service.table_id, e)
        if kind in ("round_closed", "round_voided"):
            if self._deck_waiting is not None:  # shuffled during the round: into the shoe now
                self.shoe.load_deck(self._deck_waiting)
                self._deck_waiting = None
            elif self.auto_shuffle and self.cut_card is None:
                self._spawn(self.new_deck())
        elif kind == "shoe_change_started" and self.auto_shuffle:
            self._spawn(self.new_deck())  # the shoe is changed after the cut card
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
        await self.deal()

    async def deal(self, card: str | None = None) -> Card | None:
        """The dealer draws a card from the shoe (the next, or the one named) and lays it where
        the round wants it, in the camera's view."""
        async with self._dealing:  # one card at a time, each aimed once the last is on the wire
            queued, lost = self.attached.cards_queued, self._lost()
            target = self.attached.next_target()
            dealt = await (self.shoe.deal(card) if card else self.shoe.deal_next())
            self._lay(dealt, target)
            if dealt is not None and self._lost() == lost:  # not a frame a fault dropped
                with contextlib.suppress(TimeoutError):  # a garbled frame never comes
                    await asyncio.wait_for(self.attached.card_queued(queued + 1), LINK_WAIT_S)
        return dealt

    def _lost(self) -> int:
        """Frames the simulated shoe dropped (a fault) or wrote to an unplugged line."""
        return self.shoe.counters["dropped"] + self.shoe.counters["lost_unplugged"]

    def _lay(self, dealt: Card | None, target: Any) -> None:
        """Lay the dealt card where the round wants it, in the camera's view."""
        if dealt is not None and self.camera is not None and target is not None \
                and target.kind != "burn":
            places = self.actor.game.camera_places
            where: int | str = ("dealer" if target.kind == "dealer" else places[target.kind]
                                if target.kind in places else int(target.position or 0))
            laid, self._camera_next = self._camera_next or dealt.code, None
            if laid == "hide":
                return
            try:  # a Blackjack hole card lies face down until it is turned over
                self.camera.place_card(laid, where, face_up=not target.face_down)
            except SceneError as e:  # the camera will miss it: the cross-check says so
                log.warning("table %s simulated camera: %s", self.service.table_id, e)

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
                card = await self.deal()
                return "dealt a card" if card else "the shoe is empty"
            if action == "deal_card":
                if not arg:
                    raise SimError("sim.missing_argument", "which card? e.g. Kd")
                await self.deal(arg)
                return f"dealt {arg}"
            if action == "status":
                await self.shoe.set_status(arg or "ready")
                return f"status {arg or 'ready'}"
            if action == "cut":  # rehearse the cut card: it comes out N cards from the end
                return await self.shoe.command(f"cut {arg or ''}")
            if action == "fault":
                return await self.shoe.inject(*_fault(arg))
        if device == "shuffler":
            if action == "shuffle":
                return f"deck ready {await self.new_deck(arg or None)}"
            if action == "fault":
                return await self.shuffler.inject(*_fault(arg))
        if device == "camera" and action == "fault":
            return self._camera_fault(arg)
        if action == "auto_deal":
            try:
                self.auto_deal_s = None if arg == "off" else float(arg or 1.5)
            except ValueError:
                raise SimError("sim.bad_argument", "auto_deal takes seconds or 'off'") from None
            return "auto-deal off" if self.auto_deal_s is None else \
                f"auto-deal every {self.auto_deal_s:g} s"
        raise SimError("sim.bad_command", f"{device} cannot {action}")

    def _camera_fault(self, arg: str | None) -> str:
        """Rehearse the cross-check: "hide" lays the next card the shoe deals out of the
        camera's view (the camera never sees it); "swap Kd" lays Kd instead of the card the
        shoe read (the two disagree). Either way the table pauses and the dealer confirms."""
        if self.camera is None:
            raise SimError("sim.no_camera", "this table's shoe is not cross-checked by a camera")
        name, rest = _fault(arg)
        if name == "hide":
            self._camera_next = "hide"
            return "the next card is laid out of the camera's view"
        if name == "swap":
            try:
                code = parse_card(rest or "").code
            except CardCodeError as e:
                raise SimError("sim.bad_argument", f"swap takes a card, e.g. swap Kd: {e}") \
                    from None
            self._camera_next = code
            return f"the next card is laid as {code}"
        raise SimError("sim.bad_fault", "the camera's faults are: hide, swap <card>")

    def info(self) -> dict[str, Any]:
        """What a technician sees: health and counters, never the order of the cards."""
        a = self.attached
        online = {k.rsplit("/", 1)[-1]: v for k, v in a.online.items()}
        return {
            "auto_deal_s": self.auto_deal_s, "auto_shuffle": self.auto_shuffle,
            "shoe": {"path": self.shoe.path, "deck_set": self.shoe.deck_set,
                     "remaining": len(self.shoe.remaining), "decks": self.shoe.decks,
                     "cut_card_at": self.shoe.cut_at, "online": online.get("shoe", False),
                     "state": a.shoe_state,
                     "reader_deck_set": a.shoe.deck_set if a.shoe else None,
                     "faults": a.shoe.fault_counts() if a.shoe else {},
                     "cards_delivered": a.counters["cards"]},
            "shuffler": {"path": self.shuffler.path, "decks_made": self.shuffler.decks_made,
                         "ready_deck_set": self.shuffler.ready_deck_set,
                         "online": online.get("shuffler", False), "state": a.shuffler_state,
                         "faults": a.shuffler.fault_counts() if a.shuffler else {}},
            "camera": None if self.watch is None else self.watch.info(),
            "log": self.log[-20:],
        }


def _fault(arg: str | None) -> tuple[str, str | None]:
    """"drop 2" -> ("drop", "2")."""
    name, _, rest = (arg or "").strip().partition(" ")
    return name, rest.strip() or None
