"""`studio table-drive`: run one table on a database and drive it with JSON lines on stdin,
one answer per line on stdout. Time is a manual clock moved by {"op": "advance"}, so a script
(or a test that kills the process with SIGKILL mid-round) is exact and repeatable.

    {"op": "credit", "player": "ann", "cents": 10000}
    {"op": "start"}                      start dealing rounds
    {"op": "bet", "player": "ann", "position": 1, "amount": 500, "kind": "main"}
    {"op": "advance", "seconds": 15}
    {"op": "card", "code": "Ac"}         a card out of the shoe
    {"op": "decide", "player": "ann", "position": 1, "choice": "carta"}
    {"op": "state"}                      phase, round id, who gets the next card
    {"op": "run", "rounds": 5}           RNG tables: play rounds with bots until N more closed
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import uuid
from datetime import UTC, datetime
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("table-drive", help="drive one table with JSON lines on stdin")
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--table", default=None, help="table id (default: the first live table)")
    p.add_argument("--database", required=True, help="database URL")
    p.add_argument("--card-source", choices=["manual", "rng"], default="manual")
    p.add_argument("--seed", type=int, default=None, help="seed the RNG shoe (simulations)")
    p.set_defaults(func=run)


async def _serve(args: argparse.Namespace) -> int:
    from studio import ledger
    from studio.clock import ManualClock
    from studio.config import load_config
    from studio.storage import Store
    from studio.table.actor import TableActor
    from studio.table.rng_shoe import RngShoe

    cfg = load_config(args.config)
    table = cfg.table(args.table) if args.table else cfg.first_table("sette-e-mezzo-live")
    table = table.model_copy(update={"card_source": args.card_source})
    clock = ManualClock()
    store = Store.open(args.database, clock=lambda: datetime.fromtimestamp(clock.now(), UTC))
    rng = RngShoe(random.Random(args.seed)) if args.card_source == "rng" else None
    actor = TableActor(table, store, clock, rng_shoe=rng)
    await actor.start()
    out = sys.stdout

    def say(obj: dict[str, Any]) -> None:
        out.write(json.dumps(obj) + "\n")
        out.flush()

    say({"ok": True, "ready": True, "recovered_round_no": actor.round_no})
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        try:
            cmd = json.loads(line)
            op = cmd.get("op")
            key = cmd.get("key") or uuid.uuid4().hex
            if op == "credit":
                with store.transaction() as tx:
                    ledger.credit(tx, f"credit/{key}", cmd["player"], cmd["cents"])
                answer = {"ok": True}
            elif op == "start":
                answer = await actor.dealer("technician", "start", key)
            elif op == "bet":
                answer = await actor.place_bets(cmd["player"], [{
                    "position": cmd["position"], "amount": cmd["amount"],
                    "kind": cmd.get("kind", "main")}], key)
            elif op == "advance":
                clock.advance(float(cmd["seconds"]))
                answer = {"ok": True}
            elif op == "card":
                actor.card_seen(cmd["code"], "shoe")
                answer = {"ok": True}
            elif op == "decide":
                answer = await actor.decide(cmd["player"], cmd["position"], cmd["choice"], key)
            elif op == "run":
                answer = await _run_rounds(actor, clock, int(cmd["rounds"]))
            elif op == "state":
                answer = {"ok": True}
            else:
                answer = {"ok": False, "error": {"code": "drive.unknown_op", "message": op}}
            await actor.drain()
            s = actor.state
            answer["state"] = {"phase": s.phase.value if s else None,
                               "round_id": s.round_id if s else None,
                               "expecting": s.expecting().describe() if s and s.expecting()
                               else None, "deciders": s.deciders() if s else [],
                               "paused": actor.paused}
        except (ValueError, KeyError, TypeError) as e:
            answer = {"ok": False, "error": {"code": "drive.bad_command", "message": str(e)}}
        say(answer)
    await actor.stop()
    return 0


async def _run_rounds(actor, clock, rounds: int) -> dict[str, Any]:
    """Bots: 12 players on 3 positions, deciding at random; run until `rounds` more close."""
    target = actor.rounds_completed + rounds
    rng = random.Random(target)
    if not actor.running:
        await actor.dealer("technician", "start", uuid.uuid4().hex)
        await actor.drain()
    while actor.rounds_completed < target:
        if actor.paused:
            return {"ok": False, "error": {"code": "drive.table_paused", "message": actor.paused}}
        s = actor.state
        if s is not None and s.phase.value == "betting":
            for i in range(12):
                await actor.place_bets(f"bot{i}", [{"position": 1 + i % 3,
                                                    "amount": 100 * (1 + i % 5)}],
                                       uuid.uuid4().hex)
        elif s is not None and s.deciders():
            for p in s.deciders():
                await actor.decide(p, s.deciding, rng.choice(["carta", "stai"]),
                                   uuid.uuid4().hex)
        due = clock.next_due()
        if due is None and not (s is not None and s.deciders()):
            return {"ok": False, "error": {"code": "drive.stuck",
                                           "message": "nothing is due: the table cannot go on"}}
        if due is not None:
            clock.set(due)
        await actor.drain()
    return {"ok": True, "rounds_completed": actor.rounds_completed}


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_serve(args))
