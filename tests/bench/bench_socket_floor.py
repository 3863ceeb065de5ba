"""The floor under the fan-out's figures on this machine: N loopback TCP sockets, one write of a
card's bytes to each from one process doing nothing else, read by another process. No studio,
no JSON, no WebSocket bookkeeping: what one card costs the kernel and the event loop alone, to
set the 10,000-player goal (card to last player p99 <= 150 ms) against.

    .venv/bin/python -m tests.bench.bench_socket_floor [--players 10000] [--bytes 1400]
        [--writers 1,2] [--cards 5]

For each writer count W (W processes, each writing to N/W sockets, as W edges would): the
time from the start of a card's writes to its arrival in the last socket (the kernel's receive
timestamp, SO_TIMESTAMPNS), median over the cards, and the CPU per card of the writers and of
the reader. The reader is one process (reads are what a player's machine does; here they share
the same two cores, as in bench_cluster), at niceness 0 and then 19 (out of the writers' way).

Measured 2026-11-26 00:18 UTC (the seventh session; another engineer's benchmarks ran at nice
19, load average 3), whether a smaller write costs the kernel less: `--players 10000
--writers 2 --reader-nice 19 --bytes B`, alternated 1400, 300, 1400, 300: last arrival 127,
145, 186, 149 ms; writers' CPU per card 126, 136, 164, 154 ms. No: a loopback write's cost
is the syscall, the TCP path and the reader's wake-up, not its bytes (10,000 writes of 300
bytes cost what 10,000 of 1,400 do, within the runs' spread). `--direct` (os.write on each
socket) is not faster either: uvloop's transport.write already writes at once when nothing
is queued (a micro-benchmark over 2,000 socket pairs: 3.4 against 3.1-3.3 us a write).

Measured 2026-11-25, quiet machine, `--players 10000`, start of the writes to the last arrival
(median of 5) and CPU per card:

    1 writer,  reader nice 0    178 ms   writers 174 ms, reader 134 ms
    2 writers, reader nice 0    128 ms   writers 162 ms, reader 112 ms
    1 writer,  reader nice 19   188 ms   writers 190 ms, reader 100 ms
    2 writers, reader nice 19    87 ms   writers 166 ms, reader 114 ms

A write of 1,400 bytes to a loopback TCP socket costs about 17 us of CPU here (the kernel
delivers it to the reader's socket in the writer's time). So one process cannot get a card to
10,000 players in 150 ms on this machine even doing nothing else: the writes alone take
about 180 ms. Two processes with nothing else to do reach the last socket in 87-128 ms, which
leaves 20-60 ms for everything the studio does per player.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

from studio import event_loop

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
STAMP_SPACE = socket.CMSG_SPACE(16)


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def writer(port_file: str, count: int, size: int, direct: bool = False) -> None:
    """Accept `count` sockets; on each line of stdin ("card"), write `size` bytes to each,
    then print the time (CLOCK_REALTIME) the writes started. `direct`: by os.write on each
    socket's descriptor (the same syscall, without the transport's buffering)."""
    transports: list[asyncio.Transport] = []
    ready = asyncio.get_running_loop().create_future()

    class Held(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            transports.append(transport)  # type: ignore[arg-type]
            if len(transports) == count and not ready.done():
                ready.set_result(None)

    server = await asyncio.get_running_loop().create_server(Held, "127.0.0.1", 0,
                                                            backlog=4096)
    Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
    await ready
    print("ready", flush=True)
    data = b"\x81\x7e" + struct.pack("!H", size - 4) + b"x" * (size - 4)
    fds = [t.get_extra_info("socket").fileno() for t in transports]
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while await reader.readline():
        started = time.time()
        if direct:
            for fd in fds:
                os.write(fd, data)
        else:
            for t in transports:
                t.write(data)
        print(json.dumps({"started": started}), flush=True)


def reader(ports: list[int], per: list[int], cards: int, size: int) -> None:
    """Connect the sockets, then per card the latest kernel arrival over them (printed)."""
    import selectors

    socks = []
    for port, n in zip(ports, per, strict=True):
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port))
            s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            s.setblocking(False)
            socks.append(s)
    print("connected", flush=True)
    sel = selectors.EpollSelector()
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
    for _ in range(cards):
        need = {s.fileno(): size for s in socks}
        latest = 0.0
        while need:
            for key, _ in sel.select():
                s = key.fileobj
                data, anc, _, _ = s.recvmsg(1 << 16, STAMP_SPACE)  # type: ignore[union-attr]
                for level, kind, value in anc:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        sec, ns = struct.unpack("qq", value[:16])
                        latest = max(latest, sec + ns / 1e9)
                left = need[key.fd] - len(data)
                if left <= 0:
                    del need[key.fd]
                else:
                    need[key.fd] = left
        print(json.dumps({"last": latest}), flush=True)


def measure(players: int, writers: int, size: int, cards: int, tmp: Path,
            reader_nice: int = 0, direct: bool = False) -> dict[str, float]:
    """`reader_nice`: the reader's niceness (19: the players' reads leave the cores to the
    writers, as players' machines would)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    per = [players // writers + (1 if i < players % writers else 0) for i in range(writers)]
    procs, ports = [], []
    for i, n in enumerate(per):
        f = tmp / f"port-{i}"
        f.unlink(missing_ok=True)
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "tests.bench.bench_socket_floor", "--role", "writer",
             "--port-file", str(f), "--players", str(n), "--bytes", str(size),
             *(["--direct"] if direct else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env))
        while not f.exists() or not f.read_text():
            time.sleep(0.05)  # a child starting: the benchmark's own wait, not a test's
        ports.append(int(f.read_text()))
    rd = subprocess.Popen(
        [sys.executable, "-m", "tests.bench.bench_socket_floor", "--role", "reader",
         "--ports", ",".join(map(str, ports)), "--per", ",".join(map(str, per)),
         "--cards", str(cards), "--bytes", str(size)],
        stdout=subprocess.PIPE, text=True, env=env,
        preexec_fn=(lambda: os.nice(reader_nice)) if reader_nice else None)  # noqa: PLW1509
    try:
        assert rd.stdout is not None and rd.stdout.readline().strip() == "connected"
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        cpu0 = [cpu_s(p.pid) for p in procs] + [cpu_s(rd.pid)]
        spans = []
        for _ in range(cards):
            for p in procs:
                p.stdin.write("card\n")  # type: ignore[union-attr]
                p.stdin.flush()  # type: ignore[union-attr]
            started = min(json.loads(p.stdout.readline())["started"]  # type: ignore[union-attr]
                          for p in procs)
            last = json.loads(rd.stdout.readline())["last"]
            spans.append(last - started)
        cpu = [cpu_s(p.pid) for p in procs] + [cpu_s(rd.pid)]
    finally:
        for p in procs:
            p.kill()
        rd.kill()
        for p in [*procs, rd]:
            p.wait()
    return {"last_ms": 1000 * statistics.median(spans),
            "writers_ms": 1000 * sum(c - c0 for c, c0 in zip(cpu[:-1], cpu0[:-1],
                                                              strict=True)) / cards,
            "reader_ms": 1000 * (cpu[-1] - cpu0[-1]) / cards}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--bytes", type=int, default=1400)
    ap.add_argument("--writers", default="1,2")
    ap.add_argument("--cards", type=int, default=5)
    ap.add_argument("--reader-nice", default="0,19",
                    help="the reader's niceness, each in turn (19: out of the writers' way)")
    ap.add_argument("--direct", action="store_true",
                    help="the writers write by os.write on each socket, not transport.write")
    ap.add_argument("--role", default="bench", choices=("bench", "writer", "reader"))
    ap.add_argument("--port-file")
    ap.add_argument("--ports")
    ap.add_argument("--per")
    args = ap.parse_args()
    if args.role == "writer":
        event_loop.run(writer(args.port_file, args.players, args.bytes, args.direct))
        return
    if args.role == "reader":
        reader([int(p) for p in args.ports.split(",")], [int(n) for n in args.per.split(",")],
               args.cards, args.bytes)
        return
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for nice, w in ((int(n), int(x)) for n in args.reader_nice.split(",")
                        for x in args.writers.split(",")):
            r = measure(args.players, w, args.bytes, args.cards, Path(d), nice, args.direct)
            print(f"{args.players:,} sockets, {args.bytes:,} bytes each, {w} writer "
                  f"process(es){' (os.write)' if args.direct else ''}, "
                  f"reader nice {nice}: start of the writes to the last arrival {r['last_ms']:.0f} "
                  f"ms (median of {args.cards}); CPU per card: writers {r['writers_ms']:.0f} ms, "
                  f"reader {r['reader_ms']:.0f} ms", flush=True)


if __name__ == "__main__":
    main()
