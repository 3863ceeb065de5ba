"""Where a table's events go after they are stored: to every subscriber (WebSocket clients, the
dealer console, tests). Subscribers filter by audience; private events never get here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Audience = str  # "public" (everyone at the table), "dealer", or "player:<id>"
Listener = Callable[[str, Audience, dict[str, Any]], None]


class Hub:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def watched(self, table_id: str) -> bool:
        """Whether anyone listens (a table skips building views nobody reads)."""
        return bool(self._listeners)

    def publish(self, table_id: str, audience: Audience, event: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(table_id, audience, event)
