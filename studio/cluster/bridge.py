"""The table process's side of a table served by edges: commands come in over NATS and go to
the actor (the single writer, unchanged); what the actor publishes goes out once per burst,
with the state after it, to every edge at once.

A burst is what the actor published between two turns of the event loop. It goes out as one
message (in parts, in order, if it is large) carrying the events and the public snapshot
after them, then the personal views that changed of the players it may concern, in parts of
their own: an edge hands the events to its players at once and builds their states once the
views are in (`studio.cluster.remote`), without asking.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from studio import timeline
from studio.cluster import wire
from studio.table.actor import TableActor

log = logging.getLogger(__name__)

# commands being answered at once (bets from every edge's players in a betting window); more
# wait in NATS's queue for the subscription
COMMANDS_IN_FLIGHT = 1000


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
        self._viewed: Any = None  # the actor's state at the last burst (`_flush`)
        self._flushing = False
        # bursts, in order: (seq, the events' messages, the players whose views may change,
        # the card the burst deals: the benchmark's timeline)
        self._out: asyncio.Queue[tuple[int, list[bytes], set[str], str | None]] = \
            asyncio.Queue()
        # player -> (round, view) last sent (the actor's own object: `personal_entry`)
        self._sent: dict[str, tuple[str | None, dict[str, Any]]] = {}
        self._subs: list[Any] = []
        self._gate = asyncio.Semaphore(COMMANDS_IN_FLIGHT)
        self._answering: set[asyncio.Task[None]] = set()
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
        for task in [*self._tasks, *self._answering]:
            task.cancel()

    # -- out: the bursts ------------------------------------------------------------------

    def _on_event(self, table_id: str, audience: str, event: dict[str, Any]) -> None:
        if table_id != self.table_id:
            return
        self._burst.append((audience, event))
        self._named |= wire.named_players(audience, event)
        if timeline.TIMELINE is not None and event.get("type") == "card_dealt":
            timeline.TIMELINE.mark("event", event.get("card"))
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """The burst so far, with the public state after it, queued for the wire; the players'
        views follow it (`_publisher`)."""
        self._flushing = False
        events, named = self._burst, self._named
        self._burst, self._named = [], set()
        self.seq += 1
        everyone = False
        if any(audience == "public" for audience, _ in events):  # a card, a decision asked:
            # the views the game says the burst may have changed (a card to one seat: that
            # seat's players; none: the edges need not wait for views), else everyone's
            changed = self.actor.views_changed_since(self._viewed)
            everyone = changed is None
            named |= self.actor.round_players() if everyone else set(changed)
            self._viewed = getattr(self.actor, "state", None)
        chunks = wire.parts(events)
        messages = []
        for i, chunk in enumerate(chunks, start=1):
            message: dict[str, Any] = {"epoch": self.epoch, "seq": self.seq, "part": i,
                                       "parts": len(chunks), "events": chunk}
            if i == len(chunks):
                message["public"] = self.actor.snapshot("public")
                message["views"] = bool(named)
                if named and not everyone:  # only these players' states wait on the edges
                    message["owed"] = sorted(named)
            messages.append(wire.encode(message))
        card = timeline.card_of(events) if timeline.TIMELINE is not None else None
        self._out.put_nowait((self.seq, messages, named, card))

    async def _publisher(self) -> None:
        """Each burst's events first, on the wire at once; then the views of the players it
        may have changed (thousands at a full table), built a few hundred at a time with a
        turn of the loop between: a command, and the next burst's events, never wait for
        them. A view goes out only when it differs from the one last sent for the round; it
        is as it is when built (never older than its burst). The views built go out together
        once every one owed so far is (`views_message`: the edges' states wait for the last
        of them anyway, and each message more is turns of an edge's loop, busy writing,
        before it reads the one that says "last"), or sooner in parts when they grow past
        MAX_PART."""
        subject = wire.subject(self.table_id, "burst")
        pending: set[str] = set()
        built: dict[str, str] = {}  # player -> view text, built and not sent yet
        size = 0
        viewing: str | None = None  # the last card whose views are pending (the timeline)
        while True:
            if pending and self._out.empty():
                chunk = [pending.pop() for _ in range(min(wire.MAX_PERSONAL, len(pending)))]
                for p, text in self._changed(chunk):
                    built[p] = text  # (built again after a later burst: the later one)
                    size += len(text) + len(p) + 6
                if not pending or size > wire.MAX_PART:
                    await self.nc.publish(subject, self.views_message(built, not pending))
                    built, size = {}, 0
                    if not pending and timeline.TIMELINE is not None and viewing:
                        await asyncio.sleep(0)  # (the client's flusher writes it)
                        timeline.TIMELINE.mark("views", viewing)
                await asyncio.sleep(0)
                continue
            _, messages, named, card = await self._out.get()
            for data in messages:
                await self.nc.publish(subject, data)
            pending |= named
            if pending:  # the events leave before the views are built: the NATS client's
                # flusher, woken by the publish, writes them in this turn of the loop (not
                # `flush()`, which waits for the server's answer to a ping as well: 10-20 ms
                # a card with the cores busy writing to players, the views waiting for it)
                await asyncio.sleep(0)
            if card is not None:  # (the timeline is on)
                timeline.TIMELINE.mark("published", card)  # type: ignore[union-attr]
                viewing = card if named else viewing

    def views_message(self, built: dict[str, str], last: bool) -> bytes:
        """The views built, each text once with the players it is theirs (players keyed alike
        share one: a seat of 3,000 players who bet alike is one text, not 3,000, for the
        table to encode and each edge to decode); "last": every view owed so far is out."""
        groups: dict[str, list[str]] = {}
        for p, text in built.items():
            players = groups.get(text)
            if players is None:
                groups[text] = [p]
            else:
                players.append(p)
        return wire.encode({"epoch": self.epoch, "seq": self.seq,
                            "groups": [[text, players] for text, players in groups.items()],
                            "last": last})

    def _changed(self, players: list[str]) -> list[tuple[str, str]]:
        """The players whose views changed since last sent, with their views as the states'
        text (`TableActor.personal_text`): encoded once here, not again on every edge."""
        state = getattr(self.actor, "state", None)
        round_id = getattr(state, "round_id", None)
        out = []
        entry_of, text_of, sent_to = self.actor.personal_entry, self.actor.personal_text, \
            self._sent
        for p in players:
            entry = entry_of(p)  # built only when its key changed
            mine = entry[0]
            sent = sent_to.get(p)
            if sent is not None and sent[0] == round_id and (sent[1] is mine or sent[1] == mine):
                continue  # compared as dicts: encoding each to compare cost more
            sent_to[p] = (round_id, mine)
            # a keyed view comes with its text (`personal_text` would look it up again)
            out.append((p, entry[1] if entry[1] is not None else text_of(p)))
        return out

    # -- in: commands, state, presence ----------------------------------------------------

    async def _command(self, msg: Any) -> None:
        """NATS hands a subscription's messages over one at a time: each command is answered
        in a task of its own, so thousands of bets are in the actor's queue at once (it
        commits them together) instead of one commit per bet, each waiting for the one
        before. At most COMMANDS_IN_FLIGHT at once: more wait in NATS."""
        await self._gate.acquire()
        task = asyncio.get_running_loop().create_task(self._answer(msg))
        self._answering.add(task)
        task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[None]) -> None:
        self._answering.discard(task)
        self._gate.release()
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: a command's answer failed", self.table_id,
                      exc_info=task.exception())

    async def _answer(self, msg: Any) -> None:
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
            "personal": {p: self.actor.personal_text(p) for p in players}}))

    async def _presence(self, msg: Any) -> None:
        try:
            data = wire.decode(msg.data)
            self.actor.player_present(str(data["player"]), bool(data["here"]))
        except (ValueError, KeyError, TypeError):
            log.warning("table %s: a presence message that says nothing", self.table_id)
