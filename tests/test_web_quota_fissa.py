"""The private Quota Fissa table over HTTP: each player joins an instance of their own, "Carte"
places the stake and deals, Carta/Stai decide; every bad input gets its stable code and changes
nothing (balances, the instance's round and its event log compared before and after)."""

from __future__ import annotations

import uuid

import pytest

from studio.storage import event_log
from tests.browser.harness import StudioHarness

QF = "sem-quota-fissa-1"


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    h.credit("ann", 10_000)
    h.credit("bob", 10_000)
    yield h
    await h.stop()


@pytest.fixture
async def client(studio, aiohttp_client):
    return await aiohttp_client(studio.app)


class Player:
    def __init__(self, client, studio: StudioHarness, name: str) -> None:
        self.client, self.studio, self.name = client, studio, name
        self.token = studio.token(name)
        self.session = ""

    async def join(self, table: str = QF) -> dict:
        r = await self.client.post("/api/player/join", json={"table_id": table},
                                   headers={"Authorization": f"Bearer {self.token}"})
        body = await r.json()
        assert r.status == 200, body
        self.session = body["session_id"]
        return body

    async def post(self, path: str, body: dict | bytes) -> tuple[int, dict]:
        kw = {"json": body} if isinstance(body, dict) else {"data": body}
        r = await self.client.post(f"/api/player/{path}", headers={
            "Authorization": f"Bearer {self.token}", "X-Session": self.session}, **kw)
        return r.status, await r.json()

    async def deal(self, amount, cards: str | None = None) -> tuple[int, dict]:
        if cards:
            self.studio.qf_shoe.stacks.append(cards.split())
        return await self.post("deal", {"key": key(), "amount": amount})

    async def decide(self, choice: str) -> tuple[int, dict]:
        return await self.post("decide", {"key": key(), "position": 1, "choice": choice})

    async def get(self, path: str) -> tuple[int, dict]:
        r = await self.client.get(f"/api/player/{path}", headers={
            "Authorization": f"Bearer {self.token}", "X-Session": self.session})
        return r.status, await r.json()


def snapshot(studio: StudioHarness, player: str) -> tuple:
    with studio.store.reader() as tx:
        log = len(event_log.read(tx, stream_id=f"table:{QF}/{player}"))
    actor = studio.private.instances[player].actor
    s = actor.state
    return studio.balance(player), log, actor.round_no, (s.phase, s.cards, s.bank) if s else None


async def test_a_hand_from_join_to_history(studio, client):
    ann = Player(client, studio, "ann")
    joined = await ann.join()
    assert joined["table"]["game"] == "sette-e-mezzo-quota-fissa"
    assert joined["table"]["table_id"] == f"{QF}/ann"
    status, body = await ann.deal(1000, "4c 6d 3s")
    assert status == 200 and body["ok"] and body["balance"]["reserved"] == 1000
    status, state = await ann.get("state")
    rnd = state["table"]["round"]
    assert rnd["positions"]["1"]["cards"] == ["4c"] and rnd["dealer"] == ["6d"]
    assert rnd["choices"] == ["carta"]  # 4 below the bank's 6: Carta only
    assert (await ann.decide("carta"))[1]["ok"]  # 7
    status, body = await ann.decide("stai")
    assert body["ok"]
    status, hist = await ann.get("history")
    (rnd,) = hist["rounds"]
    assert rnd["hands"]["1"] == {"cards": ["4c", "3s"], "total": 14}
    # the bank stands on 6: 7 beats it
    assert rnd["results"][0]["bank"] == ["6d"] and rnd["results"][0]["result"] == "win"
    assert rnd["net"] == 1000 and studio.balance("ann").available == 11_000


async def test_players_play_their_own_tables(studio, client):
    ann, bob = Player(client, studio, "ann"), Player(client, studio, "bob")
    await ann.join()
    await bob.join()
    assert (await ann.deal(1000, "6c 5d"))[1]["ok"]
    status, body = await bob.decide("stai")  # bob has no hand; ann's is not his
    assert (status, body["error"]["code"]) == (409, "decision.not_your_turn")
    assert studio.private.instances["ann"].actor.state.awaiting_decision


async def test_bad_inputs_each_get_their_code_and_change_nothing(studio, client):
    ann = Player(client, studio, "ann")
    await ann.join()
    assert (await ann.deal(1000, "2c 6d"))[1]["ok"]  # a hand in play, Carta forced
    before = snapshot(studio, "ann")

    async def refused(expected: tuple[int, str], coro) -> None:
        status, body = await coro
        assert (status, body["error"]["code"]) == expected, body
        assert snapshot(studio, "ann") == before

    await refused((409, "round.in_progress"), ann.deal(1000))
    await refused((409, "decision.must_hit"), ann.decide("stai"))
    await refused((409, "decision.bad_choice"), ann.decide("raddoppia"))  # not this game's
    await refused((400, "request.invalid"), ann.decide("Carta!"))  # not a word at all
    await refused((400, "request.invalid"), ann.post("deal", {"key": key(), "amount": "10"}))
    await refused((400, "request.invalid"), ann.post("deal", {"key": key(), "amount": 1.5}))
    await refused((400, "request.invalid"), ann.post("deal", {"key": key(), "amount": 100,
                                                              "player": "bob"}))
    await refused((400, "request.malformed_json"), ann.post("deal", b'{"key": '))
    # finish the hand; then the stake's own refusals, with no hand in play
    assert (await ann.decide("carta"))[1]["ok"]
    s = studio.private.instances["ann"].actor.state
    while not s.finished:
        await ann.decide("stai" if "stai" in s.choices() else "carta")
        s = studio.private.instances["ann"].actor.state
    before = snapshot(studio, "ann")
    await refused((409, "bet.bad_amount"), ann.post("deal", {"key": key(), "amount": -1}))
    await refused((409, "bet.below_min"), ann.deal(studio.qf_cfg.limits.main_min - 1))
    await refused((409, "bet.above_max"), ann.deal(studio.qf_cfg.limits.main_max + 1))
    await refused((402, "ledger.insufficient_funds"), ann.deal(50_000))
    await refused((409, "bet.unknown_position"), ann.post("deal", {"key": key(), "amount": 100,
                                                                   "position": 2}))
    await refused((409, "table.private"), ann.post("bets", {"key": key(), "bets": [
        {"position": 1, "amount": 100}]}))


async def test_the_live_table_refuses_carte(studio, client):
    ann = Player(client, studio, "ann")
    await ann.join(studio.table_id)
    status, body = await ann.deal(1000)
    assert (status, body["error"]["code"]) == (409, "table.not_private")


async def test_card_images_and_pages(studio, client):
    r = await client.get("/cards/napoletane/Kd.jpg")
    assert r.status == 200 and r.headers["Content-Type"] == "image/jpeg"
    assert (await client.get("/cards/piacentine/back.jpg")).status == 200
    assert (await client.get("/cards/napoletane/9d.jpg")).status == 404  # not in the deck
    assert (await client.get("/cards/klingon/Kd.jpg")).status == 404
    r = await client.get(f"/play?table={QF}")
    assert "Quota Fissa" in await r.text()
    r = await client.get("/api/tables")
    assert {"id": QF, "pace": "private"}.items() <= next(
        t for t in (await r.json())["tables"] if t["id"] == QF).items()


async def test_twenty_minutes_without_a_game_action_close_the_session_not_the_pending_hand(
        studio, client):
    """The regulation: no game action for 20 minutes closes the session with an inactivity
    alert; the hand left with a choice pending waits for the player (a week)."""
    import asyncio

    ann = Player(client, studio, "ann")
    ann.token = studio.token("ann", ttl_s=30 * 24 * 3600)  # the player comes back in days
    await ann.join()
    assert (await ann.deal(1000, "5c 3d"))[1]["ok"]
    base = str(client.make_url("/")).rstrip("/")
    ws = await client.ws_connect(f"/ws/player?token={ann.token}&session={ann.session}",
                                 headers={"Origin": base})
    assert (await asyncio.wait_for(ws.receive_json(), 10))["type"] == "state"
    inst = studio.private.instances["ann"]
    assert inst.connections
    studio.clock.advance(20 * 60)
    while True:
        msg = await asyncio.wait_for(ws.receive_json(), 10)
        if msg["type"] == "session_closed":
            break
    assert msg["code"] == "session.inactive"
    await asyncio.wait_for(ws.receive(), 10)  # the close frame
    for _ in range(100):  # the server's side of the socket ends: the player is away
        if not inst.connections:
            break
        await asyncio.sleep(0.01)
    assert not inst.connections and inst.timer is not None
    studio.clock.advance(6 * 24 * 3600)
    assert "ann" in studio.private.instances  # the pending hand waits
    status, body = await ann.decide("stai")
    assert (status, body["error"]["code"]) == (409, "session.inactive")
    await ann.join()  # the player comes back: a new session, the same hand
    assert (await ann.decide("stai"))[1]["ok"]
