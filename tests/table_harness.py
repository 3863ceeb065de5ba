"""A table actor on a real database with a manual clock, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from studio import ledger
from studio.clock import ManualClock
from studio.config import load_config
from studio.storage import Store
from studio.table.actor import TableActor
from studio.table.hub import Hub
from studio.table.rng_shoe import RngShoe


def live_config(**changes: Any):
    cfg = load_config().first_table("sette-e-mezzo-live")
    timers = cfg.timers.model_copy(update=changes.pop("timers", {}))
    return cfg.model_copy(update={"timers": timers, **changes})


class Harness:
    def __init__(self, store: Store, *, card_source: str = "manual", seed: int | None = None,
                 burn_card: bool = True, positions: int = 3, limits: dict | None = None,
                 cfg: Any = None) -> None:
        """`cfg`: another table's configuration (default: the Sette e Mezzo live table's)."""
        self.clock = ManualClock()
        store.clock = lambda: datetime.fromtimestamp(self.clock.now(), UTC)
        self.store = store
        if cfg is None:
            cfg = live_config(card_source=card_source, burn_card=burn_card, positions=positions)
        if limits:
            cfg = cfg.model_copy(update={"limits": cfg.limits.model_copy(update=limits)})
        self.cfg = cfg
        self.hub = Hub()
        self.seen: list[tuple[str, dict]] = []
        self.hub.subscribe(lambda table, audience, ev: self.seen.append((audience, ev)))
        rng = RngShoe(random.Random(seed)) if card_source == "rng" else None
        self.actor = TableActor(cfg, store, self.clock, self.hub, rng_shoe=rng)

    def credit(self, player: str, cents: int) -> None:
        with self.store.transaction() as tx:
            ledger.credit(tx, f"credit/{player}/{uuid.uuid4().hex}", player, cents)

    def balance(self, player: str) -> ledger.Balance:
        with self.store.reader() as tx:
            return ledger.balance(tx, player)

    def total(self) -> int:
        with self.store.reader() as tx:
            return ledger.total_balance(tx)

    async def start(self, running: bool = True) -> None:
        await self.actor.start()
        if running:
            await self.dealer("start")
            await self.actor.drain()

    async def dealer(self, command: str, **args: Any) -> dict:
        return await self.actor.dealer("d1", command, uuid.uuid4().hex, **args)

    async def bet(self, player: str, position: int, amount: int, kind: str = "main",
                  key: str | None = None) -> dict:
        return await self.actor.place_bets(
            player, [{"position": position, "kind": kind, "amount": amount}],
            key or uuid.uuid4().hex)

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.actor.drain()

    async def close_betting(self) -> None:
        await self.advance(self.cfg.timers.betting_window_s)

    async def cards(self, codes: str, source: str = "shoe") -> None:
        for c in codes.split():
            self.actor.card_seen(c, source)
            await self.actor.drain()

    async def decide(self, player: str, position: int, choice: str) -> dict:
        return await self.actor.decide(player, position, choice, uuid.uuid4().hex)

    def events(self, type_: str, audience: str | None = None) -> list[dict]:
        return [e for a, e in self.seen if e["type"] == type_ and (audience is None or
                                                                   a == audience)]


@contextlib.contextmanager
def count_personal_views(actor: TableActor) -> Iterator[list[str]]:
    """The players whose personal view the actor's game builds meanwhile, in order (the
    fan-out must not build a view whose key did not change). The game is shared by every
    table of its kind: it is given back as it was."""
    built: list[str] = []
    game = actor.game
    view = game.personal_view

    def counted(s: Any, player: str) -> dict[str, Any]:
        built.append(player)
        return view(s, player)
    game.personal_view = counted  # type: ignore[method-assign]
    try:
        yield built
    finally:
        del game.personal_view  # the class's own again
