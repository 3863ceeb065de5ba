"""Private virtual tables: one instance of a table per player, opened on demand.

Each player who opens a private table gets an actor of their own (`TableActor(instance=...)`,
stream `table:<table>/<player>`), paced by the player, dealt by the RNG shoe. Thousands run in
one process: an instance is a small object and an idle asyncio task.

The regulations' session rules ("Disconnessioni e inattività") decide how long an instance
outlives its player's connection (`SessionRules`, configured per table):

- connected: the instance stays;
- gone (the connection lost and not back, or the web session closed for inactivity): with a
  choice pending, the instance waits `pending_choice_s` (a week) for the player to come back
  and choose; then the system makes the regulation's choices (`DecisionTimeout`, the game's
  automatic choice) and the hand settles. With nothing pending it waits `idle_close_s`
  (5 minutes). Then the game session closes: the instance is stopped and forgotten, and a
  `game_session_closed` event records the credit the player leaves with. (With the embedded
  ledger the player's table credit is their ledger balance, so nothing moves back; an
  operator's wallet gets its credit at that moment.)

After a crash, `recover` finds instances left with a hand in flight: each is opened, which
voids and refunds that hand once (`TableActor.recover`), and closed again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from studio import ledger
from studio.clock import Clock, Timer
from studio.storage import Store, event_log, idempotency
from studio.table.actor import TableActor
from studio.table.hub import Hub
from studio.table.rng_shoe import RngShoe
from studio.table.seam import Event

log = logging.getLogger(__name__)


class SharedInbox:
    """A private table's inbox: its commands join the group's queue, tagged with the table."""

    def __init__(self, queue: asyncio.Queue, actor: TableActor) -> None:
        self.queue = queue
        self.actor = actor

    def put_nowait(self, cmd: Any) -> None:
        self.queue.put_nowait((self.actor, cmd))

    def empty(self) -> bool:
        return self.queue.empty()


class CommitGroup:
    """One writer for many private tables: commands of every instance are processed in
    arrival order, each by its own table, and a batch of them commits as ONE transaction
    (thousands of tables, each paced by its player, cannot each afford a commit per card).

    Each table still has a single writer (this task), and a batch is all or nothing: if
    anything unexpected fails, the transaction rolls back, every table of the batch goes back
    to its state before it, and each command is retried alone."""

    MAX_BATCH = 1024

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: asyncio.Queue[tuple[TableActor, Any]] = asyncio.Queue()
        self._task: asyncio.Task | None = None
        self.batches = 0
        self.heads: dict[str, tuple[int, str]] = {}  # stream -> (seq, hash) as committed

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="private-tables")

    async def stop(self) -> None:
        from studio.tasks import cancel

        await cancel(self._task)
        self._task = None

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < self.MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            self.process(batch)

    def process(self, batch: list[tuple[TableActor, Any]]) -> None:
        alone = [(a, c) for a, c in batch if c.kind in ("bet", "cancel")]
        grouped = [(a, c) for a, c in batch if c.kind not in ("bet", "cancel")]
        tables = {id(a): a for a, _ in grouped}
        saved = {k: a.saved() for k, a in tables.items()}
        deferred: list[Callable[[], None]] = []
        events: list = []
        try:
            with self.store.transaction() as tx:
                # this task is the only writer of its tables' streams: it knows their heads
                event_log.seed_heads(tx, self.heads)
                # one lookup for every repeated key of the batch (most are new)
                idempotency.recall_many(tx, [(c.actor, c.key) for _, c in grouped
                                             if c.actor is not None])
                for actor, cmd in grouped:
                    actor.process_within(tx, deferred, events, cmd)
                tx.append_events(events, stored=False)
                heads = event_log.known_heads(tx)
            self.heads.update(heads)
            if len(self.heads) > 100_000:
                self.heads.clear()
        except Exception:
            log.exception("private tables: a batch of %d failed; each command alone",
                          len(grouped))
            self.heads.clear()
            for k, a in tables.items():
                a.restore(saved[k])
            alone = batch
            deferred = []
        self.batches += 1
        for fn in deferred:
            fn()
        for actor, cmd in alone:
            actor.run_alone(cmd)


@dataclass
class Instance:
    player: str
    actor: TableActor
    connections: set[int] = field(default_factory=set)  # the player's live connections
    away_since: float | None = None
    timer: Timer | None = None
    expired: bool = False  # the week is over: the system chooses for the player
    listeners: list[Callable[[], None]] = field(default_factory=list)


class PrivateTables:
    """Every player's instance of one private table."""

    def __init__(self, cfg: Any, store: Store, clock: Clock, hub: Hub,
                 shoe: Callable[[], RngShoe] = RngShoe) -> None:
        self.cfg = cfg
        self.table_id = cfg.id
        self.rules = cfg.session
        self.store = store
        self.clock = clock
        self.hub = hub
        self.shoe = shoe
        self.instances: dict[str, Instance] = {}
        self.on_open: list[Callable[[TableActor], None]] = []  # e.g. the web's TableService
        self.on_close: list[Callable[[TableActor], None]] = []
        self.closed_sessions = 0
        self._tasks: set[asyncio.Task] = set()
        self.group = CommitGroup(store)

    def instance_id(self, player: str) -> str:
        return f"{self.table_id}/{player}"

    # -- opening and closing ----------------------------------------------------------------

    async def open(self, player: str) -> TableActor:
        """The player's instance, started (recovering its log) on first use."""
        inst = self.instances.get(player)
        if inst is None:
            actor = TableActor(self.cfg, self.store, self.clock, self.hub,
                               rng_shoe=self.shoe(), instance=player)
            inst = self.instances[player] = Instance(player, actor)
            self.group.start()
            await actor.start(SharedInbox(self.group.queue, actor))
            for fn in self.on_open:
                fn(actor)
        return inst.actor

    async def close(self, player: str, reason: str) -> None:
        """The game session ends: record the credit the player leaves with, stop the
        instance. A hand still in play is never closed here (see `gone`)."""
        inst = self.instances.pop(player, None)
        if inst is None:
            return
        if inst.timer is not None:
            inst.timer.cancel()
        actor = inst.actor
        await actor.drain()
        with self.store.reader() as tx:
            b = ledger.balance(tx, player)
        actor.record([Event("game_session_closed", {
            "player": player, "reason": reason, "credit": b.available})])
        self.hub.publish(actor.table_id, f"player:{player}", {
            "type": "game_session_closed", "table_id": actor.table_id, "reason": reason,
            "credit": b.available})
        for fn in self.on_close:
            fn(actor)
        await actor.stop()
        self.closed_sessions += 1

    async def stop(self) -> None:
        for inst in list(self.instances.values()):
            if inst.timer is not None:
                inst.timer.cancel()
            await inst.actor.stop()
        self.instances.clear()
        await self.group.stop()

    # -- the player's presence --------------------------------------------------------------

    def connected(self, player: str, connection: int = 0) -> None:
        inst = self.instances.get(player)
        if inst is None:
            return
        inst.connections.add(connection)
        inst.away_since = None
        if inst.timer is not None and not inst.expired:
            inst.timer.cancel()
            inst.timer = None

    def disconnected(self, player: str, connection: int = 0) -> None:
        inst = self.instances.get(player)
        if inst is None:
            return
        inst.connections.discard(connection)
        if not inst.connections:
            self.gone(player)

    def gone(self, player: str) -> None:
        """The player is away (connection lost, or the session closed for inactivity)."""
        inst = self.instances.get(player)
        if inst is None or inst.expired:
            return
        now = self.clock.now()
        inst.away_since = now
        pending = inst.actor.state is not None and not inst.actor.state.finished
        wait = self.rules.pending_choice_s if pending else self.rules.idle_close_s
        if inst.timer is not None:
            inst.timer.cancel()
        inst.timer = self.clock.call_at(now + wait, lambda: self._expire(player),
                                        f"private:{self.instance_id(player)}")

    def _expire(self, player: str) -> None:
        inst = self.instances.get(player)
        if inst is None or inst.away_since is None:
            return
        inst.expired = True
        task = asyncio.get_running_loop().create_task(self._finish(player))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _finish(self, player: str) -> None:
        """The wait is over: choose for the player until the hand settles, then close."""
        inst = self.instances.get(player)
        if inst is None:
            return
        actor = inst.actor
        await actor.drain()
        for _ in range(64):  # a hand takes a handful of choices; bounded all the same
            s = actor.state
            if s is None or s.finished or not s.awaiting_decision:
                break
            await actor.submit("decision_timeout", {"position": s.deciding, "turn": s.turn})
            await actor.drain()
        s = actor.state
        if s is not None and not s.finished:
            log.warning("private table %s: hand %s still open after the automatic choices",
                        actor.table_id, s.round_id)
            inst.expired = False
            return
        await self.close(player, "away")

    # -- recovery ----------------------------------------------------------------------------

    async def recover(self) -> list[str]:
        """Open and close every instance whose log ends with a hand in flight: the hand is
        void and refunded once (by the actor's recovery). Returns the players concerned."""
        prefix = f"table:{self.table_id}/"
        players: list[str] = []
        with self.store.reader() as tx:
            for stream in event_log.streams(tx):
                if not stream.startswith(prefix):
                    continue
                opened = finished = 0
                for ev in event_log.iter_events(tx, stream_id=stream, after_stream_seq=(
                        event_log.recent_start(tx, stream, "betting_opened", 1))):
                    if ev.type == "betting_opened":
                        opened += 1
                    elif ev.type in ("round_closed", "round_voided"):
                        finished += 1
                if opened > finished:
                    players.append(stream[len(prefix):])
        for player in players:
            await self.open(player)
            await self.close(player, "recovered")
        return players
