"""`studio rtp blackjack`: the whole command (goal < 30 s on one core), and the main game's
solver against a straightforward one measured in the same run on a reduced case (every
starting hand against one up card): the same recursion, but the dealer's final hand weighed
card by card on each composition, with no grouping of draw orders and no memo of dealer
distributions. Both must give the same figures.

    .venv/bin/python -m tests.bench.bench_rtp_blackjack
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from studio.games.blackjack import mathematics as m
from studio.games.blackjack import rules

REDUCED_UP = 6  # the reduced case: every starting hand against a dealer 6


def straightforward_dealer(left: list[int], up: int) -> np.ndarray:
    """The dealer's final hand card by card from the up card, every order on its own."""
    out = np.zeros(len(m.DEALER_FINALS))
    values = [up]

    def draw(p: float, n: int) -> None:
        s = rules.score_values(values)
        if not rules.dealer_must_draw(s.total, s.soft):
            out[m.final_index(s)] += p
            return
        for i, c in enumerate(left):
            if c:
                left[i] -= 1
                values.append(i + 1)
                draw(p * c / n, n - 1)
                values.pop()
                left[i] += 1

    draw(1.0, sum(left))
    return out


class StraightforwardSolver(m.Solver):
    """The studio's recursion with the dealer weighed card by card, never remembered."""

    def dealer(self, removed: m.Counts, up: int) -> np.ndarray:
        return straightforward_dealer(list(self.left(removed, up)), up)


def reduced(solver: m.Solver) -> float:
    """Best play's expected net over every starting hand against the up card, weighted."""
    return sum(p * max(solver.options(a, b, u).values())
               for a, b, u, p in m.initial_weights(solver.full) if u == REDUCED_UP)


def main() -> None:
    studio = Path(sys.executable).parent / "studio"
    t0 = time.perf_counter()
    subprocess.run([str(studio), "rtp", "blackjack"], check=True, capture_output=True)
    whole = time.perf_counter() - t0
    print(f"studio rtp blackjack, the whole command (process start included): {whole:.2f} s "
          "(goal < 30 s)")
    t0 = time.perf_counter()
    ours = reduced(m.Solver())
    fast = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = reduced(StraightforwardSolver())
    slow = time.perf_counter() - t0
    assert abs(ours - theirs) < 1e-12, (ours, theirs)
    print(f"reduced case (every starting hand against a dealer {REDUCED_UP}): {fast:.2f} s "
          f"against {slow:.2f} s straightforward (x{slow / fast:.0f}), same figure "
          f"{ours:+.10f}")


if __name__ == "__main__":
    main()
