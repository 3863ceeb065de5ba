"""A multiplayer (seated) table on the real core and database, its clock in the test's hands."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime
from typing import Any

from studio import ledger
from studio.clock import ManualClock
from studio.config import SetteEMezzoMultiplayerTable
from studio.ledger_transfers import RAKE_ACCOUNT, pool_account, seat_account
from studio.storage import Store
from studio.table.seated import SeatedTable, SeatedTables
from tests.mp_bots import bot_move
from tests.quota_fissa_harness import StackedShoe


def mp_config(variant: str = "piatto", **over: Any) -> SetteEMezzoMultiplayerTable:
    data: dict[str, Any] = {
        "id": f"mp-{variant}", "name": f"Sette e Mezzo {variant}",
        "game": "sette-e-mezzo-multiplayer", "variant": variant, "seats": 4, "min_bet": 100,
        "min_bank": 500, "rake_bp": 250, "buy_in_min": 500, "buy_in_max": 100_000,
        "decision_s": 20, "idle_s": 180}
    data.update(over)
    return SetteEMezzoMultiplayerTable(**data)


class MpHarness:
    def __init__(self, store: Store, variant: str = "piatto", seed: int = 1,
                 clock: ManualClock | None = None, **over: Any) -> None:
        self.clock = clock or ManualClock()
        store.clock = lambda: datetime.fromtimestamp(self.clock.now(), UTC)
        self.store = store
        self.cfg = mp_config(variant, **over)
        self.shoe = StackedShoe(seed)
        self.rng = random.Random(seed)
        self.group = SeatedTables(store, self.clock)
        self.table: SeatedTable = self.group.add(self.cfg, rng_shoe=self.shoe)
        self.group.start()

    @property
    def state(self) -> Any:
        return self.table.state

    def credit(self, player: str, cents: int) -> None:
        with self.store.transaction() as tx:
            ledger.credit(tx, f"credit:{player}:{uuid.uuid4().hex[:8]}", player, cents)

    async def act(self, player: str, type_: str, **args: Any) -> dict[str, Any]:
        return await self.table.act(player, {"type": type_, **args}, uuid.uuid4().hex)

    async def ok(self, player: str, type_: str, **args: Any) -> dict[str, Any]:
        answer = await self.act(player, type_, **args)
        assert answer["ok"], answer
        return answer

    async def sit(self, *players: str, amount: int = 5000, wallet: int = 100_000) -> None:
        for p in players:
            self.credit(p, wallet)
            await self.ok(p, "sit", amount=amount)

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.group.drain()

    async def bots(self, until: Any = None, limit: int = 5000) -> int:
        """Bots act for whoever must, until `until(state)` or nobody must act."""
        n = 0
        while n < limit and not (until and until(self.state)):
            mv = bot_move(self.state, self.rng)
            if mv is None:
                break
            player = mv.pop("player")
            answer = await self.table.act(player, mv, uuid.uuid4().hex)
            assert answer["ok"], (mv, answer)
            n += 1
        return n

    def seat(self, player: str) -> int:
        with self.store.reader() as tx:
            return ledger.account_balance(tx, seat_account(self.table.table_id, player))

    def pool(self) -> int:
        with self.store.reader() as tx:
            return ledger.account_balance(tx, pool_account(self.table.table_id))

    def rake(self) -> int:
        with self.store.reader() as tx:
            return ledger.account_balance(tx, RAKE_ACCOUNT)

    def wallet(self, player: str) -> int:
        with self.store.reader() as tx:
            return ledger.balance(tx, player).available

    def total(self) -> int:
        with self.store.reader() as tx:
            return ledger.total_balance(tx)

    async def restart(self) -> None:
        """A new process on the same database: the table recovers from its log."""
        await self.group.stop()
        self.shoe = StackedShoe(self.rng.randrange(1000))  # the old shoe died with it
        self.group = SeatedTables(self.store, self.clock)
        self.table = self.group.add(self.cfg, rng_shoe=self.shoe)
        self.group.start()

    async def close(self) -> None:
        await self.group.stop()
