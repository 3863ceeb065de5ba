"""`studio sim shoe` and `studio sim shuffler`: device simulators for technicians;
`studio sim operator`: an operator's seamless wallet (studio/wallet/operator_sim.py).

Each is a real program on a real serial line: a pseudo-terminal pair (the slave path, and the
--link symlink to it, are what a reader opens) or a given --port. It prints one line
`ready port=<path> link=<link>` and then takes one command per line on stdin, answering one line
each: `ok ...` or `error <code> <message>`. `quit` (or end of input) stops it. Commands:
devices/sim_shoe.py, devices/sim_shuffler.py and devices/sim_device.py (faults).

The operator is a real HTTP service on a real port speaking docs/wallet.md: it prints
`ready url=http://HOST:PORT` and serves until SIGINT/SIGTERM; its secret is read from the
environment variable --secret-env names, never from the command line.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import signal
import sys
import threading
from pathlib import Path

from studio.tasks import cancel


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="simulate a card shoe or shuffler on a serial line (pty), "
                                   "or an operator's wallet")
    kinds = p.add_subparsers(dest="device", required=True, metavar="DEVICE")
    _operator(kinds)
    shoe = kinds.add_parser("shoe", help="a card shoe dealing a deck or a script")
    _common(shoe)
    shoe.add_argument("--deck-set", default="D1", help="deck set id the shoe holds (default D1)")
    shoe.add_argument("--deck-kind", default="italian40",
                      choices=["italian40", "french40", "french52"])
    shoe.add_argument("--decks", type=int, default=1,
                      help="decks in each deck set (8 for a baccarat shoe; default 1)")
    shoe.add_argument("--cut-card", type=int, metavar="N",
                      help="place the cut card N cards from the end of every deck set")
    script = shoe.add_mutually_exclusive_group()
    script.add_argument("--script", help='cards to deal in this order, e.g. "Ad 7c Kd"')
    script.add_argument("--script-file", type=Path, help="a file of card codes")
    shoe.add_argument("--deal-every", type=float, metavar="S",
                      help="deal a card every S seconds by itself")
    shoe.set_defaults(func=run)
    shuffler = kinds.add_parser("shuffler", help="a shuffler announcing shuffled decks")
    _common(shuffler)
    shuffler.add_argument("--set-prefix", help="deck set ids are PREFIX-1, PREFIX-2, ...")
    shuffler.add_argument("--shuffle-seconds", type=float, default=0.0,
                          help="time between 'shuffling' and 'deck ready'")
    shuffler.set_defaults(func=run)


def _operator(kinds: argparse._SubParsersAction) -> None:
    op = kinds.add_parser("operator", help="an operator's seamless wallet over HTTP")
    op.add_argument("--host", default="127.0.0.1", help="address to listen on")
    op.add_argument("--port", type=int, default=0, help="port (default 0: a free one)")
    op.add_argument("--secret-env", default="STUDIO_WALLET_SECRET",
                    help="environment variable holding the shared secret")
    op.add_argument("--player", action="append", default=[], metavar="ID=CENTS",
                    help="an account and its balance in cents (repeatable)")
    op.add_argument("--fault", action="append", default=[], metavar="ENDPOINT:MODE[:N[:S]]",
                    help="misbehave N times (default 1), S seconds where a mode waits "
                         "(studio/wallet/operator_sim.py lists the modes)")
    op.add_argument("-v", "--verbose", action="store_true")
    op.set_defaults(func=run_operator)


def run_operator(args: argparse.Namespace) -> int:
    import os

    from studio.wallet.operator_sim import OperatorSim, parse_fault

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    secret = os.environ.get(args.secret_env, "")
    try:
        accounts = {}
        for item in args.player:
            pid, sep, cents = item.partition("=")
            if not sep or not pid or not cents.isdigit():
                raise ValueError(f"--player is ID=CENTS (integer cents), not {item!r}")
            accounts[pid] = int(cents)
        faults = [parse_fault(f) for f in args.fault]
        sim = OperatorSim(secret, accounts=accounts, faults=faults)
    except ValueError as e:  # pydantic's ValidationError is a ValueError too
        print(f"error sim.bad_argument {e}".splitlines()[0], file=sys.stderr, flush=True)
        return 2

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        url = await sim.start(args.host, args.port)
        print(f"ready url={url}", flush=True)
        try:
            await stop.wait()
        finally:
            await sim.stop()

    asyncio.run(serve())
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--link", type=Path, help="stable symlink to the pty slave, for the reader")
    where.add_argument("--port", help="use this real serial port instead of a pty")
    p.add_argument("--baud", type=int, help="baud rate for --port (default: config or 115200)")
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--table", help='table id: with port "sim" in its config, link at the '
                                   "path the studio's reader opens (per STUDIO_INSTANCE)")
    p.add_argument("--seed", type=int, help="deterministic randomness (default SystemRandom)")
    p.add_argument("--heartbeat", type=float, default=1.0, metavar="S",
                   help="heartbeat interval in seconds (0: none)")
    p.add_argument("--keep-running", action="store_true",
                   help="keep running when stdin ends (stop with Ctrl-C or SIGTERM)")
    p.add_argument("-v", "--verbose", action="store_true")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 130


def _line_end(args: argparse.Namespace):  # -> SimLink
    from devices.pty_pair import PtyPair, SerialPortEnd
    from devices.serial_link import DEFAULT_BAUD, sim_link_path

    baud = args.baud
    link = args.link
    if args.table:
        from studio.config import load_config

        table = load_config(args.config).table(args.table)
        device = getattr(getattr(table, "devices", None), args.device, None)
        if device is None:
            raise SystemExit(f"error config.no_device: table {args.table} has no {args.device}")
        baud = baud or device.baud
        if not (args.link or args.port):
            if device.port != "sim":
                raise SystemExit(f"error sim.port_in_use: {args.device} of {args.table} is "
                                 f"{device.port} (the studio's end); give --link or --port")
            link = sim_link_path(args.table, args.device)
    if args.port:
        return SerialPortEnd(args.port, baud or DEFAULT_BAUD)
    return PtyPair(link)


def _build(args: argparse.Namespace):  # -> DeviceSim
    from devices.sim_shoe import ShoeSim
    from devices.sim_shuffler import ShufflerSim
    from studio.cards import CardCodeError, parse_cards

    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    common = {"rng": rng, "heartbeat_s": args.heartbeat or None}
    end = _line_end(args)
    if args.device == "shuffler":
        return ShufflerSim(end, set_prefix=args.set_prefix, shuffle_s=args.shuffle_seconds,
                           **common)
    script = None
    try:
        if args.script:
            script = parse_cards(args.script)
        elif args.script_file:
            script = parse_cards(args.script_file.read_text(encoding="utf-8"))
    except CardCodeError as e:
        raise SystemExit(f"error {e.code} {e}") from None
    if args.decks < 1:
        raise SystemExit("error sim.bad_argument --decks is at least 1")
    return ShoeSim(end, deck_set=args.deck_set, deck_kind=args.deck_kind, script=script,
                   decks=args.decks, cut_card=args.cut_card, **common)


def _stdin_lines(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    """A daemon thread, so a blocked readline never holds the program open at exit."""
    def pump() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=pump, name="sim-stdin", daemon=True).start()


async def _main(args: argparse.Namespace) -> int:
    from devices.pty_pair import LinkInUse
    from devices.sim_device import SimError

    sim = _build(args)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await sim.start()
    except LinkInUse as e:
        print(f"error {e.code} {e}", file=sys.stderr, flush=True)
        return 2
    link = getattr(sim.link, "link", None)
    print(f"ready port={getattr(sim.link, 'slave_path', '') or sim.path} link={link or '-'}",
          flush=True)
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    _stdin_lines(loop, lines)
    auto = (asyncio.create_task(_deal_every(sim, args.deal_every))
            if getattr(args, "deal_every", None) else None)
    stopping = asyncio.create_task(stop.wait())
    try:
        while True:
            getting = asyncio.create_task(lines.get())
            done, _ = await asyncio.wait({getting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stopping in done:
                getting.cancel()
                break
            line = getting.result()
            if line is None:
                if args.keep_running:
                    await stop.wait()
                break
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.lower() in ("quit", "exit"):
                print("ok bye", flush=True)
                break
            try:
                reply = await sim.command(line)
            except SimError as e:
                reply = f"error {e.code} {e}"
            print(reply, flush=True)
    finally:
        stopping.cancel()
        await cancel(auto)
        await sim.stop()
    return 0


async def _deal_every(sim, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        if await sim.deal_next() is None:
            logging.getLogger(__name__).warning("shoe empty: load a deck with 'deck SET'")
