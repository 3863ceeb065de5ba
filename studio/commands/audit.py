"""`studio audit verify [--database URL]`: the hash chain, the books and (when a game has
registered its replayer) the replay of every round. Exit code 0 when all is well, 1 otherwise.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from studio.config import ConfigError, load_config
from studio.storage.audit import AuditReport, Replayer, verify
from studio.storage.engine import StorageError, Store, make_engine
from studio.storage.models import STORAGE_TABLES


def stream_of(table_id: str) -> str:
    """The event-log stream of a table (as the table actor names it)."""
    return f"table:{table_id}"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("audit", help="verify the event log and the ledger")
    actions = p.add_subparsers(dest="audit_command", required=True, metavar="ACTION")
    v = actions.add_parser("verify", help="check the hash chain, the books and round replays")
    v.add_argument("--database", help="database URL (default: studio.database_url of --config)")
    v.add_argument("--config", help="studio TOML (default config/studio.toml)")
    v.set_defaults(func=run_verify)


def load_replayers(paths: dict[str, str] | None = None) -> dict[str, Replayer]:
    """Every served game's replayer (studio.table.replay), or those named as
    game -> "module:function"."""
    if paths is None:
        from studio.table.replay import replayers
        return replayers()
    found: dict[str, Replayer] = {}
    for game, path in paths.items():
        module, _, attr = path.partition(":")
        found[game] = getattr(importlib.import_module(module), attr)
    return found


def _fail(message: str) -> int:
    print(f"FAILED: {message}", file=sys.stderr)
    return 1


def run_verify(args: argparse.Namespace) -> int:
    games: dict[str, str] = {}
    url = args.database
    try:
        cfg = load_config(args.config)
        games = {stream_of(t.id): t.game for t in cfg.tables}
        url = url or cfg.studio.database_url
    except ConfigError as e:
        if url is None:
            return _fail(f"no --database given and the configuration cannot be read: {e}")
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - any unparsable URL gets the same answer
        return _fail(f"{url!r} is not a database URL")
    shown = parsed.render_as_string(hide_password=True)
    on_disk = parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:")
    if on_disk and not Path(parsed.database).is_file():  # auditing must not create a database
        return _fail(f"no database file at {parsed.database}")
    try:
        store = Store(make_engine(url))
        try:
            missing = [t.name for t in STORAGE_TABLES if not inspect(store.engine).has_table(t.name)]
            if missing:
                return _fail(f"{shown} has no studio tables ({', '.join(missing)} missing)")
            report = verify(store, replayers=load_replayers(), games=games)
        finally:
            store.dispose()
    except (SQLAlchemyError, StorageError) as e:
        return _fail(f"cannot read {shown}: {e}")
    print(format_report(shown, report))
    return 0 if report.ok else 1


def format_report(shown_url: str, report: AuditReport) -> str:
    lines = [f"audit of {shown_url}"]
    link = report.first_broken_link
    chain = "hash chain intact" if link is None else f"BROKEN: first broken link: {link.message}"
    lines.append(f"  event log: {report.events} events in {report.streams} streams, {chain}")
    lines.append(f"  ledger: {report.accounts} accounts, {report.movements} movements")
    if report.replay_streams:
        lines.append(f"  replay: {report.rounds_replayed} rounds in {report.replay_streams} "
                     "streams replayed")
    else:
        lines.append("  replay: no stream has a registered replayer")
    for problem in report.problems:
        lines.append(f"  [{problem.code}] {problem.message}")
    lines.append("OK" if report.ok else f"FAILED: {len(report.problems)} problem(s)")
    return "\n".join(lines)
