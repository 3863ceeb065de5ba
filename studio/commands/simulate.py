"""`studio simulate GAME`: Monte Carlo rounds, compared with the exact figure."""

from __future__ import annotations

import argparse
import json
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="Monte Carlo rounds with best play, against the exact RTP")
    p.add_argument("game", choices=["sette-e-mezzo-live", "sette-e-mezzo-quota-fissa",
                                    "punto-e-banco", "blackjack"])
    p.add_argument("--rounds", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--table", help="table id whose paytable to use")
    p.add_argument("--json", action="store_true")
    p.add_argument("--through-table", action="store_true",
                   help="play through the real table actor on a database, with bots")
    p.add_argument("--players", type=int, default=100,
                   help="bots (with --through-table; Quota Fissa: private tables at once)")
    p.add_argument("--positions", type=int, default=3, help="positions (with --through-table)")
    p.add_argument("--database", help="database URL (default: a temporary SQLite file)")
    p.set_defaults(func=run)


def run_through_table(args: argparse.Namespace) -> int:
    import asyncio
    import math

    from studio.runtime import tune_gc
    from studio.simulation.through_table import run as through

    tune_gc()  # the table actor runs with the studio process's collector settings
    r = asyncio.run(through(args.rounds, args.players, args.positions, args.seed,
                            args.database, args.config))
    print(f"Sette e Mezzo Live through the table actor: {r.rounds} rounds, "
          f"{len(r.bots)} bots on {args.positions} positions, {r.seconds:.1f} s "
          f"({r.rounds / r.seconds:.1f} rounds/s)")
    print(f"  ledger: sum of all accounts {r.ledger_total} cents, open reservations "
          f"{r.open_reservations}, bots whose balance differs from their bets: "
          f"{len(r.mismatched_balances)}")
    print(f"  audit: {'ok' if r.audit_ok else 'FAILED'} (hash chain, books, every round replayed)")
    for p in r.audit_problems:
        print(f"    {p}")
    print(f"  exact return with best play: {100 * r.exact_return:.4f} %")
    for strategy in ("best", "random", "disconnected"):
        ret, se, n = r.realised(strategy)
        z = (ret - r.exact_return) / se if se and not math.isnan(se) else float("nan")
        print(f"  {strategy:<13} bots: realised {100 * ret:8.4f} % +- {100 * se:.4f} "
              f"over {n} hands" + (f" (z = {z:+.2f} against the exact figure)"
                                    if strategy == "best" else ""))
    return 0 if r.ok else 1


def _private_report(args: argparse.Namespace, title: str, report, exact: dict[str, float]
                    ) -> int:
    """Print (or dump) a run through private tables: each bet's realised return against its
    exact figure; exit 1 unless the books balance, the audit passes and every bet lands
    within 4 standard errors."""
    lat = sorted(report.latencies)
    bets = {}
    for kind, exact_return in exact.items():
        ret, se = report.realised(kind)
        bets[kind] = {"realised_return_pct": round(100 * ret, 4),
                      "standard_error_pct": round(100 * se, 4),
                      "exact_return_pct": round(100 * exact_return, 4),
                      "z": round((ret - exact_return) / se, 2) if se else 0.0}
    data = {"game": args.game, "hands": report.hands, "tables": report.tables,
            "seconds": round(report.seconds, 3),
            "hands_per_s": round(report.hands / report.seconds, 1),
            "command_p50_ms": round(1000 * lat[len(lat) // 2], 2),
            "command_p99_ms": round(1000 * lat[int(0.99 * len(lat))], 2),
            "bets": bets, "ledger_total": report.ledger_total,
            "open_reservations": report.open_reservations,
            "mismatched_balances": len(report.mismatched_balances),
            "audit_ok": report.audit_ok}
    ok = report.ok and all(abs(b["z"]) <= 4 for b in bets.values())
    if args.json:
        print(json.dumps(data, indent=2))
        return 0 if ok else 1
    print(f"{title} through the table core: {report.hands} hands on {report.tables} private "
          f"tables at once, {report.seconds:.1f} s ({data['hands_per_s']:,.0f} hands/s; "
          f"command ack p50 {data['command_p50_ms']} ms, p99 {data['command_p99_ms']} ms)")
    print(f"  ledger: sum of all accounts {report.ledger_total} cents, open reservations "
          f"{report.open_reservations}, bots whose balance differs from their hands: "
          f"{len(report.mismatched_balances)}")
    print(f"  audit: {'ok' if report.audit_ok else 'FAILED'} (hash chain, books, every hand "
          "replayed)")
    for p in report.audit_problems:
        print(f"    {p}")
    print(f"  {'bet':<14}{'realised %':>12}{'std err %':>11}{'exact %':>11}{'z':>7}")
    for kind, b in bets.items():
        print(f"  {kind:<14}{b['realised_return_pct']:>12.4f}{b['standard_error_pct']:>11.4f}"
              f"{b['exact_return_pct']:>11.4f}{b['z']:>7.2f}")
    return 0 if ok else 1


def run_quota_fissa(args: argparse.Namespace) -> int:
    """Quota Fissa hands through many private tables at once (best play)."""
    import asyncio

    from studio.runtime import tune_gc
    from studio.simulation.quota_fissa_through_table import run as through

    tune_gc()
    report, exact = asyncio.run(through(args.rounds, args.players, args.seed, args.database,
                                        args.config))
    return _private_report(args, "Sette e Mezzo Quota Fissa", report, {"main": exact})


def run_punto_e_banco(args: argparse.Namespace) -> int:
    """Punto e Banco hands through many private tables at once, every bet in every hand."""
    import asyncio

    from studio.config import load_config
    from studio.games.punto_e_banco import mathematics
    from studio.games.punto_e_banco.rules import Bet
    from studio.runtime import tune_gc
    from studio.simulation.private_tables import run as through

    tune_gc()
    cfg = load_config(args.config)
    table = cfg.table(args.table) if args.table else cfg.first_table(args.game)
    bets = [{"position": 1, "kind": b.value, "amount": 1000} for b in Bet]
    report = asyncio.run(through(table, args.rounds, args.players, args.seed, bets,
                                 database=args.database))
    exact = mathematics.compute(table.paytable.to_paytable(), table.decks).returns
    return _private_report(args, "Punto e Banco", report,
                           {b.value: float(x) for b, x in exact.items()})


def run_blackjack(args: argparse.Namespace) -> int:
    """Blackjack through the pure rules (no table actor yet), by the strategy table."""
    from studio.games.blackjack.simulate_report import run

    return run(args.rounds, args.seed, args.json)


def run(args: argparse.Namespace) -> int:
    if args.game == "blackjack":
        return run_blackjack(args)
    if args.game == "sette-e-mezzo-quota-fissa":
        return run_quota_fissa(args)
    if args.game == "punto-e-banco":
        return run_punto_e_banco(args)
    if args.through_table:
        return run_through_table(args)
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
