"""Bets and settlement through an operator's seamless wallet, against the studio's embedded
ledger in the same run:

    .venv/bin/python -m tests.bench.bench_wallet [--players 10000]

The operator is `studio sim operator`, a separate process on 127.0.0.1 speaking
docs/wallet.md (signed requests and answers). One Sette e Mezzo Live betting window:

1. 10,000 players x 3 bets (one command each, all at once): with the wallet, each command's
   stake is debited from the operator (an HTTP call), mirrored into the studio's ledger and
   reserved by the table (`studio/wallet/bridge.py`); the baseline is the same window with the
   players' money in the studio's ledger (no wallet).
2. Settlement of the 30,000 bets: from the dealer's last card to every balance settled in the
   studio (the commit), and with the wallet, on to every player paid back at the operator (a
   credit each, the queue empty). Baseline: the embedded ledger's settlement.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from studio import ledger
from studio.clock import ManualClock
from studio.runtime import tune_gc
from studio.storage import Store
from studio.table.actor import TableActor
from studio.table.hub import Hub
from studio.wallet import records
from studio.wallet.bridge import WalletBridge
from studio.wallet.client import WalletClient
from studio.wallet.http_wallet import HttpWallet
from tests.table_harness import live_config
from tests.wallet_harness import KEY, running_operator

OPERATOR = "bench-casino"
STAKE = 1_000  # each of the three bets


async def table(workdir: Path, name: str) -> tuple[TableActor, ManualClock, Store]:
    clock = ManualClock()
    store = Store.open(f"sqlite:///{workdir / name}.db",
                       clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    cfg = live_config(card_source="manual", burn_card=False, positions=3,
                      timers={"betting_window_s": 3600.0, "decision_s": 3600.0})
    actor = TableActor(cfg, store, clock, Hub())
    await actor.start()
    await actor.dealer("bench", "start", "start")
    await actor.drain()
    return actor, clock, store


def bets() -> list[dict]:
    return [{"position": n, "kind": "main", "amount": STAKE} for n in (1, 2, 3)]


async def window(actor: TableActor, players: list[str], bridge: WalletBridge | None) -> float:
    """Every player's command at once; bets per second."""
    async def one(player: str) -> None:
        key = uuid.uuid4().hex

        def run():
            return actor.place_bets(player, bets(), key)
        answer = await (bridge.funded(player, 3 * STAKE, key, actor.table_id,
                                      actor.state.round_id, actor.game.name, run)
                        if bridge is not None else run())
        assert answer["ok"], answer
    started = time.perf_counter()
    await asyncio.gather(*(one(p) for p in players))
    return 3 * len(players) / (time.perf_counter() - started)


async def settle(actor: TableActor, clock: ManualClock, bridge: WalletBridge | None
                 ) -> tuple[float, float | None]:
    """Positions 5, 6 and 7 stand (their decision timers run out), the dealer's 4 then 7
    busts: every bet wins. (dealer's last card -> the studio's commit, -> every player paid
    back at the operator)."""
    clock.advance(3600.0)
    await actor.drain()
    for code in ("5c", "6d", "7s", "4b"):  # positions 1-3, then the dealer's card
        actor.card_seen(code, "manual")
        await actor.drain()
    while actor.state.awaiting_decision:  # nobody answers: everyone stands
        clock.advance(actor.cfg.timers.decision_s)
        await actor.drain()
    committed: list[float] = []
    actor.hub.subscribe(lambda t, a, e: committed.append(time.perf_counter())
                        if e["type"] in actor.game.settlement_events and not committed
                        else None)
    started = time.perf_counter()
    actor.card_seen("7d", "manual")  # the dealer's 11: bust
    await actor.drain()
    assert actor.state.finished and committed
    to_commit = committed[0] - started
    if bridge is None:
        return to_commit, None
    await bridge.settled()
    for wallet in bridge.wallets.values():
        while await wallet.drain():
            pass
    with actor.store.reader() as tx:
        assert not records.pending(tx, ("credit",))
    return to_commit, time.perf_counter() - started


async def main_async(args: argparse.Namespace) -> None:
    n = args.players
    with tempfile.TemporaryDirectory() as d, running_operator() as op:
        workdir = Path(d)
        for first in range(0, n, 400):  # the operator's accounts (a body is 16 KiB at most)
            op.admin("players", {"players": {f"p{i}": 10**8
                                             for i in range(first, min(n, first + 400))}})
        # baseline: the players' money in the studio's ledger
        actor, clock, store = await table(workdir, "embedded")
        with store.transaction() as tx:
            ledger.credit_many(tx, [ledger.Credit(f"c{i}", f"p{i}", 10**8) for i in range(n)])
        base_rate = await window(actor, [f"p{i}" for i in range(n)], None)
        base_settle, _ = await settle(actor, clock, None)
        await actor.stop()
        store.dispose()
        # the operator's wallet
        actor, clock, store = await table(workdir, "wallet")
        bridge = WalletBridge(store)
        client = WalletClient(op.url, KEY, timeout=10.0, now=time.time)
        bridge.add(OPERATOR, HttpWallet(store, client))
        actor.hub.subscribe(bridge._on_event)
        players = [f"{OPERATOR}.p{i}" for i in range(n)]
        rate = await window(actor, players, bridge)
        to_commit, to_paid = await settle(actor, clock, bridge)
        paid = op.balances()
        await client.close()
        await actor.stop()
        store.dispose()
    print(f"1. {n:,} players x 3 bets in one window, all at once: through the operator's "
          f"wallet (an HTTP debit per command, mirrored and reserved) {rate:,.0f} bets/s; "
          f"embedded ledger {base_rate:,.0f} bets/s ({base_rate / rate:.1f}x faster)")
    print(f"2. settlement of {3 * n:,} bets: studio commit {to_commit:.3f} s with the wallet, "
          f"{base_settle:.3f} s embedded; every player paid back at the operator (a credit "
          f"each, queue empty) {to_paid:.3f} s; wallet balances after: "
          f"{min(paid.values()):,}..{max(paid.values()):,} cents")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=10_000)
    args = ap.parse_args()
    tune_gc()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
