"""The benchmarks' own instruments, so that their figures can be trusted: the load client's
reader notes a card when it arrives (the kernel's timestamp, not when it was read) and the state
after it, across reads that split a message; the socket floor's processes agree on what they
wrote and read; the table views bench compares like with like."""

from __future__ import annotations

import asyncio
import select
import socket
import time

from studio.web.frames import text_frame
from tests.bench import bench_socket_floor, load_client


def stamping(client: socket.socket, server: socket.socket, within_s: float = 10.0) -> None:
    """Until the kernel stamps what arrives: the first socket to ask turns stamping on for
    the machine, and Linux does that later, in a work queue, which a loaded machine runs
    late (the first bytes then come unstamped). A byte a round, read back, until stamped."""
    client.setsockopt(socket.SOL_SOCKET, load_client.SO_TIMESTAMPNS, 1)
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        server.send(b"x")
        select.select([client], [], [], 1.0)
        _, ancillary, _, _ = client.recvmsg(1, load_client.STAMP_SPACE)
        if ancillary:
            return
    raise AssertionError("the kernel never stamped a read")


async def test_the_load_client_notes_a_card_at_its_arrival_and_the_state_after_it():
    with socket.create_server(("127.0.0.1", 0)) as listening:  # TCP, as a player's
        client = socket.create_connection(listening.getsockname())  # (the kernel stamps it)
        server, _ = listening.accept()
    stamping(client, server)
    client.setblocking(False)
    cards: list[tuple[str, float, float]] = []
    shown = asyncio.get_running_loop().create_future()
    reader = load_client.Reader(client, lambda *a: cards.append(a),
                                lambda *a: shown.done() or shown.set_result(a))
    event = text_frame(b'{"type":"event","event":{"type":"card_dealt","card":"5c"}}')
    state = text_frame(b'{"type":"state","table":{}}')
    try:
        sent = time.time()
        server.send(event + state)                   # in the socket before anyone reads
        written = time.time()
        reader.start(b"")                            # the reads begin only now
        card, _, arrived = await asyncio.wait_for(shown, 10)
        assert card == "5c" and [c[0] for c in cards] == ["5c"]
        assert reader.stamped >= 1, "the kernel's arrival, not the time of the read"
        assert sent <= arrived <= written + 0.005  # (loopback may stamp just after send)
        server.send(event)                           # the same card again: noted once
        reader.received(event[:20], 0.0, 0.0)        # and a message cut between two reads
        reader.received(event[20:].replace(b"5c", b"6d"), 0.0, 0.0)
        assert [c[0] for c in cards] == ["5c", "6d"]
    finally:
        reader.close()
        server.close()


def test_the_socket_floor_writes_and_reads_every_socket(tmp_path):
    r = bench_socket_floor.measure(players=30, writers=2, size=1400, cards=2, tmp=tmp_path)
    assert 0 < r["last_ms"] < 10_000
    assert r["writers_ms"] >= 0 and r["reader_ms"] >= 0


async def test_the_table_views_bench_builds_the_same_views_both_ways():
    """bench_table_views' baseline (every key asked, every view built per player) and
    today's give the players the same views after each card, and the baseline is undone."""
    from tests.bench import bench_table_views

    before, views_before = await bench_table_views.run(30, 1, today=False)
    after, views_after = await bench_table_views.run(30, 1, today=True)
    assert views_before == views_after and len(views_before) == 30
    assert views_before[0]["my_hands"] and len(before) == len(after) == 5


async def test_the_edge_fanout_bench_writes_once_to_every_player_a_card():
    """bench_edge_fanout replays a round's real bursts and views, widened, into an edge: each
    card costs some CPU and reaches every player in one write (the bench asserts it)."""
    from tests.bench import bench_edge_fanout

    figures = await bench_edge_fanout.run(30, 1, profile=False)
    assert len(figures) >= 4 and all(f >= 0 for f in figures)
