"""Defects found by probing the studio from outside (issue 19), each with the test that failed
before its fix: ids that overflow the ledger after a crash, stuck reservations the audit did not
see, 500s on bad input, player ids that reach other accounts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from studio import ledger
from studio.storage import audit, event_log
from studio.storage.event_log import NewEvent
from studio.table import replay
from studio.table.hub import Hub
from studio.table.money import fit, recovery_release, reservation_id
from studio.table.private import PrivateTables
from tests.browser.harness import StudioHarness
from tests.quota_fissa_harness import StackedShoe, quota_fissa_config
from tests.test_private_tables import Tables

LONG_PLAYER = "p" * 64
LONG_KEY = "k" * 64


# ---------------------------------------------------------------- 1. ids that always fit


def test_derived_ids_fit_the_ledger_and_are_the_same_when_derived_again():
    long_round = f"sem-quota-fissa-1/{LONG_PLAYER}-000001"
    placement = f"{LONG_PLAYER}/{LONG_KEY}/0"
    rid = reservation_id(long_round, placement)
    void = recovery_release(rid).movement_id
    assert len(rid) <= 200 and len(void) <= 200
    assert rid == reservation_id(long_round, placement)  # the audit derives the same id
    assert rid != reservation_id(long_round, placement[:-1] + "1")  # and ids stay apart
    assert fit("short/id") == "short/id"


async def test_a_crash_with_the_longest_ids_recovers_and_refunds(store):
    """A 64-character player with a 64-character key on a private table (the longest round
    ids): the stake is accepted, and after a crash the studio starts and refunds it."""
    t = Tables(store)
    t.credit(LONG_PLAYER, 5_000)
    t.shoe.stacks.append(["4c", "2d"])
    actor = await t.private.open(LONG_PLAYER)
    answer = await actor.deal(LONG_PLAYER, 1000, LONG_KEY)
    assert answer["ok"], answer
    await t.private.stop()  # the process dies with the hand in flight
    again = PrivateTables(quota_fissa_config(), store, t.clock, Hub(), shoe=StackedShoe)
    assert await again.recover() == [LONG_PLAYER]
    assert t.balance(LONG_PLAYER) == (5_000, 0)
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:sem-quota-fissa-1": "sette-e-mezzo-quota-fissa"})
    assert report.ok, report.problems
    await again.stop()


async def test_the_audit_reports_reservations_left_open_by_a_round_that_is_over(store):
    t = Tables(store)
    t.credit("ann", 5_000)
    await t.deal("ann", 1000, "4c 2d")  # a hand in flight: its reservation is open, fine
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:sem-quota-fissa-1": "sette-e-mezzo-quota-fissa"})
    assert report.ok, report.problems
    # the log says the hand is over, but its money was never released: stuck money
    actor = t.private.instances["ann"].actor
    rid = actor.state.round_id
    with store.transaction() as tx:
        event_log.append(tx, [NewEvent(actor.stream, "round_voided", {
            "round_id": rid, "reason": "forged", "refunds": [], "private": False}, rid)])
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:sem-quota-fissa-1": "sette-e-mezzo-quota-fissa"})
    codes = {p.code for p in report.problems}
    assert "audit.open_reservation" in codes, report.problems


# ------------------------------------------------------------- 4 and 7. bad input, ids


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    h.credit("ann", 10_000)
    yield h
    await h.stop()


@pytest.fixture
async def client(studio, aiohttp_client):
    return await aiohttp_client(studio.app)


async def test_json_nested_thousands_deep_is_a_400_on_http_and_on_the_socket(studio, client):
    token = studio.token("ann")
    r = await client.post("/api/player/join", json={"table_id": studio.table_id},
                          headers={"Authorization": f"Bearer {token}"})
    session = (await r.json())["session_id"]
    headers = {"Authorization": f"Bearer {token}", "X-Session": session}
    for depth in (40, 1000, 5000):
        body = "[" * depth + "]" * depth
        r = await client.post("/api/player/bets", data=body, headers=headers)
        assert (r.status, (await r.json())["error"]["code"]) == (400, "request.too_deep")
    nested = '{"key": "abcdefgh12", "bets": [' + "[" * 900 + "]" * 900 + "]}"
    r = await client.post("/api/player/bets", data=nested, headers=headers)
    assert r.status == 400
    ws = await client.ws_connect(f"/ws/player?token={token}&session={session}",
                                 headers={"Origin": str(client.make_url("/")).rstrip("/")})
    assert (await ws.receive_json(timeout=10))["type"] == "state"
    await ws.send_str("[" * 1000 + "]" * 1000)
    msg = await ws.receive_json(timeout=10)
    while msg["type"] != "error":
        msg = await ws.receive_json(timeout=10)
    assert msg["error"]["code"] == "request.too_deep"
    await ws.send_str('{"type": "ping"}')  # the socket is still there
    msg = await ws.receive_json(timeout=10)
    while msg["type"] != "pong":
        msg = await ws.receive_json(timeout=10)
    await ws.close()


async def test_non_ascii_tokens_and_cookies_are_refused_not_500(studio, client):
    for token in ("é.é", "tøken.mac", "a.\u2603"):
        r = await client.post("/api/player/join", json={"table_id": studio.table_id},
                              headers={"Authorization": f"Bearer {token}".encode().decode(
                                  "latin-1")})
        assert r.status == 401, await r.text()
        assert (await r.json())["error"]["code"] == "auth.invalid_token"
    client.session.cookie_jar.update_cookies({"studio_staff": "ünïcode.cookie"})
    r = await client.get(f"/api/tables/{studio.table_id}/dealer/state")
    assert r.status in (401, 404), await r.text()
    assert (await r.json())["ok"] is False


async def test_player_ids_that_could_reach_other_accounts_are_refused(studio, client):
    signer = studio.studio.signer
    for bad in ("p001:held", "a/b", "", "x" * 65, "ümlaut", " ann"):
        with pytest.raises(ValueError):
            signer.player_token(bad, 60)
        forged = signer.sign("player", bad or "-", 60) if bad else signer.sign("player", "-", 60)
        r = await client.post("/api/player/join", json={"table_id": studio.table_id},
                              headers={"Authorization": f"Bearer {forged}"})
        code = (await r.json())["error"]["code"]
        assert (r.status, code) == (401, "auth.invalid_player_id"), bad
    with studio.store.reader() as tx:
        assert ledger.balance(tx, "ann") == (10_000, 0)


async def test_a_header_over_8_kb_gets_the_json_error_shape(studio):
    from studio.commands.hosting import start_site

    runner, base = await start_site(studio.studio, "127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as s:
            async with s.get(f"{base}/api/tables", headers={"X-Big": "a" * 9000}) as r:
                assert r.status == 431 and r.content_type == "application/json"
                assert (await r.json())["error"]["code"] == "request.header_too_large"
            async with s.get(f"{base}/api/tables") as r:  # the studio is fine
                assert r.status == 200
    finally:
        await runner.cleanup()
        await asyncio.sleep(0)


async def test_the_studio_listens_with_a_backlog_for_a_reconnection_storm(studio):
    """A burst of thousands of connections (an edge's players moving at once) waits in the
    kernel's queue: aiohttp's default of 128 reset players at 10,000 joining."""
    from studio.commands.hosting import LISTEN_BACKLOG, start_site

    runner, base = await start_site(studio.studio, "127.0.0.1", 0)
    try:
        port = base.rsplit(":", 1)[1]
        ss = await asyncio.create_subprocess_exec(
            "ss", "-ltnH", f"sport = :{port}", stdout=asyncio.subprocess.PIPE)
        listed = (await ss.communicate())[0].decode().split()
        cap = int(Path("/proc/sys/net/core/somaxconn").read_text())
        assert int(listed[2]) == min(LISTEN_BACKLOG, cap) > 128  # ss: Send-Q is the backlog
    finally:
        await runner.cleanup()
        await asyncio.sleep(0)


# ------------------------------------------------------- 2 and 3. bounded sockets and queues


class _StuckSocket:
    """A client that never reads: every send waits forever."""

    async def send_json(self, message):
        await asyncio.Event().wait()

    async def close(self, **kwargs):
        return None


async def test_a_client_that_sends_and_never_reads_is_dropped_not_buffered(studio):
    from studio.web import ws as wsmod

    conn = wsmod.Connection(_StuckSocket(), studio.service, "player:ann", lambda b: {})
    for _ in range(wsmod.MAX_QUEUE * 3):  # pongs and errors for a ping flood
        conn.send_now({"type": "pong"})
    assert conn.closing == (4008, "ws.too_slow")
    assert conn.queue.qsize() <= wsmod.MAX_QUEUE + 2


async def test_a_session_holds_three_sockets_and_a_fourth_drops_the_oldest(studio, client):
    from studio.web.ws import MAX_SOCKETS_PER_SESSION

    token = studio.token("ann")
    r = await client.post("/api/player/join", json={"table_id": studio.table_id},
                          headers={"Authorization": f"Bearer {token}"})
    session = (await r.json())["session_id"]
    origin = str(client.make_url("/")).rstrip("/")
    sockets = []
    for _ in range(MAX_SOCKETS_PER_SESSION + 2):
        ws = await client.ws_connect(f"/ws/player?token={token}&session={session}",
                                     headers={"Origin": origin})
        assert (await ws.receive_json(timeout=10))["type"] == "state"
        sockets.append(ws)
    for old in sockets[:2]:
        msg = await old.receive_json(timeout=10)
        while msg["type"] != "session_closed":
            msg = await old.receive_json(timeout=10)
        assert msg["code"] == "ws.replaced"
        closing = await old.receive(timeout=10)
        assert closing.data == 4009
    live = studio.studio.sessions.current("ann").sockets
    assert len(live) == MAX_SOCKETS_PER_SESSION
    for ws in sockets:
        await ws.close()


# ----------------------------------------------------------- 6. neutral errors for players


async def test_a_database_failure_reaches_players_as_a_stable_code_never_its_text(
        studio, client, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from studio.table import actor as actor_module

    token = studio.token("ann")
    r = await client.post("/api/player/join", json={"table_id": studio.table_id},
                          headers={"Authorization": f"Bearer {token}"})
    headers = {"Authorization": f"Bearer {token}", "X-Session": (await r.json())["session_id"]}

    def full_disk(*args, **kwargs):
        raise OperationalError("INSERT INTO ledger_movement", {}, Exception(
            "database or disk is full (sqlite:////var/studio/studio.db)"))
    monkeypatch.setattr(actor_module.ledger, "reserve_many", full_disk)
    r = await client.post("/api/player/bets", headers=headers, json={
        "key": "k" * 12, "bets": [{"position": 1, "amount": 500}]})
    body = await r.json()
    assert body["error"]["code"] == "table.internal_error"
    text = str(body).lower()
    assert "sqlite" not in text and "disk" not in text and "insert" not in text
    assert studio.actor.paused  # the dealer resolves it
    # a paused table's reason never reaches a player, in views or in refusals
    r = await client.post("/api/player/decide", headers=headers, json={
        "key": "d" * 12, "position": 1, "choice": "carta"})
    assert (await r.json())["error"] == {"code": "table.paused",
                                         "message": "the table is paused"}
    state = await (await client.get("/api/player/state", headers=headers)).json()
    assert state["table"]["paused"] == "paused"
    # reads that fail answer a stable 503, not a 500
    monkeypatch.undo()

    def broken_reader(*args, **kwargs):
        raise OperationalError("SELECT", {}, Exception("unable to open database file"))
    monkeypatch.setattr(studio.store, "reader", broken_reader)
    r = await client.get("/api/player/balance", headers=headers)
    body = await r.json()
    assert (r.status, body["error"]["code"]) == (503, "server.storage_unavailable")
    assert "database file" not in str(body)


# ------------------------------------------------------- 9. no decision runs out while paused


@pytest.mark.parametrize("pause", ["dealer", "device", "card"])
async def test_a_pause_stops_the_decision_timer_and_resume_gives_a_full_one(store, pause):
    from studio.web.tables import TableService
    from tests.table_harness import Harness

    h = Harness(store)
    service = TableService(h.actor, h.clock)  # what the players' countdown reads
    h.credit("ann", 10_000)
    await h.start()
    await h.bet("ann", 1, 1000)
    await h.close_betting()
    await h.cards("Ac 5c 3b")  # burn, ann 5, dealer 3: ann decides
    assert h.actor.state.deciders() == ["ann"]
    full = h.cfg.timers.decision_s
    await h.advance(2)
    if pause == "dealer":
        await h.dealer("pause", reason="check")
    elif pause == "device":
        h.actor.device_status("sem-live-1/shuffler", False, "silent")
        await h.actor.drain()
    else:
        await h.cards("5c")  # the same card again: doubtful, the table pauses
    assert h.actor.paused
    assert service.view("player:ann")["round"]["decision"] is None  # no countdown now
    await h.advance(1)
    if pause == "device":  # the device is back; the dealer may resume
        h.actor.device_status("sem-live-1/shuffler", True)
        await h.actor.drain()
    assert (await h.dealer("resume"))["ok"]
    resumed = h.clock.now()
    assert service.view("player:ann")["round"]["decision"]["deadline"] == resumed + full
    await h.advance(full - 1)  # past the first deadline (2 + full): nothing happens
    assert not h.events("decision_timed_out") and h.actor.state.deciders() == ["ann"]
    await h.advance(1)  # the fresh deadline: resume + full
    assert h.events("decision_timed_out")
    await h.actor.stop()


# ------------------------------------------------ 5. resume re-runs what a failure left undone


async def test_resume_after_a_failed_window_close_closes_it_and_the_round_goes_on(
        store, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from tests.table_harness import Harness

    h = Harness(store)
    h.credit("ann", 10_000)
    await h.start()
    assert (await h.bet("ann", 1, 1000))["ok"]
    real = store.transaction

    def full_disk():
        raise OperationalError("INSERT INTO event_log", {}, Exception("disk is full"))
    monkeypatch.setattr(store, "transaction", full_disk)
    await h.close_betting()  # Stop alle puntate cannot be written: the table pauses
    assert h.actor.paused and h.actor.state.betting
    monkeypatch.setattr(store, "transaction", real)  # space is freed
    assert (await h.dealer("resume"))["ok"]
    await h.actor.drain()
    assert not h.actor.state.betting  # the window closed; the round goes on
    assert h.actor.state.placements and h.actor.snapshot()["round"]["expecting"]
    await h.actor.stop()


async def test_resume_is_refused_while_a_device_is_offline(store):
    from tests.table_harness import Harness

    h = Harness(store)
    await h.start()
    h.actor.device_status("sem-live-1/shoe", False, "cable")
    await h.actor.drain()
    refused = await h.dealer("resume")
    assert refused["error"]["code"] == "table.device_offline" and h.actor.paused
    h.actor.device_status("sem-live-1/shoe", True)
    await h.actor.drain()
    assert (await h.dealer("resume"))["ok"] and not h.actor.paused
    await h.actor.stop()


# ------------------------------------------------ 11. simulator links per studio instance


def test_simulator_links_are_per_studio_instance(monkeypatch, tmp_path):
    from devices.pty_pair import LinkInUse, PtyPair
    from devices.serial_link import sim_link_path

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    a = sim_link_path("sem-live-1", "shoe", "rehearsal-a")
    b = sim_link_path("sem-live-1", "shoe", "rehearsal-b")
    assert a != b and a.parent.parent == b.parent.parent
    monkeypatch.setenv("STUDIO_INSTANCE", "rehearsal-a")
    assert sim_link_path("sem-live-1", "shoe") == a
    with pytest.raises(ValueError):
        sim_link_path("sem-live-1", "shoe", "../elsewhere")
    first, second = PtyPair(a), PtyPair(a)
    first.open()
    try:
        with pytest.raises(LinkInUse):  # never silently replaces a running simulator's link
            second.open()
        assert second.fd is None
    finally:
        first.close()
    second.open()  # the first is gone: its place is free
    second.close()


def test_a_second_simulator_on_the_same_link_refuses_and_another_instance_runs(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    studio = Path(sys.executable).parent / "studio"
    env = {**os.environ, "TMPDIR": str(tmp_path), "STUDIO_INSTANCE": "one"}

    def start(extra_env: dict[str, str]) -> subprocess.Popen:
        return subprocess.Popen([str(studio), "sim", "shoe", "--table", "sem-live-1",
                                 "--heartbeat", "0"], env={**env, **extra_env},
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    first = start({})
    try:
        assert first.stdout.readline().startswith("ready port=")
        second = start({})
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2 and "sim.link_in_use" in err
        other = start({"STUDIO_INSTANCE": "two"})
        assert other.stdout.readline().startswith("ready port=")
        other.communicate("quit\n", timeout=60)
    finally:
        first.communicate("quit\n", timeout=60)
    assert first.returncode == 0
