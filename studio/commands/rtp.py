"""`studio rtp GAME`: the exact theoretical return, read from the table's configured paytable."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from studio.config import load_config
from studio.games.sette_e_mezzo import format_halves
from studio.mathematics.best_play import DecisionCell, dealer_label_order
from studio.odds import format_odds


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rtp", help="exact theoretical return of a game (enumeration, no sampling)")
    p.add_argument("game", choices=["sette-e-mezzo-live", "sette-e-mezzo-quota-fissa"])
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--table", help="table id whose paytable to use (default: the first of GAME)")
    p.add_argument("--json", action="store_true", help="print JSON (percentages, 4 decimals)")
    p.set_defaults(func=run)


def pct(x: float) -> float:
    return round(100 * x, 4)


def _paytable_of(args: argparse.Namespace):
    cfg = load_config(args.config)
    table = cfg.table(args.table) if args.table else cfg.first_table(args.game)
    if table.game != args.game:
        raise SystemExit(f"table {table.id!r} plays {table.game}, not {args.game}")
    return table


def _decisions_json(cells: list[DecisionCell]) -> list[dict[str, Any]]:
    return [
        {"dealer_card": c.dealer, "player_total": format_halves(c.player_total),
         "player_cards": "1" if c.one_card else "2+", "advice": c.advice,
         "carta_share": pct(c.hit_share), "reach": pct(c.reach)}
        for c in cells
    ]


def _decision_table_text(cells: list[DecisionCell]) -> str:
    dealers = sorted({c.dealer for c in cells}, key=dealer_label_order)
    rows = sorted({(c.player_total, c.one_card) for c in cells})
    by = {(c.dealer, c.player_total, c.one_card): c.advice for c in cells}
    width = 7
    head = f"{'player':<14}" + "".join(f"{d:>{width}}" for d in dealers)
    lines = ["Best play (C = Carta, S = Stai, C37% = Carta in 37% of cases, by cards seen)",
             "rows: player's total (cards); columns: dealer's first card", head]
    for total, one in rows:
        label = f"{format_halves(total)} ({'1 card' if one else '2+'})"
        lines.append(f"{label:<14}" + "".join(
            f"{by.get((d, total, one), '.'):>{width}}" for d in dealers))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    table = _paytable_of(args)
    if args.game == "sette-e-mezzo-live":
        from studio.mathematics import sette_e_mezzo_live as m

        paytable = table.paytable.to_paytable()
        r = m.compute(paytable)
        data = {
            "game": args.game,
            "table": table.id,
            "paytable": {k: format_odds(getattr(paytable, k)) for k in paytable.__dataclass_fields__},
            "main": {"return_pct": pct(r.main_return),
                     "house_edge_pct": pct(1 - r.main_return),
                     "outcomes_pct": {k: pct(v) for k, v in r.outcomes.items()},
                     "automatic_win_pct": pct(r.automatic_win)},
            "partita_perfetta": {"return_pct": pct(r.pp_return),
                                 "effective_return_pct": pct(r.pp_return),
                                 "classes_pct": {k: pct(v) for k, v in r.pp_classes.items()}},
            "mano_di_poker": {"return_pct": pct(r.mdp_return),
                              "effective_return_pct": pct(r.mdp_effective_return),
                              "refund_pct": pct(r.mdp_refund),
                              "return_when_resolved_pct": pct(r.mdp_resolved_return),
                              "classes_pct": {k: pct(v) for k, v in r.mdp_classes.items()}},
            "decisions": _decisions_json(r.decisions),
        }
        if args.json:
            json.dump(data, sys.stdout, indent=2)
            print()
            return 0
        print(f"Sette e Mezzo Live - table {table.id} - exact enumeration, 40-card deck")
        print(f"  main bet return        {data['main']['return_pct']:9.4f} %  "
              f"(house edge {data['main']['house_edge_pct']:.4f} %)")
        print("  outcomes               " + ", ".join(
            f"{k} {v:.4f} %" for k, v in data["main"]["outcomes_pct"].items())
            + f"; automatic wins {data['main']['automatic_win_pct']:.4f} %")
        print(f"  Partita Perfetta       {data['partita_perfetta']['return_pct']:9.4f} %  "
              "(paytable = effective: settled at the deal)")
        print(f"  Mano di Poker          {data['mano_di_poker']['return_pct']:9.4f} %  paytable, "
              f"{data['mano_di_poker']['effective_return_pct']:.4f} % effective under best play "
              f"(refunded {data['mano_di_poker']['refund_pct']:.4f} % of bets; "
              f"{data['mano_di_poker']['return_when_resolved_pct']:.4f} % on the others)")
        print()
        print(_decision_table_text(r.decisions))
        return 0

    from studio.mathematics import sette_e_mezzo_quota_fissa as q

    odds = table.paytable.win_odds
    r = q.compute(odds)
    data = {
        "game": args.game,
        "table": table.id,
        "paytable": {"win": format_odds(odds)},
        "main": {"return_pct": pct(r.main_return), "house_edge_pct": pct(1 - r.main_return),
                 "outcomes_pct": {k: pct(v) for k, v in r.outcomes.items()}},
        "decisions": _decisions_json(r.decisions),
    }
    if args.json:
        json.dump(data, sys.stdout, indent=2)
        print()
        return 0
    print(f"Sette e Mezzo Quota Fissa - table {table.id} - exact enumeration, 40-card deck")
    print(f"  return                 {data['main']['return_pct']:9.4f} %  "
          f"(house edge {data['main']['house_edge_pct']:.4f} %)")
    print("  outcomes               " + ", ".join(
        f"{k} {v:.4f} %" for k, v in data["main"]["outcomes_pct"].items()))
    print()
    print(_decision_table_text(r.decisions))
    return 0
