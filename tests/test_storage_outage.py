"""A table whose PostgreSQL connection is cut mid-round (a real TCP relay between the studio
and the database, cut and restored): the commands it cannot write are refused with
table.storage_unavailable and nothing is half-applied; the table pauses and looks for its
database on the injected clock; when the database is back the round the outage interrupted
is void, every stake returned once, the table resumes by itself, and `studio audit verify`
replays it all."""

from __future__ import annotations

import os
import socket
import uuid

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from studio.storage import Store, audit
from studio.table import replay
from studio.table.actor import STORAGE_RETRY_S
from tests.table_harness import Harness
from tests.tcp_cut import CuttableRelay

LOCAL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_url() -> str:
    """The test database: STUDIO_TEST_DATABASE_URL, else the one on 127.0.0.1 if it answers."""
    url = os.environ.get("STUDIO_TEST_DATABASE_URL") or LOCAL
    u = make_url(url)
    try:
        socket.create_connection((u.host or "127.0.0.1", u.port or 5432), 1).close()
    except OSError:
        pytest.skip("no PostgreSQL answers on 127.0.0.1 (scripts/test uses the machine's)")
    return url


@pytest.fixture
def relayed():
    """A fresh schema on PostgreSQL, reached through a relay the test can cut."""
    url = postgres_url()
    u = make_url(url)
    relay = CuttableRelay((u.host or "127.0.0.1", u.port or 5432))
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    through = u.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
    store = Store.open(through, schema=schema)
    try:
        yield store, relay
    finally:
        relay.restore()
        store.dispose()
        relay.stop()
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


async def test_a_cut_database_pauses_the_table_then_voids_the_round_and_resumes(relayed):
    store, relay = relayed
    h = Harness(store)
    h.credit("ann", 10_000)
    h.credit("bob", 10_000)
    await h.start()
    try:
        assert (await h.bet("ann", 1, 1_000))["ok"]
        assert (await h.bet("bob", 2, 2_000))["ok"]
        await h.close_betting()
        await h.cards("7b 5c")                       # the burn, then position 1's card
        before = h.actor.state
        relay.cut()                                  # the database is gone
        answer = await h.actor.dealer("d1", "card", uuid.uuid4().hex, code="4d")
        assert answer["error"]["code"] == "table.storage_unavailable", answer
        assert h.actor.state is before               # nothing half-applied
        assert h.actor.paused and h.actor.storage_down
        assert any(a["code"] == "table.storage_unavailable" for a in h.actor.alerts)
        resume = await h.dealer("resume")
        assert resume["error"]["code"] == "table.storage_unavailable"  # it waits for the db
        await h.advance(STORAGE_RETRY_S)             # it looks, the database is still gone
        assert h.actor.storage_down
        relay.restore()
        await h.advance(STORAGE_RETRY_S)             # found: the round is void, the table runs
        assert not h.actor.storage_down and not h.actor.paused
        voided = h.events("round_voided")
        assert voided and "database" in voided[-1]["reason"]
        assert h.balance("ann") == (10_000, 0) and h.balance("bob") == (10_000, 0)
        await h.advance(h.cfg.timers.pause_between_rounds_s)
        assert h.actor.state.betting                  # the next round opens
        assert (await h.bet("ann", 1, 500))["ok"]
    finally:
        await h.actor.stop()
    report = audit.verify(store, replayers=replay.replayers(),
                          games={h.actor.stream: h.actor.game.name})
    assert report.ok and report.rounds_replayed == 2, report.problems
