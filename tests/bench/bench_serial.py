"""Benchmark: card frame written by the shoe simulator -> CardDrawn delivered by the reader, over
a real pty and pyserial, against a raw os.write/os.read round trip on the same pty in the same run
(half of the baseline before the reader's run, half after).

    .venv/bin/python -m tests.bench.bench_serial [--cards 2000]

The reader path adds: the event loop waking on the fd, COBS + CRC decode, sequence and deck
checks, the ACK written back (and read by the simulator), and the asyncio.Queue hand-off.

The table part measures frame written by the simulator -> the card in a real table (a
TableActor on a SQLite file, 7 positions, the shoe and shuffler attached with
studio.table.devices): on top of the reader, the adapter's projection of the round, the actor's
inbox, one committed transaction per card and the hub event. Rounds are dealt while a card is
due, then voided (refunds) and the next deck is shuffled.
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
from devices.sim_shuffler import ShufflerSim


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

    await table_latencies(100)  # warm-up
    table, table_faults = await table_latencies(cards)
    t = summary(table)
    print(f"table: frame written by simulator -> card event published by a real table "
          f"(SQLite file, one transaction per card), {cards} cards, faults "
          f"{table_faults or 'none'}")
    print(f"  {'table (sim -> card_dealt)':32}{t['median_us']:>11.1f}{t['p99_us']:>10.1f}"
          f"{t['mean_us']:>10.1f}")
    print(f"  ratio table/reader: median {t['median_us'] / r['median_us']:.2f}x, "
          f"p99 {t['p99_us'] / r['p99_us']:.2f}x; table/raw: median "
          f"{t['median_us'] / b['median_us']:.2f}x")


async def table_latencies(cards: int) -> tuple[list[float], dict[str, int]]:
    """Frame written by the shoe simulator -> card_dealt/card_burned published by the table."""
    from studio.config import SerialDevice, TableDevices
    from studio.storage import Store
    from studio.table.devices import AttachedDevices
    from tests.table_harness import Harness

    tmp = Path(tempfile.mkdtemp(prefix="bench-serial-table-"))
    store = Store.open(f"sqlite:///{tmp / 'bench.db'}")
    h = Harness(store, card_source="shoe", positions=7)
    h.credit("p", 10**9)
    shoe = ShoeSim(PtyPair(tmp / "shoe"), rng=random.Random(2), heartbeat_s=None)
    shuffler = ShufflerSim(PtyPair(tmp / "shuffler"), rng=random.Random(3), heartbeat_s=None,
                           set_prefix="B")
    await shoe.start()
    await shuffler.start()
    await h.start()
    cfg = TableDevices(shoe=SerialDevice(port=str(tmp / "shoe"), baud=115200),
                       shuffler=SerialDevice(port=str(tmp / "shuffler"), baud=115200))
    devices = AttachedDevices(h.actor, cfg, heartbeat_timeout_s=60.0)
    await devices.start()
    for reader in devices.readers:
        await reader.wait_port_open()
    await shoe.heartbeat_now()
    await shuffler.heartbeat_now()
    await devices.wait_until(lambda: len(devices.online) == 2)
    arrived = asyncio.Event()
    h.hub.subscribe(lambda t, a, ev: arrived.set() if a == "public" and ev["type"] in (
        "card_dealt", "card_burned") else None)
    out: list[float] = []
    while len(out) < cards:
        deck_set = await shuffler.shuffle()
        await devices.wait_until(lambda d=deck_set: h.actor.ready_deck == d)
        shoe.load_deck(deck_set)
        for pos in range(1, 8):
            await h.bet("p", pos, 100)
        await h.close_betting()
        while h.actor.state.expecting() is not None and len(out) < cards:
            arrived.clear()
            t0 = time.perf_counter()
            await shoe.deal_next()
            await asyncio.wait_for(arrived.wait(), 5)
            out.append(time.perf_counter() - t0)
        await devices.settle()
        if h.actor.paused:
            raise SystemExit(f"benchmark broken: table paused: {h.actor.paused}")
        if not h.actor.state.finished:
            await h.dealer("void", reason="benchmark")
        await h.advance(h.cfg.timers.pause_between_rounds_s)
    faults = dict(devices.fault_counts())
    await devices.stop()
    await shoe.stop()
    await shuffler.stop()
    await h.actor.stop()
    store.dispose()
    return out, faults


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=2000)
    a = ap.parse_args()
    if a.cards < 2000:
        raise SystemExit("--cards must be at least 2000")
    asyncio.run(main(a.cards))
