"""Private Quota Fissa tables on a real database with a manual clock, for tests and benchmarks."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime

from studio import ledger
from studio.cards import Card, parse_card
from studio.clock import ManualClock
from studio.config import load_config
from studio.storage import Store
from studio.table.actor import TableActor
from studio.table.hub import Hub
from studio.table.rng_shoe import RngShoe


def quota_fissa_config():
    return load_config().first_table("sette-e-mezzo-quota-fissa")


class StackedShoe(RngShoe):
    """A real RNG shoe whose next decks start with the cards a test names (the rest of each
    deck stays shuffled): a hand the test needs, dealt through the real dealing path."""

    def __init__(self, seed: int = 1) -> None:
        super().__init__(random.Random(seed))
        self.stacks: list[list[str]] = []

    def new_deck(self, deck_set: str) -> list[Card]:
        cards = super().new_deck(deck_set)
        if self.stacks:
            top = [parse_card(c) for c in self.stacks.pop(0)]
            cards = top + [c for c in cards if c not in top]
            self._cards = list(cards)
        return cards


class PrivateHarness:
    def __init__(self, store: Store, player: str = "ann") -> None:
        self.clock = ManualClock()
        store.clock = lambda: datetime.fromtimestamp(self.clock.now(), UTC)
        self.store = store
        self.cfg = quota_fissa_config()
        self.player = player
        self.hub = Hub()
        self.seen: list[tuple[str, dict]] = []
        self.hub.subscribe(lambda table, audience, ev: self.seen.append((audience, ev)))
        self.shoe = StackedShoe()
        self.actor = TableActor(self.cfg, store, self.clock, self.hub, rng_shoe=self.shoe,
                                instance=player)

    def credit(self, cents: int, player: str | None = None) -> None:
        with self.store.transaction() as tx:
            ledger.credit(tx, f"credit/{uuid.uuid4().hex}", player or self.player, cents)

    def balance(self, player: str | None = None) -> ledger.Balance:
        with self.store.reader() as tx:
            return ledger.balance(tx, player or self.player)

    async def deal(self, amount: int, cards: str | None = None, key: str | None = None,
                   player: str | None = None) -> dict:
        """ "Carte" with `amount`; `cards` (player, bank, then the draws) stacks the deck."""
        if cards:
            self.shoe.stacks.append(cards.split())
        answer = await self.actor.deal(player or self.player, amount, key or uuid.uuid4().hex)
        await self.actor.drain()
        return answer

    async def decide(self, choice: str, player: str | None = None) -> dict:
        answer = await self.actor.decide(player or self.player, 1, choice, uuid.uuid4().hex)
        await self.actor.drain()
        return answer

    def events(self, type_: str) -> list[dict]:
        return [e for _, e in self.seen if e["type"] == type_]
