"""Process settings of a long-running studio process (the tables' server, simulations).

CPython's cyclic garbage collector runs a young collection every 700 container allocations and
a full one every 100 young ones; a full collection walks every live object. A betting window
allocates hundreds of thousands of small dicts and tuples, so with the defaults the table's
single writer stops for tens of milliseconds, many times per window, to scan a heap that holds
no garbage (the table's data is acyclic): in the table benchmark that was the difference
between an acknowledgement p99 of ~80 ms and ~20 ms. So the studio collects less often and
moves what exists at start-up (modules, config, the open tables) out of the collector's sight
(`gc.freeze`, as large CPython services do). Reference counting still frees almost everything
at once; only cycles wait a little longer.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 50_000  # container allocations between young collections (default 700)
MIDDLE_THRESHOLD = 20  # young collections between middle ones (default 10)
OLD_THRESHOLD = 100  # middle collections between full ones (default 10)


def tune_gc() -> None:
    """Apply the studio's collector settings; call once the process has started up."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)
