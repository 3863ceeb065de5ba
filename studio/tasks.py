"""Stopping background tasks the one way every part of the studio does it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def cancel(task: asyncio.Task[Any] | None) -> None:
    """Cancel a loop task and wait until it has finished (its `finally` blocks run before the
    caller closes what the task was using); None or a finished task is fine."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
