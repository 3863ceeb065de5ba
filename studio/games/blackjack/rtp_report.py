"""What `studio rtp blackjack` prints: the main game under best play, its strategy table, and
every side bet's exact return (percentages to 4 decimals)."""

from __future__ import annotations

import time
from typing import Any

from studio.games.blackjack import mathematics as m
from studio.games.blackjack.rules import Paytable
from studio.odds import format_odds

UP_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)  # the dealer's up card columns, ace last


def pct(x: float) -> float:
    return round(100 * float(x), 4)


def up_label(v: int) -> str:
    return "A" if v == 1 else "T" if v == 10 else str(v)


def rtp_data(paytable: Paytable, decks: int, table_id: str | None) -> dict[str, Any]:
    started = time.perf_counter()
    main = m.main_game(decks, paytable)
    main_s = time.perf_counter() - started
    sides = m.side_returns(paytable, decks)
    pairs = m.pair_probabilities(decks)
    threes = m.three_probabilities(decks)
    return {
        "game": "blackjack", "table": table_id, "decks": decks,
        "paytable": {k: format_odds(getattr(paytable, k)) for k in paytable.__dataclass_fields__},
        "main": {"return_pct": pct(main.return_), "house_edge_pct": pct(-main.expected_net),
                 "play": "composition-dependent (own cards and up card), split approximated "
                         "by the post-split composition", "seconds": round(main_s, 2)},
        "side_bets": {b.value: {"return_pct": pct(r), "house_edge_pct": pct(1 - r)}
                      for b, r in sides.items()},
        "pair_classes_pct": {c.value: pct(p) for c, p in pairs.items()},
        "twenty_one_three_classes_pct": {c.value: pct(p) for c, p in threes.items()},
        "strategy": {"first_decision": {f"{c.row} vs {up_label(c.up)}": c.action
                                        for c in main.table},
                     "later_decisions": {f"{k} {t} vs {up_label(u)}": a
                                         for (k, t, u), a in sorted(main.after_first.items())}},
    }


def _rows(cells: dict[str, str], kind: str, order: list[str]) -> list[str]:
    lines = [f"{kind:<9}" + "".join(f"{up_label(u):>4}" for u in UP_ORDER)]
    for row in order:
        if any(f"{row} vs {up_label(u)}" in cells for u in UP_ORDER):
            lines.append(f"{row:<9}" + "".join(
                f"{cells.get(f'{row} vs {up_label(u)}', '.'):>4}" for u in UP_ORDER))
    return lines


def rtp_text(data: dict[str, Any]) -> str:
    main, sides = data["main"], data["side_bets"]
    first = data["strategy"]["first_decision"]
    later = data["strategy"]["later_decisions"]
    lines = [
        (f"Blackjack - table {data['table'] or '(the regulation paytable)'} - {data['decks']} "
         "decks of 52, dealer stands on every 17, no peek, double any two, no double after "
         "split, one split, split aces may be hit"),
        (f"  main bet return        {main['return_pct']:9.4f} %  (house edge "
         f"{main['house_edge_pct']:.4f} %; {main['play']}; {main['seconds']} s)"),
    ]
    for bet, label in (("player_pair", "Player Pair"), ("dealer_pair", "Dealer Pair"),
                       ("twenty_one_three", "21+3"), ("insurance", "Insurance")):
        lines.append(f"  {label:<22} {sides[bet]['return_pct']:9.4f} %  (house edge "
                     f"{sides[bet]['house_edge_pct']:.4f} %, exact)")
    lines.append("  pair classes " + ", ".join(f"{k} {v:.4f} %" for k, v in
                                               data["pair_classes_pct"].items())
                 + "; 21+3 classes " + ", ".join(
                     f"{k} {v:.4f} %" for k, v in data["twenty_one_three_classes_pct"].items()))
    lines += ["", ("Strategy on the first two cards (S stay, H hit, D double else hit, "
                   "Ds double else stay, P split); columns: dealer's up card")]
    lines += _rows(first, "hard", [f"hard {t}" for t in range(5, 21)])
    lines += _rows(first, "soft", [f"soft {t}" for t in range(13, 21)])
    lines += _rows(first, "pair", [f"pair {v}" for v in ("A", *range(2, 11))])
    lines += ["", "After a hit or a split (three cards or more, or a split hand): H or S"]
    lines += _rows(later, "hard", [f"hard {t}" for t in range(4, 21)])
    lines += _rows(later, "soft", [f"soft {t}" for t in range(12, 21)])
    return "\n".join(lines)
