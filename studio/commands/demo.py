"""`studio demo`: the embedded demo. Until the web server lands it plays a table simulation:
the exact figures of Sette e Mezzo Live, then Monte Carlo rounds with best play against them.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run the embedded demo studio on 127.0.0.1")
    p.add_argument("--rounds", type=int, default=50_000, help="simulated rounds")
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.commands import rtp, simulate

    rtp.run(argparse.Namespace(game="sette-e-mezzo-live", config=args.config, table=None,
                               json=False))
    print()
    return simulate.run(argparse.Namespace(game="sette-e-mezzo-live", rounds=args.rounds,
                                           seed=1, config=args.config, table=None, json=False))
