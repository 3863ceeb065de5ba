"""Shared fixtures.

Storage: the ``store`` fixture runs a test on a fresh SQLite file (WAL) and, when
STUDIO_TEST_DATABASE_URL names a PostgreSQL database, once more on PostgreSQL inside a schema
created for that test alone and dropped after it (engineers share that database).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from studio.storage import Store

POSTGRES_URL = os.environ.get("STUDIO_TEST_DATABASE_URL") or None
DATABASES = ["sqlite"] + (
    [pytest.param("postgresql", marks=pytest.mark.postgres)] if POSTGRES_URL else []
)


class ManualClock:
    """A clock the test moves by hand: exact timestamps, no sleeping."""

    def __init__(self, start: datetime = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def store_clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'studio.db'}"


@pytest.fixture(params=DATABASES)
def store(request: pytest.FixtureRequest, sqlite_url: str, store_clock: ManualClock
          ) -> Iterator[Store]:
    """An empty studio database with its tables, on each available database."""
    if request.param == "sqlite":
        s = Store.open(sqlite_url, clock=store_clock)
        yield s
        s.dispose()
        return
    assert POSTGRES_URL is not None
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(POSTGRES_URL)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        s = Store.open(POSTGRES_URL, clock=store_clock, schema=schema)
        yield s
        s.dispose()
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()
