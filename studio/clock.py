"""Time for the tables: `now()` and timers, injected so tests are exact and never sleep.

Production timers run on APScheduler (`SchedulerClock`); tests and simulations use
`ManualClock`, whose time moves only when told to, firing due timers in order. Timer callbacks
only post commands to a table's inbox, so the table actor stays the single writer.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""

    def call_at(self, when: float, callback: Callable[[], None], name: str = "") -> Timer:
        """Run `callback` at time `when` (or at once if it has passed)."""


class _ManualTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when `advance` or `set` is called."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, _ManualTimer, Callable[[], None], str]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None], name: str = "") -> _ManualTimer:
        timer = _ManualTimer()
        heapq.heappush(self._heap, (when, next(self._seq), timer, callback, name))
        return timer

    def pending(self) -> list[tuple[float, str]]:
        return sorted((w, n) for w, _, t, _, n in self._heap if not t.cancelled)

    def next_due(self) -> float | None:
        live = [w for w, _, t, _, _ in self._heap if not t.cancelled]
        return min(live) if live else None

    def set(self, when: float) -> int:
        """Move to `when`, firing every timer due by then in order; returns how many fired."""
        fired = 0
        while self._heap and self._heap[0][0] <= when:
            due, _, timer, callback, _ = heapq.heappop(self._heap)
            if timer.cancelled:
                continue
            self._now = max(self._now, due)
            fired += 1
            callback()
        self._now = max(self._now, when)
        return fired

    def advance(self, seconds: float) -> int:
        return self.set(self._now + seconds)


class _JobTimer:
    def __init__(self, job) -> None:  # apscheduler Job
        self.job = job

    def cancel(self) -> None:
        from apscheduler.jobstores.base import JobLookupError

        try:
            self.job.remove()
        except JobLookupError:  # already run or removed: nothing to cancel
            return


class SchedulerClock:
    """Wall-clock time with timers on APScheduler's asyncio scheduler.

    APScheduler runs plain (non-coroutine) jobs in a thread pool, so each callback is handed
    back to the event loop with call_soon_threadsafe: timers post to asyncio queues, which are
    not thread-safe.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        self.loop = loop or asyncio.get_running_loop()
        self.scheduler = AsyncIOScheduler(timezone=UTC, event_loop=self.loop)
        self.scheduler.start()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None], name: str = "") -> _JobTimer:
        from apscheduler.triggers.date import DateTrigger

        loop = self.loop
        job = self.scheduler.add_job(
            loop.call_soon_threadsafe, DateTrigger(run_date=datetime.fromtimestamp(when, UTC)),
            args=[callback], name=name or "timer", misfire_grace_time=None, coalesce=True)
        return _JobTimer(job)

    def shutdown(self) -> None:
        self.scheduler.shutdown(wait=False)
