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
    p.add_argument("game", choices=["sette-e-mezzo-live", "sette-e-mezzo-quota-fissa",
                                    "punto-e-banco", "punto-e-banco-live", "blackjack"])
    p.add_argument("--config", help="studio TOML (default config/studio.toml)")
    p.add_argument("--table", help="table id whose paytable to use (default: the first of GAME)")
    p.add_argument("--json", action="store_true", help="print JSON (percentages, 4 decimals)")
    p.add_argument("--decks", type=int, default=None,
                   help="Punto e Banco, Blackjack: decks in the shoe (default: the table's)")
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


def _main_json(ret: float, outcomes: dict[str, float]) -> dict[str, Any]:
    return {"return_pct": pct(ret), "house_edge_pct": pct(1 - ret),
            "outcomes_pct": {k: pct(v) for k, v in outcomes.items()}}


def _live(table) -> tuple[dict[str, Any], list[str], list[DecisionCell]]:
    from studio.mathematics import sette_e_mezzo_live as m

    paytable = table.paytable.to_paytable()
    r = m.compute(paytable)
    main = {**_main_json(r.main_return, r.outcomes), "automatic_win_pct": pct(r.automatic_win)}
    pp = {"return_pct": pct(r.pp_return), "effective_return_pct": pct(r.pp_return),
          "classes_pct": {k: pct(v) for k, v in r.pp_classes.items()}}
    mdp = {"return_pct": pct(r.mdp_return), "effective_return_pct": pct(r.mdp_effective_return),
           "refund_pct": pct(r.mdp_refund),
           "return_when_resolved_pct": pct(r.mdp_resolved_return),
           "classes_pct": {k: pct(v) for k, v in r.mdp_classes.items()}}
    data = {"paytable": {k: format_odds(getattr(paytable, k))
                         for k in paytable.__dataclass_fields__},
            "main": main, "partita_perfetta": pp, "mano_di_poker": mdp}
    lines = [
        f"Sette e Mezzo Live - table {table.id} - exact enumeration, 40-card deck",
        (f"  main bet return        {main['return_pct']:9.4f} %  "
        f"(house edge {main['house_edge_pct']:.4f} %)"),
        "  outcomes               " + ", ".join(
            f"{k} {v:.4f} %" for k, v in main["outcomes_pct"].items())
        + f"; automatic wins {main['automatic_win_pct']:.4f} %",
        (f"  Partita Perfetta       {pp['return_pct']:9.4f} %  "
        "(paytable = effective: settled at the deal)"),
        (f"  Mano di Poker          {mdp['return_pct']:9.4f} %  paytable, "
        f"{mdp['effective_return_pct']:.4f} % effective under best play "
        f"(refunded {mdp['refund_pct']:.4f} % of bets; "
        f"{mdp['return_when_resolved_pct']:.4f} % on the others)"),
    ]
    return data, lines, r.decisions


def _quota_fissa(table) -> tuple[dict[str, Any], list[str], list[DecisionCell]]:
    from studio.mathematics import sette_e_mezzo_quota_fissa as q

    odds = table.paytable.win_odds
    r = q.compute(odds)
    main = _main_json(r.main_return, r.outcomes)
    lines = [
        f"Sette e Mezzo Quota Fissa - table {table.id} - exact enumeration, 40-card deck",
        (f"  return                 {main['return_pct']:9.4f} %  "
        f"(house edge {main['house_edge_pct']:.4f} %)"),
        "  outcomes               " + ", ".join(
            f"{k} {v:.4f} %" for k, v in main["outcomes_pct"].items()),
    ]
    return {"paytable": {"win": format_odds(odds)}, "main": main}, lines, r.decisions


def _punto_e_banco(args: argparse.Namespace) -> int:
    """Every bet's exact return over the shoe's composition (the game's own rules)."""
    from studio.games.punto_e_banco import mathematics as m

    table = _paytable_of(args)
    decks = args.decks or table.decks
    if not 1 <= decks <= 16:
        raise SystemExit("--decks is 1 to 16")
    r = m.compute(table.paytable.to_paytable(), decks)
    data = {"game": args.game, "table": table.id, "decks": decks,
            "paytable": table.paytable.model_dump(),
            "probabilities_pct": {o.value: pct(float(p)) for o, p in r.probabilities.items()},
            "pair_pct": pct(float(r.pair)),
            "returns_pct": {b.value: pct(float(x)) for b, x in r.returns.items()},
            "house_edge_pct": {b.value: pct(1 - float(x)) for b, x in r.returns.items()}}
    if args.json:
        json.dump(data, sys.stdout, indent=2)
        print()
        return 0
    print(f"Punto e Banco - table {table.id} - exact enumeration, {decks} deck(s) of 52")
    print("  outcomes   " + ", ".join(f"{k} {v:.4f} %"
                                      for k, v in data["probabilities_pct"].items())
          + f"; a side's pair {data['pair_pct']:.4f} %")
    for bet, ret in data["returns_pct"].items():
        print(f"  {bet:<12} return {ret:9.4f} %  (house edge {100 - ret:.4f} %)")
    return 0


def _blackjack(args: argparse.Namespace) -> int:
    """The table's paytable if the configuration has a Blackjack table, else the regulation's."""
    from studio.config import ConfigError
    from studio.games.blackjack.rtp_report import rtp_data, rtp_text
    from studio.games.blackjack.rules import DECKS, Paytable

    try:
        table = _paytable_of(args)
        paytable, decks, table_id = table.paytable.to_paytable(), table.decks, table.id
    except ConfigError:
        if args.table:
            raise
        paytable, decks, table_id = Paytable(), DECKS, None
    data = rtp_data(paytable, args.decks or decks, table_id)
    print(json.dumps(data, indent=2) if args.json else rtp_text(data))
    return 0


def run(args: argparse.Namespace) -> int:
    if args.game in ("punto-e-banco", "punto-e-banco-live"):
        return _punto_e_banco(args)
    if args.game == "blackjack":
        return _blackjack(args)
    table = _paytable_of(args)
    compute = _live if args.game == "sette-e-mezzo-live" else _quota_fissa
    figures, lines, decisions = compute(table)
    if args.json:
        data = {"game": args.game, "table": table.id, **figures,
                "decisions": _decisions_json(decisions)}
        json.dump(data, sys.stdout, indent=2)
        print()
        return 0
    print("\n".join(lines))
    print()
    print(_decision_table_text(decisions))
    return 0
