"""Copy SQLite's write-ahead log into the database file from a thread of its own.

In WAL mode a commit appends the transaction's pages to the ``-wal`` file and (with
``synchronous=FULL``) fsyncs it: that is what makes an acknowledged bet durable. Copying those
pages back into the database file (a *checkpoint*) is housekeeping; SQLite by default does it
inside whichever commit crosses ``wal_autocheckpoint`` pages, so every few ticks one bet batch
would wait for a checkpoint (random writes to the database file and its fsync) on top of its
own commit. Here a daemon thread runs ``PRAGMA wal_checkpoint(PASSIVE)`` on its own connection
after commits instead; sqlite3 releases the GIL while it works, so it uses the other core.
PASSIVE never blocks writers or readers; the writers keep a large ``wal_autocheckpoint`` as a
backstop should this thread fall behind.
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine

log = logging.getLogger(__name__)
MIN_INTERVAL_S = 0.05  # at most ~20 checkpoints (each an fsync of the database file) a second


class Checkpointer:
    """Checkpoints the WAL of ``engine``'s SQLite file after commits (see the module doc)."""

    def __init__(self, engine: Engine, min_interval_s: float = MIN_INTERVAL_S) -> None:
        self.engine = engine
        self.min_interval_s = min_interval_s
        self.checkpoints = 0
        self.last_result: tuple[int, int, int] | None = None  # (busy, wal pages, copied)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def notify(self) -> None:
        """A transaction committed: checkpoint soon (starts the thread on first use)."""
        if self._thread is None:
            with self._lock:
                if self._thread is None and not self._stop.is_set():
                    self._thread = threading.Thread(target=self._run, daemon=True,
                                                    name="sqlite-checkpoint")
                    self._thread.start()
        self._wake.set()

    def checkpoint(self) -> tuple[int, int, int]:
        """One PASSIVE checkpoint now: (busy, pages in the WAL, pages copied)."""
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            row = cur.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            cur.close()
        finally:
            conn.close()
        self.checkpoints += 1
        self.last_result = (int(row[0]), int(row[1]), int(row[2]))
        return self.last_result

    def _run(self) -> None:
        while True:
            self._wake.wait()
            if self._stop.is_set():
                return
            self._wake.clear()
            try:
                self.checkpoint()
            except Exception:  # housekeeping: the writers' backstop still checkpoints
                log.warning("background WAL checkpoint failed", exc_info=True)
            if self._stop.wait(self.min_interval_s):  # let commits gather between checkpoints
                return

    def close(self) -> None:
        """Stop the thread (after a last checkpoint if it was running)."""
        self._stop.set()
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join()
