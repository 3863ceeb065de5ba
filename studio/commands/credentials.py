"""`studio staff-account` and `studio player-token`: what an operator needs to let people in
to a studio run by `studio serve`.

staff-account USERNAME --role dealer|technician: reads the password (prompted, or one line of
standard input) and prints the `[[web.accounts]]` block to add to the configuration; only the
PBKDF2 hash is printed, never the password. player-token PLAYER: a player's signed link token,
with the key in the studio's secret variable (the operator's platform signs the same way,
studio/web/auth.py), for rehearsals and support.
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import sys
import time

USERNAME = re.compile(r"^[A-Za-z0-9._-]{1,40}$")  # as studio/config.py WebAccount
MIN_PASSWORD = 10


class _WallClock:
    def now(self) -> float:
        return time.time()


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("staff-account", help="a dealer or technician login for the config")
    p.add_argument("username")
    p.add_argument("--role", required=True, choices=["dealer", "technician"])
    p.set_defaults(func=staff_account)
    t = sub.add_parser("player-token", help="a player's signed token (key from the secret "
                                            "variable)")
    t.add_argument("player")
    t.add_argument("--ttl", type=float, default=8 * 3600, help="seconds it is valid")
    t.add_argument("--config", help="studio TOML (its [web] secret_env names the variable)")
    t.set_defaults(func=player_token)


def _fail(code: str, message: str) -> int:
    print(f"error {code}: {message}", file=sys.stderr)
    return 2


def staff_account(args: argparse.Namespace) -> int:
    from studio.web.auth import hash_password

    if not USERNAME.match(args.username):
        return _fail("staff.bad_username", "1 to 40 letters, digits, '.', '_' or '-'")
    if sys.stdin.isatty():
        password = getpass.getpass("password: ")
        if getpass.getpass("again: ") != password:
            return _fail("staff.passwords_differ", "the two passwords differ")
    else:
        password = sys.stdin.readline().rstrip("\n")
    if len(password) < MIN_PASSWORD:
        return _fail("staff.short_password", f"at least {MIN_PASSWORD} characters")
    print("[[web.accounts]]")
    print(f'username = "{args.username}"')
    print(f'role = "{args.role}"')
    print(f'password_hash = "{hash_password(password)}"')
    return 0


def player_token(args: argparse.Namespace) -> int:
    from studio.config import load_config
    from studio.web.auth import TokenSigner

    env = load_config(args.config).web.secret_env
    secret = os.environ.get(env, "")
    if len(secret) < 32:
        return _fail("serve.no_secret", f"set {env} to the studio's key (32 characters or more)")
    if not 0 < args.ttl <= 7 * 24 * 3600:
        return _fail("token.bad_ttl", "--ttl is seconds, at most a week")
    try:
        print(TokenSigner(secret, _WallClock()).player_token(args.player, args.ttl))
    except ValueError as e:
        return _fail("token.bad_player_id", str(e))
    return 0
