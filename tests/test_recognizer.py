"""Card recognition on rendered table scenes: accuracy, no false cards, what must be ignored,
and the `studio recognize` command run as a real process on PNG files.

Seeds 0..99 per deck are the tuning/test scenes; the benchmark uses disjoint seeds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from devices.camera.card_classifier import CardClassifier
from devices.camera.recognizer import Options, Recognizer, Thresholds
from devices.camera.render import Renderer
from devices.camera.scenes import random_scene
from devices.camera.scoring import Tally, score
from devices.camera.sim_camera import SimCamera

ROOT = Path(__file__).resolve().parent.parent
SCENES = 100
# With the table's camera calibration (as the live table runs) cards are found as rectangles of
# known size in the rectified top-down view, each aligned to its template before it is judged;
# on seeds 0..99 this names 100% (napoletane), 99.7% (piacentine) and 100% (french) of the
# fully visible cards. The goal is 99.5% in the benchmark. False cards are held at zero
# without exception.
MIN_RIGHT_PCT = {"napoletane": 99.5, "piacentine": 99.5, "french": 99.5}
# Without calibration (a lone PNG, `studio recognize` without --calibration) only outline
# shapes are used: about 90%, 79% and 88%; misses are cards whose outline merges with a
# neighbour, a chip or a printed line.
MIN_RIGHT_PCT_UNCALIBRATED = {"napoletane": 87.0, "piacentine": 75.0, "french": 83.0}


def _accuracy(art: str, calibrated: bool, scenes: int = SCENES) -> tuple[Tally, list[str]]:
    renderer, recognizer = Renderer(), Recognizer(art)
    total = Tally()
    false_cards = []
    for seed in range(scenes):
        spec = random_scene(seed, art)
        frame, truth = renderer.render(spec, seed)
        tally = score(recognizer.recognize(frame, spec.camera if calibrated else None), truth)
        total.add(tally)
        false_cards += [f"seed {seed}: {x}" for x in tally.false_examples or []]
    return total, false_cards


@pytest.mark.parametrize("art", ["napoletane", "piacentine", "french"])
def test_accuracy_on_generated_scenes_with_calibration(art: str) -> None:
    total, false_cards = _accuracy(art, calibrated=True)
    assert total.expected > 2 * SCENES  # the scenes do hold many fully visible cards
    assert false_cards == []
    assert total.right_pct >= MIN_RIGHT_PCT[art], f"{total.right}/{total.expected} right"


@pytest.mark.parametrize("art", ["napoletane", "piacentine", "french"])
def test_accuracy_on_generated_scenes_without_calibration(art: str) -> None:
    total, false_cards = _accuracy(art, calibrated=False)
    assert false_cards == []
    assert total.right_pct >= MIN_RIGHT_PCT_UNCALIBRATED[art], \
        f"{total.right}/{total.expected} right"


def test_calibration_splits_a_fan_the_outline_path_cannot() -> None:
    """Scene 1000 (napoletane): the 5 of swords lies on top of a fan merged into one blob;
    from outlines alone it is not found, in the calibrated top-down view it is."""
    spec = random_scene(1000, "napoletane")
    frame, truth = Renderer().render(spec, 1000)
    five = next(t for t in truth if t.code == "5s")
    assert five.face_up and five.visible >= 0.995
    plain = Recognizer("napoletane")
    assert "5s" not in {d.code for d in plain.recognize(frame)}
    calibrated = Recognizer("napoletane", camera=spec.camera)
    found = calibrated.recognize(frame)
    assert "5s" in {d.code for d in found}
    assert score(found, truth).false == 0
    # the named quad is the card's own: every corner within a few pixels of the truth
    quad = next(d.quad for d in found if d.code == "5s")
    nearest = [min(np.linalg.norm(five.quad - q, axis=1)) for q in quad]
    assert max(nearest) < 4.0


def test_french_40_card_deck_recogniser() -> None:
    """The Sette e Mezzo French deck (no 8, 9, 10) uses its own, smaller template set."""
    recognizer = Recognizer("french", "french40")
    renderer = Renderer()
    total = Tally()
    for seed in range(30):
        spec = random_scene(seed, "french", "french40")
        frame, truth = renderer.render(spec, seed)
        total.add(score(recognizer.recognize(frame, spec.camera), truth))
    assert total.false == 0
    assert total.right_pct >= 98.5  # 91 of 92 on these 30 scenes


def test_backs_chips_and_hand_are_not_cards() -> None:
    cam = SimCamera("napoletane", seed=4, noise_sigma=4.0)
    for i, code in enumerate(["Kd", "7c", "3b"]):
        cam.place_card(code, i + 1, face_up=False)
    cam.place_card("2s", "dealer", face_up=False)
    for where in (1, 2, 3):
        cam.add_chips(where, (30, 30, 30), 3)
        cam.add_chips(where, (235, 235, 235), 1)
    cam.set_hand("dealer", dy=40)
    frame = cam.frame(0.0)
    assert Recognizer("napoletane").recognize(frame) == []
    assert Recognizer("french").recognize(frame) == []
    # turn them up: now the same cards are named (the hand covers only the dealer's)
    for code in ("Kd", "7c", "3b"):
        cam.turn_up(code)
    cam.set_hand(None)
    found = sorted(d.code for d in Recognizer("napoletane").recognize(cam.frame(0.04)))
    assert found == ["3b", "7c", "Kd"]


def test_card_under_the_hand_is_not_named_wrongly_and_is_named_once_uncovered() -> None:
    cam = SimCamera("piacentine", seed=8)
    cam.place_card("Qs", 2)
    cam.set_hand(2, dy=-40)
    covered = Recognizer("piacentine").recognize(cam.frame(0.0))
    assert [d.code for d in covered] in ([], ["Qs"])
    assert any(t.visible < 0.9 for t in cam.truth())
    cam.set_hand(None)
    assert [d.code for d in Recognizer("piacentine").recognize(cam.frame(0.04))] == ["Qs"]


def test_a_blank_table_and_garbage_give_no_cards() -> None:
    cam = SimCamera("french", seed=1)
    recognizer = Recognizer("french")
    assert recognizer.recognize(cam.frame(0.0)) == []
    noise = np.random.default_rng(3).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    assert recognizer.recognize(noise) == []
    with pytest.raises(ValueError, match="camera.bad_frame"):
        recognizer.recognize(np.zeros((720, 1280), np.uint8))


def _studio(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio.cli", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_recognize_json_on_rendered_png(tmp_path: Path) -> None:
    rendered = _studio("camera", "render", str(tmp_path), "--deck", "piacentine",
                       "--scenes", "3", "--seed", "40")
    assert rendered.returncode == 0, rendered.stderr
    images = sorted(tmp_path.glob("*.png"))
    assert len(images) == 3
    result = _studio("recognize", *map(str, images), "--deck", "piacentine", "--json")
    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout)
    assert [a["image"] for a in answers] == list(map(str, images))
    recognizer = Recognizer("piacentine")
    right = 0
    for answer, image in zip(answers, images, strict=True):
        truth = json.loads(image.with_suffix(".json").read_text())
        face_up = {t["card"] for t in truth if t["face_up"]}
        fully = {t["card"] for t in truth if t["face_up"] and t["visible"] >= 0.995}
        assert set(answer["cards"]) <= face_up  # never a card that is not there
        right += len(fully & set(answer["cards"]))
        # the command is the single-frame path: the same answer as in process, same PNG
        in_process = recognizer.recognize(cv2.imread(str(image)))
        assert sorted(answer["cards"]) == sorted(d.code for d in in_process)
    assert right >= 5
    text = _studio("recognize", str(images[0]), "--deck", "piacentine")
    assert text.returncode == 0 and text.stdout.startswith(str(images[0]) + ": ")


def test_cli_recognize_unreadable_image(tmp_path: Path) -> None:
    bad = tmp_path / "not-an-image.png"
    bad.write_text("hello")
    result = _studio("recognize", str(bad), "--deck", "french", "--json")
    assert result.returncode == 2
    assert "camera.unreadable_image" in result.stderr


def test_under_a_guessed_pose_the_classifier_names_a_covered_card_only_as_sure_as_before() -> None:
    """Scene 25 (napoletane), no calibration: a cascade of a 7 and a 2 under a 6 of coins.
    Under the guessed pose an outline spanning the 2 and the 6 was named a 6 of coins by the
    classifier at 0.929, the template judges agreeing: a false card at the calibrated bar
    (`Thresholds.learned_min_prob`, 0.9). Refused at the guessed bar, 0.95. (Refused since
    by `Options.learned_yields` too, so that is off here: the outline lies on named cards;
    `keep_better_fit`, whose first form moved the false card a few pixels; and
    `lookalike_unseparated`, which refuses it as well.)"""
    spec = random_scene(25, "napoletane")
    frame, truth = Renderer().render(spec, 25)
    then = Options(learned_yields=False, keep_better_fit=False, lookalike_unseparated=False,
                   covered_by_quick=False)  # (its order makes no false card either way)
    weights = CardClassifier.load(  # those it was made with: today's make no false card here
        Path(__file__).parent / "data" / "card_classifier_napoletane_2026-11-26b.npz")
    now = score(Recognizer("napoletane", options=then, classifier=weights).recognize(frame),
                truth)
    before = score(Recognizer("napoletane", options=then, thresholds=Thresholds(
        wary_learned_min_prob=0.9), classifier=weights).recognize(frame), truth)
    assert before.false_examples == ["6d@779,510"]
    assert not now.false_examples and now.right == before.right == now.expected
