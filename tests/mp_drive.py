"""A multiplayer table in a process of its own, its bots playing without end (for the SIGKILL
test): `python -m tests.mp_drive --database URL --variant piatto`. Prints one line when the
players are seated, then plays until killed."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import uuid

from studio import ledger
from studio.clock import ManualClock
from studio.storage import Store
from studio.table.rng_shoe import RngShoe
from studio.table.seated import SeatedTables
from tests.mp_bots import bot_move
from tests.mp_harness import mp_config

PLAYERS = ("a", "b", "c", "d")


async def main(database: str, variant: str) -> None:
    store = Store.open(database)
    group = SeatedTables(store, ManualClock())
    table = group.add(mp_config(variant), rng_shoe=RngShoe(random.Random()))
    group.start()
    if not table.state.players:
        with store.transaction() as tx:
            ledger.credit_many(tx, [ledger.Credit(f"c-{p}", p, 10**7) for p in PLAYERS])
        for p in PLAYERS:
            await table.act(p, {"type": "sit", "amount": 50_000}, f"sit-{p}")
    print("seated", flush=True)
    rng = random.Random()
    while True:
        move = bot_move(table.state, rng)
        if move is None:
            for p in table.state.players:
                await table.act(p, {"type": "rebuy", "amount": 50_000}, uuid.uuid4().hex)
            continue
        player = move.pop("player")
        await table.act(player, move, uuid.uuid4().hex)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--database", required=True)
    ap.add_argument("--variant", default="piatto")
    args = ap.parse_args()
    try:
        asyncio.run(main(args.database, args.variant))
    except KeyboardInterrupt:
        sys.exit(0)
