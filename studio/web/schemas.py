"""The schema of every request body and WebSocket message, and how a mismatch is refused.

The schema checks shape and types only (strict: "100" is not a number, extra fields are
refused, so a body cannot smuggle a "player" in); the table checks meaning (limits, positions,
the betting window) and answers with its own stable codes. Refusals:

    request.malformed_json   the body is not JSON
    request.invalid          JSON of the wrong shape; `fields` lists "path: problem"
    request.too_large        a body over MAX_BODY bytes
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from studio.web.errors import WebError

MAX_BODY = 16 * 1024
Key = Annotated[StrictStr, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class _Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ------------------------------------------------------------------------------- players


class JoinRequest(_Schema):
    table_id: Annotated[StrictStr, Field(max_length=64)]


class BetItem(_Schema):
    # Ranges are the table's business (bet.unknown_position, bet.unknown_kind, bet.bad_amount):
    # the schema only insists on the types.
    position: StrictInt
    kind: Annotated[StrictStr, Field(max_length=32)] = "main"
    amount: StrictInt


class BetRequest(_Schema):
    key: Key  # idempotency key: the same key returns the first answer
    bets: Annotated[list[BetItem], Field(min_length=1, max_length=32)]


class KeyedRequest(_Schema):
    """Cancel, Ripunta: nothing but the idempotency key."""

    key: Key


class AutoplayRequest(_Schema):
    key: Key
    rounds: StrictInt


class DecideRequest(_Schema):
    key: Key
    position: StrictInt
    choice: Annotated[str, Field(pattern=r"^[a-z_]{1,24}$")]  # the game's word; the table
    # answers decision.bad_choice for a word its game does not have


class DealRequest(_Schema):
    """A private table's start button ("Carte"): the stake (or the hand's bets), placed and
    dealt at once."""

    key: Key
    amount: StrictInt | None = None
    position: StrictInt | None = None
    bets: Annotated[list[BetItem], Field(min_length=1, max_length=8)] | None = None

    @model_validator(mode="after")
    def _one_way(self) -> DealRequest:
        if (self.amount is None) == (self.bets is None):
            raise ValueError("give either amount or bets")
        return self


# ------------------------------------------------------------------------------- staff


class LoginRequest(_Schema):
    username: Annotated[StrictStr, Field(max_length=64)]
    password: Annotated[StrictStr, Field(max_length=256)]


class DealerCommand(_Schema):
    key: Key
    command: Literal["start", "stop", "pause", "resume", "card", "void", "confirm"]
    reason: Annotated[StrictStr, Field(max_length=200)] | None = None
    code: Annotated[StrictStr, Field(max_length=4)] | None = None  # manual card entry
    # shoe/camera disagreement: which reading the dealer confirms
    source: Literal["shoe", "camera"] | None = None


class SimCommand(_Schema):
    """Technicians drive the simulated devices of a table."""

    device: Literal["shoe", "shuffler", "camera"]
    action: Literal["deal", "deal_card", "shuffle", "fault", "auto_deal", "status", "cut"]
    arg: Annotated[StrictStr, Field(max_length=32)] | None = None


# ------------------------------------------------------------------------------- WebSocket


class WsPing(_Schema):
    type: Literal["ping"]


class WsResync(_Schema):
    type: Literal["resync"]


WS_MESSAGES: dict[str, type[_Schema]] = {"ping": WsPing, "resync": WsResync}

M = TypeVar("M", bound=BaseModel)


def _problems(e: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in err['loc']) or '(body)'}: {err['msg']}"
            for err in e.errors()]


MAX_DEPTH = 32  # no command nests deeper; a deeper body is refused before it is parsed


def _too_deep(raw: bytes | str) -> bool:
    """Whether brackets nest deeper than MAX_DEPTH (strings skipped): a body nested thousands
    deep would exhaust the parser's recursion, so it is refused before parsing."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def parse_json(raw: bytes | str) -> Any:
    if len(raw) > MAX_BODY:
        raise WebError(413, "request.too_large", f"at most {MAX_BODY} bytes")
    if _too_deep(raw):
        raise WebError(400, "request.too_deep", f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise WebError(400, "request.malformed_json", "the body is not valid JSON") from None


def validate(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = _problems(e)
        raise WebError(400, "request.invalid", "; ".join(problems), fields=problems) from None


def parse(model: type[M], raw: bytes | str) -> M:
    """Body bytes -> a validated model, or WebError with a stable code."""
    return validate(model, parse_json(raw))


def parse_ws(raw: str) -> BaseModel:
    data = parse_json(raw)
    kind = data.get("type") if isinstance(data, dict) else None
    model = WS_MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise WebError(400, "ws.unknown_message", f"unknown message type {kind!r}")
    return validate(model, data)
