"""The fan-out to sockets that take frames as they are (studio/web/ws.py, frames.py): an event
shared by many players is framed once and the same bytes written to each socket; a socket
with messages waiting gets the event after them, in order; a socket holding more unsent bytes
than its bound is dropped (4008) and the others still get everything; after a burst each
player gets one state, shared by the players whose part is the same, and none when nothing
changed for that player."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from studio.web import ws as wsmod
from studio.web.frames import header, split_frames, text_frame
from studio.web.tables import TableService
from tests.table_harness import Harness, count_personal_views

CARD = {"type": "card_dealt", "table_id": "t", "round_id": "R", "card": "7c",
        "source": "shoe", "to": "position", "position": 1}


class Transport:
    """A socket's write end: what was written, in order, and what it still holds."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.held = 0  # bytes the client has not read yet (the bound looks at this)
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return self.held

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(payload(f)) for w in self.writes for f in frames(w)]


class Socket:
    """aiohttp's side of the same socket: what the sender task sends lands on the same
    transport, so the order of everything the client gets is one list."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.closed: int | None = None

    async def send_str(self, text: str) -> None:
        self.transport.write(text_frame(text.encode()))

    async def send_json(self, message: Any) -> None:
        await self.send_str(json.dumps(message))

    async def close(self, code: int, message: bytes) -> None:
        self.closed = code


frames = split_frames  # the frames one write carries, in order


def payload(frame: bytes) -> bytes:
    """The text of one unmasked frame (what a client reads)."""
    assert frame[0] == 0x81, "a final text frame"
    assert not frame[1] & 0x80, "a server's frame is never masked"
    start, n = header(frame)
    assert len(frame) == start + n
    return frame[start:]


@pytest.fixture
async def service(store):
    h = Harness(store)
    s = TableService(h.actor, h.clock)
    yield s
    s.close()
    await h.actor.stop()


def connect(service: TableService, player: str, max_buffer: int = wsmod.MAX_WRITE_BUFFER
            ) -> wsmod.Connection:
    """A connection whose first state has gone out (the sender's job: done here by hand)."""
    transport = Transport()
    conn = wsmod.Connection(Socket(transport), service, f"player:{player}",
                            lambda with_balance: {"type": "state", "first": True},
                            transport=transport, shared_state=True, max_buffer=max_buffer)
    conn.start()
    conn.queue.get_nowait()
    transport.writes.append(text_frame(b'{"type":"state","first":true}'))
    return conn


def test_frames_of_every_length_read_back():
    for n in (0, 125, 126, 65_535, 65_536):
        assert payload(text_frame(b"x" * n)) == b"x" * n


async def test_an_event_is_framed_once_and_the_same_bytes_go_to_every_socket(service):
    conns = [connect(service, f"p{i}") for i in range(50)]
    service.actor.hub.publish(service.table_id, "public", CARD)
    await service.delivered()
    writes = [c.transport.writes[1:] for c in conns]
    assert all(len(w) == 1 for w in writes), "the event and the state after it: one write"
    assert all(w[0] is writes[0][0] for w in writes), "one bytes object written to all"
    got = [json.loads(payload(f)) for f in frames(writes[0][0])]
    assert got[0] == {"type": "event", "event": CARD}
    assert [m["type"] for m in got] == ["event", "state"]
    assert all(c.queue.empty() for c in conns), "no sender task had anything to do"


async def test_a_burst_of_events_is_one_write_and_what_is_queued_after_keeps_its_place(
        service):
    ann, bob = connect(service, "ann"), connect(service, "bob")
    hub = service.actor.hub
    hub.publish(service.table_id, "public", CARD)
    hub.publish(service.table_id, "public", {**CARD, "card": "5d"})
    hub.publish(service.table_id, "player:ann", {"type": "autoplay_changed", "rounds": 3})
    await service.delivered()
    assert len(ann.transport.writes) == 2 and len(bob.transport.writes) == 2
    assert [(m["type"], m.get("event", {}).get("card")) for m in ann.transport.messages()] == [
        ("state", None), ("event", "7c"), ("event", "5d"), ("event", None), ("state", None)]
    assert [m["type"] for m in bob.transport.messages()] == [
        "state", "event", "event", "state"], "ann's own event is ann's alone"
    # a pong asked while a burst waits in the outbox goes after that burst
    hub.publish(service.table_id, "public", {**CARD, "card": "2c"})
    assert ann.outbox and not ann.transport.writes[2:]
    ann.send_now({"type": "pong"})
    assert [m.get("event", {}).get("card") for m in ann.transport.messages()[5:]] == ["2c"]
    await _step(ann)  # the sender's turn: the pong (no state: the table did not change)
    await service.delivered()
    assert [m["type"] for m in ann.transport.messages()[5:]] == ["event", "pong"]
    assert [m["type"] for m in bob.transport.messages()[4:]] == ["event"]
    assert len(bob.transport.writes) == 3


async def test_a_socket_with_messages_waiting_gets_the_event_after_them_in_order(service):
    fast, slow = connect(service, "ann"), connect(service, "bob")
    slow.send_now({"type": "pong"})  # waiting for bob's sender task
    service.actor.hub.publish(service.table_id, "public", CARD)
    service.actor.hub.publish(service.table_id, "public", {**CARD, "card": "5d"})
    await service.delivered()
    assert [m["type"] for m in fast.transport.messages()] == ["state", "event", "event",
                                                             "state"]
    assert len(slow.transport.writes) == 1, "nothing jumps the queue"
    assert slow.queue.qsize() == 3
    while not slow.queue.empty():  # the sender's turns, by hand
        await _step(slow)
    got = slow.transport.messages()
    assert [m["type"] for m in got] == ["state", "pong", "event", "event", "state"]
    assert [m["event"]["card"] for m in got if m["type"] == "event"] == ["7c", "5d"]
    assert got[-1]["table"] == json.loads(service.shared_state("player:bob").text)["table"]


async def _step(conn: wsmod.Connection) -> None:
    """One message of the sender task (it waits on the queue between them)."""
    await conn._send(conn.queue.get_nowait())
    await _after_write(conn)


async def _after_write(conn: wsmod.Connection) -> None:
    """What the sender does once a message is written (the state owed, if nothing waits)."""
    await conn._state_owed()


async def test_a_socket_over_its_bound_is_dropped_and_the_others_get_everything(service):
    dropped: list[str] = []
    service.on_drop = lambda: dropped.append("drop")
    slow, fast = connect(service, "bob", max_buffer=1000), connect(service, "ann")
    slow.transport.held = 1001  # the client stopped reading
    service.actor.hub.publish(service.table_id, "public", CARD)
    service.actor.hub.publish(service.table_id, "public", {**CARD, "card": "5d"})
    await service.delivered()
    assert slow.closing == (4008, "ws.too_slow") and dropped == ["drop"]
    assert len(slow.transport.writes) == 1, "nothing more written to a dropped socket"
    assert [m["type"] for m in slow.queue._queue if isinstance(m, dict)] == [
        "session_closed"]
    assert [m.get("event", {}).get("card") for m in fast.transport.messages()] == [
        None, "7c", "5d", None]
    await slow.sender()  # it reads nothing: its socket is cut, not closed politely
    assert slow.transport.aborted and slow.ws.closed is None
    assert not fast.transport.aborted


async def test_a_burst_costs_one_state_shared_by_alike_players_and_none_if_unchanged(service):
    conns = [connect(service, f"p{i}") for i in range(20)]
    service.actor.hub.publish(service.table_id, "public", CARD)
    service.actor.hub.publish(service.table_id, "public", {**CARD, "card": "5d"})
    await service.delivered()
    states = [c.transport.writes[-1] for c in conns]
    assert [m["type"] for m in conns[0].transport.messages()] == ["state", "event", "event",
                                                                 "state"]
    assert all(s is states[0] for s in states), "players alike share one burst's bytes"
    state = json.loads(payload(frames(states[0])[-1]))
    assert state["table"]["table_id"] == service.table_id
    # an event that changes nothing a player sees: the event, and no state after it
    service.actor.hub.publish(service.table_id, "player:p0", {"type": "autoplay_noted"})
    await service.delivered()
    assert [m["type"] for m in conns[0].transport.messages()][4:] == ["event"]
    assert len(conns[1].transport.writes) == 2


async def test_a_players_part_is_built_again_only_when_its_key_changed(store):
    """After each card only the players whose seat changed have their part built again (the
    game's `personal_key`), once for the players keyed alike, and every player's text is the
    part built afresh: through the
    deal, a stand, a hit and the dealer's cards, on the table and on the edges' bridge."""
    from studio.cluster.bridge import TableBridge

    h = Harness(store)
    players = ["ann", "bob", "cai", "dan"]
    for p in players:
        h.credit(p, 10_000)
    await h.start()
    with count_personal_views(h.actor) as built:
        bridge = TableBridge(h.actor, nc=None)
        sent: dict[str, str] = {}  # the views' texts the bridge sent

        def check() -> list[str]:
            """Every player's text and the bridge's views against parts built afresh; returns
            the players whose part the text and the bridge built (once each: not again)."""
            built.clear()
            texts = {p: h.actor.personal_text(p) for p in players}
            sent.update(dict(bridge._changed(players)))
            rebuilt = list(built)
            for p in players:
                fresh = h.actor.game.round_view(h.actor.state, p)
                part = json.loads("{" + texts[p] + "}")
                assert part == h.actor.personal(p) == json.loads("{" + sent[p] + "}")
                assert {k: fresh[k] for k in ("my_hands", "my_totals", "my_decision")} == {
                    k: part[k] for k in ("my_hands", "my_totals", "my_decision")}
            return rebuilt
        try:
            for p, pos in zip(players, (1, 1, 1, 2), strict=True):
                assert (await h.bet(p, pos, 1000))["ok"]
            await h.close_betting()
            await h.cards("7b 5c")                       # the burn, then position 1's card
            check()
            await h.cards("4d")                          # position 2's card: dan's seat alone
            assert check() == ["dan"]
            await h.cards("3b")                          # the dealer's: deciding on position 1
            check()
            await h.decide("ann", 1, "stai")
            await h.decide("bob", 1, "carta")
            await h.decide("cai", 1, "carta")
            check()                                      # ann stood: her part changed
            await h.cards("2c")                          # bob and cai hit: ann's part stays
            assert check() == ["bob"]                    # cai's is bob's: keyed alike, one build
            await h.decide("bob", 1, "stai")
            await h.decide("cai", 1, "carta")
            await h.cards("Ks")                          # cai: 5 + 2 + 1/2
            check()
        finally:
            await h.actor.stop()


async def test_a_players_part_of_the_states_is_encoded_again_only_when_it_changed(store):
    """10,000 players' states after each card: a part that did not change is not encoded
    again, and a part that did is never stale."""
    h = Harness(store)
    h.credit("ann", 10_000)
    h.credit("bob", 10_000)
    await h.start()
    try:
        assert (await h.bet("ann", 1, 1000))["ok"]
        assert (await h.bet("bob", 2, 1000))["ok"]
        ann = h.actor.personal_text("ann")
        assert json.loads("{" + ann + "}") == h.actor.personal("ann")
        assert h.actor.personal_text("ann") is ann, "unchanged: the same text"
        await h.close_betting()
        await h.cards("7b 5c")                       # the burn, then position 1's card
        after = h.actor.personal_text("ann")
        assert json.loads("{" + after + "}") == h.actor.personal("ann")
        assert json.loads("{" + after + "}")["my_hands"] == {"1": ["5c"]}
        assert json.loads("{" + h.actor.personal_text("bob") + "}") == h.actor.personal("bob")
    finally:
        await h.actor.stop()


@pytest.mark.parametrize("seed", range(6))
async def test_the_views_a_game_says_did_not_change_did_not(store, seed):
    """Sette e Mezzo Live's `personal_changes` through random rounds (six players on three
    positions, random stands and hits): between any two states of the round seen, a player
    it does not name has the same view in both."""
    import random

    from studio.cards import deck

    rng = random.Random(seed)
    h = Harness(store)
    players = [f"p{i}" for i in range(6)]
    for p in players:
        h.credit(p, 10_000)
    await h.start()
    game = h.actor.game
    try:
        for p in players:
            assert (await h.bet(p, rng.randint(1, 3), 1000))["ok"]
        await h.close_betting()
        cards = [c.code for c in deck("italian40")]
        rng.shuffle(cards)
        seen: list = []
        while not h.actor.state.finished:
            s = h.actor.state
            if s.expecting() is not None:
                await h.cards(cards.pop())
            else:
                for p in s.deciders():
                    await h.decide(p, s.deciding, rng.choice(["stai", "carta"]))
            now = h.actor.state
            if now.finished:
                break
            for before in seen:
                changes = game.personal_changes(before, now)
                assert changes is not None
                for p in set(players) - set(changes):
                    assert game.personal_view(before, p) == game.personal_view(now, p), (p,)
            seen.append(now)
        assert len(seen) > 3
    finally:
        await h.actor.stop()


async def test_after_a_card_only_the_players_the_game_names_have_their_key_asked(store):
    """A card to position 2 asks no key of the players on position 1: the game says whose
    part may have changed (`personal_changes`), and their texts stand as they were."""
    h = Harness(store)
    players = ["ann", "bob", "cai", "dan"]
    for p in players:
        h.credit(p, 10_000)
    await h.start()
    game = h.actor.game
    asked: list[str] = []
    key = game.personal_key
    game.personal_key = lambda s, p: asked.append(p) or key(s, p)  # type: ignore[method-assign]
    try:
        for p, pos in zip(players, (1, 1, 1, 2), strict=True):
            assert (await h.bet(p, pos, 1000))["ok"]
        await h.close_betting()
        await h.cards("7b 5c")                       # the burn, then position 1's card
        texts = {p: h.actor.personal_text(p) for p in players}
        asked.clear()
        await h.cards("4d")                          # position 2's card: dan's seat alone
        after = {p: h.actor.personal_text(p) for p in players}
        assert asked == ["dan"]
        assert all(after[p] is texts[p] for p in ("ann", "bob", "cai"))
        assert json.loads("{" + after["dan"] + "}")["my_hands"] == {"2": ["4d"]}
        h.actor.autoplay["ann"] = 3                  # her key's other parts are still checked
        assert json.loads("{" + h.actor.personal_text("ann") + "}")["autoplay"] == 3
    finally:
        del game.personal_key
        await h.actor.stop()


async def test_an_event_later_in_a_burst_that_may_change_the_balance_brings_it(service):
    """The burst's first event changes no balance, a later one may (the fast path of a
    burst's later frames): the state after the burst carries the balance, and the next
    burst's, when no event may have changed it, is the shared one again."""
    asked: list[bool] = []
    transport = Transport()

    def state(with_balance: bool) -> str:
        asked.append(with_balance)
        return json.dumps({"type": "state", "balance": with_balance})
    conn = wsmod.Connection(Socket(transport), service, "player:ann", state,
                            transport=transport, shared_state=True)
    conn.start()
    conn.queue.get_nowait()
    hub = service.actor.hub
    hub.publish(service.table_id, "public", CARD)
    hub.publish(service.table_id, "public", {"type": "player_settled", "player": "ann",
                                             "net": 100})
    await service.delivered()
    got = transport.messages()
    assert [m["type"] for m in got] == ["event", "event", "state"]
    assert got[-1] == {"type": "state", "balance": True} and asked == [True, True]
    hub.publish(service.table_id, "public", {**CARD, "card": "5d"})
    await service.delivered()
    assert asked == [True, True], "no balance asked: the shared state"
    assert json.loads(payload(frames(transport.writes[-1])[-1]))["type"] == "state"


async def test_frames_owed_no_state_are_written_by_the_flush_pass(service):
    """A burst reaching a client while its sender writes the last queued message (its state
    still owed, the sender's to send): the burst's frames are written by the pass after the
    states, in order, and the sender's state follows them."""
    ann = connect(service, "ann")
    ann.send_now({"type": "pong"})
    service.actor.hub.publish(service.table_id, "public", CARD)  # queued after the pong
    await service.delivered()
    assert ann.dirty and len(ann.transport.writes) == 1, "the state is the sender's to send"
    for _ in range(2):  # the sender writes the pong and the card; the next burst comes
        await ann._send(ann.queue.get_nowait())  # while it writes the card
    service.actor.hub.publish(service.table_id, "public", {**CARD, "card": "5d"})
    await service.delivered()
    assert ann.queue.empty() and not ann.outbox
    await _after_write(ann)
    got = ann.transport.messages()
    assert [(m["type"], m.get("event", {}).get("card")) for m in got] == [
        ("state", None), ("pong", None), ("event", "7c"), ("event", "5d"), ("state", None)]


async def test_a_bursts_first_frame_is_written_even_when_the_sender_sends_the_state(service):
    """A burst's first frame reaching a client while its sender writes a queued message: the
    sender, done, writes the frame and then the state owed (the state is after the card:
    the page must not draw the card twice), and nothing more is written after them."""
    ann = connect(service, "ann")
    ann.send_now({"type": "pong"})
    writing = ann.queue.get_nowait()  # the sender took the pong and is writing it
    service.actor.hub.publish(service.table_id, "public", CARD)
    assert ann.outbox and ann.dirty, "the card waits in the outbox, its state owed"
    await ann._send(writing)
    await _after_write(ann)
    await service.delivered()
    assert not ann.outbox and ann.queue.empty()
    got = [(m["type"], m.get("event", {}).get("card")) for m in ann.transport.messages()]
    assert got == [("state", None), ("pong", None), ("event", "7c"), ("state", None)]


async def test_a_client_owed_a_state_twice_in_one_pass_gets_one(service):
    """The sender sent the state owed before the states' pass, and a new burst made one owed
    again: the client is listed twice for the pass, and gets one state, after the burst."""
    ann = connect(service, "ann")
    listed = []
    state_due = service.state_due
    service.state_due = lambda *a: (listed.append(len(service._due)), state_due(*a))
    service.actor.hub.publish(service.table_id, "public", CARD)
    await ann._state_owed()  # the sender's turn comes first: the card, then its state
    # (an event that may change ann's balance: a state is owed whatever the table's)
    service.actor.hub.publish(service.table_id, "public", {"type": "player_settled",
                                                           "player": "ann", "net": 100})
    await service.delivered()
    assert listed == [0, 1], "listed again while listed"
    got = [(m["type"], m.get("event", {}).get("type")) for m in ann.transport.messages()]
    assert got == [("state", None), ("event", "card_dealt"), ("state", None),
                   ("event", "player_settled"), ("state", None)]
    assert not ann.dirty and not ann.outbox and ann.queue.empty()


async def test_the_writes_of_a_burst_give_the_loop_a_turn_every_few_hundred(service):
    """Each write is a syscall (~20 us here): 1,000 of them a turn held an edge's loop 20 ms,
    and the NATS message with the views a third of a card's players wait for took several
    such turns to be read. At most WRITE_CHUNK writes happen between two turns of the loop."""
    from studio.web import tables

    conns = [connect(service, f"p{i}") for i in range(3 * tables.WRITE_CHUNK)]
    service.actor.hub.publish(service.table_id, "public", CARD)  # delivered in this turn
    per_turn = []
    written = 0
    for _ in range(20):
        await asyncio.sleep(0)  # a turn of the loop
        now = sum(len(c.transport.writes) - 1 for c in conns)  # (the first state: 1)
        per_turn.append(now - written)
        written = now
    assert written == len(conns), per_turn  # a write a player: the card and its state
    assert max(per_turn) <= tables.WRITE_CHUNK, per_turn
