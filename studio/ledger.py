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

A movement is one row of ``ledger_movement`` holding its legs (one column per account it can
touch: the player's two accounts, the house, the cash desk); the database checks that they sum
to zero. Account rows carry the running balances.

Each movement carries the caller's id (e.g. ``"<round>:<bet>:reserve"``). A repeat with the same
id and the same content returns the first result and changes nothing; a repeat with different
content is refused (``ledger.movement_conflict``). A reservation is closed by one post or release
only (a UNIQUE constraint in the database backs this).

All functions take a `Tx` (``store.transaction()``), so the table writes its events and its
money movements in one transaction. Batch forms (`reserve_many`, `post_many`, `release_many`)
write a whole tick of bets or a whole settlement with a handful of statements: per bet, one
movement row and the update of the player's balance rows (the hot path is plain driver
``executemany`` with tuples, see ``storage.bulk``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from studio.storage import bulk
from studio.storage.engine import Tx
from studio.storage.models import (
    CASH,
    HELD,
    HOUSE,
    PLAYER,
    LedgerAccount,
)

HOUSE_ACCOUNT = "house"
CASH_ACCOUNT = "cash"
MAX_AMOUNT = 10**15  # cents; far above any stake, far below BIGINT overflow
_ACC = LedgerAccount.__table__


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


class Known(NamedTuple):
    """What the caller knows of the reservation a post or release closes (the table keeps its
    bets in memory). Checked, never trusted: when every request of a batch says it, the batch
    is written by one statement that matches each reservation row against it, instead of
    reading the rows first; a request whose reservation differs is refused
    (``ledger.reservation_mismatch``). Not part of the movement's content."""

    player_id: str
    stake: int
    round_id: str


# One post or release as a row: (movement id, reservation id, payout or None for a release,
# and the reservation as the caller knows it: player, stake, round). The table's settlement
# hands the ledger these rows (`settle_rows`), not tens of thousands of request objects.
Close = tuple[str, str, "int | None", str, int, str]


@dataclass(frozen=True)
class Post:
    """Settle a reservation: the stake goes to the house, ``payout`` (stake + winnings, the
    stake on a push, 0 on a loss) comes from the house to the player."""

    movement_id: str
    reservation_id: str
    payout: int
    known: Known | None = None
    kind = "post"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "reservation_id": self.reservation_id, "payout": self.payout}


@dataclass(frozen=True)
class Release:
    """Void a reservation: the held money returns to the player."""

    movement_id: str
    reservation_id: str
    known: Known | None = None
    kind = "release"

    def content(self) -> dict[str, Any]:
        return {"kind": self.kind, "reservation_id": self.reservation_id}


Request = Credit | Debit | Reserve | Post | Release


def close_request(row: Close) -> Post | Release:
    """The request a `Close` row stands for."""
    mid, reservation, payout, player, stake, round_id = row
    known = Known(player, stake, round_id)
    return (Release(mid, reservation, known) if payout is None
            else Post(mid, reservation, payout, known))


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
        if request.known is not None and not _known_is_valid(request.known):
            raise LedgerError("ledger.invalid_request",
                              f"known must be Known(player_id, stake, round_id): "
                              f"{request.known!r}", mid)
    else:
        raise LedgerError("ledger.invalid_request", f"not a ledger request: {request!r}", mid)


# --- reading ---------------------------------------------------------------------------------


# A movement row as the caller sees it: a post or release shows the id of the reservation it
# closes (stored as the reservation's ``seq`` in ``closes``).
_MOV_SELECT = (
    "SELECT m.id, m.kind, m.player_id, m.amount, m.payout, r.id, m.round_id, m.balance_after, "
    "m.created_at FROM ledger_movement m LEFT JOIN ledger_movement r ON r.seq = m.closes"
)
_MOV_INSERT_COLUMNS = ("id", "kind", "round_id", "player_id", "closes", "amount", "payout",
                       "balance_after", "created_at", "player_leg", "held_leg", "house_leg",
                       "cash_leg")


def _movement(row: Any) -> Movement:
    (mid, kind, player_id, amount, payout, reservation_id, round_id, balance_after,
     created_at) = tuple(row)
    return Movement(mid, kind, player_id, int(amount), None if payout is None else int(payout),
                    reservation_id, round_id, int(balance_after), created_at)


def _movements_by_id(tx: Tx, ids: Iterable[str]) -> dict[str, Movement]:
    """Movements whose id is among ``ids``."""
    rows = bulk.select_in(tx.conn, f"{_MOV_SELECT} WHERE m.id IN {{in_}}", sorted(set(ids)))
    return {row[0]: _movement(row) for row in rows}


def movement(tx: Tx, movement_id: str) -> Movement | None:
    return _movements_by_id(tx, [movement_id]).get(movement_id)


def movements_for_round(tx: Tx, round_id: str) -> list[Movement]:
    """Every movement of a round: reserves carry the round id, posts and releases inherit it."""
    p = bulk.placeholder(tx.conn)
    rows = tx.conn.exec_driver_sql(f"{_MOV_SELECT} WHERE m.round_id = {p} ORDER BY m.id",
                                   (round_id,))
    return [_movement(r) for r in rows]


def open_reservations(
    tx: Tx, *, round_id: str | None = None, player_id: str | None = None
) -> list[Movement]:
    """Reservations not yet posted or released (e.g. to void a round after a restart)."""
    p = bulk.placeholder(tx.conn)
    sql = (f"{_MOV_SELECT} WHERE m.kind = 'reserve' AND NOT EXISTS "
           "(SELECT 1 FROM ledger_movement c WHERE c.closes = m.seq)")
    params: list[str] = []
    if round_id is not None:
        sql += f" AND m.round_id = {p}"
        params.append(round_id)
    if player_id is not None:
        sql += f" AND m.player_id = {p}"
        params.append(player_id)
    return [_movement(r) for r in tx.conn.exec_driver_sql(sql + " ORDER BY m.id", tuple(params))]


# Which legs each kind writes, in the order `entries` lists them.
_LEG_ORDER = {
    "credit": ("cash", "player"),
    "debit": ("cash", "player"),
    "reserve": ("player", "held"),
    "post": ("held", "house", "player"),
    "release": ("held", "player"),
}


def entries(tx: Tx, movement_id: str) -> list[Entry]:
    """The legs of one movement (zero legs omitted), as (account, amount) entries."""
    p = bulk.placeholder(tx.conn)
    row = tx.conn.exec_driver_sql(
        "SELECT kind, player_id, player_leg, held_leg, house_leg, cash_leg "
        f"FROM ledger_movement WHERE id = {p}", (movement_id,)).first()
    if row is None:
        return []
    kind, pid, player_leg, held_leg, house_leg, cash_leg = row
    legs = {"player": (player_account(pid), player_leg), "held": (held_account(pid), held_leg),
            "house": (HOUSE_ACCOUNT, house_leg), "cash": (CASH_ACCOUNT, cash_leg)}
    out: list[Entry] = []
    for name in _LEG_ORDER.get(kind, ("cash", "player", "held", "house")):
        account_id, value = legs[name]
        if value:
            out.append(Entry(movement_id, len(out), account_id, int(value)))
    return out


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
    """Collects the rows of one batch, then writes them with two executemany statements: the
    movement rows (legs included) and the balance updates (one per account touched).

    Legs are summed per player (available and held) and for the house and the cash desk, so a
    tick of bets builds account ids once per player, not per bet."""

    __slots__ = ("cash", "held", "house", "player", "rows", "ts", "tx")

    def __init__(self, tx: Tx) -> None:
        self.tx = tx
        self.ts = tx.now_ts()
        self.rows: list[tuple[Any, ...]] = []
        self.player: dict[str, int] = defaultdict(int)
        self.held: dict[str, int] = defaultdict(int)
        self.house = 0
        self.cash = 0

    def add(self, mid: str, kind: str, round_id: str | None, player_id: str,
            closes: int | None, reservation_id: str | None, amount: int, payout: int | None,
            balance_after: int, player_leg: int, held_leg: int, house_leg: int = 0,
            cash_leg: int = 0) -> Movement:
        """Write one movement (positional arguments: this runs once per bet)."""
        ts = self.ts
        self.rows.append((mid, kind, round_id, player_id, closes, amount, payout, balance_after,
                          ts, player_leg, held_leg, house_leg, cash_leg))
        self.player[player_id] += player_leg
        self.held[player_id] += held_leg
        self.house += house_leg
        self.cash += cash_leg
        return Movement(mid, kind, player_id, amount, payout, reservation_id, round_id,
                        balance_after, ts)

    def flush(self) -> None:
        conn = self.tx.conn
        bulk.insert_rows(conn, "ledger_movement", _MOV_INSERT_COLUMNS, self.rows)
        updates = [(v, f"{PLAYER}:{p}") for p, v in self.player.items() if v]
        updates += [(v, f"{PLAYER}:{p}:{HELD}") for p, v in self.held.items() if v]
        if self.house:
            updates.append((self.house, HOUSE_ACCOUNT))
        if self.cash:
            updates.append((self.cash, CASH_ACCOUNT))
        updates.sort(key=_second)  # the order the accounts were locked in
        bulk.execute_many(
            conn, "UPDATE ledger_account SET balance = balance + {p} WHERE id = {p}", updates)


def _second(row: tuple[Any, ...]) -> Any:
    return row[1]


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


def _reserve_is_valid(req: object) -> bool:
    """The common case checked in one expression (exact types); anything else goes through
    `_validate`, which names what is wrong (or accepts e.g. a str subclass)."""
    if type(req) is not Reserve:
        return False
    mid, pid, amount, rid = req.movement_id, req.player_id, req.amount, req.round_id
    return (type(mid) is str and 0 < len(mid) <= 200 and type(pid) is str
            and 0 < len(pid) <= 160 and ":" not in pid and type(amount) is int
            and 0 < amount <= MAX_AMOUNT
            and (rid is None or (type(rid) is str and 0 < len(rid) <= 200)))


def reserve_many(tx: Tx, requests: Sequence[Reserve]) -> list[ReserveOutcome]:
    """Reserve many bets in ``tx``; one outcome per request, in order.

    Each request (or each ``group`` of requests) is applied entirely or not at all; a refusal
    (insufficient funds, bad input, conflicting id) does not stop the other requests. Requests
    are served in order, so earlier bets of a player have first call on the player's money.
    """
    outcomes: list[ReserveOutcome | None] = [None] * len(requests)
    valid: list[int] = []
    for i, req in enumerate(requests):
        if _reserve_is_valid(req):
            valid.append(i)
            continue
        try:
            if not isinstance(req, Reserve):
                raise LedgerError("ledger.invalid_request", f"not a Reserve: {req!r}")
            _validate(req)
            valid.append(i)
        except LedgerError as e:
            outcomes[i] = ReserveOutcome(req, None, e)
    if not valid:
        return outcomes  # type: ignore[return-value]
    ids = [requests[i].movement_id for i in valid]
    if len(set(ids)) == len(ids):
        # Bets are almost never repeats: write without looking the ids up first, and let the
        # unique index on ids refuse a repeat (then the savepoint undoes the lot, and the
        # careful path below answers repeats with their first result).
        try:
            with bulk.savepoint(tx.conn, "ledger_reserve"):
                done = _reserve_valid(tx, requests, valid, outcomes[:], {})
                if any(done[i].error is not None for i in valid):
                    raise _Unsure  # a refusal might be a repeat's: only the careful path knows
                return done
        except (IntegrityError, _Unsure):
            pass
    return _reserve_valid(tx, requests, valid, outcomes,
                          _movements_by_id(tx, [requests[i].movement_id for i in valid]))


class _Unsure(Exception):
    """The optimistic attempt met something only the careful path can answer."""


def _reserve_valid(tx: Tx, requests: Sequence[Reserve], valid: list[int],
                   outcomes: list[ReserveOutcome | None], previous: Mapping[str, Movement]
                   ) -> list[ReserveOutcome]:
    """Apply the valid requests (indexes ``valid``), given the movements already stored under
    their ids (``previous``); ``outcomes`` holds the invalid ones' refusals already."""
    available = _account_balances(
        tx, [player_account(requests[i].player_id) for i in valid], lock=True)

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
    add = writer.add
    applied: dict[str, Movement] = {}
    for unit in units:
        if len(unit) == 1 and not previous and requests[unit[0]].movement_id not in applied:
            # The common case, inline: a fresh lone bet.
            i = unit[0]
            req = requests[i]
            pid, amount = req.player_id, req.amount
            acc = f"{PLAYER}:{pid}"
            have = available.get(acc, 0)
            if amount > have:
                outcomes[i] = ReserveOutcome(req, None, _insufficient(pid, amount, have,
                                                                      req.movement_id))
                continue
            left = available[acc] = have - amount
            mov = add(req.movement_id, "reserve", req.round_id, pid, None, None, amount, None,
                      left, -amount, amount)
            applied[req.movement_id] = mov
            outcomes[i] = ReserveOutcome(req, mov)
            continue
        if not previous and len(unit) <= 8:
            # Inline too: a fresh group (one command's bets) of one player, all or nothing.
            reqs = [requests[i] for i in unit]
            pid = reqs[0].player_id
            mids = {r.movement_id for r in reqs}
            if (all(r.player_id == pid for r in reqs) and len(mids) == len(reqs)
                    and not any(m in applied for m in mids)):
                acc = f"{PLAYER}:{pid}"
                have = available.get(acc, 0)
                need = 0
                for r in reqs:  # refused at the first bet the money does not cover
                    need += r.amount
                    if need > have:
                        e = _insufficient(pid, need, have, r.movement_id)
                        break
                else:
                    e = None
                if e is not None:
                    for i in unit:
                        outcomes[i] = ReserveOutcome(requests[i], None, e)
                    continue
                for i, req in zip(unit, reqs, strict=True):
                    amount = req.amount
                    have -= amount
                    mov = add(req.movement_id, "reserve", req.round_id, pid, None, None, amount,
                              None, have, -amount, amount)
                    applied[req.movement_id] = mov
                    outcomes[i] = ReserveOutcome(req, mov)
                available[acc] = have
                continue
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
            mov = add(req.movement_id, "reserve", req.round_id, pid, None, None, amount, None,
                      left, -amount, amount)
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


def _known_is_valid(known: object) -> bool:
    return (type(known) is Known and type(known.player_id) is str and type(known.stake) is int
            and type(known.round_id) is str)


def _close_is_valid(req: object) -> bool:
    """The common case of a post or release, checked in one expression (see `_validate`)."""
    kind = type(req)
    if kind is Post:
        payout = req.payout  # type: ignore[union-attr]
        if type(payout) is not int or not 0 <= payout <= MAX_AMOUNT:
            return False
    elif kind is not Release:
        return False
    mid, rid = req.movement_id, req.reservation_id  # type: ignore[union-attr]
    known = req.known  # type: ignore[union-attr]
    return (type(mid) is str and 0 < len(mid) <= 200 and type(rid) is str
            and 0 < len(rid) <= 200 and (known is None or _known_is_valid(known)))


class _Reservation(NamedTuple):
    seq: int
    kind: str
    player_id: str
    amount: int
    round_id: str | None
    closed_by: str | None  # the id of the post or release that closed it, if any


def _reservations(tx: Tx, ids: Sequence[str], *, closed_by: bool = True
                  ) -> dict[str, _Reservation]:
    """The movements named by ``ids``, each with the id of the movement that closed it (or,
    with ``closed_by=False``, without looking: the caller lets the database's unique index on
    ``closes`` refuse a second close)."""
    if closed_by:
        sql = ("SELECT r.id, r.seq, r.kind, r.player_id, r.amount, r.round_id, c.id "
               "FROM ledger_movement r LEFT JOIN ledger_movement c ON c.closes = r.seq "
               "WHERE r.id IN {in_}")
    else:
        sql = ("SELECT id, seq, kind, player_id, amount, round_id, NULL FROM ledger_movement "
               "WHERE id IN {in_}")
    rows = bulk.select_in(tx.conn, sql, sorted(set(ids)))
    return {row[0]: _Reservation(int(row[1]), row[2], row[3], int(row[4]), row[5], row[6])
            for row in rows}


def _close_many(tx: Tx, requests: Sequence[Post | Release]) -> list[Movement]:
    """Post or release reservations, all or nothing (raises `LedgerError`, applies nothing).

    A settlement is almost never a repeat, so it is first written optimistically, inside a
    savepoint, without looking up its ids and the reservations' closers beforehand: the unique
    indexes on ``id`` and ``closes`` refuse a repeated id or a second close (and a repeat may
    also show as a held balance already spent). Only then is the savepoint rolled back and the
    careful path below says which requests repeat (answered with their first result) and which
    are refused."""
    for req in requests:
        if not _close_is_valid(req):
            _validate(req)
    if len({r.movement_id for r in requests}) == len(requests):
        try:
            with bulk.savepoint(tx.conn, "ledger_close"):
                if all(r.known is not None for r in requests):
                    return _write_known_closes(tx, requests)
                reservations = _reservations(tx, [r.reservation_id for r in requests],
                                             closed_by=False)
                written = _write_closes(tx, requests, reservations)
                return [written[r.movement_id] for r in requests]
        except (IntegrityError, LedgerError):
            pass  # a repeat, a reservation already closed, a refusal: the careful path says

    previous = _movements_by_id(tx, [r.movement_id for r in requests])
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
    if fresh:
        reservations = _reservations(tx, [r.reservation_id for r in fresh])
        results.update(_write_closes(tx, fresh, reservations))
    return [results[r.movement_id] for r in requests]


def _write_closes(tx: Tx, fresh: Sequence[Post | Release],
                  reservations: Mapping[str, _Reservation]) -> dict[str, Movement]:
    """Check and write posts and releases whose ids are new: {movement id: movement}."""
    closing: dict[str, str] = {}
    need_house = False
    for req in fresh:
        res = reservations.get(req.reservation_id)
        if res is None or res.kind != "reserve":
            raise LedgerError("ledger.unknown_reservation",
                              f"no reservation {req.reservation_id!r}", req.movement_id)
        known = req.known
        if known is not None and (known.player_id, known.stake, known.round_id) != (
                res.player_id, res.amount, res.round_id):
            raise LedgerError("ledger.reservation_mismatch",
                              f"reservation {req.reservation_id!r} is not {known!r}",
                              req.movement_id)
        other_id = res.closed_by or closing.get(req.reservation_id)
        if other_id is not None:
            raise LedgerError(
                "ledger.reservation_closed",
                f"reservation {req.reservation_id!r} was already closed by {other_id!r}",
                req.movement_id,
            )
        closing[req.reservation_id] = req.movement_id
        need_house = need_house or type(req) is Post

    players = {reservations[r.reservation_id].player_id for r in fresh}
    if need_house:
        _ensure_accounts(tx, {HOUSE_ACCOUNT: (HOUSE, None)})
    bal = _account_balances(
        tx,
        [a for p in players for a in (player_account(p), held_account(p))]
        + ([HOUSE_ACCOUNT] if need_house else []),
        lock=True,
    )
    writer = _Writer(tx)
    add = writer.add
    house = bal.get(HOUSE_ACCOUNT, 0)
    results: dict[str, Movement] = {}
    for req in fresh:
        mid, res_id = req.movement_id, req.reservation_id
        res = reservations[res_id]
        pid, stake = res.player_id, res.amount
        acc, held = f"{PLAYER}:{pid}", f"{PLAYER}:{pid}:{HELD}"
        held_before = bal.get(held, 0)
        if held_before < stake:  # cannot happen unless the books were edited by hand
            raise LedgerError("ledger.inconsistent",
                              f"held account of {pid!r} is below the reservation {res_id!r}",
                              mid)
        bal[held] = held_before - stake
        if type(req) is Post:
            payout = req.payout
            # One leg per account: the house nets the stake it takes and the payout it gives.
            house_leg = stake - payout
            house += house_leg
            after = bal[acc] = bal.get(acc, 0) + payout
            results[mid] = add(mid, "post", res.round_id, pid, res.seq, res_id, stake, payout,
                               after, payout, -stake, house_leg)
        else:
            after = bal[acc] = bal.get(acc, 0) + stake
            results[mid] = add(mid, "release", res.round_id, pid, res.seq, res_id, stake, None,
                               after, stake, -stake)
    writer.flush()
    return results


# A post or release of a described reservation: the reservation's seq is found by the insert
# itself (a subquery on the unique id index); `_KNOWN_CHECK` then compares, in one scan of
# the rows just written, each with the reservation it closes.
_KNOWN_INSERT = (
    "INSERT INTO ledger_movement (id, kind, round_id, player_id, closes, amount, payout, "
    "balance_after, created_at, player_leg, held_leg, house_leg, cash_leg) VALUES ({p}, {p}, "
    "{p}, {p}, (SELECT seq FROM ledger_movement WHERE id = {p}), {p}, {p}, {p}, {p}, {p}, {p}, "
    "{p}, 0)"
)
_KNOWN_CHECK = (
    "SELECT count(*) FROM ledger_movement m LEFT JOIN ledger_movement r ON r.seq = m.closes "
    "WHERE m.seq > {p} AND m.kind IN ('post', 'release') AND (r.seq IS NULL "
    "OR r.kind <> 'reserve' OR r.player_id <> m.player_id OR r.amount <> m.amount "
    "OR r.round_id <> m.round_id OR r.round_id IS NULL)"
)


class _Unmatched(LedgerError):
    """Some reservation is not what the caller said: the careful path says which."""


def _write_known_closes(tx: Tx, requests: Sequence[Post | Release]) -> list[Movement]:
    rows = [(r.movement_id, r.reservation_id, r.payout if type(r) is Post else None,
             *r.known) for r in requests]  # type: ignore[misc]
    return _write_known_rows(tx, rows, results=True)


def _row_is_valid(row: object) -> bool:
    """A `Close` row checked in one expression; anything else takes the careful path, whose
    request objects name what is wrong."""
    if type(row) is not tuple or len(row) != 6:
        return False
    mid, res, payout, player, stake, round_id = row
    return (type(mid) is str and 0 < len(mid) <= 200 and type(res) is str
            and 0 < len(res) <= 200 and (payout is None or (
                type(payout) is int and 0 <= payout <= MAX_AMOUNT))
            and type(player) is str and type(stake) is int and type(round_id) is str)


def settle_rows(tx: Tx, rows: Sequence[Close]) -> None:
    """`settle_many` for `Close` rows, without results: the table's settlement. Written at
    once when every row is well formed, new and matches its reservation; otherwise (a repeat,
    a refusal) through `settle_many`, which answers repeats and raises what is refused."""
    if all(_row_is_valid(r) for r in rows) and len({r[0] for r in rows}) == len(rows):
        try:
            with bulk.savepoint(tx.conn, "ledger_close"):
                _write_known_rows(tx, rows, results=False)
                return
        except (IntegrityError, LedgerError):
            pass
    settle_many(tx, [close_request(r) if type(r) is tuple and len(r) == 6 else r
                     for r in rows])  # type: ignore[misc]


def _write_known_rows(tx: Tx, rows: Sequence[Close], *, results: bool) -> list[Movement]:
    """Write posts and releases (payout None) of reservations the caller described, without
    reading the reservations first: one insert per row finds its reservation, and one query
    then checks every row written against the reservation it closes (any difference:
    `_Unmatched`, and the caller's savepoint undoes the lot). A repeat or a second close meets
    the unique indexes (IntegrityError). Rows other transactions commit meanwhile (PostgreSQL)
    are checked too, and pass."""
    players = {r[3] for r in rows}
    need_house = any(r[2] is not None for r in rows)
    if need_house:
        _ensure_accounts(tx, {HOUSE_ACCOUNT: (HOUSE, None)})
    bal = _account_balances(
        tx, [a for p in players for a in (player_account(p), held_account(p))]
        + ([HOUSE_ACCOUNT] if need_house else []), lock=True)
    ts = tx.now_ts()
    sql_rows: list[tuple[Any, ...]] = []
    out: list[Movement] = []
    player_delta: dict[str, int] = defaultdict(int)
    held_delta: dict[str, int] = defaultdict(int)
    house = 0
    for mid, reservation, payout, pid, stake, round_id in rows:
        acc = f"{PLAYER}:{pid}"
        if payout is None:  # a release: the stake comes back
            kind, back, house_leg = "release", stake, 0
        else:
            kind, back, house_leg = "post", payout, stake - payout
        after = bal[acc] = bal.get(acc, 0) + back
        player_delta[pid] += back
        held_delta[pid] -= stake
        house += house_leg
        sql_rows.append((mid, kind, round_id, pid, reservation, stake, payout, after, ts, back,
                         -stake, house_leg))
        if results:
            out.append(Movement(mid, kind, pid, stake, payout, reservation, round_id, after, ts))
    for pid, delta in held_delta.items():
        if bal.get(f"{PLAYER}:{pid}:{HELD}", 0) + delta < 0:
            raise _Unmatched("ledger.inconsistent", f"held account of {pid!r} would go negative")
    p = bulk.placeholder(tx.conn)
    base = bulk.fetch(tx.conn, "SELECT coalesce(max(seq), 0) FROM ledger_movement")[0][0]
    bulk.execute_many(tx.conn, _KNOWN_INSERT, sql_rows)
    if bulk.fetch(tx.conn, _KNOWN_CHECK.format(p=p), (base,))[0][0]:
        raise _Unmatched("ledger.reservation_mismatch", "reservations are not as described")
    updates = [(v, f"{PLAYER}:{p}") for p, v in player_delta.items() if v]
    updates += [(v, f"{PLAYER}:{p}:{HELD}") for p, v in held_delta.items() if v]
    if house:
        updates.append((house, HOUSE_ACCOUNT))
    updates.sort(key=_second)  # the order the accounts were locked in
    bulk.execute_many(
        tx.conn, "UPDATE ledger_account SET balance = balance + {p} WHERE id = {p}", updates)
    return out


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
    previous = _movements_by_id(tx, [r.movement_id for r in requests])
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
        leg = req.amount if isinstance(req, Credit) else -req.amount
        if bal[acc] + leg < 0:
            raise _insufficient(req.player_id, req.amount, bal[acc], req.movement_id)
        bal[acc] += leg
        bal[CASH_ACCOUNT] -= leg
        results[req.movement_id] = writer.add(
            req.movement_id, req.kind, None, req.player_id, None, None, req.amount, None,
            bal[acc], leg, 0, 0, -leg)
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
