"""Plugs a table's serial shoe, shuffler and camera into its TableActor.

    devices = await attach_devices(actor, cfg.devices)   # starts the readers
    devices.camera_seen(seen)                            # from the camera's voting tracker
    devices.view()                                       # for the dealer console
    await devices.confirm("shoe", dealer_id, key)        # settle a cross-check dispute
    await devices.stop()

What goes where:
- CardDrawn from the shoe -> the table's card command (source "shoe"), or through the
  cross-check (studio/table/cross_check.py) when the table also has a camera (source
  "shoe+camera"). The shoe reader asks `expecting_card` on arrival: the answer projects the
  table's round through the cards sent but not yet consumed, so a quick second card is judged
  against the round as it will be, not as it is.
- ShufflerState DECK_READY -> the table's deck_ready. The shoe reader is told the deck set when
  the ROUND opens it (the table's "deck_opened" event), not when the shuffler announces it: a
  shuffler that prepares the next deck during a round must not make the shoe refuse the rest of
  the current one.
- ShoeStatus cut_card -> the table's cut_card (the round in play completes, then the shoe is
  changed: no round until the shuffler announces the new one).
- DeviceStatus offline/online -> the table's device_status (offline pauses; the dealer resumes).
  The first ONLINE after start is only recorded: it is not a "back online".
- DeviceFault -> counted, logged with the raw bytes in hex, shown to the dealer (a dealer-only
  "device_fault" event and `view()`), and the table is paused. It never becomes a card.

A fault, an offline device or a dispute stops device cards at once (`expecting_card` says no
from the moment the event is queued, before the table has processed its pause), so no card can
slip in between. Pause reasons never name a card: players can see a pause reason.

One task consumes every input (reader events, camera sightings, the table's own events, timer
ticks) in order, so the cross-check has a single writer, like the table.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from devices.events import (
    CardDrawn,
    DeviceFault,
    DeviceStatus,
    ShoeState,
    ShoeStatus,
    ShufflerPhase,
    ShufflerState,
)
from devices.serial_link import Backoff
from devices.serial_link import Clock as ReaderClock
from devices.shoe import ShoeReader
from devices.shuffler import ShufflerReader
from studio import config
from studio.cards import CardCodeError, parse_card
from studio.clock import Timer
from studio.table import seam as core
from studio.table.actor import TableActor
from studio.table.cross_check import (
    CrossCheck,
    Deal,
    Dispute,
    Dropped,
    Held,
    Ignored,
    Outcome,
)
from studio.tasks import cancel

log = logging.getLogger(__name__)

DEALER_ID = "devices"  # who the table's pause commands come from
MAX_FAULTS_KEPT = 100


@dataclass(frozen=True, slots=True)
class _Pending:
    ref: int
    code: str
    deck_set: str


@dataclass(frozen=True, slots=True)
class _Camera:
    code: str
    region: str | None
    confidence: float | None


@dataclass(frozen=True, slots=True)
class _Note:
    """Something the table published that the devices side must follow."""

    kind: str  # "dealt" | "resumed" | "new_round"
    card: str | None = None


@dataclass(frozen=True, slots=True)
class _ShoeCard:
    ref: int  # matches the _Pending entry
    event: CardDrawn


class _Tick:
    """The cross-check's deadline has come."""


class _Inbox(asyncio.Queue):
    """The readers' sink. Its put_nowait runs synchronously inside the reader, so the adapter
    learns of a card, a fault or an outage before the reader looks at the next frame."""

    def __init__(self, owner: AttachedDevices) -> None:
        super().__init__()
        self.owner = owner

    def put_nowait(self, item: Any) -> None:
        super().put_nowait(self.owner._on_queued(item))


class AttachedDevices:
    """The devices of one table, wired to its actor (see the module docstring).

    cfg: the table's `devices` section (studio.config.TableDevices); shoe/shuffler None = none.
    reader_clock: the readers' clock (heartbeat watchdog, reconnect backoff); the table's own
        clock (`actor.clock`) times the cross-check window.
    """

    def __init__(self, actor: TableActor, cfg: config.TableDevices | None = None, *,
                 reader_clock: ReaderClock | None = None, backoff: Backoff | None = None,
                 heartbeat_timeout_s: float | None = None, dealer_id: str = DEALER_ID) -> None:
        self.actor = actor
        self.cfg = cfg if cfg is not None else actor.cfg.devices
        self.dealer_id = dealer_id
        self.counters: Counter[str] = Counter()
        self.faults: list[dict[str, Any]] = []  # newest last, bounded
        self.online: dict[str, bool] = {}
        self.shoe_state: str | None = None
        self.shuffler_state: str | None = None
        self._inbox = _Inbox(self)
        self._idle = asyncio.Event()
        self._idle.set()
        self._changed = asyncio.Event()
        self.cards_queued = 0  # shoe cards that reached this adapter (a simulated dealer waits)
        self._queued = asyncio.Event()
        self._pending: list[_Pending] = []
        # the card on its way into the table: (its ref, the table's cards_taken before it)
        self._in_flight: tuple[int, int] | None = None
        self._refs = itertools.count(1)
        self._holds = 0  # pauses queued or in flight: device cards are refused meanwhile
        self._task: asyncio.Task[None] | None = None
        self._timer: Timer | None = None
        self._timer_at: float | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        link: dict[str, Any] = {"sink": self._inbox}
        if reader_clock is not None:
            link["clock"] = reader_clock
        if backoff is not None:
            link["backoff"] = backoff
        if heartbeat_timeout_s is not None:
            link["heartbeat_timeout_s"] = heartbeat_timeout_s
        tid = actor.table_id
        self.shoe: ShoeReader | None = None
        self.shuffler: ShufflerReader | None = None
        if self.cfg.shoe is not None:
            self.shoe = ShoeReader.from_config(
                self.cfg.shoe, table_id=tid, expecting_card=self._expecting_card,
                deck_kind=actor.game.deck_kind, decks=getattr(actor.cfg, "decks", 1), **link)
        if self.cfg.shuffler is not None:
            self.shuffler = ShufflerReader.from_config(self.cfg.shuffler, table_id=tid, **link)
        self.cross: CrossCheck | None = None
        if self.cfg.shoe is not None and self.cfg.camera is not None:
            self.cross = CrossCheck(self.cfg.cross_check_s, actor.clock,
                                    copies=max(1, int(getattr(actor.cfg, "decks", 1) or 1)))

    # ================================================================== life cycle

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        s = self.actor.state
        deck_set = (s.deck_sets[-1] if s is not None and s.deck_sets else self.actor.ready_deck)
        if self.shoe is not None and deck_set is not None:
            self.shoe.set_deck_set(deck_set)
        self._unsubscribe = self.actor.hub.subscribe(self._on_table_event)
        self._task = asyncio.create_task(self._run(), name=f"devices-{self.actor.table_id}")
        for reader in self.readers:
            await reader.start()

    async def stop(self) -> None:
        for reader in self.readers:
            await reader.stop()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._disarm()
        await cancel(self._task)
        self._task = None

    @property
    def readers(self) -> list[ShoeReader | ShufflerReader]:
        return [r for r in (self.shoe, self.shuffler) if r is not None]

    # ================================================================== inputs

    def camera_seen(self, seen: Any) -> None:
        """A card the camera vouches for (devices/camera/voting.py CardSeen, or anything with
        `code` or `card`, and optionally `region` and `confidence`). Fire and forget."""
        code = getattr(seen, "code", None) or seen.card
        self._inbox.put_nowait(_Camera(str(code), getattr(seen, "region", None),
                                       getattr(seen, "confidence", None)))

    def deck_ready(self, deck_set: str) -> None:
        """A technician announces a deck by hand (a table with a shoe but no shuffler)."""
        self.actor.deck_ready(deck_set)

    async def confirm(self, which: str, dealer_id: str, key: str) -> dict[str, Any]:
        """The dealer confirms the shoe's or the camera's reading of the open dispute: the card
        goes in through the table's manual card command (then the dealer resumes)."""
        d = self.cross.disputed if self.cross is not None else None
        if d is None:
            return _error("cross_check.no_dispute", "there is no dispute to settle")
        reading = {"shoe": d.shoe, "camera": d.camera}.get(which)
        if reading is None:
            return _error("cross_check.no_reading", f"no {which} reading in this dispute")
        return await self.actor.dealer(dealer_id, "card", key, code=reading.card)

    # ================================================================== views and waiting

    def view(self) -> dict[str, Any]:
        """For the dealer console (the dealer may see card codes: players never get this)."""
        d = self.cross.disputed if self.cross is not None else None
        return {
            "online": dict(self.online),
            "shoe": self.shoe_state, "shuffler": self.shuffler_state,
            "faults": dict(self.fault_counts()), "recent_faults": self.faults[-20:],
            "dispute": None if d is None else {"code": d.code, "message": d.message(),
                                               **d.readings()},
            "cross_check": self.cross is not None,
        }

    def fault_counts(self) -> Counter[str]:
        return Counter({k: v for k, v in self.counters.items() if k.startswith("serial.")})

    async def wait_until(self, condition: Callable[[], bool]) -> None:
        """Wait until `condition()` holds, re-checked after each input handled."""
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    async def card_queued(self, count: int) -> None:
        """Until `count` shoe cards have reached this adapter. Who deals card n+1 asks
        `next_target` where it goes; until card n is on the wire here, the answer is card n's
        place (a simulated dealer laid two quick cards on one spot of the camera's felt)."""
        while self.cards_queued < count:
            self._queued.clear()
            await self._queued.wait()

    async def settle(self) -> None:
        """Wait until every input queued so far, and what the table did with it, is handled."""
        while True:
            await self._idle.wait()
            await self.actor.drain()
            if self._idle.is_set() and self._inbox.empty():
                return

    # ================================================================== the reader's question

    def _expecting_card(self) -> bool:
        """Asked by the shoe reader as a card arrives: does the round want a card now?"""
        if self.actor.paused or self._holds or (self.cross and self.cross.disputed):
            return False
        s = self._projected()
        return s is not None and not s.finished and s.expecting() is not None

    def next_target(self) -> core.Target | None:
        """Who receives the next card, counting the cards already on the wire (a simulated
        shoe lays its card on the simulated camera's felt there)."""
        s = self._projected()
        return None if s is None or s.finished else s.expecting()

    def _projected(self, before: int | None = None) -> core.RoundState | None:
        """The round as it will be once the cards sent but not yet consumed are in (up to the
        card `before`); None if one of them will be refused (the table will pause)."""
        s = self.actor.state
        if s is None:
            return None
        for p in self._pending:
            if p.ref == before:
                break
            if self._in_flight is not None and p.ref == self._in_flight[0] \
                    and self.actor.cards_taken > self._in_flight[1]:
                continue  # consumed already; its answer is on its way
            try:
                s, _ = self.actor.game.step(
                    s, core.CardSeen(parse_card(p.code), "shoe", p.deck_set))
            except (core.RoundError, CardCodeError):
                return None
        return s

    def _on_queued(self, item: Any) -> Any:
        """Runs synchronously as anything is queued (inside the readers for their events)."""
        self._idle.clear()
        if isinstance(item, CardDrawn):
            self.cards_queued += 1
            self._queued.set()
            ref = next(self._refs)
            self._pending.append(_Pending(ref, item.card.code, item.deck_set))
            return _ShoeCard(ref, item)
        if isinstance(item, DeviceFault) or (isinstance(item, DeviceStatus) and not item.online):
            self._holds += 1
        return item

    # ================================================================== the consumer

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            try:
                await self._handle(item)
            except Exception:  # one bad input must not stop the table's devices
                log.exception("table %s devices: failed on %r", self.actor.table_id, item)
            self._arm()
            self._changed.set()
            if self._inbox.empty():
                self._idle.set()

    async def _handle(self, item: Any) -> None:
        if isinstance(item, _ShoeCard):
            await self._card(item.ref, item.event)
        elif isinstance(item, DeviceFault):
            await self._fault(item)
        elif isinstance(item, DeviceStatus):
            await self._status(item)
        elif isinstance(item, ShufflerState):
            await self._shuffler(item)
        elif isinstance(item, ShoeStatus):
            self.shoe_state = item.state.value
            self._tell_dealer("shoe_status", device=item.device, state=item.state.value)
            if item.state is ShoeState.CUT_CARD:
                await self.actor.submit("cut_card", {})
        elif isinstance(item, _Camera):
            await self._camera(item)
        elif isinstance(item, _Tick):
            if self.cross is not None:
                await self._outcomes(self.cross.expire())
        elif isinstance(item, _Note):
            await self._note(item)

    async def _card(self, ref: int, ev: CardDrawn) -> None:
        self.counters["cards"] += 1
        if self.cross is None:
            await self._forward(ref, ev.card.code, "shoe", ev.deck_set)
            return
        target = self._projected(before=ref)
        expecting = target.expecting() if target is not None else None
        hidden = expecting is not None and expecting.face_down
        await self._outcomes(self.cross.shoe(ev.card.code, ev.deck_set, face_down=hidden,
                                             ref=ref))

    async def _camera(self, c: _Camera) -> None:
        self.counters["camera_sightings"] += 1
        if self.cross is not None:
            await self._outcomes(self.cross.camera(c.code, region=c.region,
                                                   confidence=c.confidence))
        elif self.shoe is None and self.cfg.camera is not None:
            await self._forward(None, c.code, "camera", None)  # the camera is the card source
        else:
            self.counters["camera_unused"] += 1

    async def _outcomes(self, outcomes: list[Outcome]) -> None:
        for o in outcomes:
            if isinstance(o, Deal):
                self.counters["cross_check.agreed" if o.camera else "cross_check.face_down"] += 1
                await self._forward(o.shoe.ref, o.card, o.source, o.deck_set)
            elif isinstance(o, Dispute):
                await self._dispute(o)
            elif isinstance(o, Dropped):
                self._drop(o.reading.ref)
                self._tell_dealer("device_card_dropped", card=o.reading.card,
                                  message="the dealer keyed this card in during the dispute")
            elif isinstance(o, Held):
                self.counters["cross_check.held"] += 1
            elif isinstance(o, Ignored):
                self.counters["cross_check.camera_again"] += 1

    async def _forward(self, ref: int | None, code: str, source: str,
                       deck_set: str | None) -> None:
        if ref is not None:
            self._in_flight = (ref, self.actor.cards_taken)
        try:
            answer = await self.actor.submit("card", {"code": code, "source": source,
                                                      "deck_set": deck_set})
        finally:
            self._in_flight = None
        if ref is not None:
            self._drop(ref)
        if answer.get("ok"):
            return
        err = answer["error"]
        self.counters[f"refused.{err['code']}"] += 1
        if err["code"] == "table.paused":  # the table drops it silently: the dealer must know
            self._tell_dealer("device_card_refused", card=code, source=source, code=err["code"],
                              message="a card came while the table was paused; key it in if "
                                      "it belongs to the round")
        # any other refusal: the table has paused itself and alerted the dealer

    async def _dispute(self, d: Dispute) -> None:
        self.counters[d.code] += 1
        self.counters["disputes"] += 1
        if d.shoe is not None:
            self._drop(d.shoe.ref)
        log.warning("table %s cross-check %s: %s", self.actor.table_id, d.code, d.message())
        self._tell_dealer("cross_check_dispute", code=d.code, message=d.message(),
                          **d.readings())
        await self._pause(f"cross-check: {d.code}")

    async def _fault(self, f: DeviceFault) -> None:
        try:
            self.counters[f.code.value] += 1
            raw = f.raw.hex(" ")
            log.warning("table %s device fault %s on %s: %s raw=%s", self.actor.table_id,
                        f.code.value, f.device, f.detail, raw)
            record = {"device": f.device, "code": f.code.value, "detail": f.detail, "raw": raw,
                      "seq": f.seq, "at": f.at, "count": self.counters[f.code.value]}
            self.faults.append(record)
            del self.faults[:-MAX_FAULTS_KEPT]
            self._tell_dealer("device_fault", **record)
            await self._pause(f"{f.device}: {f.code.value}")
        finally:
            self._holds -= 1

    async def _status(self, st: DeviceStatus) -> None:
        try:
            first = st.device not in self.online
            self.online[st.device] = st.online
            if st.online and first:
                return  # came up at start: nothing to resume
            self.counters["offline" if not st.online else "online"] += 1
            await self.actor.submit("device_status", {"device": st.device, "online": st.online,
                                                      "detail": f"{st.code.value}: {st.detail}"})
        finally:
            if not st.online:
                self._holds -= 1

    async def _shuffler(self, st: ShufflerState) -> None:
        self.shuffler_state = st.state.value
        if st.state is ShufflerPhase.DECK_READY and st.deck_set is not None:
            await self.actor.submit("deck_ready", {"deck_set": st.deck_set})
        elif st.state is ShufflerPhase.ERROR:
            self.counters["shuffler.error"] += 1
            self._tell_dealer("shuffler_error", device=st.device, error_code=st.error_code)

    async def _note(self, n: _Note) -> None:
        if self.cross is None:
            return
        if n.kind == "dealt" and n.card is not None:
            self.cross.dealt(n.card)
        elif n.kind == "resumed":
            if self.cross.disputed is not None:  # consoles showing the dispute refresh
                self._tell_dealer("cross_check_resolved", message="the dealer resumed the table")
            await self._outcomes(self.cross.resume())
        elif n.kind == "new_round":
            for r in self.cross.new_round():
                self.counters["cross_check.unpaired_at_round_end"] += 1
                if hasattr(r, "ref"):
                    self._drop(r.ref)

    # ================================================================== the table's events

    def _on_table_event(self, table_id: str, audience: str, ev: dict[str, Any]) -> None:
        if table_id != self.actor.table_id:
            return
        kind = ev.get("type")
        if kind == "deck_opened" and audience == "dealer":
            if self.shoe is not None:  # at once: the next card may already be on the wire
                self.shoe.set_deck_set(ev["deck_set"])
        elif kind == "card_dealt" and audience == "public":
            self._inbox.put_nowait(_Note("dealt", ev.get("card")))
        elif kind == "alert" and audience == "dealer" and ev.get("code") == "table.resumed":
            self._inbox.put_nowait(_Note("resumed"))
        elif kind == "betting_opened" and audience == "public":
            self._inbox.put_nowait(_Note("new_round"))

    # ================================================================== helpers

    async def _pause(self, reason: str) -> None:
        """Pause the table; the reason is public, so it never names a card."""
        await self.actor.dealer(self.dealer_id, "pause", uuid.uuid4().hex, reason=reason)

    def _tell_dealer(self, kind: str, **data: Any) -> None:
        self.actor.hub.publish(self.actor.table_id, "dealer",
                               {"type": kind, "table_id": self.actor.table_id, **data})

    def _drop(self, ref: int) -> None:
        self._pending = [p for p in self._pending if p.ref != ref]

    def _arm(self) -> None:
        """Keep one table-clock timer on the cross-check's next deadline."""
        when = self.cross.deadline() if self.cross is not None else None
        if when == self._timer_at:
            return
        self._disarm()
        if when is not None:
            self._timer_at = when
            self._timer = self.actor.clock.call_at(when, self._tick,
                                                   f"{self.actor.table_id}:cross-check")

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_at = None, None

    def _tick(self) -> None:
        """Timer callback: may run on a scheduler thread (APScheduler) or inline (ManualClock)."""
        self._timer, self._timer_at = None, None
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._inbox.put_nowait(_Tick())
        elif self._loop is not None:
            self._loop.call_soon_threadsafe(self._inbox.put_nowait, _Tick())


def _error(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


async def attach_devices(actor: TableActor, cfg: config.TableDevices | None = None,
                         **kw: Any) -> AttachedDevices:
    """Build and start the devices of `actor`'s table (its config's `devices` by default)."""
    devices = AttachedDevices(actor, cfg, **kw)
    await devices.start()
    return devices
