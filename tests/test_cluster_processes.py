"""The production shape on this machine, as real processes: a NATS server of the test's own,
`studio serve --role table` (the actors, the simulated shoe and shuffler on ptys, the staff
pages) and two `studio serve --role edge` processes serving players. A player on each edge
bets in the same window; both see the same events in the same order; a session moves to the
other edge with its socket (state first), a second session on another edge replaces the first
(one session per player, wherever); an edge killed with
SIGKILL loses nothing: its player joins the other edge and finds the bet there. Then the
table process is killed mid-round: restarted, the round is void and refunded once, and the
edge that lived on takes the state afresh (its players told to resync)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import re
import signal
import socket
import uuid
from collections.abc import Awaitable, Callable

import aiohttp

from studio import ledger
from studio.storage import Store
from tests.nats_server import nats_server
from tests.test_serve import SECRET, TABLE, WAIT_S, Program, _config, _run

EVENTS = ("betting_closed", "card_burned", "card_dealt")


async def edge(env: dict[str, str], config, db: str, url: str) -> tuple[Program, str]:
    p = await Program.start(env, "serve", "--role", "edge", "--nats", url, "--config",
                            str(config), "--port", "0", "--database", db)
    line = await p.until("Edge serving players on")
    return p, re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)


async def join(s: aiohttp.ClientSession, base: str, token: str) -> tuple[dict, dict]:
    async with s.post(f"{base}/api/player/join", json={"table_id": TABLE},
                      headers={"Authorization": f"Bearer {token}"}) as r:
        joined = await r.json()
    assert joined["ok"], joined
    return joined, {"Authorization": f"Bearer {token}", "X-Session": joined["session_id"]}


async def until(ws, kind: str, seen: list[dict]) -> dict:
    while True:
        msg = await asyncio.wait_for(ws.receive_json(), WAIT_S)
        if msg.get("type") == "event":
            seen.append(msg["event"])
            if msg["event"]["type"] == kind:
                return msg["event"]


async def _with_cluster(tmp_path, body: Callable[..., Awaitable[None]],
                        **more_env: str) -> None:
    """ann and bob credited, a NATS server of the test's own; `body(env, config, db, url,
    running)` starts what it needs into `running`, stopped whatever happens."""
    env = {**os.environ, "TMPDIR": str(tmp_path), "STUDIO_SECRET": SECRET, **more_env}
    config = _config(tmp_path)
    db = f"sqlite:///{tmp_path / 'studio.db'}"
    store = Store.open(db)
    with store.transaction() as tx:
        for p in ("ann", "bob"):
            ledger.credit(tx, f"deposit/{p}/1", p, 10_000)
    store.dispose()
    with nats_server() as url:
        running: list[Program] = []  # every process started, stopped whatever happens
        try:
            await body(env, config, db, url, running)
        finally:
            for p in reversed(running):
                if p.proc.stdin is not None:
                    p.proc.stdin.close()
                await p.end()


async def _table_process(env: dict[str, str], config, db: str, url: str,
                         running: list[Program]) -> tuple[Program, Program, Program, str]:
    """The simulated shuffler and shoe, and the table process: (shuffler, shoe, table, the
    staff pages' address)."""
    shuffler = await Program.start(env, "sim", "shuffler", "--table", TABLE,
                                   "--config", str(config))
    running.append(shuffler)
    shoe = await Program.start(env, "sim", "shoe", "--table", TABLE, "--config", str(config))
    running.append(shoe)
    for sim in (shuffler, shoe):
        await sim.until("ready port=")
    table = await Program.start(env, "serve", "--role", "table", "--nats", url,
                                "--config", str(config), "--port", "0", "--database", db)
    running.append(table)
    await table.until("reachable over NATS")
    line = await table.until("Studio serving on")
    return shuffler, shoe, table, re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)


async def _tokens(env: dict[str, str], config, *players: str) -> dict[str, str]:
    tokens = {}
    for p in players:
        code, out = await _run(env, "player-token", p, "--config", str(config))
        assert code == 0, out
        tokens[p] = out.strip()
    return tokens


async def _start(dealer: aiohttp.ClientSession, staff_base: str, sockets: list
                 ) -> list[list[dict]]:
    """The dealer starts the table; each socket's events until the window opens."""
    async with dealer.post(f"{staff_base}/api/tables/{TABLE}/dealer", json={
            "key": uuid.uuid4().hex, "command": "start"}) as r:
        assert (await r.json())["ok"]
    seen: list[list[dict]] = [[] for _ in sockets]
    for ws, log in zip(sockets, seen, strict=True):
        await until(ws, "betting_opened", log)
    return seen


async def test_two_edges_and_a_table_process_and_an_edge_killed(tmp_path) -> None:
    await _with_cluster(tmp_path, _cluster)


async def _cluster(env: dict[str, str], config, db: str, url: str,
                   running: list[Program]) -> None:
    shuffler, shoe, table, staff_base = await _table_process(env, config, db, url, running)
    edges = []
    for _ in range(2):
        edges.append(await edge(env, config, db, url))
        running.append(edges[-1][0])
    tokens = await _tokens(env, config, "ann", "bob")
    await shuffler.say("shuffle S-1")
    await shoe.say("deck S-1")
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as dealer, \
            aiohttp.ClientSession() as a, aiohttp.ClientSession() as b:
        async with dealer.post(f"{staff_base}/api/staff/login", json={
                "username": "dealer1", "password": "dealer1-password"}) as r:
            assert r.status == 200
        (ann_joined, ann_h), (bob_joined, bob_h) = (
            await join(a, edges[0][1], tokens["ann"]),
            await join(b, edges[1][1], tokens["bob"]))
        sockets = []
        for s, (_, base), joined, p in ((a, edges[0], ann_joined, "ann"),
                                        (b, edges[1], bob_joined, "bob")):
            sockets.append(await s.ws_connect(
                f"{base}/ws/player?token={tokens[p]}&session={joined['session_id']}",
                headers={"Origin": base}))
        seen = await _start(dealer, staff_base, sockets)
        for s, (_, base), h, pos in ((a, edges[0], ann_h, 1), (b, edges[1], bob_h, 2)):
            async with s.post(f"{base}/api/player/bets", headers=h, json={
                    "key": uuid.uuid4().hex,
                    "bets": [{"position": pos, "kind": "main", "amount": 1000}]}) as r:
                assert (await r.json())["ok"]
        for ws, log in zip(sockets, seen, strict=True):
            await until(ws, "betting_closed", log)
        await shoe.say("deal")  # the burn card: never shown
        await shoe.say("deal")
        for ws, log in zip(sockets, seen, strict=True):
            await until(ws, "card_dealt", log)

        def public(log: list[dict]) -> list[tuple]:
            return [(e["type"], e.get("card"), e.get("position")) for e in log
                    if e["type"] in EVENTS]
        assert public(seen[0]) == public(seen[1]) and public(seen[0])
        # bob's session moves to the other edge with its socket: the state first, his bet in it
        moved = await b.ws_connect(
            f"{edges[0][1]}/ws/player?token={tokens['bob']}&session={bob_joined['session_id']}",
            headers={"Origin": edges[0][1]})
        state = await asyncio.wait_for(moved.receive_json(), WAIT_S)
        assert state["type"] == "state"
        assert state["table"]["round"]["my_bets"] == [
            {"position": 2, "kind": "main", "amount": 1000}]
        await moved.close()
        # ann joins again on the other edge: her first session, on the first edge, is replaced
        await join(a, edges[1][1], tokens["ann"])
        while True:
            msg = await asyncio.wait_for(sockets[0].receive_json(), WAIT_S)
            if msg.get("type") == "session_closed":
                assert msg["code"] == "session.replaced"
                break
        # the edge of ann dies; ann joins the other edge and finds her bet there
        assert await edges[0][0].end(signal.SIGKILL) == -signal.SIGKILL
        joined, _ = await join(a, edges[1][1], tokens["ann"])
        mine = joined["table"]["round"]["my_bets"]
        assert mine == [{"position": 1, "kind": "main", "amount": 1000}]
        assert joined["balance"] == {"available": 9_000, "reserved": 1_000}
        # the table process dies mid-round: restarted, it voids the round and refunds it once;
        # the edge that lived on takes the state afresh and tells its players
        assert await table.end(signal.SIGKILL) == -signal.SIGKILL
        table = await Program.start(env, "serve", "--role", "table", "--nats", url,
                                    "--config", str(config), "--port", "0", "--database", db)
        running.append(table)
        await table.until("reachable over NATS")
        line = await table.until("Studio serving on")
        staff_base = re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)
        async with dealer.post(f"{staff_base}/api/staff/login", json={
                "username": "dealer1", "password": "dealer1-password"}) as r:
            assert r.status == 200
        async with dealer.post(f"{staff_base}/api/tables/{TABLE}/dealer", json={
                "key": uuid.uuid4().hex, "command": "start"}) as r:
            assert (await r.json())["ok"]
        await until(sockets[1], "resync", seen[1])
        async with b.get(f"{edges[1][1]}/api/player/state", headers=bob_h) as r:
            state = await r.json()
        assert state["balance"] == {"available": 10_000, "reserved": 0}  # refunded, once
        assert state["table"]["round"]["phase"] == "betting"              # the next round
        for ws in sockets:
            await ws.close()


def _slow_socket(base: str, token: str, session: str) -> socket.socket:
    """A player's WebSocket that never reads: a small receive buffer, so the server's side
    fills soon. The handshake by hand (no client library reads behind our back)."""
    host, port = base.removeprefix("http://").split(":")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(WAIT_S)
    s.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/player?token={token}&session={session} HTTP/1.1\r\n"
               f"Host: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: {base}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)  # the answer's head only: nothing after it is ever read
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _flood(s: socket.socket, pings: int) -> None:
    """Pings without reading a single answer (a client frame is masked: a zero mask)."""
    text = b'{"type":"ping"}'
    frame = bytes((0x81, 0x80 | len(text))) + b"\0\0\0\0" + text
    with contextlib.suppress(OSError):  # the server may close it first
        for _ in range(pings // 100):
            s.sendall(frame * 100)


async def _dropped(s: aiohttp.ClientSession, base: str, token: str) -> float:
    async with s.get(f"{base}/metrics", headers={"Authorization": f"Bearer {token}"}) as r:
        text = await r.text()
    return sum(float(v) for v in re.findall(r"(?m)^studio_ws_dropped_total\{.*\} (\S+)$",
                                            text))


async def test_a_player_who_never_reads_is_dropped_and_the_others_get_every_event(
        tmp_path) -> None:
    """At an edge: one player's socket is never read while it asks for answers and the round
    goes on; that player is dropped (ws.too_slow), the edge is not held up and the players
    beside it get every event, in the same order."""
    metrics_token = "m" * 24

    async def body(env: dict[str, str], config, db: str, url: str,
                   running: list[Program]) -> None:
        shuffler, shoe, _, staff_base = await _table_process(env, config, db, url, running)
        program, base = await edge(env, config, db, url)
        running.append(program)
        tokens = await _tokens(env, config, "ann", "bob", "cat")
        await shuffler.say("shuffle S-1")
        await shoe.say("deck S-1")
        await _slow_consumer(base, staff_base, tokens, shoe, metrics_token)
    await _with_cluster(tmp_path, body, STUDIO_METRICS_TOKEN=metrics_token)


async def _slow_consumer(base: str, staff_base: str, tokens: dict[str, str], shoe: Program,
                         metrics_token: str) -> None:
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as dealer, aiohttp.ClientSession() as s:
        async with dealer.post(f"{staff_base}/api/staff/login", json={
                "username": "dealer1", "password": "dealer1-password"}) as r:
            assert r.status == 200
        heads, sockets = {}, []
        for p in ("ann", "bob"):
            joined, heads[p] = await join(s, base, tokens[p])
            sockets.append(await s.ws_connect(
                f"{base}/ws/player?token={tokens[p]}&session={joined['session_id']}",
                headers={"Origin": base}))
        cat, _ = await join(s, base, tokens["cat"])
        slow = _slow_socket(base, tokens["cat"], cat["session_id"])
        try:
            seen = await _start(dealer, staff_base, sockets)
            flood = asyncio.create_task(asyncio.to_thread(_flood, slow, 200_000))
            for p, pos in (("ann", 1), ("bob", 2)):
                async with s.post(f"{base}/api/player/bets", headers=heads[p], json={
                        "key": uuid.uuid4().hex,
                        "bets": [{"position": pos, "kind": "main", "amount": 1000}]}) as r:
                    assert (await r.json())["ok"]
            for ws, log in zip(sockets, seen, strict=True):
                await until(ws, "betting_closed", log)
            await shoe.say("deal")  # the burn card
            await shoe.say("deal")
            for ws, log in zip(sockets, seen, strict=True):
                await until(ws, "card_dealt", log)
            deadline = asyncio.get_running_loop().time() + WAIT_S
            while await _dropped(s, base, metrics_token) < 1:  # the edge counts the drop
                assert asyncio.get_running_loop().time() < deadline, "never dropped"
            await flood
        finally:
            slow.close()

        def public(log: list[dict]) -> list[tuple]:
            return [(e["type"], e.get("card"), e.get("position")) for e in log
                    if e["type"] in ("betting_opened", *EVENTS)]
        assert public(seen[0]) == public(seen[1])
        assert [t for t, _, _ in public(seen[0])] == [
            "betting_opened", "betting_closed", "card_burned", "card_dealt"]
        for ws in sockets:  # the players beside it were never dropped: they still answer
            await ws.send_json({"type": "ping"})
            while (msg := await asyncio.wait_for(ws.receive_json(), WAIT_S))["type"] != "pong":
                assert msg["type"] != "session_closed", msg
            await ws.close()
