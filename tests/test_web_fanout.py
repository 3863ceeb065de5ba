"""The web fan-out of table events: each event to its audience only, at table scale."""

from collections import Counter

import pytest

from studio.web.tables import TableService
from studio.web.ws import MAX_QUEUE
from tests.table_harness import Harness


@pytest.fixture
async def table(store):
    h = Harness(store)
    service = TableService(h.actor, h.clock)
    yield h, service
    service.close()
    await h.actor.stop()


async def test_a_players_event_reaches_that_player_only_and_public_events_reach_all(table):
    h, service = table
    got: Counter[str] = Counter()
    received: dict[str, list[dict]] = {}
    players = [f"p{i}" for i in range(3_000)]
    for p in [*players, "p7"]:  # p7 has two connections (the second is closed by sessions)
        service.subscribe(f"player:{p}", lambda ev, p=p: (got.update([p]),
                                                           received.setdefault(p, []).append(ev)))
    service.subscribe("dealer", lambda ev: (got.update(["dealer"]),
                                            received.setdefault("dealer", []).append(ev)))
    h.hub.publish(h.actor.table_id, "player:p7", {"type": "player_settled", "player": "p7"})
    assert got == Counter({"p7": 2})
    got.clear()
    h.hub.publish(h.actor.table_id, "dealer", {"type": "settlement_summary", "settled": 3_000})
    assert got == Counter({"dealer": 1})
    got.clear()
    h.hub.publish(h.actor.table_id, "public", {"type": "decision_requested", "position": 1,
                                               "turn": 1, "players": ["p1", "p2"]})
    # 3,001 clients: delivered in chunks, the event loop gets a turn between them
    assert 0 < sum(got.values()) < 3_000 + 2
    await service.delivered()
    assert got["dealer"] == 1 and got["p1"] == 1 and sum(got.values()) == 3_000 + 2
    assert received["p1"][-1]["you"] is True and received["p3"][-1]["you"] is False
    assert "players" not in received["p3"][-1] and received["dealer"][-1]["players"]


async def test_a_settlement_of_more_players_than_a_queue_holds_sends_the_dealer_one_message(
        table):
    """A dealer's connection closes when its queue passes MAX_QUEUE: a settlement must not
    send the dealer one message per player."""
    h, service = table
    dealer: list[dict] = []
    service.subscribe("dealer", dealer.append)
    n = MAX_QUEUE + 200
    for i in range(n):
        h.credit(f"p{i}", 10_000)
    await h.start()
    for i in range(n):
        assert (await h.bet(f"p{i}", 1 + i % 3, 100))["ok"]
    dealer.clear()
    await h.close_betting()
    await h.cards("Qs 7c 7b 7s 4s")   # burn, positions at 7, dealer 4
    while h.actor.state.deciding is not None:
        h.clock.advance(h.cfg.timers.decision_s)  # everyone stands on the timer
        await h.actor.drain()
    await h.cards("2c")               # dealer 6: every bet settles
    assert h.actor.state.finished
    assert len(dealer) < 100
    [summary] = [e for e in dealer if e["type"] == "settlement_summary"]
    assert summary["settled"] == n and summary["returned"] == 2 * 100 * n


async def test_a_public_event_naming_a_player_says_you_to_that_player_alone(table):
    """An event naming one player reaches each player in one of two forms (named or not), as
    a dict and as text alike; no player sees the id, staff see it as published."""
    import json

    h, service = table
    dicts: dict[str, list[dict]] = {}
    texts: dict[str, list[dict]] = {}
    for p in ("p0", "p1", "p2"):
        service.subscribe(f"player:{p}", lambda ev, p=p: dicts.setdefault(p, []).append(ev))
        service.subscribe(f"player:{p}", lambda ev: None,
                          lambda out, ev, p=p: texts.setdefault(p, []).append(
                              json.loads(out.text)["event"]))
    service.subscribe("dealer", lambda ev: dicts.setdefault("dealer", []).append(ev))
    event = {"type": "player_settled", "player": "p1", "net": 100}
    h.hub.publish(h.actor.table_id, "public", event)
    await service.delivered()
    for got in (dicts, texts):
        assert [got[p][-1]["you"] for p in ("p0", "p1", "p2")] == [False, True, False]
        assert all("player" not in got[p][-1] for p in ("p0", "p1", "p2"))
    assert dicts["dealer"] == [event]
