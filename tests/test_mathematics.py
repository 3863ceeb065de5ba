"""Exact mathematics: internal consistency, the plain recursion as reference, config-driven
paytables, and the command's output."""

import json
import subprocess
import sys
import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from studio.cards import MATTA, DeckKind, deck, parse_cards
from studio.config import DEFAULT_CONFIG
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_live import rules as live
from studio.games.sette_e_mezzo_quota_fissa import rules as qf
from studio.mathematics import sette_e_mezzo_live as m
from studio.mathematics import sette_e_mezzo_quota_fissa as mq
from studio.mathematics.enumeration import Enumerator

PT = live.LivePaytable()


@pytest.fixture(scope="module")
def report():
    return m.compute(PT)


def test_fast_dealer_weighing_equals_the_plain_recursion():
    fast = Enumerator(m.game_rules(PT), deck(DeckKind.ITALIAN_40))
    plain = Enumerator(m.game_rules(PT), deck(DeckKind.ITALIAN_40), plain=True)
    assert fast.expected_net() == pytest.approx(plain.expected_net(), abs=1e-12)
    for (player, dealer_first, left) in list(fast._stand)[::50]:
        a = plain.dealer_outcomes(left, dealer_first)
        b = fast.dealer_distribution(left, dealer_first)
        assert a.keys() == b.keys()
        assert all(a[k] == pytest.approx(b[k], abs=1e-14) for k in a)


def test_outcome_probabilities_add_up_and_agree_with_the_expected_value(report):
    assert sum(report.outcomes.values()) == pytest.approx(1, abs=1e-12)
    net = sum(p * float(live.main_net(live.MainResult(k), PT)) for k, p in report.outcomes.items())
    assert 1 + net == pytest.approx(report.main_return, abs=1e-12)
    assert sum(report.pp_classes.values()) == pytest.approx(1)
    assert sum(report.mdp_classes.values()) == pytest.approx(1)


def test_side_bet_class_probabilities_are_exact_counts(report):
    # 40 cards, 39 for the dealer: a pair of 7s is 3/39 of the time a 7 is first (4/40).
    assert report.pp_classes["pair_of_sevens"] == pytest.approx(4 / 40 * 3 / 39)
    assert report.pp_classes["pair_of_figures"] == pytest.approx(12 / 40 * 3 / 39)
    # 4 suited fante-cavallo-re among C(40,3) = 9880 hands
    assert report.mdp_classes["scala_reale"] == pytest.approx(4 / 9880)
    assert report.mdp_classes["tris"] == pytest.approx(10 * 4 / 9880)
    assert report.pp_return == pytest.approx(
        (4 * 3 * 56 + 12 * 3 * 11 + 24 * 3 * 6) / (40 * 39))


def test_mano_di_poker_refund_lowers_what_is_at_risk(report):
    assert 0 < report.mdp_refund < 1
    assert report.mdp_effective_return == pytest.approx(
        report.mdp_refund + (1 - report.mdp_refund) * report.mdp_resolved_return)


def test_decision_table_matches_the_rules(report):
    cells = {(c.dealer, c.player_total, c.one_card): c for c in report.decisions}
    # a lone 5 against a dealer's 5: standing ties at 5, which loses, so always Carta
    assert cells[("5", 10, True)].advice == "C"
    # decisions exist only at 7 or less and never below the dealer's card
    assert all(c.player_total <= 14 for c in report.decisions)
    assert all(c.dealer in ("matta", "1/2") or c.player_total >= 2 * int(c.dealer)
               for c in report.decisions)
    # against the matta the player draws automatically to 7: decisions only at 7
    assert {c.player_total for c in report.decisions if c.dealer == "matta"} == {14}
    assert sum(c.reach for c in report.decisions) > 0.5


def test_best_play_beats_restricted_choices():
    """Fewer choices can only lose value: choosing only below 4, or never choosing."""
    rules = m.game_rules(PT)
    best = m.engine(PT).expected_net()
    for may_decide in (lambda p, d: live.may_decide(p, d) and p.total < 8, lambda p, d: False):
        restricted = Enumerator(replace(rules, may_decide=may_decide), deck(DeckKind.ITALIAN_40))
        assert best > restricted.expected_net() + 1e-4


def test_quota_fissa_figures(tmp_path):
    r = mq.compute(Fraction(1))
    assert sum(r.outcomes.values()) == pytest.approx(1)
    net = r.outcomes["win"] - r.outcomes["lose"]
    assert 1 + net == pytest.approx(r.main_return)
    # a tie at 5 pushes in Quota Fissa (it loses in Live): against the bank's 5 the player's
    # 5 on two or more cards is not always Carta there, while Live always hits a lone 5
    cells = {(c.dealer, c.player_total, c.one_card): c for c in r.decisions}
    assert cells[("5", 10, False)].advice != "C"
    # the player cannot choose at 7 1/2, nor below the bank's card (forced to hit)
    assert all(c.player_total < 15 for c in r.decisions)
    assert all(c.dealer in ("matta", "1/2") or c.player_total >= 2 * int(c.dealer)
               for c in r.decisions)
    assert qf.must_hit(Hand.of([MATTA]), Hand.of(parse_cards("2c")))


# ---------------------------------------------------------------- the command


def run_cli(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "studio.cli", *args], check=True,
                         capture_output=True, text=True)
    return out.stdout


def write_config(tmp_path: Path, **paytable: str) -> Path:
    text = DEFAULT_CONFIG.read_text()
    data = tomllib.loads(text)
    for k, v in paytable.items():
        old = data["tables"][0]["paytable"][k]
        text = text.replace(f'{k} = "{old}"', f'{k} = "{v}"', 1)
    path = tmp_path / "studio.toml"
    path.write_text(text)
    return path


def test_json_output_has_every_figure_with_four_decimals():
    data = json.loads(run_cli("rtp", "sette-e-mezzo-live", "--json"))
    assert set(data) >= {"main", "partita_perfetta", "mano_di_poker", "decisions", "paytable"}
    for value in (data["main"]["return_pct"], data["partita_perfetta"]["return_pct"],
                  data["mano_di_poker"]["return_pct"],
                  data["mano_di_poker"]["effective_return_pct"]):
        assert value == round(value, 4) and 50 < value < 110
    assert data["paytable"]["royal"] == "3:2"
    assert any(d["advice"] == "C" for d in data["decisions"])


def test_changing_a_payout_in_config_changes_the_figures(tmp_path):
    base = json.loads(run_cli("rtp", "sette-e-mezzo-live", "--json"))
    cfg = write_config(tmp_path, pp_sevens="60:1", royal="2:1")
    changed = json.loads(run_cli("rtp", "sette-e-mezzo-live", "--json", "--config", str(cfg)))
    assert changed["paytable"]["pp_sevens"] == "60:1"
    # five more units on a pair of sevens, probability 4/40 * 3/39
    assert changed["partita_perfetta"]["return_pct"] - base["partita_perfetta"]["return_pct"] \
        == pytest.approx(100 * 5 * 4 / 40 * 3 / 39, abs=2e-4)
    assert changed["main"]["return_pct"] > base["main"]["return_pct"] + 0.8


def test_quota_fissa_command_prints_a_decision_table():
    out = run_cli("rtp", "sette-e-mezzo-quota-fissa")
    assert "Quota Fissa" in out and "Best play" in out and "%" in out
