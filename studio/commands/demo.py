"""`studio demo`: the whole studio on 127.0.0.1.

Every live table of the configuration (Sette e Mezzo Live, Punto e Banco Live) with its cards
from a simulated shoe and shuffler on pseudo-terminals (read by the real serial readers); the
Sette e Mezzo shoe is cross-checked against the simulated table camera by the real recogniser
(each card the shoe deals is laid on the camera's felt); each table camera's video when the
streaming package can serve it, every private table, SQLite under var/, a demo player
with credit, the dealer console and the technicians' page. It prints the three addresses, the
demo player's link (with a token signed for this run) and the staff logins, then runs until
Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from studio.commands.hosting import (
    live_tables,
    open_store,
    serve_private_tables,
    serve_seated_tables,
    start_site,
    until_signal,
)

DEMO_PLAYER = "demo-player"
# A second player, to rehearse what takes two at a shared table (a seat and a bet behind it).
SECOND_PLAYER = "demo-player-2"
DEMO_CREDIT = 100_000  # 1,000.00 EUR


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run the whole studio on 127.0.0.1 (player, dealer, "
                                    "technicians)")
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--port", type=int, default=None,
                   help="port on 127.0.0.1 (default: the config's; 0 picks a free one)")
    p.add_argument("--database", default=None, help="database URL (default: the config's)")
    p.add_argument("--no-video", action="store_true", help="do not serve the table video")
    p.add_argument("--no-cross-check", action="store_true",
                   help="the shoe alone says which card came out (the camera only films)")
    p.add_argument("--deal-every", type=float, default=1.5,
                   help="seconds between the simulated dealer's cards (0: deal by hand on "
                        "the technicians' page)")
    p.add_argument("--no-casino", action="store_true",
                   help="no simulated casino operator (its site launches its players into the "
                        "studio; their money lives in its wallet)")
    p.add_argument("--log-format", choices=("text", "json"), default="text",
                   help="text lines for a terminal (default), or JSON objects with table and "
                        "round ids, as `studio serve` writes them")
    p.add_argument("--shuffle-seconds", type=float, default=4.0,
                   help="how long the simulated shuffler takes to prepare a new shoe")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio import logs

    logs.configure(args.log_format, logging.INFO if args.log_format == "json"
                   else logging.WARNING)
    try:
        asyncio.run(_serve(args))
    except KeyboardInterrupt:
        pass
    return 0


def _accounts(cfg) -> tuple[object, list[tuple[str, str, str]]]:
    """The configured staff accounts, or a dealer and a technician made up for this run."""
    from studio.config import WebAccount
    from studio.web.auth import Accounts, hash_password

    if cfg.web.accounts:
        return Accounts(list(cfg.web.accounts)), []
    made = [("dealer", "dealer", secrets.token_urlsafe(6)),
            ("technician", "tecnico", secrets.token_urlsafe(6))]
    return Accounts([WebAccount(username=u, role=r, password_hash=hash_password(p))
                     for r, u, p in made]), made


def _camera(table_cfg):
    """The simulated table camera the demo films and cross-checks the shoe against."""
    from devices.camera.sim_camera import SimCamera

    return SimCamera(table_cfg.deck_art.value, positions=table_cfg.positions,
                     copies=int(getattr(table_cfg, "decks", 1) or 1))




@dataclass
class _DemoTable:
    """One live table of the demo and what runs beside it."""

    cfg: Any
    actor: Any
    service: Any
    devices: Any
    links: Any


async def _start_table(args: argparse.Namespace, cfg, table_cfg, store, clock, hub,
                       studio) -> _DemoTable:
    """A live table on its simulated shoe and shuffler; Sette e Mezzo's shoe cross-checked by
    the simulated camera (the recogniser knows its art); every table's camera filmed."""
    from devices.serial_link import sim_link_path
    from studio.table.actor import TableActor
    from studio.table.camera_scene import mirror_on_camera
    from studio.web.simulators import SimulatedDevices
    from studio.web.tables import TableService

    table_cfg = table_cfg.model_copy(update={"card_source": "shoe"})
    actor = TableActor(table_cfg, store, clock, hub)
    await actor.start()
    service = TableService(actor, clock)
    studio.add_table(service)
    shoe_cfg = table_cfg.devices.shoe
    timeout = getattr(shoe_cfg, "heartbeat_timeout_s", 3.0) if shoe_cfg else 3.0
    camera = _camera(table_cfg)
    cross_check = not args.no_cross_check and actor.game.cross_checks
    # the demo owns both ends of its simulators: links of its own, whatever else runs here
    links = sim_link_path(table_cfg.id, "shoe", f"demo-{os.getpid()}").parent
    devices = SimulatedDevices(service, links, heartbeat_s=1.0, heartbeat_timeout_s=timeout,
                               auto_deal_s=args.deal_every or None, auto_shuffle=True,
                               camera=camera if cross_check else None,
                               shuffle_s=args.shuffle_seconds)
    await devices.start()
    studio.simulators[table_cfg.id] = devices
    if devices.watch is not None:
        studio.metrics.cameras[table_cfg.id] = devices.watch
    await devices.new_deck()
    if not cross_check:  # nobody lays the shoe's cards on the felt: mirror the table's
        mirror_on_camera(actor.hub, table_cfg.id, camera, actor.game.camera_places)
    if not args.no_video:
        try:
            from streaming.signalling import VideoService
            from streaming.source import source_for_camera

            # The video: the simulated table camera, showing the cards as they are dealt.
            studio.video[table_cfg.id] = VideoService.from_config(
                cfg, table_cfg.id, source=source_for_camera("sim", 1280, 720, 25,
                                                            sim_renderer=camera))
        except Exception as e:  # noqa: BLE001 - the table plays on without video
            print(f"(no table video for {table_cfg.id}: {e})")
    return _DemoTable(table_cfg, actor, service, devices, links)


CASINO = "demo-casino"
CASINO_PLAYERS = {"ann": 100_000, "bob": 100_000}  # cents, in the casino's wallet


async def _casino(studio, base: str):
    """A simulated casino operator beside the studio: its wallet holds its players' money,
    its site (/casino) launches them into the studio with signed requests."""
    from studio.commands.hosting import add_operator
    from studio.config import OperatorConfig
    from studio.wallet.operator_sim import OperatorSim

    secret = secrets.token_bytes(32)
    sim = OperatorSim(secret, accounts=dict(CASINO_PLAYERS))
    sim.launches_into(base, CASINO)
    url = await sim.start("127.0.0.1", 0)
    op = OperatorConfig(id=CASINO, name="Demo Casino", secret_env="(generated)",
                        wallet_url=url)
    return sim, add_operator(studio, op, secret)


async def _serve(args: argparse.Namespace) -> None:
    from studio import ledger
    from studio.clock import SchedulerClock
    from studio.config import load_config
    from studio.table.hub import Hub
    from studio.web.context import Studio

    cfg = load_config(args.config)
    loop = asyncio.get_running_loop()
    clock = SchedulerClock(loop)  # timers are delivered on this loop
    database = args.database or cfg.studio.database_url
    store = open_store(database)

    with store.transaction() as tx:  # the demo players' credit, once per database
        for player in (DEMO_PLAYER, SECOND_PLAYER):
            ledger.credit(tx, f"demo-credit/{player}", player, DEMO_CREDIT)
            if ledger.balance(tx, player).available < 1000:
                ledger.credit(tx, f"demo-topup/{uuid.uuid4().hex}", player, DEMO_CREDIT)

    hub = Hub()
    secret = os.environ.get(cfg.web.secret_env) or secrets.token_urlsafe(32)
    accounts, made = _accounts(cfg)
    studio = Studio.build(cfg.web, clock, store, secret, accounts, [])
    tables = [await _start_table(args, cfg, t, store, clock, hub, studio)
              for t in live_tables(cfg)]
    private = await serve_private_tables(cfg, store, clock, hub, studio)
    seated = serve_seated_tables(cfg, store, clock, hub)
    runner, base = await start_site(studio, "127.0.0.1",
                                    cfg.studio.port if args.port is None else args.port,
                                    seated)
    for t in tables:
        await t.actor.dealer("demo", "start", uuid.uuid4().hex)
    casino, wallet_tasks = (None, []) if args.no_casino else await _casino(studio, base)

    token = studio.signer.player_token(DEMO_PLAYER, cfg.web.player_token_ttl_s)
    print(f"Live studio, database {database}", flush=True)
    for t in tables:
        print(f"  {t.cfg.name}: {base}/play?table={t.cfg.id}&token={token}", flush=True)
    if tables:
        print(f"  Player:      {base}/play?token={token}", flush=True)
        second = studio.signer.player_token(SECOND_PLAYER, cfg.web.player_token_ttl_s)
        print(f"  Second player (a seat beside, a bet behind): {base}/play?token={second}",
              flush=True)
    for p in private:
        print(f"  {p.cfg.name}: {base}/play?table={p.table_id}&token={token}", flush=True)
    for t in (seated.tables.values() if seated else ()):
        second = studio.signer.player_token(SECOND_PLAYER, cfg.web.player_token_ttl_s)
        print(f"  {t.cfg.name}: {base}/seated?table={t.table_id}&token={token} "
              f"(a second player: {base}/seated?table={t.table_id}&token={second})",
              flush=True)
    if casino is not None:
        print(f"  Casino (a simulated operator: its site launches its players, their money "
              f"in its wallet): {casino.url}/casino", flush=True)
    print(f"  Lobby:       {base}/lobby (after a launch, or with ?token=…)", flush=True)
    print(f"  Dealer:      {base}/dealer", flush=True)
    print(f"  Technicians: {base}/technician", flush=True)
    for role, user, password in made:
        print(f"  {role} login: {user} / {password}", flush=True)
    for t in tables:
        d = t.devices
        print(f"  {t.cfg.id} simulated shoe and shuffler: {d.shoe.path}, {d.shuffler.path}",
              flush=True)
        if d.watch is not None:
            print(f"  {t.cfg.id} camera cross-check on: the recogniser looks {d.watch.fps:g} "
                  "times a second (--no-cross-check: the shoe alone)", flush=True)
    print("Ctrl-C stops the studio.", flush=True)

    await until_signal()
    print("stopping…", flush=True)
    for task in wallet_tasks:
        task.cancel()
    await runner.cleanup()
    if casino is not None:
        await casino.stop()
    for t in tables:
        await t.devices.stop()
        with contextlib.suppress(OSError):
            t.links.rmdir()  # the links went with the simulators
    for p in private:
        await p.stop()
    if seated is not None:
        await seated.stop()
    for t in tables:
        await t.actor.stop()
        t.service.close()
    clock.shutdown()
    store.dispose()
