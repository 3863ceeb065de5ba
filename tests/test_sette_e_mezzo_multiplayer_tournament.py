"""Sette e Mezzo piatto tournaments: nine players register with a buy-in, their seats are
drawn at two tables, bots play until one player has every chip; tables merge as players are
eliminated; the ranking follows the eliminations; the prize pool is paid into the ledger."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime

from studio import ledger
from studio.clock import ManualClock
from studio.games.sette_e_mezzo_multiplayer import table as tbl
from studio.games.sette_e_mezzo_multiplayer.game import GAME
from studio.games.sette_e_mezzo_multiplayer.tournament_tables import draw, prizes, rebalance
from studio.ledger_transfers import pool_account
from studio.storage import Store, audit, event_log
from studio.table import replay
from studio.table.seated import SeatedTables
from studio.table.tournaments import Tournament, TournamentSetup
from tests.mp_bots import bot_move
from tests.mp_harness import mp_config

PLAYERS = [f"p{i}" for i in range(1, 10)]


def test_draw_balance_and_prizes() -> None:
    tables = draw(PLAYERS, 7)
    assert [len(t) for t in tables] == [5, 4]
    # players eliminated down to 7: one table is enough, the smaller closes into the other
    assert rebalance({"t1": ["a", "b", "c", "d"], "t2": ["e", "f", "g"]}, 7) == [
        ("e", "t2", "t1"), ("f", "t2", "t1"), ("g", "t2", "t1")]
    # 6 and 2 at two tables of 7 seats: balanced to 4 and 4
    assert rebalance({"t1": list("abcdef"), "t2": list("gh")}, 7) == [
        ("f", "t1", "t2"), ("e", "t1", "t2")]
    assert prizes(9 * 1000, (5000, 3000, 2000), 9) == [4500, 2700, 1800]
    assert prizes(1001, (5000, 3000, 2000), 2) == [701, 300]


def test_a_tournament_bank_cannot_be_refused_and_a_silent_banker_pays() -> None:
    setup = GAME.setup(mp_config("piatto", kind="tournament", rake_bp=0))
    t = GAME.new_state(setup)
    for p in "abc":
        t = tbl.step(t, {"type": "sit", "player": p, "amount": 1000, "director": True}).table
    while tbl.needs(t) is not None:  # the matta deal (the deck in order: the matta is last)
        t = tbl.step(t, {"type": "shuffle"}).table if tbl.needs(t) == "shuffle" else t
        for code in ("Ad", "2d", "Kd"):
            if t.offer is None:
                t = tbl.step(t, {"type": "card", "card": code}).table
    offered = t.offer
    assert offered is not None
    try:
        tbl.step(t, {"type": "refuse", "player": offered})
        raise AssertionError("refused")
    except tbl.MultiplayerError as e:
        assert e.code == "mp.must_bank_in_tournament"
    t = tbl.step(t, {"type": "timeout", "now": t.deadline}).table  # silent past its time
    credits = dict(t.credits)
    assert credits[offered] == 1000 - 250  # half the minimum piatto, shared by the others
    assert sorted(v for p, v in credits.items() if p != offered) == [1125, 1125]
    assert t.offer not in (None, offered)


async def test_nine_players_to_the_winner(store: Store) -> None:
    clock = ManualClock()
    store.clock = lambda: datetime.fromtimestamp(clock.now(), UTC)
    group = SeatedTables(store, clock)
    group.start()
    cfg = mp_config("piatto", kind="tournament", rake_bp=0, seats=7, min_bet=100,
                    min_bank=500)
    setup = TournamentSetup("cup", cfg, buy_in=1000, chips=2000, prizes_bp=(5000, 3000, 2000))
    cup = Tournament(setup, group, store, GAME, random.Random(4))
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c-{p}", p, 5000) for p in PLAYERS])
    for p in PLAYERS:
        ticket = cup.register(p)
        assert ticket.balances[f"player:{p}"] == 4000
    await cup.start()
    assert sorted(len(t.state.players) for t in cup.tables.values()) == [4, 5]
    rng = random.Random(9)
    acted = 0
    while cup.ranking is None:
        moved = False
        for table in list(cup.tables.values()):
            move = bot_move(table.state, rng)
            if move is None:
                continue
            player = move.pop("player")
            answer = await table.act(player, move, uuid.uuid4().hex)
            assert answer["ok"], answer
            moved = True
            acted += 1
            await cup.direct()
        if not moved:
            await cup.direct()
        assert acted < 60_000
    ranking = cup.ranking
    assert sorted(ranking) == sorted(PLAYERS) and len(cup.eliminated) == 8
    winner = ranking[0]
    assert sum(len(t.state.players) for t in cup.tables.values()) == 1
    assert [e["player"] for e in reversed(cup.eliminated)] == ranking[1:] or any(
        a["round"] == b["round"] and a["banker"] == b["banker"]
        for a, b in zip(cup.eliminated, cup.eliminated[1:], strict=False))
    assert cup.prizes[winner] == 4500 and list(cup.prizes.values()) == [4500, 2700, 1800]
    with store.reader() as tx:
        assert ledger.account_balance(tx, pool_account("cup")) == 0
        assert ledger.balance(tx, winner).available == 4000 + 4500
        assert ledger.total_balance(tx) == 0
        kinds = {e.type for e in event_log.read(tx, stream_id="tournament:cup")}
    assert {"registered", "tables_drawn", "player_moved", "eliminated",
            "tournament_finished"} <= kinds
    report = audit.verify(store, replayers=replay.replayers(),
                          games={f"table:{t}": GAME.name for t in cup.tables})
    assert report.problems == []
    await group.stop()


def test_a_tournament_punter_in_sitout_pays_half_the_minimum_into_the_piatto() -> None:
    setup = GAME.setup(mp_config("piatto", kind="tournament", rake_bp=0))
    t = GAME.new_state(setup)
    for p in "abc":
        t = tbl.step(t, {"type": "sit", "player": p, "amount": 1000, "director": True}).table
    t = tbl.step(t, {"type": "shuffle"}).table
    t = tbl.step(t, {"type": "card", "card": "Kd"}).table  # a banks
    assert t.offer == "a"
    t = tbl.step(t, {"type": "sitout", "player": "c", "on": True}).table
    t = tbl.step(t, {"type": "accept", "player": "a", "amount": 500}).table
    assert t.bank.punters == ("b",)  # c was in sitout when the bank opened: not a punter
    t = tbl.step(t, {"type": "sitout", "player": "c", "on": False}).table
    t = tbl.step(t, {"type": "sitout", "player": "b", "on": True}).table  # at betting time
    assert t.bank is None  # b did not play: it paid its fine and the bank is over
    assert dict(t.credits) == {"a": 1050, "b": 950, "c": 1000}  # half the minimum bet
    try:  # and in a tournament every punter plays: no "Non gioco"
        t = tbl.step(t, {"type": "sitout", "player": "b", "on": False}).table
        while t.bank is None:
            if t.offer:
                t = tbl.step(t, {"type": "accept", "player": t.offer, "amount": 500}).table
        tbl.step(t, {"type": "join", "player": t.bank.punter, "plays": False})
        raise AssertionError("refused")
    except tbl.MultiplayerError as e:
        assert e.code == "mp.must_play_in_tournament"
