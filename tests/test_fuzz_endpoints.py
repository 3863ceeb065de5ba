"""Every HTTP endpoint of the studio, fuzzed: bodies built from the API's own field names with
hostile values (deep nesting, huge and negative numbers, floats, wrong types, long and odd
text, raw bytes, a JSON body nested 5,000 deep), as nobody, as a player with a session, as a
dealer and as a technician. Each answer is a clear refusal with a stable code and never a
5xx, and the books are as they were: the money of every player, the ledger's sum, the
audit's verdict.

The generator is seeded: a failure names its seed, route and body, and repeats."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from studio import ledger
from studio.storage import audit
from studio.table import replay
from tests.browser.harness import DEALER, TECHNICIAN, StudioHarness
from tests.test_web_api import Player

FIELDS = ["key", "bets", "position", "kind", "amount", "choice", "table_id", "username",
          "password", "device", "action", "arg", "sdp", "type", "command", "reason", "code",
          "source", "player_id", "limits", "rounds", "lang", "return_url", "session"]
CODE = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
BODIES_PER_ROUTE = 12


def hostile(rng: random.Random, depth: int = 0):
    """One JSON value: mostly wrong, sometimes nearly right."""
    pick = rng.randrange(12 if depth < 4 else 8)
    if pick == 0:
        return rng.choice([0, -1, 1, 2**63, -(2**63), 10**30, 99])
    if pick == 1:
        return rng.choice([0.5, -0.0, 1e308, 3.14, 1.0])
    if pick == 2:
        return rng.choice(["", "x" * 5000, "ñ€😀", "1000", "../../etc", "<script>", "\u0000",
                           "main", "carta", "stai", "double", "deal", "shoe", "sem-live-1"])
    if pick == 3:
        return rng.choice([True, False, None])
    if pick in (4, 5, 6, 7):
        return rng.choice(["key-" + "a" * rng.randrange(0, 300), rng.randrange(-5, 10**6)])
    if pick in (8, 9):
        return [hostile(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(FIELDS + ["", "x" * 300]): hostile(rng, depth + 1)
            for _ in range(rng.randrange(0, 6))}


def bodies(rng: random.Random) -> list[bytes]:
    out = [b"[" * 5000 + b"]" * 5000, b'{"a":' * 5000 + b"1" + b"}" * 5000, b"\xff\xfe{",
           b"", b"null", b'{"key": ' + b"9" * 5000 + b"}"]
    while len(out) < BODIES_PER_ROUTE:
        value = hostile(rng)
        out.append(json.dumps(value if rng.random() < 0.5 else {"key": hostile(rng),
                                                                 rng.choice(FIELDS): value}
                              ).encode())
    return out


def routes(app) -> list[tuple[str, str]]:
    out = []
    for r in app.router.routes():
        info = r.resource.get_info() if r.resource is not None else {}
        path = info.get("path") or info.get("formatter")
        if r.method in ("GET", "POST") and path and not path.startswith("/ws/"):
            out.append((r.method, path))
    return sorted(set(out))


def fill(path: str, rng: random.Random) -> list[str]:
    """The route with its parameters: real ones, and hostile ones."""
    real = {"table_id": "sem-live-1", "game": "blackjack", "name": "blackjack.js",
            "art": "french", "code": "Ks"}
    hostile_ = {"table_id": "no-such/../table", "game": "../../etc", "name": "..%2Fpasswd",
                "art": "n" * 300, "code": "%00"}
    out = []
    for values in (real, hostile_):
        out.append(re.sub(r"\{(\w+)\}", lambda m, v=values: v.get(m.group(1), "x"), path))
    return out


def money(studio: StudioHarness, players: list[str]) -> tuple:
    with studio.store.reader() as tx:
        return (ledger.total_balance(tx),
                *(tuple(ledger.balance(tx, p)) for p in players))


@pytest.fixture
async def studio(tmp_path):  # no rate limit: every body reaches the code that reads it
    h = StudioHarness(tmp_path, web={"command_rate_per_s": 1e9, "command_burst": 10**9})
    await h.start()
    yield h
    await h.stop()


async def test_every_endpoint_refuses_hostile_input_with_a_code_and_never_a_5xx(
        studio, aiohttp_client):
    from streaming.encoder import EncoderSettings, SharedH264Encoder
    from streaming.fanout import Broadcaster
    from streaming.signalling import VideoService
    from streaming.source import PacedSource, TestPattern
    from studio.web.app import create_app

    source = PacedSource(TestPattern(320, 180, 25), 320, 180, 25)  # the table's video too
    studio.studio.video[studio.table_id] = VideoService(
        Broadcaster(source, SharedH264Encoder(EncoderSettings(width=320, height=180)), 8))
    app = create_app(studio.studio)
    client = await aiohttp_client(app)
    studio.credit("ann", 100_000)
    ann = Player(client, studio, "ann")
    await ann.join()
    assert (await ann.bet(1, 1000))[1]["ok"]     # money in play: it must stay as it is
    before = money(studio, ["ann"])
    origin = str(client.make_url("/")).rstrip("/")
    rng = random.Random(20261125)
    staff = {}
    for role, (user, password) in (("dealer", DEALER), ("technician", TECHNICIAN)):
        r = await client.post("/api/staff/login", json={"username": user,
                                                        "password": password})
        staff[role] = r.cookies["studio_staff"].value
    client.session.cookie_jar.clear()
    identities = {"nobody": {}, "player": ann.headers(),
                  "dealer": {"Cookie": f"studio_staff={staff['dealer']}"},
                  "technician": {"Cookie": f"studio_staff={staff['technician']}"}}
    seen = 0
    codes: Counter[str] = Counter()
    per: Counter = Counter()
    paths = routes(app) + [("POST", f"/video/{studio.table_id}/offer"),
                           ("GET", f"/video/{studio.table_id}/metrics")]
    for method, path in paths:
        if path in ("/api/staff/logout", "/api/player/leave"):
            continue  # they would end the sessions the other requests use
        for url in fill(path, rng):
            for who, headers in identities.items():
                for body in bodies(rng) if method == "POST" else [None]:
                    h = {**headers, "Origin": origin, "Content-Type": "application/json"}
                    r = await client.request(method, url, data=body, headers=h)
                    seen += 1
                    text = await r.read()
                    where = f"{method} {url} as {who} body={body[:80] if body else None!r}"
                    assert r.status < 500, (where, r.status, text[:300])
                    if r.status >= 400 and r.content_type == "application/json":
                        err = json.loads(text)
                        code = err["error"]["code"] if isinstance(err.get("error"), dict) \
                            else err.get("error")
                        assert isinstance(code, str) and CODE.match(code), (where, err)
                        codes[code] += 1
                        per[(who, code)] += 1
    assert seen > 1000 and codes["request.rate_limited"] == 0
    # each identity's bodies reached the checks of its own endpoints, past the sign-in
    assert per[("player", "request.invalid")] > 50
    assert per[("dealer", "request.invalid")] > 10 and per[("technician", "request.invalid")] > 10
    assert codes["request.too_deep"] > 0 and codes["request.malformed_json"] > 0
    assert money(studio, ["ann"]) == before     # nobody's money moved
    report = audit.verify(studio.store, replayers=replay.replayers(),
                          games={studio.actor.stream: studio.actor.game.name})
    assert report.ok, report.problems
