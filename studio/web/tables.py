"""One table as the web layer sees it: the actor, the views clients get, and the event feed.

The actor's hub is the only source of events. `TableService` subscribes once and hands each
event to the clients whose audience may see it, redacted for players (another player's id never
reaches a player). It also keeps what a (re)connecting client needs but the actor's snapshot
does not carry: the decision deadline, and the devices' health (from the table's attached
devices, studio/table/devices.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio import ledger
from studio.clock import Clock
from studio.table.actor import TableActor
from studio.table.devices import AttachedDevices
from studio.web.history import HistoryProjection

log = logging.getLogger(__name__)

Deliver = Callable[[dict[str, Any]], None]


@dataclass
class Subscriber:
    """A client: `audience` is "player:<id>" or "dealer" (dealers and technicians)."""

    audience: str
    deliver: Deliver

    @property
    def player(self) -> str | None:
        return self.audience.split(":", 1)[1] if self.audience.startswith("player:") else None


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
        self._unsubscribe = actor.hub.subscribe(self._on_event)
        self.seq = 0  # events fanned out so far (clients see it as a change counter)
        self._paused_seen = False

    def close(self) -> None:
        self._unsubscribe()

    # -- fan-out --------------------------------------------------------------------------

    @property
    def _subscribers(self) -> list[Subscriber]:
        return [sub for subs in self._by_audience.values() for sub in subs]

    def subscribe(self, audience: str, deliver: Deliver) -> Callable[[], None]:
        sub = Subscriber(audience, deliver)
        self._by_audience.setdefault(audience, []).append(sub)

        def unsubscribe() -> None:
            subs = self._by_audience.get(audience, [])
            if sub in subs:
                subs.remove(sub)
            if not subs:
                self._by_audience.pop(audience, None)
        return unsubscribe

    def _on_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != self.table_id:
            return
        self._track(audience, event)
        self.seq += 1
        paused = bool(self.actor.paused)
        if paused != self._paused_seen:  # players learn of a pause (never its reason)
            self._paused_seen = paused
            status = {"type": "table_status", "table_id": self.table_id, "paused": paused}
            for sub in list(self._subscribers):
                if sub.player is not None:
                    sub.deliver(status)
        if audience == "public":  # everyone, each player seeing it as themselves
            targets = [(sub, event if sub.player is None
                        else redact_for_player(event, sub.player)) for sub in self._subscribers]
        else:  # "dealer" or one player's own event
            targets = [(sub, event) for sub in list(self._by_audience.get(audience, ()))]
        for sub, message in targets:
            try:
                sub.deliver(message)
            except Exception:  # one broken client must not stop the others
                log.exception("table %s: delivering %s failed", self.table_id, event.get("type"))

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
                rnd.get("phase") == "decisions" and not self.actor.paused else None
        if audience != "dealer" and snap.get("paused"):
            snap["paused"] = "paused"  # a pause reason may name a device fault: not for players
        snap["server_time"] = self.clock.now()
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

    def balance(self, player: str) -> dict[str, int]:
        with self.actor.store.reader() as tx:
            b = ledger.balance(tx, player)
        return {"available": b.available, "reserved": b.reserved}
