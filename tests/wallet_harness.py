"""The simulated operator as a real program on a free port, and signed raw requests to it.

Admin calls and raw requests use urllib (blocking, short): they work from sync and async tests
alike, and the operator is another process, so a test's event loop is never what it waits on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.wallet import signing, wire

ROOT = Path(__file__).resolve().parent.parent
SECRET = "wallet-test-secret-0123456789"
KEY = SECRET.encode()


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    raw: bytes
    request_signature: str = ""

    def verify(self) -> None:
        """The answer is the operator's, bound to the request it answers."""
        signing.verify(KEY, self.headers, self.raw, bound_to=self.request_signature)

    @property
    def body(self) -> Any:
        return json.loads(self.raw)

    @property
    def code(self) -> str | None:
        return self.body.get("code")


def post_raw(url: str, raw: bytes, *, key: bytes = KEY, headers: dict[str, str] | None = None,
             now: float | None = None) -> Reply:
    """POST ``raw`` signed with ``key`` (``headers`` replace the signature's if given)."""
    signed = signing.sign(key, raw, now=(lambda: now) if now is not None else time.time)
    sent = {**signed, **(headers or {}), "Content-Type": "application/json"}
    req = urllib.request.Request(url, data=raw, headers=sent, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return Reply(resp.status, dict(resp.headers), resp.read(),
                         sent[signing.SIGNATURE_HEADER])
    except urllib.error.HTTPError as e:
        return Reply(e.code, dict(e.headers), e.read(), sent[signing.SIGNATURE_HEADER])


@dataclass
class Operator:
    url: str
    proc: subprocess.Popen[str]

    def post(self, path: str, body: Any, **kw: Any) -> Reply:
        raw = body if isinstance(body, bytes) else wire.encode(body)
        return post_raw(self.url + path, raw, **kw)

    def admin(self, action: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = self.post(f"/admin/{action}", body or {})
        assert reply.status == 200, reply.raw
        return reply.body

    def faults(self, *faults: dict[str, Any]) -> None:
        self.admin("faults", {"faults": list(faults)})

    def balances(self) -> dict[str, int]:
        return self.admin("state")["players"]

    def state(self) -> dict[str, Any]:
        return self.admin("state")

    def report(self) -> list[dict[str, Any]]:
        reply = self.post("/wallet/transactions", {"from": "2000-01-01T00:00:00.000000Z",
                                                   "to": "2100-01-01T00:00:00.000000Z"})
        assert reply.status == 200, reply.raw
        return reply.body["transactions"]


@contextmanager
def running_operator(*players: str) -> Iterator[Operator]:
    """``studio sim operator`` on a free port of 127.0.0.1, stopped (SIGTERM) at the end."""
    env = {**os.environ, "STUDIO_WALLET_SECRET": SECRET, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "studio.cli", "sim", "operator", "--port", "0",
         *(f"--player={p}" for p in players)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready = proc.stdout.readline().strip()
        assert ready.startswith("ready url=http://127.0.0.1:"), ready
        yield Operator(ready.removeprefix("ready url="), proc)
    finally:
        proc.terminate()
        assert proc.wait(10) == 0
