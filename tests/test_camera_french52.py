"""The French 52-card deck (8, 9 and 10 too) through the simulated camera and the recogniser,
with an eight-deck shoe's repeats: the Punto e Banco and Blackjack tables' cards."""

import uuid

import pytest

from devices.camera.recognizer import Recognizer
from devices.camera.sim_camera import SceneError, SimCamera
from devices.camera.voting import CameraCardSource
from studio.games.blackjack.live import BlackjackLive
from studio.games.punto_e_banco.live import PuntoEBancoLive
from tests.browser.harness import StudioHarness
from tests.test_camera_watch import MAX_LOOKS, consumed, look_until


def test_eight_nine_ten_and_two_copies_of_a_card_are_named_calibrated() -> None:
    cam = SimCamera("french", positions=3, seed=3, copies=8)
    laid = [("8c", 1), ("9s", 1), ("Td", 2), ("Td", "dealer"), ("Qc", 3)]
    for code, where in laid:
        cam.place_card(code, where)
    rec = Recognizer("french", camera=cam.camera)
    found = sorted(d.code for d in rec.recognize(cam.frame(0.0)))
    visible = sorted(t.code for t in cam.truth() if t.visible > 0.99)
    assert set(found) <= {c for c, _ in laid}
    assert found.count("Td") == 2  # two copies, two places
    assert "9s" in found and "Qc" in found
    assert len(found) >= len(visible)


def test_one_deck_refuses_a_second_copy_eight_decks_take_it() -> None:
    single = SimCamera("french", copies=1)
    single.place_card("8c", 1)
    with pytest.raises(SceneError) as err:
        single.place_card("8c", 2)
    assert err.value.code == "camera.card_on_table"
    shoe = SimCamera("french", copies=2)
    shoe.place_card("8c", 1)
    shoe.place_card("8c", 2, face_up=False)
    with pytest.raises(SceneError):
        shoe.place_card("8c", 3)
    shoe.turn_up("8c")  # the face-down copy, not the one already up
    assert [p.face_up for p in shoe.cards] == [True, True]


def test_the_voter_reports_each_copy_once_per_place() -> None:
    cam = SimCamera("french", positions=3, seed=5, copies=8)
    cam.place_card("9d", 1)
    cam.place_card("9d", 3)
    source = CameraCardSource.calibrated("french", cam.camera, 3)
    seen = []
    for i in range(4):
        seen += source.feed(cam.frame(i / 25), i / 25)
    assert sorted((s.code, s.region) for s in seen) == [("9d", "position-1"),
                                                        ("9d", "position-3")]


def test_the_french_live_tables_cross_check_their_shoe() -> None:
    assert PuntoEBancoLive.cross_checks and BlackjackLive.cross_checks


async def test_a_punto_e_banco_round_with_a_repeated_card_is_cross_checked_end_to_end(
        tmp_path) -> None:
    """The eight-deck shoe deals 9d to Punto and 9d again to Banco: the simulated camera lays
    both, the real recogniser and voter see both, the cross-check deals both (shoe+camera)."""
    h = StudioHarness(tmp_path, camera=True, table="pb-live-1")
    await h.start()
    try:
        assert h.devices.attached.cross is not None and h.devices.attached.cross.copies == 8
        h.credit("ann", 10_000)
        assert (await h.actor.place_bets("ann", [{"kind": "punto", "amount": 1000}],
                                         uuid.uuid4().hex))["ok"]
        await h.close_betting()
        dealt = []
        for code in ("Ks", "9d", "9d", "Tc", "Jc"):  # the burn, Punto, Banco, Punto, Banco
            if h.actor.state.finished:
                break
            before = consumed(h)
            card = await h.devices.deal(code)
            assert card is not None and card.code == code
            dealt.append(code)
            assert await look_until(h, lambda b=before: consumed(h) > b) <= MAX_LOOKS, code
        public = h.published("card_dealt", "public")
        assert [e["card"] for e in public] == dealt[1:]
        assert {e["source"] for e in public} == {"shoe+camera"}
        assert not h.published("cross_check_dispute")
    finally:
        await h.stop()


def test_a_french_40_card_tables_camera_knows_only_its_40_cards() -> None:
    """The camera source is made with the table's deck (its game's deck_kind): a French
    40-card table's recogniser has no 8, 9 or 10 to name; the art alone means all 52."""
    forty = CameraCardSource.calibrated("french", None, 3, kind="french40").recognizer
    fifty_two = CameraCardSource.calibrated("french", None, 3).recognizer
    assert "8d" not in forty.templates.labels and "Td" not in forty.templates.labels
    assert {"8d", "9c", "Ts"} <= set(fifty_two.templates.labels)
    assert len(set(forty.templates.labels) - {"back"}) == 40
