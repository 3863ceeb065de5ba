"""Players at one table across processes, measured by a load client with real player
sessions over WebSockets on 127.0.0.1 (bounded in count and time; it stops by itself):

    PYTHONPATH=. .venv/bin/python -m tests.bench.bench_cluster \
        [--players 1000,5000,10000] [--shapes baseline,one,1,2] [--clients K] [--window-s S]
        [--client-nice 19] [--edge-nice N] [--timeline]

For each N and each shape (the single process, `studio serve`, as the baseline; a table
process with 1 or 2 edges over NATS, `studio serve --role table|edge`): N players join
(spread over the edges), open their WebSockets, bet in one window (bets per second through
the edges), then the dealer keys cards in: for each card, the time from the dealer's command
to its `card_dealt` reaching each player, p50 and p99 over the players, and to the last.
The load client is K processes (tests/bench/load_client.py; default one per 2,500 players),
each reading its share of the sockets as bytes and noting arrivals on CLOCK_MONOTONIC: one
Python process reading 10,000 sockets through aiohttp was the slowest part of the figures.

Since the fourth session each card has two arrival figures: when the load client read it, and
when it reached the client's socket (the kernel's receive timestamp, SO_TIMESTAMPNS): a
player's machine is not this one, and its reads should not count against the studio.
`--client-nice 19` also leaves the cores to the studio while it writes.

`--timeline` (seventh session): each studio process notes a card's way on CLOCK_REALTIME, the
clock of the kernel's receive stamps (studio/timeline.py, STUDIO_TIMELINE), printed in
ms from the dealer's command, the median over the cards: the table's `command` (the actor got
it), `event` (the card's event left the actor, its commit done), `published` (the burst on the
wire), `views` (the last views it owes on the wire); each edge's `burst_in`, `first_write`,
`views_in` (the held third of the players can be written), `last_write`.

Measured 2026-11-26 03:37-04:13 UTC (eighth session), quiet (nothing else running), on a
machine about three times faster per socket write than the seventh session's
(bench_socket_floor the same hour, `--players 10000 --writers 1,2`: 10,000 writes alone 57-59
ms from one process, 40-56 from two; writers' CPU 60-64 ms a card, against 162-190 ms in the
fourth session), the code of 08fd9a9 (no change to the studio's fan-out since 0fae2ff). The
issue's run, `--players 1000,5000,10000 --shapes baseline,one,1,2 --client-nice 19
--timeline`, then twice `--players 10000 --shapes 1,2` and `--shapes 2,1` (same options).
Card p99 read by the load client / arrival in its socket (kernel stamps), p50 arrival, CPU a
card table + edges (load client), bets/s:

    1,000   one process asyncio   37 / 35 ms, p50 22, 27 (13), 647/s
            one process uvloop    31 / 23 ms, p50 14, 18 (8), 641/s
            1 edge                22 / 21 ms, p50 13, 8 + 10 (13), 631/s
    5,000   one process asyncio  143 / 132 ms, p50 60, 93 (70), 633/s
            one process uvloop    86 / 86 ms, p50 54, 82 (63), 643/s
            1 edge                92 / 85 ms, p50 55, 20 + 62 (60), 604/s
            2 edges              115 / 89 ms, p50 48, 25 + 75 (68), 609/s
    10,000  one process asyncio  203 / 171 ms, p50 103, 160 (145), 665/s
            one process uvloop   228 / 228 ms, p50 114, 188 (140), 638/s
            1 edge               169 / 162 ms, p50 107, 40 + 137 (127), 585/s
              again              186 / 179 ms, p50 111, 38 + 137 (122), 576/s
              again              186 / 159 ms, p50 104, 35 + 140 (132), 578/s
            2 edges              194 / 128 ms, p50 84, 40 + 155 (155), 569/s
              again              184 / 122 ms, p50 79, 40 + 145 (150), 567/s
              again              177 / 117 ms, p50 77, 38 + 143 (145), 576/s
    timeline, 10,000 on 2 edges (the three runs): table views 78/70/71 ms; edges first_write
    32-59, views_in 76-81, last_write 97-121

So on this machine the goal (10,000 players, card to the last player's p99 <= 150 ms) is met
with two edges by the card's arrival in the players' sockets, in three runs out of three (117-128
ms); one edge is over it (159-179 ms), and the single process (the baseline) at 171-228. The
load client's own reads (4 processes at nice 19 on the same two cores, which yield to the
studio's while it writes) come 50-60 ms after the arrival (177-194 ms): a player's machine is
not this one, so the arrival is the studio's figure (see above, fourth session).

Measured 2026-11-26 02:03-02:16 UTC (seventh session), quiet (load 0.8 falling, nothing else
running), one run each, this session's code (2ceb865, with --timeline) and then its starting
code (4390052, a worktree with this file, load_client.py and timeline.py copied in), `--players
10000 --shapes 1,2 --client-nice 19`; arrival in the client's socket p99 / p50, CPU per card
table + edges (load client):

                 this session's code                 the code before it (4390052)
    1 edge       378 / 193 ms, 75 + 280 (300)        430 / 262 ms, 103 + 330 (285)
    2 edges      278 / 182 ms, 92 + 375 (348)        281 / 174 ms, 82 + 325 (262)
    timeline     1 edge: views 71, edge first_write 83, views_in 78, last_write 264
                 2 edges: views 158, edges first_write 69/103, views_in 160/170, last_write
                 221/269

This machine is slower per write than the sixth session's (an edge's CPU a card 280-375 ms
against 162-238 then, for the same code's kind of run), so only the pair compares: 1 edge
-52 ms, 2 edges -3 ms (within the noise). Nothing of the studio's is slower.

Measured 2026-11-26 00:19-01:11 UTC (seventh session), NOT quiet: the other engineer's
benchmarks (bench_wide_live, bench_wide_scenes, nice 19) ran throughout, load average 2-4,
and on these two vCPUs a nice-19 process still slows the studio's (edges' CPU per card
300-520 ms against 160-240 quiet). `--players 10000 --shapes 1,2 --client-nice 19
--timeline`, this session's code and its starting code (4390052, a worktree, this file
copied in) alternated; arrival in the client's socket p99 / p50 (kernel stamps), CPU per card
table + edges:

                         1 edge                      2 edges
    new  00:19 e0d9dfd   467 / 319 ms, 87 + 345      545 / 393 ms, 103 + 438
    old  00:27 4390052   569 / 366 ms, 123 + 355     668 / 446 ms, 115 + 523
    new  00:35 e0d9dfd   410 / 257 ms, 90 + 360      623 / 379 ms, 105 + 468  (5df9fdf)
    old  00:43 318c26f   427 / 283 ms, 105 + 348     413 / 229 ms, 85 + 310
    new  00:51 9b70175   515 / 323 ms, 93 + 370      280 / 149 ms, 75 + 307
    old  00:59 4390052   503 / 272 ms, 83 + 335      640 / 423 ms, 115 + 495

(318c26f is the starting code with the timeline only: its run gives the old code's timeline.)
Runs of the same code differ by 100-350 ms here: the medians of the three pairs, 467 against
503 ms (1 edge) and 545 against 640 ms (2 edges), and of the table's CPU a card (91 against
110 ms), lean this session's way, but no pair shows a change of the p99 beyond the noise.
Bets/s 94-215 (the machine's load; the load client is reniced only after the bets). The
timelines (ms from the command) show where the time goes:

    1 edge, new 00:35    table: command 2, event 24, published 33, views 94
                         edge: burst_in 33, first_write 121, views_in 99, last_write 372
    1 edge, old 00:43    table: command 2, event 28, published 35, views 105
                         edge: burst_in 37, first_write 137, views_in 112, last_write 397
    2 edges, new 00:51   table: command 2, event 17, published 26, views 145
                         edges: burst_in 23/24, first_write 70/81, views_in 152/152,
                         last_write 226/230
    2 edges, old 00:43   table: command 2, event 21, published 33, views 189
                         edges: burst_in 30/29, first_write 108/111, views_in 270/232,
                         last_write 346/336

- The table's serial part is small: the command reaches the actor in 2 ms, its event (the
  commit) is out 15-25 ms later, the burst reaches the edges 5-15 ms after that.
- One edge: from its burst to its last write the edge is busy the whole time (the views are
  in before its first write: 99 against 121 ms); its last write is its CPU for the card
  (10,000 writes of ~17 us in the kernel, plus ~4 us of Python each): no order of the work
  brings one edge under 150 ms on this machine.
- Two edges: the third of the players whose views a card changed wait for them, and the
  views are the serial part: the table builds them (3,333 a card) while both edges write,
  on the same two cores. In the old code's run the edges also read the views 43-81 ms after
  the table sent the last of them (views 189, views_in 232/270): 7 messages of 500 views
  (550 kB) a card, each taking several turns of an edge's loop busy with 1,000 writes a
  turn. Now it is one message, each view's text once with its players (27 kB), the edges'
  loop turns every 250 writes, and the table starts the views once the burst is written, not
  once NATS answered a ping: 7 ms in the run above (145 -> 152), 32-34 ms in the 00:35 run
  (292 -> 324/326, the machine at its busiest).

The views themselves (bench_views_wire, the same hour): the table's CPU a card 47.5-50.5 ms
against 53.0-66.3 before, an edge's decode 0.4 ms against 3.7-5.9 (27 kB in one message
against 550 kB in seven).

With `--edge-nice 5` (the table's work before the edges', as a table process on cores of its
own would have it), one run at 01:06 (this code), 2 edges: 291 / 190 ms, table 93 + edges
372 ms; table: command 2, event 29, published 40, views 119; edges: burst_in 39/36,
first_write 147/84, views_in 130/136, last_write 294/248. The views came before the edges'
other writes were done (the owed third did not wait), but one run under this load shows no
gain over 280 ms beyond the noise.

What did not help (bench_socket_floor's docstring has the figures): smaller writes (300
bytes cost what 1,400 do: the syscall, TCP and the reader's wake-up are the cost, not the
bytes); writing with os.write instead of uvloop's transport.write (uvloop writes at once when
nothing is queued: the same syscall). The goal (p99 <= 150 ms at 10,000) is not met, and on
this machine it needs the edges' per-write cost to fall: two edges' writes alone (the floor,
87-128 ms quiet) leave 20-60 ms for the table, the views and the Python of the fan-out.

Measured 2026-11-25 (sixth session), quiet (load average under 0.3 before), `--players 10000
--shapes 1,2` and then `--shapes 1` again, this session's code (d8c100a) and just after each
the session's starting code (02538af, a worktree): card p99, p50, CPU per card, bets/s:

                 this session's code                    the code before it (02538af)
    1 edge       187 ms, p50 120, table 40 + edge 162   247 ms, p50 155, table 48 + edge 207
    2 edges      223 ms, p50 131, table 42 + edges 182  262 ms, p50 150, table 42 + edges 238
    1 edge again 274 ms, p50 165, table 58 + edge 197   253 ms, p50 159, table 42 + edge 215
    bets/s       575 / 520, 619                         614 / 594, 549

The edges' CPU a card fell in each pair (-22%, -24%, -8%); the p99 fell in two pairs and rose
in one: runs of the same code differ by up to 90 ms here, so two pairs do not show a change in
the p99 beyond that. What changed: the edge's fan-out per player (bench_edge_fanout, one
process, no sockets: 7.65 -> 4.18 us a player a card; the clients owed a state in a deque,
not an OrderedDict popped from the front; a burst's frames taken in line, the state owed
writing them). The goal (p99 <= 150 ms) is not met: table, edges and load client need 350-460
ms of CPU a card between them on two cores.

Measured 2026-11-25 (fifth session), quiet, on a machine faster per write than the fourth
session's (bench_socket_floor the same hour: 10,000 writes of 1,400 bytes alone, last arrival
130-139 ms from one process, 63-90 ms from two). `--players 10000 --shapes 1,2`, this
session's code, then the session's starting code (2d44552, a worktree) just after; card p99
(the state after it arrives in the same write), p50, CPU per card, bets/s:

                 this session's code                  the code before it (2d44552)
    1 edge       314 ms, p50 187, table 60 + edge 252   357 ms, p50 220, table 120 + edge 260
    2 edges      328 ms, p50 188, table 55 + edges 282  436 ms, p50 279, table 145 + edges 322
    bets/s       523 / 484                              541 / 432

What changed: a game names whose personal views two states of a round may differ in
(`personal_changes`): the table keys and builds only those (bench_table_views: a dealt card
at 10,000 players 78.8 -> 29.7 ms of CPU); players keyed alike share one view; the bridge
tells the edges which players' views a burst owes, and an edge writes the others' card and
state at once, holding only those players' writes until their views are in (a burn card or a
baccarat card owes none). The load client took 170-250 ms of CPU per card on the same two
cores: table, edges and client together need 485-570 ms of CPU a card, so no code of the
studio's can bring the last of 10,000 players under ~250 ms on this machine while the client
shares it. The goal (p99 <= 150 ms) is not met.

Measured 2026-11-25 (fourth session), quiet, on a machine about 1.7 times slower per socket
write than the second session's: a loopback write of 1,400 bytes costs 17 us of CPU
(bench_socket_floor; it was about 10). `--players 10000`; card event p99 / state p99 (what the
page draws the card from), CPU per card, bets per second:

                         this session's code              the code before it (5366cfd)
    one process asyncio  734 / 734 ms, 575 ms             -
    one process uvloop   705 / 705 ms, 595 ms, 305/s      765 / 765 ms, 635 ms, 285/s
    1 edge               646 / 646 ms, 255 + 447 ms, 274/s  747 / 747 ms, 175 + 633 ms, 157/s
    2 edges              499 / 499 ms, 155 + 360 ms, 262/s  580 / 1,103 ms, 248 + 1,010 ms, 156/s

The code before ran minutes after the first column, from a worktree with one line changed: the
listen backlog of 4,096, without which 10,000 joins overflow the accept queue and are reset
(nstat ListenOverflows). The kernel's arrival times were within a few ms of the reads in both.
With `--client-nice 19` (`--shapes one,2`): one process 637 ms, 2 edges 539 ms (arrival) and
692 ms (read). The changes behind the first column:
- A game says cheaply whose personal view a card may have changed (`personal_key`: Sette e
  Mezzo Live's seats and decision, Punto e Banco's nothing, Blackjack's seats and bets behind).
  The table builds no other view, and sends only those to the edges, as the states' text.
- An edge holds its players' writes until a burst's views are in: a card's events and the state
  after it are one write, not two.
- The bridge answers each command from the edges in a task of its own. NATS hands a
  subscription's messages over one at a time, so each bet used to wait for the commit of the
  one before (bets/s through edges 157 -> 274).
- The fan-out's bookkeeping per player is lighter.
Against the floor (bench_socket_floor, same machine and hour): 10,000 writes alone take
178-188 ms from one process and 87-128 ms from two. So on this machine one process cannot
meet the 150 ms goal even doing nothing but write, and two edges would have 20-60 ms for
everything else. The goal is not met. The old code's missing states at 10,000 (second session,
below) are explained: with this benchmark, which waits for the states, the code of the first
session (08bd25d) delivered them 2.0 s (p50) and 7.3 s (p99) after each card, at 2.8 s of
table CPU per card (the deciders listed for each player's view; measured while a recogniser
run shared the machine). The old benchmark stopped
counting before they came.

Measured 2026-11-25 (second session), a quiet machine, `--players 10000` (the four shapes in
one run; 4 load processes), card to player p50 / p99 / last (median of 4 cards), CPU per card
of the studio processes and of the load client, bytes each player read per card:

    one process, asyncio (baseline)  220 / 352 / 345 ms   340 ms + client 163 ms   1,403 B
    one process, uvloop              228 / 397 / 347 ms   345 ms + client 205 ms   1,403 B
    1 edge                           209 / 424 / 361 ms   table 95 + edge 348 ms   1,403 B
    2 edges                          220 / 452 / 405 ms   table 100 + edges 423 ms 1,376 B
    bets/s 533 / 604 / 290 / 295

A second run, with the time from each card to the state after it at every player (what the
page draws the card from; `--shapes baseline,1,2`), card event p50 / p99, then state p50 / p99:
one process 182 / 322 ms and 182 / 322 ms (the same write), CPU 303 ms; 1 edge 229 / 407 and
255 / 407 ms (table 85 + edge 338 ms); 2 edges 164 / 318 and 271 / 435 ms (table 90 + edges
370 ms). Between the two runs the same shape varied by up to 30%.

The code before that session, by this same benchmark minutes later (`--shapes baseline,1`):
one process 174 / 259 / 255 ms (228 ms CPU), 1 edge 219 / 326 / 290 ms (table 145 + edge
247 ms): faster, but its players read 288 bytes per card, the two card events alone: the
states after the cards (what the pages draw the table from) did not reach them while the cards
were dealt. Now each player gets each card's events and the table's state after them in one
write (1,403 bytes). What that session changed: 10,000 players' views after each card cost the
square of the players on the table process (Sette e Mezzo's deciders listed per player: 64%
of the table's CPU in a py-spy profile, `BENCH_PROFILE`); an edge encodes a player's part of
the states once per view; a burst is one write per player. uvloop is within the noise here:
the writes are the kernel's loopback (about 10 us a write either way). Where the time goes
(py-spy, one process): the writes (~half), each player's state (a quarter), the deliveries.
The goal is not met: on two cores, with the load client on them too, a card costs ~500 ms of
CPU in all (server and client), 250 ms at least with both cores busy.

Measured 2026-11-25 (first session) on a quiet machine (`--players 10000 --edges 1,2`, nothing
else running; 4 load processes; the players' states not counted, see above): one process p50 110 ms, p99 185 ms, last 159 ms (median of 4
cards); 1 edge 152 / 284 / 215 ms; 2 edges 199 / 348 / 298 ms; bets/s 690 / 363 / 365. On two
cores the edges are processes more on the same cores, not more cores.

Measured earlier that day (the whole default run above, one command; this 2-core machine shared
with another engineer's model training, load average 3-7 throughout):

     1,000  baseline p50  38 ms, p99 117 ms | 1 edge  42 / 71 ms | 2 edges  28 / 90 ms
     5,000  baseline p50 125 ms, p99 208 ms | 1 edge 161 / 319   | 2 edges 223 / 463
    10,000  baseline p50 200 ms, p99 338 ms | 1 edge 320 / 605   | 2 edges 199 / 469
    bets/s: baseline 224 / 236 / 421, 1 edge 179 / 152 / 205, 2 edges 156 / 182 / 284

Before this change (a sender task per player; edges fetching every view before handing a
burst's events on), by its own one-process aiohttp client: 1,000 p99 ~110-120 ms, 10,000
through edges p99 2.6-3.7 s; by this benchmark with its load processes still reading
through aiohttp, 1,000 players, runs of their own minutes apart: before, one process p99
172 ms and 1 edge 159 ms; this code, 76 ms and 119 ms. The goal,
10,000 players with card to last player p99 <= 150 ms on this 2-core machine, is not met:
the table process, the edges and the load processes share two cores, and each card is
10,000 socket writes (and 10,000 states after it) on the server and as many reads here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp

from studio import ledger, timeline
from studio.storage import Store
from tests.nats_server import nats_server

SECRET = "b" * 40
TABLE = "sem-live-1"
CARDS = ("5c", "6d", "7s", "4b")  # positions 1-3, then the dealer
WINDOW_S = 30.0  # the betting window's least (real seconds: the processes' real clock)
CONCURRENCY = 200  # joins and bets in flight from the load client at once (all processes)
PER_CLIENT = 2_500  # players per load client process, unless --clients says
SHAPES = {"baseline": (0, "asyncio"), "one": (0, "uvloop")}  # (edges, event loop)
# a directory: py-spy samples each studio process while the cards go out (to see where the
# time goes; py-spy is not a dependency). The figures of a profiled run are not reported.
PROFILE = os.environ.get("BENCH_PROFILE")
CLIENT_NICE = [0]  # the load processes' niceness (--client-nice)
EDGE_NICE = [0]  # the edges' niceness (--edge-nice): the table process's work goes first
TIMELINE = [False]  # --timeline: the studio processes note each card's way (timeline.py)
MARKS = ("command", "event", "published", "views", "burst_in", "first_write", "views_in",
         "last_write")

CONFIG = """
[studio]
host = "127.0.0.1"
port = 0
database_url = "sqlite:///{db}"

[[tables]]
id = "sem-live-1"
name = "Load"
game = "sette-e-mezzo-live"
deck_art = "napoletane"
positions = 3
burn_card = false
card_source = "manual"

[tables.timers]
betting_window_s = {window}
decision_s = 3600
pause_between_rounds_s = 5

[tables.limits]
main_min = 100
main_max = 500000
side_min = 100
side_max = 10000
round_max_total = 2000000

[tables.paytable]
win = "1:1"
royal = "3:2"
pp_sevens = "55:1"
pp_figures = "10:1"
pp_low = "5:1"
mdp_scala_reale = "150:1"
mdp_scala_colore = "75:1"
mdp_tris = "50:1"
mdp_colore = "6:1"
mdp_scala = "5:1"

[web]
command_rate_per_s = 1000000.0
command_burst = 1000000
"""


def dealer_account() -> str:
    """The [[web.accounts]] block of the bench's dealer."""
    return subprocess.run([sys.executable, "-m", "studio.cli", "staff-account", "dealer1",
                           "--role", "dealer"], input="dealer1-password\n", text=True,
                          capture_output=True, check=True).stdout


def cpu_s(pid: int) -> float:
    """The CPU seconds a process has used (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def studio(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    """A studio process; its log goes to BENCH_LOGS/<pid>.log when that directory is set."""
    logs = os.environ.get("BENCH_LOGS")
    err = tempfile.NamedTemporaryFile(dir=logs, suffix=".log", delete=False) if logs \
        else subprocess.DEVNULL  # noqa: SIM115 (the process's own, closed with it)
    return subprocess.Popen([sys.executable, "-m", "studio.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=err)


def address(proc: subprocess.Popen[str], text: str) -> str:
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"a studio process ended before {text!r}")
        if text in line:
            return re.search(r"(http://127\.0\.0\.1:\d+)", line).group(1)


class Shape:
    """The processes of one measurement: `edges` 0 is today's single process."""

    def __init__(self, workdir: Path, edges: int, nats: str) -> None:
        self.procs: list[subprocess.Popen[str]] = []
        self.workdir = workdir
        self.edges = edges
        self.nats = nats

    def start(self, config: Path, env: dict[str, str]) -> tuple[str, list[str]]:
        common = ["--config", str(config), "--port", "0", "--log-format", "text"]
        if self.edges == 0:
            p = studio("serve", *common, env=env)
            self.procs.append(p)
            base = address(p, "Studio serving on")
            return base, [base]
        table = studio("serve", "--role", "table", "--nats", self.nats, *common, env=env)
        self.procs.append(table)
        staff = address(table, "Studio serving on")
        bases = []
        for _ in range(self.edges):
            edge = studio("serve", "--role", "edge", "--nats", self.nats, *common, env=env)
            if EDGE_NICE[0]:
                os.setpriority(os.PRIO_PROCESS, edge.pid, EDGE_NICE[0])
            self.procs.append(edge)
            bases.append(address(edge, "Edge serving players on"))
        return staff, bases

    def stop(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            p.wait(30)


class Clients:
    """The load client: `k` processes (tests/bench/load_client.py), each with its share of
    the players, spoken to one JSON line at a time."""

    def __init__(self, n: int, k: int, bases: list[str]) -> None:
        spans = [(n * j // k, n * (j + 1) // k) for j in range(k)]
        self.procs = [subprocess.Popen(
            [sys.executable, "-m", "tests.bench.load_client", SECRET, TABLE,
             str(max(1, CONCURRENCY // k)), ",".join(bases), f"{a}:{b}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for a, b in spans]

    def renice(self, niceness: int) -> None:
        """The load processes' niceness from now on (after the bets: at 19 from the start,
        10,000 bets did not fit a 90 s window): players' machines are not the studio's, and
        on a shared machine their reads need not take the studio's cores."""
        for p in self.procs:
            os.setpriority(os.PRIO_PROCESS, p.pid, niceness)

    async def tell(self, order: dict[str, Any]) -> None:
        for p in self.procs:
            p.stdin.write(json.dumps(order) + "\n")
            p.stdin.flush()

    async def report(self) -> list[dict[str, Any]]:
        """Each process's bytes read so far."""
        await self.tell({"do": "report"})
        return await self.answers("bytes")

    async def answers(self, key: str) -> list[dict[str, Any]]:
        """Each process's next answer, which must carry `key`."""
        out = []
        for p in self.procs:
            line = await asyncio.to_thread(p.stdout.readline)
            if not line:
                raise SystemExit(f"a load client process ended before {key!r}")
            answer = json.loads(line)
            assert key in answer, answer
            out.append(answer)
        return out

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(BrokenPipeError, OSError):
                p.stdin.write(json.dumps({"do": "stop"}) + "\n")
                p.stdin.close()
        for p in self.procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


async def measure(n: int, edges: int, nats: str, workdir: Path, k: int,
                  window_s: float | None = None, loop: str = "uvloop") -> dict[str, float]:
    db = workdir / f"load-{n}-{edges}-{loop}.db"
    config = workdir / f"load-{n}-{edges}-{loop}.toml"
    # long enough for every player's bet through HTTP (they joined before it opened)
    window = window_s if window_s is not None else WINDOW_S + n / 100
    config.write_text(CONFIG.format(db=db, window=window) + dealer_account())
    store = Store.open(f"sqlite:///{db}")
    players = [f"p{i}" for i in range(n)]
    with store.transaction() as tx:
        ledger.credit_many(tx, [ledger.Credit(f"c-{p}", p, 10**7) for p in players])
    store.dispose()
    env = {**os.environ, "STUDIO_SECRET": SECRET, "STUDIO_EVENT_LOOP": loop}
    marks_dir = workdir / f"timeline-{n}-{edges}-{loop}"
    if TIMELINE[0]:
        marks_dir.mkdir()
        env[timeline.ENV] = str(marks_dir)
    shape = Shape(workdir, edges, nats)
    staff, bases = shape.start(config, env)
    clients: Clients | None = None
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as dealer:
            async with dealer.post(f"{staff}/api/staff/login", json={
                    "username": "dealer1", "password": "dealer1-password"}) as r:
                assert r.status == 200
            clients = Clients(n, k, bases)
            assert sum(a["ready"] for a in await clients.answers("ready")) == n
            async with dealer.post(f"{staff}/api/tables/{TABLE}/dealer", json={
                    "key": uuid.uuid4().hex, "command": "start"}) as r:
                assert (await r.json())["ok"]  # the window opens once every player is in
            started = time.monotonic()
            await clients.tell({"do": "bet"})
            assert sum(a["bet"] for a in await clients.answers("bet")) == n
            bets_s = n / (time.monotonic() - started)
            if CLIENT_NICE[0]:
                clients.renice(CLIENT_NICE[0])
            async with dealer.get(f"{staff}/api/tables/{TABLE}/dealer/state") as r:
                closes = (await r.json())["table"]["round"]["closes_at"]
            await asyncio.sleep(max(0.0, closes - time.time()) + 1.0)  # the window's end
            lags: list[float] = []  # to the card's read by the client
            last: list[float] = []
            shown: list[float] = []  # to the state after the card (the page draws it)
            landed: list[float] = []  # to the card's arrival in the client's socket
            landed_last: list[float] = []
            landed_first: list[float] = []
            sent_at: dict[str, float] = {}  # each card's command (CLOCK_REALTIME)
            shown_landed: list[float] = []
            spy = str(Path(sys.executable).with_name("py-spy"))
            spies = [subprocess.Popen(  # noqa: ASYNC220 (a profiler beside the bench)
                [spy, "record", "-p", str(p.pid), "-r", "500", "-d", "12", "-f", "raw",
                 "-o", f"{PROFILE}/{n}-{edges}-{i}.txt"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                     for i, p in enumerate(shape.procs)] if PROFILE else []
            cpu0 = [cpu_s(p.pid) for p in shape.procs + clients.procs]
            bytes0 = sum(a["bytes"] for a in await clients.report())
            for card in CARDS:
                await clients.tell({"do": "card", "code": card})
                sent = time.monotonic()  # CLOCK_MONOTONIC: the load processes' clock too
                sent_wall = sent_at[card] = time.time()  # CLOCK_REALTIME: the kernel's
                async with dealer.post(f"{staff}/api/tables/{TABLE}/dealer", json={
                        "key": uuid.uuid4().hex, "command": "card", "code": card}) as r:
                    assert (await r.json())["ok"]
                answers = await clients.answers("card")
                arrivals = [t for a in answers for t in a["at"]]
                if len(arrivals) < n:
                    raise SystemExit(f"{card}: {len(arrivals)} of {n} players got it")
                lags += [t - sent for t in arrivals]
                shown += [t - sent for a in answers for t in a["state_at"]]
                last.append(max(arrivals) - sent)
                stamps = [t - sent_wall for a in answers for t in a["arrived"]]
                landed += stamps
                landed_last.append(max(stamps))
                landed_first.append(min(stamps))
                shown_landed += [t - sent_wall for a in answers for t in a["state_arrived"]]
            cpu = [cpu_s(p.pid) - c for p, c in zip(shape.procs + clients.procs, cpu0,
                                                     strict=True)]
            got = sum(a["bytes"] for a in await clients.report()) - bytes0
            for spy in spies:
                spy.wait()
            if TIMELINE[0]:  # the last card's writes are noted once they are over
                await asyncio.sleep(timeline.SETTLE_S + 0.5)
    finally:
        if clients is not None:
            clients.stop()
        shape.stop()
    lines = timeline_lines(marks_dir, shape, sent_at) if TIMELINE[0] else []
    return {"bets_s": bets_s, "p50_ms": ms(lags, 0.5), "p99_ms": ms(lags, 0.99),
            "last_ms": ms(last, 0.5), "worst_ms": 1000 * max(last),
            "lasts": "/".join(f"{1000 * t:.0f}" for t in last),
            # CPU per card: the table process (or the single one), the edges, the load client
            "cpu_table_ms": 1000 * cpu[0] / len(CARDS),
            "cpu_edges_ms": 1000 * sum(cpu[1:len(shape.procs)]) / len(CARDS),
            "cpu_clients_ms": 1000 * sum(cpu[len(shape.procs):]) / len(CARDS),
            "bytes_per_player": got / len(CARDS) / n,
            "state_p50_ms": ms(shown, 0.5), "state_p99_ms": ms(shown, 0.99),
            "states": len(shown) / len(CARDS) / n,
            "in_p50_ms": ms(landed, 0.5), "in_p99_ms": ms(landed, 0.99),
            "in_last_ms": ms(landed_last, 0.5), "in_state_p99_ms": ms(shown_landed, 0.99),
            "in_first_ms": ms(landed_first, 0.5), "timeline": lines}


def timeline_lines(marks_dir: Path, shape: Shape, sent_at: dict[str, float]) -> list[str]:
    """Each studio process's marks (studio/timeline.py), in ms from the dealer's
    command (the bench's time.time() before its POST), the median over the cards: a line a
    process."""
    out = []
    for i, proc in enumerate(shape.procs):
        marks: dict[str, list[float]] = {}
        for m in timeline.load(marks_dir / f"{proc.pid}.jsonl"):
            if m["card"] in sent_at:
                marks.setdefault(m["what"], []).append(m["t"] - sent_at[m["card"]])
        name = ("table" if shape.edges else "process") if i == 0 else f"edge {i}"
        if marks:  # (code without the timeline notes nothing)
            out.append(f"{name}: " + ", ".join(
                f"{what} {ms(marks[what], 0.5):.0f}" for what in MARKS if what in marks))
    return out


def ms(seconds: list[float], q: float) -> float:
    """The q-quantile of `seconds` in ms (0.5: the median; NaN when there are none)."""
    if not seconds:
        return float("nan")
    if q == 0.5:
        return 1000 * statistics.median(seconds)
    ordered = sorted(seconds)
    return 1000 * ordered[int(q * (len(ordered) - 1))]


async def main_async(counts: list[int], shapes: list[str], clients: int,
                     window_s: float | None = None) -> None:
    with tempfile.TemporaryDirectory() as d, nats_server() as nats:
        for n in counts:
            k = clients or max(1, -(-n // PER_CLIENT))
            base: dict[str, float] = {}
            # today's single process on asyncio's loop (the baseline), then on uvloop, then
            # the table process and its edges (on uvloop: studio/event_loop.py)
            for name in shapes:
                edges, loop = SHAPES[name] if name in SHAPES else (int(name), "uvloop")
                r = await measure(n, edges, nats, Path(d), k, window_s, loop)
                base = base or r  # the first shape is the ratios' baseline
                shape = (f"one process, {loop}" + (" (baseline)" if loop == "asyncio" else "")
                         if edges == 0 else f"{edges} edge(s)")
                ratio = "" if r is base else f" (x{base['p99_ms'] / r['p99_ms']:.2f} p99)"
                print(f"{n:>6,} players, {shape:<29}: card to player p50 {r['p50_ms']:6.0f} ms, "
                      f"p99 {r['p99_ms']:6.0f} ms, to the last (median of {len(CARDS)} cards) "
                      f"{r['last_ms']:6.0f} ms (each card: {r['lasts']}); bets {r['bets_s']:7,.0f}/s{ratio}; "
                      f"{k} load process(es)", flush=True)
                for line in (
                        (f"CPU per card: table {r['cpu_table_ms']:.0f} ms, edges "
                        f"{r['cpu_edges_ms']:.0f} ms, load client {r['cpu_clients_ms']:.0f} ms; "
                        f"{r['bytes_per_player']:,.0f} bytes per player per card"),
                        (f"arrival in the client's socket (kernel timestamp): card p50 "
                        f"{r['in_p50_ms']:.0f} ms, p99 {r['in_p99_ms']:.0f} ms, last "
                        f"{r['in_last_ms']:.0f} ms, first {r['in_first_ms']:.0f} ms; the state "
                        f"after it p99 "
                        f"{r['in_state_p99_ms']:.0f} ms"),
                        (f"card to the state after it (the page draws the card): p50 "
                        f"{r['state_p50_ms']:.0f} ms, p99 {r['state_p99_ms']:.0f} ms "
                        f"({r['states']:.0%} of the players' cards)"),
                        *(f"timeline (ms from the command, median of the cards), {line}"
                          for line in r["timeline"])):
                    print(f"{'':>31}{line}", flush=True)
    print("Goal: 10,000 players, card to last player p99 <= 150 ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="1000,5000,10000")
    ap.add_argument("--shapes", default="baseline,one,1,2",
                    help="baseline: today's single process on asyncio's loop; one: the single "
                         "process on uvloop; a number: a table process and that many edges")
    ap.add_argument("--clients", type=int, default=0,
                    help=f"load client processes (default: one per {PER_CLIENT:,} players)")
    ap.add_argument("--window-s", type=float, default=None,
                    help="the betting window (default 30 s + 1 s per 100 players: the bets of "
                         "the slowest shape fit in it); shorter for quick runs")
    ap.add_argument("--client-nice", type=int, default=0,
                    help="the load processes' niceness once the bets are in: 19 leaves the "
                         "cores to the studio while it writes (the players' machines are not "
                         "the studio's); the arrivals by kernel timestamp do not wait for "
                         "their reads")
    ap.add_argument("--edge-nice", type=int, default=0,
                    help="the edges' niceness: above 0, the table process (the single writer, "
                         "on cores of its own in production) builds the views the edges' "
                         "writes wait for before the edges' other writes")
    ap.add_argument("--timeline", action="store_true",
                    help="the studio processes note each card's way (studio/cluster/"
                         "timeline.py): printed in ms from the dealer's command")
    args = ap.parse_args()
    CLIENT_NICE[0] = args.client_nice
    TIMELINE[0] = args.timeline
    EDGE_NICE[0] = args.edge_nice
    asyncio.run(main_async([int(x) for x in args.players.split(",")],
                           args.shapes.split(","), args.clients,
                           args.window_s))


if __name__ == "__main__":
    main()
