"""The event loop a studio process runs on.

`studio serve` (a table process, an edge, or both in one) runs on uvloop when it is installed:
its transports write and read in C, and an edge's work per card is one socket write per
player, so a card reaches 10,000 players in a fraction of the time of asyncio's own loop
(tests/bench/bench_cluster.py). STUDIO_EVENT_LOOP=asyncio keeps the standard loop (to compare,
or if uvloop misbehaves on a platform).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop when installed and not turned off; None: asyncio's."""
    if os.environ.get("STUDIO_EVENT_LOOP", "uvloop") == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def name() -> str:
    """The loop `run` uses, for the log line at start-up."""
    return "asyncio" if loop_factory() is None else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(main), on the loop `loop_factory` picks."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
