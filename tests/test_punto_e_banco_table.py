"""Punto e Banco: the exact mathematics, the paytable check at configuration load, and the
regulation's virtual table through the real actor, ledger and audit."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from fractions import Fraction
from pathlib import Path

import pytest

from studio.config import ConfigError, load_config, parse_config
from studio.games.punto_e_banco import mathematics as m
from studio.games.punto_e_banco.rules import Bet, Outcome, Paytable
from studio.storage import audit
from studio.table import replay
from tests.test_private_tables import Tables

STUDIO = Path(sys.executable).parent / "studio"


def test_eight_decks_match_the_published_figures():
    r = m.compute(Paytable(), 8)
    assert round(float(r.probabilities[Outcome.BANCO]), 6) == 0.458597
    assert round(float(r.probabilities[Outcome.PUNTO]), 6) == 0.446247
    assert round(float(r.probabilities[Outcome.PARI]), 6) == 0.095156
    assert round(100 * (1 - float(r.returns[Bet.BANCO])), 4) == 1.0579
    assert round(100 * (1 - float(r.returns[Bet.PUNTO])), 4) == 1.2351
    assert round(100 * (1 - float(r.returns[Bet.PARI])), 3) == 4.844  # 9:1
    assert sum(r.probabilities.values()) == 1  # exact fractions


def test_one_deck_the_regulations_table():
    r = m.compute(Paytable(), 1)
    assert r.pair == Fraction(3, 51)  # any two of 52 cards share a rank: 3/51
    assert all(x < 1 for x in r.returns.values())


def _config_with(table: dict) -> dict:
    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / "config" / "studio.toml").read_text())
    data["tables"] = [t for t in data["tables"] if t["game"] != "punto-e-banco"] + [table]
    return data


PB = {"id": "pb-x", "name": "PB", "game": "punto-e-banco", "decks": 8,
      "limits": {"main_min": 100, "main_max": 1000, "side_min": 100, "side_max": 1000,
                 "round_max_total": 5000}}


def test_a_paytable_that_returns_more_than_the_stake_is_refused_at_load():
    with pytest.raises(ConfigError) as e:  # 15:1 pairs on eight decks: 119.5181 %
        parse_config(_config_with({**PB, "paytable": {"punto_pair": "15:1",
                                                      "banco_pair": "15:1"}}))
    assert "punto_pair returns 119.5181 % with 8 deck(s)" in str(e.value)
    ok = parse_config(_config_with({**PB, "paytable": {"punto_pair": "11:1",
                                                       "banco_pair": "11:1"}}))
    assert ok.table("pb-x").decks == 8
    with pytest.raises(ConfigError) as e:  # a bound set in the config
        parse_config(_config_with({**PB, "max_return_pct": 95.0, "paytable": {
            "punto_pair": "11:1", "banco_pair": "11:1"}}))
    assert "pari returns 95.1560 %" in str(e.value)


def test_studio_rtp_punto_e_banco_for_one_and_eight_decks():
    for decks, banco in (("1", 98.9883), ("8", 98.9421)):
        out = subprocess.run([str(STUDIO), "rtp", "punto-e-banco", "--decks", decks, "--json"],
                             check=True, capture_output=True, text=True, timeout=60)
        assert json.loads(out.stdout)["returns_pct"]["banco"] == banco


def test_studio_simulate_punto_e_banco_lands_on_every_exact_return(tmp_path):
    out = subprocess.run([str(STUDIO), "simulate", "punto-e-banco", "--rounds", "1500",
                          "--players", "30", "--seed", "5", "--json",
                          "--database", f"sqlite:///{tmp_path / 'sim.db'}"],
                         check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    r = json.loads(out.stdout)
    assert set(r["bets"]) == {b.value for b in Bet} and r["audit_ok"]
    assert r["ledger_total"] == 0 and r["open_reservations"] == 0


# ------------------------------------------------------------------- the virtual table


def pb_tables(store) -> Tables:
    t = Tables(store)
    from studio.table.private import PrivateTables

    t.private = PrivateTables(load_config().first_table("punto-e-banco"), store, t.clock,
                              t.hub, shoe=lambda: t.shoe)
    return t


async def test_a_hand_with_every_bet_through_the_ledger_and_the_audit(store):
    t = pb_tables(store)
    t.credit("ann", 10_000)
    t.shoe.stacks.append(["9c", "4d", "9s", "4b"])  # Punto 9+9=8 natural, Banco 4+4=8: a tie
    actor = await t.private.open("ann")
    bets = [{"position": 1, "kind": b.value, "amount": 100} for b in Bet]
    answer = await actor.deal("ann", None, uuid.uuid4().hex, bets)
    assert answer["ok"], answer
    await actor.drain()
    (settled,) = [e for _, _, e in t.seen if e["type"] == "player_settled"]
    back = {b["kind"]: b["returned"] for b in settled["bets"]}
    # a tie: Punto and Banco come back, Pari 9:1, both sides paired 15:1
    assert back == {"punto": 100, "banco": 100, "pari": 1000, "punto_pair": 1600,
                    "banco_pair": 1600}
    assert t.balance("ann") == (10_000 - 500 + 4400, 0)
    closed = [e for _, _, e in t.seen if e["type"] == "round_closed"][-1]
    assert closed["punto"] == ["9c", "9s"] and closed["banco"] == ["4d", "4b"]
    report = audit.verify(store, replayers=replay.replayers(),
                          games={"table:pb-virtual-1": "punto-e-banco"})
    assert report.ok and report.rounds_replayed == 1, report.problems
    await t.private.stop()


async def test_third_cards_and_the_commission_through_the_table(store):
    t = pb_tables(store)
    t.credit("ann", 10_000)
    # Punto 2+3=5 draws a 5 (0); Banco 3+2=5 against a third card worth 5: draws, a 2: 7
    t.shoe.stacks.append(["2c", "3d", "3s", "2b", "5c", "2d"])
    actor = await t.private.open("ann")
    answer = await actor.deal("ann", None, uuid.uuid4().hex,
                              [{"position": 1, "kind": "banco", "amount": 199}])
    assert answer["ok"]
    await actor.drain()
    dealt = [(e["to"], e["card"]) for _, _, e in t.seen if e["type"] == "card_dealt"]
    assert dealt == [("punto", "2c"), ("banco", "3d"), ("punto", "3s"), ("banco", "2b"),
                     ("punto", "5c"), ("banco", "2d")]
    expected = [e["say"] for _, _, e in t.seen if e["type"] == "card_expected"]
    assert expected[:2] == ["deal to Punto", "deal to Banco"]
    (settled,) = [e for _, _, e in t.seen if e["type"] == "player_settled"]
    assert settled["bets"] == [{"kind": "banco", "stake": 199, "result": "win",
                                "returned": 388, "commission": 10}]
    await t.private.stop()


async def test_bad_bets_change_nothing(store):
    t = pb_tables(store)
    t.credit("ann", 1_000)
    actor = await t.private.open("ann")
    lim = load_config().first_table("punto-e-banco").limits
    for bets, code in [
            ([{"position": 1, "kind": "dragon", "amount": 100}], "bet.unknown_kind"),
            ([{"position": 2, "kind": "punto", "amount": 100}], "bet.unknown_position"),
            ([{"position": 1, "kind": "punto", "amount": lim.main_max + 1}], "bet.above_max"),
            ([{"position": 1, "kind": "pari", "amount": lim.side_min - 1}], "bet.below_min"),
            ([{"position": 1, "kind": "punto", "amount": 600},
              {"position": 1, "kind": "banco", "amount": 600}], "ledger.insufficient_funds"),
            ("nope", "bet.invalid")]:
        answer = await actor.deal("ann", None, uuid.uuid4().hex, bets)
        assert answer["error"]["code"] == code, (bets, answer)
    assert t.balance("ann") == (1_000, 0) and actor.round_no == 0 and actor.state is None
    await t.private.stop()
