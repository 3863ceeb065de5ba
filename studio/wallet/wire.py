"""The protocol's messages (docs/wallet.md): request bodies as strict schemas, paths, and the
HTTP status of each error code. Shared by the HTTP adapter and the simulated operator so both
speak exactly one protocol.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from studio.wallet.port import MAX_AMOUNT, MAX_ID
from studio.web.errors import WebError
from studio.web.schemas import parse_json, validate

PATHS = {
    "balance": "/wallet/balance",
    "debit": "/wallet/debit",
    "credit": "/wallet/credit",
    "rollback": "/wallet/rollback",
    "transactions": "/wallet/transactions",
}

Id = Annotated[StrictStr, Field(min_length=1, max_length=MAX_ID)]
Cents = Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT)]
UTC_ISO = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$"  # as storage.format_ts


class Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BalanceBody(Schema):
    player_id: Id


class _Movement(Schema):
    transaction_id: Id
    player_id: Id
    round_id: Id
    table_id: Id
    game: Id


class DebitBody(_Movement):
    amount: Cents


class CreditBody(_Movement):
    amount: Cents
    reason: Literal["win", "refund"]


class RollbackBody(_Movement):
    debit_transaction_id: Id


class TransactionsBody(Schema):
    """A period of the operator's clock, ISO-8601 UTC text, ``from`` included, ``to`` not."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    start: Annotated[StrictStr, Field(alias="from", pattern=UTC_ISO)]
    end: Annotated[StrictStr, Field(alias="to", pattern=UTC_ISO)]


BODIES: dict[str, type[Schema]] = {
    "balance": BalanceBody, "debit": DebitBody, "credit": CreditBody,
    "rollback": RollbackBody, "transactions": TransactionsBody,
}

# HTTP status of each refusal; anything not listed is 409 (a business refusal).
STATUS = {
    "request.malformed_json": 400, "request.too_deep": 400, "request.invalid": 400,
    "wallet.invalid_amount": 400, "request.too_large": 413, "request.unknown_endpoint": 404,
    "auth.missing_signature": 401, "auth.bad_signature": 401, "auth.stale_timestamp": 401,
    "wallet.unknown_player": 404, "server.failure": 500,
}

# Refusals that settle a transaction id for good: a repeat of the id gets the same answer.
FINAL_REFUSALS = ("wallet.insufficient_funds", "wallet.unknown_player",
                  "wallet.transaction_rolled_back", "wallet.not_rollbackable")


def status_of(code: str) -> int:
    return STATUS.get(code, 409)


def parse_body(endpoint: str, raw: bytes) -> Schema:
    """The body of a request to ``endpoint``, or `WebError` with a stable code. A bad amount
    has its own code (``wallet.invalid_amount``): it is the error a caller most needs named."""
    try:
        return validate(BODIES[endpoint], parse_json(raw))
    except WebError as e:
        fields = e.extra.get("fields") or []
        if e.code == "request.invalid" and any(f.startswith("amount:") for f in fields):
            raise WebError(400, "wallet.invalid_amount",
                           "amount must be integer cents above 0 and at most "
                           f"{MAX_AMOUNT}", fields=fields) from None
        raise


def ok(**fields: Any) -> dict[str, Any]:
    return {"status": "ok", **fields}


def error(code: str, message: str, **fields: Any) -> dict[str, Any]:
    return {"status": "error", "code": code, "message": message, **fields}


def encode(body: dict[str, Any]) -> bytes:
    """Bytes on the wire: compact, keys sorted (a repeat is byte-for-byte the same)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")
