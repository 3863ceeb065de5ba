"""The cross-check on a real table: a simulated shoe on a pty and the camera's real voting
tracker (devices/camera/voting.py CardVoter, fed per-frame detections as the recogniser makes
them) must both see every face-up card before the table gets it."""

from __future__ import annotations

import uuid
from pathlib import Path

import numpy as np

from devices.camera.recognizer import Detection
from devices.camera.voting import CardVoter
from studio.config import CameraDevice
from studio.table.devices import AttachedDevices
from tests.reveal import shows
from tests.test_table_devices import Rig, assert_settled, bets_and_deck, open_rig

CAMERA = CameraDevice(source="sim", width=1280, height=720, fps=25)
WINDOW_S = 3.0


class Camera:
    """The camera side: the cards lying face up, three frames of detections per look, voted."""

    def __init__(self, devices: AttachedDevices) -> None:
        self.devices = devices
        self.voter = CardVoter(need=3, window=5)
        self.on_table: dict[str, tuple[float, float]] = {}
        self.t = 0.0

    async def sees(self, code: str, where: tuple[float, float]) -> int:
        """The card is placed (and read as `code`); returns how many sightings were voted."""
        self.on_table[code] = where
        voted = 0
        for _ in range(3):
            self.t += 0.04
            dets = [Detection(c, _quad(x, y), score=0.95, margin=0.2, cell_error=0.05)
                    for c, (x, y) in self.on_table.items()]
            for seen in self.voter.update(dets, self.t):
                self.devices.camera_seen(seen)
                voted += 1
        await self.devices.settle()
        return voted


def _quad(x: float, y: float) -> np.ndarray:
    return np.array([[x - 30, y - 45], [x + 30, y - 45], [x + 30, y + 45], [x - 30, y + 45]],
                    np.float32)


def sources(r: Rig) -> list[tuple[str, str]]:
    return [(e["card"], e["source"]) for e in r.h.events("card_dealt")]


async def test_cross_check_agreement_disagreement_and_a_card_only_the_shoe_saw(
        store, tmp_path: Path) -> None:
    async with open_rig(store, tmp_path, camera=CAMERA, cross_check_s=WINDOW_S) as r:
        cam = Camera(r.devices)
        h, dev = r.h, r.devices
        await bets_and_deck(r)
        # the burn card lies face down: the camera cannot see it, the shoe's word is enough
        assert await r.deal() == "Qs"
        assert h.events("card_burned")[0]["source"] == "shoe"
        # agreement: held until the camera vouches for it, then dealt once
        assert await r.deal() == "4c"
        assert h.events("card_dealt") == [] and dev.cross.deadline() is not None
        assert await cam.sees("4c", (300, 500)) == 1
        assert sources(r) == [("4c", "shoe+camera")]
        assert dev.cross.deadline() is None and not h.actor.paused

        # disagreement: the shoe reads 3b, the camera 3c -> paused, the dealer sees both
        assert await r.deal() == "3b"
        await cam.sees("3c", (640, 200))
        assert h.actor.paused == "cross-check: cross_check.mismatch"
        [shown] = r.dealer_events("cross_check_dispute")
        assert shown["shoe"]["card"] == "3b" and shown["camera"]["card"] == "3c"
        assert shown["camera"]["confidence"] > 0.8
        assert dev.view()["dispute"]["code"] == "cross_check.mismatch"
        assert h.actor.state.dealer == () and sources(r) == [("4c", "shoe+camera")]
        assert not [e for e in r.public() if e["type"] == "cross_check_dispute"]
        assert not shows(h.actor.snapshot("public"), "3b")  # not before the dealer confirms
        # the dealer confirms the shoe's reading: that card, and only it, is dealt
        answer = await dev.confirm("shoe", "d1", uuid.uuid4().hex)
        assert answer == {"ok": True, "card": "3b"}
        assert [c.code for c in h.actor.state.dealer] == ["3b"]
        assert (await h.dealer("resume"))["ok"]
        await dev.settle()
        assert dev.view()["dispute"] is None and not h.actor.paused

        # a card only the shoe saw: the window passes on the table's clock -> paused
        assert (await h.decide("ann", 1, "stai"))["ok"]
        assert (await h.decide("bob", 1, "carta"))["ok"]
        assert await r.deal() == "2c"
        await h.advance(WINDOW_S - 0.01)
        await dev.settle()
        assert not h.actor.paused and dev.cross.disputed is None
        await h.advance(0.01)
        await r.until(lambda: dev.cross.disputed is not None)
        assert h.actor.paused == "cross-check: cross_check.shoe_only"
        shown = r.dealer_events("cross_check_dispute")[-1]
        assert shown["shoe"]["card"] == "2c" and shown["camera"] is None
        assert len(h.actor.state.positions[1].cards) == 1  # bob's hit has not been dealt
        nothing = await dev.confirm("camera", "d1", uuid.uuid4().hex)
        assert nothing["error"]["code"] == "cross_check.no_reading"
        assert (await dev.confirm("shoe", "d1", uuid.uuid4().hex))["ok"]
        assert (await h.dealer("resume"))["ok"]
        # the camera sees it late: already on the table, so not a second card nor a dispute
        await cam.sees("2c", (300, 560))
        assert dev.counters["cross_check.camera_again"] == 1 and not h.actor.paused
        assert (await h.decide("bob", 1, "stai"))["ok"]

        # the dealer draws: both agree on each card
        assert await r.deal() == "Jb"
        await cam.sees("Jb", (700, 200))
        assert await r.deal() == "2s"
        await cam.sees("2s", (760, 200))
        await dev.settle()
        assert sources(r) == [("4c", "shoe+camera"), ("3b", "manual"), ("2c", "manual"),
                              ("Jb", "shoe+camera"), ("2s", "shoe+camera")]
        assert_settled(r)
        assert dev.counters["cross_check.mismatch"] == 1
        assert dev.counters["cross_check.shoe_only"] == 1


async def test_a_shoe_card_during_an_open_dispute_is_refused_not_queued(
        store, tmp_path: Path) -> None:
    async with open_rig(store, tmp_path, camera=CAMERA, cross_check_s=WINDOW_S) as r:
        cam = Camera(r.devices)
        await bets_and_deck(r)
        await r.deal()
        await r.deal()
        await cam.sees("4c", (300, 500))
        await r.deal()  # 3b
        await cam.sees("5d", (640, 200))  # a misreading: dispute
        assert r.h.actor.paused == "cross-check: cross_check.mismatch"
        await r.deal("2c")  # the dealer pulls another card meanwhile
        assert r.devices.fault_counts() == {"serial.card_unexpected": 1}
        assert r.h.actor.state.dealer == ()
        assert r.devices.cross.waiting() == []  # nothing waits to be dealt behind the dispute
