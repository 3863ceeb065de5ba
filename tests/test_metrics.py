"""The studio's figures: `/metrics` scraped and parsed after a real round (rounds, bets,
stakes and payouts as the ledger moved them, command latency, clients, devices), who may
read it, the technicians' summary, and the structured JSON log lines with table and round
ids."""

from __future__ import annotations

import io
import json
import logging

import pytest
from prometheus_client.parser import text_string_to_metric_families

from studio import logs
from tests.browser.harness import DEALER, TECHNICIAN, StudioHarness
from tests.test_web_api import players


@pytest.fixture
async def studio(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    h.credit("ann", 100_000)
    yield h
    await h.stop()


@pytest.fixture
async def client(studio, aiohttp_client):
    return await aiohttp_client(studio.app)


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """(sample name, sorted labels) -> value, from the Prometheus text format."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def a_round(studio, client) -> None:
    """ann bets 10.00, draws to 7, the dealer stands on 6: ann is paid 20.00."""
    (ann,) = await players(client, studio, "ann")
    assert (await ann.bet(1, 1000))[1]["ok"]
    await studio.close_betting()
    await studio.deal("7b", "5c", "4d")
    assert (await ann.decide(1, "carta"))[1]["ok"]
    await studio.deal("2s")
    assert (await ann.decide(1, "stai"))[1]["ok"]
    await studio.deal("2c")
    assert studio.phase() == "closed" and studio.balance("ann") == (101_000, 0)


async def login(client, who: tuple[str, str]) -> None:
    r = await client.post("/api/staff/login", json={"username": who[0], "password": who[1]})
    assert r.status == 200


async def test_metrics_scraped_after_a_round_say_what_the_ledger_did(studio, client):
    (bob,) = await players(client, studio, "bob")     # bob watches the table
    ws = await client.ws_connect(f"/ws/player?token={bob.token}&session={bob.session}",
                                 headers={"Origin": str(client.make_url("/")).rstrip("/")})
    await ws.receive_json()
    await a_round(studio, client)
    await login(client, TECHNICIAN)
    r = await client.get("/metrics")
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain")
    m = samples(await r.text())
    t = (("game", "sette-e-mezzo-live"), ("table", "sem-live-1"))
    assert m[("studio_rounds_total", tuple(sorted(t + (("outcome", "closed"),))))] == 1
    assert m[("studio_bets_placed_total", t)] == 1
    assert m[("studio_bets_settled_total", t)] == 1
    assert m[("studio_stakes_cents_total", t)] == 1000
    assert m[("studio_payouts_cents_total", t)] == 2000
    bets = (("command", "bet"), ("table", "sem-live-1"))
    assert m[("studio_command_seconds_count", bets)] == 1
    assert m[("studio_command_seconds_sum", bets)] > 0
    assert m[("studio_device_up", (("device", "shoe"), ("table", "sem-live-1")))] == 1
    assert m[("studio_table_paused", (("table", "sem-live-1"),))] == 0
    clients = m[("studio_ws_clients", (("audience", "player"), ("table", "sem-live-1")))]
    assert clients >= 1
    glance = await (await client.get("/api/tables/sem-live-1/metrics")).json()
    assert glance["metrics"]["rounds"] == 1 and glance["metrics"]["payouts_cents"] == 2000
    assert glance["metrics"]["devices"]["shoe"] is True
    await ws.close()


async def test_only_staff_or_the_scrape_token_read_metrics(studio, client, monkeypatch):
    r = await client.get("/metrics")
    assert r.status == 401 and (await r.json())["error"]["code"] == "auth.missing_token"
    r = await client.get("/metrics", headers={"Authorization": f"Bearer {studio.token('ann')}"})
    assert r.status == 401                     # a player's token is no scrape token
    monkeypatch.setenv("STUDIO_METRICS_TOKEN", "s" * 32)
    r = await client.get("/metrics", headers={"Authorization": "Bearer " + "s" * 31 + "t"})
    assert r.status == 401
    r = await client.get("/metrics", headers={"Authorization": "Bearer " + "s" * 32})
    assert r.status == 200 and "studio_rounds" in await r.text()
    r = await client.get("/api/tables/sem-live-1/metrics")
    assert r.status == 401
    await login(client, DEALER)                # the dealer reads /metrics, not the summary
    assert (await client.get("/metrics")).status == 200
    r = await client.get("/api/tables/sem-live-1/metrics")
    assert r.status == 403 and (await r.json())["error"]["code"] == "auth.forbidden"


async def test_log_lines_are_json_with_the_table_and_round(studio, client):
    out = io.StringIO()
    logs.configure("json", logging.INFO)
    logging.getLogger().handlers[0].setStream(out)
    try:
        await a_round(studio, client)
    finally:
        logs.configure("text", logging.WARNING)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    closed = [x for x in lines if x.get("event") == "round_closed"]
    assert closed and closed[0]["table_id"] == "sem-live-1"
    assert closed[0]["round_id"] == studio.actor.state.round_id
    assert closed[0]["level"] == "info" and closed[0]["ts"].endswith("+00:00")
    assert {x["event"] for x in lines if "event" in x} >= {"betting_closed", "round_closed"}
