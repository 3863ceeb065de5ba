"""Where a dealt card's time goes between the dealer's command and the players' sockets, for
the cluster benchmark (tests/bench/bench_cluster.py): off unless STUDIO_TIMELINE names a
directory, where each process appends its marks, one JSON line each, to <pid>.jsonl:

    {"what": ..., "card": "5c", "t": <time.time()>}

on CLOCK_REALTIME, the clock of the load client's kernel receive timestamps. The marks:

    command     the table process: the dealer's card command reached the actor (`submit`)
    event       the table process: the card's event left the actor (its burst begins)
    published   the table process: the burst's messages are on the wire (NATS flushed)
    views       the table process: the last views message the burst owed is on the wire
    burst_in    an edge: the card's burst arrived
    views_in    an edge: the last views message arrived (the held states go out)
    first_write an edge (or the single process): its first socket write after the card
    last_write  its last socket write after the card (before the next card)

Off, it costs a global's test per socket write (`WROTE is None`) and per burst.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

ENV = "STUDIO_TIMELINE"
# how long after a card's first write its first and last writes are noted (the fan-out of
# 10,000 players is over by then; the next card is seconds later in the benchmark)
SETTLE_S = 1.5


class Timeline:
    def __init__(self, path: Path) -> None:
        self._file = path.open("a", buffering=1)  # a line a mark: nothing lost on SIGTERM
        self.card: str | None = None  # the last card seen: the writes since are its
        self.first: float | None = None
        self.last: float | None = None

    def mark(self, what: str, card: str | None, t: float | None = None) -> None:
        self._file.write(json.dumps({"what": what, "card": card,
                                     "t": time.time() if t is None else t}) + "\n")

    def card_seen(self, card: str) -> None:
        """A card's burst: the writes from now on are its (those of the one before, noted)."""
        self._note_writes()
        self.card = card

    def wrote(self) -> None:
        t = time.time()
        if self.first is None:
            self.first = t
            asyncio.get_running_loop().call_later(SETTLE_S, self._note_writes)
        self.last = t

    def _note_writes(self) -> None:
        if self.first is not None and self.card is not None:
            self.mark("first_write", self.card, self.first)
            self.mark("last_write", self.card, self.last)
        self.first = self.last = None


def _open() -> Timeline | None:
    where = os.environ.get(ENV)
    if not where:
        return None
    return Timeline(Path(where) / f"{os.getpid()}.jsonl")


TIMELINE = _open()
# the socket writes' hook (studio.web.ws.Connection.flush): None when off
WROTE = TIMELINE.wrote if TIMELINE is not None else None


def card_of(events: Any) -> str | None:
    """The card a burst's events deal ((audience, event) pairs), if any."""
    for _, event in events:
        if event.get("type") == "card_dealt":
            return event.get("card")
    return None


def load(path: Path) -> list[dict[str, Any]]:
    """A process's marks (the benchmark's side)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
