"""`studio rtp punto-e-banco`: the whole command for 1 and 8 decks, and its enumeration
against a straightforward one measured in the same run (card by card over the 13 ranks, where
the studio's groups the four ranks worth 0), which must give the same exact figures.

    .venv/bin/python -m tests.bench.bench_rtp_punto_e_banco
"""

from __future__ import annotations

import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from studio.cards import Card, Rank, Suit
from studio.games.punto_e_banco import mathematics as m
from studio.games.punto_e_banco import rules
from studio.games.punto_e_banco.rules import Outcome


def straightforward(decks: int) -> dict[Outcome, Fraction]:
    """Every deal of the shoe's ranks, card by card, with the rule functions on cards."""
    ranks = list(Rank)
    counts = {r: 4 * decks for r in ranks}
    card = {r: Card(r, Suit.DENARI) for r in ranks}
    n = 52 * decks
    w = dict.fromkeys(Outcome, Fraction(0))

    def deal(punto: list[Card], banco: list[Card], p: Fraction, left: int) -> None:
        side = rules.next_card(punto, banco)
        if side is None:
            w[rules.outcome(punto, banco)] += p
            return
        for r in ranks:
            if counts[r]:
                q = p * counts[r] / left
                counts[r] -= 1
                if side == "punto":
                    deal([*punto, card[r]], banco, q, left - 1)
                else:
                    deal(punto, [*banco, card[r]], q, left - 1)
                counts[r] += 1

    deal([], [], Fraction(1), n)
    return w


def main() -> None:
    studio = Path(sys.executable).parent / "studio"
    print("studio rtp punto-e-banco, the whole command (process start included):")
    for decks in (1, 8):
        t0 = time.perf_counter()
        subprocess.run([str(studio), "rtp", "punto-e-banco", "--decks", str(decks)],
                       check=True, capture_output=True)
        print(f"  {decks} deck(s): {time.perf_counter() - t0:.3f} s  (goal < 1 s)")
    print("The enumeration alone, against the straightforward one (same run, same figures):")
    for decks in (1, 8):
        t0 = time.perf_counter()
        grouped = m.outcome_weights(m.point_counts(decks))
        ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        base = straightforward(decks)
        theirs = time.perf_counter() - t0
        denom = m._falling(52 * decks, 6)
        assert all(Fraction(grouped[o], denom) == base[o] for o in Outcome)
        print(f"  {decks} deck(s): {ours:.3f} s against {theirs:.2f} s (x{theirs / ours:.0f}), "
              "exact figures equal")


if __name__ == "__main__":
    main()
