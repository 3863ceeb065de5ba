"""Benchmark: card frame written by the shoe simulator -> CardDrawn delivered by the reader, over
a real pty and pyserial, against a raw os.write/os.read round trip on the same pty in the same run
(half of the baseline before the reader's run, half after).

    .venv/bin/python -m tests.bench.bench_serial [--cards 2000]

The reader path adds: the event loop waking on the fd, COBS + CRC decode, sequence and deck
checks, the ACK written back (and read by the simulator), and the asyncio.Queue hand-off.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from devices import protocol as p
from devices.events import CardDrawn
from devices.pty_pair import PtyPair
from devices.shoe import ShoeReader
from devices.sim_shoe import ShoeSim


def summary(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {"median_us": statistics.median(s) * 1e6,
            "p99_us": s[min(len(s) - 1, int(len(s) * 0.99))] * 1e6,
            "mean_us": statistics.fmean(s) * 1e6}


async def reader_latencies(sim: ShoeSim, reader: ShoeReader, cards: int) -> list[float]:
    out: list[float] = []
    decks = 0
    while len(out) < cards:
        if not sim.remaining:
            decks += 1
            sim.load_deck(f"B{decks}")
            reader.set_deck_set(f"B{decks}")
        t0 = time.perf_counter()
        card = await sim.deal_next()
        ev = await asyncio.wait_for(reader.events.get(), 5)
        out.append(time.perf_counter() - t0)
        if not (isinstance(ev, CardDrawn) and ev.card == card):
            raise SystemExit(f"benchmark broken: sent {card}, got {ev}")
    return out


def raw_latencies(master: int, slave_path: str, cards: int) -> list[float]:
    frame = p.encode_frame(1, p.CardMsg("Kd", "B1"))
    slave = os.open(slave_path, os.O_RDWR | os.O_NOCTTY)
    os.set_blocking(master, True)
    out: list[float] = []
    try:
        for _ in range(cards):
            t0 = time.perf_counter()
            os.write(master, frame)
            got = 0
            while got < len(frame):
                got += len(os.read(slave, 4096))
            out.append(time.perf_counter() - t0)
    finally:
        os.set_blocking(master, False)
        os.close(slave)
    return out


async def main(cards: int) -> None:
    link = Path(tempfile.mkdtemp(prefix="bench-serial-")) / "shoe"
    pty = PtyPair(link)
    sim = ShoeSim(pty, deck_set="B0", rng=random.Random(1), heartbeat_s=None)
    await sim.start()
    assert pty.fd is not None
    # The baseline runs half before and half after the reader, so machine load hits both alike.
    raw = raw_latencies(pty.fd, pty.slave_path, cards // 2)
    reader = ShoeReader(str(link), deck_set="B0", heartbeat_timeout_s=60.0)
    await reader.start()
    await reader.wait_port_open()
    await sim.heartbeat_now()
    await reader.events.get()  # ONLINE
    await reader_latencies(sim, reader, 200)  # warm-up
    measured = await reader_latencies(sim, reader, cards)
    faults = reader.fault_counts()
    await reader.stop()
    raw += raw_latencies(pty.fd, pty.slave_path, cards - cards // 2)
    await sim.stop()
    link.parent.rmdir()

    r, b = summary(measured), summary(raw)
    print(f"serial shoe: frame written by simulator -> CardDrawn from reader, {cards} cards "
          f"over a pty (pyserial, 40-card decks, faults {faults or 'none'})")
    print(f"  {'':32}{'median us':>11}{'p99 us':>10}{'mean us':>10}")
    print(f"  {'reader (sim -> CardDrawn)':32}{r['median_us']:>11.1f}{r['p99_us']:>10.1f}"
          f"{r['mean_us']:>10.1f}")
    print(f"  {'baseline raw os.write/os.read':32}{b['median_us']:>11.1f}{b['p99_us']:>10.1f}"
          f"{b['mean_us']:>10.1f}")
    print(f"  ratio reader/raw: median {r['median_us'] / b['median_us']:.2f}x, "
          f"p99 {r['p99_us'] / b['p99_us']:.2f}x")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=2000)
    a = ap.parse_args()
    if a.cards < 2000:
        raise SystemExit("--cards must be at least 2000")
    asyncio.run(main(a.cards))
