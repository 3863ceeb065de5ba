"""Money that never breaks, under any sequence of inputs: players sit, rebuy, leave, go into
sitout and come back, stake what they like (legal or not), let timers run out, and the table
restarts mid-hand. After every input the money the moves booked equals what the table holds
(every seat, the piatto, the rake), every move sums to zero, and a refused input changes
nothing. Pure first (many seeds, fast), then through the real table and database with
restarts and the audit."""

from __future__ import annotations

import random
import uuid

import pytest

from studio.cards import DeckKind, deck
from studio.games.sette_e_mezzo_multiplayer import table as tbl
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.game import GAME
from studio.storage import Store
from tests.mp_bots import bot_move
from tests.mp_harness import MpHarness, mp_config
from tests.test_sette_e_mezzo_multiplayer_table import audit_ok

NAMES = [f"p{i}" for i in range(9)]


def random_input(t: tbl.Table, rng: random.Random, now: float) -> dict:
    r = rng.random()
    players = t.players
    anyone = rng.choice(NAMES)
    if r < 0.55 and (move := bot_move(t, rng)) is not None:
        return move
    if r < 0.62:
        return {"type": "sit", "player": anyone, "amount": rng.choice([500, 2000, 9000])}
    if r < 0.68 and players:
        return {"type": "sitout", "player": rng.choice(players), "on": rng.random() < 0.6}
    if r < 0.73 and players:
        return {"type": "rebuy", "player": rng.choice(players), "amount": rng.randint(1, 3000)}
    if r < 0.76 and players:
        return {"type": "leave", "player": rng.choice(players)}
    if r < 0.82:
        return {"type": "timeout", "now": now}
    if r < 0.88 and players:
        return {"type": "stake", "player": rng.choice(players),
                "amount": rng.randint(-5, 20_000), "hit": rng.random() < 0.5}
    if r < 0.92 and players:
        return {"type": "accept", "player": rng.choice(players),
                "amount": rng.randint(0, 12_000)}
    if r < 0.95 and players:
        return {"type": "refuse", "player": rng.choice(players)}
    return {"type": rng.choice(["decide", "join"]), "player": anyone,
            "hit": rng.random() < 0.5, "plays": rng.random() < 0.8}


@pytest.mark.parametrize("variant", ["piatto", "classica"])
@pytest.mark.parametrize("seed", range(6))
def test_the_books_always_equal_what_the_table_holds(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    t = GAME.new_state(GAME.setup(mp_config(variant, seats=5, buy_in_max=10_000)))
    booked: dict[str, int] = {}
    checkpoint = t
    now = 1_000.0
    cards: list = []
    for _ in range(3000):
        need = tbl.needs(t)
        if need == "shuffle" or (need == "card" and not cards):
            cards = deck(DeckKind.ITALIAN_40)
            rng.shuffle(cards)
            inp = {"type": "shuffle"}
        elif need == "card":
            code = cards.pop().code
            if not tbl.card_usable(t, code):
                continue
            inp = {"type": "card", "card": code}
        elif rng.random() < 0.01 and not tbl.at_checkpoint(t):
            inp = {"type": "void"}  # a restart mid-hand
        else:
            now += rng.choice([0.5, 5, 30, 200])
            inp = {**random_input(t, rng, now), "now": now}
        before = t
        try:
            step = (tbl.void(t, checkpoint, now) if inp["type"] == "void"
                    else tbl.step(t, inp))
        except MultiplayerError:
            assert t == before
            continue
        t = step.table
        for m in step.moves:
            assert sum(m.legs.values()) == 0, m
            for k, v in m.legs.items():
                booked[k] = booked.get(k, 0) + v
        held = tbl.holdings(t)
        assert {k: v for k, v in booked.items() if v and not k.startswith("wallet:")} == held
        assert all(v >= 0 for v in held.values())
        if tbl.at_checkpoint(t):
            checkpoint = t
    assert t.bank_no > 3


@pytest.mark.parametrize("variant", ["piatto", "classica"])
async def test_through_the_table_with_restarts(store: Store, variant: str) -> None:
    h = MpHarness(store, variant, seed=3, seats=5, buy_in_max=10_000)
    rng = random.Random(5)
    for p in NAMES:
        h.credit(p, 50_000)
    for n in range(400):
        inp = random_input(h.state, rng, h.clock.now())
        player = inp.pop("player", None) or "p0"
        if inp["type"] == "timeout":
            await h.advance(rng.choice([5, 25, 200]))
        else:
            await h.table.act(player, inp, uuid.uuid4().hex)
        if n % 97 == 96:
            await h.restart()
        assert h.total() == 0
    held = tbl.holdings(h.state)
    for k, v in held.items():
        if k.startswith("seat:"):
            assert h.seat(k[5:]) == v
    assert h.pool() == held.get("pool", 0)
    audit_ok(store)
    await h.close()
