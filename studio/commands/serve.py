"""`studio serve`: the studio on its real devices, as a studio runs it every day.

Every live table of the configuration comes up (a round left in flight by a crash is void and
refunded first, studio/table/actor.py), with the devices its `[tables.devices]` names: the
serial shoe and shuffler read by the real readers (a port "sim" is where `studio sim shoe
--table ID` links, for rehearsals), and the table camera, opened once: its pictures go to the
players' video and, a few times a second, to the card recogniser that cross-checks the shoe.
Staff accounts come from the configuration and the token key from the environment: nothing is
made up, unlike `studio demo`. A table waits for its dealer to press Start.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from studio import event_loop
from studio.commands.hosting import (
    connect_operators,
    live_tables,
    open_store,
    private_tables,
    serve_private_tables,
    serve_seated_tables,
    start_janus,
    start_site,
    until_signal,
)

if TYPE_CHECKING:
    from streaming.signalling import VideoService
    from studio.clock import Clock
    from studio.config import SetteEMezzoLiveTable, StudioConfig
    from studio.storage import Store
    from studio.table.actor import TableActor
    from studio.table.camera_watch import CameraWatch
    from studio.table.devices import AttachedDevices
    from studio.table.hub import Hub
    from studio.web.tables import TableService



class ServeError(RuntimeError):
    """The configuration or the environment cannot run a studio; nothing was started."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the studio's live tables on their configured devices")
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--host", default=None, help="address to listen on (default: the config's)")
    p.add_argument("--port", type=int, default=None,
                   help="port (default: the config's; 0 picks a free one)")
    p.add_argument("--database", default=None, help="database URL (default: the config's)")
    p.add_argument("--log-format", choices=("json", "text"), default="json",
                   help="log lines as JSON objects with table and round ids (default), or text")
    p.add_argument("--role", choices=("all", "table", "edge"), default="all",
                   help="all: one process (default); table: the tables' actors, their devices "
                        "and staff pages, reachable by edges over NATS; edge: players' HTTP and "
                        "WebSockets for the tables of a table process (any number of edges)")
    p.add_argument("--nats", default="nats://127.0.0.1:4222",
                   help="the NATS server between the table process and its edges")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio import logs

    logs.configure(args.log_format, logging.INFO)  # rounds, pauses, faults: the studio's record
    try:
        event_loop.run(_serve_edge(args) if args.role == "edge" else _serve(args))
    except ServeError as e:
        print(f"error {e.code}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


@dataclass
class TableRuntime:
    """One table and what runs beside it, stopped in the reverse order of starting."""

    actor: TableActor
    service: TableService
    attached: AttachedDevices | None = None
    watch: CameraWatch | None = None
    video: VideoService | None = None
    notes: list[str] = field(default_factory=list)

    async def stop(self) -> None:
        if self.watch is not None:
            await self.watch.stop()
        if self.video is not None:
            await self.video.close()
        if self.attached is not None:
            await self.attached.stop()
        await self.actor.stop()
        self.service.close()


async def start_table(cfg: StudioConfig, table_cfg: SetteEMezzoLiveTable, store: Store,
                      clock: Clock, hub: Hub) -> TableRuntime:
    """A table actor, its service for the web, its devices, its camera (video and cross-check)."""
    from studio.table.actor import TableActor
    from studio.table.devices import AttachedDevices
    from studio.web.tables import TableService

    actor = TableActor(table_cfg, store, clock, hub)
    await actor.start()
    rt = TableRuntime(actor, TableService(actor, clock))
    devices = table_cfg.devices
    camera = devices.camera
    if camera is not None and camera.source == "sim":
        # a simulated camera at a real table can only film what the table dealt: no cross-check
        devices = devices.model_copy(update={"camera": None})
        rt.notes.append("simulated camera: it shows the dealt cards, it does not cross-check")
    if devices.shoe is not None or devices.shuffler is not None or devices.camera is not None:
        rt.attached = AttachedDevices(actor, devices)
        rt.service.attached = rt.attached
        await rt.attached.start()
    if camera is not None:
        rt.video, rt.watch = _camera(cfg, table_cfg, rt)
    return rt


def _camera(cfg: StudioConfig, table_cfg: SetteEMezzoLiveTable,
            rt: TableRuntime) -> tuple[VideoService, CameraWatch | None]:
    """The table camera, opened once: the players' video reads it, the recogniser looks at the
    newest picture (when the table cross-checks a shoe, or the camera is the card source)."""
    from streaming.signalling import VideoService
    from streaming.source import LatestFrame, source_for_camera
    from studio.table.camera_watch import CameraWatch

    cam = table_cfg.devices.camera
    if cam.source == "sim":
        from devices.camera.sim_camera import SimCamera
        from studio.table.camera_scene import mirror_on_camera

        sim = SimCamera(table_cfg.deck_art.value, positions=table_cfg.positions,
                        copies=int(getattr(table_cfg, "decks", 1) or 1))
        mirror_on_camera(rt.actor.hub, table_cfg.id, sim, rt.actor.game.camera_places)
        return VideoService.from_config(cfg, table_cfg.id, source=source_for_camera(
            "sim", cam.width, cam.height, cam.fps, sim_renderer=sim)), None
    from devices.camera.voting import CameraCardSource

    assert rt.attached is not None  # a table with a camera always has its devices adapter
    tee = LatestFrame(source_for_camera(cam.source, cam.width, cam.height, cam.fps))
    video = VideoService.from_config(cfg, table_cfg.id, source=tee)
    video.broadcaster.start()  # the camera runs from now on, watched or not
    source = CameraCardSource.for_table(table_cfg, rt.actor.game.deck_kind)
    watch = CameraWatch(source, tee.latest, rt.attached.camera_seen, fps=cam.recognise_fps,
                        time_fn=rt.actor.clock.now)
    watch.start()
    rt.notes.append(f"camera {cam.source}: video, and the recogniser {cam.recognise_fps:g}/s")
    return video, watch


def _secret(cfg: StudioConfig) -> str:
    secret = os.environ.get(cfg.web.secret_env, "")
    if len(secret) < 32:
        raise ServeError("serve.no_secret", f"set {cfg.web.secret_env} to a random key of 32 "
                                            "characters or more (it signs players' tokens)")
    return secret


async def _serve(args: argparse.Namespace) -> None:
    from studio.clock import SchedulerClock
    from studio.config import ConfigError, load_config
    from studio.table.hub import Hub
    from studio.web.auth import Accounts
    from studio.web.context import Studio

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        raise ServeError("serve.bad_config", str(e)) from None
    if not cfg.web.accounts:
        raise ServeError("serve.no_accounts", "the configuration names no staff accounts "
                                              "([[web.accounts]]): nobody could deal")
    secret = _secret(cfg)
    live = live_tables(cfg)
    private = private_tables(cfg)
    if not live and not private:
        raise ServeError("serve.no_tables", "the configuration has no live table to serve")

    clock = SchedulerClock(asyncio.get_running_loop())
    database = args.database or cfg.studio.database_url
    store = open_store(database)
    hub = Hub()
    tables: list[TableRuntime] = []
    served_private = []
    seated = None
    try:
        for t in live:
            tables.append(await start_table(cfg, t, store, clock, hub))
        studio = Studio.build(cfg.web, clock, store, secret, Accounts(list(cfg.web.accounts)),
                              [rt.service for rt in tables])
        for t, rt in zip(live, tables, strict=True):
            if rt.video is not None:
                studio.video[t.id] = rt.video
            if rt.watch is not None:
                studio.metrics.cameras[t.id] = rt.watch
        served_private = await serve_private_tables(cfg, store, clock, hub, studio)
        seated = serve_seated_tables(cfg, store, clock, hub)
        try:
            wallet_tasks = connect_operators(cfg, studio)
        except ValueError as e:
            print(f"error operator.secret_missing {e}", file=sys.stderr, flush=True)
            return
        await studio.wallets.recover()  # what a crash left between a wallet and the tables
        bridges = await _bridges(args, tables) if args.role == "table" else []
        janus = await start_janus(cfg, studio)  # the video through Janus, if configured
        host = args.host or cfg.studio.host
        runner, base = await start_site(studio, host, cfg.studio.port if args.port is None
                                        else args.port, seated)
        print(f"Studio serving on {base} (database {database}, {event_loop.name()})",
              flush=True)
        for t, rt in zip(live, tables, strict=True):
            names = [n for n in ("shoe", "shuffler", "camera")
                     if getattr(t.devices, n) is not None]
            print(f"  {t.id}: {t.name}; devices: {', '.join(names) or 'none'}; "
                  f"dealer {base}/dealer", flush=True)
            for note in rt.notes:
                print(f"    {note}", flush=True)
        for p in served_private:
            print(f"  {p.table_id}: {p.cfg.name}; private tables, one per player: "
                  f"{base}/play?table={p.table_id}", flush=True)
        for t in (seated.tables.values() if seated else ()):
            print(f"  {t.table_id}: {t.cfg.name}; players bank for each other: "
                  f"{base}/seated?table={t.table_id}", flush=True)
        skipped = [t.id for t in cfg.tables if t not in live and t not in private
                   and getattr(t, "pace", "") != "seated"]
        if skipped:
            print(f"  not served yet (no table actor for their game): {', '.join(skipped)}",
                  flush=True)
        for op in cfg.operators:
            print(f"  operator {op.id} ({op.name}): launches at {base}/api/operator/launch"
                  + (f", wallet {op.wallet_url}" if op.wallet_url else ""), flush=True)
        print("SIGINT or SIGTERM stops the studio.", flush=True)
        await until_signal()
        print("stopping…", flush=True)
        for task in wallet_tasks:
            task.cancel()
        for bridge in bridges:
            await bridge.stop()
        await runner.cleanup()
        if janus is not None:
            process, publishers = janus
            for video in studio.janus.values():
                await video.close()
            for publisher in publishers:
                await publisher.stop()
            process.stop()
    finally:
        if seated is not None:
            await seated.stop()
        for p in served_private:
            await p.stop()
        for rt in reversed(tables):
            await rt.stop()
        clock.shutdown()
        store.dispose()


async def _bridges(args: argparse.Namespace, tables: list[TableRuntime]) -> list:
    """The table role: each live table reachable by the edges over NATS."""
    import nats

    from studio.cluster.bridge import TableBridge

    nc = await nats.connect(args.nats, name="studio-table")
    bridges = [TableBridge(rt.actor, nc) for rt in tables]
    for bridge in bridges:
        await bridge.start()
    print(f"  tables reachable over NATS at {args.nats}: "
          f"{', '.join(b.table_id for b in bridges)}", flush=True)
    return bridges


async def _serve_edge(args: argparse.Namespace) -> None:
    """An edge: players' pages, API and WebSockets for the live tables a table process runs;
    commands go to it over NATS, its bursts of events come back and are fanned out here."""
    import nats

    from studio.clock import SchedulerClock
    from studio.cluster.remote import RemoteTable
    from studio.config import ConfigError, load_config
    from studio.web.auth import Accounts
    from studio.web.context import Studio

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        raise ServeError("serve.bad_config", str(e)) from None
    secret = _secret(cfg)
    clock = SchedulerClock(asyncio.get_running_loop())
    database = args.database or cfg.studio.database_url
    store = open_store(database)
    nc = await nats.connect(args.nats, name="studio-edge")
    tables = [RemoteTable(t, store, clock, nc) for t in live_tables(cfg)]
    try:
        for t in tables:
            await t.start()
        studio = Studio.build(cfg.web, clock, store, secret, Accounts(list(cfg.web.accounts)),
                              tables)
        await share_sessions(studio, nc)
        runner, base = await start_site(studio, args.host or cfg.studio.host,
                                        cfg.studio.port if args.port is None else args.port)
        print(f"Edge serving players on {base}: {', '.join(t.table_id for t in tables)} "
              f"(NATS {args.nats}, database {database}, {event_loop.name()})", flush=True)
        await until_signal()
        await runner.cleanup()
    finally:
        for t in tables:
            await t.actor.stop()
        await nc.close()
        clock.shutdown()
        store.dispose()


async def share_sessions(studio, nc) -> None:
    """The edges' sessions as one: a session opened or taken up on an edge replaces the
    player's older session on every other edge (one session per player, wherever)."""
    from studio.cluster import wire

    async def elsewhere(msg) -> None:
        data = wire.decode(msg.data)
        studio.sessions.replaced_elsewhere(data["player"], data["id"])

    await nc.subscribe(wire.SESSIONS, cb=elsewhere)

    def opened(session) -> None:
        task = asyncio.get_running_loop().create_task(nc.publish(
            wire.SESSIONS, wire.encode({"player": session.player, "id": session.id})))
        task.add_done_callback(lambda t: t.exception())
    studio.sessions.on_open = opened
