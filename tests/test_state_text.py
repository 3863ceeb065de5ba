"""A player's state as the WebSocket sends it (`TableService.state_text`: the public part
encoded once for every player, the player's own part appended) is, once parsed, exactly the
player's view of the table (`TableService.view`), at every moment of a round, for the player
who sits, one who bets behind, one who does not play, and the same bytes of public part for
all."""

from __future__ import annotations

import json

import pytest

from tests.browser.harness import StudioHarness


def same(service, player: str) -> None:
    text = json.loads(service.state_text(f"player:{player}"))
    view = service.view(f"player:{player}")
    text.pop("server_time"), view.pop("server_time")
    assert text == view, player


@pytest.fixture
async def bj(tmp_path):
    h = StudioHarness(tmp_path, table="bj-live-1")
    await h.start()
    for p in ("ann", "bob", "cat"):
        h.credit(p, 10_000)
    yield h
    await h.stop()


async def test_the_state_text_is_the_view_through_a_live_blackjack_round(bj):
    service = bj.service
    everyone = ("ann", "bob", "cat")
    for p in everyone:
        same(service, p)
    assert (await bj.actor.place_bets("ann", [{"position": 1, "kind": "main",
                                               "amount": 1000}], "k1"))["ok"]
    assert (await bj.actor.place_bets("bob", [{"position": 1, "kind": "behind",
                                               "amount": 500}], "k2"))["ok"]
    for p in everyone:
        same(service, p)
    await bj.close_betting()
    await bj.deal("Qd", "8c", "6s", "8s", "Tc")               # seat 1: 8 8 — a split to offer
    for p in everyone:
        same(service, p)
    mine = json.loads(service.state_text("player:ann"))["round"]
    theirs = json.loads(service.state_text("player:cat"))["round"]
    assert "split" in mine["choices"] and theirs["choices"] == []
    assert mine["seats"]["1"]["mine"] and not theirs["seats"]["1"]["mine"]
    assert json.loads(service.state_text("player:bob"))["round"]["seats"]["1"]["my_behind"] \
        == 500
    head = service.state_text("player:ann").split(',"round":')[0]
    assert head == service.state_text("player:cat").split(',"round":')[0]  # shared bytes


async def test_the_state_text_is_the_view_at_sette_e_mezzo(tmp_path):
    h = StudioHarness(tmp_path)
    await h.start()
    try:
        h.credit("ann", 10_000)
        assert (await h.actor.place_bets("ann", [{"position": 1, "kind": "main",
                                                  "amount": 1000}], "k1"))["ok"]
        await h.close_betting()
        await h.deal("7b", "5c", "4d")
        for p in ("ann", "bob"):
            same(h.service, p)
        assert json.loads(h.service.state_text("player:ann"))["round"]["my_decision"]
    finally:
        await h.stop()
