"""Multi-table tournaments on seated tables: registration with a buy-in, seats drawn, tables
merged and balanced as players are eliminated, the ranking, prizes paid into the ledger.

Money and chips: a buy-in is a ledger transfer from the player's account to the tournament's
pool (``pool:<tournament>``, one ticket each); at the tournament tables players play for chips,
which are not money (the tables log their moves as tickets of chips, `SeatedGame.books_money`);
at the end the pool is paid out to the ranking's places, one transfer per prize, in the same
transaction as the ``tournament_finished`` event. The tournament's own log (stream
``tournament:<id>``) records registrations, the draw, every move between tables, every
elimination and the prizes.

What the game decides (how to draw, balance, rank, split the prizes; which inputs seat and
unseat a player) comes from its `TournamentGame`; this module only applies it: a player moves
only while its table is between rounds (the table refuses otherwise, and the move waits for the
round's end). `direct` looks at every table once and does what is due; a running tournament
calls it after each commit of its tables (`run`), tests call it themselves.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from studio import ledger, ledger_transfers
from studio.ledger_transfers import Transfer, pool_account
from studio.storage import Store
from studio.storage.event_log import NewEvent
from studio.table.seated import SeatedTable, SeatedTables


class TournamentGame(Protocol):
    def draw(self, players: Sequence[str], seats: int) -> list[list[str]]: ...

    def rebalance(self, tables: Mapping[str, Sequence[str]], seats: int
                  ) -> list[tuple[str, str, str]]: ...

    def prizes(self, pool: int, shares_bp: Sequence[int], places: int) -> list[int]: ...

    def seat_input(self, chips: int) -> dict[str, Any]: ...

    def unseat_input(self, players: list[str]) -> dict[str, Any]: ...

    def between_rounds(self, state: Any) -> bool: ...

    def seated(self, state: Any) -> list[str]: ...

    def chips(self, state: Any) -> dict[str, int]: ...

    def moved_out(self, state: Any) -> list[tuple[str, int]]: ...

    def eliminations(self, state: Any) -> list[dict[str, Any]]: ...

    def ranking(self, eliminations: list[dict[str, Any]], survivors: list[str]) -> list[str]:
        ...


class TournamentError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class TournamentSetup:
    id: str
    table: Any  # the configuration of its tables (ids made from the tournament's)
    buy_in: int  # cents, into the prize pool
    chips: int  # starting chips
    prizes_bp: tuple[int, ...]  # each place's share of the pool, basis points
    players: int | None = None  # a sit & go: starts when this many have registered


class Tournament:
    DIRECTOR = "director"

    def __init__(self, setup: TournamentSetup, group: SeatedTables, store: Store,
                 game: Any, rng: random.Random | None = None) -> None:
        self.setup = setup
        self.group = group
        self.store = store
        self.game = game
        self.rules: TournamentGame = game.tournament
        self.rng = rng or random.SystemRandom()
        self.stream = f"tournament:{setup.id}"
        self.pool = pool_account(setup.id)
        self.registered: list[str] = []
        self.tables: dict[str, SeatedTable] = {}
        self.eliminated: list[dict[str, Any]] = []
        self._seen: dict[str, int] = {}  # table -> eliminations recorded
        self._moved: dict[str, int] = {}  # table -> moves out consumed
        self._in_transit: dict[str, tuple[str, str]] = {}  # player -> (from, to)
        self.ranking: list[str] | None = None
        self.prizes: dict[str, int] = {}
        self.moves = 0
        self.task: asyncio.Task | None = None  # `run`, once started by the lobby

    # -- registration and the draw ---------------------------------------------------------

    def register(self, player: str) -> ledger_transfers.Ticket:
        """The buy-in, from the player's account into the prize pool, with its ticket."""
        if self.tables or self.full:
            raise TournamentError("tournament.started", "registration is closed")
        if player in self.registered:
            raise TournamentError("tournament.registered", "already registered")
        with self.store.transaction() as tx:
            ticket = ledger_transfers.transfer(
                tx, f"{self.setup.id}:buy-in:{player}",
                {ledger.player_account(player): -self.setup.buy_in,
                 self.pool: self.setup.buy_in})
            self._log(tx, "registered", player=player, buy_in=self.setup.buy_in,
                      ticket=ticket.movement_id)
        self.registered.append(player)
        return ticket

    @property
    def full(self) -> bool:
        return self.setup.players is not None and len(self.registered) >= self.setup.players

    def status(self) -> dict[str, Any]:
        """The tournament as its lobby shows it."""
        return {"id": self.setup.id, "buy_in": self.setup.buy_in, "chips": self.setup.chips,
                "players": self.setup.players, "registered": len(self.registered),
                "started": bool(self.tables), "tables": {
                    tid: self.rules.seated(t.state) for tid, t in self.tables.items()},
                "eliminated": [e["player"] for e in self.eliminated],
                "ranking": self.ranking, "prizes": self.prizes}

    async def start(self) -> None:
        """Draw the seats and open the tables, each player seated with the starting chips."""
        if len(self.registered) < 2:
            raise TournamentError("tournament.too_few", "two players at least")
        players = list(self.registered)
        self.rng.shuffle(players)
        seats = self.setup.table.seats
        groups = self.rules.draw(players, seats)
        with self.store.transaction() as tx:
            self._log(tx, "tables_drawn", tables={
                f"{self.setup.id}-{n}": g for n, g in enumerate(groups, 1)})
        for n, group in enumerate(groups, 1):
            cfg = self.setup.table.model_copy(update={"id": f"{self.setup.id}-{n}",
                                                      "kind": "tournament", "rake_bp": 0})
            table = self.group.add(cfg)
            self.tables[table.table_id] = table
            for p in group:
                await self._seat(table, p, self.setup.chips)

    async def _seat(self, table: SeatedTable, player: str, chips: int) -> None:
        answer = await table.act(player, self.rules.seat_input(chips),
                                 f"{self.setup.id}:seat:{player}:{self.moves}")
        if not answer["ok"]:
            raise TournamentError(answer["error"]["code"], answer["error"]["message"])

    # -- directing ---------------------------------------------------------------------------

    async def direct(self) -> None:
        """Record eliminations, seat players in transit, move players to merge and balance
        the tables (those between rounds), and finish when one player is left."""
        if self.ranking is not None:
            return
        self._record_eliminations()
        await self._arrive()
        seated = {tid: self.rules.seated(t.state) for tid, t in self.tables.items()}
        for p, (_, to) in self._in_transit.items():
            seated[to] = [*seated[to], p]
        alive = sum(len(ps) for ps in seated.values())
        if alive <= 1 and not self._in_transit:
            self._finish([p for ps in seated.values() for p in ps])
            return
        by_source: dict[str, list[tuple[str, str]]] = {}
        for p, src, dst in self.rules.rebalance(seated, self.setup.table.seats):
            if p not in self._in_transit:
                by_source.setdefault(src, []).append((p, dst))
        for src, moves in by_source.items():
            table = self.tables[src]
            if not self.rules.between_rounds(table.state):
                continue  # at the end of its round
            self.moves += 1
            answer = await table.act(self.DIRECTOR, self.rules.unseat_input(
                [p for p, _ in moves]), f"{self.setup.id}:move:{self.moves}")
            if answer["ok"]:
                for p, dst in moves:
                    self._in_transit[p] = (src, dst)
        await self._arrive()

    async def _arrive(self) -> None:
        """Players who left their table sit down at the next with the chips they took."""
        for tid, table in self.tables.items():
            out = self.rules.moved_out(table.state)
            for p, chips in out[self._moved.get(tid, 0):]:
                src, dst = self._in_transit.pop(p)
                with self.store.transaction() as tx:
                    self._log(tx, "player_moved", player=p, chips=chips, **{"from": src},
                              to=dst)
                await self._seat(self.tables[dst], p, chips)
            self._moved[tid] = len(out)

    def _record_eliminations(self) -> None:
        for tid, table in self.tables.items():
            out = self.rules.eliminations(table.state)
            fresh = [{**e, "table": tid} for e in out[self._seen.get(tid, 0):]]
            self._seen[tid] = len(out)
            if fresh:
                self.eliminated += fresh
                with self.store.transaction() as tx:
                    for e in fresh:
                        self._log(tx, "eliminated", **e)

    def _finish(self, survivors: list[str]) -> None:
        """The ranking, and the pool paid to its places in one transaction with the event."""
        ranking = self.rules.ranking(self.eliminated, survivors)
        with self.store.transaction() as tx:
            pool = ledger.account_balance(tx, self.pool)
            amounts = self.rules.prizes(pool, self.setup.prizes_bp, len(ranking))
            paid = {p: a for p, a in zip(ranking, amounts, strict=False) if a}
            ledger_transfers.transfer_many(tx, [
                Transfer.of(f"{self.setup.id}:prize:{place}",
                            {self.pool: -a, ledger.player_account(p): a})
                for place, (p, a) in enumerate(paid.items(), 1)])
            self._log(tx, "tournament_finished", ranking=ranking, prizes=paid)
        self.ranking, self.prizes = ranking, paid

    async def run(self) -> None:
        """Direct after every commit of the group's tables, until the tournament is over."""
        wake = asyncio.Event()
        self.group.listeners.append(wake.set)
        try:
            while self.ranking is None:
                await wake.wait()
                wake.clear()
                await self.direct()
        finally:
            self.group.listeners.remove(wake.set)

    async def stop(self) -> None:
        from studio.tasks import cancel

        await cancel(self.task)
        self.task = None

    def _log(self, tx: Any, type_: str, **data: Any) -> None:
        tx.append_events([NewEvent(self.stream, type_, data)], stored=False)
