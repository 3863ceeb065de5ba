"""The studio's record of wallet transactions (``wallet_tx``) against the operator's report.

The operator lists every transaction that moved money (or left a tombstone) in a period of
its clock (``POST /wallet/transactions``). Each transaction the studio recorded in the period
must appear there as the studio believes it, and each the operator lists must be known to the
studio. What the studio expects, by its state:

    debit ok            listed, status ok, same player and amount
    debit rolled_back   listed as rolled_back with the same amount, or absent (the rollback
                        came first and left a tombstone)
    credit ok           listed, status ok, same player and amount
    rollback ok         listed, refunding what the studio recorded
    refused             absent (nothing moved)
    pending, unknown    a difference: the outcome is not known yet (the queue has not drained)

A credit the wallet refused is also a difference: the player is owed that money.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from studio.storage.engine import Store, format_ts, utc_now
from studio.wallet import records
from studio.wallet.client import WalletClient

# The operator's clock and ours differ a little: its report is asked for this much wider.
MARGIN = timedelta(minutes=5)


@dataclass(frozen=True)
class Difference:
    transaction_id: str
    code: str  # reconcile.*
    studio: str  # what the studio recorded, for people
    wallet: str  # what the operator reported

    def line(self) -> str:
        return f"[{self.code}] {self.transaction_id}: studio {self.studio}; wallet {self.wallet}"


class ReconcileError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


def _show_row(row: records.Row | None) -> str:
    if row is None:
        return "has no record"
    return f"{row.kind} {row.state} {row.player_id} {row.amount}" + (
        f" ({row.code})" if row.code else "")


def _show_entry(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "does not list it"
    return (f"{entry.get('kind')} {entry.get('status')} {entry.get('player_id')} "
            f"{entry.get('amount')}")


def _problem(row: records.Row, entry: dict[str, Any] | None) -> str | None:
    """The code of what is wrong with one recorded transaction, or None."""
    if row.state in ("pending", "unknown"):
        return "reconcile.pending"
    if row.state == "refused":
        if entry is not None:
            return "reconcile.refused_but_applied"
        return "reconcile.credit_refused" if row.kind == "credit" else None
    if entry is None:
        return None if row.state == "rolled_back" else "reconcile.missing_at_wallet"
    if entry.get("kind") != row.kind or entry.get("player_id") != row.player_id:
        return "reconcile.different_transaction"
    if entry.get("amount") != row.amount:
        return "reconcile.amount_differs"
    if entry.get("status") != ("rolled_back" if row.state == "rolled_back" else "ok"):
        return "reconcile.status_differs"
    return None


def compare(rows: Iterable[records.Row], report: Iterable[dict[str, Any]],
            known_elsewhere: Collection[str] = ()) -> list[Difference]:
    """Every difference between the studio's rows and the operator's report (pure).

    ``known_elsewhere``: ids the studio recorded outside the period (not differences)."""
    by_id = {e.get("transaction_id"): e for e in report}
    diffs: list[Difference] = []
    mine: set[str] = set()
    for row in rows:
        mine.add(row.id)
        entry = by_id.get(row.id)
        code = _problem(row, entry)
        if code is not None:
            diffs.append(Difference(row.id, code, _show_row(row), _show_entry(entry)))
    for tid, entry in by_id.items():
        if tid not in mine and tid not in known_elsewhere:
            diffs.append(Difference(str(tid), "reconcile.missing_at_studio", _show_row(None),
                                    _show_entry(entry)))
    return diffs


async def reconcile(store: Store, client: WalletClient, start: datetime, end: datetime,
                    now: Callable[[], datetime] = utc_now) -> list[Difference]:
    """Compare the studio's transactions of [start, end) with the operator's report.

    The report is asked from ``start`` (less `MARGIN`) until now (plus `MARGIN`), not only
    until ``end``: a credit the studio queued in the period may have reached the wallet only
    later, and is then no difference."""
    records.ensure_schema(store)
    until = max(end, now()) + MARGIN
    outcome = await client.call("transactions", {"from": format_ts(start - MARGIN),
                                                 "to": format_ts(until)})
    listed = outcome.answer.get("transactions")
    if outcome.kind != "ok" or not isinstance(listed, list):
        raise ReconcileError("reconcile.no_report",
                             f"the operator's report could not be had ({outcome.code})")
    lo, hi = format_ts(start), format_ts(end)
    with store.reader() as tx:
        rows = records.between(tx, lo, hi)
        mine = {r.id for r in rows}
        # Listed by the wallet in the widened period: recorded by us at another time is fine.
        others = [e.get("transaction_id") for e in listed if e.get("transaction_id") not in mine]
        elsewhere = set(records.by_ids(tx, [t for t in others if isinstance(t, str)]))
    in_period = [e for e in listed
                 if e.get("transaction_id") in mine or lo <= str(e.get("at")) < hi]
    return compare(rows, in_period, elsewhere)
