"""One table, two edges, over a real NATS server: the table's actor (the single writer) runs
behind a `TableBridge`; each edge serves its own players through a `RemoteTable`. Players on
both edges bet in one window; both edges' players see the same events in the same order, and
each player's state on an edge is the table's own view of that player. A burst an edge
missed brings a sync, never a wrong state."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import nats
import pytest

from studio.cluster.bridge import TableBridge
from studio.cluster.remote import RemoteTable
from tests.bench.bench_edge_fanout import Wire
from tests.nats_server import nats_server
from tests.reveal import shows
from tests.table_harness import Harness


@pytest.fixture
def nats_url():
    with nats_server() as url:
        yield url


class Edge:
    """An edge and the events its players saw, in order."""

    def __init__(self, table: RemoteTable) -> None:
        self.table = table
        self.seen: list[tuple[str, str]] = []
        table.subscribe("player:watcher", lambda ev: self.seen.append(
            (ev["type"], json.dumps(ev, sort_keys=True))))


async def settled(bridge: TableBridge, *edges: Edge) -> None:
    """Until every burst the table published has reached every edge."""
    await bridge.nc.flush()
    for e in edges:
        await e.table.actor.nc.flush()
    for _ in range(200):
        if all(e.table.actor.seq == bridge.seq and e.table.actor.settled for e in edges) \
                and bridge._out.empty():
            return
        await bridge.nc.flush()
        for e in edges:
            await e.table.actor.nc.flush()
    raise AssertionError(f"edges at {[e.table.actor.seq for e in edges]}, table {bridge.seq}")


@contextlib.asynccontextmanager
async def one_edge(store, nats_url: str, players: tuple[str, ...]
                   ) -> AsyncIterator[tuple[Harness, TableBridge, RemoteTable]]:
    """A table behind its bridge and one edge over NATS, the players credited."""
    h = Harness(store)
    for p in players:
        h.credit(p, 10_000)
    nc_table, nc_edge = [await nats.connect(nats_url) for _ in range(2)]
    bridge = TableBridge(h.actor, nc_table)
    await bridge.start()
    await h.start()
    table = RemoteTable(h.cfg, store, h.clock, nc_edge)
    await table.start()
    try:
        yield h, bridge, table
    finally:
        await table.actor.stop()
        await bridge.stop()
        await h.actor.stop()
        for nc in (nc_table, nc_edge):
            await nc.close()


@contextlib.asynccontextmanager
async def burnt(store, nats_url: str) -> AsyncIterator[tuple[Harness, TableBridge, RemoteTable,
                                                              Edge, dict[str, Any]]]:
    """One edge; ann bet on position 1 and bob on 2, both connected; betting closed and the
    burn dealt (no view changes, no wait), every write of it out."""
    from tests.test_ws_fanout import connect

    async with one_edge(store, nats_url, ("ann", "bob")) as (h, bridge, table):
        edge = Edge(table)
        for p, pos in (("ann", 1), ("bob", 2)):
            placed = await table.actor.place_bets(p, [{"position": pos, "kind": "main",
                                                       "amount": 1000}], f"key-{p}")
            assert placed["ok"], placed
            await table.prepare(p)
        conns = {p: connect(table, p) for p in ("ann", "bob")}
        await h.close_betting()
        await h.cards("7b")
        await settled(bridge, edge)
        await table.delivered()
        yield h, bridge, table, edge, conns


@pytest.mark.parametrize("max_personal", [500, 1])
async def test_players_on_two_edges_bet_in_one_window_and_see_the_same_events(
        store, nats_url, monkeypatch, max_personal):
    """`max_personal` 1: the players' views follow a burst one a message, built one at a
    time: the edges' states wait for the last of them."""
    from studio.cluster import wire

    monkeypatch.setattr(wire, "MAX_PERSONAL", max_personal)
    h = Harness(store)
    h.credit("ann", 10_000)
    h.credit("bob", 10_000)
    nc_table, nc_1, nc_2 = [await nats.connect(nats_url) for _ in range(3)]
    bridge = TableBridge(h.actor, nc_table)
    await bridge.start()
    await h.start()
    edges = []
    for nc in (nc_1, nc_2):
        table = RemoteTable(h.cfg, store, h.clock, nc)
        await table.start()
        edges.append(Edge(table))
    one, two = edges
    try:
        assert one.table.actor.public["round"]["phase"] == "betting"
        a = await one.table.actor.place_bets("ann", [{"position": 1, "kind": "main",
                                                      "amount": 1000}], "key-ann-1")
        b = await two.table.actor.place_bets("bob", [{"position": 2, "kind": "main",
                                                      "amount": 2000}], "key-bob-1")
        assert a["ok"] and b["ok"], (a, b)
        again = await two.table.actor.place_bets("ann", [{"position": 1, "kind": "main",
                                                          "amount": 1000}], "key-ann-1")
        assert again["round_id"] == a["round_id"]   # the same key: the same answer, once
        assert h.balance("ann") == (9_000, 1_000)
        await h.close_betting()
        await h.cards("7b 5c 6d 4d")                 # the burn, positions 1 and 2, the dealer
        await settled(bridge, one, two)
        assert one.seen == two.seen and one.seen     # the same events, in the same order
        assert not shows(one.seen, "7b")             # the burn card: never published
        for edge in edges:
            for player in ("ann", "bob"):
                await edge.table.prepare(player)
                view = edge.table.view(f"player:{player}")
                mine = h.actor.snapshot(f"player:{player}")
                assert view["round"]["my_bets"] == mine["round"]["my_bets"]
                assert view["round"]["my_hands"] == mine["round"]["my_hands"]
                text = json.loads(edge.table.state_text(f"player:{player}"))
                assert text["round"]["my_decision"] == mine["round"]["my_decision"]
        # a decision from an edge; then a burst one edge misses: it syncs
        decided = await one.table.actor.decide("ann", 1, "stai", "key-ann-2")
        assert decided["ok"], decided
        await settled(bridge, one, two)
        two.table.actor.seq -= 1                     # as if a burst had been lost
        decided = await two.table.actor.decide("bob", 2, "stai", "key-bob-2")
        assert decided["ok"], decided
        await settled(bridge, one, two)
        assert ("resync" in [t for t, _ in two.seen])
        assert two.table.view("player:bob")["round"]["phase"] == \
            h.actor.snapshot("public")["round"]["phase"]
    finally:
        for edge in edges:
            await edge.table.actor.stop()
        await bridge.stop()
        await h.actor.stop()
        for nc in (nc_table, nc_1, nc_2):
            await nc.close()


async def test_views_that_never_come_hold_the_players_states_only_so_long(store, nats_url):
    """NATS drops messages to a slow or cut subscriber: if the views after a burst never come,
    the edge fetches them itself after VIEWS_WAIT_S (the injected clock) and the states go
    out, instead of waiting for the next card."""
    from studio.cluster import remote

    async with one_edge(store, nats_url, ("ann",)) as (h, bridge, table):
        placed = await table.actor.place_bets("ann", [{"position": 1, "kind": "main",
                                                       "amount": 1000}], "key-ann-1")
        assert placed["ok"], placed
        await table.prepare("ann")
        await settled(bridge, Edge(table))  # the bet's views in, before they start being lost
        lost: list[dict] = []
        table.actor._views = lost.append  # every views message from now on is lost
        await h.close_betting()
        await h.cards("7b 5c 4d")                    # the burn, position 1, the dealer
        for _ in range(200):
            if table.actor.seq == bridge.seq and lost and bridge._out.empty():
                break
            await bridge.nc.flush()
            await table.actor.nc.flush()
        mine = h.actor.snapshot("player:ann")["round"]["my_hands"]
        assert mine == {"1": ["5c"]}
        assert table.states_held and not table.actor.settled
        assert table.view("player:ann")["round"]["my_hands"] != mine  # the old view, held
        h.clock.advance(remote.VIEWS_WAIT_S)
        assert table.actor._resync is not None
        await table.actor._resync
        assert not table.states_held and table.actor.settled
        assert table.view("player:ann")["round"]["my_hands"] == mine
        # the player's part of each state: the table's view, encoded once while it stands
        text = table.actor.personal_text("ann")
        assert json.loads("{" + text + "}") == h.actor.personal("ann")
        assert table.actor.personal_text("ann") is text


async def test_an_edge_writes_a_card_and_the_state_after_it_in_one_write(store, nats_url):
    """On an edge the views follow a card's events on the wire: the players' writes wait for
    them too, so each player gets the card and the state the page draws it from in one write
    (two writes a card, with 10,000 players, was half the edge's CPU)."""
    async with burnt(store, nats_url) as (h, bridge, table, edge, conns):
        before = {p: len(c.transport.writes) for p, c in conns.items()}
        await h.cards("5c")                          # position 1's card: ann's view changes
        await settled(bridge, edge)
        await table.delivered()
        for p, c in conns.items():
            new = c.transport.writes[before[p]:]
            assert len(new) == 1, (p, len(new))
            kinds = [m["type"] for m in c.transport.messages()[-2:]]
            assert kinds == ["event", "state"], (p, kinds)
            state = c.transport.messages()[-1]["table"]["round"]
            assert state["my_hands"] == h.actor.personal(p)["my_hands"]
        assert conns["ann"].transport.messages()[-1]["table"]["round"]["my_hands"] == {
            "1": ["5c"]}


async def test_bets_through_an_edge_reach_the_actor_together(store, nats_url):
    """NATS hands the table's command subscription one message at a time: answered one after
    the other, each bet waited for the commit of the one before (290 bets/s through edges
    against 600 in one process). Each is now answered in a task of its own: the bets of a
    window are in the actor's queue together, and every one is answered right, once."""
    players = tuple(f"p{i}" for i in range(20))
    async with one_edge(store, nats_url, players) as (h, _, table):
        place = h.actor.place_bets
        inside = [0, 0]  # (now, most at once)

        async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            inside[0] += 1
            inside[1] = max(inside)
            try:
                return await place(*args, **kwargs)
            finally:
                inside[0] -= 1
        h.actor.place_bets = counted  # type: ignore[method-assign]
        answers = await asyncio.gather(*(table.actor.place_bets(
            p, [{"position": 1 + i % 3, "kind": "main", "amount": 100}], f"key-{p}")
            for i, p in enumerate(players)))
        assert all(a["ok"] for a in answers), answers
        assert inside[1] > 1, "the bets came to the actor one at a time"
        again = await table.actor.place_bets(
            "p0", [{"position": 1, "kind": "main", "amount": 100}], "key-p0")
        assert again["round_id"] == answers[0]["round_id"]  # the same key: once
        assert all(h.balance(p) == (9_900, 100) for p in players)


async def test_the_table_sends_the_views_a_card_may_change_and_no_wait_when_none(store):
    """The bridge names, for each burst, the players whose views the game says it may have
    changed: none for the burn (the edges write at once, waiting for no views), position
    1's players for its card, and only the views that differ go out."""
    h = Harness(store)
    players = {"ann": 1, "bob": 1, "cai": 2}
    for p in players:
        h.credit(p, 10_000)
    await h.start()
    bridge = TableBridge(h.actor, nc=None)
    unsubscribe = h.actor.hub.subscribe(bridge._on_event)
    try:
        for p, pos in players.items():
            assert (await h.bet(p, pos, 1000))["ok"]
        await h.close_betting()

        async def burst(codes: str) -> list[tuple[bool, set[str]]]:
            """(views owed, the players named) of each burst the cards made."""
            await h.cards(codes)
            assert not bridge._flushing  # (the actor's drain gave the loop its turns)
            out = []
            while not bridge._out.empty():
                _, messages, named, _ = bridge._out.get_nowait()
                out.append((json.loads(messages[-1])["views"], named))
            return out
        await burst("")  # (what the window's close published)
        assert await burst("7b") == [(False, set())]                  # the burn
        assert await burst("5c") == [(True, {"ann", "bob"})]          # position 1's card
        assert dict(bridge._changed(["ann", "bob"])).keys() == {"ann", "bob"}
        assert await burst("4d") == [(True, {"cai"})]                 # position 2's card
    finally:
        unsubscribe()
        await h.actor.stop()


async def test_a_players_write_waits_only_for_a_view_the_card_may_have_changed(store, nats_url):
    """A card to position 1: its players' writes wait for their views; position 2's player,
    whose view the card did not change, gets the card and the state at once, in one write."""
    async with burnt(store, nats_url) as (h, bridge, table, _edge, conns):
        before = {p: len(c.transport.writes) for p, c in conns.items()}
        late: list[dict] = []
        views = table.actor._views
        table.actor._views = late.append             # the views held up on the way
        await h.cards("5c")                          # position 1's card: ann's view
        for _ in range(200):
            if table.actor.seq == bridge.seq and late and bridge._out.empty():
                break
            await bridge.nc.flush()
            await table.actor.nc.flush()
        await table.delivered()
        assert table.held_for == {"player:ann"} and not table.states_held
        bob = conns["bob"].transport
        assert len(bob.writes) == before["bob"] + 1  # the card and the state, one write
        assert [m["type"] for m in bob.messages()[-2:]] == ["event", "state"]
        assert len(conns["ann"].transport.writes) == before["ann"]  # waits for her view
        for data in late:
            views(data)                              # the views come
        await table.delivered()
        ann = conns["ann"].transport
        assert len(ann.writes) == before["ann"] + 1
        assert ann.messages()[-1]["table"]["round"]["my_hands"] == {"1": ["5c"]}
        assert table.held_for is None


@contextlib.asynccontextmanager
async def bridged(h: Harness, nc: Wire) -> AsyncIterator[TableBridge]:
    """The harness's table started, with a bridge publishing into `nc` (no NATS)."""
    await h.start()
    bridge = TableBridge(h.actor, nc)
    unsubscribe = h.actor.hub.subscribe(bridge._on_event)
    publisher = asyncio.get_running_loop().create_task(bridge._publisher())
    try:
        yield bridge
    finally:
        publisher.cancel()
        unsubscribe()
        await h.actor.stop()


async def test_a_cards_views_go_out_in_one_message_each_view_once(store, monkeypatch):
    """The views a card owes are built a few at a time (MAX_PERSONAL: here one a turn of the
    table's loop) but go out in one message, each view's text once with its players: the
    edges' states wait for the last views anyway, and each message more was turns of a busy
    edge's loop before it read the last (10,000 players: 7 messages, 550 kB, a card)."""
    from studio.cluster import wire

    monkeypatch.setattr(wire, "MAX_PERSONAL", 1)
    h = Harness(store)
    players = {"ann": 1, "bob": 1, "cai": 2}
    for p in players:
        h.credit(p, 10_000)
    nc = Wire()
    async with bridged(h, nc):
        for p, pos in players.items():
            assert (await h.bet(p, pos, 1000))["ok"]
        await h.close_betting()
        await h.cards("7b")
        for _ in range(20):
            await asyncio.sleep(0)
        nc.sent.clear()
        await h.cards("5c")                          # position 1's card: ann's and bob's views
        for _ in range(20):
            await asyncio.sleep(0)
        views = [m for m in nc.sent if "groups" in m]
        assert len(views) == 1 and views[0]["last"], nc.sent
        [(text, who)] = views[0]["groups"]           # they bet alike: one view, both players
        assert sorted(who) == ["ann", "bob"]
        assert json.loads("{" + text + "}") == h.actor.personal("ann") == h.actor.personal("bob")


async def test_the_views_are_built_without_waiting_for_the_server_to_answer(store):
    """The events leave before the views are built, but the bridge does not wait for NATS's
    answer to a ping (`flush`) to start them: with the cores busy writing to players the
    answer took 10-20 ms a card, every owed player's write waiting for it too."""
    class Unanswered(Wire):
        async def flush(self) -> None:
            await asyncio.Event().wait()  # a server that never answers a ping

    h = Harness(store)
    for p in ("ann", "bob"):
        h.credit(p, 10_000)
    nc = Unanswered()
    async with bridged(h, nc):
        for p, pos in (("ann", 1), ("bob", 2)):
            assert (await h.bet(p, pos, 1000))["ok"]
        await h.close_betting()
        await h.cards("7b 5c")                       # the burn, then position 1's card
        for _ in range(20):
            await asyncio.sleep(0)
        views = [m for m in nc.sent if "groups" in m and m["last"]]
        assert views and views[-1]["groups"][0][1] == ["ann"], nc.sent
