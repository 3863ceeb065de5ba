"""The simulated operator: a real aiohttp service speaking docs/wallet.md, for rehearsals and
the wallet tests. `studio sim operator` runs it.

Its books are `OperatorBook` (in memory). It can be told, per endpoint and for a number of
requests, to misbehave the ways real wallets do (``POST /admin/faults``):

    slow               wait ``delay`` s, then apply and answer
    error              answer 500 without applying
    error_after_apply  apply, then answer 500 (the answer is lost, the money moved)
    drop               never apply; hold the request ``delay`` s, then 500 (the client gave up;
                       no ``delay``: never answer, until the service stops)
    drop_after_apply   apply, then hold the answer ``delay`` s (no ``delay``: never answer)
    late               hold the request ``delay`` s, then apply it (what arrives meanwhile, e.g.
                       the rollback of this debit, is applied first: reordering)
    twice              process the request twice (a duplicated delivery) and answer the second
                       time; ``twice_answers`` keeps both answers for the tests
    bad_signature      apply, then sign the answer with a wrong key (a forged or broken answer)

Admin endpoints are signed like the protocol's: ``/admin/players`` (set balances),
``/admin/faults`` (replace the fault list), ``/admin/state`` (balances, faults left).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from aiohttp import web
from pydantic import Field, NonNegativeFloat, StrictInt

from studio.storage.engine import utc_now
from studio.wallet import signing, wire
from studio.wallet.operator_book import Answer, OperatorBook, refusal
from studio.wallet.operator_casino import Casino
from studio.wallet.signing import SignatureError
from studio.web.errors import WebError
from studio.web.schemas import MAX_BODY, parse_json, validate

log = logging.getLogger(__name__)
NEVER = 24 * 3600.0  # seconds a dropped request is held when no delay is given
Mode = Literal["slow", "error", "error_after_apply", "drop", "drop_after_apply", "late", "twice",
               "bad_signature"]
Endpoint = Literal["balance", "debit", "credit", "rollback", "transactions", "*"]


class FaultBody(wire.Schema):
    endpoint: Endpoint
    mode: Mode
    times: Annotated[StrictInt, Field(ge=1, le=1000)] = 1
    delay: Annotated[NonNegativeFloat, Field(le=600)] = 0.0


class FaultsBody(wire.Schema):
    faults: Annotated[list[FaultBody], Field(max_length=100)]


class PlayersBody(wire.Schema):
    players: Annotated[dict[Annotated[str, Field(min_length=1, max_length=200)],
                            Annotated[StrictInt, Field(ge=0, le=wire.MAX_AMOUNT)]],
                       Field(max_length=1000)]


@dataclass
class Fault:
    endpoint: str
    mode: str
    times: int = 1
    delay: float = 0.0


def parse_fault(text: str) -> Fault:
    """``ENDPOINT:MODE[:TIMES[:DELAY]]`` (the command line's --fault)."""
    parts = text.split(":")
    if len(parts) < 2 or len(parts) > 4:
        raise ValueError(f"a fault is ENDPOINT:MODE[:TIMES[:DELAY]], not {text!r}")
    body = FaultBody.model_validate({
        "endpoint": parts[0], "mode": parts[1],
        "times": int(parts[2]) if len(parts) > 2 else 1,
        "delay": float(parts[3]) if len(parts) > 3 else 0.0})
    return Fault(**body.model_dump())


class OperatorSim:
    """The service: ``await sim.start()`` serves on a real port until ``await sim.stop()``."""

    def __init__(self, secret: bytes | str, *, accounts: dict[str, int] | None = None,
                 faults: list[Fault] | None = None, now: signing.Now = time.time,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self.key = signing.secret_bytes(secret)
        self.book = OperatorBook(accounts, clock)
        self.faults: list[Fault] = list(faults or [])
        self.now = now
        self.twice_answers: list[tuple[Answer, Answer]] = []
        self.requests: list[str] = []  # endpoints in the order requests arrived
        self._held: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.url = ""
        self.casino: Casino | None = None  # its web site, once told where the studio is

    def launches_into(self, studio_url: str, operator_id: str) -> None:
        """Serve the casino's site too (/casino), launching its players into the studio."""
        self.casino = Casino(operator_id, studio_url, self.key, self.book.accounts, self.now)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._json_errors])
        app.router.add_post("/wallet/{endpoint}", self._wallet)
        app.router.add_post("/admin/{action}", self._admin)
        if self.casino is not None:
            self.casino.add_routes(app)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound = site._server.sockets[0].getsockname()  # type: ignore[union-attr]
        self.url = f"http://{bound[0]}:{bound[1]}"
        return self.url

    async def stop(self) -> None:
        for task in list(self._held):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- HTTP -------------------------------------------------------------------------------

    @web.middleware
    async def _json_errors(self, request: web.Request,
                           handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                           ) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPRequestEntityTooLarge:
            return self._reply(request, *refusal("request.too_large",
                                                 f"at most {MAX_BODY} bytes"))
        except web.HTTPException as e:
            if e.status in (404, 405):
                return self._reply(request, *refusal("request.unknown_endpoint",
                                                     f"{request.method} {request.path}"))
            raise

    def _reply(self, request: web.Request, status: int, raw: bytes, *, forge: bool = False
               ) -> web.Response:
        """Every answer is signed and bound to the request it answers (``forge``: signed
        with a key that is not the shared secret)."""
        bound = request.headers.get(signing.SIGNATURE_HEADER, "")
        key = b"not-the-shared-secret" if forge else self.key
        headers = signing.sign(key, raw, now=self.now, bound_to=bound)
        return web.Response(status=status, body=raw, content_type="application/json",
                            headers=headers)

    async def _checked(self, request: web.Request) -> bytes:
        raw = await request.read()
        signing.verify(self.key, request.headers, raw, now=self.now)
        return raw

    async def _wallet(self, request: web.Request) -> web.Response:
        endpoint = request.match_info["endpoint"]
        self.requests.append(endpoint)
        if endpoint not in wire.BODIES:
            return self._reply(request, *refusal("request.unknown_endpoint", endpoint))
        try:
            body = wire.parse_body(endpoint, await self._checked(request))
        except SignatureError as e:
            return self._reply(request, *refusal(e.code, e.message))
        except WebError as e:
            return self._reply(request, *refusal(e.code, e.message, **e.extra))
        fault = self._take_fault(endpoint)
        answer = await self._serve(endpoint, body, fault)
        return self._reply(request, *answer,
                           forge=fault is not None and fault.mode == "bad_signature")

    def _take_fault(self, endpoint: str) -> Fault | None:
        for fault in self.faults:
            if fault.times > 0 and fault.endpoint in (endpoint, "*"):
                fault.times -= 1
                return fault
        return None

    def _apply(self, endpoint: str, body: Any) -> Answer:
        if endpoint == "balance":
            return self.book.balance(body)
        if endpoint == "transactions":
            return 200, wire.encode(wire.ok(transactions=self.book.report(body.start,
                                                                          body.end)))
        return self.book.apply(endpoint, body)

    async def _serve(self, endpoint: str, body: Any, fault: Fault | None) -> Answer:
        mode = fault.mode if fault else None
        failure = refusal("server.failure", "the wallet failed (simulated)")
        if mode is None:
            return self._apply(endpoint, body)
        assert fault is not None
        log.info("fault %s on %s", mode, endpoint)
        if mode in ("slow", "bad_signature"):
            await self._hold(fault.delay)
            return self._apply(endpoint, body)
        if mode == "error":
            return failure
        if mode == "error_after_apply":
            self._apply(endpoint, body)
            return failure
        if mode == "drop":
            await self._hold(fault.delay or NEVER)
            return failure
        if mode == "drop_after_apply":
            answer = self._apply(endpoint, body)
            await self._hold(fault.delay or NEVER)
            return answer
        if mode == "late":
            # Applied even if the client hangs up meanwhile: the request is in the wallet.
            late = await self._hold(fault.delay, lambda: self._apply(endpoint, body))
            assert late is not None
            return late
        first = self._apply(endpoint, body)  # twice
        second = self._apply(endpoint, body)
        self.twice_answers.append((first, second))
        return second

    async def _hold(self, seconds: float, then: Callable[[], Answer] | None = None
                    ) -> Answer | None:
        """Wait ``seconds`` (then run ``then``) in a task of the service's own: it goes on if
        the client hangs up, and `stop` ends it (a request held "forever" included)."""
        async def wait() -> Answer | None:
            await asyncio.sleep(seconds)
            return then() if then is not None else None

        held = asyncio.ensure_future(wait())
        self._held.add(held)
        held.add_done_callback(self._held.discard)
        return await asyncio.shield(held)

    async def _admin(self, request: web.Request) -> web.Response:
        action = request.match_info["action"]
        try:
            data = parse_json(await self._checked(request))
            if action == "players":
                self.book.accounts.update(validate(PlayersBody, data).players)
            elif action == "faults":
                self.faults = [Fault(**f.model_dump())
                               for f in validate(FaultsBody, data).faults]
            elif action != "state":
                return self._reply(request, *refusal("request.unknown_endpoint", action))
        except SignatureError as e:
            return self._reply(request, *refusal(e.code, e.message))
        except WebError as e:
            return self._reply(request, *refusal(e.code, e.message, **e.extra))
        state = wire.ok(players=self.book.accounts,
                        faults=[vars(f) for f in self.faults if f.times > 0],
                        requests={e: self.requests.count(e) for e in set(self.requests)},
                        twice_identical=[a == b for a, b in self.twice_answers])
        return self._reply(request, 200, wire.encode(state))

