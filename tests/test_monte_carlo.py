"""The Monte Carlo simulation, with the same rules and best play, lands on the exact figure."""

import json
import subprocess
import sys

from studio.games.sette_e_mezzo_live.rules import LivePaytable
from studio.mathematics import sette_e_mezzo_live as exact
from studio.simulation.sette_e_mezzo_live import simulate


def test_200000_rounds_land_within_4_standard_errors_of_the_exact_return():
    pt = LivePaytable()
    sim = simulate(200_000, seed=20261122, paytable=pt)
    report = exact.compute(pt)
    for tally, figure in ((sim.main, report.main_return),
                          (sim.partita_perfetta, report.pp_return),
                          (sim.mano_di_poker, report.mdp_effective_return)):
        assert tally.rounds == 200_000
        assert 0 < tally.standard_error < 0.02
        assert abs(tally.realised_return - figure) < 4 * tally.standard_error


def test_same_seed_same_rounds():
    a = simulate(2_000, seed=5, paytable=LivePaytable())
    b = simulate(2_000, seed=5, paytable=LivePaytable())
    assert a.main.total == b.main.total and a.mano_di_poker.total == b.mano_di_poker.total


def test_the_command_prints_the_realised_return_and_its_standard_error():
    out = subprocess.run(
        [sys.executable, "-m", "studio.cli", "simulate", "sette-e-mezzo-live",
         "--rounds", "5000", "--seed", "3", "--json"],
        check=True, capture_output=True, text=True).stdout
    data = json.loads(out)
    main = data["bets"]["main"]
    assert data["rounds"] == 5000
    assert main["standard_error_pct"] > 0 and abs(main["z"]) < 6
