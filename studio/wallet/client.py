"""Signed calls to an operator's wallet, and what their answers mean (docs/wallet.md).

Every call ends in one of three outcomes: ``ok`` (the wallet applied it; the answer is
signed, bound to this request and names this transaction), ``refused`` (a signed, final
refusal: nothing was applied and a repeat gets the same refusal), or ``unknown``: a timeout,
a refused connection, a 5xx, an answer whose signature, timestamp or shape is wrong. An
unknown outcome may or may not have been applied; only a later answer to the same
transaction id (or its rollback) settles it. A bad signature is never taken for success.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import aiohttp

from studio.wallet import signing, wire
from studio.wallet.signing import SignatureError
from studio.web.errors import WebError
from studio.web.schemas import parse_json

# (operation, seconds, why the outcome is unknown or None): e.g. Metrics.wallet_call.
Observer = Callable[[str, float, str | None], None]

# Refusals that say for certain that nothing was applied and never will be under this id.
FINAL = (*wire.FINAL_REFUSALS, "wallet.duplicate_mismatch")


@dataclass(frozen=True)
class Outcome:
    kind: Literal["ok", "refused", "unknown"]
    code: str = ""  # the refusal's code, or why the outcome is unknown
    answer: dict[str, Any] = field(default_factory=dict)


class WalletClient:
    """One operator's wallet at ``base_url``, with the secret both sides share."""

    def __init__(self, base_url: str, secret: bytes | str, *, timeout: float = 2.0,
                 now: signing.Now = time.time, observe: Observer | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.key = signing.secret_bytes(secret)
        self.timeout = timeout
        self.now = now
        self.observe = observe
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def call(self, endpoint: str, body: dict[str, Any], path: str | None = None
                   ) -> Outcome:
        """POST ``body`` to the endpoint, signed; the outcome, never an exception. Each call
        is reported to ``observe`` (the studio's metrics): its time, and for an unknown
        outcome why."""
        started = time.perf_counter()
        outcome = await self._call(endpoint, body, path)
        if self.observe is not None:
            self.observe(endpoint, time.perf_counter() - started,
                         outcome.code if outcome.kind == "unknown" else None)
        return outcome

    async def _call(self, endpoint: str, body: dict[str, Any], path: str | None) -> Outcome:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        raw = wire.encode(body)
        headers = signing.sign(self.key, raw, now=self.now)
        headers["Content-Type"] = "application/json"
        url = self.base_url + (path or wire.PATHS[endpoint])
        try:
            async with self._session.post(
                    url, data=raw, headers=headers,
                    timeout=aiohttp.ClientTimeout(total=self.timeout)) as resp:
                status, answer_raw, answer_headers = resp.status, await resp.read(), resp.headers
        except TimeoutError:
            return Outcome("unknown", "wallet.timeout")
        except (aiohttp.ClientError, OSError):
            return Outcome("unknown", "wallet.connection_failed")
        return self._judge(body, status, answer_raw, answer_headers,
                           headers[signing.SIGNATURE_HEADER])

    def _judge(self, body: dict[str, Any], status: int, raw: bytes, headers: Any,
               request_signature: str) -> Outcome:
        try:
            signing.verify(self.key, headers, raw, now=self.now, bound_to=request_signature)
            answer = parse_json(raw)
        except SignatureError as e:
            return Outcome("unknown", f"wallet.answer_{e.code.removeprefix('auth.')}")
        except WebError:
            return Outcome("unknown", "wallet.answer_malformed")
        if not isinstance(answer, dict):
            return Outcome("unknown", "wallet.answer_malformed")
        for key in ("transaction_id", "player_id"):
            if key in body and key in answer and answer[key] != body[key]:
                return Outcome("unknown", "wallet.answer_mismatch")  # answers another request
        if "transaction_id" in body and status == 200 and "transaction_id" not in answer:
            return Outcome("unknown", "wallet.answer_mismatch")
        if status == 200 and answer.get("status") == "ok":
            balance = answer.get("balance")
            if balance is not None and type(balance) is not int:
                return Outcome("unknown", "wallet.answer_malformed")
            return Outcome("ok", answer=answer)
        code = answer.get("code")
        if answer.get("status") == "error" and code in FINAL and status in (404, 409):
            return Outcome("refused", code, answer)
        return Outcome("unknown", code if isinstance(code, str) else f"wallet.http_{status}",
                       answer)


async def with_retries(client: WalletClient, endpoint: str, body: dict[str, Any], *,
                       attempts: int, retry_delay: float) -> tuple[Outcome, int]:
    """Call until the outcome is known or ``attempts`` are spent: (outcome, calls made)."""
    outcome = Outcome("unknown", "wallet.not_sent")
    for n in range(1, attempts + 1):
        outcome = await client.call(endpoint, body)
        if outcome.kind != "unknown":
            return outcome, n
        if n < attempts and retry_delay:
            await asyncio.sleep(retry_delay)
    return outcome, attempts
