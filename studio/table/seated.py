"""Seated tables: players sit down with table credit and are each other's counterparties.

A concept the round-and-betting-window core (`studio.table.actor`) does not have: no betting
window and no house on the other side of the bets; players take seats, buy table credit from
their account, take turns (one of them banks for the others), and the cards come from the
table's RNG shoe with no dealer. The game is a pure state machine (`SeatedGame`): the core
feeds it inputs (a player's command, a card, a shuffle, a timer's expiry) and writes what it
returns, in ONE transaction per command: the input as an event (events are the truth), the
game's events, and its money moves as ledger transfers (`studio.ledger_transfers`) between the
players' accounts, their table credit (``seat:<table>:<player>``), the table's pool and the rake
account. Each move is a transaction ticket: its id ``<table>:t<n>`` is the ticket number.

Inputs the core itself makes: ``shuffle`` and ``card`` (the RNG shoe), ``timeout`` (the timer
the game asked for, `wake_at`), ``void`` and ``resume`` (a restart: the hand in flight is void,
or, with none, the table resumes and its timers start afresh).

Rounds: a round (the game's unit of play, e.g. a bank) starts with a ``round_opened`` event
holding a snapshot of the table before it and ends with ``round_closed`` holding the snapshot
after it. `replay_round` feeds a round's logged inputs to the game again from its snapshot and
returns the transfers they imply (the audit compares them with the ledger). A restart does the
same from the last snapshot: the table is rebuilt from its log, and a hand left in flight is
void (the game goes back to its last checkpoint, `SeatedGame.void`), logged as a ``void`` input.

One writer: every seated table of a process is stepped by one task (`SeatedTables`), which
commits a batch of commands of many tables as one transaction (group commit: hundreds of tables
cannot each afford a commit per card); if anything unexpected fails, the batch rolls back, each
table goes back to its state before it, and each command is retried alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from studio import ledger, ledger_transfers
from studio.cards import DeckKind, deck
from studio.clock import Clock, Timer
from studio.ledger_transfers import Transfer, pool_account, seat_account
from studio.storage import Store, bulk, event_log, idempotency
from studio.storage.event_log import NewEvent, StoredEvent
from studio.table.hub import Hub
from studio.table.rng_shoe import RngShoe

log = logging.getLogger(__name__)

SNAPSHOTS = ("round_opened", "round_closed")
MAX_BATCH = 1024


class GameStep(Protocol):
    """What one input did: the new state, events (type, data) and money moves."""

    table: Any
    events: list[tuple[str, dict[str, Any]]]
    moves: Sequence[Any]  # each with .ticket (int), .kind (str), .legs ({name: cents})


class SeatedGame(Protocol):
    """A game for seated tables. Every method is pure. Money legs name accounts as the table
    sees them: ``seat:<player>``, ``wallet:<player>``, ``pool``, ``rake``."""

    name: str
    deck_kind: DeckKind
    seated: bool  # True: `studio.table.replay` picks `replay_round` for its audit
    refusal: type[Exception]  # what `step` raises to refuse an input (with a stable `.code`)

    def setup(self, cfg: Any) -> Any: ...

    def new_state(self, setup: Any) -> Any: ...

    def step(self, state: Any, inp: Mapping[str, Any]) -> GameStep: ...

    def void(self, state: Any, checkpoint: Any, now: float) -> GameStep: ...

    def needs(self, state: Any) -> str | None:
        """"shuffle", "card" (from the RNG shoe) or None."""

    def card_usable(self, state: Any, code: str) -> bool: ...

    def wake_at(self, state: Any) -> float | None: ...

    def at_checkpoint(self, state: Any) -> bool: ...

    def round_id(self, state: Any, table_id: str) -> str | None: ...

    def books_money(self, state: Any) -> bool:
        """False when the table plays for chips, not money (a tournament): its moves are
        logged as tickets of chips and never reach the ledger."""

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> Any: ...

    def view(self, state: Any, player: str | None) -> dict[str, Any]: ...


def account_of(table_id: str, name: str) -> str:
    """The ledger account of a leg the game names."""
    if name.startswith("seat:"):
        return seat_account(table_id, name[5:])
    if name.startswith("wallet:"):
        return ledger.player_account(name[7:])
    if name == "pool":
        return pool_account(table_id)
    if name == "rake":
        return ledger_transfers.RAKE_ACCOUNT
    raise ValueError(f"no account for {name!r}")


def transfers_of(table_id: str, round_id: str | None, moves: Sequence[Any]) -> list[Transfer]:
    return [Transfer.of(f"{table_id}:t{m.ticket}",
                        {account_of(table_id, k): v for k, v in m.legs.items()}, round_id)
            for m in moves]


@dataclass
class _Cmd:
    table: SeatedTable
    input: dict[str, Any] | None  # None: a barrier (drain)
    actor: str | None = None
    key: str | None = None
    future: asyncio.Future | None = None
    arrived: float = field(default_factory=time.perf_counter)


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SeatedTable:
    """One seated table: its state, its stream, its shoe, its timer. Stepped by its group."""

    def __init__(self, cfg: Any, game: SeatedGame, store: Store, clock: Clock, hub: Hub,
                 group: SeatedTables, rng_shoe: RngShoe | None = None) -> None:
        self.cfg = cfg
        self.table_id: str = cfg.id
        self.stream = f"table:{self.table_id}"
        self.game = game
        self.store = store
        self.clock = clock
        self.hub = hub
        self.group = group
        self.rng = rng_shoe or RngShoe()
        if self.rng.cards is None:
            self.rng.cards = deck(game.deck_kind)
        self.state: Any = game.new_state(game.setup(cfg))
        self.checkpoint: Any = self.state
        self._timer: Timer | None = None
        self._timer_at: float | None = None
        self.inputs = 0
        self._closed: list[str] = []  # rounds closed in the unit not yet announced
        self.command_observer: Callable[[SeatedTable, str, float], None] | None = None

    # -- the public API ----------------------------------------------------------------------

    async def act(self, player: str, command: dict[str, Any], key: str) -> dict[str, Any]:
        """A player's command (idempotent by `key`); the answer says ok or the stable code."""
        inp = {**command, "player": player}
        return await self.group.submit(_Cmd(self, inp, f"player:{player}", key))

    def post(self, inp: dict[str, Any]) -> None:
        """Fire and forget (the timer)."""
        self.group.queue.put_nowait(_Cmd(self, inp))

    def view(self, player: str | None = None) -> dict[str, Any]:
        return {"table_id": self.table_id, "name": getattr(self.cfg, "name", self.table_id),
                "game": self.game.name, "deck_art": str(getattr(self.cfg, "deck_art", "")),
                "now": self.clock.now(),  # the page's timer counts down from the table's clock
                **self.game.view(self.state, player)}

    # -- recovery ----------------------------------------------------------------------------

    def recover(self) -> None:
        """Rebuild the table from its log since the last snapshot; a hand in flight is void."""
        with self.store.reader() as tx:
            p = bulk.placeholder(tx.conn)
            rows = bulk.fetch(tx.conn, "SELECT MAX(stream_seq) FROM event_log WHERE "
                              f"stream_id = {p} AND type IN ({p}, {p})",
                              (self.stream, *SNAPSHOTS))
            start = int(rows[0][0] or 1) - 1
            events = list(event_log.iter_events(tx, stream_id=self.stream,
                                                after_stream_seq=start))
        state, checkpoint = self.state, self.checkpoint
        for ev in events:
            if ev.type in SNAPSHOTS:
                state = checkpoint = self.game.from_json(ev.payload["snapshot"])
            elif ev.type == "input":
                state = _feed(self.game, state, checkpoint, ev.payload["input"]).table
                if self.game.at_checkpoint(state):
                    checkpoint = state
            self.inputs += ev.type == "input"
        self.state, self.checkpoint = state, checkpoint
        if not events:
            return self._arm()  # a new table
        # a hand in flight is void; otherwise the table resumes: timers start afresh
        kind = "resume" if self.game.at_checkpoint(state) else "void"
        with self.store.transaction() as tx:
            events_out: list[NewEvent] = []
            self._apply(tx, {"type": kind, "now": self.clock.now()}, events_out)
            self._deal(tx, events_out)
            tx.append_events(events_out, stored=False)
        if kind == "void":
            log.warning("table %s: the hand in flight is void (restart)", self.table_id)
        self._arm()

    # -- stepping (inside the group's transaction) -------------------------------------------

    def process(self, tx: Any, cmd: _Cmd, events: list[NewEvent],
                answered: dict[tuple[str, str], Any]) -> dict[str, Any]:
        """One command: its first answer if `answered` (the batch's recalled and new answers)
        has it, or step it and feed the shoe; the events join `events` and the answer
        `answered` (both written by the group before the commit). Refusals are answers."""
        player = cmd.input.get("player") if cmd.input else None
        if cmd.actor is not None and cmd.key is not None:
            first = answered.get((cmd.actor, cmd.key))
            if first is not None:  # the same outcome, and the table as it is now
                return {**first, "state": self.view(player)} if first.get("ok") else first
        assert cmd.input is not None
        mine: list[NewEvent] = []
        saved = (self.state, self.checkpoint, self.inputs)
        announced = len(self._closed)
        try:  # a refusal undoes whatever this command wrote, nothing else
            with bulk.savepoint(tx.conn, "seated_command"):
                self._apply(tx, {**cmd.input, "now": self.clock.now()}, mine)
                self._deal(tx, mine)
        except (self.game.refusal, ledger.LedgerError, Refused) as e:
            self.state, self.checkpoint, self.inputs = saved
            del self._closed[announced:]
            answer = {"ok": False, "error": {"code": getattr(e, "code", "table.refused"),
                                             "message": str(e)}}
        else:
            events.extend(mine)
            answer = {"ok": True}
        if cmd.actor is not None and cmd.key is not None:
            answered[(cmd.actor, cmd.key)] = answer  # remembered without the state
        return {**answer, "state": self.view(player)} if answer["ok"] else answer

    def _apply(self, tx: Any, inp: dict[str, Any], events: list[NewEvent]) -> None:
        before = self.state
        step = _feed(self.game, before, self.checkpoint, inp)
        after = step.table
        rid_before = self.game.round_id(before, self.table_id)
        rid = self.game.round_id(after, self.table_id) or rid_before
        if rid_before is None and rid is not None:
            events.append(NewEvent(self.stream, "round_opened",
                                   {"snapshot": self.game.to_json(before)}, rid))
        events.append(NewEvent(self.stream, "input", {"input": inp}, rid))
        events.extend(NewEvent(self.stream, t, d, rid) for t, d in step.events)
        transfers = transfers_of(self.table_id, rid, step.moves)
        money = self.game.books_money(after)
        if transfers and money:
            ledger_transfers.transfer_many(tx, transfers)  # refuses before any write
        events.extend(NewEvent(self.stream, "ticket", {
            "ticket": t.movement_id, "kind": m.kind, "legs": dict(m.legs),
            "unit": "cents" if money else "chips"}, rid)
            for t, m in zip(transfers, step.moves, strict=True))
        if rid is not None and self.game.round_id(after, self.table_id) is None:
            events.append(NewEvent(self.stream, "round_closed",
                                   {"snapshot": self.game.to_json(after)}, rid))
            self._closed.append(rid)
        self.state = after
        if self.game.at_checkpoint(after):
            self.checkpoint = after
        self.inputs += 1

    def _deal(self, tx: Any, events: list[NewEvent]) -> None:
        """The RNG shoe does what the game needs: shuffle, or the next card."""
        for _ in range(500):
            need = self.game.needs(self.state)
            if need is None:
                return
            if need == "shuffle":
                self.rng.new_deck(f"{self.table_id}:{self.inputs}")
                self._apply(tx, {"type": "shuffle", "now": self.clock.now()}, events)
                continue
            card = self.rng.next_card()
            if card is None:  # the deck ran dry mid-bank: a new one (cards in play excluded)
                self.rng.new_deck(f"{self.table_id}:{self.inputs}")
                self._apply(tx, {"type": "shuffle", "now": self.clock.now()}, events)
                continue
            if self.game.card_usable(self.state, card.code):
                self._apply(tx, {"type": "card", "card": card.code, "now": self.clock.now()},
                            events)
        raise Refused("table.shoe_stuck", "the shoe could not give the cards the game needs")

    # -- after the commit --------------------------------------------------------------------

    def committed(self) -> None:
        """Publish what changed and set the timer (only once the commit is durable)."""
        closed, self._closed = self._closed, []
        if self.hub.watched(self.table_id):
            for rid in closed:  # a round's end, as every table announces it (the wallets)
                self.hub.publish(self.table_id, "public", {
                    "type": "round_closed", "table_id": self.table_id, "round_id": rid})
            self.hub.publish(self.table_id, "public", {"type": "table_state",
                                                       "state": self.view(None)})
            for p in self.game.view(self.state, None).get("players", []):
                self.hub.publish(self.table_id, f"player:{p}",
                                 {"type": "table_state", "state": self.view(p)})
        self._arm()

    def _arm(self) -> None:
        at = self.game.wake_at(self.state)
        if at == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_at = None, at
        if at is not None:
            self._timer = self.clock.call_at(at, lambda: self.post({"type": "timeout"}),
                                             f"seated:{self.table_id}")

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timer_at = None


def _feed(game: SeatedGame, state: Any, checkpoint: Any, inp: Mapping[str, Any]) -> GameStep:
    if inp.get("type") == "void":
        return game.void(state, checkpoint, float(inp.get("now", 0.0)))
    return game.step(state, inp)


class SeatedTables:
    """The one writer of a process's seated tables, committing their commands in batches."""

    def __init__(self, store: Store, clock: Clock, hub: Hub | None = None) -> None:
        self.store = store
        self.clock = clock
        self.hub = hub or Hub()
        self.queue: asyncio.Queue[_Cmd] = asyncio.Queue()
        self.tables: dict[str, SeatedTable] = {}
        self._task: asyncio.Task | None = None
        self.heads: dict[str, tuple[int, str]] = {}
        self.batches = 0
        self.listeners: list[Callable[[], None]] = []  # told after each commit (a tournament)

    def add(self, cfg: Any, game: SeatedGame | None = None,
            rng_shoe: RngShoe | None = None) -> SeatedTable:
        """A table of this group, recovered from its log."""
        if game is None:
            from studio.games import game_for
            game = game_for(cfg.game)  # type: ignore[assignment]
        table = SeatedTable(cfg, game, self.store, self.clock, self.hub, self, rng_shoe)
        table.recover()
        self.tables[table.table_id] = table
        return table

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="seated-tables")

    async def stop(self) -> None:
        from studio.tasks import cancel

        for t in self.tables.values():
            t.stop()
        await cancel(self._task)
        self._task = None

    async def submit(self, cmd: _Cmd) -> dict[str, Any]:
        cmd.future = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(cmd)
        answer = await cmd.future
        if cmd.table.command_observer is not None:
            cmd.table.command_observer(cmd.table, str(cmd.input and cmd.input.get("type")),
                                       time.perf_counter() - cmd.arrived)
        return answer

    async def drain(self) -> None:
        """Wait until every command queued so far (timers' too) is processed."""
        if self._task is None:
            self.start()
        table = next(iter(self.tables.values()), None)
        if table is None:
            return
        await self.submit(_Cmd(table, None))

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            self.process(batch)

    def process(self, batch: list[_Cmd]) -> None:
        work = [c for c in batch if c.input is not None]
        answers: dict[int, dict[str, Any]] = {}
        tables = {id(c.table): c.table for c in work}
        saved = {k: (t.state, t.checkpoint, t.inputs) for k, t in tables.items()}
        try:
            with self.store.transaction() as tx:
                event_log.seed_heads(tx, self.heads)
                events: list[NewEvent] = []
                answered = _recalled(tx, work)
                for i, c in enumerate(work):
                    answers[i] = c.table.process(tx, c, events, answered)
                _remember(tx, answered)
                tx.append_events(events, stored=False)
                heads = event_log.known_heads(tx)
            self.heads.update(heads)
        except Exception:
            log.exception("seated tables: a batch of %d failed; each command alone", len(work))
            self.heads.clear()
            for k, t in tables.items():
                t.state, t.checkpoint, t.inputs = saved[k]
                t._closed.clear()
            answers = {i: self._alone(c) for i, c in enumerate(work)}
        self.batches += 1
        for t in tables.values():
            t.committed()
        for i, c in enumerate(work):
            if c.future is not None and not c.future.done():
                c.future.set_result(answers[i])
        for c in batch:
            if c.input is None and c.future is not None and not c.future.done():
                c.future.set_result({"ok": True})
        for fn in list(self.listeners):
            fn()

    def _alone(self, c: _Cmd) -> dict[str, Any]:
        saved = (c.table.state, c.table.checkpoint, c.table.inputs)
        try:
            with self.store.transaction() as tx:
                events: list[NewEvent] = []
                answered = _recalled(tx, [c])
                answer = c.table.process(tx, c, events, answered)
                _remember(tx, answered)
                tx.append_events(events, stored=False)
            return answer
        except Exception:
            log.exception("seated table %s: a command failed", c.table.table_id)
            c.table.state, c.table.checkpoint, c.table.inputs = saved
            return {"ok": False, "error": {"code": "table.internal_error",
                                           "message": "the table could not take this command"}}


_FIRST = "seated.first_answers"


def _recalled(tx: Any, cmds: Sequence[_Cmd]) -> dict[tuple[str, str], Any]:
    """The answers already given to the batch's commands: one lookup for the whole batch."""
    keys = sorted({(c.actor, c.key) for c in cmds if c.actor is not None and c.key is not None})
    first = dict(idempotency.recall_many(tx, keys)) if keys else {}
    tx.cache[_FIRST] = set(first)
    return first


def _remember(tx: Any, answered: dict[tuple[str, str], Any]) -> None:
    """The batch's new answers, in one insert."""
    old = tx.cache.pop(_FIRST, set())
    idempotency.remember_many(tx, [(a, k, v) for (a, k), v in answered.items()
                                   if (a, k) not in old])


def replay_round(game: SeatedGame, events: Sequence[StoredEvent]) -> list[Transfer]:
    """The transfers a round's logged inputs imply, fed again from its opening snapshot."""
    out: list[Transfer] = []
    state = checkpoint = None
    for ev in events:
        if ev.type == "round_opened":
            state = checkpoint = game.from_json(ev.payload["snapshot"])
        elif ev.type == "input" and state is not None:
            step = _feed(game, state, checkpoint, ev.payload["input"])
            table_id = ev.stream_id.split(":", 1)[1]
            if game.books_money(step.table):
                out += transfers_of(table_id, ev.round_id, step.moves)
            state = step.table
            if game.at_checkpoint(state):
                checkpoint = state
    return out
