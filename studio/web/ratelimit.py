"""Rate limits on commands: a token bucket per client, on the injected clock.

A bucket holds `burst` tokens and refills at `rate` per second; each command takes one. A
client over the limit is refused with `request.rate_limited` (HTTP 429) and nothing happens,
so a script hammering the API cannot crowd out the table's other players.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.clock import Clock
from studio.web.errors import WebError


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    def __init__(self, clock: Clock, rate_per_s: float, burst: int,
                 max_clients: int = 100_000) -> None:
        self.clock = clock
        self.rate = rate_per_s
        self.burst = burst
        self.max_clients = max_clients
        self._buckets: dict[str, _Bucket] = {}

    def take(self, client: str) -> None:
        """Spend one token of `client`'s bucket, or raise WebError request.rate_limited."""
        now = self.clock.now()
        b = self._buckets.get(client)
        if b is None:
            if len(self._buckets) >= self.max_clients:
                self._prune(now)
            b = self._buckets[client] = _Bucket(float(self.burst), now)
        b.tokens = min(float(self.burst), b.tokens + (now - b.at) * self.rate)
        b.at = now
        if b.tokens < 1.0:
            wait = (1.0 - b.tokens) / self.rate
            raise WebError(429, "request.rate_limited",
                           f"too many commands: retry in {wait:.1f} s", retry_after_s=wait)
        b.tokens -= 1.0

    def _prune(self, now: float) -> None:
        """Forget clients whose bucket is full again (they lose nothing by it)."""
        full_after = self.burst / self.rate
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.at < full_after}
