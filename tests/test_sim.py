"""`studio sim shoe|shuffler` as real programs, and the simulators' text commands."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

import pytest

from devices.events import CardDrawn, DeviceStatus, ShufflerPhase, ShufflerState
from devices.pty_pair import PtyPair
from devices.shoe import ShoeReader
from devices.shuffler import ShufflerReader
from devices.sim_device import SimError
from devices.sim_shoe import ShoeSim
from devices.sim_shuffler import ShufflerSim
from studio.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
SAFETY = 20.0
SCRIPT = "Ad 7c Kd 2s Qb 5d Jc 3b"


async def _spawn(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "studio.cli", "sim", *args, cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


async def _line(proc: asyncio.subprocess.Process) -> str:
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), SAFETY)
    assert line, "the simulator exited"
    return line.decode().strip()


async def _say(proc: asyncio.subprocess.Process, text: str) -> str:
    assert proc.stdin is not None
    proc.stdin.write(text.encode() + b"\n")
    await proc.stdin.drain()
    return await _line(proc)


async def test_shoe_simulator_program_deals_its_script_to_a_reader(tmp_path: Path) -> None:
    link = tmp_path / "shoe"
    proc = await _spawn("shoe", "--link", str(link), "--script", SCRIPT, "--deck-set", "T1",
                        "--heartbeat", "0.2")
    reader = ShoeReader(str(link), deck_set="T1")
    try:
        ready = await _line(proc)
        assert ready.startswith("ready port=/dev/pts/") and ready.endswith(f"link={link}")
        assert os.readlink(link) == ready.split()[1].removeprefix("port=")
        await reader.start()
        online = await asyncio.wait_for(reader.events.get(), SAFETY)  # a heartbeat came
        assert isinstance(online, DeviceStatus) and online.online
        assert await _say(proc, "fault garbage 8") == "ok garbage 8 bytes"
        assert await _say(proc, "deal all") == f"ok dealt {len(SCRIPT.split())}"
        assert (await _say(proc, "deal")) == "ok empty"
        assert (await _say(proc, "fault nonsense")).startswith("error sim.unknown_fault ")
        assert (await _say(proc, "deal Zz")).startswith("error card.unknown_code ")
        cards: list[str] = []
        while len(cards) < len(SCRIPT.split()):
            ev = await asyncio.wait_for(reader.events.get(), SAFETY)
            if isinstance(ev, CardDrawn):
                assert ev.deck_set == "T1"
                cards.append(ev.card.code)
        assert cards == SCRIPT.split()
        assert reader.fault_counts() == {"serial.frame_malformed": 1}
        assert await _say(proc, "quit") == "ok bye"
        assert await asyncio.wait_for(proc.wait(), SAFETY) == 0
        assert not link.exists()  # the line is unplugged when the simulator ends
    finally:
        await reader.stop()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_shuffler_simulator_program_announces_decks(tmp_path: Path) -> None:
    link = tmp_path / "shuffler"
    proc = await _spawn("shuffler", "--link", str(link), "--seed", "3", "--set-prefix", "SX",
                        "--heartbeat", "0.2")
    reader = ShufflerReader(str(link))
    try:
        await _line(proc)
        await reader.start()
        await asyncio.wait_for(reader.wait_port_open(), SAFETY)
        assert await _say(proc, "shuffle") == "ok deck ready SX-1"
        assert await _say(proc, "shuffle") == "ok deck ready SX-2"
        got = []
        while len(got) < 4:
            ev = await asyncio.wait_for(reader.events.get(), SAFETY)
            if isinstance(ev, ShufflerState):
                got.append((ev.state, ev.deck_set))
            else:
                assert isinstance(ev, DeviceStatus) and ev.online
        assert got == [(ShufflerPhase.SHUFFLING, None), (ShufflerPhase.DECK_READY, "SX-1"),
                       (ShufflerPhase.SHUFFLING, None), (ShufflerPhase.DECK_READY, "SX-2")]
        proc.stdin.close()  # type: ignore[union-attr]  # end of input ends the program
        assert await asyncio.wait_for(proc.wait(), SAFETY) == 0
    finally:
        await reader.stop()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_shoe_commands(tmp_path: Path) -> None:
    sim = ShoeSim(PtyPair(tmp_path / "s"), rng=random.Random(1), heartbeat_s=None)
    await sim.start()
    try:
        assert (await sim.command("deck S9 Ad 2d")) == "ok deck S9 cards=2"
        assert (await sim.command("deal")) == "ok dealt Ad seq=1"
        assert (await sim.command("deal 7s")) == "ok dealt 7s seq=2"
        assert sim.remaining == [sim.remaining[0]] and sim.deck_set == "S9"
        assert (await sim.command("status door_open")) == "ok status seq=3"
        assert (await sim.command("fault drop 2")).startswith("ok next 2 frame(s)")
        assert (await sim.command("heartbeat")) == "ok heartbeat seq=4"
        assert sim.counters["dropped"] == 1
        assert "deck_set=S9 remaining=1" in await sim.command("info")
        sim.load_deck("S10")
        assert len(sim.remaining) == 40 and len(set(sim.remaining)) == 40
        for bad, code in [("deal Xx", "card.unknown_code"), ("status sleepy", "sim.bad_argument"),
                          ("deck", "sim.missing_argument"), ("deck bad/set", "sim.bad_deck_set"),
                          ("fault garbage lots", "sim.bad_argument"), ("dance", "sim.unknown_command"),
                          ("fault", "sim.missing_argument")]:
            with pytest.raises(SimError) as e:
                await sim.command(bad)
            assert e.value.code == code, bad
    finally:
        await sim.stop()


async def test_shuffler_commands_and_seeded_shuffles(tmp_path: Path) -> None:
    sim = ShufflerSim(PtyPair(), rng=random.Random(5), heartbeat_s=None)
    await sim.start()
    try:
        assert sim.path.startswith("/dev/pts/")  # no link: the slave path itself
        prefix = sim.set_prefix
        assert prefix == ShufflerSim(PtyPair(), rng=random.Random(5)).set_prefix
        assert await sim.command("shuffle") == f"ok deck ready {prefix}-1"
        assert await sim.command("shuffle MINE") == "ok deck ready MINE"
        assert await sim.command("error 42") == "ok error seq=5"
        with pytest.raises(SimError) as e:
            await sim.command("error 0")
        assert e.value.code == "sim.bad_argument"
        with pytest.raises(SimError) as e:
            await sim.command("fault foreign")  # a shoe fault only
        assert e.value.code == "sim.unknown_fault"
    finally:
        await sim.stop()
    a = ShoeSim(PtyPair(), rng=random.Random(11)).remaining
    b = ShoeSim(PtyPair(), rng=random.Random(11)).remaining
    assert a == b and a != ShoeSim(PtyPair(), rng=random.Random(12)).remaining


def test_cli_registers_sim() -> None:
    args = build_parser().parse_args(["sim", "shoe", "--link", "/tmp/x", "--seed", "4"])
    assert args.device == "shoe" and args.seed == 4 and args.deck_set == "D1"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["sim", "shoe", "--link", "/tmp/x", "--port", "/dev/ttyS0"])


async def test_shoe_program_deals_by_itself_with_deal_every(tmp_path: Path) -> None:
    link = tmp_path / "auto"
    proc = await _spawn("shoe", "--link", str(link), "--script", "Ad 2d 3d", "--deal-every",
                        "0.02", "--heartbeat", "0")
    reader = ShoeReader(str(link), deck_set="D1")
    try:
        await _line(proc)
        await reader.start()
        await asyncio.wait_for(reader.wait_port_open(), SAFETY)
        seen: list[str] = []
        while not seen or seen[-1] != "3d":
            ev = await asyncio.wait_for(reader.events.get(), SAFETY)
            if isinstance(ev, CardDrawn):
                seen.append(ev.card.code)
        # Cards dealt before the reader opened the port are lost to it, never reordered.
        assert seen == ["Ad", "2d", "3d"][-len(seen):]
    finally:
        await reader.stop()
        proc.kill()
        await proc.wait()


async def test_simulator_on_a_given_port(tmp_path: Path) -> None:
    """--port: the simulator opens a real tty with pyserial (here a pty slave we hold the
    master of, as the studio's end would be at the other side of a null-modem cable)."""
    from devices import protocol as p
    from devices.pty_pair import SerialPortEnd

    master, slave = os.openpty()
    try:
        sim = ShoeSim(SerialPortEnd(os.ttyname(slave), 9600), script=None, deck_set="P1",
                      rng=random.Random(2), heartbeat_s=None)
        await sim.start()
        card = await sim.deal_next()
        dec = p.FrameDecoder()
        msgs: list[p.Message] = []
        while len(msgs) < 2:
            await asyncio.wait_for(_readable(master), SAFETY)
            msgs += [p.decode_message(f) for f in dec.feed(os.read(master, 4096))]  # type: ignore[arg-type]
        assert msgs == [p.Heartbeat(p.DeviceKind.SHOE, sim.boot), p.CardMsg(str(card), "P1")]
        await sim.inject("unplug")
        assert sim.link.fd is None
        await sim.inject("replug")
        assert sim.link.fd is not None
        await sim.stop()
    finally:
        os.close(master)
        os.close(slave)


async def _readable(fd: int) -> None:
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    loop.add_reader(fd, fut.set_result, None)
    try:
        await fut
    finally:
        loop.remove_reader(fd)


def test_table_option_links_where_the_studio_reader_looks() -> None:
    from devices.serial_link import sim_link_path
    from studio.commands.sim import _line_end

    args = build_parser().parse_args(["sim", "shuffler", "--table", "sem-live-1"])
    end = _line_end(args)
    assert isinstance(end, PtyPair) and end.link == sim_link_path("sem-live-1", "shuffler")
    args = build_parser().parse_args(["sim", "shoe", "--table", "sem-quota-fissa-1"])
    with pytest.raises(SystemExit, match="config.no_device"):
        _line_end(args)
