"""Sette e Mezzo Quota Fissa hands played through the real table core: many private tables at
once (`studio.table.private.PrivateTables`), one bot per table playing the exact engine's best
decision for the cards it has seen, on a real database. Afterwards the ledger must balance,
every bot's balance must equal its credit less its stakes plus its returns, and the audit must
replay every hand of every instance.
"""

from __future__ import annotations

import asyncio
import math
import random
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio import ledger
from studio.clock import ManualClock
from studio.config import load_config
from studio.mathematics import sette_e_mezzo_quota_fissa as exact
from studio.storage import Store, audit
from studio.table import replay
from studio.table.hub import Hub
from studio.table.private import PrivateTables
from studio.table.rng_shoe import RngShoe

CREDIT = 10_000_000
STAKE = 100


@dataclass
class QuotaFissaReport:
    hands: int
    tables: int
    seconds: float
    nets: list[float] = field(default_factory=list)
    ledger_total: int = 0
    open_reservations: int = 0
    mismatched_balances: list[str] = field(default_factory=list)
    audit_ok: bool = False
    audit_problems: list[str] = field(default_factory=list)
    exact_return: float = 0.0
    latencies: list[float] = field(default_factory=list)  # seconds, per command

    def realised(self) -> tuple[float, float]:
        """(return, standard error): each hand is independent (a fresh deck every hand)."""
        n = len(self.nets)
        mean = sum(self.nets) / n
        var = sum((x - mean) ** 2 for x in self.nets) / (n - 1)
        return 1 + mean, math.sqrt(var / n)

    @property
    def ok(self) -> bool:
        return (self.ledger_total == 0 and self.open_reservations == 0
                and not self.mismatched_balances and self.audit_ok)


async def run(hands: int, tables: int, seed: int, database: str | None = None,
              config: str | None = None, audit_log: bool = True) -> QuotaFissaReport:
    tmp = None
    if database is None:
        tmp = tempfile.TemporaryDirectory()
        database = f"sqlite:///{Path(tmp.name) / 'simulation.db'}"
    clock = ManualClock()
    store = Store.open(database, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    cfg = load_config(config).first_table("sette-e-mezzo-quota-fissa")
    seeds = random.Random(seed)
    private = PrivateTables(cfg, store, clock, Hub(),
                            shoe=lambda: RngShoe(random.Random(seeds.getrandbits(64))))
    eng = exact.engine(cfg.paytable.win_odds)
    bots = [f"qf{i:05d}" for i in range(tables)]
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"sim-credit/{b}", b, CREDIT) for b in bots])
    report = QuotaFissaReport(hands=0, tables=tables, seconds=0.0)
    staked: dict[str, int] = dict.fromkeys(bots, 0)
    returned: dict[str, int] = dict.fromkeys(bots, 0)

    def on_event(table_id: str, audience: str, ev: dict[str, Any]) -> None:
        if ev["type"] == "hand_settled":
            returned[ev["player"]] += ev["returned"]
            report.nets.append(ev["returned"] / ev["stake"] - 1)
    private.hub.subscribe(on_event)

    async def timed(coro: Any) -> dict[str, Any]:
        t0 = time.perf_counter()
        answer = await coro
        report.latencies.append(time.perf_counter() - t0)
        return answer

    async def play(bot: str, count: int) -> None:
        actor = await private.open(bot)
        for _ in range(count):
            answer = await timed(actor.deal(bot, STAKE, uuid.uuid4().hex))
            if not answer["ok"]:
                raise RuntimeError(f"{bot}: {answer}")
            staked[bot] += STAKE
            while actor.state.awaiting_decision:
                s = actor.state
                left = eng.full
                for c in (*s.cards, *s.bank):
                    left = eng.take(left, eng.class_of(c))
                hit = eng.hits(s.hand(), s.bank_hand(), left)
                await timed(actor.decide(bot, 1, "carta" if hit else "stai", uuid.uuid4().hex))

    per_bot = [hands // tables + (1 if i < hands % tables else 0) for i in range(tables)]
    started = time.perf_counter()
    await asyncio.gather(*(play(b, n) for b, n in zip(bots, per_bot, strict=True)))
    report.seconds = time.perf_counter() - started
    report.hands = len(report.nets)
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
    report.exact_return = 1 + eng.expected_net()
    store.dispose()
    if tmp is not None:
        tmp.cleanup()
    return report
