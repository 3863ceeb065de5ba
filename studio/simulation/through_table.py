"""Rounds of Sette e Mezzo Live played through the real table actor, on a real database, by
bots: best-play bots (the exact engine's decision given their cards and the dealer's), random
bots, and bots that disconnect (they never answer, so the decision timer stands for them).
Several bots share each position. Afterwards the ledger must balance, every bot's balance must
equal its credit minus its stakes plus its returns, and the audit must replay every round.
"""

from __future__ import annotations

import asyncio
import math
import random
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio import ledger
from studio.clock import ManualClock
from studio.config import SetteEMezzoLiveTable, load_config
from studio.games.sette_e_mezzo import Hand
from studio.mathematics import sette_e_mezzo_live as exact
from studio.storage import Store, audit
from studio.table import replay
from studio.table.actor import TableActor
from studio.table.hub import Hub
from studio.table.rng_shoe import RngShoe

CREDIT = 10_000_000
STAKE = 100


@dataclass
class Bot:
    name: str
    position: int
    strategy: str  # "best" | "random" | "disconnected"
    staked: int = 0
    returned: int = 0
    # (round id, position, main-bet net per unit) for each hand played
    nets: list[tuple[str, int, float]] = field(default_factory=list)


@dataclass
class ThroughTableReport:
    rounds: int
    seconds: float
    bots: list[Bot]
    ledger_total: int
    open_reservations: int
    mismatched_balances: list[str]
    audit_ok: bool
    audit_problems: list[str]
    exact_return: float

    def realised(self, strategy: str) -> tuple[float, float, int]:
        """(return, standard error, hands). Bots on one position share its cards, so their
        results are not independent: the error is computed over (round, position) clusters."""
        clusters: dict[tuple[str, int], list[float]] = defaultdict(list)
        for b in self.bots:
            if b.strategy == strategy:
                for round_id, position, net in b.nets:
                    clusters[(round_id, position)].append(net)
        hands = sum(len(v) for v in clusters.values())
        if len(clusters) < 2:
            return float("nan"), float("nan"), hands
        totals = [sum(v) for v in clusters.values()]
        sizes = [len(v) for v in clusters.values()]
        mean = sum(totals) / hands
        k = len(clusters)
        resid = [t - mean * n for t, n in zip(totals, sizes, strict=True)]
        var = k / (k - 1) * sum(r * r for r in resid) / hands**2
        return 1 + mean, math.sqrt(var), hands

    @property
    def ok(self) -> bool:
        return (self.ledger_total == 0 and self.open_reservations == 0
                and not self.mismatched_balances and self.audit_ok)


def table_config(positions: int, cfg_path: str | None) -> SetteEMezzoLiveTable:
    base = load_config(cfg_path).first_table("sette-e-mezzo-live")
    return base.model_copy(update={"positions": positions, "card_source": "rng"})


async def run(rounds: int, players: int, positions: int, seed: int,
              database: str | None = None, config: str | None = None) -> ThroughTableReport:
    tmp = None
    if database is None:
        tmp = tempfile.TemporaryDirectory()
        database = f"sqlite:///{Path(tmp.name) / 'simulation.db'}"
    clock = ManualClock()
    store = Store.open(database, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    cfg = table_config(positions, config)
    rng = random.Random(seed)
    actor = TableActor(cfg, store, clock, Hub(), rng_shoe=RngShoe(random.Random(seed + 1)))
    eng = exact.engine(cfg.paytable.to_paytable())
    strategies = ["best", "best", "random", "disconnected"]
    bots = {f"bot{i:03d}": Bot(f"bot{i:03d}", 1 + i % positions, strategies[i % 4])
            for i in range(players)}
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"sim-credit/{b}", b, CREDIT) for b in bots])

    def on_event(table_id: str, audience: str, ev: dict[str, Any]) -> None:
        if not audience.startswith("player:") or ev["type"] not in (
                "player_settled", "side_bet_settled", "bet_refunded"):
            return
        bot = bots.get(audience.split(":", 1)[1])
        if bot is None:
            return
        if ev["type"] == "player_settled":
            main = ev["main"]
            bot.returned += main["returned"]
            bot.nets.append((ev["round_id"], ev["position"], main["returned"] / main["stake"] - 1))
        elif ev["type"] == "bet_refunded":
            bot.returned += ev["amount"]

    actor.hub.subscribe(on_event)
    await actor.start()
    await actor.dealer("simulator", "start", uuid.uuid4().hex)
    await actor.drain()
    started = time.perf_counter()
    target = rounds
    while actor.rounds_completed < target:
        s = actor.state
        if s.phase.value == "betting":
            answers = await asyncio.gather(*(
                actor.place_bets(b.name, [{"position": b.position, "amount": STAKE}],
                                 uuid.uuid4().hex) for b in bots.values()))
            for b, a in zip(bots.values(), answers, strict=True):
                if a["ok"]:
                    b.staked += STAKE
            clock.set(s.closes_at)
            await actor.drain()
            continue
        deciders = s.deciders()
        if deciders:
            first = Hand.of(s.dealer[:1])
            calls = []
            for name in deciders:
                bot = bots[name]
                if bot.strategy == "disconnected":
                    continue
                cards = s.positions[s.deciding].cards_of(name)
                if bot.strategy == "best":
                    left = eng.full
                    for c in (*cards, s.dealer[0]):
                        left = eng.take(left, eng.class_of(c))
                    hit = eng.hits(Hand.of(cards), first, left)
                else:
                    hit = rng.random() < 0.5
                calls.append(actor.decide(name, s.deciding, "carta" if hit else "stai",
                                          uuid.uuid4().hex))
            await asyncio.gather(*calls)
            await actor.drain()
            if actor.state.deciders():  # disconnected players: the timer stands for them
                clock.advance(cfg.timers.decision_s)
                await actor.drain()
            continue
        due = clock.next_due()
        if due is None:
            raise RuntimeError(f"the table cannot go on: {actor.paused or s.phase.value}")
        clock.set(due)
        await actor.drain()
    seconds = time.perf_counter() - started
    await actor.dealer("simulator", "stop", uuid.uuid4().hex)
    await actor.drain()
    await actor.stop()

    with store.reader() as tx:
        total = ledger.total_balance(tx)
        open_res = len(ledger.open_reservations(tx))
        balances = ledger.balances(tx, list(bots))
    # Every round is over (the table stopped before opening another), so each bot's money is
    # exactly its credit, less what it staked, plus what came back.
    mismatched = [b.name for b in bots.values()
                  if balances[b.name] != ledger.Balance(CREDIT - b.staked + b.returned, 0)]
    report = audit.verify(store, replayers={"sette-e-mezzo-live": replay.replayer("sette-e-mezzo-live")},
                          games={f"table:{cfg.id}": "sette-e-mezzo-live"})
    store.dispose()
    if tmp is not None:
        tmp.cleanup()
    return ThroughTableReport(
        rounds=actor.rounds_completed, seconds=seconds, bots=list(bots.values()),
        ledger_total=total, open_reservations=open_res, mismatched_balances=mismatched,
        audit_ok=report.ok, audit_problems=[p.message for p in report.problems[:5]],
        exact_return=eng.expected_net() + 1)

