"""HMAC-SHA256 signatures of wallet requests and responses (docs/wallet.md, "Signatures").

Both directions are signed with the secret the studio and the operator share. A request's
signature covers ``<timestamp>.<body>``; a response's covers ``<timestamp>.<request
signature>.<body>``, so an answer is bound to the request it answers: an answer replayed from
another request, or one a proxy mixed up, fails verification and counts as no answer at all.
The timestamp (integer Unix seconds) must be within `WINDOW_S` of the verifier's clock, which
bounds how long a captured message can be replayed (and the transaction id makes a replay
inside the window harmless).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable, Mapping

TIMESTAMP_HEADER = "X-Wallet-Timestamp"
SIGNATURE_HEADER = "X-Wallet-Signature"
SCHEME = "v1="
WINDOW_S = 30
MIN_SECRET_BYTES = 16

Now = Callable[[], float]


class SignatureError(Exception):
    """A message whose signature cannot be trusted. ``code`` is stable (``auth.*``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def secret_bytes(secret: bytes | str) -> bytes:
    key = secret.encode() if isinstance(secret, str) else secret
    if len(key) < MIN_SECRET_BYTES:
        raise ValueError(f"the wallet secret must be at least {MIN_SECRET_BYTES} bytes")
    return key


def signature(key: bytes, timestamp: str, body: bytes, bound_to: str = "") -> str:
    """``v1=<hex>`` over the timestamp, the request signature answered (responses) and body."""
    prefix = f"{timestamp}.{bound_to}." if bound_to else f"{timestamp}."
    mac = hmac.new(key, prefix.encode("ascii") + body, hashlib.sha256)
    return SCHEME + mac.hexdigest()


def sign(key: bytes, body: bytes, *, now: Now = time.time, bound_to: str = "") -> dict[str, str]:
    """The two headers that sign ``body`` now."""
    timestamp = str(int(now()))
    return {TIMESTAMP_HEADER: timestamp, SIGNATURE_HEADER: signature(key, timestamp, body,
                                                                     bound_to)}


def verify(key: bytes, headers: Mapping[str, str], body: bytes, *, now: Now = time.time,
           bound_to: str = "", window_s: float = WINDOW_S) -> str:
    """The message's signature if it is genuine and fresh; otherwise `SignatureError`
    (``auth.missing_signature``, ``auth.bad_signature`` or ``auth.stale_timestamp``)."""
    timestamp = headers.get(TIMESTAMP_HEADER)
    given = headers.get(SIGNATURE_HEADER)
    if not timestamp or not given:
        raise SignatureError("auth.missing_signature",
                             f"{TIMESTAMP_HEADER} and {SIGNATURE_HEADER} are required")
    if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12:
        raise SignatureError("auth.bad_signature", "the timestamp is not integer Unix seconds")
    expected = signature(key, timestamp, body, bound_to)
    if not hmac.compare_digest(expected.encode(), given.encode("utf-8", "replace")):
        raise SignatureError("auth.bad_signature", "the signature does not match the message")
    if abs(now() - int(timestamp)) > window_s:
        raise SignatureError("auth.stale_timestamp",
                             f"the timestamp is more than {window_s:g} s from the clock")
    return given
