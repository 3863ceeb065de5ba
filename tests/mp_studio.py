"""A whole studio (tests/browser/harness.py) serving a multiplayer table too."""

from __future__ import annotations

from pathlib import Path

from studio.table.seated import SeatedTable, SeatedTables
from studio.web import seated_api
from tests.browser.harness import StudioHarness
from tests.mp_harness import mp_config
from tests.quota_fissa_harness import StackedShoe


class MpStudio(StudioHarness):
    def __init__(self, tmp: Path, variant: str = "piatto", **over) -> None:
        super().__init__(tmp)
        self.mp_cfg = mp_config(variant, **{"id": "mp-1", "seats": 7, **over})
        self.mp_shoe = StackedShoe(5)
        self.seated = SeatedTables(self.store, self.clock, self.hub)
        self.mp: SeatedTable = self.seated.add(self.mp_cfg, rng_shoe=self.mp_shoe)
        seated_api.add_routes(self.app, self.seated)

    async def start(self, running: bool = True) -> None:
        await super().start(running)
        self.seated.start()

    async def stop(self) -> None:
        for cup in self.app[seated_api.TOURNAMENTS].values():
            await cup.stop()
        await self.seated.stop()
        await super().stop()

    def mp_seat(self, player: str) -> int:
        from studio import ledger
        from studio.ledger_transfers import seat_account

        with self.store.reader() as tx:
            return ledger.account_balance(tx, seat_account(self.mp.table_id, player))

    def rake(self) -> int:
        from studio import ledger
        from studio.ledger_transfers import RAKE_ACCOUNT

        with self.store.reader() as tx:
            return ledger.account_balance(tx, RAKE_ACCOUNT)
