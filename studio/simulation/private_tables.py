"""Hands of a private-table game played through the real table core: many private tables at
once (`studio.table.private.PrivateTables`), one bot each, on a real database. Each bot places
the same bets every hand and, where the game asks, decides with the `decide` it is given.
Afterwards the ledger must balance, every bot's balance must equal its credit less its stakes
plus its returns, and the audit must replay every hand of every instance.

The game's own `spots` read its settlement events, so one runner serves every game.
"""

from __future__ import annotations

import asyncio
import math
import random
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio import ledger
from studio.clock import ManualClock
from studio.storage import Store, audit
from studio.table import replay
from studio.table.hub import Hub
from studio.table.private import PrivateTables
from studio.table.rng_shoe import RngShoe
from studio.table.seam import Event

CREDIT = 10_000_000


@dataclass
class PrivateReport:
    hands: int
    tables: int
    seconds: float
    nets: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    ledger_total: int = 0
    open_reservations: int = 0
    mismatched_balances: list[str] = field(default_factory=list)
    audit_ok: bool = False
    audit_problems: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # seconds, per command

    def realised(self, kind: str) -> tuple[float, float]:
        """(return, standard error) of a bet: each hand is independent (a fresh deck)."""
        xs = self.nets[kind]
        n = len(xs)
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1)
        return 1 + mean, math.sqrt(var / n)

    @property
    def ok(self) -> bool:
        return (self.ledger_total == 0 and self.open_reservations == 0
                and not self.mismatched_balances and self.audit_ok)


async def run(cfg: Any, hands: int, tables: int, seed: int, bets: list[dict[str, Any]],
              decide: Callable[[Any], str] | None = None, database: str | None = None,
              audit_log: bool = True) -> PrivateReport:
    """`hands` hands of the private table `cfg` over `tables` instances at once."""
    tmp = None
    if database is None:
        tmp = tempfile.TemporaryDirectory()
        database = f"sqlite:///{Path(tmp.name) / 'simulation.db'}"
    clock = ManualClock()
    store = Store.open(database, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    seeds = random.Random(seed)
    private = PrivateTables(cfg, store, clock, Hub(),
                            shoe=lambda: RngShoe(random.Random(seeds.getrandbits(64))))
    bots = [f"bot{i:05d}" for i in range(tables)]
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"sim-credit/{b}", b, CREDIT) for b in bots])
    report = PrivateReport(hands=0, tables=tables, seconds=0.0)
    per_hand = sum(b["amount"] for b in bets)
    staked = dict.fromkeys(bots, 0)
    returned = dict.fromkeys(bots, 0)
    game = None

    def on_event(table_id: str, audience: str, ev: dict[str, Any]) -> None:
        if game is None or ev["type"] not in game.settlement_events:
            return
        for player, _, kind, stake, back in game.spots(Event(ev["type"], ev)):
            back = stake if back is None else back
            returned[player] += back
            report.nets[kind].append(back / stake - 1)
    private.hub.subscribe(on_event)

    async def timed(coro: Any) -> dict[str, Any]:
        t0 = time.perf_counter()
        answer = await coro
        report.latencies.append(time.perf_counter() - t0)
        return answer

    async def play(bot: str, count: int) -> None:
        nonlocal game
        actor = await private.open(bot)
        game = actor.game
        for _ in range(count):
            answer = await timed(actor.deal(bot, None, uuid.uuid4().hex, bets))
            if not answer["ok"]:
                raise RuntimeError(f"{bot}: {answer}")
            staked[bot] += per_hand
            while actor.state.awaiting_decision and decide is not None:
                await timed(actor.decide(bot, actor.state.deciding, decide(actor.state),
                                         uuid.uuid4().hex))

    per_bot = [hands // tables + (1 if i < hands % tables else 0) for i in range(tables)]
    started = time.perf_counter()
    await asyncio.gather(*(play(b, n) for b, n in zip(bots, per_bot, strict=True)))
    report.seconds = time.perf_counter() - started
    report.hands = hands
    await private.stop()
    with store.reader() as tx:
        report.ledger_total = ledger.total_balance(tx)
        report.open_reservations = len(ledger.open_reservations(tx))
        balances = ledger.balances(tx, bots)
    report.mismatched_balances = [
        b for b in bots if balances[b] != ledger.Balance(CREDIT - staked[b] + returned[b], 0)]
    if audit_log:
        result = audit.verify(store, replayers=replay.replayers(),
                              games={f"table:{cfg.id}": cfg.game})
        report.audit_ok = result.ok
        report.audit_problems = [p.message for p in result.problems[:5]]
    else:
        report.audit_ok = True
    store.dispose()
    if tmp is not None:
        tmp.cleanup()
    return report
