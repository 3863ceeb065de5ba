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
import os
import re
import signal
import uuid

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


async def test_two_edges_and_a_table_process_and_an_edge_killed(tmp_path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path), "STUDIO_SECRET": SECRET}
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
            await _cluster(env, config, db, url, running)
        finally:
            for p in reversed(running):
                if p.proc.stdin is not None:
                    p.proc.stdin.close()
                await p.end()


async def _cluster(env: dict[str, str], config, db: str, url: str,
                   running: list[Program]) -> None:
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
    staff_base = re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)
    edges = []
    for _ in range(2):
        edges.append(await edge(env, config, db, url))
        running.append(edges[-1][0])
    tokens = {}
    for p in ("ann", "bob"):
        code, out = await _run(env, "player-token", p, "--config", str(config))
        assert code == 0, out
        tokens[p] = out.strip()
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
        async with dealer.post(f"{staff_base}/api/tables/{TABLE}/dealer", json={
                "key": uuid.uuid4().hex, "command": "start"}) as r:
            assert (await r.json())["ok"]
        seen: list[list[dict]] = [[], []]
        for ws, log in zip(sockets, seen, strict=True):
            await until(ws, "betting_opened", log)
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
