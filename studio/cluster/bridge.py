"""The table process's side of a table served by edges: commands come in over NATS and go to
the actor (the single writer, unchanged); what the actor publishes goes out once per burst,
with the state after it, to every edge at once.

A burst is what the actor published between two turns of the event loop. It goes out as one
message (in parts, in order, if it is large) carrying the events, the public snapshot after
them, and the personal view of each player they named: an edge builds every one of its
players' states from that without asking (`studio.cluster.remote`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from studio.cluster import wire
from studio.table.actor import TableActor

log = logging.getLogger(__name__)


class TableBridge:
    def __init__(self, actor: TableActor, nc: Any) -> None:
        self.actor = actor
        self.nc = nc
        self.table_id = actor.table_id
        self.seq = 0  # bursts published
        # this process's run: an edge that sees another knows the table restarted (its
        # bursts count from 1 again) and takes the state afresh
        self.epoch = secrets.token_hex(8)
        self._burst: list[tuple[str, dict[str, Any]]] = []
        self._named: set[str] = set()
        self._flushing = False
        self._out: asyncio.Queue[list[bytes]] = asyncio.Queue()  # bursts, in order
        self._subs: list[Any] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe = lambda: None

    async def start(self) -> None:
        t = self.table_id
        self._subs = [
            await self.nc.subscribe(wire.subject(t, "cmd"), queue="table", cb=self._command),
            await self.nc.subscribe(wire.subject(t, "sync"), queue="table", cb=self._sync),
            await self.nc.subscribe(wire.subject(t, "presence"), cb=self._presence),
        ]
        self._unsubscribe = self.actor.hub.subscribe(self._on_event)
        self._tasks.append(asyncio.get_running_loop().create_task(self._publisher()))

    async def stop(self) -> None:
        self._unsubscribe()
        for sub in self._subs:
            await sub.unsubscribe()
        for task in self._tasks:
            task.cancel()

    # -- out: the bursts ------------------------------------------------------------------

    def _on_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != self.table_id:
            return
        self._burst.append((audience, event))
        self._named |= wire.named_players(audience, event)
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """The burst so far, with the state after it, queued for the wire as one message."""
        self._flushing = False
        events, named = self._burst, self._named
        self._burst, self._named = [], set()
        self.seq += 1
        public = any(audience == "public" for audience, _ in events)
        if public:  # a card, a decision asked: the view of everyone in the round may change
            named |= self.actor.round_players()
        stale = len(named) > wire.MAX_PERSONAL
        if stale:  # too many to send at once: the edges fetch them (`sync`) as they need
            named = {p for audience, e in events for p in wire.named_players(audience, e)}
        chunks = wire.parts(events)
        messages = []
        for i, chunk in enumerate(chunks, start=1):
            message: dict[str, Any] = {"epoch": self.epoch, "seq": self.seq, "part": i,
                                       "parts": len(chunks), "events": chunk}
            if i == len(chunks):
                message["public"] = self.actor.snapshot("public")
                message["personal"] = {p: self.actor.personal(p) for p in named}
                message["stale"] = stale
            messages.append(wire.encode(message))
        self._out.put_nowait(messages)

    async def _publisher(self) -> None:
        subject = wire.subject(self.table_id, "burst")
        while True:
            for data in await self._out.get():
                await self.nc.publish(subject, data)

    # -- in: commands, state, presence ----------------------------------------------------

    async def _command(self, msg: Any) -> None:
        try:
            request = wire.decode(msg.data)
            method, args = request["method"], request["args"]
            if method not in wire.METHODS or not isinstance(args, dict):
                raise ValueError(method)
            answer = await getattr(self.actor, method)(**args)
        except (ValueError, KeyError, TypeError):
            answer = {"ok": False, "error": {"code": "cluster.bad_command",
                                             "message": "the table does not take this"}}
        await msg.respond(wire.encode(answer))

    async def _sync(self, msg: Any) -> None:
        """The state now, for an edge that (re)joins or missed a burst."""
        try:
            players = [p for p in wire.decode(msg.data).get("players", [])
                       if isinstance(p, str)]
        except (ValueError, AttributeError):
            players = []
        await msg.respond(wire.encode({
            "epoch": self.epoch, "seq": self.seq, "public": self.actor.snapshot("public"),
            "personal": {p: self.actor.personal(p) for p in players}}))

    async def _presence(self, msg: Any) -> None:
        try:
            data = wire.decode(msg.data)
            self.actor.player_present(str(data["player"]), bool(data["here"]))
        except (ValueError, KeyError, TypeError):
            log.warning("table %s: a presence message that says nothing", self.table_id)
