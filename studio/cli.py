"""The `studio` command. Each subcommand lives in its own module, which exposes
`register(subparsers)`; this file only lists them, so areas add commands without touching
each other's code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that register subcommands, in the order `studio --help` shows them.
COMMAND_MODULES: tuple[str, ...] = (
    "studio.commands.audit",
    "studio.commands.demo",
    "studio.commands.serve",
    "studio.commands.credentials",
    "studio.commands.recognize",
    "studio.commands.rtp",
    "studio.commands.simulate",
    "studio.commands.table_drive",
    "studio.commands.sim",
    "studio.commands.wallet",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studio", description="Live-dealer casino studio: tables, devices, streaming."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    result = args.func(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
