"""Serial devices plugged into a real table: simulated shoe and shuffler on real ptys, read by
the real readers, feeding a TableActor on a real database.

No sleeps: the table runs on studio.clock.ManualClock, the readers on devices' ManualClock
(heartbeat watchdog, reconnect backoff). Every wait is on a condition (the simulator's view of
the host's ACK/NAK, the adapter's `wait_until`/`settle`), with asyncio.wait_for as a safety net.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from devices.events import FaultCode
from devices.pty_pair import PtyPair
from devices.serial_link import Backoff, sim_link_path
from devices.serial_link import ManualClock as ReaderClock
from devices.sim_shoe import ShoeSim
from devices.sim_shuffler import ShufflerSim
from studio.cards import parse_cards
from studio.config import CameraDevice, SerialDevice, TableDevices
from studio.table.devices import AttachedDevices
from tests.table_harness import Harness

SAFETY = 5.0  # seconds; reached only when something is broken

# burn, position 1, dealer; bob hits (2c); the dealer draws Jb 2s (3 1/2 -> 5 1/2).
ROUND = "Qs 4c 3b 2c Jb 2s"


@dataclass
class Rig:
    h: Harness
    shoe: ShoeSim
    shuffler: ShufflerSim
    devices: AttachedDevices
    rclock: ReaderClock

    @property
    def table(self) -> str:
        return self.h.actor.table_id

    async def until(self, condition: Callable[[], bool]) -> None:
        await asyncio.wait_for(self.devices.wait_until(condition), SAFETY)
        await asyncio.wait_for(self.devices.settle(), SAFETY)

    async def deal(self, code: str | None = None) -> str:
        """The shoe deals (the next card of its deck, or this one); wait for the host's answer
        and for the table to have handled it."""
        naks = len(self.shoe.naks)
        card = await (self.shoe.deal(code) if code else self.shoe.deal_next())
        assert card is not None
        seq = self.shoe.last_seq
        await asyncio.wait_for(self.shoe.wait_host(
            lambda: seq in self.shoe.acks or len(self.shoe.naks) > naks), SAFETY)
        await asyncio.wait_for(self.devices.settle(), SAFETY)
        return card.code

    async def new_deck(self, deck_set: str, cards: str) -> None:
        """The shuffler announces a deck; the same deck (these cards on top) goes in the shoe."""
        await self.shuffler.shuffle(deck_set)
        await self.until(lambda: self.h.actor.ready_deck == deck_set)
        rest = [c for c in self.shoe.remaining if c.code not in cards.split()]
        self.shoe.load_deck(deck_set, parse_cards(cards) + rest)

    def dealer_events(self, kind: str) -> list[dict]:
        return self.h.events(kind, "dealer")

    def public(self) -> list[dict]:
        return [e for a, e in self.h.seen if a != "dealer"]


@contextlib.asynccontextmanager
async def open_rig(store, tmp_path: Path, camera: CameraDevice | None = None,
                   cross_check_s: float = 3.0) -> AsyncIterator[Rig]:
    """A table with a simulated shoe and shuffler on ptys (and a camera in its config)."""
    h = Harness(store, card_source="shoe")
    h.credit("ann", 100_000)
    h.credit("bob", 100_000)
    shoe = ShoeSim(PtyPair(tmp_path / "shoe"), rng=random.Random(3), heartbeat_s=None,
                   deck_set="D0")
    shuffler = ShufflerSim(PtyPair(tmp_path / "shuffler"), rng=random.Random(4),
                           heartbeat_s=None, set_prefix="T")
    await shoe.start()
    await shuffler.start()
    cfg = TableDevices(shoe=SerialDevice(port=str(tmp_path / "shoe"), baud=115200),
                       shuffler=SerialDevice(port=str(tmp_path / "shuffler"), baud=115200),
                       camera=camera, cross_check_s=cross_check_s)
    rclock = ReaderClock()
    await h.start()
    devices = AttachedDevices(h.actor, cfg, reader_clock=rclock,
                              backoff=Backoff(0.5, 2.0, 4.0), heartbeat_timeout_s=3.0)
    await devices.start()
    r = Rig(h, shoe, shuffler, devices, rclock)
    try:
        for reader in devices.readers:
            await asyncio.wait_for(reader.wait_port_open(), SAFETY)
        await shoe.heartbeat_now()
        await shuffler.heartbeat_now()
        await r.until(lambda: len(devices.online) == 2 and all(devices.online.values()))
        yield r
    finally:
        await devices.stop()
        await shoe.stop()
        await shuffler.stop()
        await h.actor.stop()


@pytest.fixture
async def rig(store, tmp_path: Path) -> AsyncIterator[Rig]:
    async with open_rig(store, tmp_path) as r:
        yield r


async def bets_and_deck(r: Rig, deck_set: str = "T-1") -> None:
    await r.new_deck(deck_set, ROUND)
    assert (await r.h.bet("ann", 1, 1000))["ok"]
    assert (await r.h.bet("bob", 1, 1000))["ok"]
    assert (await r.h.bet("bob", 1, 200, "mano_di_poker"))["ok"]
    await r.h.close_betting()
    await r.devices.settle()
    assert r.devices.shoe.deck_set == deck_set  # the round opened the shuffler's deck


async def play_to_the_end(r: Rig) -> None:
    """From the decisions on: ann stands, bob hits once (2c) then stands; the dealer draws."""
    h = r.h
    assert h.actor.state.deciders() == ["ann", "bob"]
    assert (await h.decide("ann", 1, "stai"))["ok"]
    assert (await h.decide("bob", 1, "carta"))["ok"]
    assert await r.deal() == "2c"
    assert (await h.decide("bob", 1, "stai"))["ok"]
    assert await r.deal() == "Jb"
    assert await r.deal() == "2s"
    await r.devices.settle()


def assert_settled(r: Rig) -> None:
    h = r.h
    assert h.actor.state.finished and h.actor.state.phase.value == "closed"
    assert h.balance("ann").available == 99_000  # 4 against the dealer's 5 1/2: lost
    assert h.balance("bob").available == 100_000 + 1000 + 1000  # 6 wins; scala 2-3-4 pays 5:1
    assert h.balance("bob").reserved == 0
    assert h.total() == 0  # the books balance
    assert all("Qs" not in str(e) for e in r.public())  # the burn card never reached players


async def test_a_simulated_shoe_on_a_pty_deals_a_whole_round_into_a_real_table(rig: Rig) -> None:
    r = rig
    await bets_and_deck(r)
    assert r.h.actor.snapshot("dealer")["round"]["expecting"] == "burn a card"
    assert await r.deal() == "Qs"
    assert await r.deal() == "4c"
    assert await r.deal() == "3b"
    await play_to_the_end(r)
    assert_settled(r)
    dealt = r.h.events("card_dealt")
    assert [e["card"] for e in dealt] == ["4c", "3b", "2c", "Jb", "2s"]
    assert {e["source"] for e in dealt} == {"shoe"}
    assert r.h.events("card_burned")[0]["source"] == "shoe"
    assert r.devices.fault_counts() == {} and not r.dealer_events("device_fault")
    assert r.devices.counters["cards"] == 6
    assert set(r.shoe.acks) >= {seq for seq, _ in r.shoe.dealt}  # every card acknowledged


async def _garbage(r: Rig) -> str | None:
    await r.shoe.inject("garbage", "24")
    await r.shoe.heartbeat_now()  # the next frame's leading 00 closes the noise off as a chunk
    return None


async def _bitflip(r: Rig) -> str | None:
    await r.shoe.inject("bitflip")
    lost = await r.shoe.deal_next()  # the corrupted card frame: the card is out, unread
    await r.shoe.heartbeat_now()  # reveals the gap it left
    return lost.code


async def _drop(r: Rig) -> str | None:
    await r.shoe.inject("drop")
    lost = await r.shoe.deal_next()
    await r.shoe.heartbeat_now()
    return lost.code


async def _duplicate(r: Rig) -> str | None:
    await r.shoe.inject("duplicate")  # the position's card (4c) again, same sequence number
    return None


async def _foreign(r: Rig) -> str | None:
    await r.shoe.inject("foreign", "OTHER-9")
    return None


async def _repeat(r: Rig) -> str | None:
    await r.shoe.inject("repeat")  # 4c again with a new sequence number
    return None


async def _badcode(r: Rig) -> str | None:
    await r.shoe.inject("badcode")
    return None


FAULTS = {
    "garbage": (_garbage, [FaultCode.FRAME_MALFORMED]),
    "bitflip": (_bitflip, [FaultCode.FRAME_CHECKSUM, FaultCode.SEQ_GAP]),
    "drop": (_drop, [FaultCode.SEQ_GAP]),
    "duplicate": (_duplicate, [FaultCode.SEQ_DUPLICATE]),
    "foreign": (_foreign, [FaultCode.CARD_WRONG_DECK_SET]),
    "repeat": (_repeat, [FaultCode.CARD_REPEATED]),
    "badcode": (_badcode, [FaultCode.CARD_BAD_CODE]),
}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_fault_during_a_round_is_shown_to_the_dealer_and_never_becomes_a_card(
        rig: Rig, fault: str, caplog: pytest.LogCaptureFixture) -> None:
    r = rig
    inject, codes = FAULTS[fault]
    await bets_and_deck(r)
    assert [await r.deal(), await r.deal()] == ["Qs", "4c"]
    caplog.set_level(logging.WARNING, logger="studio.table.devices")
    lost = await inject(r)
    await r.until(lambda: sum(r.devices.fault_counts().values()) >= len(codes))
    # surfaced: counted, shown to the dealer with the raw bytes, the table paused
    assert sorted(r.devices.fault_counts()) == sorted(c.value for c in codes)
    shown = r.dealer_events("device_fault")
    assert [e["code"] for e in shown] == [c.value for c in codes]
    assert all(e["raw"] and e["device"] == f"{r.table}/shoe" for e in shown)
    assert shown[0]["raw"] in caplog.text  # logged with the raw bytes in hex
    assert r.h.actor.paused == f"{r.table}/shoe: {codes[-1].value}"
    assert r.devices.view()["recent_faults"][-1]["code"] == codes[-1].value
    assert not [e for e in r.public() if e["type"] == "device_fault"]
    # never a card: the dealer still has none and nothing new was dealt
    assert r.h.actor.state.dealer == ()
    assert [e["card"] for e in r.h.events("card_dealt")] == ["4c"]
    if lost is not None:  # the card left the shoe unread: the dealer keys it in
        assert (await r.h.dealer("card", code=lost))["ok"]
    assert (await r.h.dealer("resume"))["ok"]
    await r.devices.settle()
    if lost is None:
        assert await r.deal() == "3b"
    assert r.h.actor.state.dealer[0].code == "3b"
    await play_to_the_end(r)
    assert_settled(r)


async def test_a_card_while_the_table_expects_none_is_a_fault_not_a_card(rig: Rig) -> None:
    r = rig
    await bets_and_deck(r)
    for _ in range(3):
        await r.deal()
    assert r.h.actor.state.expecting() is None  # decisions: nobody asked for a card
    await r.deal("2c")
    assert r.devices.fault_counts() == {FaultCode.CARD_UNEXPECTED.value: 1}
    assert "2c" in r.dealer_events("device_fault")[0]["detail"]  # the dealer sees which card
    assert "2c" not in r.h.actor.paused  # players can see a pause reason: no card in it
    assert [e["card"] for e in r.h.events("card_dealt")] == ["4c", "3b"]
    # the dealer keeps the card aside and resumes; bob's hit then uses the next card
    await r.h.dealer("resume")
    assert (await r.h.decide("ann", 1, "stai"))["ok"]
    assert (await r.h.decide("bob", 1, "carta"))["ok"]
    assert (await r.h.dealer("card", code="2c"))["ok"]  # keyed in: the shoe already sent it
    assert (await r.h.decide("bob", 1, "stai"))["ok"]
    assert [await r.deal(), await r.deal()] == ["Jb", "2s"]
    assert_settled(r)


async def test_unplugged_offline_paused_replugged_online_dealer_resumes(rig: Rig) -> None:
    r = rig
    await bets_and_deck(r)
    assert [await r.deal(), await r.deal()] == ["Qs", "4c"]
    r.shoe.unplug()
    await r.until(lambda: r.devices.online[f"{r.table}/shoe"] is False)
    assert r.h.actor.paused == f"{r.table}/shoe offline"
    offline = [a for a in r.h.actor.alerts if a["code"] == "device.offline"]
    assert offline and "serial.port_lost" in offline[-1]["message"]
    # the reader retries with backoff (on its clock); the cable goes back in
    await asyncio.wait_for(r.rclock.wait_for_sleeper(0.5), SAFETY)
    r.shoe.replug()
    r.rclock.advance(0.5)
    await asyncio.wait_for(r.devices.shoe.wait_port_open(), SAFETY)
    await r.shoe.heartbeat_now()
    await r.until(lambda: r.devices.online[f"{r.table}/shoe"] is True)
    assert [a["code"] for a in r.h.actor.alerts][-1] == "device.online"
    assert r.h.actor.paused  # back online is not resumed: the dealer decides
    assert (await r.h.dealer("resume"))["ok"]
    assert await r.deal() == "3b"
    await play_to_the_end(r)
    assert_settled(r)
    assert r.devices.counters["offline"] == 1 and r.devices.counters["online"] == 1


async def test_heartbeat_silence_takes_both_devices_offline_and_pauses(rig: Rig) -> None:
    r = rig
    await bets_and_deck(r)
    r.rclock.advance(3.0)  # no frame for the whole timeout
    await r.until(lambda: not any(r.devices.online.values()))
    assert r.h.actor.paused and "offline" in r.h.actor.paused
    codes = [a["message"] for a in r.h.actor.alerts if a["code"] == "device.offline"]
    assert len(codes) == 2 and all("serial.heartbeat_timeout" in m for m in codes)
    await r.shoe.heartbeat_now()
    await r.shuffler.heartbeat_now()
    await r.until(lambda: all(r.devices.online.values()))
    await r.h.dealer("resume")
    assert [await r.deal(), await r.deal(), await r.deal()] == ["Qs", "4c", "3b"]
    await play_to_the_end(r)
    assert_settled(r)


async def test_config_builds_the_readers_sim_port_and_heartbeat_timeout(store) -> None:
    h = Harness(store, card_source="shoe")
    cfg = TableDevices(shoe=SerialDevice(port="sim", baud=9600, heartbeat_timeout_s=1.5),
                       shuffler=SerialDevice(port="/dev/ttyUSB7", baud=115200))
    devices = AttachedDevices(h.actor, cfg)
    assert devices.shoe is not None and devices.shuffler is not None
    assert devices.shoe.port == str(sim_link_path(h.actor.table_id, "shoe"))
    assert devices.shoe.baud == 9600 and devices.shoe.heartbeat_timeout_s == 1.5
    assert devices.shuffler.port == "/dev/ttyUSB7" and devices.shuffler.heartbeat_timeout_s == 3.0
    assert devices.cross is None  # no camera: no cross-check
    with_camera = AttachedDevices(h.actor, cfg.model_copy(update={"camera": CameraDevice(
        source="sim", width=1280, height=720, fps=25), "cross_check_s": 2.5}))
    assert with_camera.cross is not None and with_camera.cross.window_s == 2.5
