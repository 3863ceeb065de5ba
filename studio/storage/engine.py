"""The engine and the unit of work.

One `Store` per process owns the SQLAlchemy engine and the clock. Every write goes through
``with store.transaction() as tx:``; the ledger, the event log and the idempotency store all take
that `Tx`, so a bet's events, its reservation and the answer remembered for its command commit
together or not at all.

SQLite (the default, a file) is opened in WAL mode with ``synchronous=FULL``: in WAL mode FULL
fsyncs the log at every commit, so a transaction the table has acknowledged (a bet accepted, a
win paid) survives a power cut; NORMAL would only survive a crash of the process and could lose
the last acknowledged commits. The batch APIs make one commit carry a whole tick of bets, so the
fsync is paid per tick, not per bet (see tests/bench/bench_ledger.py). ``foreign_keys=ON`` because
SQLite leaves them off by default. Write transactions start with ``BEGIN IMMEDIATE`` so a second
writer waits (busy_timeout) at BEGIN instead of failing half-way when it upgrades its lock.
Checkpoints (copying the WAL back into the database file) run in a background thread
(``storage.checkpoint``), not inside the commits of bets.

PostgreSQL runs the same code (``postgresql+psycopg://...``); account rows are locked
``FOR UPDATE`` where the ledger reads a balance it will change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DDL, Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session
from sqlmodel import SQLModel

from studio.storage.checkpoint import Checkpointer
from studio.storage.models import APPEND_ONLY_TABLES, STORAGE_TABLES

Clock = Callable[[], datetime]
SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
# New files only (SQLite fixes the page size when a database is created). Each bet inserts into
# three B-trees at random places (movement ids, idempotency keys, balances), so a commit writes
# about one page per bet per tree to the WAL: 2 KiB pages write 30% fewer bytes per bet than the
# default 4 KiB at no CPU cost measured (tests/bench/bench_ledger.py).
PAGE_SIZE = 2048
CACHE_KIB = 32 * 1024  # per connection: a betting window's hot pages stay in memory
# With the background checkpointer, commits checkpoint only past this many WAL pages (a
# backstop: the thread normally keeps the WAL far below it).
BACKSTOP_AUTOCHECKPOINT = 16_384


class StorageError(Exception):
    """A storage request that cannot be honoured. ``code`` is stable; the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def utc_now() -> datetime:
    """The default clock. Tests inject their own."""
    return datetime.now(UTC)


def format_ts(moment: datetime) -> str:
    """ISO-8601 UTC with microseconds and ``Z``: fixed width, so text order is time order."""
    if moment.tzinfo is None:
        raise StorageError("storage.naive_timestamp", "the clock must return aware datetimes")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- append-only triggers -------------------------------------------------------------------

# (DDL() applies %-formatting, hence the doubled %% below.)
_PG_REFUSE_FUNCTION = """
CREATE OR REPLACE FUNCTION studio_refuse_history_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'storage.append_only: %% on %% is refused: history is append-only',
        TG_OP, TG_TABLE_NAME;
END
$$ LANGUAGE plpgsql
"""


def _install_append_only_triggers() -> None:
    """Refuse UPDATE and DELETE (and TRUNCATE on PostgreSQL) on history tables, in the database
    itself, so even raw SQL cannot rewrite history. Attached to ``after_create`` so any
    ``create_all`` of these tables installs them."""
    tables = {t.name: t for t in STORAGE_TABLES}
    for name in APPEND_ONLY_TABLES:
        table = tables[name]
        for op in ("UPDATE", "DELETE"):
            sqlite_ddl = (
                f"CREATE TRIGGER IF NOT EXISTS {name}_no_{op.lower()} BEFORE {op} ON {name} "
                f"BEGIN SELECT RAISE(ABORT, 'storage.append_only: {op} on {name} is refused: "
                "history is append-only'); END"
            )
            event.listen(table, "after_create", DDL(sqlite_ddl).execute_if(dialect="sqlite"))
        event.listen(
            table, "after_create", DDL(_PG_REFUSE_FUNCTION).execute_if(dialect="postgresql")
        )
        pg_rows = (
            f"CREATE OR REPLACE TRIGGER {name}_no_change BEFORE UPDATE OR DELETE ON {name} "
            "FOR EACH ROW EXECUTE FUNCTION studio_refuse_history_change()"
        )
        pg_truncate = (
            f"CREATE OR REPLACE TRIGGER {name}_no_truncate BEFORE TRUNCATE ON {name} "
            "FOR EACH STATEMENT EXECUTE FUNCTION studio_refuse_history_change()"
        )
        for ddl in (pg_rows, pg_truncate):
            event.listen(table, "after_create", DDL(ddl).execute_if(dialect="postgresql"))


_install_append_only_triggers()


# --- engine ---------------------------------------------------------------------------------


def make_engine(url: str, *, synchronous: str = "FULL", schema: str | None = None,
                wal_autocheckpoint: int = 1000) -> Engine:
    """An engine for ``url`` with the studio's connection settings.

    ``synchronous`` and ``wal_autocheckpoint`` apply to SQLite only (see the module docstring
    for why FULL; ``Store.open`` raises the autocheckpoint when a `Checkpointer` runs).
    ``schema`` (PostgreSQL only) sets the ``search_path``: tests use a fresh schema each.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        mode = synchronous.upper()
        if mode not in SYNCHRONOUS_MODES:
            raise StorageError("storage.bad_setting", f"synchronous must be one of {SYNCHRONOUS_MODES}")
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        _configure_sqlite(engine, mode, wal_autocheckpoint)
        return engine
    connect_args: dict[str, Any] = {}
    if schema is not None:
        connect_args["options"] = f"-csearch_path={schema}"
    return create_engine(url, connect_args=connect_args, pool_pre_ping=True)


def _configure_sqlite(engine: Engine, synchronous: str, wal_autocheckpoint: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event (below) issue BEGIN itself: pysqlite's own implicit
        # transactions start late and cannot say IMMEDIATE.
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute(f"PRAGMA page_size={PAGE_SIZE}")  # before WAL: a no-op on an existing file
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        cur.execute(f"PRAGMA wal_autocheckpoint={int(wal_autocheckpoint)}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("studio_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")


# --- unit of work ---------------------------------------------------------------------------


class Tx:
    """One database transaction: the connection, the clock, and work to run after commit.

    Pass it to ``studio.ledger`` functions and use its event/idempotency helpers; everything done
    through one `Tx` commits atomically when the ``with`` block ends without an exception.
    """

    def __init__(self, store: Store, conn: Connection) -> None:
        self.store = store
        self.conn = conn
        self.cache: dict[str, Any] = {}  # per-transaction state (e.g. stream heads)
        self._after_commit: list[Callable[[], None]] = []
        self._session: Session | None = None

    @property
    def dialect(self) -> str:
        return self.conn.dialect.name

    def now(self) -> datetime:
        return self.store.clock()

    def now_ts(self) -> str:
        return format_ts(self.store.clock())

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (e.g. publish its events)."""
        self._after_commit.append(callback)

    def session(self) -> Session:
        """An ORM session on this transaction's connection, for code that prefers the ORM."""
        if self._session is None:
            self._session = Session(bind=self.conn, expire_on_commit=False)
        return self._session

    # Conveniences so the table can write ``tx.append_events(...)``; the functions live in
    # their modules.
    def append_events(self, events: Any, *, stored: bool = True) -> list[Any]:
        from studio.storage import event_log

        return event_log.append(self, events, stored=stored)

    def remember(self, actor: str, key: str, answer: Any) -> None:
        from studio.storage import idempotency

        idempotency.remember(self, actor, key, answer)

    def recall(self, actor: str, key: str) -> Any | None:
        from studio.storage import idempotency

        return idempotency.recall(self, actor, key)

    def _flush(self) -> None:
        if self._session is not None:
            self._session.flush()


class Store:
    """The database of the studio: an engine, a clock and transactions."""

    def __init__(self, engine: Engine, clock: Clock = utc_now,
                 checkpointer: Checkpointer | None = None) -> None:
        self.engine = engine
        self.clock = clock
        self.checkpointer = checkpointer

    @classmethod
    def open(
        cls,
        url: str,
        *,
        clock: Clock = utc_now,
        synchronous: str = "FULL",
        schema: str | None = None,
        create: bool = True,
        background_checkpoint: bool = True,
    ) -> Store:
        """Open (and by default create the tables of) the database at ``url``.

        On a SQLite file, ``background_checkpoint`` moves WAL checkpoints off the commit path
        (see ``storage.checkpoint``)."""
        parsed = make_url(url)
        on_file = parsed.get_backend_name() == "sqlite" and parsed.database not in (
            None, "", ":memory:")
        background = background_checkpoint and on_file
        engine = make_engine(url, synchronous=synchronous, schema=schema,
                             wal_autocheckpoint=BACKSTOP_AUTOCHECKPOINT if background else 1000)
        store = cls(engine, clock, Checkpointer(engine) if background else None)
        if create:
            store.create_schema()
        return store

    def create_schema(self) -> None:
        """Create the storage tables and their append-only triggers if they are missing."""
        SQLModel.metadata.create_all(self.engine, tables=STORAGE_TABLES)

    def drop_schema(self) -> None:
        """Drop the storage tables (tests and tooling only)."""
        SQLModel.metadata.drop_all(self.engine, tables=STORAGE_TABLES)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """A write transaction: commit on normal exit, roll back on exception."""
        with self.engine.connect() as conn:
            conn.execution_options(studio_begin="IMMEDIATE")
            tx = Tx(self, conn)
            with conn.begin():
                yield tx
                tx._flush()
            callbacks, tx._after_commit = tx._after_commit, []
        if self.checkpointer is not None:
            self.checkpointer.notify()
        for callback in callbacks:
            callback()

    @contextmanager
    def reader(self) -> Iterator[Tx]:
        """A read transaction (a consistent snapshot on SQLite's WAL and on PostgreSQL's
        REPEATABLE READ); nothing written in it is meant to be kept."""
        with self.engine.connect() as conn:
            conn.execution_options(studio_begin="DEFERRED")
            if conn.dialect.name == "postgresql":
                conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin() as trans:
                yield Tx(self, conn)
                trans.rollback()

    def dispose(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.engine.dispose()
