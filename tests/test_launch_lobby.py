"""An operator launches a player: a signed server-to-server request, a one-time address, an
HttpOnly cookie; the lobby; the operator's responsible-gaming limits enforced on bets."""

from __future__ import annotations

import json

import pytest

from studio.config import OperatorConfig
from studio.wallet import signing
from tests.browser.harness import DEALER, StudioHarness

SECRET = b"casino-one-shared-secret-0123456789"
OP = OperatorConfig(id="casino-one", name="Casino One", secret_env="X")


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    h.studio.add_operator(OP, SECRET)
    await h.start()
    yield h
    await h.stop()


@pytest.fixture
async def client(studio, aiohttp_client):
    return await aiohttp_client(studio.app)


def origin(client) -> str:
    return str(client.make_url("/")).rstrip("/")


async def launch(studio, client, body: dict, *, key: bytes = SECRET,
                 operator: str = "casino-one") -> tuple[int, dict, dict]:
    raw = json.dumps(body).encode()
    headers = {"X-Operator": operator, "Content-Type": "application/json",
               **signing.sign(key, raw, now=studio.clock.now)}
    r = await client.post("/api/operator/launch", data=raw, headers=headers)
    answer = await r.json()
    if r.status != 401:  # a known operator's answer is signed, bound to the request
        signing.verify(SECRET, r.headers, await r.read(), now=studio.clock.now,
                       bound_to=headers[signing.SIGNATURE_HEADER])
    return r.status, answer, headers


async def open_launch(client, url: str):
    path = url.split("//", 1)[1].split("/", 1)[1]
    return await client.get("/" + path, allow_redirects=False)


async def launched(studio, client, **body) -> str:
    """A launch opened by the player's browser; the player's studio id."""
    status, answer, _ = await launch(studio, client, {"player_id": "u-1", **body})
    assert status == 200, answer
    r = await open_launch(client, answer["launch_url"])
    assert r.status == 303
    return answer["player"]


async def test_a_launch_gives_a_one_time_address_and_an_httponly_cookie(studio, client):
    status, answer, _ = await launch(studio, client, {"player_id": "u-1",
                                                      "table_id": "sem-live-1", "lang": "en"})
    assert status == 200 and answer["player"] == "casino-one.u-1"
    url = answer["launch_url"]
    assert "token" not in url and "/launch/" in url
    r = await open_launch(client, url)
    assert r.status == 303 and r.headers["Location"] == "/play?table=sem-live-1&lang=en"
    cookie = r.headers["Set-Cookie"]
    assert "studio_player=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert r.headers["Referrer-Policy"] == "no-referrer"
    again = await open_launch(client, url)                  # once only
    assert again.status == 410 and 'data-code=\'launch.used\'' in await again.text()
    # the cookie signs the player in: join, and a bet from the studio's own page
    studio.credit("casino-one.u-1", 5_000)
    r = await client.post("/api/player/join", json={"table_id": "sem-live-1"})
    joined = await r.json()
    assert joined["ok"] and joined["player"] == "casino-one.u-1"
    headers = {"X-Session": joined["session_id"], "Origin": origin(client)}
    r = await client.post("/api/player/bets", json={"key": "key-0001", "bets": [
        {"position": 1, "kind": "main", "amount": 1000}]}, headers=headers)
    placed = await r.json()
    assert placed["ok"], placed
    # another site's page cannot use the cookie
    r = await client.post("/api/player/bets", json={"key": "key-0002", "bets": [
        {"position": 1, "kind": "main", "amount": 1000}]},
        headers={**headers, "Origin": "https://evil.example"})
    assert r.status == 403 and (await r.json())["error"]["code"] == "auth.origin_forbidden"
    assert studio.balance("casino-one.u-1") == (4_000, 1_000)


async def test_launch_refusals_have_stable_codes(studio, client):
    status, answer, _ = await launch(studio, client, {"player_id": "u-1"}, operator="nobody")
    assert (status, answer["error"]["code"]) == (401, "operator.unknown")
    status, answer, _ = await launch(studio, client, {"player_id": "u-1"},
                                     key=b"not-the-shared-secret-at-all")
    assert (status, answer["error"]["code"]) == (401, "auth.bad_signature")
    for body, code in [
        ({"player_id": "a:b"}, "launch.bad_player"),
        ({"player_id": "u-1", "lang": "fr"}, "launch.bad_lang"),
        ({"player_id": "u-1", "table_id": "nope"}, "table.unknown"),
        ({"player_id": "u-1", "limits": {"loss_limit_cents": -5}}, "launch.bad_limits"),
        ({"player_id": "u-1", "limits": {"bet_limit": 5}}, "launch.bad_limits"),
        ({"player_id": "u-1", "return_url": "javascript:alert(1)"}, "launch.bad_return_url"),
        ({"player_id": "u-1", "extra": 1}, "request.invalid"),
    ]:
        status, answer, _ = await launch(studio, client, body)
        assert 400 <= status < 500 and answer["error"]["code"] == code, (body, answer)
    r = await client.get("/launch/not-a-code", allow_redirects=False)
    assert r.status == 404 and "launch.unknown" in await r.text()
    status, answer, _ = await launch(studio, client, {"player_id": "u-1"})
    studio.clock.advance(OP.launch_ttl_s)
    r = await open_launch(client, answer["launch_url"])
    assert r.status == 410 and "launch.expired" in await r.text()


async def test_the_lobby_lists_tables_as_they_are_and_names_the_dealer(studio, client):
    player = await launched(studio, client)
    studio.credit(player, 5_000)
    r = await client.post("/api/staff/login", json={"username": DEALER[0],
                                                    "password": DEALER[1]})
    assert r.status == 200
    console = await client.ws_connect("/ws/staff?table=sem-live-1",
                                      headers={"Origin": origin(client)})
    await console.receive_json()
    lobby = await (await client.get("/api/lobby")).json()
    assert lobby["ok"] and lobby["player"] == player and lobby["balance"]["available"] == 5_000
    tables = {t["id"]: t for t in lobby["tables"]}
    live = tables["sem-live-1"]
    assert live["status"] == "betting" and live["pace"] == "live"
    assert live["dealer"] == DEALER[0] and live["limits"]["min"] > 0
    assert tables["bj-virtual-1"]["pace"] == "private"
    await console.close()
    await studio.close_betting()                             # no bets: the round ends
    lobby = await (await client.get("/api/lobby")).json()
    live = {t["id"]: t for t in lobby["tables"]}["sem-live-1"]
    assert live["dealer"] is None                             # the console closed
    assert live["status"] in ("playing", "waiting")


async def test_a_stake_limit_and_a_loss_limit_refuse_the_next_bet(studio, client):
    studio.credit("casino-one.u-1", 10_000)  # what the player holds when the session starts
    player = await launched(studio, client, limits={"stake_limit_cents": 2_500,
                                                    "loss_limit_cents": 1_500})
    r = await client.post("/api/player/join", json={"table_id": "sem-live-1"})
    session = (await r.json())["session_id"]
    headers = {"X-Session": session, "Origin": origin(client)}

    async def bet(key: str, amount: int) -> tuple[int, dict]:
        r = await client.post("/api/player/bets", json={"key": f"key-{key}-0000", "bets": [
            {"position": 1, "kind": "main", "amount": amount}]}, headers=headers)
        return r.status, await r.json()

    assert (await bet("a", 1_000))[1]["ok"]
    status, answer = await bet("b", 1_000)                   # 2,000 in play: a 1,500 loss
    assert status == 403 and answer["error"]["code"] == "rg.loss_limit", answer
    assert answer["error"]["net_cents"] == 0 and answer["error"]["limit_cents"] == 1_500
    assert studio.balance(player) == (9_000, 1_000)          # nothing changed
    assert (await bet("c", 500))[1]["ok"]                    # 1,500 at risk: allowed
    limits = await (await client.get("/api/player/limits")).json()
    assert limits["staked_cents"] == 1_500 and limits["limits"]["stake_limit_cents"] == 2_500


async def test_the_reality_check_and_the_session_time_limit(studio, client):
    player = await launched(studio, client, limits={"reality_check_s": 600,
                                                    "session_time_limit_s": 1_000})
    studio.credit(player, 10_000)
    r = await client.post("/api/player/join", json={"table_id": "sem-live-1"})
    headers = {"X-Session": (await r.json())["session_id"], "Origin": origin(client)}

    async def bet(key: str) -> tuple[int, dict]:
        r = await client.post("/api/player/bets", json={"key": f"key-{key}-0000", "bets": [
            {"position": 1, "kind": "main", "amount": 100}]}, headers=headers)
        return r.status, await r.json()

    assert (await bet("a"))[1]["ok"]
    studio.clock.advance(600)                                # ten minutes: time for a check
    status, answer = await bet("b")
    assert status == 403 and answer["error"]["code"] == "rg.reality_check_due"
    assert answer["error"]["played_s"] == 600
    r = await client.post("/api/player/reality-check", json={}, headers=headers)
    assert (await r.json())["reality_check_in_s"] == 600
    status, answer = await bet("c")      # past the check: what stops it now is the table's
    assert answer["error"]["code"] == "bet.window_closed", answer  # own window (10 min on)
    studio.clock.advance(400)                                # 1,000 s since the launch
    status, answer = await bet("d")
    assert status == 403 and answer["error"]["code"] == "rg.session_time_limit"
    r = await client.post("/api/player/autoplay", json={"key": "key-autoplay", "rounds": 5},
                          headers=headers)
    assert (await r.json())["error"]["code"] == "rg.autoplay_off"
