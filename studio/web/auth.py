"""Who is asking: players by a token the operator signed, dealers and technicians by login.

Player tokens are issued by the operator (the casino's platform), not by us: a signed,
expiring statement "this is player P until time T". HMAC-SHA256 over a small JSON payload is
all that needs (no dependency): `<payload b64url>.<mac b64url>`. A `typ` field keeps a staff
session cookie from being usable as a player token and vice versa.

Staff passwords are stored as PBKDF2-SHA256 hashes ("pbkdf2_sha256$iterations$salt$hash");
a successful login gets the same kind of signed, expiring token in an HttpOnly cookie.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Literal

from studio.clock import Clock
from studio.config import WebAccount
from studio.web.errors import WebError

PBKDF2_ITERATIONS = 120_000
Role = Literal["dealer", "technician"]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class Identity:
    """An authenticated caller: a player, a dealer or a technician."""

    kind: Literal["player", "dealer", "technician"]
    id: str

    @property
    def audience(self) -> str:
        return f"player:{self.id}" if self.kind == "player" else "dealer"


class TokenSigner:
    """Signs and checks expiring tokens with one secret (the studio's STUDIO_SECRET)."""

    def __init__(self, secret: bytes | str, clock: Clock) -> None:
        self._key = secret.encode() if isinstance(secret, str) else secret
        if len(self._key) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self.clock = clock

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode("utf-8", "surrogatepass"),
                             hashlib.sha256).digest())

    def sign(self, typ: str, sub: str, ttl_s: float, **claims: str) -> str:
        now = self.clock.now()
        body = {"typ": typ, "sub": sub, "iat": int(now), "exp": now + ttl_s,
                "jti": secrets.token_hex(6), **claims}
        payload = _b64(json.dumps(body, separators=(",", ":"), sort_keys=True).encode())
        return f"{payload}.{self._mac(payload)}"

    def verify(self, token: str | None, typ: str) -> dict:
        """The token's claims, or WebError auth.missing_token / invalid_token / token_expired."""
        if not token:
            raise WebError(401, "auth.missing_token", "a token is required")
        if not isinstance(token, str) or not token.isascii():  # tokens are base64url
            raise WebError(401, "auth.invalid_token", "the token is not valid")
        payload, _, mac = token.partition(".")
        if not payload or not mac or not hmac.compare_digest(self._mac(payload), mac):
            raise WebError(401, "auth.invalid_token", "the token is not valid")
        try:
            claims = json.loads(_unb64(payload))
        except (ValueError, UnicodeDecodeError):
            raise WebError(401, "auth.invalid_token", "the token is not valid") from None
        if not isinstance(claims, dict) or claims.get("typ") != typ or not claims.get("sub"):
            raise WebError(401, "auth.invalid_token", "the token is not valid")
        if not isinstance(claims.get("exp"), int | float) or claims["exp"] <= self.clock.now():
            raise WebError(401, "auth.token_expired", "the token has expired: sign in again")
        return claims

    # -- players ------------------------------------------------------------------------

    def player_token(self, player_id: str, ttl_s: float) -> str:
        """What the operator hands a player (the demo prints one)."""
        if not valid_player_id(player_id):
            raise ValueError(f"a player id is 1 to {MAX_PLAYER_ID} letters, digits, '.', '_' "
                             f"or '-': {player_id!r}")
        return self.sign("player", player_id, ttl_s)

    def player(self, token: str | None) -> Identity:
        sub = self.verify(token, "player")["sub"]
        if not valid_player_id(sub):  # ids name ledger accounts: nothing else may pass
            raise WebError(401, "auth.invalid_player_id",
                           f"a player id is 1 to {MAX_PLAYER_ID} letters, digits, '.', '_' "
                           "or '-'")
        return Identity("player", sub)

    # -- staff --------------------------------------------------------------------------

    def staff_token(self, username: str, role: Role, ttl_s: float) -> str:
        return self.sign("staff", username, ttl_s, role=role)

    def staff(self, token: str | None) -> Identity:
        claims = self.verify(token, "staff")
        if claims.get("role") not in ("dealer", "technician"):
            raise WebError(401, "auth.invalid_token", "the token is not valid")
        return Identity(claims["role"], claims["sub"])


MAX_PLAYER_ID = 64
_PLAYER_ID = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_PLAYER_ID - 1}}}")


def valid_player_id(player_id: object) -> bool:
    """Player ids name ledger accounts ("p001", "p001:held"): a ':' or '/' could reach another
    account or another id's space, and a long one would overflow the ids derived from it."""
    return isinstance(player_id, str) and _PLAYER_ID.fullmatch(player_id) is not None


def hash_password(password: str, *, iterations: int = PBKDF2_ITERATIONS,
                  salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, iterations, salt, digest = stored.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        computed = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt),
                                       int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(computed.hex(), digest)


class Accounts:
    """Dealer and technician logins (from config, or the demo's generated ones)."""

    def __init__(self, accounts: list[WebAccount]) -> None:
        self._by_name = {a.username: a for a in accounts}

    def display_name(self, username: str) -> str:
        """What players see of a dealer: the account's display name, else its username."""
        account = self._by_name.get(username)
        return (account.display_name if account and account.display_name else username)

    def login(self, username: str, password: str) -> Identity:
        account = self._by_name.get(username)
        # Same work and the same answer whether the user exists or not.
        ok = check_password(password, account.password_hash if account else _DUMMY_HASH)
        if account is None or not ok:
            raise WebError(401, "auth.bad_credentials", "wrong username or password")
        return Identity(account.role, account.username)


_DUMMY_HASH = hash_password("not a password", iterations=PBKDF2_ITERATIONS)
