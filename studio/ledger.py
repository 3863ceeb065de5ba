"""The money ledger: double entry, integer cents, two phases, every movement at most once.

Accounts (``storage.models``): per player ``player:<id>`` (available money) and
``player:<id>:held`` (money reserved for the player's open bets); ``house`` (the bank); ``cash`` (the operator's cash
desk, the other side of deposits). Every movement is a set of entries summing to zero, so the sum
over all accounts is always zero; player and held accounts never go below zero.

The life of a bet:

- `reserve` at bet time: ``player -> held`` (the available balance drops, the money is held);
- `post` at settlement: ``held -> house`` (the stake) and ``house -> player`` (the payout: stake
  plus winnings for a win, the stake for a push, nothing for a loss), one movement whose legs
  are held -stake, house +(stake - payout), player +payout (zero legs are not written);
- `release` at void: ``held -> player`` (the reservation comes back).

Each movement carries the caller's id (e.g. ``"<round>:<bet>:reserve"``). A repeat with the same
id and the same content returns the first result and changes nothing; a repeat with different
content is refused (``ledger.movement_conflict``). A reservation is closed by one post or release
only (a UNIQUE constraint in the database backs this).

All functions take a `Tx` (``store.transaction()``), so the table writes its events and its
money movements in one transaction. Batch forms (`reserve_many`, `post_many`, `release_many`)
write a whole tick of bets or a whole settlement with a handful of statements.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite

from studio.storage import bulk
from studio.storage.engine import Tx
from studio.storage.models import (
    CASH,
    HELD,
    HOUSE,
    PLAYER,
    LedgerAccount,
    LedgerEntry,
    LedgerMovement,
)

HOUSE_ACCOUNT = "house"
CASH_ACCOUNT = "cash"
MAX_AMOUNT = 10**15  # cents; far above any stake, far below BIGINT overflow
_ACC = LedgerAccount.__table__
_MOV = LedgerMovement.__table__
_ENT = LedgerEntry.__table__


class LedgerError(Exception):
    """A movement the ledger refuses. ``code`` is stable; nothing was applied."""

    def __init__(self, code: str, message: str, movement_id: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.movement_id = movement_id


def player_account(player_id: str) -> str:
    return f"{PLAYER}:{player_id}"


def held_account(player_id: str) -> str:
    return f"{PLAYER}:{player_id}:{HELD}"


# --- requests: what the caller asks (and what a replayer says the log implies) ----------------


@dataclass(frozen=True)
class Credit:
    """Operator gives a player money (a demo credit, a deposit): ``cash -> player``."""

    movement_id: str
    player_id: str
    amount: int
    kind = "credit"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id, "amount": self.amount}


@dataclass(frozen=True)
class Debit:
    """A player's money leaves the table (a withdrawal): ``player -> cash``."""

    movement_id: str
    player_id: str
    amount: int
    kind = "debit"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id, "amount": self.amount}


@dataclass(frozen=True)
class Reserve:
    """Hold ``amount`` of a player's money for a bet: ``player -> held``.

    Requests sharing a ``group`` (e.g. the bets of one player command) are accepted or refused
    together by `reserve_many`; ``group`` is not part of the movement's content.

    ``content()`` of each request is what "the same movement" means: a repeated id must bring
    the same content (the stored movement's ``content()``) or it is a conflict.
    """

    movement_id: str
    player_id: str
    amount: int
    round_id: str | None = None
    group: str | None = None
    kind = "reserve"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id, "amount": self.amount,
                "round_id": self.round_id}


@dataclass(frozen=True)
class Post:
    """Settle a reservation: the stake goes to the house, ``payout`` (stake + winnings, the
    stake on a push, 0 on a loss) comes from the house to the player."""

    movement_id: str
    reservation_id: str
    payout: int
    kind = "post"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "reservation_id": self.reservation_id, "payout": self.payout}


@dataclass(frozen=True)
class Release:
    """Void a reservation: the held money returns to the player."""

    movement_id: str
    reservation_id: str
    kind = "release"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "reservation_id": self.reservation_id}


Request = Credit | Debit | Reserve | Post | Release


# --- results ---------------------------------------------------------------------------------


class Movement(NamedTuple):
    """A movement as applied (or as first applied, for a repeat). A NamedTuple: a settlement
    builds 30,000 of them, and a tuple is four times cheaper to make than a frozen dataclass."""

    id: str
    kind: str
    player_id: str
    amount: int  # the credit/debit amount or the reserved stake
    payout: int | None  # post only
    reservation_id: str | None  # post and release
    round_id: str | None
    balance_after: int  # the player's available balance right after this movement
    created_at: str

    def content(self) -> dict[str, Any]:
        """What the request that made this movement said (compare with ``request.content()``)."""
        if self.kind == "reserve":
            return {"kind": self.kind, "player_id": self.player_id, "amount": self.amount,
                    "round_id": self.round_id}
        if self.kind == "post":
            return {"kind": self.kind, "reservation_id": self.reservation_id,
                    "payout": self.payout}
        if self.kind == "release":
            return {"kind": self.kind, "reservation_id": self.reservation_id}
        return {"kind": self.kind, "player_id": self.player_id, "amount": self.amount}


class Entry(NamedTuple):
    movement_id: str
    leg: int
    account_id: str
    amount: int


class Balance(NamedTuple):
    available: int
    reserved: int


class ReserveOutcome(NamedTuple):
    """One request's answer from `reserve_many`: a movement, or an error (nothing applied)."""

    request: Reserve
    movement: Movement | None
    error: LedgerError | None = None
    duplicate: bool = False  # the id was applied before: ``movement`` is the first result

    @property
    def ok(self) -> bool:
        return self.error is None


# --- validation ------------------------------------------------------------------------------


def _check_id(value: object, what: str, movement_id: str | None) -> None:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise LedgerError("ledger.invalid_id", f"{what} must be a string of 1-200 characters",
                          movement_id)


def _check_amount(value: object, what: str, movement_id: str, *, allow_zero: bool) -> None:
    if type(value) is not int:  # not bool, not float, not Decimal: cents are ints
        raise LedgerError("ledger.invalid_amount",
                          f"{what} must be an integer number of cents, not {value!r}",
                          movement_id)
    if value < 0 or (value == 0 and not allow_zero) or value > MAX_AMOUNT:
        bound = "0 or more" if allow_zero else "above 0"
        raise LedgerError("ledger.invalid_amount",
                          f"{what} must be {bound} and at most {MAX_AMOUNT} cents, not {value}",
                          movement_id)


def _validate(request: Request) -> None:
    mid = request.movement_id if isinstance(request.movement_id, str) else None
    _check_id(request.movement_id, "movement_id", mid)
    if isinstance(request, Credit | Debit | Reserve):
        _check_id(request.player_id, "player_id", mid)
        if len(request.player_id) > 160 or ":" in request.player_id:
            raise LedgerError("ledger.invalid_id",
                              "player_id must be at most 160 characters, without ':'", mid)
        _check_amount(request.amount, "amount", request.movement_id, allow_zero=False)
        if isinstance(request, Reserve) and request.round_id is not None:
            _check_id(request.round_id, "round_id", mid)
    elif isinstance(request, Post | Release):
        _check_id(request.reservation_id, "reservation_id", mid)
        if isinstance(request, Post):
            _check_amount(request.payout, "payout", request.movement_id, allow_zero=True)
    else:
        raise LedgerError("ledger.invalid_request", f"not a ledger request: {request!r}", mid)


# --- reading ---------------------------------------------------------------------------------


_MOV_COLUMNS = ("id", "kind", "player_id", "amount", "payout", "reservation_id", "round_id",
                "balance_after", "created_at")
_MOV_SELECT = "SELECT " + ", ".join(_MOV_COLUMNS) + " FROM ledger_movement"


def _movement(row: Any) -> Movement:
    (mid, kind, player_id, amount, payout, reservation_id, round_id, balance_after,
     created_at) = tuple(row)
    return Movement(mid, kind, player_id, int(amount), None if payout is None else int(payout),
                    reservation_id, round_id, int(balance_after), created_at)


def _movements_by(tx: Tx, column: str, keys: Iterable[str]) -> dict[str, Movement]:
    """Movements whose ``column`` (``id`` or ``reservation_id``) is among ``keys``."""
    found: dict[str, Movement] = {}
    rows = bulk.select_in(tx.conn, f"{_MOV_SELECT} WHERE {column} IN {{in_}}", sorted(set(keys)))
    for row in rows:
        mov = _movement(row)
        found[mov.id if column == "id" else mov.reservation_id] = mov  # type: ignore[index]
    return found


def movement(tx: Tx, movement_id: str) -> Movement | None:
    return _movements_by(tx, "id", [movement_id]).get(movement_id)


def movements_for_round(tx: Tx, round_id: str) -> list[Movement]:
    """Every movement of a round: reserves carry the round id, posts and releases inherit it."""
    p = bulk.placeholder(tx.conn)
    rows = tx.conn.exec_driver_sql(f"{_MOV_SELECT} WHERE round_id = {p} ORDER BY id", (round_id,))
    return [_movement(r) for r in rows]


def open_reservations(
    tx: Tx, *, round_id: str | None = None, player_id: str | None = None
) -> list[Movement]:
    """Reservations not yet posted or released (e.g. to void a round after a restart)."""
    closer = _MOV.alias("closer")
    q = (
        select(_MOV)
        .outerjoin(closer, closer.c.reservation_id == _MOV.c.id)
        .where(_MOV.c.kind == "reserve", closer.c.id.is_(None))
        .order_by(_MOV.c.id)
    )
    if round_id is not None:
        q = q.where(_MOV.c.round_id == round_id)
    if player_id is not None:
        q = q.where(_MOV.c.player_id == player_id)
    return [_movement(tuple(r._mapping[c] for c in _MOV_COLUMNS)) for r in tx.conn.execute(q)]


def entries(tx: Tx, movement_id: str) -> list[Entry]:
    """The legs of one movement (a scan: for inspection and tests, not for hot paths)."""
    rows = tx.conn.execute(
        select(_ENT).where(_ENT.c.movement_id == movement_id).order_by(_ENT.c.leg)
    )
    return [Entry(r.movement_id, int(r.leg), r.account_id, int(r.amount)) for r in rows]


def _account_balances(tx: Tx, account_ids: Iterable[str], *, lock: bool) -> dict[str, int]:
    ids = sorted(set(account_ids))  # one lock order for every writer: no deadlocks
    # FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises writers.
    suffix = " ORDER BY id FOR UPDATE" if lock and tx.dialect == "postgresql" else ""
    rows = bulk.select_in(tx.conn, "SELECT id, balance FROM ledger_account WHERE id IN {in_}",
                          ids, suffix=suffix)
    return {account_id: int(value) for account_id, value in rows}


def account_balance(tx: Tx, account_id: str) -> int:
    """The balance of any account (0 if it does not exist yet)."""
    return _account_balances(tx, [account_id], lock=False).get(account_id, 0)


def balances(tx: Tx, player_ids: Iterable[str]) -> dict[str, Balance]:
    """Available and reserved money of each player (zeros for an unknown player)."""
    players = sorted(set(player_ids))
    got = _account_balances(
        tx, [a for p in players for a in (player_account(p), held_account(p))], lock=False
    )
    return {
        p: Balance(got.get(player_account(p), 0), got.get(held_account(p), 0)) for p in players
    }


def balance(tx: Tx, player_id: str) -> Balance:
    return balances(tx, [player_id])[player_id]


def house_balance(tx: Tx) -> int:
    return account_balance(tx, HOUSE_ACCOUNT)


def total_balance(tx: Tx) -> int:
    """Sum over all accounts: always 0 (double entry)."""
    return int(tx.conn.execute(select(func.coalesce(func.sum(_ACC.c.balance), 0))).scalar_one())


# --- writing ---------------------------------------------------------------------------------


class _Writer:
    """Collects the rows of one batch, then writes them with a few executemany statements."""

    def __init__(self, tx: Tx) -> None:
        self.tx = tx
        self.ts = tx.now_ts()
        self.movements: list[tuple[Any, ...]] = []
        self.entries: list[tuple[Any, ...]] = []
        self.deltas: dict[str, int] = defaultdict(int)

    def add(self, request: Request, *, player_id: str, amount: int, payout: int | None,
            reservation_id: str | None, round_id: str | None, balance_after: int,
            legs: Sequence[tuple[str, int]]) -> Movement:
        mov = Movement(request.movement_id, request.kind, player_id, amount, payout,
                       reservation_id, round_id, balance_after, self.ts)
        self.movements.append(mov)
        leg = 0
        for account_id, value in legs:
            if value == 0:
                continue
            self.entries.append((mov.id, leg, account_id, value))
            self.deltas[account_id] += value
            leg += 1
        return mov

    def flush(self) -> None:
        conn = self.tx.conn
        bulk.insert_rows(conn, "ledger_movement", _MOV_COLUMNS, self.movements)
        bulk.insert_rows(conn, "ledger_entry", ("movement_id", "leg", "account_id", "amount"),
                         self.entries)
        bulk.execute_many(
            conn, "UPDATE ledger_account SET balance = balance + {p} WHERE id = {p}",
            [(v, k) for k, v in sorted(self.deltas.items()) if v != 0],
        )


def _ensure_accounts(tx: Tx, accounts: Mapping[str, tuple[str, str | None]]) -> None:
    """Create missing accounts ({id: (kind, player_id)}), tolerating a concurrent creator."""
    if not accounts:
        return
    existing = _account_balances(tx, accounts, lock=False)
    missing = [
        {"id": a, "kind": kind, "player_id": pid, "balance": 0, "created_at": tx.now_ts()}
        for a, (kind, pid) in sorted(accounts.items())
        if a not in existing
    ]
    if not missing:
        return
    dialect = sqlite if tx.dialect == "sqlite" else postgresql
    insert = dialect.insert(_ACC).on_conflict_do_nothing(index_elements=["id"])
    tx.conn.execute(insert, missing)


def _player_accounts(player_id: str) -> dict[str, tuple[str, str | None]]:
    return {player_account(player_id): (PLAYER, player_id), held_account(player_id): (HELD, player_id)}


def _repeat(request: Request, first: Movement) -> Movement:
    """The answer to a repeated id: the first result, or a conflict."""
    if first.content() != request.content():
        raise LedgerError(
            "ledger.movement_conflict",
            f"movement {request.movement_id!r} was already applied with different content",
            request.movement_id,
        )
    return first


def _insufficient(player_id: str, needed: int, available: int, movement_id: str) -> LedgerError:
    return LedgerError(
        "ledger.insufficient_funds",
        f"player {player_id!r} has {available} cents available, {needed} needed",
        movement_id,
    )


def reserve_many(tx: Tx, requests: Sequence[Reserve]) -> list[ReserveOutcome]:
    """Reserve many bets in ``tx``; one outcome per request, in order.

    Each request (or each ``group`` of requests) is applied entirely or not at all; a refusal
    (insufficient funds, bad input, conflicting id) does not stop the other requests. Requests
    are served in order, so earlier bets of a player have first call on the player's money.
    """
    outcomes: list[ReserveOutcome | None] = [None] * len(requests)
    valid: list[int] = []
    for i, req in enumerate(requests):
        try:
            if not isinstance(req, Reserve):
                raise LedgerError("ledger.invalid_request", f"not a Reserve: {req!r}")
            _validate(req)
            valid.append(i)
        except LedgerError as e:
            outcomes[i] = ReserveOutcome(req, None, e)
    previous = _movements_by(tx, "id", [requests[i].movement_id for i in valid])
    players = {requests[i].player_id for i in valid}
    available = _account_balances(tx, [player_account(p) for p in players], lock=True)

    # Units served in order: a lone request, or a whole group at its first member's place.
    units: list[list[int]] = []
    by_group: dict[str, list[int]] = {}
    for i in valid:
        group = requests[i].group
        if group is None:
            units.append([i])
        elif group in by_group:
            by_group[group].append(i)
        else:
            by_group[group] = [i]
            units.append(by_group[group])

    writer = _Writer(tx)
    applied: dict[str, Movement] = {}
    for unit in units:
        try:
            plan = _plan_unit(requests, unit, previous, applied, available)
        except LedgerError as e:
            for i in unit:
                outcomes[i] = ReserveOutcome(requests[i], None, e)
            continue
        for i, first in plan:
            req = requests[i]
            if first is not None:
                outcomes[i] = ReserveOutcome(req, first, None, True)
                continue
            pid, amount = req.player_id, req.amount
            acc = player_account(pid)
            left = available[acc] = available[acc] - amount
            mov = writer.add(req, player_id=pid, amount=amount, payout=None, reservation_id=None,
                             round_id=req.round_id, balance_after=left,
                             legs=((acc, -amount), (held_account(pid), amount)))
            applied[mov.id] = mov
            outcomes[i] = ReserveOutcome(req, mov)
    writer.flush()
    return outcomes  # type: ignore[return-value]  # every slot is filled by now


def _plan_unit(
    requests: Sequence[Reserve],
    unit: list[int],
    previous: Mapping[str, Movement],
    applied: Mapping[str, Movement],
    available: Mapping[str, int],
) -> list[tuple[int, Movement | None]]:
    """Check one unit against the balances: [(index, first result if a repeat)], or raise."""
    plan: list[tuple[int, Movement | None]] = []
    needed: dict[str, int] = {}
    fresh: set[str] = set()
    for i in unit:
        req = requests[i]
        mid = req.movement_id
        first = previous.get(mid) or applied.get(mid)
        if first is not None:
            plan.append((i, _repeat(req, first)))
            continue
        if mid in fresh:
            raise LedgerError("ledger.movement_conflict",
                              "the same movement id appears twice in one group", mid)
        fresh.add(mid)
        pid = req.player_id
        need = needed[pid] = needed.get(pid, 0) + req.amount
        have = available.get(player_account(pid), 0)
        if need > have:
            raise _insufficient(pid, need, have, mid)
        plan.append((i, None))
    return plan


def _close_many(tx: Tx, requests: Sequence[Post | Release]) -> list[Movement]:
    """Post or release reservations, all or nothing (raises `LedgerError`, applies nothing)."""
    for req in requests:
        _validate(req)
    previous = _movements_by(tx, "id", [r.movement_id for r in requests])
    fresh: list[Post | Release] = []
    results: dict[str, Movement] = {}
    seen: dict[str, Request] = {}
    for req in requests:
        if req.movement_id in previous:
            results[req.movement_id] = _repeat(req, previous[req.movement_id])
        elif req.movement_id in seen:
            if seen[req.movement_id].content() != req.content():
                raise LedgerError("ledger.movement_conflict",
                                  "the same movement id appears twice with different content",
                                  req.movement_id)
        else:
            seen[req.movement_id] = req
            fresh.append(req)

    reservations = _movements_by(tx, "id", [r.reservation_id for r in fresh])
    closers = _movements_by(tx, "reservation_id", [r.reservation_id for r in fresh])
    closing: dict[str, str] = {}
    for req in fresh:
        res = reservations.get(req.reservation_id)
        if res is None or res.kind != "reserve":
            raise LedgerError("ledger.unknown_reservation",
                              f"no reservation {req.reservation_id!r}", req.movement_id)
        other = closers.get(req.reservation_id)
        other_id = other.id if other is not None else closing.get(req.reservation_id)
        if other_id is not None:
            raise LedgerError(
                "ledger.reservation_closed",
                f"reservation {req.reservation_id!r} was already closed by {other_id!r}",
                req.movement_id,
            )
        closing[req.reservation_id] = req.movement_id

    players = {reservations[r.reservation_id].player_id for r in fresh}
    need_house = any(isinstance(r, Post) for r in fresh)
    if need_house:
        _ensure_accounts(tx, {HOUSE_ACCOUNT: (HOUSE, None)})
    bal = _account_balances(
        tx,
        [a for p in players for a in (player_account(p), held_account(p))]
        + ([HOUSE_ACCOUNT] if need_house else []),
        lock=True,
    )
    writer = _Writer(tx)
    for req in fresh:
        res = reservations[req.reservation_id]
        pid, stake = res.player_id, res.amount
        acc, held = player_account(pid), held_account(pid)
        if bal.get(held, 0) < stake:  # cannot happen unless the books were edited by hand
            raise LedgerError("ledger.inconsistent",
                              f"held account of {pid!r} is below the reservation {res.id!r}",
                              req.movement_id)
        if isinstance(req, Post):
            payout = req.payout
            # One leg per account: the house nets the stake it takes and the payout it gives.
            legs = [(held, -stake), (HOUSE_ACCOUNT, stake - payout), (acc, payout)]
        else:
            payout, legs = None, [(held, -stake), (acc, stake)]
        for account_id, value in legs:
            bal[account_id] = bal.get(account_id, 0) + value
        results[req.movement_id] = writer.add(
            req, player_id=pid, amount=stake, payout=payout, reservation_id=res.id,
            round_id=res.round_id, balance_after=bal[acc], legs=legs,
        )
    writer.flush()
    return [results[r.movement_id] for r in requests]


def post_many(tx: Tx, requests: Sequence[Post]) -> list[Movement]:
    """Settle many reservations in one go (all or nothing); one movement per request."""
    for req in requests:
        if not isinstance(req, Post):
            raise LedgerError("ledger.invalid_request", f"not a Post: {req!r}")
    return _close_many(tx, requests)


def release_many(tx: Tx, requests: Sequence[Release]) -> list[Movement]:
    """Void many reservations in one go (all or nothing); one movement per request."""
    for req in requests:
        if not isinstance(req, Release):
            raise LedgerError("ledger.invalid_request", f"not a Release: {req!r}")
    return _close_many(tx, requests)


def settle_many(tx: Tx, requests: Sequence[Post | Release]) -> list[Movement]:
    """Posts and releases mixed (e.g. a round where Mano di Poker bets are refunded)."""
    return _close_many(tx, requests)


def _cash_many(tx: Tx, requests: Sequence[Credit | Debit]) -> list[Movement]:
    for req in requests:
        _validate(req)
    previous = _movements_by(tx, "id", [r.movement_id for r in requests])
    accounts: dict[str, tuple[str, str | None]] = {CASH_ACCOUNT: (CASH, None)}
    for req in requests:
        accounts.update(_player_accounts(req.player_id))
    _ensure_accounts(tx, accounts)
    bal = _account_balances(tx, accounts, lock=True)
    writer = _Writer(tx)
    results: dict[str, Movement] = {}
    for req in requests:
        first = previous.get(req.movement_id) or results.get(req.movement_id)
        if first is not None:
            results[req.movement_id] = _repeat(req, first)
            continue
        acc = player_account(req.player_id)
        sign = 1 if isinstance(req, Credit) else -1
        if bal[acc] + sign * req.amount < 0:
            raise _insufficient(req.player_id, req.amount, bal[acc], req.movement_id)
        legs = [(CASH_ACCOUNT, -sign * req.amount), (acc, sign * req.amount)]
        for account_id, value in legs:
            bal[account_id] += value
        results[req.movement_id] = writer.add(
            req, player_id=req.player_id, amount=req.amount, payout=None, reservation_id=None,
            round_id=None, balance_after=bal[acc], legs=legs,
        )
    writer.flush()
    return [results[r.movement_id] for r in requests]


def credit_many(tx: Tx, requests: Sequence[Credit | Debit]) -> list[Movement]:
    """Credits and debits, all or nothing."""
    return _cash_many(tx, requests)


# --- one at a time (each raises LedgerError on refusal) ---------------------------------------


def credit(tx: Tx, movement_id: str, player_id: str, amount: int) -> Movement:
    """Give a player ``amount`` cents from the operator's cash desk."""
    return _cash_many(tx, [Credit(movement_id, player_id, amount)])[0]


def debit(tx: Tx, movement_id: str, player_id: str, amount: int) -> Movement:
    """Pay ``amount`` cents of a player's available money out to the cash desk."""
    return _cash_many(tx, [Debit(movement_id, player_id, amount)])[0]


def reserve(
    tx: Tx, movement_id: str, player_id: str, amount: int, *, round_id: str | None = None
) -> Movement:
    """Hold ``amount`` cents for a bet; raises ``ledger.insufficient_funds`` and others."""
    outcome = reserve_many(tx, [Reserve(movement_id, player_id, amount, round_id)])[0]
    if outcome.error is not None:
        raise outcome.error
    assert outcome.movement is not None
    return outcome.movement


def post(tx: Tx, movement_id: str, reservation_id: str, payout: int) -> Movement:
    """Settle one reservation: stake to the house, ``payout`` to the player."""
    return _close_many(tx, [Post(movement_id, reservation_id, payout)])[0]


def release(tx: Tx, movement_id: str, reservation_id: str) -> Movement:
    """Void one reservation: the money returns to the player."""
    return _close_many(tx, [Release(movement_id, reservation_id)])[0]
