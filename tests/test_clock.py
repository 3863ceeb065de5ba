"""The production clock: APScheduler timers, delivered on the event loop's own thread."""

import asyncio
import threading
import time

from studio.clock import ManualClock, SchedulerClock


async def test_scheduler_timer_runs_on_the_event_loop_thread():
    clock = SchedulerClock()
    fired: asyncio.Future = asyncio.get_running_loop().create_future()
    clock.call_at(time.time(), lambda: fired.set_result(threading.get_ident()))
    try:
        assert await asyncio.wait_for(fired, timeout=10) == threading.get_ident()
    finally:
        clock.shutdown()


async def test_a_cancelled_scheduler_timer_never_fires():
    clock = SchedulerClock()
    hits: list[str] = []
    t = clock.call_at(time.time() + 3600, lambda: hits.append("late"))
    t.cancel()
    t.cancel()  # twice is harmless
    clock.shutdown()
    assert hits == []


def test_manual_clock_fires_due_timers_in_order_and_skips_cancelled():
    clock = ManualClock(start=100.0)
    seen: list[str] = []
    clock.call_at(105.0, lambda: seen.append("b"))
    clock.call_at(102.0, lambda: seen.append("a"))
    clock.call_at(103.0, lambda: seen.append("x")).cancel()
    assert clock.advance(4) == 1 and seen == ["a"] and clock.now() == 104.0
    assert clock.advance(1) == 1 and seen == ["a", "b"]
