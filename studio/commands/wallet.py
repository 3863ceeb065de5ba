"""`studio wallet reconcile`: the studio's record of wallet transactions against the
operator's report for a period (studio/wallet/reconcile.py). Prints every difference; exit
code 0 when there is none, 1 when there are differences, 2 when the comparison could not be
made (no report, no database).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from datetime import UTC, datetime, timedelta


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("wallet", help="the operator's seamless wallet: reconcile")
    actions = p.add_subparsers(dest="wallet_command", required=True, metavar="ACTION")
    r = actions.add_parser("reconcile", help="compare the studio's record with the wallet's")
    r.add_argument("--database", required=True, help="the studio's database URL")
    r.add_argument("--operator-url", required=True, help="the operator wallet's base URL")
    r.add_argument("--secret-env", default="STUDIO_WALLET_SECRET",
                   help="environment variable holding the shared secret")
    r.add_argument("--from", dest="start", type=_moment,
                   help="period start, ISO-8601 (default: 24 hours before --to)")
    r.add_argument("--to", dest="end", type=_moment, help="period end, ISO-8601 (default: now)")
    r.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the report")
    r.set_defaults(func=run_reconcile)


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def run_reconcile(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from studio.storage.engine import Store
    from studio.wallet.client import WalletClient
    from studio.wallet.reconcile import ReconcileError, reconcile

    end = args.end or datetime.now(UTC)
    start = args.start or end - timedelta(hours=24)
    try:
        client = WalletClient(args.operator_url, os.environ.get(args.secret_env, ""),
                              timeout=args.timeout)
    except ValueError as e:
        print(f"error wallet.bad_secret: {e} (${args.secret_env})", file=sys.stderr)
        return 2

    async def run() -> list:
        try:
            return await reconcile(store, client, start, end)
        finally:
            await client.close()

    try:
        store = Store.open(args.database, background_checkpoint=False)
        try:
            diffs = asyncio.run(run())
        finally:
            store.dispose()
    except ReconcileError as e:
        print(f"error {e.code}: {e}", file=sys.stderr)
        return 2
    except SQLAlchemyError as e:
        print(f"error reconcile.no_database: {e}", file=sys.stderr)
        return 2
    for diff in diffs:
        print(diff.line())
    print(f"{len(diffs)} difference(s) from {start.isoformat()} to {end.isoformat()}")
    return 1 if diffs else 0
