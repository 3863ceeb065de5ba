"""Transfers: one movement between any accounts of the ledger, all its legs at once.

The two-phase bet (reserve -> post | release) is the shape of a bet against the house. At a
table where players are each other's counterparties (one banks, the others punt) a hand moves
money between several players' table credits, the money the table holds between them (its
pool) and the rake account, and must do so atomically: a transfer is that movement. Its legs
(account, cents) sum to zero; accounts of kind player, seat and pool never go below zero (the
transfer is refused whole, ``ledger.insufficient_funds``, and nothing is written).

Accounts a transfer may touch (`account_kind`):

- ``player:<id>``: the player's available money (buy-in, rebuy and cash-out move it);
- ``seat:<table>:<id>``: the player's table credit at one table;
- ``pool:<table>``: what the table holds between players (a bank put up by a player);
- ``rake``: the operator's fee; ``house``: the studio's bank (prizes, e.g. of a tournament).

The movement row (``ledger_movement``, kind ``transfer``) carries the id, the round and zeros in
its four fixed legs; the legs are rows of ``ledger_leg``. A repeat with the same id and content
returns the first result; other content is ``ledger.movement_conflict``. Every transfer is a
ticket: its id is the ticket's number, `Ticket` what the player is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studio import ledger
from studio.ledger import LedgerError
from studio.storage import bulk
from studio.storage.engine import Tx
from studio.storage.models import HOUSE, NON_NEGATIVE_KINDS, PLAYER, POOL, RAKE, SEAT

RAKE_ACCOUNT = RAKE


def seat_account(table_id: str, player_id: str) -> str:
    return f"{SEAT}:{table_id}:{player_id}"


def pool_account(table_id: str) -> str:
    return f"{POOL}:{table_id}"


def account_kind(account_id: str) -> tuple[str, str | None]:
    """(kind, player id or None) of an account a transfer may touch; refused otherwise."""
    kind, _, rest = account_id.partition(":")
    if kind == PLAYER and rest and ":" not in rest:
        return PLAYER, rest
    if kind == SEAT and ":" in rest:
        return SEAT, rest.rsplit(":", 1)[1]
    if kind == POOL and rest:
        return POOL, None
    if account_id in (RAKE, HOUSE):
        return account_id, None
    raise LedgerError("ledger.invalid_account", f"a transfer cannot touch {account_id!r}")


@dataclass(frozen=True)
class Transfer:
    """Move money between accounts: ``legs`` are (account id, cents), summing to zero."""

    movement_id: str
    legs: tuple[tuple[str, int], ...]
    round_id: str | None = None
    kind = "transfer"

    @staticmethod
    def of(movement_id: str, legs: Mapping[str, int], round_id: str | None = None) -> Transfer:
        """Legs from a mapping: zero legs dropped, in account order (the content's order)."""
        return Transfer(movement_id, tuple(sorted((a, v) for a, v in legs.items() if v)),
                        round_id)

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "legs": [list(leg) for leg in self.legs],
                "round_id": self.round_id}


@dataclass(frozen=True)
class Ticket:
    """A transfer as applied: what a player's transaction ticket shows."""

    movement_id: str
    legs: tuple[tuple[str, int], ...]
    round_id: str | None
    balances: Mapping[str, int]  # each account's balance right after it
    created_at: str
    duplicate: bool = False


def _validate(t: Transfer) -> None:
    mid = t.movement_id if isinstance(t.movement_id, str) else None
    if not isinstance(t.movement_id, str) or not 0 < len(t.movement_id) <= 200:
        raise LedgerError("ledger.invalid_id", "movement_id must be 1-200 characters", mid)
    if t.round_id is not None and (not isinstance(t.round_id, str) or len(t.round_id) > 200):
        raise LedgerError("ledger.invalid_id", "round_id must be at most 200 characters", mid)
    if len(t.legs) < 2:
        raise LedgerError("ledger.invalid_request", "a transfer has two legs or more", mid)
    seen: set[str] = set()
    for account_id, amount in t.legs:
        account_kind(account_id)
        if type(amount) is not int or amount == 0 or abs(amount) > ledger.MAX_AMOUNT:
            raise LedgerError("ledger.invalid_amount", f"leg {account_id}: {amount!r}", mid)
        if account_id in seen:
            raise LedgerError("ledger.invalid_request", f"{account_id} twice in one transfer",
                              mid)
        seen.add(account_id)
    if sum(a for _, a in t.legs) != 0:
        raise LedgerError("ledger.unbalanced", "the legs of a transfer sum to zero", mid)


def transfer_legs(tx: Tx, movement_ids: Iterable[str]) -> dict[str, tuple[tuple[str, int], ...]]:
    """The legs of transfers by movement id (in account order)."""
    rows = bulk.select_in(
        tx.conn, "SELECT m.id, l.account_id, l.amount FROM ledger_movement m "
        "JOIN ledger_leg l ON l.movement_seq = m.seq WHERE m.id IN {in_}",
        sorted(set(movement_ids)))
    out: dict[str, list[tuple[str, int]]] = {}
    for mid, account_id, amount in rows:
        out.setdefault(mid, []).append((account_id, int(amount)))
    return {k: tuple(sorted(v)) for k, v in out.items()}


def transfers_for_round(tx: Tx, round_id: str) -> dict[str, dict[str, Any]]:
    """The content of every transfer of a round, by movement id (the audit's replay)."""
    p = bulk.placeholder(tx.conn)
    ids = [r[0] for r in tx.conn.exec_driver_sql(
        f"SELECT id FROM ledger_movement WHERE round_id = {p} AND kind = 'transfer'",
        (round_id,))]
    legs = transfer_legs(tx, ids)
    return {mid: Transfer(mid, legs.get(mid, ()), round_id).content() for mid in ids}


def tickets_of(tx: Tx, accounts: Sequence[str], limit: int = 20) -> list[dict[str, Any]]:
    """The latest transfers touching any of `accounts`, newest first, each with all its legs:
    a player's transaction tickets (its account and its table credit)."""
    rows = bulk.select_in(
        tx.conn, "SELECT DISTINCT m.seq, m.id, m.round_id, m.created_at FROM ledger_movement m "
        "JOIN ledger_leg l ON l.movement_seq = m.seq WHERE l.account_id IN {in_}",
        sorted(set(accounts)))
    latest = sorted(rows, key=lambda r: -int(r[0]))[:limit]
    legs = transfer_legs(tx, [r[1] for r in latest])
    return [{"ticket": mid, "round_id": rid, "at": at, "legs": dict(legs.get(mid, ()))}
            for _, mid, rid, at in latest]


def transfer_many(tx: Tx, transfers: Sequence[Transfer]) -> list[Ticket]:
    """Apply the transfers, all or none: a refusal raises `LedgerError` before any write."""
    for t in transfers:
        _validate(t)
    ids = [t.movement_id for t in transfers]
    if len(set(ids)) != len(ids):
        raise LedgerError("ledger.invalid_request", "a movement id twice in one batch")
    first = ledger._movements_by_id(tx, ids)
    first_legs = transfer_legs(tx, first)
    fresh: list[Transfer] = []
    answers: dict[str, Ticket] = {}
    for t in transfers:
        m = first.get(t.movement_id)
        if m is None:
            fresh.append(t)
            continue
        if m.kind != "transfer" or first_legs.get(t.movement_id, ()) != t.legs or (
                m.round_id != t.round_id):
            raise LedgerError("ledger.movement_conflict",
                              f"movement {t.movement_id!r} was already applied with different "
                              "content", t.movement_id)
        answers[t.movement_id] = Ticket(t.movement_id, t.legs, t.round_id, {}, m.created_at,
                                        duplicate=True)
    if fresh:
        _write(tx, fresh, answers)
    return [answers[i] for i in ids]


def _write(tx: Tx, transfers: Sequence[Transfer], answers: dict[str, Ticket]) -> None:
    accounts = {a: account_kind(a) for t in transfers for a, _ in t.legs}
    ledger._ensure_accounts(tx, accounts)
    bal = ledger._account_balances(tx, accounts, lock=True)
    ts = tx.now_ts()
    after: list[dict[str, int]] = []
    for t in transfers:
        mine: dict[str, int] = {}
        for account_id, amount in t.legs:
            bal[account_id] += amount
            mine[account_id] = bal[account_id]
            kind = accounts[account_id][0]
            if kind in NON_NEGATIVE_KINDS and bal[account_id] < 0:
                raise LedgerError("ledger.insufficient_funds",
                                  f"{account_id} has {bal[account_id] - amount} cents, "
                                  f"{-amount} needed", t.movement_id)
        after.append(mine)
    conn = tx.conn
    rows = []
    for t in transfers:
        players = [p for a, _ in t.legs if (p := accounts[a][1]) is not None]
        rows.append((t.movement_id, "transfer", t.round_id, players[0] if players else "", None,
                     sum(a for _, a in t.legs if a > 0), None, 0, ts, 0, 0, 0, 0))
    bulk.insert_rows(conn, "ledger_movement", ledger._MOV_INSERT_COLUMNS, rows)
    seqs = dict(bulk.select_in(conn, "SELECT id, seq FROM ledger_movement WHERE id IN {in_}",
                               sorted(t.movement_id for t in transfers)))
    bulk.insert_rows(conn, "ledger_leg", ("movement_seq", "account_id", "amount"),
                     [(seqs[t.movement_id], a, v) for t in transfers for a, v in t.legs])
    totals: dict[str, int] = {}
    for t in transfers:
        for a, v in t.legs:
            totals[a] = totals.get(a, 0) + v
    bulk.execute_many(conn, "UPDATE ledger_account SET balance = balance + {p} WHERE id = {p}",
                      sorted(((v, a) for a, v in totals.items() if v), key=lambda r: r[1]))
    for t, mine in zip(transfers, after, strict=True):
        answers[t.movement_id] = Ticket(t.movement_id, t.legs, t.round_id, mine, ts)


def transfer(tx: Tx, movement_id: str, legs: Mapping[str, int],
             round_id: str | None = None) -> Ticket:
    return transfer_many(tx, [Transfer.of(movement_id, legs, round_id)])[0]
