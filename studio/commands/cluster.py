"""`studio cluster`: the production shape on this machine, for rehearsal. NATS (the machine's
on 127.0.0.1:4222 when it answers, else one started here), the database (PostgreSQL on
127.0.0.1 by default), the simulated shoe and shuffler of every live table on ptys, the table
process (`studio serve --role table`) and N edges (`studio serve --role edge`), each a
process of its own; a dealer and a technician made up for the run. Prints where everything
is; Ctrl-C stops it all.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_DB = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cluster", help="rehearse the production shape: NATS, the table "
                                       "process and N edges on this machine")
    p.add_argument("--edges", type=int, default=2, help="edge processes (default 2)")
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--database", default=DEFAULT_DB, help=f"database URL (default {DEFAULT_DB})")
    p.add_argument("--nats", default="nats://127.0.0.1:4222")
    p.set_defaults(func=run)


def _answers(url: str) -> bool:
    host, port = re.match(r"nats://([^:/]+):(\d+)", url).groups()
    with contextlib.suppress(OSError):
        socket.create_connection((host, int(port)), 0.5).close()
        return True
    return False


def _studio(*args: str, env: dict[str, str], **kw) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "studio.cli", *args], env=env, text=True,
                            **kw)


def _line(proc: subprocess.Popen[str], text: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"a process ended before saying {text!r}")
        if text in line:
            return line
    raise RuntimeError(f"no {text!r} in time")


def run(args: argparse.Namespace) -> int:
    from studio.config import load_config

    work = Path(tempfile.mkdtemp(prefix="studio-cluster-"))
    env = {**os.environ, "TMPDIR": str(work),
           "STUDIO_SECRET": os.environ.get("STUDIO_SECRET") or secrets.token_urlsafe(32)}
    procs: list[subprocess.Popen] = []
    try:
        if not _answers(args.nats):
            binary = shutil.which("nats-server") or "/usr/sbin/nats-server"
            host, port = re.match(r"nats://([^:/]+):(\d+)", args.nats).groups()
            procs.append(subprocess.Popen([binary, "-a", host, "-p", port]))
            time.sleep(0.5)  # another program's start-up
        shipped = Path(args.config) if args.config else None
        cfg = load_config(shipped)
        text = (shipped or Path(__file__).parents[2] / "config" / "studio.toml").read_text()
        logins = []
        for user, role in (("dealer", "dealer"), ("tecnico", "technician")):
            password = secrets.token_urlsafe(8)
            text += subprocess.run([sys.executable, "-m", "studio.cli", "staff-account", user,
                                    "--role", role], input=f"{password}\n", capture_output=True,
                                   text=True, check=True, env=env).stdout
            logins.append((role, user, password))
        config = work / "studio.toml"
        config.write_text(text)
        from studio.commands.hosting import live_tables

        for t in live_tables(cfg):
            for device in ("shuffler", "shoe"):
                sim = _studio("sim", device, "--table", t.id, "--config", str(config),
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                procs.append(sim)
                _line(sim, "ready port=")
        common = ["--config", str(config), "--database", args.database, "--nats", args.nats,
                  "--port", "0", "--log-format", "text"]
        table = _studio("serve", "--role", "table", *common, env=env, stdout=subprocess.PIPE)
        procs.append(table)
        staff = re.search(r"(http://\S+) ", _line(table, "Studio serving on")).group(1)
        print(f"Table process: {staff}/dealer, {staff}/technician", flush=True)
        for role, user, password in logins:
            print(f"  {role} login: {user} / {password}", flush=True)
        for n in range(args.edges):
            edge = _studio("serve", "--role", "edge", *common, env=env, stdout=subprocess.PIPE)
            procs.append(edge)
            base = re.search(r"(http://\S+):", _line(edge, "Edge serving players on"))
            print(f"Edge {n + 1}: {base.group(1) if base else '?'}", flush=True)
        token = subprocess.run([sys.executable, "-m", "studio.cli", "player-token",
                                "demo-player", "--config", str(config)], env=env,
                               capture_output=True, text=True, check=True).stdout.strip()
        print(f"A player's token (any edge): ?token={token}", flush=True)
        print("Ctrl-C stops the cluster.", flush=True)
        # blocked only now: the children were started with the signals they stop on
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        for p in reversed(procs):
            with contextlib.suppress(OSError):
                p.terminate()
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(10)
        shutil.rmtree(work, ignore_errors=True)
    return 0
