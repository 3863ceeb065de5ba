"""Bulk statements for the hot paths (a tick of bets, a settlement, event appends).

SQLAlchemy core spends ~8 us per row building parameters for an ``executemany`` and another
few per row fetched; handing the DBAPI driver's own cursor plain tuples (and ``fetchall``)
costs a fraction of that, which matters at 20,000+ bets/s. The statements still run on the
`Tx`'s connection, inside its transaction; driver errors are re-raised as SQLAlchemy's
(``IntegrityError`` etc.), as if SQLAlchemy had run them. The SQL here is portable (SQLite and
PostgreSQL); only the placeholder differs (``?`` vs ``%s``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

CHUNK = 500  # values per IN (...) list: well under SQLite's and PostgreSQL's parameter limits


def placeholder(conn: Connection) -> str:
    return "?" if conn.dialect.paramstyle in ("qmark", "numeric") else "%s"


def _run(conn: Connection, sql: str, params: Any, *, many: bool = False,
         fetch: bool = False) -> Any:
    """Run one statement on the driver's cursor of ``conn``: the rows if ``fetch``, else the
    number of rows it changed (summed over an executemany by both drivers)."""
    cursor = conn.connection.cursor()
    try:
        if many:
            cursor.executemany(sql, params)
        else:
            cursor.execute(sql, params)
        return cursor.fetchall() if fetch else cursor.rowcount
    except conn.dialect.loaded_dbapi.Error as e:
        raise DBAPIError.instance(sql, params if not many else None, e,
                                  conn.dialect.loaded_dbapi.Error,
                                  dialect=conn.dialect) from e
    finally:
        cursor.close()


def insert_rows(conn: Connection, table: str, columns: Sequence[str],
                rows: Sequence[tuple[Any, ...]]) -> None:
    """INSERT many rows given as tuples in ``columns`` order, with one executemany."""
    if not rows:
        return
    p = placeholder(conn)
    cols = ", ".join(f'"{c}"' for c in columns)
    sql = f"INSERT INTO {table} ({cols}) VALUES ({', '.join([p] * len(columns))})"
    _run(conn, sql, rows, many=True)


def execute_many(conn: Connection, sql: str, rows: Sequence[tuple[Any, ...]]) -> int:
    """Run one statement (written with ``{p}`` for each placeholder) for many parameter rows;
    the number of rows changed."""
    if not rows:
        return 0
    return int(_run(conn, sql.format(p=placeholder(conn)), rows, many=True))


def fetch(conn: Connection, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """All rows of one statement (written with the driver's placeholders)."""
    return _run(conn, sql, tuple(params), fetch=True)


def select_in(conn: Connection, sql: str, values: Sequence[Any], *, suffix: str = ""
              ) -> list[Any]:
    """Rows of ``sql`` (which contains ``{in_}`` where the ``IN (...)`` list goes) for all
    ``values``, chunked; ``suffix`` is appended to each chunk's statement."""
    p = placeholder(conn)
    found: list[Any] = []
    for start in range(0, len(values), CHUNK):
        chunk = values[start : start + CHUNK]
        in_list = "(" + ", ".join([p] * len(chunk)) + ")"
        found.extend(_run(conn, sql.format(in_=in_list) + suffix, tuple(chunk), fetch=True))
    return found


def select_by_pairs(conn: Connection, table: str, columns: Sequence[str],
                    key: tuple[str, str], pairs: Sequence[tuple[Any, Any]]
                    ) -> list[Any]:
    """``columns`` of the rows of ``table`` whose two-column ``key`` is among ``pairs``.

    Written as a join with a VALUES list: SQLite answers ``(a, b) IN (VALUES ...)`` with a
    full table scan, but probes the primary key once per pair for the join.
    """
    p = placeholder(conn)
    cols = ", ".join(f't."{c}"' for c in columns)
    found: list[Any] = []
    for start in range(0, len(pairs), CHUNK):
        chunk = pairs[start : start + CHUNK]
        values = ", ".join([f"({p}, {p})"] * len(chunk))
        sql = (f"WITH wanted(k1, k2) AS (VALUES {values}) SELECT {cols} FROM wanted "
               f'JOIN {table} t ON t."{key[0]}" = wanted.k1 AND t."{key[1]}" = wanted.k2')
        found.extend(_run(conn, sql, tuple(x for pr in chunk for x in pr), fetch=True))
    return found


@contextmanager
def savepoint(conn: Connection, name: str) -> Iterator[None]:
    """A savepoint inside the current transaction: on an exception, what the block wrote is
    undone (the transaction goes on, on PostgreSQL too) and the exception propagates."""
    _run(conn, f"SAVEPOINT {name}", ())
    try:
        yield
    except BaseException:
        _run(conn, f"ROLLBACK TO SAVEPOINT {name}", ())
        _run(conn, f"RELEASE SAVEPOINT {name}", ())
        raise
    _run(conn, f"RELEASE SAVEPOINT {name}", ())
