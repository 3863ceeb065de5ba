"""`studio simulate GAME`: Monte Carlo rounds, compared with the exact figure."""

from __future__ import annotations

import argparse
import json
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="Monte Carlo rounds with best play, against the exact RTP")
    p.add_argument("game", choices=["sette-e-mezzo-live"])
    p.add_argument("--rounds", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--table", help="table id whose paytable to use")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from studio.config import load_config
    from studio.mathematics import sette_e_mezzo_live as exact
    from studio.simulation.sette_e_mezzo_live import simulate

    if args.rounds < 2:
        raise SystemExit("--rounds must be at least 2")
    cfg = load_config(args.config)
    table = cfg.table(args.table) if args.table else cfg.first_table(args.game)
    paytable = table.paytable.to_paytable()
    started = time.perf_counter()
    sim = simulate(args.rounds, args.seed, paytable)
    seconds = time.perf_counter() - started
    report = exact.compute(paytable)
    rows = {
        "main": (sim.main, report.main_return),
        "partita_perfetta": (sim.partita_perfetta, report.pp_return),
        "mano_di_poker": (sim.mano_di_poker, report.mdp_effective_return),
    }
    data = {
        "game": args.game, "rounds": args.rounds, "seed": args.seed,
        "seconds": round(seconds, 3),
        "bets": {
            name: {"realised_return_pct": round(100 * t.realised_return, 4),
                   "standard_error_pct": round(100 * t.standard_error, 4),
                   "exact_return_pct": round(100 * exact_value, 4),
                   "z": round((t.realised_return - exact_value) / t.standard_error, 2)
                   if t.standard_error else 0.0}
            for name, (t, exact_value) in rows.items()
        },
    }
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"Sette e Mezzo Live - {args.rounds} rounds, seed {args.seed}, best play "
          f"({seconds:.1f} s, {args.rounds / seconds:,.0f} rounds/s)")
    print(f"  {'bet':<18}{'realised %':>12}{'std err %':>11}{'exact %':>11}{'z':>7}")
    for name, b in data["bets"].items():
        print(f"  {name:<18}{b['realised_return_pct']:>12.4f}{b['standard_error_pct']:>11.4f}"
              f"{b['exact_return_pct']:>11.4f}{b['z']:>7.2f}")
    print("  (Mano di Poker: refunds count as the stake returned, as in the effective return)")
    return 0
