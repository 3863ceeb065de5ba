"""Durable storage of the studio: one SQLModel schema (SQLite file by default, PostgreSQL by URL).

- ``engine``: the engine with its pragmas, the `Store` and its unit of work (`Tx`);
- ``models``: the tables (ledger accounts, movements with their legs; the event log;
  idempotency);
- ``event_log``: the append-only, hash-chained log of events;
- ``idempotency``: the first answer to each (actor, key) command;
- ``audit``: checks of the chain, the books and the replay of rounds.

The money rules live in ``studio.ledger``; they write through the same `Tx`, so events and the
money movements they cause commit together or not at all.
"""

from studio.storage.engine import StorageError, Store, Tx, make_engine, utc_now

__all__ = ["StorageError", "Store", "Tx", "make_engine", "utc_now"]
