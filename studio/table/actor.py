"""The table actor: the imperative shell around a game's pure round (`studio.table.seam`).

One asyncio task consumes the table's inbox in order, so no two coroutines ever change a round.
For each input it asks the game's pure round (`Game.step`) what follows, then stores the events
and the money they move in ONE transaction (`studio.storage`, `studio.ledger`), and only then
adopts the new state and publishes the events. A failure before the commit leaves nothing behind.

Bets arrive by the thousand in a betting window: the actor drains every bet command waiting in
its inbox and commits them together (group commit), answering each player once it is durable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from studio import ledger, timeline
from studio.cards import CardCodeError, deck, parse_card
from studio.clock import Clock, Timer
from studio.games import game_for
from studio.storage import Store, event_log, idempotency
from studio.storage.event_log import NewEvent
from studio.table import seam as core
from studio.table.hub import Hub
from studio.table.money import (
    cancel_for,
    closes_for,
    recovery_release,
    reserve_for,
)
from studio.table.rng_shoe import RngShoe
from studio.tasks import cancel

log = logging.getLogger(__name__)
STORAGE_DOWN = "table.storage_unavailable"
STORAGE_PAUSE = "database unreachable"
STORAGE_VOID = "the table lost its database connection during the round"
STORAGE_RETRY_S = 2.0  # how often a table looks for its lost database


def storage_lost(e: BaseException, store: Store) -> bool:
    """Whether `e` came from a database that is out of reach (a connection refused, dropped
    or invalidated), rather than from a bug or a local fault (a full disk): then the table
    waits for it instead of a person. Told by asking the database: if it answers a fresh
    connection, the database is not what is lost."""
    from sqlalchemy.exc import DBAPIError

    if not isinstance(e, DBAPIError):
        return False
    try:
        with store.reader() as tx:
            tx.conn.exec_driver_sql("SELECT 1")
    except Exception:  # noqa: BLE001 - any failure to answer is the answer
        return True
    return False
_LOGGED = frozenset({"betting_opened", "betting_closed", "round_closed", "round_voided",
                     "shoe_change_started", "shoe_changed"})

MAX_BATCH = 4096
RECOVERY_ROUNDS = 1000  # the rounds read back at start-up (in flight, Ripunta's last bets)
PLAYER_EVENTS = {"bet_placed", "bets_cancelled", "autoplay_changed", "bet_refunded"}
# the cut card came out / the table waits for the new shoe / the new shoe is in
SHOE_CHANGE = ("cut_card_out", "shoe_change_started", "shoe_changed")


class CommandError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_answer(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


@dataclass
class _Command:
    kind: str
    args: dict[str, Any]
    actor: str | None = None  # "player:<id>" / "dealer:<id>" for idempotent commands
    key: str | None = None
    future: asyncio.Future | None = None


# Settlements of one step are stored as ONE event holding a table of them (a settlement of
# 30,000 bets is one row of the log, not 30,000), with the keys written once as columns and
# one list of values per settlement: a third of the JSON that a list of objects takes, which
# the settlement spends its time encoding, hashing and committing. Live publications stay one
# per player. Which events are grouped, and under which stored name, is the game's
# (`Game.grouped`).


def stored_events(events: Iterable[core.Event], grouped: Mapping[str, str]
                  ) -> list[tuple[str, dict[str, Any], bool]]:
    out: list[tuple[str, dict[str, Any], bool]] = []
    keys: Any = None
    columns: list[str] = []
    rows: list[list[Any]] = []
    for e in events:
        group = grouped.get(e.type)
        if group is None:
            out.append((e.type, dict(e.data), e.private))
            continue
        data = e.data
        if not (out and out[-1][0] == group and data.keys() == keys):
            keys = data.keys()
            columns = list(keys)
            out.append((group, {"columns": columns, "rows": []}, False))
            rows = out[-1][1]["rows"]
        rows.append([data[k] for k in columns])  # in the columns' order, whatever the dict's
    return out


def expand_stored(type_: str, payload: dict[str, Any], grouped: Mapping[str, str]
                  ) -> list[tuple[str, dict[str, Any]]]:
    """The per-player events a stored event stands for (history, replay)."""
    single = next((k for k, v in grouped.items() if v == type_), None)
    if single is None:
        return [(type_, payload)]
    if "settlements" in payload:  # the first format: a list of objects
        return [(single, p) for p in payload["settlements"]]
    columns = payload["columns"]
    return [(single, dict(zip(columns, row, strict=True))) for row in payload["rows"]]


class TableActor:
    def __init__(self, cfg: Any, store: Store, clock: Clock, hub: Hub | None = None,
                 *, rng_shoe: RngShoe | None = None, autostart: bool = False,
                 game: core.Game | None = None, instance: str | None = None) -> None:
        """`cfg` is the table's configuration (studio.config); `game` defaults to the game
        it names. A private table (`cfg.pace == "private"`) runs one instance per player:
        `instance` names it, and it has a stream of its own."""
        self.cfg = cfg
        self.private = getattr(cfg, "pace", "live") == "private"
        self.table_id = cfg.id if instance is None else f"{cfg.id}/{instance}"
        self.game: core.Game = game if game is not None else game_for(cfg.game)
        self.rules = self.game.table_rules(cfg)
        self.store = store
        self.clock = clock
        self.hub = hub or Hub()
        self.stream = f"table:{self.table_id}"
        self.rng = rng_shoe if rng_shoe is not None else (
            RngShoe() if self.private or cfg.card_source == "rng" else None)
        if self.rng is not None and self.rng.cards is None:  # the shoe of this table's game
            self.rng.cards = deck(self.game.deck_kind) * getattr(cfg, "decks", 1)
        self.inbox: asyncio.Queue[_Command] = asyncio.Queue()
        self.state: core.RoundState | None = None
        self.book: core.BetBook | None = None
        self.round_no = 0
        self.running = autostart
        self.paused: str | None = None
        self.offline: set[str] = set()  # devices that said they are gone (resume waits)
        self.storage_down = False  # the database went out of reach (resume waits)
        self.ready_deck: str | None = None
        self.deck_in_use: str | None = None  # the deck set the last round dealt from
        self.cards_taken = 0  # every card a round took, ever (the devices count in-flight ones)
        self.shoe_rounds: list[dict[str, Any]] = []  # summaries of the rounds of this shoe
        self.shoe_change_due = False  # the cut card came out: change the shoe after this round
        self.changing_shoe = False  # no round until the shuffler announces the new shoe
        self._board: dict[str, Any] | None = None  # the game's view of the shoe, if computed
        self._board_stale = True
        self.last_bets: dict[str, list[tuple[int, str, int]]] = {}
        self.autoplay: dict[str, int] = {}
        self.alerts: list[dict[str, Any]] = []
        # the players' parts of the states, as last encoded, for the round they are of
        # player -> (personal part, its text once asked, its `personal_key`), for the round
        self._texts: dict[str, tuple[dict[str, Any], str | None, Hashable | None]] = {}
        self._texts_round: str | None = None
        # the players whose cached part stands for `_fresh_state` (their game's part did not
        # change since their key was last asked: `Game.personal_changes`)
        self._fresh: set[str] = set()
        self._fresh_state: Any = None
        # (state, game key -> the game's part and its text): shared by the players keyed alike
        self._game_parts: tuple[Any, dict[Hashable, tuple[dict[str, Any], str]]] = (None, {})
        # player -> (bets source, autoplay, the player's own part and its text), for the round
        self._own_parts: dict[str, tuple[Any, int, dict[str, Any], str]] = {}
        self.history: list[dict[str, Any]] = []  # closed rounds, newest last (bounded)
        self.card_log: list[dict[str, Any]] = []  # cards of the round, with their source
        self._bets_index: tuple[Any, dict[str, list[core.Placement]]] = ((), {})
        # observer(actor, command kind, seconds from arrival to answer): the studio's metrics
        self.command_observer: Callable[[TableActor, str, float], None] | None = None
        self.present: dict[str, int] = {}  # player -> sockets open (the web tells us)
        self.gone: set[str] = set()  # players whose last socket closed during this round
        self._timers: dict[str, Timer] = {}
        self._tx: Any = None  # the open unit of work's transaction, if any
        self._deferred: list[Callable[[], None]] | None = None
        self._events: list[NewEvent] | None = None  # the open unit's events, not yet written
        self._task: asyncio.Task | None = None
        self.rounds_completed = 0
        self.on_idle: Callable[[], Awaitable[None]] | None = None

    # ================================================================== life cycle

    async def start(self, inbox: Any = None) -> None:
        """Recover (void and refund rounds left in flight), then serve the inbox. With
        `inbox` (a `SharedInbox`), the table's commands go there instead, to be processed
        with other tables' in one transaction (studio.table.private.CommitGroup)."""
        self.recover()
        if inbox is not None:
            self.inbox = inbox
        else:
            self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
        if self.running:
            await self.submit("open_round", {})

    async def stop(self) -> None:
        for t in self._timers.values():
            t.cancel()
        self._timers.clear()
        await cancel(self._task)

    def recover(self) -> None:
        """A round found open in the log was in flight when the process stopped: it is void,
        and each of its bets not yet settled is refunded exactly once."""
        opened: dict[str, int] = {}
        finished: set[str] = set()
        bets: dict[str, dict[str, list[tuple[int, str, int]]]] = {}
        with self.store.reader() as tx:
            # Rounds run one after another, so only the last can be in flight; Ripunta needs
            # recent bets only. Start-up reads the recent rounds, not the table's whole log.
            after = event_log.recent_start(tx, self.stream, "betting_opened", RECOVERY_ROUNDS)
            for ev in event_log.iter_events(tx, stream_id=self.stream, after_stream_seq=after):
                p = ev.payload
                self._track_shoe(ev.type, p)
                if ev.type == "betting_opened":
                    opened[ev.round_id] = int(p.get("round_no", 0))
                elif ev.type in ("round_closed", "round_voided"):
                    finished.add(ev.round_id)
                elif ev.type in SHOE_CHANGE:
                    self.shoe_change_due = self.changing_shoe = ev.type != "shoe_changed"
                elif ev.type == "bets_placed":
                    for b in p["bets"]:
                        bets.setdefault(ev.round_id, {}).setdefault(b["player"], []).append(
                            (b["position"], b["kind"], b["amount"]))
                elif ev.type == "bets_cancelled":
                    bets.get(ev.round_id, {}).pop(p["player"], None)
        self.round_no = max(opened.values(), default=0)
        for round_id in opened:  # Ripunta survives a restart: the last bets of each player
            for player, b in bets.get(round_id, {}).items():
                self.last_bets[player] = b
        for round_id in [r for r in opened if r not in finished]:
            with self._write() as tx:
                open_res = ledger.open_reservations(tx, round_id=round_id)
                ledger.release_many(tx, [recovery_release(m.id) for m in open_res])
                event = core.Event("round_voided", {
                    "round_id": round_id, "reason": "malfunction: the studio restarted",
                    "recovery": True,
                    "refunds": [{"reservation_id": m.id, "player": m.player_id,
                                 "amount": m.amount} for m in open_res]})
                self._append(tx, round_id, [event])
            log.warning("table %s: round %s voided on recovery (%d refunds)", self.table_id,
                        round_id, len(open_res))

    # ================================================================== the public API

    async def submit(self, kind: str, args: dict[str, Any], actor: str | None = None,
                     key: str | None = None) -> dict[str, Any]:
        if timeline.TIMELINE is not None and kind == "dealer_card":  # (the benchmark's)
            timeline.TIMELINE.mark("command", args.get("code"))
        future = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        self.inbox.put_nowait(_Command(kind, args, actor, key, future))
        answer = await future
        if self.command_observer is not None:  # the studio's metrics
            self.command_observer(self, kind, time.perf_counter() - started)
        return answer

    def post(self, kind: str, args: dict[str, Any]) -> None:
        """Fire and forget (timers, devices)."""
        self.inbox.put_nowait(_Command(kind, args))

    async def place_bets(self, player: str, bets: list[dict[str, Any]], key: str) -> dict:
        return await self.submit("bet", {"player": player, "bets": bets},
                                 f"player:{player}", key)

    async def deal(self, player: str, amount: int | None, key: str,
                   bets: list[dict[str, Any]] | None = None) -> dict:
        """A private table's start button: place the stake (or every bet of the hand: Punto,
        Banco, Pari, the pairs) and deal the hand."""
        args: dict[str, Any] = {"player": player, "amount": amount}
        if bets is not None:
            args["bets"] = bets
        return await self.submit("deal", args, f"player:{player}", key)

    async def cancel_bets(self, player: str, key: str) -> dict:
        return await self.submit("cancel", {"player": player}, f"player:{player}", key)

    async def repeat_bets(self, player: str, key: str) -> dict:
        """Ripunta: the player's bets of the previous round, again."""
        return await self.submit("ripunta", {"player": player}, f"player:{player}", key)

    async def set_autoplay(self, player: str, rounds: int, key: str) -> dict:
        return await self.submit("autoplay", {"player": player, "rounds": rounds},
                                 f"player:{player}", key)

    async def decide(self, player: str, position: int, choice: str, key: str) -> dict:
        return await self.submit("decide", {"player": player, "position": position,
                                            "choice": choice}, f"player:{player}", key)

    async def dealer(self, dealer_id: str, command: str, key: str, **args: Any) -> dict:
        return await self.submit(f"dealer_{command}", dict(args), f"dealer:{dealer_id}", key)

    def card_seen(self, code: str, source: str, deck_set: str | None = None) -> None:
        self.post("card", {"code": code, "source": source, "deck_set": deck_set})

    def deck_ready(self, deck_set: str) -> None:
        self.post("deck_ready", {"deck_set": deck_set})

    def cut_card(self) -> None:
        """The shoe says the cut card came out: this round completes, then the shoe changes."""
        self.post("cut_card", {})

    def player_present(self, player: str, here: bool) -> None:
        """A player's socket opened (`here`) or closed. At a table whose game stands a seated
        player who disconnects (`stands_when_gone`), a decider with no socket left gets the
        default decision at once: the table waits for nobody who is gone."""
        self.post("presence", {"player": player, "here": here})

    def device_status(self, device: str, online: bool, detail: str = "") -> None:
        self.post("device_status", {"device": device, "online": online, "detail": detail})

    def record(self, events: list[core.Event]) -> None:
        """Append events outside any round (a game session's end) to the table's log."""
        with self._write() as tx:
            self._append(tx, None, events)

    # ================================================================== views

    def snapshot(self, audience: str = "public") -> dict[str, Any]:
        """The table as a client should see it on (re)connection: never a hidden card."""
        s = self.state
        view: dict[str, Any] = {
            "table_id": self.table_id, "name": self.cfg.name, "game": self.game.name,
            "positions": self.rules.positions,
            "deck_art": self.cfg.deck_art.value, "paused": self.paused, "running": self.running,
            "limits": self.cfg.limits.model_dump(), "round": None,
            "changing_shoe": self.changing_shoe, "last_hand_of_shoe": self.shoe_change_due,
        }
        shoe = self._shoe_board()
        if shoe is not None:
            view["shoe"] = shoe
        if s is None:
            return view
        player = audience.split(":", 1)[1] if audience.startswith("player:") else None
        rnd = self.game.round_view(s, None)
        if s.betting and self.book is not None:
            window = self.game.window_view(self.book, None)
            if window:
                rnd.update(window)
        if player is not None:
            rnd.update(self.personal(player))
        if audience == "dealer":
            rnd["bets"] = len(s.placements) if s.placements else (
                len(self.book.placements) if self.book else 0)
            rnd["alerts"] = self.alerts[-20:]
            rnd["cards_seen"] = self.card_log[-60:]
        view["round"] = rnd
        return view

    def round_players(self) -> set[str]:
        """The players with bets in the round (their views may change with any card)."""
        s = self.state
        if s is not None and s.placements:
            return {p.player for p in s.placements}
        return {p.player for p in self.book.placements.values()} if self.book else set()

    def personal_text(self, player: str) -> str:
        """`personal(player)` as JSON text without its braces: the part of a player's state
        after a burst that is the player's own (`studio.web.tables`). Most cards change
        few players' parts: a part whose key (`personal_key`) did not change is not built
        again, and one equal to the last is not encoded again."""
        entry = self.personal_entry(player)
        if entry[1] is None:  # encoded the first time a state needs it
            entry = self._texts[player] = (
                entry[0], json.dumps(entry[0], separators=(",", ":"))[1:-1], entry[2])
        return entry[1]  # type: ignore[return-value]

    def personal_entry(self, player: str
                       ) -> tuple[dict[str, Any], str | None, Hashable | None]:
        """(`personal(player)`, its text or None until `personal_text` encodes it, its key),
        kept for the round: the same part is the same object until it changes (the edges'
        bridge sends a view only then, and never needs the text)."""
        round_id = getattr(self.state, "round_id", None)
        if self._texts_round != round_id:  # (a round's texts go with it)
            self._texts, self._texts_round = {}, round_id
            self._fresh, self._own_parts = set(), {}
        cached = self._texts.get(player)
        self._note_changes()
        if cached is not None and player in self._fresh and self._keyed_alike(player, cached[2]):
            return cached
        key = self.personal_key(player)
        if key is not None:
            self._fresh.add(player)
        else:
            self._fresh.discard(player)
        if cached is not None and key is not None and cached[2] == key:
            return cached
        mine, text = (self.personal(player), None) if key is None else \
            self._keyed_part(player, key)
        if cached is None or cached[0] != mine:
            cached = (mine, text, key)
        else:
            cached = (cached[0], cached[1], key)
        self._texts[player] = cached
        return cached

    def _keyed_part(self, player: str, key: Any) -> tuple[dict[str, Any], str]:
        """`personal(player)` and its text for a player with a key: the game's part is
        shared by every player keyed alike in this state (equal keys, equal views, whoever
        the player), built and encoded once for them all; the player's bets and automatic
        play are encoded once while they stand. Thousands of players at a seat get a card:
        one view, not thousands."""
        s = self.state
        if self._game_parts[0] is not s:
            self._game_parts = (s, {})
        parts = self._game_parts[1]
        game = parts.get(key[0])
        if game is None:
            view = self.game.personal_view(s, player)
            game = parts[key[0]] = (view, json.dumps(view, separators=(",", ":"))[1:-1])
        own = self._own_parts.get(player)
        if own is None or own[0] is not key[1] or own[1] != key[2]:
            part = {"my_bets": self._bets_of(player), "autoplay": key[2]}
            own = self._own_parts[player] = (key[1], key[2], part, json.dumps(
                part, separators=(",", ":"))[1:-1])
        text = f"{game[1]},{own[3]}" if game[1] else own[3]
        return {**game[0], **own[2]}, text

    def _note_changes(self) -> None:
        """The players whose cached part may no longer stand leave `_fresh`: the game says
        whose part the states since the last look may have changed (a card to one seat of
        10,000 players: that seat's); with no answer, or new bets, everyone's."""
        s = self.state
        if s is self._fresh_state:
            return
        before, self._fresh_state = self._fresh_state, s
        changes = self.views_changed_since(before)
        if changes is None:
            self._fresh = set()
        else:
            self._fresh.difference_update(changes)

    def views_changed_since(self, before: Any) -> Iterable[str] | None:
        """The players whose personal part may differ from what it was in `before` (an
        earlier state of this round), by the game's word (`Game.personal_changes`); None:
        any player's (another round, the betting window, new bets, or no word)."""
        s = self.state
        if before is None or s is None or s.betting or before.betting:
            return None  # (the window's views follow the book, not the state)
        if before is s:
            return ()
        if before.placements is not s.placements:
            return None
        return self.game.personal_changes(before, s)

    def _keyed_alike(self, player: str, key: Any) -> bool:
        """The player's bets and automatic play are still those of `key` (a part in `_fresh`
        has the game's part of its key standing)."""
        return key is not None and key[1] is self._bets_source(player) \
            and key[2] == self.autoplay.get(player, 0)

    def personal_key(self, player: str) -> Hashable | None:
        """A value that decides `personal(player)` within a round: equal keys, equal parts.
        None while the betting window is open (the window's view) or when the game gives no
        key (`Game.personal_key`): the part is built each time."""
        s = self.state
        if s is None or s.betting:
            return None
        game_key = self.game.personal_key(s, player)
        if game_key is None:
            return None
        return game_key, self._bets_source(player), self.autoplay.get(player, 0)

    def personal(self, player: str) -> dict[str, Any]:
        """What `player` sees of the round beyond the public snapshot (`snapshot()`): the
        game's personal view, the window's, the player's bets and automatic play. Thousands
        of players are each sent the table after a burst of events: the public part is
        built once (`studio.web.tables`), this per player."""
        s = self.state
        if s is None:
            return {}
        mine = self.game.personal_view(s, player)
        if s.betting and self.book is not None:
            public = self.game.window_view(self.book, None) or {}
            window = self.game.window_view(self.book, player) or {}
            mine.update({k: v for k, v in window.items() if public.get(k) != v})
        mine["my_bets"] = self._bets_of(player)
        mine["autoplay"] = self.autoplay.get(player, 0)
        return mine

    def _track_shoe(self, type_: str, data: Mapping[str, Any]) -> None:
        """The shoe's rounds, for the game's view of the shoe: a closed round joins them, a new
        shoe (a fresh deck opened, the shoe changed) starts them again. The live path and the
        recovery both follow the log through here."""
        if type_ == "round_closed" and not data.get("no_bets"):
            self.shoe_rounds.append(self.game.round_summary(data))
            del self.shoe_rounds[:-1000]
        elif (type_ == "deck_opened" and data.get("fresh")) or type_ == "shoe_changed":
            self.shoe_rounds = []
        else:
            return
        self._board_stale = True

    def _shoe_board(self) -> dict[str, Any] | None:
        """The game's view of the shoe so far, computed once per change of the shoe's rounds
        (every player who connects gets it)."""
        if self._board_stale:
            self._board, self._board_stale = self.game.shoe_view(self.shoe_rounds), False
        return self._board

    def _bets_of(self, player: str) -> list[dict[str, Any]]:
        """A player's bets this round, for the player's state: read from an index of the
        round's placements (every player's state is built after a burst of events: a scan of
        tens of thousands of bets for each of thousands of players would stall the table)."""
        return [{"position": p.position, "kind": str(p.kind), "amount": p.amount}
                for p in self._bets_source(player)]

    def _bets_source(self, player: str) -> Sequence[core.Placement]:
        """A player's placements this round (the round's, else the open window's)."""
        s = self.state
        if s is not None and s.placements:
            if self._bets_index[0] is not s.placements:  # the round's bets changed
                index: dict[str, list[core.Placement]] = {}
                for p in s.placements:
                    index.setdefault(p.player, []).append(p)
                self._bets_index = (s.placements, index)
            return self._bets_index[1].get(player, ())
        return self.book.of(player) if self.book else ()

    # ================================================================== the loop

    async def _run(self) -> None:
        while True:
            first = await self.inbox.get()
            batch = [first]
            while len(batch) < MAX_BATCH and not self.inbox.empty():
                batch.append(self.inbox.get_nowait())
            i = 0
            while i < len(batch):
                kind = batch[i].kind
                j = i
                if kind in ("bet", "cancel"):
                    while j < len(batch) and batch[j].kind == kind:
                        j += 1
                    self._guard(self._bet_run if kind == "bet" else self._cancel_run, batch[i:j])
                else:
                    while j < len(batch) and batch[j].kind not in ("bet", "cancel"):
                        j += 1
                    self._guard(self._unit_run, batch[i:j])
                i = j
            if self.inbox.empty() and self.on_idle is not None:
                await self.on_idle()

    def _guard(self, fn: Callable[[Any], None], arg: Any) -> None:
        """An unexpected failure must not kill the table: answer, alert, pause."""
        try:
            fn(arg)
        except Exception as e:
            cmds = arg if isinstance(arg, list) else [arg]
            if storage_lost(e, self.store):
                self._storage_lost(cmds, e)
                return
            log.exception("table %s: %s failed", self.table_id, fn.__name__)
            for c in cmds:
                self._answer(c, error_answer(
                    "table.internal_error",
                    "the table could not take this command; it is paused until the dealer "
                    "resumes it"))
            # the dealer learns what kind of failure it was; the details stay in the log
            self._alert("table.internal_error", f"internal error ({type(e).__name__}): the "
                        "table is paused; resume when the cause is fixed, or void the round")
            self._pause(self.paused or "internal error")

    # ================================================================== the database gone

    def _storage_lost(self, cmds: list[_Command], e: Exception) -> None:
        """The database is out of reach: what the commands would have written is not (the
        unit rolled back, the table's memory went back with it), they are refused, the table
        pauses and looks for its database again every `STORAGE_RETRY_S`."""
        log.error("table %s: database unreachable (%s): paused", self.table_id,
                  type(e).__name__, extra={"table_id": self.table_id, "code": STORAGE_DOWN})
        for c in cmds:
            self._answer(c, error_answer(STORAGE_DOWN, "the studio's records cannot be "
                                         "reached just now; nothing was done; try again"))
        if not self.storage_down:
            self.storage_down = True
            self._alert(STORAGE_DOWN, "the database is unreachable: the table is paused; it "
                        "resumes by itself when the database is back (a round in play is "
                        "then void and its stakes returned)")
            self._pause(self.paused or STORAGE_PAUSE)
        self._timer("storage", self.clock.now() + STORAGE_RETRY_S,
                    lambda: self.post("storage_check", {}))

    def _do_storage_check(self, c: _Command) -> dict[str, Any]:
        """The database answers again: a round the outage interrupted cannot be completed
        as the table was really dealt (cards came while nothing could be written), so it is
        void and its stakes returned; a betting window goes on. Then the table resumes,
        unless something else paused it too."""
        if not self.storage_down:
            return {"ok": True}
        with self._write() as tx:  # a storage error here: _guard looks again later
            tx.conn.exec_driver_sql("SELECT 1")
        s = self.state
        if s is not None and not s.finished and not s.betting:
            new, events = self.game.step(s, core.Void(STORAGE_VOID))
            self._cancel_timer("betting", "decision")
            self._transition(new, events)
        self.storage_down = False
        self._alert("table.storage_back", "the database answers again")
        if self.paused == STORAGE_PAUSE and not self.offline:
            self._resume()
        return {"ok": True}

    def _answer(self, cmd: _Command, answer: dict[str, Any]) -> None:
        def deliver() -> None:
            if cmd.future is not None and not cmd.future.done():
                cmd.future.set_result(answer)
        self._after_commit(deliver)

    # ================================================================== units of work

    def _after_commit(self, fn: Callable[[], None]) -> None:
        """Answers and publications wait until what they announce is committed."""
        if self._deferred is not None:
            self._deferred.append(fn)
        else:
            fn()

    def _save(self) -> tuple:
        return (self.state, self.book, self.book.open if self.book else None, self.paused,
                dict(self.autoplay), self.round_no, self.ready_deck, self.running,
                self.rounds_completed, len(self.card_log), len(self.history),
                self.deck_in_use, self.cards_taken, list(self.shoe_rounds),
                self.shoe_change_due, self.changing_shoe)

    def _restore(self, saved: tuple) -> None:
        (self.state, self.book, book_open, self.paused, self.autoplay, self.round_no,
         self.ready_deck, self.running, self.rounds_completed, n_cards, n_history,
         self.deck_in_use, self.cards_taken, self.shoe_rounds, self.shoe_change_due,
         self.changing_shoe) = saved
        self._board_stale = True
        if self.book is not None:
            self.book.open = book_open
        del self.card_log[n_cards:]
        del self.history[n_history:]

    @contextmanager
    def _unit(self) -> Iterator[None]:
        """Group the writes of several commands in ONE transaction (group commit). If anything
        unexpected fails, the transaction rolls back and the table's memory goes back with it."""
        if self._tx is not None:
            yield
            return
        saved = self._save()
        deferred: list[Callable[[], None]] = []
        try:
            with self.store.transaction() as tx:
                self._tx, self._deferred, self._events = tx, deferred, []
                try:
                    yield
                    tx.append_events(self._events, stored=False)
                finally:
                    self._tx, self._deferred, self._events = None, None, None
        except BaseException:
            self._restore(saved)
            raise
        for fn in deferred:
            fn()

    @contextmanager
    def _write(self) -> Iterator[Any]:
        """The current unit's transaction, or a unit of its own."""
        with self._unit():
            yield self._tx

    def process_within(self, tx: Any, deferred: list[Callable[[], None]],
                       events: list[NewEvent], cmd: _Command) -> None:
        """Process one command inside a transaction shared with other tables (group commit
        across private tables): its answers and publications join `deferred`, to run once
        the transaction commits, and its events join `events`, which the caller writes
        before the commit. An unexpected failure propagates: the caller rolls back, restores
        every table (`saved`/`restore`) and retries each command alone."""
        self._tx, self._deferred, self._events = tx, deferred, events
        try:
            self._one(cmd)
        finally:
            self._tx, self._deferred, self._events = None, None, None

    def saved(self) -> tuple:
        return self._save()

    def restore(self, saved: tuple) -> None:
        self._restore(saved)

    def run_alone(self, cmd: _Command) -> None:
        """One command in a unit of its own (the path of a table with its own loop)."""
        if cmd.kind in ("bet", "cancel"):
            self._guard(self._bet_run if cmd.kind == "bet" else self._cancel_run, [cmd])
        else:
            self._guard(self._unit_run, [cmd])

    def _unit_run(self, cmds: list[_Command]) -> None:
        with self._unit():
            for c in cmds:
                self._one(c)

    def _cancel_run(self, cmds: list[_Command]) -> None:
        for c in cmds:
            with self._unit():
                self._one(c)

    # ================================================================== storage helpers

    def _append(self, tx, round_id: str | None, events: Iterable[core.Event]) -> None:
        """Events to the log in this unit's transaction: written together when the unit
        ends (one insert and one head lookup per unit, not per card)."""
        new = [NewEvent(self.stream, t, {**data, "private": private}, round_id)
               for t, data, private in stored_events(events, self.game.grouped)]
        if self._events is not None:
            self._events.extend(new)
        else:
            tx.append_events(new, stored=False)

    def _publish(self, round_id: str | None, events: Iterable[core.Event]) -> None:
        events = list(events)
        if self._deferred is not None:
            self._deferred.append(lambda: self._publish_now(round_id, events))
        else:
            self._publish_now(round_id, events)

    def _publish_now(self, round_id: str | None, events: list[core.Event]) -> None:
        """Each event to its audience. A player's own events go to that player only; the dealer
        gets one summary of a step's settlements (a console cannot take 30,000 messages)."""
        settled = staked = returned = 0
        settlement, spots = self.game.settlement_events, self.game.spots
        for e in events:
            if e.private:
                continue
            payload = {"type": e.type, "table_id": self.table_id, "round_id": round_id,
                       **e.data}
            if e.type in _LOGGED:  # a round's milestones, as structured log lines
                log.info("%s", e.type, extra={"table_id": self.table_id, "round_id": round_id,
                                              "event": e.type})
            player = e.data.get("player")
            if e.type in settlement:
                self.hub.publish(self.table_id, f"player:{player}", payload)
                settled += 1
                for _, _, _, stake, back in spots(e):
                    staked += stake
                    returned += stake if back is None else back
            elif e.type == "bet_placed":  # the dealer gets a running summary instead
                self.hub.publish(self.table_id, f"player:{player}", payload)
            elif e.type in PLAYER_EVENTS and player is not None:
                self.hub.publish(self.table_id, f"player:{player}", payload)
                self.hub.publish(self.table_id, "dealer", payload)
            elif e.type == "round_voided":
                public = {k: v for k, v in payload.items() if k != "refunds"}
                self.hub.publish(self.table_id, "public", public)
                self.hub.publish(self.table_id, "dealer", payload)
                for r in e.data.get("refunds", []):
                    self.hub.publish(self.table_id, f"player:{r['player']}", {
                        "type": "bet_refunded", "table_id": self.table_id,
                        "round_id": round_id, "amount": r["amount"]})
            elif e.type in ("card_rejected", "alert", "deck_opened"):
                self.hub.publish(self.table_id, "dealer", payload)
            else:
                self.hub.publish(self.table_id, "public", payload)
        if settled:
            self.hub.publish(self.table_id, "dealer", {
                "type": "settlement_summary", "table_id": self.table_id, "round_id": round_id,
                "settled": settled, "staked": staked, "returned": returned})

    def _alert(self, code: str, message: str, **extra: Any) -> None:
        alert = {"code": code, "message": message, "at": self.clock.now(), **extra}
        log.warning("%s: %s", code, message, extra={
            "table_id": self.table_id, "round_id": self.state.round_id if self.state else None,
            "code": code})
        self.alerts.append(alert)
        del self.alerts[:-100]
        self._after_commit(lambda: self.hub.publish(
            self.table_id, "dealer", {"type": "alert", "table_id": self.table_id, **alert}))

    # ================================================================== bets (group commit)

    def _bet_run(self, cmds: list[_Command]) -> None:
        try:
            self._bet_batch(cmds)
        except _RetryAlone:
            for c in cmds:  # rare: a refusal from the ledger inside a batch
                self._bet_batch([c])

    def _bet_batch(self, cmds: list[_Command]) -> None:
        now = self.clock.now()
        book = self.book
        # Bets accepted earlier in this batch (not yet committed): they count towards the
        # limits of the later commands in it (a player's own sums; a seat another took).
        pending = self.game.new_book(self.rules, book.closes_at) if book is not None else None
        answers: dict[int, dict[str, Any]] = {}
        accepted: list[tuple[int, _Command, list[core.Placement]]] = []
        reserves: list[ledger.Reserve] = []
        with self.store.transaction() as tx:
            first = idempotency.recall_many(tx, [(c.actor, c.key) for c in cmds])
            keys_in_batch: dict[tuple[str, str], int] = {}
            for i, c in enumerate(cmds):
                k = (c.actor, c.key)
                if k in first:
                    answers[i] = first[k]
                    continue
                if k in keys_in_batch:
                    answers[i] = {"same_as": keys_in_batch[k]}
                    continue
                keys_in_batch[k] = i
                try:
                    placements = self._check_bets(c, now, pending)
                except core.RoundError as e:
                    answers[i] = error_answer(e.code, e.message)
                    continue
                for p in placements:
                    pending.count(p)
                group = f"{c.actor}/{c.key}"
                reserves.extend(reserve_for(self.state.round_id, p, group) for p in placements)
                accepted.append((i, c, placements))
            outcomes = ledger.reserve_many(tx, reserves) if reserves else []
            failed = [o for o in outcomes if not o.ok]
            if failed and len(cmds) > 1:
                raise _RetryAlone()
            if failed:
                e = failed[0].error
                answers[0] = error_answer(e.code, e.message)
                accepted = []
            players = {c.args["player"] for _, c, _ in accepted}
            if accepted:  # one event for the whole batch: a window holds tens of thousands
                self._append(tx, self.state.round_id, [core.Event("bets_placed", {"bets": [
                    {"placement_id": p.placement_id, "player": p.player, "position": p.position,
                     "kind": p.kind, "amount": p.amount}
                    for _, _, placements in accepted for p in placements]})])
            bal = ledger.balances(tx, players) if players else {}
            for i, c, placements in accepted:
                b = bal[c.args["player"]]
                answers[i] = {"ok": True, "round_id": self.state.round_id,
                              "bets": [{"position": p.position, "kind": p.kind,
                                        "amount": p.amount} for p in placements],
                              "balance": {"available": b.available, "reserved": b.reserved}}
            idempotency.remember_many(tx, [
                (cmds[i].actor, cmds[i].key, a) for i, a in answers.items()
                if "same_as" not in a and (cmds[i].actor, cmds[i].key) not in first])
        # committed: adopt and answer
        published = []
        for _, c, placements in accepted:
            for p in placements:
                published.append(book.add(p))
            self.last_bets[c.args["player"]] = [(p.position, p.kind, p.amount)
                                                for p in book.of(c.args["player"])]
        if accepted:  # a seat taken: news for every player
            published += book.window_events(now)
        for i, c in enumerate(cmds):
            a = answers[i]
            a = answers[a["same_as"]] if "same_as" in a else a
            self._answer(c, a)
            if c.args.get("autoplay"):
                self._autoplay_result(c.args["player"], a)
        self._publish(self.state.round_id if self.state else None, published)
        if published:
            self.hub.publish(self.table_id, "dealer", {
                "type": "bets_summary", "table_id": self.table_id,
                "round_id": self.state.round_id, "bets": len(book.placements),
                "staked": book.staked})

    def _check_bets(self, c: _Command, now: float, pending: core.BetBook | None
                    ) -> list[core.Placement]:
        if self.private:
            raise core.RoundError("table.private", "at this table the stake goes with the deal")
        if self.book is None or self.state is None or not self.state.betting:
            raise core.RoundError("bet.window_closed", "Stop alle puntate: bets are closed")
        bets = c.args["bets"]
        if not isinstance(bets, list) or not bets:
            raise core.RoundError("bet.empty", "no bet in the command")
        if not all(isinstance(b, dict) for b in bets):
            raise core.RoundError("bet.invalid", "each bet is an object")
        player, prefix = c.args["player"], f"{c.args['player']}/{c.key}/"
        return self.book.check_command(player, [
            (f"{prefix}{n}", b.get("position"), b.get("kind", self.game.default_bet), b.get("amount"))
            for n, b in enumerate(bets)], now, pending)

    # ================================================================== everything else

    def _one(self, c: _Command) -> None:
        if c.actor is not None:
            with self._write() as tx:
                first = tx.recall(c.actor, c.key)
            if first is not None:
                self._answer(c, first)
                return
        try:
            answer = getattr(self, f"_do_{c.kind}")(c)
        except (core.RoundError, CommandError, ledger.LedgerError, CardCodeError) as e:
            answer = error_answer(getattr(e, "code", "table.refused"),
                                  getattr(e, "message", str(e)))
            if c.kind == "card":
                self._card_rejected(c, answer["error"])
            if c.actor is not None:
                with self._write() as tx:
                    tx.remember(c.actor, c.key, answer)
        self._answer(c, answer)

    def _transition(self, new: core.RoundState, events: list[core.Event],
                    money: list[ledger.Post | ledger.Release] | None = None,
                    remember: tuple[_Command, dict[str, Any]] | None = None) -> None:
        """Store events + money (+ the command's answer) in one transaction, then adopt."""
        closes = closes_for(self.game, new, events)
        with self._write() as tx:
            if money:
                ledger.settle_many(tx, money)
            if closes:
                ledger.settle_rows(tx, closes)
            self._append(tx, new.round_id, events)
            if remember is not None:
                tx.remember(remember[0].actor, remember[0].key, remember[1])
        self.state = new
        self._publish(new.round_id, events)
        self._after(events)

    def _after(self, events: list[core.Event]) -> None:
        """Timers and automatic follow-ups of what just happened."""
        for e in events:
            if e.type == "decision_requested":
                self._set_decision_timer()
            elif e.type == "deck_opened":
                self._track_shoe(e.type, e.data)  # a new shoe: its scoreboards start empty
            elif e.type in ("round_closed", "round_voided"):
                self._round_finished(e)
        self._feed()

    def _set_decision_timer(self) -> None:
        s = self.state
        if s is None or not s.awaiting_decision or self.paused or self.private:
            return  # a private table's player has the session's time (studio.table.sessions)
        pos, turn = s.deciding, s.turn
        self._timer("decision", self.clock.now() + self.cfg.timers.decision_s,
                    lambda: self.post("decision_timeout", {"position": pos, "turn": turn}))
        self._default_if_gone()

    def _default_if_gone(self) -> None:
        s = self.state
        if (not getattr(self.game, "stands_when_gone", False) or s is None or self.paused
                or not s.awaiting_decision or not self.gone.intersection(s.deciders())):
            return
        self.post("decision_timeout", {"position": s.deciding, "turn": s.turn, "gone": True})

    def _do_presence(self, c: _Command) -> dict[str, Any]:
        player = c.args["player"]
        sockets = self.present.get(player, 0) + (1 if c.args["here"] else -1)
        if sockets > 0:
            self.present[player] = sockets
            self.gone.discard(player)
        else:
            self.present.pop(player, None)
            self.gone.add(player)
            self._default_if_gone()
        return {"ok": True}

    def _timer(self, name: str, when: float, callback: Callable[[], None]) -> None:
        self._cancel_timer(name)
        self._timers[name] = self.clock.call_at(when, callback, f"{self.table_id}:{name}")

    def _cancel_timer(self, *names: str) -> None:
        """Stop timers (a timer merely forgotten would still fire)."""
        for name in names:
            t = self._timers.pop(name, None)
            if t is not None:
                t.cancel()

    def _pause(self, reason: str) -> None:
        """Pause the table: no decision runs out while it is paused (resume gives a fresh,
        full decision time)."""
        self.paused = reason
        self._cancel_timer("decision")

    def _round_finished(self, e: core.Event) -> None:
        self._cancel_timer("decision", "betting")
        self.rounds_completed += 1
        self.history.append({"round_id": e.data.get("round_id"), "type": e.type,
                             "dealer": e.data.get("dealer"), "reason": e.data.get("reason"),
                             "summary": self.game.round_summary(e.data)
                             if e.type == "round_closed" and not e.data.get("no_bets")
                             else None})
        del self.history[:-200]
        self.book = None
        self.card_log = []
        self.gone.clear()
        self._track_shoe(e.type, e.data)
        if e.type == "round_closed" and not e.data.get("no_bets"):
            shoe = self._shoe_board()
            if shoe is not None:
                self._publish(None, [core.Event("shoe_scoreboard", shoe)])
        if self.shoe_change_due:
            self._start_shoe_change()
        elif self.running:
            self._next_round()

    def _next_round(self) -> None:
        self._timer("next_round", self.clock.now() + self.cfg.timers.pause_between_rounds_s,
                    lambda: self.post("open_round", {}))

    def _start_shoe_change(self) -> None:
        """The round after the cut card is over: no round until the shuffler announces a new
        shoe (players are shown the shuffle)."""
        self.changing_shoe = True
        event = core.Event("shoe_change_started", {"old_deck_set": self.deck_in_use})
        with self._write() as tx:
            self._append(tx, None, [event])
        self._publish(None, [event])

    def _feed(self) -> None:
        """The RNG shoe deals by itself whenever the round expects a card: from a fresh deck of
        this round (never the cards left from another round), opening the next prepared deck
        if the round uses up the first."""
        s = self.state
        while (self.rng is not None and s is not None and not self.paused and not s.finished
               and s.expecting() is not None):
            if not s.deck_sets or self.rng.deck_set != s.deck_sets[-1]:
                self._open_rng_deck(s)
            else:
                card = self.rng.next_card()
                if card is None:
                    self._open_rng_deck(s)
                else:
                    self._card_step(core.CardSeen(card, "rng", self.rng.deck_set))
            s = self.state

    def _open_rng_deck(self, s: core.RoundState) -> None:
        deck_set = f"{s.round_id}-deck{len(s.deck_sets) + 1}"
        order = self.rng.new_deck(deck_set)
        new, events = self.game.step(s, core.OpenDeck(deck_set, fresh=True))
        private = core.Event("deck_prepared", {"deck_set": deck_set,
                                               "order": [c.code for c in order]}, private=True)
        self._transition(new, [private, *events])

    def _card_step(self, cmd: core.CardSeen) -> None:
        new, events = self.game.step(self.state, cmd)
        hidden = events[0].private  # a burn card, a hole card: face down, its code kept back
        self.cards_taken += 1
        self.card_log.append({"card": None if hidden else cmd.card.code,
                              "burn": events[0].type == "burn_card", "face_down": hidden,
                              "source": cmd.source, "at": self.clock.now()})
        self._transition(new, events)

    # ------------------------------------------------------------------ commands

    def _do_ping(self, c: _Command) -> dict[str, Any]:
        return {"ok": True}

    async def drain(self) -> None:
        """Wait until every command posted so far (and what they posted) is processed."""
        while True:
            await self.submit("ping", {})
            if self.inbox.empty():
                return

    def _do_open_round(self, c: _Command) -> dict[str, Any]:
        if self.state is not None and not self.state.finished:
            raise CommandError("round.in_progress", "a round is already in progress")
        if not self.running:
            raise CommandError("table.stopped", "the table is not running")
        if self.changing_shoe:
            raise CommandError("table.changing_shoe", "the shoe is being changed")
        self.round_no += 1
        round_id = f"{self.table_id}-{self.round_no:06d}"
        closes_at = self.clock.now() + self.cfg.timers.betting_window_s
        state, events = self.game.open_round(round_id, self.rules, closes_at)
        events[0].data["round_no"] = self.round_no  # type: ignore[index]
        self.book = self.game.new_book(self.rules, closes_at)
        self._transition(state, events)
        self._timer("betting", closes_at, lambda: self.post("close_betting", {}))
        self._autoplay_bets(round_id)
        return {"ok": True, "round_id": round_id}

    def _autoplay_bets(self, round_id: str) -> None:
        for player, left in list(self.autoplay.items()):
            bets = self.last_bets.get(player)
            if left <= 0 or not bets:
                self.autoplay.pop(player, None)
                continue
            self.autoplay[player] = left - 1
            self.inbox.put_nowait(_Command(
                "bet", {"player": player, "autoplay": True, "bets": [
                    {"position": p, "kind": k, "amount": a} for p, k, a in bets]},
                f"player:{player}", f"autoplay:{round_id}"))

    def _autoplay_result(self, player: str, answer: dict[str, Any]) -> None:
        if not answer.get("ok"):
            self.autoplay.pop(player, None)  # stops on insufficient credit (or any refusal)
            self.hub.publish(self.table_id, f"player:{player}", {
                "type": "autoplay_changed", "table_id": self.table_id, "rounds": 0,
                "reason": answer["error"]["code"]})

    def _do_deal(self, c: _Command) -> dict[str, Any]:
        """A private table's start button ("Carte"): the stake is placed and the hand dealt,
        in one transaction; a refused stake leaves nothing behind."""
        if not self.private:
            raise CommandError("table.not_private", "bets at this table go in the betting window")
        player = c.args["player"]
        bets = c.args.get("bets")
        if bets is None:  # one stake on the game's main bet ("Carte" of Quota Fissa)
            bets = [{"position": c.args.get("position"), "kind": self.game.default_bet,
                     "amount": c.args.get("amount")}]
        if not isinstance(bets, list) or not bets or not all(isinstance(b, dict) for b in bets):
            raise core.RoundError("bet.invalid", "the bets are a list of objects")
        if self.state is not None and not self.state.finished:
            raise CommandError("round.in_progress", "finish the hand in play first")
        if self.paused:
            raise CommandError("table.paused", "the table is paused")
        now = self.clock.now()
        round_id = f"{self.table_id}-{self.round_no + 1:06d}"
        book = self.game.new_book(self.rules, now + 1.0)
        placements = book.check_command(player, [
            (f"{player}/{c.key}/{n}", b.get("position"), b.get("kind", self.game.default_bet),
             b.get("amount")) for n, b in enumerate(bets)], now)
        with self._write() as tx:
            group = f"{c.actor}/{c.key}"  # the hand's bets: all reserved, or none
            outcome = ledger.reserve_many(tx, [reserve_for(round_id, p, group)
                                               for p in placements])
            refused = next((o.error for o in outcome if not o.ok), None)
            if refused is not None:
                raise refused
            self.round_no += 1
            state, events = self.game.open_round(round_id, self.rules, now + 1.0)
            events[0].data["round_no"] = self.round_no  # type: ignore[index]
            events.append(core.Event("bets_placed", {"bets": [
                {"placement_id": p.placement_id, "player": p.player, "position": p.position,
                 "kind": p.kind, "amount": p.amount} for p in placements]}))
            self._append(tx, round_id, events)
        published = [book.add(p) for p in placements]
        self.book, self.state = book, state
        self.last_bets[player] = [(p.position, p.kind, p.amount) for p in placements]
        self._publish(round_id, [events[0], *published])
        new, more = self.game.step(state, core.CloseBetting(now, book.close()))
        self._transition(new, more)  # the RNG shoe deals what the rules let it, at once
        with self._write() as tx:  # the balance after it: a hand may be settled already
            b = ledger.balance(tx, player)
            answer = {"ok": True, "round_id": round_id,
                      "stake": sum(p.amount for p in placements),
                      "balance": {"available": b.available, "reserved": b.reserved}}
            tx.remember(c.actor, c.key, answer)
        return answer

    def _do_close_betting(self, c: _Command) -> dict[str, Any]:
        s = self.state
        if s is None or not s.betting:
            raise CommandError("round.not_betting", "betting is not open")
        placements = self.book.close()
        new, events = self.game.step(s, core.CloseBetting(self.clock.now(), placements))
        if not new.finished and self.rng is None:
            # Cards come from the shoe (the deck the shuffler announced) or the dealer's keys.
            deck_set = self.ready_deck or f"{new.round_id}-manual"
            new, more = self.game.step(new, core.OpenDeck(deck_set,
                                                          fresh=deck_set != self.deck_in_use))
            self.deck_in_use = deck_set
            events += more
        self._transition(new, events)  # the RNG shoe opens its own fresh deck as it deals
        return {"ok": True}

    def _do_card(self, c: _Command) -> dict[str, Any]:
        a = c.args
        card = parse_card(a["code"])
        if self.paused and a["source"] != "manual":
            raise core.RoundError("table.paused", "the table is paused")
        if self.state is None or self.state.finished:
            raise core.RoundError("card.not_expected", "no round is being dealt")
        self._card_step(core.CardSeen(card, a["source"], a.get("deck_set")))
        return {"ok": True}

    def _card_rejected(self, c: _Command, error: dict[str, str]) -> None:
        """A doubtful card: recorded for the dealer (never shown to players), table paused."""
        if error["code"] == "table.paused":
            return
        self._pause(f"card rejected: {error['code']}")
        event = core.Event("card_rejected", {"code": error["code"], "message": error["message"],
                                             "card": c.args.get("code"),
                                             "source": c.args.get("source")}, private=True)
        with self._write() as tx:
            self._append(tx, self.state.round_id if self.state else None, [event])
        self._alert(error["code"], error["message"], card=c.args.get("code"),
                    source=c.args.get("source"))

    def _do_deck_ready(self, c: _Command) -> dict[str, Any]:
        self.ready_deck = c.args["deck_set"]
        s = self.state
        if s is not None and not s.finished and not s.betting and (
                not s.deck_sets or len(s.seen) == len(self.game.deck)):
            new, events = self.game.step(s, core.OpenDeck(self.ready_deck, fresh=True))
            self.deck_in_use = self.ready_deck
            self._transition(new, events)
        elif self.changing_shoe and self.ready_deck != self.deck_in_use:
            self.changing_shoe = self.shoe_change_due = False
            self._track_shoe("shoe_changed", {})
            with self._write() as tx:  # the set id is staff's: players are told of a new shoe
                self._append(tx, None, [core.Event("shoe_changed", {"deck_set":
                                                                    self.ready_deck})])
            self._publish(None, [core.Event("shoe_changed", {"deck_set": None})])
            if self.running:
                self._next_round()
        return {"ok": True}

    def _do_cut_card(self, c: _Command) -> dict[str, Any]:
        if self.shoe_change_due:
            return {"ok": True}  # said already
        self.shoe_change_due = True
        s = self.state
        event = core.Event("cut_card_out", {"round_id": s.round_id if s else None})
        with self._write() as tx:
            self._append(tx, s.round_id if s else None, [event])
        self._publish(s.round_id if s else None, [event])
        if s is None or s.finished:  # between rounds: change the shoe now
            self._cancel_timer("next_round")
            self._start_shoe_change()
        return {"ok": True}

    def _do_device_status(self, c: _Command) -> dict[str, Any]:
        a = c.args
        if not a["online"]:
            self.offline.add(a["device"])
            self._pause(f"{a['device']} offline")
            self._alert("device.offline", f"{a['device']} is offline: {a['detail']}",
                        device=a["device"])
        else:
            self.offline.discard(a["device"])
            self._alert("device.online", f"{a['device']} is back online; resume when ready",
                        device=a["device"])
        return {"ok": True}

    def _do_decide(self, c: _Command) -> dict[str, Any]:
        a = c.args
        if self.state is None:
            raise core.RoundError("decision.not_your_turn", "no round is being played")
        if not isinstance(a["choice"], str) or a["choice"] not in self.game.choices:
            raise CommandError("decision.bad_choice",
                               f"choose {' or '.join(map(repr, self.game.choices))}")
        if self.paused:
            raise CommandError("table.paused", "the table is paused")  # never why: a
            # pause names device faults, which are the dealer's and the technicians' business
        decide = core.Decide(a["player"], a["position"], self.game.choices[a["choice"]])
        new, events = self.game.step(self.state, decide)
        unfunded = self._reserve_added(c, new)
        if unfunded:  # followers who could not follow: their bets stay as they were
            new, events = self.game.step(self.state, replace(decide, unfunded=unfunded))
        answer = {"ok": True, "choice": a["choice"]}
        if not new.awaiting_decision or new.turn != self.state.turn:
            self._cancel_timer("decision")
        followed = [p for p in new.placements[len(self.state.placements):]
                    if p.player != a["player"]]
        self._transition(new, events, remember=(c, answer))
        # each follower told of the stake it added (its balance moved): to it alone
        self._publish(new.round_id, [core.Event("bet_placed", {
            "placement_id": p.placement_id, "player": p.player, "position": p.position,
            "kind": p.kind, "amount": p.amount}) for p in followed])
        return answer

    def _reserve_added(self, c: _Command, new: core.RoundState) -> frozenset[str]:
        """A decision that puts money on the table (a double, a split, insurance) adds
        placements to the round: they are reserved like bets before the decision is stored.
        The decider's all or none: a refusal (not enough credit) refuses the decision and
        changes nothing. Followers' (bets behind) each where its player's credit allows: the
        players refused are returned, and the decision is stepped again without their share
        (the placements reserved here are exactly those it then adds)."""
        added = new.placements[len(self.state.placements):]
        if not added:
            return frozenset()
        decider = c.args["player"]
        own = [p for p in added if p.player == decider]
        followers = [p for p in added if p.player != decider]
        with self._write() as tx:
            group = f"{c.actor}/{c.key}"
            outcome = ledger.reserve_many(tx, [reserve_for(new.round_id, p, group)
                                               for p in own])
            refused = next((o.error for o in outcome if not o.ok), None)
            if refused is not None:
                raise refused
            outcome = ledger.reserve_many(tx, [reserve_for(new.round_id, p, f"{group}/{p.player}")
                                               for p in followers])
            unfunded = frozenset(p.player for p, o in zip(followers, outcome, strict=True)
                                 if not o.ok)
            placed = [p for p in added if p.player not in unfunded]
            if placed:
                self._append(tx, new.round_id, [core.Event("bets_placed", {"bets": [
                    {"placement_id": p.placement_id, "player": p.player,
                     "position": p.position, "kind": p.kind, "amount": p.amount}
                    for p in placed]})])
        return unfunded

    def _do_decision_timeout(self, c: _Command) -> dict[str, Any]:
        if self.paused or self.state is None:
            return {"ok": False}
        new, events = self.game.step(self.state, core.DecisionTimeout(c.args["position"],
                                                                 c.args["turn"]))
        if c.args.get("gone"):  # why the default came before the timer: the player left
            events = [core.Event("decider_gone", {"position": c.args["position"],
                                                  "turn": c.args["turn"]}), *events]
        self._transition(new, events)
        return {"ok": True}

    def _do_cancel(self, c: _Command) -> dict[str, Any]:
        player = c.args["player"]
        if self.book is None:
            raise core.RoundError("bet.window_closed", "Stop alle puntate")
        mine = self.book.check_cancel(core.CancelBets(player, self.clock.now()))
        rid = self.state.round_id
        with self._write() as tx:
            ledger.release_many(tx, [cancel_for(rid, p.placement_id) for p in mine])
            event = core.Event("bets_cancelled", {
                "player": player, "placement_ids": [p.placement_id for p in mine],
                "amount": sum(p.amount for p in mine)})
            self._append(tx, rid, [event])
            b = ledger.balance(tx, player)
            answer = {"ok": True, "cancelled": event.data["amount"],
                      "balance": {"available": b.available, "reserved": b.reserved}}
            tx.remember(c.actor, c.key, answer)
        book = self.book

        def adopt() -> None:  # only once the release is committed
            book.cancel(player)
            self.last_bets.pop(player, None)
            self._publish(rid, book.window_events(self.clock.now()))  # a seat given back
        self._after_commit(adopt)
        self._publish(rid, [event])
        return answer

    def _do_ripunta(self, c: _Command) -> dict[str, Any]:
        player = c.args["player"]
        bets = self.last_bets.get(player)
        if not bets:
            raise CommandError("bet.nothing_to_repeat", "no previous bets to repeat")
        # Re-enter as a bet command with the same idempotency key, answered as a bet.
        self.inbox.put_nowait(_Command(
            "bet", {"player": player, "bets": [{"position": p, "kind": k, "amount": a}
                                               for p, k, a in bets]},
            c.actor, c.key, c.future))
        c.future = None
        return {"ok": True}

    def _do_autoplay(self, c: _Command) -> dict[str, Any]:
        player, rounds = c.args["player"], c.args["rounds"]
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 0 <= rounds <= 1000:
            raise CommandError("autoplay.bad_rounds", "autoplay rounds must be 0 to 1000")
        if rounds and not self.last_bets.get(player):
            raise CommandError("autoplay.no_bets", "place a bet first: autoplay repeats it")
        if rounds:
            self.autoplay[player] = rounds
        else:
            self.autoplay.pop(player, None)
        answer = {"ok": True, "autoplay": rounds}
        with self._write() as tx:
            self._append(tx, self.state.round_id if self.state else None, [core.Event(
                "autoplay_changed", {"player": player, "rounds": rounds})])
            tx.remember(c.actor, c.key, answer)
        return answer

    # ------------------------------------------------------------------ dealer commands

    def _do_dealer_start(self, c: _Command) -> dict[str, Any]:
        self.running = True
        if self.state is None or self.state.finished:
            self.post("open_round", {})
        return self._remembered(c, {"ok": True, "running": True})

    def _do_dealer_stop(self, c: _Command) -> dict[str, Any]:
        """No new round after the current one."""
        self.running = False
        self._cancel_timer("next_round")
        return self._remembered(c, {"ok": True, "running": False})

    def _do_dealer_pause(self, c: _Command) -> dict[str, Any]:
        self._pause(c.args.get("reason") or "paused by the dealer")
        self._alert("table.paused", self.paused)
        return self._remembered(c, {"ok": True, "paused": self.paused})

    def _do_dealer_resume(self, c: _Command) -> dict[str, Any]:
        if self.offline:
            raise CommandError("table.device_offline",
                               f"{', '.join(sorted(self.offline))} offline: resume when it is "
                               "back, key the cards in, or void the round")
        if self.storage_down:
            raise CommandError(STORAGE_DOWN, "the database is unreachable: the table "
                               "resumes by itself when it is back")
        self._resume()
        return self._remembered(c, {"ok": True, "paused": None})

    def _resume(self) -> None:
        self.paused = None
        self._alert("table.resumed", "the table is running again")
        s = self.state
        if s is not None and s.betting and self.clock.now() >= s.closes_at:
            # the window's close failed (the reason of the pause): run it again now
            self.post("close_betting", {})
        self._set_decision_timer()  # a fresh, full decision timer
        self._feed()

    def _do_dealer_card(self, c: _Command) -> dict[str, Any]:
        """Manual entry when a reader fails: the dealer confirms the card by its code."""
        if self.state is None or self.state.finished:
            raise core.RoundError("card.not_expected", "no round is being dealt")
        card = parse_card(c.args.get("code", ""))
        self._card_step(core.CardSeen(card, "manual"))
        return self._remembered(c, {"ok": True, "card": card.code})

    def _do_dealer_void(self, c: _Command) -> dict[str, Any]:
        reason = (c.args.get("reason") or "").strip()
        if not reason:
            raise CommandError("void.reason_required", "say why the round is void")
        s = self.state
        if s is None or s.finished:
            raise CommandError("round.none", "no round to void")
        if s.betting:  # the window's bets are in the book, not the round
            s = replace(s, placements=self.book.close())
        new, events = self.game.step(s, core.Void(reason))
        self._cancel_timer("betting", "decision")
        answer = {"ok": True, "voided": new.round_id}
        self._transition(new, events, remember=(c, answer))
        return answer

    def _remembered(self, c: _Command, answer: dict[str, Any]) -> dict[str, Any]:
        with self._write() as tx:
            tx.remember(c.actor, c.key, answer)
        return answer


class _RetryAlone(Exception):
    """A batch met a ledger refusal: process its commands one by one instead."""
