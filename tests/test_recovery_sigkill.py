"""Kill the studio process with SIGKILL mid-round, in every phase: on restart the round is
void, each bet not yet settled is refunded exactly once, and the books and the log verify.

A real process (`studio table-drive`) on a real SQLite file; nothing is mocked.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio import ledger
from studio.storage import Store, audit, event_log
from studio.table import replay

START = 100_000


class Proc:
    def __init__(self, db: str, *extra: str) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "studio.cli", "table-drive", "--database", db, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.hello = self.read()

    def read(self) -> dict:
        line = self.p.stdout.readline()
        assert line, "the table process died"
        return json.loads(line)

    def do(self, **cmd) -> dict:
        self.p.stdin.write(json.dumps(cmd) + "\n")
        self.p.stdin.flush()
        return self.read()

    def kill(self) -> None:
        os.kill(self.p.pid, signal.SIGKILL)
        self.p.wait()

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(timeout=30)


def books(db: str) -> tuple[dict[str, ledger.Balance], int, int]:
    store = Store.open(db)
    try:
        with store.reader() as tx:
            bal = ledger.balances(tx, ["ann", "bob"])
            return bal, len(ledger.open_reservations(tx)), ledger.total_balance(tx)
    finally:
        store.dispose()


def verify(db: str) -> audit.AuditReport:
    store = Store.open(db)
    try:
        return audit.verify(store, replayers={"sette-e-mezzo-live": replay.replayer("sette-e-mezzo-live")},
                            games={"table:sem-live-1": "sette-e-mezzo-live"})
    finally:
        store.dispose()


# Each scenario drives the table to a phase. No bet is settled yet in any of them (no side
# bet, no automatic win against a dealer's 3), so every cent staked must come back.
PHASES = {
    "betting": [],
    "burn": ["close"],
    "deal": ["close", "Jc", "4c"],
    "decisions": ["close", "Jc", "4c", "5b", "3s"],            # ann 4 / bob 5 vs dealer 3
    "hit": ["close", "Jc", "4c", "5b", "3s", "carta:ann:1", "stai:bob:2"],
    "dealer": ["close", "Jc", "4c", "5b", "3s", "stai:ann:1", "stai:bob:2"],
}


@pytest.mark.parametrize("phase", list(PHASES))
def test_sigkill_in_every_phase_voids_and_refunds_exactly_once(tmp_path: Path, phase: str):
    db = f"sqlite:///{tmp_path / 'studio.db'}"
    proc = Proc(db)
    for player in ("ann", "bob"):
        assert proc.do(op="credit", player=player, cents=START)["ok"]
    assert proc.do(op="start")["ok"]
    assert proc.do(op="bet", player="ann", position=1, amount=1000)["ok"]
    assert proc.do(op="bet", player="ann", position=1, amount=200, kind="mano_di_poker")["ok"]
    assert proc.do(op="bet", player="bob", position=2, amount=3000)["ok"]
    state = None
    for step in PHASES[phase]:
        if step == "close":
            state = proc.do(op="advance", seconds=15)["state"]
        elif ":" in step:
            choice, player, position = step.split(":")
            state = proc.do(op="decide", player=player, position=int(position),
                            choice=choice)["state"]
        else:
            state = proc.do(op="card", code=step)["state"]
    if state is not None:
        assert state["phase"] in {"betting": "betting", "burn": "burn", "deal": "deal",
                                  "decisions": "decisions", "hit": "hit",
                                  "dealer": "dealer"}[phase], state
    proc.kill()

    _, open_before, total = books(db)
    assert open_before > 0 and total == 0
    # restart twice: the second recovery must find nothing left to refund
    for _ in range(2):
        again = Proc(db)
        assert again.hello["recovered_round_no"] == 1
        again.close()
    after, open_after, total = books(db)
    assert open_after == 0 and total == 0
    assert after["ann"].reserved == after["bob"].reserved == 0
    # nothing was settled before the kill in these phases: everyone has exactly the start back
    assert after["ann"].available == START and after["bob"].available == START
    report = verify(db)
    assert report.ok, report.problems


def test_sigkill_at_random_moments_of_a_busy_table(tmp_path: Path):
    """A bot-driven RNG table killed at random points: whatever was settled stands, every
    open bet is refunded once, and the books and every round's replay verify."""
    db = f"sqlite:///{tmp_path / 'studio.db'}"
    rng = random.Random(20261122)
    proc = Proc(db, "--card-source", "rng", "--seed", "3")
    for i in range(12):
        proc.do(op="credit", player=f"bot{i}", cents=1_000_000)
    proc.do(op="start")
    proc.close()
    for attempt in range(4):
        proc = Proc(db, "--card-source", "rng", "--seed", str(attempt))
        proc.p.stdin.write(json.dumps({"op": "run", "rounds": 50}) + "\n")
        proc.p.stdin.flush()
        # let it run a random while, measured in events it writes, then kill it
        target = rng.randint(20, 400)
        store = Store.open(db)
        deadline = time.monotonic() + 120  # a safety net only: the loop ends on the count
        try:
            while time.monotonic() < deadline:
                with store.reader() as tx:
                    if event_log.count(tx) >= target * (attempt + 1):
                        break
                if proc.p.poll() is not None:
                    break
        finally:
            store.dispose()
        proc.kill()
    final = Proc(db, "--card-source", "rng")
    final.close()
    _, open_after, total = books(db)
    assert open_after == 0 and total == 0
    report = verify(db)
    assert report.ok, report.problems
    assert report.rounds_replayed >= 2
