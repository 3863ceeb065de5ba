"""`studio serve` runs on uvloop (studio/event_loop.py): an edge's cost per card is a write per
player, and uvloop's transports do it in C; STUDIO_EVENT_LOOP=asyncio keeps asyncio's loop."""

from __future__ import annotations

import asyncio

from studio import event_loop


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_serve_runs_on_uvloop_by_default(monkeypatch):
    monkeypatch.delenv("STUDIO_EVENT_LOOP", raising=False)
    assert event_loop.name() == "uvloop"
    assert event_loop.run(_loop_module()).startswith("uvloop")


def test_the_standard_loop_when_asked(monkeypatch):
    monkeypatch.setenv("STUDIO_EVENT_LOOP", "asyncio")
    assert event_loop.name() == "asyncio"
    assert event_loop.run(_loop_module()).startswith("asyncio")
