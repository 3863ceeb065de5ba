"""The tables. SQLModel classes so the rest of the studio can read them with the ORM; the hot
paths (batches of bets, settlement, event appends) write through ``Model.__table__`` with
SQLAlchemy core ``executemany``, which is an order of magnitude faster than ORM unit-of-work.

Timestamps are ISO-8601 UTC text (``2026-11-22T05:34:23.123456Z``): the same bytes on SQLite
and PostgreSQL, so the event hash computed at write time is reproducible at audit time.
Money columns are BIGINT cents.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Index,
    Integer,
    Text,
    UniqueConstraint,
    text,
)
from sqlmodel import Field, SQLModel

# Account kinds. Players' available money and the money held for their open bets are separate
# accounts so that every two-phase step is an ordinary balanced movement. Their ids are
# ``player:<id>`` and ``player:<id>:held``: adjacent in the primary key, so a bet updates one
# page, not two.
PLAYER = "player"  # a player's available balance (never negative)
HELD = "held"  # a player's reserved funds: open bets (never negative)
HOUSE = "house"  # the studio's bank: receives lost stakes, pays winnings (may go negative)
CASH = "cash"  # operator cash desk: the other side of deposits and withdrawals
# Tables where players are each other's counterparties (a player banks for the others) keep the
# money on the table in accounts of its own, moved by transfers (``ledger_transfers``):
SEAT = "seat"  # a player's table credit at one table, bought in from its account (never < 0)
POOL = "pool"  # money a table holds between players, e.g. a bank put up by a player (never < 0)
RAKE = "rake"  # the operator's fee taken on players' wins at such tables
ACCOUNT_KINDS = (PLAYER, HELD, HOUSE, CASH, SEAT, POOL, RAKE)
NON_NEGATIVE_KINDS = (PLAYER, HELD, SEAT, POOL)


class LedgerAccount(SQLModel, table=True):
    """One balance row per account, updated in the same transaction as the movement rows.

    ``balance`` is a cache of the sum of the account's legs in ``ledger_movement``; `audit`
    proves they agree. WITHOUT ROWID on SQLite: one B-tree keyed by ``id`` (a rowid table would
    add a second B-tree for the text primary key that every balance update must search).
    """

    __tablename__ = "ledger_account"
    __table_args__ = (
        CheckConstraint(
            "kind IN ('player', 'held', 'house', 'cash', 'seat', 'pool', 'rake')",
            name="ck_ledger_account_kind"
        ),
        # Backstop of ledger.insufficient_funds: even a bug cannot make a player owe money.
        CheckConstraint(
            "kind NOT IN ('player', 'held', 'seat', 'pool') OR balance >= 0",
            name="ck_ledger_account_nonneg"
        ),
        {"sqlite_with_rowid": False},
    )

    id: str = Field(primary_key=True, max_length=200)
    kind: str = Field(max_length=16)
    player_id: str | None = Field(default=None, max_length=160)
    balance: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    created_at: str = Field(max_length=32)


# The four legs of a movement, one column per account it can touch: the player's available
# account (``player:<player_id>``), the player's held account, the house and the cash desk. A
# movement of this studio never touches another account, so one row holds the whole double
# entry and the database checks that it balances (ck_ledger_movement_balanced).
LEG_COLUMNS = ("player_leg", "held_leg", "house_leg", "cash_leg")


class LedgerMovement(SQLModel, table=True):
    """One movement (credit, debit, reserve, post, release) with its legs, identified by the
    caller's id.

    Immutable once written (a trigger refuses UPDATE/DELETE). ``seq`` (the rowid on SQLite)
    orders movements by insertion, so appends touch the end of the table. A post or release
    names the reservation it closes by ``closes`` (the reservation's ``seq``); a partial UNIQUE
    index on it makes "closed at most once" a property of the database, not only of the code.
    Double entry: ``player_leg + held_leg + house_leg + cash_leg = 0`` is a CHECK constraint.
    """

    __tablename__ = "ledger_movement"
    __table_args__ = (
        Index("uq_ledger_movement_id", "id", unique=True),
        Index("uq_ledger_movement_closes", "closes", unique=True,
              sqlite_where=text("closes IS NOT NULL"),
              postgresql_where=text("closes IS NOT NULL")),
        Index("ix_ledger_movement_round", "round_id"),
        CheckConstraint(
            "kind IN ('credit', 'debit', 'reserve', 'post', 'release', 'transfer')",
            name="ck_ledger_movement_kind",
        ),
        CheckConstraint(
            "player_leg + held_leg + house_leg + cash_leg = 0",
            name="ck_ledger_movement_balanced",
        ),
    )

    seq: int | None = Field(
        default=None,
        sa_column=Column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                         autoincrement=True),
    )
    id: str = Field(max_length=200)
    kind: str = Field(max_length=16)
    round_id: str | None = Field(default=None, max_length=200)
    player_id: str = Field(max_length=160)
    closes: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))
    payout: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    # The player's available balance right after this movement (what the caller was answered).
    balance_after: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: str = Field(max_length=32)
    player_leg: int = Field(sa_column=Column(BigInteger, nullable=False))
    held_leg: int = Field(sa_column=Column(BigInteger, nullable=False))
    house_leg: int = Field(sa_column=Column(BigInteger, nullable=False))
    cash_leg: int = Field(sa_column=Column(BigInteger, nullable=False))


class LedgerLeg(SQLModel, table=True):
    """One leg of a transfer: a movement between any accounts (kind ``transfer``), e.g. a
    hand at a table where players bank for each other moves money between several players'
    table credits, the table's pool and the rake account at once. The movement row carries
    zero in its four fixed legs; its legs are here, and they sum to zero (audited)."""

    __tablename__ = "ledger_leg"
    __table_args__ = (
        Index("ix_ledger_leg_movement", "movement_seq"),
        Index("ix_ledger_leg_account", "account_id"),
    )

    seq: int | None = Field(
        default=None,
        sa_column=Column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
                         autoincrement=True),
    )
    movement_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    account_id: str = Field(max_length=200)
    amount: int = Field(sa_column=Column(BigInteger, nullable=False))


class EventRecord(SQLModel, table=True):
    """One event of the append-only log.

    ``seq`` orders all streams (autoincrement). The hash chain runs per stream (one stream per
    table: one writer, no contention between tables): ``stream_seq`` counts 1, 2, 3... and
    ``prev_hash`` is the ``hash`` of the previous event of the stream (64 zeros for the first).
    """

    __tablename__ = "event_log"
    __table_args__ = (
        UniqueConstraint("stream_id", "stream_seq", name="uq_event_log_stream_seq"),
        Index("ix_event_log_round", "round_id"),
    )

    seq: int | None = Field(default=None, primary_key=True)
    stream_id: str = Field(max_length=120)
    stream_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    round_id: str | None = Field(default=None, max_length=200)
    type: str = Field(max_length=120)
    payload: str = Field(sa_column=Column(Text, nullable=False))  # canonical JSON
    ts: str = Field(max_length=32)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)


class IdempotencyRecord(SQLModel, table=True):
    """The first answer given to a command, keyed by (actor, idempotency key)."""

    __tablename__ = "idempotency_record"
    # One B-tree keyed by (actor, key) instead of a rowid table plus an index.
    __table_args__ = {"sqlite_with_rowid": False}

    actor: str = Field(primary_key=True, max_length=160)
    key: str = Field(primary_key=True, max_length=200)
    answer: str = Field(sa_column=Column(Text, nullable=False))  # canonical JSON
    created_at: str = Field(max_length=32)


# Tables whose rows are history: the database itself refuses UPDATE and DELETE on them.
APPEND_ONLY_TABLES = ("event_log", "ledger_movement", "ledger_leg")

STORAGE_TABLES = [
    LedgerAccount.__table__,
    LedgerMovement.__table__,
    LedgerLeg.__table__,
    EventRecord.__table__,
    IdempotencyRecord.__table__,
]
