"""The seated tables' player API and WebSocket (studio/web/seated_api.py)."""

from __future__ import annotations

import uuid

import pytest

from tests.mp_studio import MpStudio


@pytest.fixture
async def studio(tmp_path):
    h = MpStudio(tmp_path)
    await h.start(running=False)
    yield h
    await h.stop()


def auth(studio: MpStudio, player: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {studio.token(player)}"}


async def act(client, studio, player: str, table: str = "mp-1", **body) -> tuple[int, dict]:
    r = await client.post(f"/api/seated/{table}/act", headers=auth(studio, player),
                          json={"key": uuid.uuid4().hex, **body})
    return r.status, await r.json()


async def test_sit_accept_and_play_over_http_with_the_state_pushed(studio, aiohttp_client
                                                                   ) -> None:
    client = await aiohttp_client(studio.app)
    for p in ("ann", "bob", "cat"):
        studio.credit(p, 10_000)
    url = f"/ws/seated/mp-1?token={studio.token('bob')}"
    refused = await client.get(url, headers={"Origin": "https://elsewhere.example"})
    assert refused.status == 403
    origin = str(client.make_url("")).rstrip("/")
    ws = await client.ws_connect(url, headers={"Origin": origin})
    first = await ws.receive_json()
    assert first["type"] == "table_state" and "me" not in first["state"]
    studio.mp_shoe.stacks = [["Kd"]]
    for p in ("ann", "bob", "cat"):
        status, answer = await act(client, studio, p, type="sit", amount=5000)
        assert status == 200, answer
    assert answer["state"]["offer"] == "ann"
    status, answer = await act(client, studio, "bob", type="accept", amount=1000)
    assert (status, answer["error"]["code"]) == (409, "mp.not_offered")
    status, answer = await act(client, studio, "ann", type="accept", amount=1000)
    assert answer["state"]["piatto"] == 1000
    assert answer["state"]["me"]["buttons"] == []
    r = await client.get("/api/seated/mp-1", headers=auth(studio, "bob"))
    mine = (await r.json())["state"]["me"]
    assert [b["label"] for b in mine["buttons"]] == ["Gioco", "Non gioco"]
    pushed = None
    while pushed is None or "me" not in pushed["state"] or pushed["state"]["banker"] is None:
        pushed = await ws.receive_json()
    assert pushed["state"]["me"]["player"] == "bob"
    assert pushed["state"]["banker"] == "ann"
    status, answer = await act(client, studio, "bob", type="hack")
    assert (status, answer["error"]["code"]) == (400, "request.invalid")
    r = await client.post("/api/seated/mp-1/act", json={"key": "k" * 10, "type": "sit"})
    assert r.status == 401
    await ws.close()


async def test_the_page_is_served(studio, aiohttp_client) -> None:
    client = await aiohttp_client(studio.app)
    r = await client.get(f"/seated?table=mp-1&token={studio.token('ann')}")
    assert r.status == 200 and "page.js" in await r.text()
    r = await client.get("/games/sette-e-mezzo-multiplayer/page.js")
    assert r.status == 200
    r = await client.get("/api/seated")
    assert (await r.json())["tables"][0]["id"] == "mp-1"


async def test_a_repeated_key_gets_the_first_outcome_and_does_nothing_again(
        studio, aiohttp_client) -> None:
    client = await aiohttp_client(studio.app)
    studio.credit("ann", 10_000)
    body = {"key": "repeat-key-1", "type": "sit", "amount": 5000}
    first = await client.post("/api/seated/mp-1/act", headers=auth(studio, "ann"), json=body)
    again = await client.post("/api/seated/mp-1/act", headers=auth(studio, "ann"), json=body)
    assert first.status == again.status == 200
    assert (await again.json())["state"]["me"]["credit"] == 5000
    assert studio.balance("ann").available == 5000  # bought in once


async def test_every_money_movement_has_its_ticket(studio, aiohttp_client) -> None:
    client = await aiohttp_client(studio.app)
    for p in ("ann", "bob"):
        studio.credit(p, 10_000)
    studio.mp_shoe.stacks = [["Kd"]]
    for p in ("ann", "bob"):
        assert (await act(client, studio, p, type="sit", amount=5000))[0] == 200
    await act(client, studio, "ann", type="accept", amount=1000)
    studio.mp_shoe.stacks = [["7c", "5c"]]
    await act(client, studio, "bob", type="join", plays=True)
    await act(client, studio, "bob", type="stake", amount=400, hit=False)
    await act(client, studio, "ann", type="decide", hit=False)  # bob 7 v 5: bob wins 400
    await act(client, studio, "bob", type="rebuy", amount=100)
    r = await client.get("/api/seated/mp-1/tickets", headers=auth(studio, "bob"))
    tickets = (await r.json())["tickets"]
    assert [t["legs"] for t in tickets] == [
        {"account": -100, "table_credit": 100},  # the rebuy
        {"piatto": -400, "table_credit": 380, "rake": 20},  # the hand, in one movement
        {"account": -5000, "table_credit": 5000}]  # the buy-in
    r = await client.get("/api/seated/mp-1/tickets", headers=auth(studio, "ann"))
    assert [t["legs"] for t in (await r.json())["tickets"]] == [
        {"piatto": -600, "table_credit": 600},  # the bank's end: what the piatto held
        {"piatto": 1000, "table_credit": -1000},  # the piatto put up
        {"account": -5000, "table_credit": 5000}]
    assert all(t["ticket"].startswith("mp-1:t") for t in tickets)


async def test_a_sit_and_go_tournament_from_its_lobby(studio, aiohttp_client) -> None:
    import random

    from studio.games.sette_e_mezzo_multiplayer.game import GAME
    from studio.table.tournaments import Tournament, TournamentSetup
    from studio.web import seated_api
    from tests.mp_harness import mp_config

    setup = TournamentSetup("sng", mp_config("piatto", kind="tournament", rake_bp=0),
                            buy_in=1000, chips=3000, prizes_bp=(7000, 3000), players=3)
    seated_api.add_tournament(studio.app, Tournament(setup, studio.seated, studio.store, GAME,
                                                     random.Random(1)))
    client = await aiohttp_client(studio.app)
    for p in ("ann", "bob", "cat", "dan"):
        studio.credit(p, 5000)
    for p in ("ann", "bob"):
        r = await client.post("/api/seated/tournaments/sng/register", headers=auth(studio, p))
        assert r.status == 200
    r = await client.post("/api/seated/tournaments/sng/register", headers=auth(studio, "ann"))
    assert (r.status, (await r.json())["error"]["code"]) == (409, "tournament.registered")
    r = await client.post("/api/seated/tournaments/sng/register", headers=auth(studio, "cat"))
    lobby = (await r.json())["tournament"]
    assert lobby["started"] and sorted(lobby["tables"]["sng-1"]) == ["ann", "bob", "cat"]
    r = await client.post("/api/seated/tournaments/sng/register", headers=auth(studio, "dan"))
    assert (await r.json())["error"]["code"] == "tournament.started"
    assert studio.balance("cat").available == 4000 and studio.balance("dan").available == 5000
    r = await client.get("/api/seated/sng-1", headers=auth(studio, "ann"))
    state = (await r.json())["state"]
    assert state["kind"] == "tournament" and state["me"]["credit"] == 3000  # chips
    _, answer = await act(client, studio, "ann", "sng-1", type="rebuy", amount=100)
    assert answer["error"]["code"] == "mp.no_rebuy_in_tournament"
    _, answer = await act(client, studio, "dan", "sng-1", type="sit", amount=3000)
    assert answer["error"]["code"] == "mp.tournament_seats_drawn"  # no seat but the draw's
    # the bots play it out over HTTP; the tournament directs itself after each commit
    import asyncio

    from tests.mp_bots import bot_move

    rng = random.Random(3)
    table = studio.seated.tables["sng-1"]
    for _ in range(20_000):
        move = bot_move(table.state, rng)
        if move is None:
            break
        player = move.pop("player")
        studio.clock.advance(0.3)  # players' pace: within the rate limit, no timer runs out
        status, answer = await act(client, studio, player, "sng-1", **move)
        assert status == 200, answer
    for _ in range(500):  # the director's task runs after the last commit
        r = await client.get("/api/seated/tournaments/sng")
        lobby = (await r.json())["tournament"]
        if lobby["ranking"]:
            break
        await asyncio.sleep(0.01)
    assert len(lobby["ranking"]) == 3 and list(lobby["prizes"].values()) == [2100, 900]
    winner = lobby["ranking"][0]
    assert studio.balance(winner).available == 4000 + 2100


async def test_a_launched_player_buys_in_from_its_operator_s_wallet_and_gets_it_back(
        studio, aiohttp_client) -> None:
    from datetime import UTC, datetime

    from studio.config import OperatorConfig
    from studio.wallet.client import WalletClient
    from studio.wallet.http_wallet import HttpWallet
    from studio.wallet.operator_sim import OperatorSim

    secret = b"casino-one-shared-secret-0123456789"
    sim = OperatorSim(secret, accounts={"ann": 50_000}, now=studio.clock.now,
                      clock=lambda: datetime.fromtimestamp(studio.clock.now(), UTC))
    url = await sim.start()
    studio.studio.add_operator(OperatorConfig(id="casino-one", name="Casino One",
                                              secret_env="-", wallet_url=url), secret)
    wallet = HttpWallet(studio.store, WalletClient(url, secret, timeout=1.0,
                                                   now=studio.clock.now))
    studio.studio.wallets.add("casino-one", wallet)
    try:
        client = await aiohttp_client(studio.app)
        ann = "casino-one.ann"
        status, answer = await act(client, studio, ann, type="sit", amount=60_000)
        assert answer["error"]["code"].startswith("wallet.")  # more than the wallet holds
        assert sim.book.accounts["ann"] == 50_000
        status, answer = await act(client, studio, ann, type="sit", amount=5_000)
        assert status == 200 and answer["state"]["me"]["credit"] == 5_000
        assert sim.book.accounts["ann"] == 45_000 and studio.balance(ann).available == 0
        status, answer = await act(client, studio, ann, type="sit", amount=5_000)
        assert answer["error"]["code"] == "mp.already_seated"
        assert sim.book.accounts["ann"] == 45_000  # the refused buy-in went back
        await act(client, studio, ann, type="leave")
        await studio.studio.wallets.settled()
        assert sim.book.accounts["ann"] == 50_000 and studio.balance(ann).available == 0
    finally:
        await wallet.close()
        await sim.stop()


async def test_the_lobby_lists_the_seated_cash_tables_and_their_players(studio,
                                                                        aiohttp_client):
    client = await aiohttp_client(studio.app)
    studio.credit("ann", 10_000)
    status, answer = await act(client, studio, "ann", type="sit", amount=5000)
    assert status == 200, answer
    r = await client.get("/api/lobby", headers=auth(studio, "ann"))
    lobby = await r.json()
    (seated,) = [t for t in lobby["tables"] if t["pace"] == "seated"]
    assert seated["id"] == "mp-1" and seated["players"] == 1
    assert seated["href"] == "/seated?table=mp-1" and seated["status"] == "open"


async def test_the_operators_reality_check_stops_a_seated_player_until_acknowledged(
        studio, aiohttp_client):
    from studio.operators.limits import Limits

    client = await aiohttp_client(studio.app)
    studio.credit("ann", 10_000)
    studio.studio.rg.start("ann", "casino-one", Limits(reality_check_s=600), 10_000,
                           studio.clock.now())
    assert (await act(client, studio, "ann", type="sit", amount=5000))[0] == 200
    studio.clock.advance(600)
    status, answer = await act(client, studio, "ann", type="sitout")
    assert (status, answer["error"]["code"]) == (403, "rg.reality_check_due")
    status, answer = await act(client, studio, "ann", type="leave")  # leaving: never refused
    assert status == 200, answer
