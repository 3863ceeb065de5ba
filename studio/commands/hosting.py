"""What `studio serve` and `studio demo` both do to host a studio: open the database, serve
the web application, run until a signal."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aiohttp import web

    from studio.clock import Clock
    from studio.config import StudioConfig
    from studio.storage import Store
    from studio.table.hub import Hub
    from studio.table.private import PrivateTables
    from studio.table.seated import SeatedTables
    from studio.web.context import Studio


# connections the kernel holds for the studio before it accepts them: a burst of thousands of
# players (an edge's players reconnecting elsewhere at once, a lobby opening) must wait there,
# not be reset (aiohttp's 128 overflowed at 10,000 players joining; the kernel caps it at
# net.core.somaxconn)
LISTEN_BACKLOG = 4096


def open_store(url: str) -> Store:
    """The studio's database; an SQLite file's folder is made if missing."""
    from studio.storage import Store

    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return Store.open(url)


async def start_site(studio: Studio, host: str, port: int,
                     seated: SeatedTables | None = None) -> tuple[web.AppRunner, str]:
    """Serve the studio's pages and APIs (and the seated tables' when there are some);
    returns the runner (to clean up) and the base URL (with the real port when 0 was asked).
    Collector tuning follows: what lives as long as the process exists now."""
    from aiohttp import web

    from studio.runtime import tune_gc
    from studio.web.access_log import PathOnlyAccessLogger
    from studio.web.app import create_app
    from studio.web.http_errors import PARSER_LIMIT, JsonErrorServer

    app = create_app(studio)
    if seated is not None:
        from studio.web import seated_api

        seated_api.add_routes(app, seated)
    runner = web.AppRunner(app, access_log_class=PathOnlyAccessLogger,
                           max_line_size=PARSER_LIMIT, max_field_size=PARSER_LIMIT)
    await runner.setup()
    runner.server.__class__ = JsonErrorServer  # aiohttp's own refusals answer in JSON too
    site = web.TCPSite(runner, host, port, backlog=LISTEN_BACKLOG)
    await site.start()
    tune_gc()
    real_port = site._server.sockets[0].getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return runner, f"http://{shown}:{real_port}"


def live_tables(cfg: StudioConfig) -> list:
    """The configuration's live (shared) tables whose game the studio serves."""
    from studio.games import served

    return [t for t in cfg.tables if getattr(t, "pace", "live") == "live" and served(t.game)]


def private_tables(cfg: StudioConfig) -> list:
    """The configuration's private tables whose game the studio serves."""
    from studio.games import served

    return [t for t in cfg.tables if getattr(t, "pace", "live") == "private" and served(t.game)]


async def serve_private_tables(cfg: StudioConfig, store: Store, clock: Clock, hub: Hub,
                               studio: Studio) -> list[PrivateTables]:
    """Every private table of the configuration, served: hands a crash left in flight are void
    and refunded first; then each player's instance opens when the player joins."""
    from studio.table.private import PrivateTables

    out = []
    for t in private_tables(cfg):
        tables = PrivateTables(t, store, clock, hub)
        recovered = await tables.recover()
        if recovered:
            print(f"  {t.id}: {len(recovered)} hand(s) left in flight were void and refunded",
                  flush=True)
        studio.add_private(tables)
        out.append(tables)
    return out


def seated_tables(cfg: StudioConfig) -> list:
    """The configuration's seated tables (players bank for each other) the studio serves."""
    from studio.games import served

    return [t for t in cfg.tables if getattr(t, "pace", "live") == "seated" and served(t.game)]


def serve_seated_tables(cfg: StudioConfig, store: Store, clock: Clock, hub: Hub
                        ) -> SeatedTables | None:
    """Every seated table of the configuration, recovered from its log (a hand a crash left
    in flight is void), under one writer; None when there are none."""
    from studio.table.seated import SeatedTables

    configured = seated_tables(cfg)
    if not configured:
        return None
    group = SeatedTables(store, clock, hub)
    for t in configured:
        group.add(t)
    group.start()
    return group


async def until_signal() -> None:
    """Return on SIGINT or SIGTERM (Ctrl-C, or the service manager stopping the studio)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


def connect_operators(cfg: StudioConfig, studio: Studio) -> list[asyncio.Task[None]]:
    """The configuration's operators: each may launch players (its shared secret from its
    environment variable); one with a wallet of its own gets the HTTP wallet, whose queue of
    credits and rollbacks is drained every second for as long as the studio runs (the tasks
    returned). A missing or short secret refuses to start (ValueError)."""
    import os

    tasks = []
    for op in cfg.operators:
        secret = os.environ.get(op.secret_env, "").encode()
        if len(secret) < 16:
            raise ValueError(f"operator {op.id}: set ${op.secret_env} to the shared secret "
                             "(16+ bytes)")
        tasks += add_operator(studio, op, secret)
    return tasks


def add_operator(studio: Studio, op, secret: bytes) -> list[asyncio.Task[None]]:
    """One operator on a running studio (its wallet's queue drained by the task returned)."""
    from studio.wallet.client import WalletClient
    from studio.wallet.http_wallet import HttpWallet

    studio.add_operator(op, secret)
    if not op.wallet_url:
        return []
    wallet = HttpWallet(studio.store, WalletClient(op.wallet_url, secret,
                                                   now=studio.clock.now,  # signed on our clock
                                                   observe=studio.metrics.wallet_call))
    studio.wallets.add(op.id, wallet)
    return [asyncio.get_running_loop().create_task(wallet.run(1.0), name=f"wallet-{op.id}")]


async def start_janus(cfg: StudioConfig, studio: Studio):
    """With `streaming.sfu = "janus"`: Janus with a mountpoint per table that has video, each
    table's one encoding sent to it as RTP; players then watch through Janus. Returns what
    to stop (Janus, the publishers), or None."""
    import socket

    from streaming.janus import JanusProcess, JanusVideo, Mountpoint, RtpPublisher, free_port

    if cfg.streaming.sfu != "janus" or not studio.video:
        return None
    mounts = {table: Mountpoint(table, n, free_port(socket.SOCK_DGRAM))
              for n, table in enumerate(sorted(studio.video), start=1)}
    process = JanusProcess(list(mounts.values()), interfaces=cfg.streaming.janus_interfaces)
    await process.start()
    publishers = []
    for table, mount in mounts.items():
        publisher = RtpPublisher(studio.video[table].broadcaster, mount.rtp_port)
        publisher.start()
        publishers.append(publisher)
        studio.janus[table] = JanusVideo(
            process.url, mount, alive=lambda p: studio.sessions.current(p) is not None)
    return process, publishers
