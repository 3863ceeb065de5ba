"""Kill -9 a multiplayer table's process while its bots play: on restart the hand in flight is
void, the piatto and every credit are as after the last completed hand, every bank replays in
the audit, the accounts sum to zero, and the table plays on. A real process on a real SQLite
file; nothing is mocked."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from studio import ledger
from studio.clock import ManualClock
from studio.games.sette_e_mezzo_multiplayer.table import at_checkpoint, holdings
from studio.storage import Store, audit, event_log
from studio.table import replay
from studio.table.seated import SeatedTables, account_of
from tests.mp_harness import mp_config

ROOT = Path(__file__).resolve().parents[1]


def books(store: Store, table_id: str, names: list[str]) -> dict[str, int]:
    with store.reader() as tx:
        return {n: ledger.account_balance(tx, account_of(table_id, n)) for n in names}


async def recovered(db: str, variant: str) -> None:
    """The table opened again on the killed process's database, checked."""
    store = Store.open(db)
    group = SeatedTables(store, ManualClock())
    cfg = mp_config(variant)
    table = group.add(cfg)  # recovery: the hand in flight, if any, is void
    assert at_checkpoint(table.state)
    held = holdings(table.state)
    names = sorted({*held, *(f"seat:{p}" for p in "abcd"), "pool", "rake"})
    assert books(store, cfg.id, names) == {n: held.get(n, 0) for n in names}
    with store.reader() as tx:
        assert ledger.total_balance(tx) == 0
    report = audit.verify(store, replayers=replay.replayers(),
                          games={f"table:{cfg.id}": cfg.game})
    assert report.problems == [] and report.rounds_replayed > 0
    await group.stop()
    store.dispose()


@pytest.mark.parametrize("variant", ["piatto", "classica"])
def test_sigkill_mid_bank_voids_the_hand_in_flight(tmp_path: Path, variant: str) -> None:
    """Three kills: the first and last while the process waits mid-hand (it says so), the
    middle one while it plays on flat out (wherever it is then: in a transaction, between
    hands), each after a move count drawn from a seeded rng."""
    db = f"sqlite:///{tmp_path / 'studio.db'}"
    rng = random.Random(variant)
    for kill in range(3):
        moves = rng.randint(1, 60)
        pause = [] if kill == 1 else ["--pause-mid-hand", str(moves)]
        proc = subprocess.Popen([sys.executable, "-m", "tests.mp_drive", "--database", db,
                                 "--variant", variant, *pause], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "seated"
        if pause:
            lines = iter(proc.stdout.readline, "")
            assert "paused mid-hand" in (line.strip() for line in lines)
        else:
            for _ in range(moves):
                assert proc.stdout.readline().strip() == "move"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        asyncio.run(recovered(db, variant))
    store = Store.open(db)
    with store.reader() as tx:
        voids = [e for e in event_log.iter_events(tx) if e.type == "hand_voided"]
    store.dispose()
    assert len(voids) >= 2  # the two kills mid-hand at least
