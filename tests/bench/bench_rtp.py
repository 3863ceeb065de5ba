"""Benchmark: the whole `studio rtp sette-e-mezzo-live` command (main game, side bets, decision
table), against the straightforward exact enumeration of the main game alone, in one run.

    .venv/bin/python -m tests.bench.bench_rtp [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from studio.cards import DeckKind, deck
from studio.games.sette_e_mezzo_live.rules import LivePaytable
from studio.mathematics import sette_e_mezzo_live as m
from studio.mathematics.enumeration import Enumerator


def time_command(repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "studio.cli", "rtp", "sette-e-mezzo-live"],
                       check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return times


def time_main_game(plain: bool, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        Enumerator(m.game_rules(LivePaytable()), deck(DeckKind.ITALIAN_40),
                   plain=plain).expected_net()
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    baseline = time_main_game(plain=True, repeat=args.repeat)
    fast = time_main_game(plain=False, repeat=args.repeat)
    command = time_command(args.repeat)
    b, f, c = (statistics.median(x) for x in (baseline, fast, command))
    print(f"straightforward enumeration, main game only (baseline): median {b * 1000:7.1f} ms")
    print(f"engine, main game only:                                 median {f * 1000:7.1f} ms"
          f"  ({b / f:.1f}x faster than baseline)")
    print(f"whole `studio rtp sette-e-mezzo-live` command:          median {c * 1000:7.1f} ms"
          f"  (best {min(command) * 1000:.1f} ms; {c / b:.2f}x the baseline; goal < 1000 ms)")


if __name__ == "__main__":
    main()
