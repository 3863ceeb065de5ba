"""Timers that fire on the event loop, whatever thread the scheduler runs them in.

APScheduler's asyncio scheduler runs a plain (non-coroutine) job in the loop's default thread
pool executor, so a `SchedulerClock` callback runs in a worker thread. The table actor's and
the sessions' callbacks touch asyncio queues, which are not thread-safe; this wrapper hands
each callback back to the loop with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from studio.clock import Clock, Timer


class LoopClock:
    def __init__(self, inner: Clock, loop: asyncio.AbstractEventLoop) -> None:
        self.inner = inner
        self.loop = loop

    def now(self) -> float:
        return self.inner.now()

    def call_at(self, when: float, callback: Callable[[], None], name: str = "") -> Timer:
        return self.inner.call_at(when, lambda: self.loop.call_soon_threadsafe(callback),
                                  name or "timer")
