"""Shoe and shuffler readers against the simulators on real pseudo-terminals, through pyserial.

No sleeps: the readers run on a ManualClock (heartbeat timeout, backoff), and every wait is on an
event with asyncio.wait_for only as a safety net. "Nothing else happened" is checked with a
marker: a SHOE_STATUS frame sent last, whose event comes after everything sent before it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from devices import protocol as p
from devices.events import (
    CardDrawn,
    DeviceEvent,
    DeviceFault,
    DeviceStatus,
    FaultCode,
    ShoeState,
    ShoeStatus,
    ShufflerPhase,
    ShufflerState,
    StatusCode,
)
from devices.pty_pair import PtyPair
from devices.serial_link import Backoff, ManualClock, resolve_port, sim_link_path
from devices.shoe import ShoeReader
from devices.shuffler import ShufflerReader
from devices.sim_shoe import ShoeSim
from devices.sim_shuffler import ShufflerSim
from studio.cards import DeckKind, deck, parse_card, parse_cards

SAFETY = 5.0  # seconds; only reached if something is broken


async def next_event(reader: Any) -> DeviceEvent:
    return await asyncio.wait_for(reader.events.get(), SAFETY)


@dataclass
class Rig:
    sim: ShoeSim
    reader: ShoeReader
    clock: ManualClock
    link: Path

    async def until_marker(self) -> list[DeviceEvent]:
        """Every event up to (not including) a READY status sent now."""
        await self.sim.set_status("ready")
        out: list[DeviceEvent] = []
        while True:
            ev = await next_event(self.reader)
            if isinstance(ev, ShoeStatus) and ev.state is ShoeState.READY:
                return out
            out.append(ev)


def cards_of(events: list[DeviceEvent]) -> list[str]:
    return [e.card.code for e in events if isinstance(e, CardDrawn)]


def faults_of(events: list[DeviceEvent]) -> list[FaultCode]:
    return [e.code for e in events if isinstance(e, DeviceFault)]


@pytest.fixture
async def make_rig(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    rigs: list[Rig] = []

    async def make(sim_kw: dict | None = None, **reader_kw: Any) -> Rig:
        clock = ManualClock()
        link = tmp_path / f"shoe{len(rigs)}"
        sim = ShoeSim(PtyPair(link), rng=random.Random(7), heartbeat_s=None,
                      **({"deck_set": "D1"} | (sim_kw or {})))
        await sim.start()
        reader_kw.setdefault("deck_set", "D1")
        reader = ShoeReader(str(link), clock=clock, heartbeat_timeout_s=3.0,
                            backoff=Backoff(0.5, 2.0, 4.0), **reader_kw)
        rig = Rig(sim, reader, clock, link)
        rigs.append(rig)
        await reader.start()
        await asyncio.wait_for(reader.wait_port_open(), SAFETY)
        await sim.heartbeat_now()
        ev = await next_event(reader)
        assert isinstance(ev, DeviceStatus) and ev.online and ev.code is StatusCode.ONLINE
        return rig

    yield make
    for rig in rigs:
        await rig.reader.stop()
        await rig.sim.stop()


async def test_a_whole_deck_arrives_in_order(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    for _ in range(40):
        await rig.sim.deal_next()
    events = [await next_event(rig.reader) for _ in range(40)]
    assert all(isinstance(e, CardDrawn) for e in events)
    dealt = [c for _, c in rig.sim.dealt]
    assert [e.card for e in events] == dealt  # type: ignore[union-attr]
    assert sorted(dealt) == sorted(deck(DeckKind.ITALIAN_40))
    assert {e.deck_set for e in events} == {"D1"}  # type: ignore[union-attr]
    seqs = [e.seq for e in events]  # type: ignore[union-attr]
    assert seqs == list(range(seqs[0], seqs[0] + 40))
    assert await rig.sim.deal_next() is None  # the shoe reports empty
    ev = await next_event(rig.reader)
    assert isinstance(ev, ShoeStatus) and ev.state is ShoeState.EMPTY
    assert rig.reader.fault_counts() == {}
    assert rig.reader.counters["cards"] == 40
    await asyncio.wait_for(rig.sim.wait_acked(ev.seq), SAFETY)  # the host acknowledged them
    assert set(seqs) <= set(rig.sim.acks)


async def test_garbage_is_a_fault_and_costs_no_card(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    await rig.sim.inject("garbage", "24")
    first = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [FaultCode.FRAME_MALFORMED]
    fault = next(e for e in events if isinstance(e, DeviceFault))
    assert len(fault.raw) == 24 and fault.seq is None
    assert cards_of(events) == [str(first)]  # the frame right after the noise is intact
    assert rig.reader.fault_counts() == {FaultCode.FRAME_MALFORMED: 1}
    await asyncio.wait_for(rig.sim.wait_nak(p.NakReason.MALFORMED), SAFETY)


async def test_bit_flip_loses_that_card_then_sequence_recovers(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    await rig.sim.inject("bitflip")
    lost = await rig.sim.deal_next()
    await rig.sim.heartbeat_now()  # reveals the gap the corrupted frame left
    after = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [FaultCode.FRAME_CHECKSUM, FaultCode.SEQ_GAP]
    assert cards_of(events) == [str(after)]
    assert str(lost) not in cards_of(events)
    assert rig.reader.fault_counts() == {FaultCode.FRAME_CHECKSUM: 1, FaultCode.SEQ_GAP: 1}


async def test_dropped_frame_is_a_gap_and_the_card_after_it_is_withheld(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    await rig.sim.inject("drop")
    lost = await rig.sim.deal_next()
    withheld = await rig.sim.deal_next()
    good = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [FaultCode.SEQ_GAP]
    gap = next(e for e in events if isinstance(e, DeviceFault))
    assert gap.seq == rig.sim.dealt[1][0] and "1 frame(s) lost" in gap.detail
    assert cards_of(events) == [str(good)]  # never the lost one nor the one after the gap
    assert {lost, withheld} & {e.card for e in events if isinstance(e, CardDrawn)} == set()
    # The withheld card left the shoe: the same card again is a repeat.
    await rig.sim.deal(withheld)  # type: ignore[arg-type]
    assert faults_of(await rig.until_marker()) == [FaultCode.CARD_REPEATED]


async def test_duplicate_frame_is_refused(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    first = await rig.sim.deal_next()
    await rig.sim.inject("duplicate")
    second = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [FaultCode.SEQ_DUPLICATE]
    assert cards_of(events) == [str(first), str(second)]
    await asyncio.wait_for(rig.sim.wait_nak(p.NakReason.SEQ_DUPLICATE), SAFETY)


@pytest.mark.parametrize(("fault", "code"), [
    ("foreign", FaultCode.CARD_WRONG_DECK_SET),
    ("badcode", FaultCode.CARD_BAD_CODE),
])
async def test_card_level_faults(make_rig: Callable[..., Any], fault: str,
                                 code: FaultCode) -> None:
    rig: Rig = await make_rig()
    await rig.sim.inject(fault)
    good = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [code]
    assert cards_of(events) == [str(good)]
    assert rig.reader.fault_counts() == {code: 1}
    await asyncio.wait_for(rig.sim.wait_nak(p.NakReason.REJECTED), SAFETY)


async def test_repeated_card_and_card_not_in_deck(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    first = await rig.sim.deal_next()
    await rig.sim.inject("repeat")
    await rig.sim.deal("8d")  # no 8 in a 40-card deck
    events = await rig.until_marker()
    assert cards_of(events) == [str(first)]
    assert faults_of(events) == [FaultCode.CARD_REPEATED, FaultCode.CARD_NOT_IN_DECK]


async def test_an_eight_deck_set_gives_each_card_eight_times_and_no_ninth(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig({"deck_kind": DeckKind.FRENCH_52, "decks": 8,
                               "script": parse_cards("Ac Ac 9s") + parse_cards("Ac") * 7},
                              deck_kind=DeckKind.FRENCH_52, decks=8)
    for _ in range(10):
        await rig.sim.deal_next()
    events = await rig.until_marker()
    assert cards_of(events) == ["Ac", "Ac", "9s"] + ["Ac"] * 6  # the eighth Ac is the last
    assert faults_of(events) == [FaultCode.CARD_REPEATED]  # a ninth ace of coppe (hearts)
    assert rig.reader.cards_drawn == 8 + 1  # the refused ninth is a fault, not a draw


async def test_the_cut_card_comes_out_after_the_card_before_it(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig({"deck_kind": DeckKind.FRENCH_52, "decks": 8, "cut_card": 14},
                              deck_kind=DeckKind.FRENCH_52, decks=8)
    assert len(rig.sim.remaining) == 416
    for _ in range(416 - 14):
        await rig.sim.deal_next()
    events = await rig.until_marker()
    assert len(cards_of(events)) == 402 and faults_of(events) == []
    assert isinstance(events[-1], ShoeStatus) and events[-1].state is ShoeState.CUT_CARD
    assert [e for e in events if isinstance(e, ShoeStatus)] == [events[-1]]  # once only
    await rig.sim.deal_next()
    assert cards_of(await rig.until_marker()) == [str(rig.sim.dealt[-1][1])]


async def test_no_deck_set_told_refuses_every_card(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig(deck_set=None)
    await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [FaultCode.CARD_NO_DECK_SET] and cards_of(events) == []
    rig.reader.set_deck_set("D1")
    card = await rig.sim.deal_next()
    assert cards_of(await rig.until_marker()) == [str(card)]


async def test_card_when_the_table_expects_none(make_rig: Callable[..., Any]) -> None:
    expecting = {"now": False}
    rig: Rig = await make_rig(expecting_card=lambda: expecting["now"])
    early = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert faults_of(events) == [FaultCode.CARD_UNEXPECTED] and cards_of(events) == []
    assert str(early) in events[0].detail  # type: ignore[union-attr]
    expecting["now"] = True
    card = await rig.sim.deal_next()
    assert cards_of(await rig.until_marker()) == [str(card)]


async def test_wrong_device_on_the_port(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    await rig.sim.send(p.Heartbeat(p.DeviceKind.SHUFFLER, rig.sim.boot))
    await rig.sim.send(p.ShufflerStateMsg(p.ShufflerStateCode.DECK_READY, "X1"))
    assert faults_of(await rig.until_marker()) == [FaultCode.WRONG_DEVICE] * 2


async def test_every_fault_class_in_one_run_never_becomes_a_card(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    good: list[str] = []
    for fault in ("garbage", "foreign", "badcode", "repeat"):
        good.append(str(await rig.sim.deal_next()))
        await rig.sim.inject(fault)
    await rig.sim.inject("duplicate")
    await rig.sim.inject("bitflip")
    await rig.sim.deal_next()
    await rig.sim.heartbeat_now()
    await rig.sim.inject("drop")
    await rig.sim.heartbeat_now()
    await rig.sim.heartbeat_now()
    good.append(str(await rig.sim.deal_next()))
    events = await rig.until_marker()
    assert cards_of(events) == good
    assert rig.reader.fault_counts() == {
        FaultCode.FRAME_MALFORMED: 1, FaultCode.CARD_WRONG_DECK_SET: 1,
        FaultCode.CARD_BAD_CODE: 1, FaultCode.CARD_REPEATED: 1, FaultCode.SEQ_DUPLICATE: 1,
        FaultCode.FRAME_CHECKSUM: 1, FaultCode.SEQ_GAP: 2,
    }
    assert rig.reader.counters["cards"] == len(good)


async def test_unplug_reconnects_with_backoff_and_continues(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    before = await rig.sim.deal_next()
    assert cards_of(await rig.until_marker()) == [str(before)]
    await rig.sim.inject("unplug")
    ev = await next_event(rig.reader)
    assert isinstance(ev, DeviceStatus) and not ev.online and ev.code is StatusCode.PORT_LOST
    assert not rig.link.exists()
    # The first reopen is immediate and fails; then 0.5 s, 1.0 s, ... on the injected clock.
    await asyncio.wait_for(rig.clock.wait_for_sleeper(0.5), SAFETY)
    rig.clock.advance(0.5)
    await asyncio.wait_for(rig.clock.wait_for_sleeper(1.0), SAFETY)
    assert rig.reader.counters["open_failures"] == 2 and not rig.reader.port_open
    await rig.sim.inject("replug")
    rig.clock.advance(1.0)
    await asyncio.wait_for(rig.reader.wait_port_open(), SAFETY)
    assert rig.reader.counters["connects"] == 2
    await rig.sim.heartbeat_now()
    ev = await next_event(rig.reader)
    assert isinstance(ev, DeviceStatus) and ev.online
    after = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert cards_of(events) == [str(after)] and faults_of(events) == []
    assert [s for s in rig.clock.requested if s in (0.5, 1.0)] == [0.5, 1.0]


async def test_card_dealt_while_unplugged_is_reported_not_lost_silently(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    await rig.sim.inject("unplug")
    assert (await next_event(rig.reader)).code is StatusCode.PORT_LOST  # type: ignore[union-attr]
    unseen = await rig.sim.deal_next()  # out of the shoe, into nowhere
    await rig.sim.inject("replug")
    await asyncio.wait_for(rig.clock.wait_for_sleeper(0.5), SAFETY)
    rig.clock.advance(0.5)
    await asyncio.wait_for(rig.reader.wait_port_open(), SAFETY)
    await rig.sim.heartbeat_now()
    after = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert isinstance(events[0], DeviceStatus) and events[0].online
    assert faults_of(events) == [FaultCode.SEQ_GAP]
    assert cards_of(events) == [str(after)] and str(unseen) not in cards_of(events)


async def test_restarted_device_is_reported_and_its_new_sequence_accepted(
        make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    for _ in range(5):
        await rig.sim.deal_next()
    assert len(cards_of(await rig.until_marker())) == 5
    await rig.sim.stop()  # power off: the line goes too
    assert (await next_event(rig.reader)).code is StatusCode.PORT_LOST  # type: ignore[union-attr]
    await asyncio.wait_for(rig.clock.wait_for_sleeper(0.5), SAFETY)
    rig.sim = ShoeSim(PtyPair(rig.link), rng=random.Random(99), deck_set="D1", heartbeat_s=None)
    assert rig.sim.boot != 0 and rig.sim.seq == 0
    await rig.sim.start()  # power on: its sequence starts again at 0
    rig.clock.advance(0.5)
    await asyncio.wait_for(rig.reader.wait_port_open(), SAFETY)
    await rig.sim.heartbeat_now()
    card = await rig.sim.deal_next()
    events = await rig.until_marker()
    assert isinstance(events[0], DeviceStatus) and events[0].online
    assert faults_of(events) == [FaultCode.DEVICE_RESTARTED]
    assert cards_of(events) == [str(card)]


async def test_heartbeat_silence_goes_offline_then_online(make_rig: Callable[..., Any]) -> None:
    rig: Rig = await make_rig()
    await asyncio.wait_for(rig.clock.wait_for_sleeper(3.0), SAFETY)  # the watchdog, at t=0
    rig.clock.advance(2.0)
    assert await rig.until_marker() == []  # a frame at t=2 keeps it alive until t=5
    await rig.sim.inject("stuck")
    rig.clock.advance(2.0)  # t=4: the watchdog wakes (due at 3) and sleeps the 1 s left
    await asyncio.wait_for(rig.clock.wait_for_sleeper(1.0), SAFETY)
    assert rig.reader.online and rig.reader.events.empty()
    rig.clock.advance(1.0)  # t=5
    ev = await next_event(rig.reader)
    assert isinstance(ev, DeviceStatus) and not ev.online
    assert ev.code is StatusCode.HEARTBEAT_TIMEOUT and ev.at == 5.0
    await rig.sim.inject("unstuck")  # sends a heartbeat at once
    ev = await next_event(rig.reader)
    assert isinstance(ev, DeviceStatus) and ev.online and ev.code is StatusCode.ONLINE


async def test_callback_sink_gets_events_in_order(make_rig: Callable[..., Any],
                                                  tmp_path: Path) -> None:
    got: list[DeviceEvent] = []
    done = asyncio.Event()

    async def on_event(ev: DeviceEvent) -> None:
        got.append(ev)
        if isinstance(ev, ShoeStatus):
            done.set()

    sim = ShoeSim(PtyPair(tmp_path / "cb"), deck_set="D1", script=parse_cards("Ad 2d 3d"),
                  heartbeat_s=None)
    await sim.start()
    reader = ShoeReader(str(tmp_path / "cb"), deck_set="D1", sink=on_event, clock=ManualClock())
    await reader.start()
    try:
        await asyncio.wait_for(reader.wait_port_open(), SAFETY)
        for _ in range(3):
            await sim.deal_next()
        await sim.set_status("door_open")
        await asyncio.wait_for(done.wait(), SAFETY)
    finally:
        await reader.stop()
        await sim.stop()
    assert isinstance(got[0], DeviceStatus) and got[0].online
    assert cards_of(got) == ["Ad", "2d", "3d"]
    assert isinstance(got[-1], ShoeStatus) and got[-1].state is ShoeState.DOOR_OPEN


async def test_shuffler_deck_ready_changes_the_accepted_deck_set(
        make_rig: Callable[..., Any], tmp_path: Path) -> None:
    rig: Rig = await make_rig()
    old = await rig.sim.deal_next()
    assert cards_of(await rig.until_marker()) == [str(old)]
    ssim = ShufflerSim(PtyPair(tmp_path / "shuffler"), set_prefix="S7", heartbeat_s=None)
    await ssim.start()
    shuffler = ShufflerReader(str(tmp_path / "shuffler"), clock=ManualClock(),
                              on_deck_ready=rig.reader.set_deck_set)
    await shuffler.start()
    try:
        await asyncio.wait_for(shuffler.wait_port_open(), SAFETY)
        deck_set = await ssim.shuffle()
        assert deck_set == "S7-1"
        evs = [await next_event(shuffler) for _ in range(3)]
        assert isinstance(evs[0], DeviceStatus) and evs[0].online
        assert [(e.state, e.deck_set) for e in evs[1:]] == [  # type: ignore[union-attr]
            (ShufflerPhase.SHUFFLING, None), (ShufflerPhase.DECK_READY, "S7-1")]
        assert rig.reader.deck_set == "S7-1"
        rig.sim.load_deck("S7-1", parse_cards("Kd 7c"))
        await rig.sim.deal_next()
        await rig.sim.inject("foreign", "D1")  # a card of the previous deck
        await rig.sim.deal(old)  # type: ignore[arg-type]  # drawn from D1: fine in S7-1
        events = await rig.until_marker()
        assert cards_of(events) == ["Kd", str(old)]
        assert {e.deck_set for e in events if isinstance(e, CardDrawn)} == {"S7-1"}
        assert faults_of(events) == [FaultCode.CARD_WRONG_DECK_SET]
        await ssim.error(513)
        ev = await next_event(shuffler)
        assert isinstance(ev, ShufflerState) and ev.state is ShufflerPhase.ERROR
        assert ev.error_code == 513 and ev.deck_set is None
        await ssim.inject("bitflip")
        await ssim.shuffle("S7-X")
        await ssim.idle()
        evs = [await next_event(shuffler) for _ in range(4)]
        assert [getattr(e, "code", None) for e in evs[:2]] == [
            FaultCode.FRAME_CHECKSUM, FaultCode.SEQ_GAP]
        # A state frame after a gap still states the device's state: it is applied (not cards).
        assert [(e.state, e.deck_set) for e in evs[2:]] == [  # type: ignore[union-attr]
            (ShufflerPhase.DECK_READY, "S7-X"), (ShufflerPhase.IDLE, None)]
        assert shuffler.ready_deck_set == "S7-X" == rig.reader.deck_set
    finally:
        await shuffler.stop()
        await ssim.stop()


def test_from_config_resolves_sim_ports() -> None:
    from studio.config import SerialDevice

    reader = ShoeReader.from_config(SerialDevice(port="sim", baud=9600), table_id="t1")
    assert reader.port == str(sim_link_path("t1", "shoe")) and reader.baud == 9600
    assert reader.name == "t1/shoe"
    assert resolve_port("/dev/ttyUSB0", "t1", "shoe") == "/dev/ttyUSB0"
    shuffler = ShufflerReader.from_config(SerialDevice(port="/dev/ttyS1", baud=115200),
                                          table_id="t1")
    assert shuffler.port == "/dev/ttyS1"
    assert parse_card("Kd").is_matta  # the card code the wire carries is studio.cards'


async def test_a_busy_event_loop_does_not_make_a_live_device_look_offline(
        make_rig: Callable[..., Any]) -> None:
    """Liveness is when the device's bytes reached the port, not when the studio's event loop
    got round to reading them: a loop busy with thousands of players (a fan-out) must not
    make a device that kept talking look silent (issue 19, item 10)."""
    rig: Rig = await make_rig()
    await asyncio.wait_for(rig.clock.wait_for_sleeper(3.0), SAFETY)  # the watchdog, at t=0
    await rig.sim.heartbeat_now()  # written to the line; the loop has not read it yet
    # the pty hands the bytes to the reader's side a moment later: wait until they are
    # there (select reads nothing), as they would be after a loop busy for seconds
    import select
    assert select.select([rig.reader._fd], [], [], SAFETY)[0]
    rig.clock.advance(3.0)  # the watchdog is due before the loop looks at the port
    for _ in range(10):
        await asyncio.sleep(0)
    assert rig.reader.online and rig.reader.events.empty()
    assert rig.reader.port_open  # the port the watchdog read is not taken for lost
    card = await rig.sim.deal_next()  # and the line goes on
    assert cards_of(await rig.until_marker()) == [str(card)]
