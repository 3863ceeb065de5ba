"""What `studio simulate blackjack` prints: each bet's realised return and standard error over
N games through the rules, against the exact figure (`mathematics`)."""

from __future__ import annotations

import json
import time

from studio.games.blackjack import mathematics as m
from studio.games.blackjack.rules import DECKS, Bet, Paytable
from studio.games.blackjack.simulation import simulate


def run(rounds: int, seed: int, as_json: bool, paytable: Paytable | None = None) -> int:
    """Exit 1 when a bet lands more than 4 standard errors from its exact return."""
    if rounds < 2:
        raise SystemExit("--rounds must be at least 2")
    paytable = paytable or Paytable()
    main = m.main_game(DECKS, paytable)
    exact = {Bet.MAIN: main.return_, **{b: float(r) for b, r in
                                        m.side_returns(paytable).items()}}
    started = time.perf_counter()
    sim = simulate(rounds, seed, main.strategy(), paytable)
    seconds = time.perf_counter() - started
    bets = {}
    for bet, tally in sim.bets.items():
        se = tally.standard_error
        bets[bet.value] = {"realised_return_pct": round(100 * tally.realised_return, 4),
                           "standard_error_pct": round(100 * se, 4),
                           "exact_return_pct": round(100 * exact[bet], 4),
                           "z": round((tally.realised_return - exact[bet]) / se, 2) if se else 0.0}
    ok = all(abs(b["z"]) <= 4 for b in bets.values())
    if as_json:
        print(json.dumps({"game": "blackjack", "rounds": rounds, "seed": seed,
                          "seconds": round(seconds, 3), "bets": bets}, indent=2))
        return 0 if ok else 1
    print(f"Blackjack - {rounds} games, seed {seed}, one position with every bet, the strategy "
          f"table ({seconds:.1f} s, {rounds / seconds:,.0f} games/s)")
    print(f"  {'bet':<18}{'realised %':>12}{'std err %':>11}{'exact %':>11}{'z':>7}")
    for name, b in bets.items():
        print(f"  {name:<18}{b['realised_return_pct']:>12.4f}{b['standard_error_pct']:>11.4f}"
              f"{b['exact_return_pct']:>11.4f}{b['z']:>7.2f}")
    print("  (main: per unit of the original bet; exact: best composition-dependent play, "
          "which the table summarises by totals)")
    return 0 if ok else 1
