"""One table as the web layer sees it: the actor, the views clients get, and the event feed.

The actor's hub is the only source of events. `TableService` subscribes once and hands each
event to the clients whose audience may see it, redacted for players (another player's id never
reaches a player). It also keeps what a (re)connecting client needs but the actor's snapshot
does not carry: the decision deadline, and the devices' health (from the table's attached
devices, studio/table/devices.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio import ledger, timeline
from studio.clock import Clock
from studio.table.actor import TableActor
from studio.table.devices import AttachedDevices
from studio.web.frames import Outgoing
from studio.web.history import HistoryProjection

log = logging.getLogger(__name__)

Deliver = Callable[[dict[str, Any]], None]
# A client that takes an event already encoded: (the JSON text of {"type": "event",
# "event": ...} and its frame, the event). Made once per audience and variant, not per client.
DeliverText = Callable[[Outgoing, dict[str, Any]], None]


class Writer(Protocol):
    """A client with frames to write once a burst is out (`TableService.flush_due`)."""

    outbox: list[Outgoing]  # its frames not yet written (empty: nothing to do)

    def flush(self, joined: dict[Any, Any]) -> None: ...


@dataclass
class Subscriber:
    """A client: `audience` is "player:<id>" or "dealer" (dealers and technicians)."""

    audience: str
    deliver: Deliver
    deliver_text: DeliverText | None = None
    # the player's id, or None for staff (read for every client of every event: kept)
    player: str | None = field(init=False)

    def __post_init__(self) -> None:
        self.player = (self.audience.split(":", 1)[1] if self.audience.startswith("player:")
                       else None)


def redact_for_player(event: dict[str, Any], player: str) -> dict[str, Any]:
    """A public event as one player may see it: other players' ids replaced by "you"/count."""
    out = dict(event)
    if "player" in out:
        out["you"] = out.pop("player") == player
    if isinstance(out.get("players"), list):
        players = out.pop("players")
        out["you"] = player in players
        out["count"] = len(players)
    return out


FANOUT_CHUNK = 1000  # messages delivered before the event loop gets a turn
# players' states and writes made before the event loop gets a turn: a write is a socket's
# syscall (~20 us here), so 1,000 of them held an edge's loop 20 ms a turn, and the NATS
# message with the views the last third of a card's players wait for took several turns
# (read, parsed, handed to its callback) to get through
WRITE_CHUNK = 250


class _Delivery:
    """One event on its way to its subscribers (a snapshot taken when it was published).

    A public event is seen in at most three forms (staff; a player it names; any other
    player): each form is made, and encoded for the sockets that take text, once, whatever
    the number of clients."""

    def __init__(self, event: dict[str, Any], audience: str, targets: list[Subscriber],
                 plain: bool = False) -> None:
        self.event = event
        self.audience = audience
        self.targets = targets
        self.plain = plain  # the same message for every target (no redaction)
        self.index = 0
        self.forms: dict[Any, tuple[dict[str, Any], Outgoing | None]] = {}
        self.named = event.get("player") if "player" in event else None
        self.listed = set(event["players"]) if isinstance(event.get("players"), list) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.targets)

    def form(self, key: Any, sub: Subscriber) -> tuple[dict[str, Any], Outgoing | None]:
        """The form `key` of the event ("as-is"; for a player, whether it names them, or
        "player"), made from `sub`'s view the first time, encoded the first time a client
        takes text."""
        got = self.forms.get(key)
        if got is None:
            message = self.event if key == "as-is" else redact_for_player(self.event,
                                                                          sub.player or "")
            got = self.forms[key] = (message, None)
        if sub.deliver_text is not None and got[1] is None:
            got = self.forms[key] = (got[0], Outgoing(json.dumps(
                {"type": "event", "event": got[0]}, separators=(",", ":"))))
        return got

    def run(self, budget: int, table_id: str) -> int:
        """Deliver to up to `budget` subscribers; returns the budget left. (`form`'s choice
        of form is made here in line: it is asked for every player of every event.)"""
        targets, start = self.targets, self.index
        end = min(len(targets), start + max(budget, 0))
        self.index = end
        forms = self.forms
        as_is = self.plain or self.audience != "public"
        named, listed = self.named, self.listed
        for sub in targets[start:end]:
            try:
                player = sub.player
                if as_is or player is None:
                    key: Any = "as-is"
                elif named is not None:
                    key = player == named
                else:
                    key = player in listed if listed is not None else "player"
                deliver_text = sub.deliver_text
                got = forms.get(key)
                if got is None or (got[1] is None and deliver_text is not None):
                    got = self.form(key, sub)
                if deliver_text is not None:
                    deliver_text(got[1], got[0])  # type: ignore[arg-type]
                else:
                    sub.deliver(got[0])
            except Exception:  # one broken client must not stop the others
                log.exception("table %s: delivering %s failed", table_id,
                              self.event.get("type"))
        return budget - (end - start)


class TableService:
    def __init__(self, actor: TableActor, clock: Clock) -> None:
        self.actor = actor
        self.clock = clock
        self.table_id = actor.table_id
        self.history = HistoryProjection(actor.store, actor.table_id, actor.game)
        self.decision: dict[str, Any] | None = None  # {"position", "turn", "deadline"}
        self.attached: AttachedDevices | None = None  # the table's devices, once attached
        # Subscribers by audience ("dealer", "player:<id>"): a player's own event reaches that
        # player's connections without looking at the thousands of others.
        self._by_audience: dict[str, list[Subscriber]] = {}
        self._everyone: list[Subscriber] | None = None  # every client, in order (`_subscribers`)
        self._unsubscribe = actor.hub.subscribe(self._on_event)
        self.seq = 0  # events fanned out so far (clients see it as a change counter)
        self._pending: deque[_Delivery] = deque()  # deliveries on their way, in order
        self._paused_seen = False
        self.on_drop: Callable[[], None] = lambda: None  # a client dropped (the metrics)
        self._public: tuple[Any, str, str | None] = (None, "", None)  # (key, head, round)
        # the players' states after a burst, by personal part's text (None: no round), on
        # the public part above
        self._shared: dict[str | None, Outgoing] = {}
        self._shared_time = "0"
        # the clients owed a state once the events in flight are out (`state_due`), in order
        # (a client is listed once a burst: it asks when its state becomes owed; listed
        # twice, its second `send` finds nothing owed)
        self._due: deque[tuple[Callable[[], None], str]] = deque()
        self._scheduled = False  # a turn of the pump is waiting for the loop
        self._states_turn = False  # the states owed go out in this turn of the pump
        # the clients with frames to write once the burst is out (`flush_due`), in order, and
        # the bytes of the outboxes written so far in this burst (shared by alike clients;
        # the frames are kept with them, so their ids stay theirs)
        self._flushes: deque[tuple[Writer, str]] = deque()
        self.joined: dict[Any, Any] = {}
        self._pumping = False
        self.states_held = False  # the views are being fetched (an edge): states wait
        # or only these audiences' states wait (the players whose views a burst changed),
        # with what was held back of theirs
        self.held_for: set[str] | None = None
        self._held_due: deque[tuple[Callable[[], None], str]] = deque()
        self._held_flushes: deque[tuple[Writer, str]] = deque()
        # cents a player holds at an operator's wallet (the studio's ledger holds the rest)
        self.outside_money: Callable[[str], int] = lambda player: 0

    def close(self) -> None:
        self._unsubscribe()

    # -- fan-out --------------------------------------------------------------------------

    def audiences(self) -> dict[str, list[Subscriber]]:
        """The connected clients by audience ("dealer", "player:<id>")."""
        return self._by_audience

    @property
    def _subscribers(self) -> list[Subscriber]:
        """Every client, listed once per change of the clients (each public event reads it)."""
        if self._everyone is None:
            self._everyone = [sub for subs in self._by_audience.values() for sub in subs]
        return self._everyone

    def subscribe(self, audience: str, deliver: Deliver,
                  deliver_text: DeliverText | None = None) -> Callable[[], None]:
        sub = Subscriber(audience, deliver, deliver_text)
        self._by_audience.setdefault(audience, []).append(sub)
        self._everyone = None

        def unsubscribe() -> None:
            subs = self._by_audience.get(audience, [])
            if sub in subs:
                subs.remove(sub)
                self._everyone = None
            if not subs:
                self._by_audience.pop(audience, None)
        return unsubscribe

    def _on_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != self.table_id:
            return
        self._track(audience, event)
        self.seq += 1
        if timeline.TIMELINE is not None and event.get("type") == "card_dealt":
            timeline.TIMELINE.card_seen(event.get("card"))  # the writes from now on are its
        paused = bool(self.actor.paused)
        if paused != self._paused_seen:  # players learn of a pause (never its reason)
            self._paused_seen = paused
            status = {"type": "table_status", "table_id": self.table_id, "paused": paused}
            self._queue(_Delivery(status, "public", [
                sub for sub in self._subscribers if sub.player is not None], plain=True))
        targets = (self._subscribers if audience == "public"
                   else list(self._by_audience.get(audience, ())))
        self._queue(_Delivery(event, audience, targets))

    async def delivered(self) -> None:
        """Until every event published so far, and the states after it, reached every
        subscriber."""
        while self._pending or ((self._due or self._flushes) and not self.states_held):
            await asyncio.sleep(0)

    def state_due(self, send: Callable[[], None], audience: str = "") -> None:
        """A client (of `audience`) is owed a state after the events in flight (`send`, once,
        after them all: a burst of events costs each client one state, not one per event).
        Asked when the state becomes owed; `send` must do nothing when none is owed."""
        self._due.append((send, audience))

    def flush_due(self, writer: Writer, audience: str = "") -> None:
        """A client has frames to write once the burst (its events, its state) is out:
        `writer.flush(joined)`, once, in the order asked, unless its outbox is empty by then
        (its state's write took them: most clients)."""
        self._flushes.append((writer, audience))

    def hold_states(self, held: bool, players: Iterable[str] | None = None) -> None:
        """The personal views are on their way (an edge fetching them): the states wait, and
        the burst's writes with them, so that a card's events and the state the page draws
        it from are one write to each player, not two (the views follow the events on the
        wire by the time the table takes to build the few that changed). With `players`,
        only theirs wait (a card to one seat: the others' views stand, their writes go at
        once); the holds of bursts in a row add up until released."""
        if not held:
            self.states_held, self.held_for = False, None
            self._due.extendleft(reversed(self._held_due))
            self._flushes.extendleft(reversed(self._held_flushes))
            self._held_due, self._held_flushes = deque(), deque()
            if self._due or self._flushes:
                self._kick()
        elif players is None or self.states_held:
            self.states_held = True
        else:
            held_for = self.held_for if self.held_for is not None else set()
            held_for.update(f"player:{p}" for p in players)
            self.held_for = held_for

    def _queue(self, delivery: _Delivery) -> None:
        """Deliveries go out in order; whoever subscribed after an event was published does
        not get it (their state has it already)."""
        self._pending.append(delivery)
        self._kick()

    def _kick(self) -> None:
        if not self._scheduled and not self._pumping:  # (an event published by a client
            self._pump()                               # as it is delivered waits its turn)

    def _pump(self) -> None:
        self._pumping = True
        try:
            self._pump_once()
        finally:
            self._pumping = False

    def _pump_once(self) -> None:
        """Deliver up to FANOUT_CHUNK messages, then let the event loop run (a serial
        reader, a timer, another table) before the next chunk: 10,000 players never hold
        the loop for the whole fan-out. The states owed go out once every event has, up to
        WRITE_CHUNK a turn."""
        self._scheduled = False
        budget = FANOUT_CHUNK
        while self._pending:
            d = self._pending[0]
            budget = d.run(budget, self.table_id)
            if budget <= 0 and not d.done:
                self._schedule()
                return
            self._pending.popleft()
        if self._due and not self.states_held and not self._states_turn:
            self._states_turn = True  # the burst may go on in this turn of the loop: the
            self._schedule()          # states wait for the next, coalesced
            return
        if not self._send_states(min(budget, WRITE_CHUNK)):
            self._schedule()
            return
        self._states_turn = False
        if not self.states_held:
            self._flush_some(WRITE_CHUNK)

    def _send_states(self, budget: int) -> bool:
        """The states owed, up to `budget` (False: some are left for the next turn)."""
        due, held_for = self._due, self.held_for
        while due and not self.states_held:
            if budget <= 0:
                return False
            budget -= 1
            entry = due.popleft()
            if held_for is not None and entry[1] in held_for:
                self._held_due.append(entry)
                continue
            try:
                entry[0]()
            except Exception:  # one broken client must not stop the others
                log.exception("table %s: a state failed", self.table_id)
        return True

    def _flush_some(self, budget: int) -> None:
        """The burst's writes, one a client, up to `budget` before the loop gets a turn."""
        flushes, joined = self._flushes, self.joined
        held_for = self.held_for
        while flushes and budget > 0:
            budget -= 1
            writer, audience = flushes.popleft()
            if not writer.outbox:
                continue  # written already (with its state) or dropped: nothing to hold
            if held_for is not None and audience in held_for:
                self._held_flushes.append((writer, audience))
                continue
            try:
                writer.flush(joined)
            except Exception:  # one broken client must not stop the others
                log.exception("table %s: a write failed", self.table_id)
        if flushes:
            self._schedule()
        else:
            joined.clear()

    def _schedule(self) -> None:
        self._scheduled = True
        asyncio.get_running_loop().call_soon(self._pump)

    def _track(self, audience: str, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if self.actor.private:  # a private table's player has no decision timer
            return
        if kind == "decision_requested":
            self.decision = {"position": event["position"], "turn": event["turn"],
                             "deadline": self.clock.now() + self.actor.cfg.timers.decision_s}
        elif kind in ("decision_timed_out", "round_closed", "round_voided", "betting_opened") or kind == "card_expected" and self.decision is not None:
            self.decision = None
        elif kind == "alert" and event.get("code") == "table.resumed" and self.decision:
            # the actor gives a fresh, full decision timer on resume
            self.decision = {**self.decision,
                             "deadline": self.clock.now() + self.actor.cfg.timers.decision_s}

    def devices_view(self) -> dict[str, Any]:
        """The devices' health for the dealer and technicians (studio/table/devices.py)."""
        a = self.attached
        if a is None:
            return {"devices": [], "device_faults": [], "dispute": None, "cross_check": False}
        v = a.view()
        states = {"shoe": v["shoe"], "shuffler": v["shuffler"]}
        devices = [{"device": name.rsplit("/", 1)[-1], "online": online,
                    "detail": states.get(name.rsplit("/", 1)[-1]) or ""}
                   for name, online in sorted(v["online"].items())]
        return {"devices": devices, "device_faults": v["recent_faults"][-10:],
                "dispute": v["dispute"], "fault_counts": v["faults"],
                "cross_check": v["cross_check"]}

    # -- views ----------------------------------------------------------------------------

    def view(self, audience: str) -> dict[str, Any]:
        """The table for one audience, plus the decision deadline and the server's time."""
        snap = self.actor.snapshot(audience)
        rnd = snap.get("round")
        if rnd is not None:
            d = self.decision
            # no countdown while the table is paused: resume starts a fresh, full one
            rnd["decision"] = dict(d) if d and rnd.get("deciding") == d["position"] and \
                rnd.get("turn", d["turn"]) == d["turn"] and not self.actor.paused else None
        if audience != "dealer" and snap.get("paused"):
            snap["paused"] = "paused"  # a pause reason may name a device fault: not for players
        snap["server_time"] = self.clock.now()
        paytable = getattr(self.actor.cfg, "paytable", None)  # the odds the page shows
        snap["paytable"] = paytable.model_dump() if paytable is not None else None
        timers = getattr(self.actor.cfg, "timers", None)  # a private table has none
        snap["timers"] = timers.model_dump() if timers is not None else None
        session = getattr(self.actor.cfg, "session", None)
        if session is not None:  # the regulation's session rules, for the page's alerts
            snap["session_rules"] = session.model_dump()
        if audience == "dealer":
            snap.update(self.devices_view())
            snap["alerts"] = self.actor.alerts[-30:]
            snap["recent_rounds"] = self.actor.history[-10:]
        return snap

    def state_text(self, audience: str) -> str:
        """A player's view of the table as JSON text, the same as `view(audience)` once
        parsed: the public part is built and encoded once per change of the table and
        shared by every player; the player's own part is appended inside the round (a later
        key wins when the client parses it). After a burst of events every connected player
        is sent this: ten thousand of them cost ten thousand small encodings, not ten
        thousand snapshots."""
        head, body = self._table_text(audience)
        return f'{head}{body},"server_time":{json.dumps(self.clock.now())}}}'

    def shared_state(self, audience: str) -> Outgoing:
        """A player's {"type": "state", "table"} message after a burst, shared by every
        player whose part of it is the same (all who do not play, all who bet alike at a
        seat): encoded and framed once for them all, and the very same object as long as
        neither the table nor the player's part changed (the client skips it then). Its
        server time is the time the table's public part last changed."""
        head, rnd = self._public_text()
        mine = None if rnd is None else self.actor.personal_text(audience.split(":", 1)[1])
        out = self._shared.get(mine)  # (the public part is the same for every entry)
        if out is None:
            out = self._shared[mine] = Outgoing(
                f'{{"type":"state","table":{head}{self._round_text(rnd, mine)},'
                f'"server_time":{self._shared_time}}}}}')
        return out

    def _table_text(self, audience: str) -> tuple[str, str]:
        """(the public part, without the round; the round with the player's part in it)."""
        head, rnd = self._public_text()
        if rnd is None:
            return head, self._round_text(None, None)
        return head, self._round_text(rnd, self.actor.personal_text(audience.split(":", 1)[1]))

    @staticmethod
    def _round_text(rnd: str | None, mine: str | None) -> str:
        if rnd is None:
            return ',"round":null'
        return ',"round":' + (rnd if not mine else
                              rnd[:-1] + ("," if rnd != "{}" else "") + mine + "}")

    def _public_text(self) -> tuple[str, str | None]:
        """(the public part, without the round; the round's public part), built and encoded
        once per change of the table; the states built on it (`_shared`) go when it changes."""
        key = (self.seq, self.actor.paused, self.actor.running, self.actor.changing_shoe)
        if self._public[0] != key:
            snap = self.view("public")
            del snap["server_time"]
            rnd = snap.pop("round")
            head = json.dumps(snap, separators=(",", ":"))[:-1]
            rnd_text = None if rnd is None else json.dumps(rnd, separators=(",", ":"))
            if (head, rnd_text) != self._public[1:]:  # else the states built on it stand
                self._shared = {}
                self._shared_time = json.dumps(self.clock.now())
            self._public = (key, head, rnd_text)
        return self._public[1], self._public[2]

    def balance(self, player: str) -> dict[str, int]:
        """What the player may bet (the studio's ledger and an operator's wallet) and what
        is in play."""
        with self.actor.store.reader() as tx:
            b = ledger.balance(tx, player)
        return {"available": b.available + self.outside_money(player), "reserved": b.reserved}
