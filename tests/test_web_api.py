"""The player, dealer and technician APIs over HTTP, on a real table with the simulated shoe.

Each bad input gets its stable code and changes nothing: the balance, the bets on the table
and the event log are compared before and after.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest

from studio.storage import event_log
from tests.browser.harness import DEALER, TECHNICIAN, StudioHarness
from tests.reveal import shows


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    h.credit("ann", 100_000)
    h.credit("bob", 50_000)
    h.credit("poor", 150)
    yield h
    await h.stop()


@pytest.fixture
async def client(studio, aiohttp_client):
    return await aiohttp_client(studio.app)


class Player:
    """One player's HTTP client: token, session, and the commands."""

    def __init__(self, client, studio: StudioHarness, name: str) -> None:
        self.client, self.studio, self.name = client, studio, name
        self.token = studio.token(name)
        self.session = ""

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "X-Session": self.session}

    async def join(self) -> dict:
        r = await self.client.post("/api/player/join", json={"table_id": self.studio.table_id},
                                   headers={"Authorization": f"Bearer {self.token}"})
        body = await r.json()
        assert r.status == 200, body
        self.session = body["session_id"]
        return body

    async def post(self, path: str, body: dict | str | bytes) -> tuple[int, dict]:
        kw = {"json": body} if isinstance(body, dict) else {"data": body}
        r = await self.client.post(f"/api/player/{path}", headers=self.headers(), **kw)
        return r.status, await r.json()

    async def bet(self, position: int, amount: int, kind: str = "main",
                  k: str | None = None) -> tuple[int, dict]:
        return await self.post("bets", {"key": k or key(), "bets": [
            {"position": position, "kind": kind, "amount": amount}]})

    async def decide(self, position: int, choice: str) -> tuple[int, dict]:
        return await self.post("decide", {"key": key(), "position": position, "choice": choice})

    async def get(self, path: str) -> tuple[int, dict]:
        r = await self.client.get(f"/api/player/{path}", headers=self.headers())
        return r.status, await r.json()


async def players(client, studio, *names: str) -> list[Player]:
    out = [Player(client, studio, n) for n in names]
    for p in out:
        await p.join()
    return out


def log_size(studio: StudioHarness) -> int:
    with studio.store.reader() as tx:
        return len(event_log.read(tx, stream_id=f"table:{studio.table_id}"))


def snapshot(studio: StudioHarness, *names: str) -> tuple:
    """Everything a refused command must leave untouched."""
    return (tuple(studio.balance(n) for n in names), log_size(studio),
            tuple(tuple(map(str, studio.actor.snapshot(f"player:{n}")["round"]["my_bets"]))
                  for n in names))


async def test_a_round_bet_hit_stand_settle_and_history(studio, client) -> None:
    (ann,) = await players(client, studio, "ann")
    status, body = await ann.bet(1, 1000)
    assert status == 200 and body["ok"] and body["balance"] == {"available": 99_000,
                                                                "reserved": 1000}
    await studio.close_betting()
    assert studio.expecting() == "burn a card"
    await studio.deal("7b")  # the burn card
    assert studio.expecting() == "deal to position 1"
    await studio.deal("5c", "4d")  # position 1, then the dealer
    assert studio.phase() == "decisions"
    status, body = await ann.decide(1, "carta")
    assert status == 200 and body["ok"], body
    await studio.deal("2s")  # ann: 5 + 2 = 7
    status, body = await ann.decide(1, "stai")
    assert status == 200 and body["ok"], body
    assert studio.expecting() == "deal to the dealer"
    await studio.deal("2c")  # dealer 4 + 2 = 6: stands; ann 7 beats 6
    assert studio.phase() == "closed"
    assert studio.balance("ann") == (101_000, 0)
    status, hist = await ann.get("history")
    assert status == 200
    (rnd,) = hist["rounds"]
    assert rnd["status"] == "closed" and rnd["dealer"] == ["4d", "2c"]
    assert rnd["hands"]["1"]["cards"] == ["5c", "2s"]
    assert rnd["staked"] == 1000 and rnd["returned"] == 2000 and rnd["net"] == 1000
    # the burn card is nowhere in what the player can read
    assert not shows(hist, "7b") and not shows(studio.actor.snapshot("player:ann"), "7b")


async def test_bad_inputs_each_get_their_code_and_change_nothing(studio, client) -> None:
    ann, bob, poor = await players(client, studio, "ann", "bob", "poor")
    status, body = await ann.bet(1, 500)
    assert status == 200
    before = snapshot(studio, "ann", "bob", "poor")

    async def refused(expected_status: int, code: str, coro) -> dict:
        status, body = await coro
        assert (status, body["error"]["code"]) == (expected_status, code), body
        assert snapshot(studio, "ann", "bob", "poor") == before
        return body

    await refused(409, "bet.above_max", ann.bet(2, studio.cfg.limits.main_max + 1))
    await refused(409, "bet.below_min", ann.bet(2, studio.cfg.limits.main_min - 1))
    await refused(402, "ledger.insufficient_funds", poor.bet(1, 200))
    await refused(409, "bet.side_without_main", bob.bet(1, 100, "partita_perfetta"))
    await refused(409, "bet.unknown_position", ann.bet(9, 500))
    await refused(409, "bet.unknown_kind", ann.bet(1, 500, "insurance"))
    await refused(409, "bet.bad_amount", ann.bet(1, -5))
    await refused(400, "request.invalid", ann.post("bets", {"key": key(), "bets": [
        {"position": 1, "amount": "500"}]}))
    await refused(400, "request.invalid", ann.post("bets", {"key": key(), "bets": [
        {"position": 1, "amount": 5.5}]}))
    body = await refused(400, "request.invalid", ann.post("bets", {
        "key": key(), "player": "bob", "bets": [{"position": 1, "amount": 500}]}))
    assert any("player" in f for f in body["error"]["fields"])
    await refused(400, "request.malformed_json", ann.post("bets", b'{"key": "abc'))
    await refused(400, "request.malformed_json", ann.post("bets", b"\xff\xfe"))
    await refused(409, "decision.not_your_turn", ann.decide(1, "carta"))
    # a replayed command: the first answer again, nothing placed twice
    k = key()
    status, first = await bob.bet(2, 700, k=k)
    assert status == 200 and first["ok"]
    after_first = snapshot(studio, "ann", "bob", "poor")
    status, again = await bob.bet(2, 700, k=k)
    assert status == 200 and again["replayed"] is True
    assert {k2: v for k2, v in again.items() if k2 != "replayed"} == first
    assert snapshot(studio, "ann", "bob", "poor") == after_first
    # the same key for another command is refused
    status, body = await bob.bet(2, 900, k=k)
    assert (status, body["error"]["code"]) == (409, "request.key_reused")
    assert snapshot(studio, "ann", "bob", "poor") == after_first
    before = after_first
    # late bets: after Stop alle puntate
    await studio.close_betting()
    before = snapshot(studio, "ann", "bob", "poor")
    await refused(409, "bet.window_closed", bob.bet(3, 500))
    await refused(409, "bet.window_closed", ann.post("cancel", {"key": key()}))


async def test_tokens_and_roles(studio, client) -> None:
    ann, bob = await players(client, studio, "ann", "bob")
    await ann.bet(1, 500)
    before = snapshot(studio, "ann", "bob")

    async def status_code(path: str, headers: dict, body: dict | None = None,
                          method: str = "post") -> tuple[int, str]:
        r = await client.request(method, path, headers=headers, json=body)
        data = await r.json()
        return r.status, data["error"]["code"] if not data.get("ok") else "ok"

    bet = {"key": key(), "bets": [{"position": 1, "amount": 500}]}
    # another player's token with my session: the session belongs to someone else
    assert await status_code("/api/player/bets", {"Authorization": f"Bearer {bob.token}",
                                                  "X-Session": ann.session}, bet) == \
        (409, "session.unknown")
    # bob's own history never shows ann's bets
    _status, hist = await bob.get("history")
    assert hist["rounds"] == []
    forged = ann.token[:-3] + ("AAA" if not ann.token.endswith("AAA") else "BBB")
    assert await status_code("/api/player/bets", {"Authorization": f"Bearer {forged}",
                                                  "X-Session": ann.session}, bet) == \
        (401, "auth.invalid_token")
    expired = studio.studio.signer.player_token("ann", -1)
    assert await status_code("/api/player/bets", {"Authorization": f"Bearer {expired}",
                                                  "X-Session": ann.session}, bet) == \
        (401, "auth.token_expired")
    assert await status_code("/api/player/bets", {}, bet) == (401, "auth.missing_token")
    # a dealer cannot bet: the staff session is not a player token
    r = await client.post("/api/staff/login", json={"username": DEALER[0],
                                                    "password": DEALER[1]})
    assert r.status == 200
    assert await status_code("/api/player/bets", {"X-Session": ann.session}, bet) == \
        (401, "auth.missing_token")
    staff_token = r.cookies["studio_staff"].value
    assert await status_code("/api/player/bets", {"Authorization": f"Bearer {staff_token}",
                                                  "X-Session": ann.session}, bet) == \
        (401, "auth.invalid_token")
    # ... and a dealer does not drive simulators
    assert await status_code(f"/api/tables/{studio.table_id}/sim", {},
                             {"device": "shoe", "action": "deal"}) == (403, "auth.forbidden")
    assert snapshot(studio, "ann", "bob") == before
    # a player token does not open the dealer console
    client.session.cookie_jar.clear()
    assert await status_code(f"/api/tables/{studio.table_id}/dealer",
                             {"Authorization": f"Bearer {ann.token}"},
                             {"key": key(), "command": "pause", "reason": "x"}) == \
        (401, "auth.missing_token")
    r = await client.post("/api/staff/login", json={"username": DEALER[0], "password": "nope"})
    assert (r.status, (await r.json())["error"]["code"]) == (401, "auth.bad_credentials")


async def test_rate_limit_refuses_a_burst_and_recovers(tmp_path, aiohttp_client) -> None:
    h = StudioHarness(tmp_path, web={"command_rate_per_s": 1.0, "command_burst": 3})
    await h.start()
    try:
        h.credit("ann", 100_000)
        client = await aiohttp_client(h.app)
        (ann,) = await players(client, h, "ann")  # join takes one token
        codes = [(await ann.bet(1, 100))[1].get("error", {}).get("code", "ok")
                 for _ in range(4)]
        assert codes == ["ok", "ok", "request.rate_limited", "request.rate_limited"]
        assert h.balance("ann").reserved == 200
        await h.advance(1.0)
        status, _body = await ann.bet(1, 100)
        assert status == 200 and h.balance("ann").reserved == 300
    finally:
        await h.stop()


async def test_dealer_commands_void_and_manual_card(studio, client) -> None:
    ann, bob = await players(client, studio, "ann", "bob")
    await ann.bet(1, 1000)
    await bob.bet(1, 2000)
    await studio.close_betting()
    await studio.deal("7b", "3c")
    r = await client.post("/api/staff/login", json={"username": DEALER[0],
                                                    "password": DEALER[1]})
    assert r.status == 200
    url = f"/api/tables/{studio.table_id}/dealer"
    r = await client.post(url, json={"key": key(), "command": "card", "code": "5d"})
    assert (await r.json())["ok"]  # the dealer's card, keyed in by hand
    r = await client.get(f"{url}/state")
    view = (await r.json())["table"]
    assert view["round"]["dealer"] == ["5d"]
    assert [c["source"] for c in view["round"]["cards_seen"]] == ["shoe", "shoe", "manual"]
    assert view["round"]["cards_seen"][0]["card"] is None  # the burn card stays hidden
    r = await client.post(url, json={"key": key(), "command": "void", "reason": ""})
    assert (r.status, (await r.json())["error"]["code"]) == (409, "void.reason_required")
    r = await client.post(url, json={"key": key(), "command": "void",
                                     "reason": "card dropped on the floor"})
    assert (await r.json())["ok"]
    assert studio.balance("ann") == (100_000, 0) and studio.balance("bob") == (50_000, 0)
    # confirming a shoe/camera reading needs a disagreement; the source must be one of the two
    r = await client.post(url, json={"key": key(), "command": "confirm", "source": "shoe"})
    assert (await r.json())["error"]["code"] == "cross_check.no_dispute"
    r = await client.post(url, json={"key": key(), "command": "confirm", "source": "dice"})
    assert (await r.json())["error"]["code"] == "request.invalid"
    _status, hist = await ann.get("history")
    assert hist["rounds"][0]["status"] == "void"
    assert hist["rounds"][0]["reason"] == "card dropped on the floor"
    assert hist["rounds"][0]["net"] == 0


async def test_technician_drives_the_simulated_shoe(studio, client) -> None:
    (ann,) = await players(client, studio, "ann")
    await ann.bet(2, 1000)
    await studio.close_betting()
    r = await client.post("/api/staff/login", json={"username": TECHNICIAN[0],
                                                    "password": TECHNICIAN[1]})
    assert r.status == 200
    attached = studio.devices.attached
    r = await client.post(f"/api/tables/{studio.table_id}/sim",
                          json={"device": "shoe", "action": "deal_card", "arg": "4s"})
    body = await r.json()
    assert body["ok"] and body["done"] == "dealt 4s"
    assert body["simulators"]["shoe"]["remaining"] == 39
    assert not shows(body["simulators"]["shoe"], "4s")  # counts, never the shoe's order
    await attached.wait_until(lambda: attached.counters["cards"] == 1)
    await attached.settle()
    assert studio.expecting() == "deal to position 2"  # the burn card went in
    r = await client.post(f"/api/tables/{studio.table_id}/sim",
                          json={"device": "shoe", "action": "fault", "arg": "explode"})
    assert (r.status, (await r.json())["error"]["code"]) == (400, "sim.unknown_fault")
    r = await client.post(f"/api/tables/{studio.table_id}/sim",
                          json={"device": "shoe", "action": "fault", "arg": "badcode"})
    assert (await r.json())["ok"]
    await attached.wait_until(lambda: attached.fault_counts()["serial.card_bad_code"] == 1)
    await attached.settle()
    assert studio.actor.paused  # a device fault pauses the table and tells the dealer
    assert any("serial.card_bad_code" in a["message"] for a in studio.actor.alerts)
    r = await client.get(f"/api/tables/{studio.table_id}/devices")
    body = await r.json()
    devices = {d["device"]: d for d in body["devices"]}
    assert devices["shoe"]["online"] is True and devices["shuffler"]["online"] is True
    r = await client.get(f"/api/tables/{studio.table_id}/dealer/state")
    view = (await r.json())["table"]
    assert [f["code"] for f in view["device_faults"]] == ["serial.card_bad_code"]
    # the players learn of the pause, never of its reason
    assert studio.actor.snapshot("player:ann")["paused"]
    _status, state = await ann.get("state")
    assert state["table"]["paused"] == "paused"


async def test_the_table_video_is_mounted_for_players_with_a_token(tmp_path, aiohttp_client):
    from streaming.encoder import EncoderSettings, SharedH264Encoder
    from streaming.fanout import Broadcaster
    from streaming.signalling import VideoService
    from streaming.source import PacedSource, TestPattern
    from studio.web.app import create_app

    h = StudioHarness(tmp_path)
    await h.start()
    try:
        source = PacedSource(TestPattern(320, 180, 25), 320, 180, 25)
        h.studio.video[h.table_id] = VideoService(
            Broadcaster(source, SharedH264Encoder(EncoderSettings(width=320, height=180)), 8))
        client = await aiohttp_client(create_app(h.studio))
        tables = await (await client.get("/api/tables")).json()
        assert tables["tables"][0] == {"id": h.table_id, "name": h.cfg.name,
                                       "game": "sette-e-mezzo-live", "pace": "live",
                                       "video": True}
        assert tables["tables"][1]["video"] is False  # the private Quota Fissa table
        offer = f"/video/{h.table_id}/offer"
        r = await client.post(offer, json={"sdp": "v=0", "type": "offer"})
        assert (r.status, (await r.json())["error"]) == (401, "streaming.unauthorized")
        r = await client.post(offer, json={"sdp": "v=0", "type": "answer"},
                              headers={"Authorization": f"Bearer {h.token('ann')}"})
        # past the token check: the offer itself is what is refused
        assert (r.status, (await r.json())["error"]) == (400, "streaming.bad_offer")
        r = await client.get(f"/video/{h.table_id}/static/video_client.js")
        assert r.status == 200 and "startVideo" in await r.text()
        # the stream's metrics name every viewer: staff only, never a player
        metrics = f"/video/{h.table_id}/metrics"
        r = await client.get(metrics, headers={"Authorization": f"Bearer {h.token('ann')}"})
        assert (r.status, (await r.json())["error"]) == (401, "streaming.unauthorized")
        r = await client.post("/api/staff/login", json={"username": DEALER[0],
                                                        "password": DEALER[1]})
        assert r.status == 200
        r = await client.get(metrics)
        assert r.status == 200 and "peer_connections" in await r.json()
    finally:
        await h.stop()


async def test_the_access_log_keeps_the_path_but_never_a_token(studio, aiohttp_client,
                                                               caplog) -> None:
    import logging

    from aiohttp.test_utils import TestServer

    from studio.web.access_log import PathOnlyAccessLogger

    server = TestServer(studio.app)  # as `studio demo` runs it
    await server.start_server(access_log_class=PathOnlyAccessLogger)
    client = await aiohttp_client(server)
    token = studio.token("ann")
    with caplog.at_level(logging.INFO, logger="aiohttp.access"):
        resp = await client.get(f"/play?token={token}&lang=en")
        assert resp.status == 200
        await resp.release()
    lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert any('"GET /play"' in line and " 200 " in line for line in lines), lines
    assert not any(token in line or "token" in line for line in lines)


async def test_a_seated_blackjack_player_whose_socket_closes_on_his_turn_stands(tmp_path,
                                                                                aiohttp_client):
    """The web tells the live Blackjack table when a player's last socket closes: on that
    player's turn the table stands for him at once, it does not wait for the timer."""
    studio = StudioHarness(tmp_path, table="bj-live-1")
    await studio.start()
    try:
        client = await aiohttp_client(studio.app)
        studio.credit("ann", 10_000)
        (ann,) = await players(client, studio, "ann")
        origin = str(client.make_url("/")).rstrip("/")
        ws = await client.ws_connect(f"/ws/player?token={ann.token}&session={ann.session}",
                                     headers={"Origin": origin})
        await ws.receive_json()                          # the state
        status, placed = await ann.bet(1, 1000)
        assert status == 200 and placed["ok"], placed
        await studio.close_betting()
        await studio.deal("Qd", "5c", "6s", "6b", "Tc")   # the burn, seat 1: 11, dealer 6 T
        assert studio.actor.state.deciding == 1
        gone = asyncio.Event()
        studio.hub.subscribe(lambda table, audience, ev: ev["type"] == "decider_gone"
                             and gone.set())
        await ws.close()                                 # the clock stands still meanwhile
        await asyncio.wait_for(gone.wait(), 10)          # the server saw the socket close
        await studio.actor.drain()
        assert studio.actor.state.deciding is None       # ann stood: the dealer plays
        assert studio.expecting() == "deal to the dealer"
    finally:
        await studio.stop()
