"""The edge's side: a table served by a table process, looking local to the web application.

`RemoteActor` stands where the `TableActor` stands for the web: its commands go to the table
over NATS (request/reply, the idempotency keys unchanged), its snapshot is the public state
the last burst carried plus each player's personal view. Each burst's events are published
on a hub of the edge's own as soon as they arrive, so the edge's `TableService` fans them out
to its players as a table process would (each event framed once per audience form); the
players' states after the burst wait for the views that follow it, then go out shared by
every player whose part is the same (`TableService.shared_state`).

A burst missed (a gap in the sequence, a reconnection to NATS) makes the edge ask the table
for the state again (`sync`) and send every player a fresh state: never a guess.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from studio import timeline
from studio.clock import Clock
from studio.cluster import wire
from studio.games import game_for
from studio.storage import Store
from studio.table.hub import Hub
from studio.web.tables import TableService

log = logging.getLogger(__name__)
TIMEOUT_S = 5.0  # a command's answer from the table
# the longest the players' states wait for their views: NATS drops a message to a slow or
# cut subscriber, and a lost views message must not hold the states until the next card
VIEWS_WAIT_S = 2.0


def _refused(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


class RemoteActor:
    """What the web application reads of a table and asks it, over NATS."""

    private = False

    def __init__(self, cfg: Any, store: Store, clock: Clock, nc: Any) -> None:
        self.cfg = cfg
        self.table_id = cfg.id
        self.game = game_for(cfg.game)
        self.store = store
        self.clock = clock
        self.nc = nc
        self.hub = Hub()
        self.seq = 0
        self.epoch = ""  # the table process's run the state is from
        self.public: dict[str, Any] = {}
        # player -> (round, the player's view as the table encoded it for the states)
        self._personal: dict[str, tuple[str | None, str]] = {}
        self.history: list[dict[str, Any]] = []
        self.alerts: list[dict[str, Any]] = []
        self.last_bets: dict[str, Any] = {}
        self.command_observer = None
        self._parts: list[list[Any]] = []
        self._sub: Any = None
        self._viewing: int | None = None  # the burst whose players' views are on their way
        self._views_timer: Any = None  # VIEWS_WAIT_S after `_viewing` was set
        self._resync: asyncio.Task[None] | None = None  # the sync after views that did not come
        # the fan-out's: the players' states wait while their views are on their way
        self.hold_states: Callable[..., None] = lambda held, players=None: None

    # -- what the web reads ---------------------------------------------------------------

    @property
    def paused(self) -> Any:
        return self.public.get("paused")

    @property
    def running(self) -> bool:
        return bool(self.public.get("running"))

    @property
    def changing_shoe(self) -> bool:
        return bool(self.public.get("changing_shoe"))

    @property
    def state(self) -> Any:
        """The round as the lobby and the wallet read it (its id, betting, finished)."""
        rnd = self.public.get("round")
        if not rnd:
            return None
        phase = rnd.get("phase")
        return SimpleNamespace(round_id=rnd.get("round_id"), betting=phase == "betting",
                               finished=phase in ("closed", "void"),
                               closes_at=rnd.get("closes_at") or 0.0)

    def _round_id(self) -> str | None:
        rnd = self.public.get("round")
        return rnd.get("round_id") if rnd else None

    def personal(self, player: str) -> dict[str, Any]:
        """The player's own view, as the table last said it for this round (a new round: none
        yet, as for every player who has not bet)."""
        text = self.personal_text(player)
        return json.loads("{" + text + "}") if text else {}

    def personal_text(self, player: str) -> str:
        """`personal(player)` as JSON text without its braces (the states' part), as the
        table encoded it: an edge neither decodes nor encodes a view per state."""
        entry = self._personal.get(player)
        if entry is None or entry[0] != self._round_id():
            return ""
        return entry[1]

    def snapshot(self, audience: str = "public") -> dict[str, Any]:
        view = {**self.public}
        if view.get("round") is not None and audience.startswith("player:"):
            view["round"] = {**view["round"], **self.personal(audience.split(":", 1)[1])}
        return view

    # -- what the web asks ----------------------------------------------------------------

    async def _ask(self, method: str, **args: Any) -> dict[str, Any]:
        try:
            msg = await self.nc.request(wire.subject(self.table_id, "cmd"),
                                        wire.encode({"method": method, "args": args}),
                                        timeout=TIMEOUT_S)
        except Exception as e:  # noqa: BLE001 - a timeout, no responder: the same to a player
            log.warning("table %s: %s got no answer (%s)", self.table_id, method,
                        type(e).__name__)
            return _refused("table.unreachable", "the table did not answer: try again")
        return wire.decode(msg.data)

    async def place_bets(self, player: str, bets: list[dict[str, Any]], key: str) -> dict:
        return await self._ask("place_bets", player=player, bets=bets, key=key)

    async def cancel_bets(self, player: str, key: str) -> dict:
        return await self._ask("cancel_bets", player=player, key=key)

    async def repeat_bets(self, player: str, key: str) -> dict:
        return await self._ask("repeat_bets", player=player, key=key)

    async def set_autoplay(self, player: str, rounds: int, key: str) -> dict:
        return await self._ask("set_autoplay", player=player, rounds=rounds, key=key)

    async def decide(self, player: str, position: int, choice: str, key: str) -> dict:
        return await self._ask("decide", player=player, position=position, choice=choice,
                               key=key)

    async def deal(self, player: str, amount: int | None, key: str,
                   bets: list[dict[str, Any]] | None = None) -> dict:
        return await self._ask("deal", player=player, amount=amount, key=key, bets=bets)

    async def submit(self, kind: str, args: dict[str, Any], actor: str | None = None,
                     key: str | None = None) -> dict:
        return await self._ask("submit", kind=kind, args=args, actor=actor, key=key)

    def player_present(self, player: str, here: bool) -> None:
        task = asyncio.get_running_loop().create_task(self.nc.publish(
            wire.subject(self.table_id, "presence"), wire.encode({"player": player,
                                                                  "here": here})))
        task.add_done_callback(lambda t: t.exception())  # a lost presence is a timer's wait

    # -- the bursts -----------------------------------------------------------------------

    async def start(self) -> None:
        self._sub = await self.nc.subscribe(wire.subject(self.table_id, "burst"),
                                            cb=self._on_burst)
        await self.sync([])

    async def stop(self) -> None:
        if self._sub is not None:
            await self._sub.unsubscribe()

    async def sync(self, players: list[str]) -> None:
        """The table's state now (and these players' views): after a gap, at the start."""
        msg = await self.nc.request(wire.subject(self.table_id, "sync"),
                                    wire.encode({"players": players}), timeout=TIMEOUT_S)
        data = wire.decode(msg.data)
        self.epoch, self.seq, self.public = data["epoch"], data["seq"], data["public"]
        for player, mine in data["personal"].items():
            self._personal[player] = (self._round_id(), mine)

    async def prepare(self, player: str) -> None:
        """Before a player's first state from this edge: the player's own view."""
        if player not in self._personal:
            await self.sync([player])

    async def _on_burst(self, msg: Any) -> None:
        arrived = time.time() if timeline.TIMELINE is not None else 0.0
        data = wire.decode(msg.data)
        if "groups" in data:
            self._views(data)
            line = timeline.TIMELINE
            if line is not None and data["last"]:
                line.mark("views_in", line.card, arrived)
            return
        self._parts.append(data["events"])
        if data["part"] < data["parts"]:
            return
        events = [e for part in self._parts for e in part]
        self._parts = []
        if not self.epoch:
            return  # not synced yet: the sync under way brings this burst's state
        restarted = data["epoch"] != self.epoch
        if not restarted and data["seq"] <= self.seq:
            return  # already in the state a sync brought
        gap = restarted or (self.seq and data["seq"] != self.seq + 1)
        if gap:  # a burst (or its views) went missing, or the table process restarted (its
            # round in flight void and refunded by its recovery): the whole state again,
            # every player told
            log.warning("table %s: burst %d after %d; syncing", self.table_id, data["seq"],
                        self.seq)
            await self.sync(list(self._personal))
            self._release_views()
            self.hub.publish(self.table_id, "public", {"type": "resync",
                                                       "table_id": self.table_id})
            return
        self.public = data["public"]
        line = timeline.TIMELINE
        if line is not None and (card := timeline.card_of(events)) is not None:
            line.mark("burst_in", card, arrived)
        if data.get("views"):  # the players' states wait for their views; the events do not
            self._viewing = data["seq"]
            self.hold_states(True, data.get("owed"))  # (None: anyone's)
            self._arm_views_timer()
        for audience, event in events:
            self.hub.publish(self.table_id, audience, event)
        self.seq = data["seq"]  # last: the burst's events are handed on whole

    @property
    def settled(self) -> bool:
        """No views on their way: every state is the table's."""
        return self._viewing is None

    def _views(self, data: dict[str, Any]) -> None:
        """Views the bursts changed; with the last of those owed, the states can go out."""
        if data["epoch"] != self.epoch or self._viewing is None:
            return  # the views a sync already brought
        personal, round_id = self._personal, self._round_id()
        for mine, players in data["groups"]:
            entry = (round_id, mine)  # one text for every player it is theirs
            for player in players:
                personal[player] = entry
        if data["last"]:
            self._release_views()

    def _arm_views_timer(self) -> None:
        if self._views_timer is None:
            self._views_timer = self.clock.call_at(self.clock.now() + VIEWS_WAIT_S,
                                                   self._views_overdue, "views overdue")

    def _release_views(self) -> None:
        self._viewing = None
        if self._views_timer is not None:
            self._views_timer.cancel()
            self._views_timer = None
        self.hold_states(False)

    def _views_overdue(self) -> None:
        """The views did not come: every player's view fetched again (a sync), then the
        states go out."""
        self._views_timer = None
        if self._viewing is None:
            return
        log.warning("table %s: the views after burst %d did not come; syncing", self.table_id,
                    self._viewing)
        viewing = self._viewing

        async def resync() -> None:
            try:
                await self.sync(list(self._personal))
            finally:
                if self._viewing == viewing:  # (no newer burst took the hold over)
                    self._release_views()
                else:
                    self._arm_views_timer()
        self._resync = asyncio.get_running_loop().create_task(resync())


class RemoteTable(TableService):
    """A `TableService` over a `RemoteActor`: the edge's fan-out to its own players."""

    def __init__(self, cfg: Any, store: Store, clock: Clock, nc: Any) -> None:
        super().__init__(RemoteActor(cfg, store, clock, nc), clock)
        self.actor.hold_states = self.hold_states

    async def start(self) -> None:
        await self.actor.start()

    async def prepare(self, player: str) -> None:
        await self.actor.prepare(player)
