"""The WebSocket per client and the regulation's session rules, on a real table.

State first, then events; a reconnection gets the current state; a second connection of the
same player closes the first; 20 minutes without a game action close the session; a
disconnected player's bets stay in play and the result is in the history; the origin is
checked; nothing a player receives names another player or the burn card.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import WSMsgType

from tests.browser.harness import WAIT_S, StudioHarness
from tests.reveal import shows
from tests.test_web_api import Player, players


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    h.credit("ann", 100_000)
    h.credit("bob", 100_000)
    yield h
    await h.stop()


@pytest.fixture
async def client(studio, aiohttp_client):
    return await aiohttp_client(studio.app)


def origin(client) -> str:
    return str(client.make_url("/")).rstrip("/")


async def connect(client, p: Player, **headers: str):
    return await client.ws_connect(
        f"/ws/player?token={p.token}&session={p.session}",
        headers={"Origin": origin(client), **headers})


async def receive(ws) -> dict:
    return await asyncio.wait_for(ws.receive_json(), WAIT_S)


async def until(ws, predicate) -> tuple[dict, list[dict]]:
    """Read messages until one satisfies predicate; returns it and everything read."""
    seen = []
    while True:
        msg = await receive(ws)
        seen.append(msg)
        if predicate(msg):
            return msg, seen


async def close_code(ws) -> int:
    msg = await asyncio.wait_for(ws.receive(), WAIT_S)
    assert msg.type == WSMsgType.CLOSE, msg
    return msg.data


def is_event(kind: str):
    return lambda m: m["type"] == "event" and m["event"]["type"] == kind


async def test_state_first_then_events_and_reconnection_restores_the_view(studio, client):
    ann, bob = await players(client, studio, "ann", "bob")
    ws = await connect(client, ann)
    first = await receive(ws)
    assert first["type"] == "state" and first["table"]["round"]["phase"] == "betting"
    assert first["balance"] == {"available": 100_000, "reserved": 0}
    await ann.bet(2, 1000)
    await bob.bet(2, 3000)
    placed, _ = await until(ws, is_event("bet_placed"))
    assert placed["event"]["amount"] == 1000
    state, _ = await until(ws, lambda m: m["type"] == "state" and "balance" in m)
    assert state["balance"] == {"available": 99_000, "reserved": 1000}
    assert state["table"]["round"]["my_bets"] == [{"position": 2, "kind": "main",
                                                   "amount": 1000}]
    await studio.close_betting()
    await studio.deal("Ab", "5c", "4d")  # burn, position 2, dealer
    requested, seen = await until(ws, is_event("decision_requested"))
    ev = requested["event"]
    assert ev["you"] is True and ev["count"] == 2 and "players" not in ev
    text = json.dumps(seen)
    assert not shows(text, "Ab"), "the burn card reached a player"
    assert not shows(text, "bob"), "another player's id reached a player"
    assert not shows(text, "3000"), "another player's bet reached a player"
    await ws.close()
    # reconnect: the current state first, with the decision and its deadline
    ws = await connect(client, ann)
    state = await receive(ws)
    rnd = state["table"]["round"]
    assert state["type"] == "state" and rnd["phase"] == "decisions"
    assert rnd["my_decision"] is True and rnd["my_hands"] == {"2": ["5c"]}
    assert rnd["dealer"] == ["4d"] and rnd["positions"]["2"]["cards"] == ["5c"]
    assert rnd["decision"]["deadline"] == studio.clock.now() + studio.cfg.timers.decision_s
    assert not shows(json.dumps(state), "Ab")
    await ws.close()


async def test_a_second_connection_closes_the_first(studio, client):
    (ann,) = await players(client, studio, "ann")
    ws1 = await connect(client, ann)
    assert (await receive(ws1))["type"] == "state"
    second = Player(client, studio, "ann")
    await second.join()  # ann again, from another window
    closed = await receive(ws1)
    assert closed == {"type": "session_closed", "code": "session.replaced",
                      "message": closed["message"]}
    assert await close_code(ws1) == 4001
    # the old session can no longer act, the new one can
    status, body = await ann.bet(1, 500)
    assert (status, body["error"]["code"]) == (409, "session.replaced")
    status, body = await second.bet(1, 500)
    assert status == 200 and body["ok"]
    ws = await connect(client, ann)  # the old session id cannot reconnect either
    refused = await receive(ws)
    assert refused["error"]["code"] == "session.replaced"


async def test_inactivity_closes_the_session_after_20_minutes(studio, client):
    (ann,) = await players(client, studio, "ann")
    ws = await connect(client, ann)
    await receive(ws)
    await ann.bet(1, 500)  # a game action at t0
    await studio.advance(19 * 60)
    assert studio.studio.sessions.current("ann") is not None
    await ws.send_json({"type": "ping"})  # not a game action
    await until(ws, lambda m: m["type"] == "pong")
    await studio.advance(60)
    closed, _ = await until(ws, lambda m: m["type"] == "session_closed")
    assert closed["code"] == "session.inactive"
    assert await close_code(ws) == 4002
    status, body = await ann.get("balance")
    assert (status, body["error"]["code"]) == (409, "session.inactive")


async def test_a_disconnected_players_bets_play_on_and_the_result_is_in_the_history(
        studio, client):
    (ann,) = await players(client, studio, "ann")
    ws = await connect(client, ann)
    await receive(ws)
    await ann.bet(1, 1000)
    await ws.close()  # the connection drops
    await studio.close_betting()
    await studio.deal("2b", "6c", "5d")  # burn; ann 6 against the dealer's 5
    assert studio.phase() == "decisions"
    await studio.advance(studio.cfg.timers.decision_s)  # no answer: ann stands
    assert studio.published("decision_timed_out")
    assert studio.phase() == "closed"  # dealer's 5 stands alone; 6 beats 5
    assert studio.balance("ann") == (101_000, 0)
    _status, hist = await ann.get("history")
    (rnd,) = hist["rounds"]
    assert rnd["net"] == 1000 and rnd["hands"]["1"]["cards"] == ["6c"]


async def test_origin_and_bad_messages(studio, client):
    (ann,) = await players(client, studio, "ann")
    r = await client.get(f"/ws/player?token={ann.token}&session={ann.session}",
                         headers={"Origin": "https://evil.example", "Connection": "Upgrade",
                                  "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                                  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    assert r.status == 403 and (await r.json())["error"]["code"] == "ws.origin_forbidden"
    ws = await connect(client, ann)
    await receive(ws)
    await ws.send_str('{"type": "ping"')
    msg, _ = await until(ws, lambda m: m["type"] == "error")
    assert msg["error"]["code"] == "request.malformed_json"
    await ws.send_json({"type": "bet", "amount": 100})
    msg, _ = await until(ws, lambda m: m["type"] == "error")
    assert msg["error"]["code"] == "ws.unknown_message"
    await ws.send_json({"type": "ping", "extra": 1})
    msg, _ = await until(ws, lambda m: m["type"] == "error")
    assert msg["error"]["code"] == "request.invalid"
    bad = await client.ws_connect(f"/ws/player?token=nope&session={ann.session}",
                                  headers={"Origin": origin(client)})
    msg = await receive(bad)
    assert msg["error"]["code"] == "auth.invalid_token"


async def test_dealer_feed_sees_every_card_with_its_source(studio, client):
    ann, bob = await players(client, studio, "ann", "bob")
    await ann.bet(1, 1000)
    await bob.bet(1, 1000)
    r = await client.post("/api/staff/login", json={"username": "dealer1",
                                                    "password": "dealer-password"})
    assert r.status == 200
    ws = await client.ws_connect(f"/ws/staff?table={studio.table_id}",
                                 headers={"Origin": origin(client)})
    state = await receive(ws)
    assert state["type"] == "state" and state["role"] == "dealer"
    assert state["table"]["round"]["expecting"] is None
    await studio.close_betting()
    state, _ = await until(ws, lambda m: m["type"] == "state"
                           and m["table"]["round"]["phase"] == "burn")
    assert state["table"]["round"]["expecting"] == "burn a card"
    await studio.deal("Ab", "5c")
    state, _ = await until(ws, lambda m: m["type"] == "state"
                           and m["table"]["round"]["expecting"] == "deal to the dealer")
    assert [c["source"] for c in state["table"]["round"]["cards_seen"]] == ["shoe", "shoe"]
    assert state["table"]["round"]["cards_seen"][0]["card"] is None
    await ws.close()
