"""`studio wallet reconcile`: the studio's record of wallet transactions against the
operator's report for a period (studio/wallet/reconcile.py). Prints every difference; exit
code 0 when there is none, 1 when there are differences, 2 when the comparison could not be
made (no report, no database).

`studio wallet drain`: send the credits and rollbacks still owed to the operator's wallet
(the queue in the studio's database) once; exit code 0 when the queue is empty afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.storage.engine import Store
    from studio.wallet.client import WalletClient


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("wallet", help="the operator's seamless wallet: reconcile, drain the queue")
    actions = p.add_subparsers(dest="wallet_command", required=True, metavar="ACTION")
    r = actions.add_parser("reconcile", help="compare the studio's record with the wallet's")
    _connection(r)
    r.add_argument("--from", dest="start", type=_moment,
                   help="period start, ISO-8601 (default: 24 hours before --to)")
    r.add_argument("--to", dest="end", type=_moment, help="period end, ISO-8601 (default: now)")
    r.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the report")
    r.set_defaults(func=run_reconcile)
    d = actions.add_parser("drain", help="send the credits and rollbacks still owed, once")
    _connection(d)
    d.add_argument("--timeout", type=float, default=5.0, help="seconds to wait per call")
    d.set_defaults(func=run_drain)


def _connection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--database", required=True, help="the studio's database URL")
    p.add_argument("--operator-url", required=True, help="the operator wallet's base URL")
    p.add_argument("--secret-env", default="STUDIO_WALLET_SECRET",
                   help="environment variable holding the shared secret")


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _run(args: argparse.Namespace,
         work: Callable[[Store, WalletClient], Awaitable[int]]) -> int:
    """Open the database and the wallet client, run ``work``, close both; the exit code
    (2 when the secret, the database or the operator's report is missing)."""
    from sqlalchemy.exc import SQLAlchemyError

    from studio.storage.engine import Store
    from studio.wallet.client import WalletClient
    from studio.wallet.reconcile import ReconcileError

    try:
        client = WalletClient(args.operator_url, os.environ.get(args.secret_env, ""),
                              timeout=args.timeout)
    except ValueError as e:
        print(f"error wallet.bad_secret: {e} (${args.secret_env})", file=sys.stderr)
        return 2

    async def run(store: Store) -> int:
        try:
            return await work(store, client)
        finally:
            await client.close()

    try:
        store = Store.open(args.database, background_checkpoint=False)
        try:
            return asyncio.run(run(store))
        finally:
            store.dispose()
    except ReconcileError as e:
        print(f"error {e.code}: {e}", file=sys.stderr)
    except SQLAlchemyError as e:
        print(f"error wallet.no_database: {e}", file=sys.stderr)
    return 2


def run_reconcile(args: argparse.Namespace) -> int:
    from studio.wallet.reconcile import reconcile

    end = args.end or datetime.now(UTC)
    start = args.start or end - timedelta(hours=24)

    async def work(store: Store, client: WalletClient) -> int:
        diffs = await reconcile(store, client, start, end)
        for diff in diffs:
            print(diff.line())
        print(f"{len(diffs)} difference(s) from {start.isoformat()} to {end.isoformat()}")
        return 1 if diffs else 0

    return _run(args, work)


def run_drain(args: argparse.Namespace) -> int:
    from studio.wallet import records
    from studio.wallet.http_wallet import HttpWallet

    async def work(store: Store, client: WalletClient) -> int:
        settled = await HttpWallet(store, client).drain()
        with store.reader() as tx:
            left = len(records.pending(tx))
        print(f"{settled} settled, {left} still pending")
        return 0 if left == 0 else 1

    return _run(args, work)
