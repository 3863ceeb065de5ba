"""The subjects and messages between a table process and its edges.

    studio.table.<table>.cmd     request/reply: {"method", "args"} -> the table's answer
    studio.table.<table>.sync    request/reply: {"players": [...]} -> {"seq", "public",
                                 "personal": {player: view}}
    studio.table.<table>.burst   one burst of the table's events, in order, in parts of at
                                 most MAX_PART bytes: {"seq", "part", "parts", "events":
                                 [[audience, event], ...]}; the last part also carries the
                                 public snapshot after the burst and "views": whether the
                                 players' views follow; then, if they do, {"seq",
                                 "groups": [[view, [player, ...]], ...], "last"}: the views
                                 that changed, each once with the players whose it is, in
                                 one message (parts past MAX_PART), maybe after the next
                                 burst's events; "last": every view owed so far is out
    studio.table.<table>.presence  {"player", "here"}: a player's socket opened or closed

A player's view travels as the JSON text of its fields without the braces, as the players'
states carry it (`TableActor.personal_text`): the table encodes it once, the edges put it in
their states as it is.

A table id is [a-z0-9-]: a subject token as it is. Player ids travel inside messages only
(they may hold a '.', NATS's separator).
"""

from __future__ import annotations

import json
from typing import Any

MAX_PART = 512 * 1024  # under NATS's default 1 MiB payload
# the most personal views built at once (a few ms of the table's loop between two turns)
MAX_PERSONAL = 500
# what an edge may ask the table to do: the actor's methods the player API calls
METHODS = frozenset({"place_bets", "cancel_bets", "repeat_bets", "set_autoplay", "decide",
                     "deal", "submit"})


SESSIONS = "studio.sessions"  # {"player", "id"}: a session opened or taken up on an edge


def subject(table_id: str, what: str) -> str:
    return f"studio.table.{table_id}.{what}"


def encode(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def decode(data: bytes) -> Any:
    return json.loads(data)


def parts(events: list[tuple[str, dict[str, Any]]]) -> list[list[tuple[str, dict[str, Any]]]]:
    """The burst's events split so that no part passes MAX_PART once encoded."""
    out: list[list[tuple[str, dict[str, Any]]]] = [[]]
    size = 0
    for item in events:
        n = len(encode(item))
        if out[-1] and size + n > MAX_PART:
            out.append([])
            size = 0
        out[-1].append(item)
        size += n
    return out


def named_players(audience: str, event: dict[str, Any]) -> set[str]:
    """The players an event concerns: whose personal view may have changed with it."""
    out: set[str] = set()
    if audience.startswith("player:"):
        out.add(audience.split(":", 1)[1])
    if isinstance(event.get("player"), str):
        out.add(event["player"])
    for key in ("players",):
        if isinstance(event.get(key), list):
            out.update(p for p in event[key] if isinstance(p, str))
    return out
