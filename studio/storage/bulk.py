"""Bulk statements for the hot paths (a tick of bets, a settlement, event appends).

SQLAlchemy core spends ~8 us per row building parameters for an ``executemany``; handing the
DBAPI driver plain tuples costs a fraction of that, which matters at 20,000+ bets/s. The SQL
here is portable (SQLite and PostgreSQL); only the placeholder differs (``?`` vs ``%s``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

CHUNK = 500  # values per IN (...) list: well under SQLite's and PostgreSQL's parameter limits


def placeholder(conn: Connection) -> str:
    return "?" if conn.dialect.paramstyle in ("qmark", "numeric") else "%s"


def insert_rows(conn: Connection, table: str, columns: Sequence[str],
                rows: Sequence[tuple[Any, ...]]) -> None:
    """INSERT many rows given as tuples in ``columns`` order, with one executemany."""
    if not rows:
        return
    p = placeholder(conn)
    cols = ", ".join(f'"{c}"' for c in columns)
    sql = f"INSERT INTO {table} ({cols}) VALUES ({', '.join([p] * len(columns))})"
    conn.exec_driver_sql(sql, list(rows))


def execute_many(conn: Connection, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """Run one statement (written with ``{p}`` for each placeholder) for many parameter rows."""
    if rows:
        conn.exec_driver_sql(sql.format(p=placeholder(conn)), list(rows))


def select_in(conn: Connection, sql: str, values: Sequence[Any], *, suffix: str = ""
              ) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (which contains ``{in_}`` where the ``IN (...)`` list goes) for all
    ``values``, chunked; ``suffix`` is appended to each chunk's statement."""
    p = placeholder(conn)
    found: list[tuple[Any, ...]] = []
    for start in range(0, len(values), CHUNK):
        chunk = values[start : start + CHUNK]
        in_list = "(" + ", ".join([p] * len(chunk)) + ")"
        found.extend(tuple(r) for r in conn.exec_driver_sql(sql.format(in_=in_list) + suffix,
                                                             tuple(chunk)))
    return found


def select_by_pairs(conn: Connection, table: str, columns: Sequence[str],
                    key: tuple[str, str], pairs: Sequence[tuple[Any, Any]]
                    ) -> list[tuple[Any, ...]]:
    """``columns`` of the rows of ``table`` whose two-column ``key`` is among ``pairs``.

    Written as a join with a VALUES list: SQLite answers ``(a, b) IN (VALUES ...)`` with a
    full table scan, but probes the primary key once per pair for the join.
    """
    p = placeholder(conn)
    cols = ", ".join(f't."{c}"' for c in columns)
    found: list[tuple[Any, ...]] = []
    for start in range(0, len(pairs), CHUNK):
        chunk = pairs[start : start + CHUNK]
        values = ", ".join([f"({p}, {p})"] * len(chunk))
        sql = (f"WITH wanted(k1, k2) AS (VALUES {values}) SELECT {cols} FROM wanted "
               f'JOIN {table} t ON t."{key[0]}" = wanted.k1 AND t."{key[1]}" = wanted.k2')
        found.extend(tuple(r) for r in conn.exec_driver_sql(sql, tuple(x for pr in chunk
                                                                         for x in pr)))
    return found
