"""The cluster benchmark's marks (studio/timeline.py): off unless STUDIO_TIMELINE names a
directory; on, a process's marks are JSON lines, and the socket writes after a card's burst are
that card's (first and last), noted when the next card comes."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio import timeline


def test_off_unless_the_environment_names_a_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(timeline.ENV, raising=False)
    assert timeline._open() is None
    monkeypatch.setenv(timeline.ENV, str(tmp_path))
    on = timeline._open()
    assert on is not None
    on.mark("command", "5c", 1.5)
    [written] = list(tmp_path.glob("*.jsonl"))
    assert timeline.load(written) == [{"what": "command", "card": "5c", "t": 1.5}]
    assert timeline.load(tmp_path / "nobody.jsonl") == []


async def test_the_writes_after_a_burst_are_its_card_s(tmp_path: Path) -> None:
    marks = timeline.Timeline(tmp_path / "edge.jsonl")
    marks.wrote()  # before any card: nobody's
    marks.card_seen("7d")
    marks.card_seen("5c")
    marks.wrote()
    marks.wrote()
    first, last = marks.first, marks.last
    marks.card_seen("1b")  # the next card: 5c's writes are noted
    assert timeline.load(tmp_path / "edge.jsonl") == [
        {"what": "first_write", "card": "5c", "t": first},
        {"what": "last_write", "card": "5c", "t": last}]
    assert first is not None and last is not None and first <= last
    assert marks.first is None and marks.card == "1b"


def test_the_card_a_burst_deals() -> None:
    burst = [("all", {"type": "bet_placed"}), ("all", {"type": "card_dealt", "card": "9s"})]
    assert timeline.card_of(burst) == "9s"
    assert timeline.card_of([("all", {"type": "round_opened"})]) is None
