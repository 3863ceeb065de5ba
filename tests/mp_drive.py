"""A multiplayer table in a process of its own, its bots playing without end (for the SIGKILL
test): `python -m tests.mp_drive --database URL --variant piatto`. Prints one line when the
players are seated, then a line a move while it plays until killed. With `--pause-mid-hand N`
it stops, after its Nth move, at the first move that leaves a hand in play, says so, and waits
for the kill there: the test knows the kill lands mid-hand instead of hoping a sleep did."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import uuid

from studio import ledger
from studio.clock import ManualClock
from studio.games.sette_e_mezzo_multiplayer.table import at_checkpoint
from studio.storage import Store
from studio.table.rng_shoe import RngShoe
from studio.table.seated import SeatedTables
from tests.mp_bots import bot_move
from tests.mp_harness import mp_config

PLAYERS = ("a", "b", "c", "d")


async def main(database: str, variant: str, pause_mid_hand: int | None) -> None:
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
    moves = 0
    while True:
        move = bot_move(table.state, rng)
        if move is None:
            for p in table.state.players:
                await table.act(p, {"type": "rebuy", "amount": 50_000}, uuid.uuid4().hex)
            continue
        player = move.pop("player")
        await table.act(player, move, uuid.uuid4().hex)
        moves += 1
        if pause_mid_hand is not None and moves >= pause_mid_hand \
                and not at_checkpoint(table.state):
            print("paused mid-hand", flush=True)
            await asyncio.Event().wait()  # until killed
        print("move", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--database", required=True)
    ap.add_argument("--variant", default="piatto")
    ap.add_argument("--pause-mid-hand", type=int, default=None)
    args = ap.parse_args()
    try:
        asyncio.run(main(args.database, args.variant, args.pause_mid_hand))
    except KeyboardInterrupt:
        sys.exit(0)
