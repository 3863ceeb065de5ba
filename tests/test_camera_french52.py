"""The French 52-card deck (8, 9 and 10 too) through the simulated camera and the recogniser,
with an eight-deck shoe's repeats: the Punto e Banco and Blackjack tables' cards."""

import pytest

from devices.camera.recognizer import Recognizer
from devices.camera.sim_camera import SceneError, SimCamera
from devices.camera.voting import CameraCardSource
from studio.games.blackjack.live import BlackjackLive
from studio.games.punto_e_banco.live import PuntoEBancoLive


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
