"""The camera calibration a studio stores: the file format, making it from four marks on the felt,
the table config naming it, the live card source using it, and the CLI (`studio camera
calibrate`, `studio recognize --calibration`) run as real processes on rendered PNGs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from devices.camera import calibration
from devices.camera.calibration import CalibrationError
from devices.camera.layout import CameraPose, default_areas
from devices.camera.recognizer import Recognizer
from devices.camera.render import Renderer
from devices.camera.scenes import random_scene
from devices.camera.scoring import score
from devices.camera.sim_camera import SimCamera
from devices.camera.voting import CameraCardSource
from studio.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parent.parent
FAN_SCENE = 1000  # napoletane: the 5s on a fan that outline shapes alone do not split


def _dealer_marks(pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """The dealer area's printed corners on the table and where this camera shows them."""
    table = next(a for a in default_areas(3) if a.name == "dealer").corners()
    return table, pose.project(table)


def test_a_pose_survives_the_file(tmp_path: Path) -> None:
    pose = random_scene(7, "french").camera
    path = tmp_path / "cam.json"
    calibration.save(path, pose)
    assert json.loads(path.read_text())["format"] == "studio-camera-calibration"
    back = calibration.load(path)
    np.testing.assert_allclose(back.image_corners, pose.image_corners, atol=1e-3)
    np.testing.assert_allclose(back.homography, pose.homography, rtol=1e-4, atol=1e-4)


def _file(corners: list, version: int = 1) -> str:
    return json.dumps({"format": "studio-camera-calibration", "version": version,
                       "image_corners": corners})


@pytest.mark.parametrize("content,code", [
    ("{not json", "camera.bad_calibration"),
    ('{"format": "something-else"}', "camera.bad_calibration"),
    (_file([], version=9), "camera.bad_calibration"),
    (_file([[0, 0], [100, 0], [100, 100]]), "camera.bad_calibration"),
    # two corners swapped: the table would map inside out
    (_file([[150, 25], [1330, 745], [1130, 25], [-50, 745]]), "camera.bad_calibration"),
    # a tiny quad: not this camera's table
    (_file([[0, 0], [10, 0], [10, 10], [0, 10]]), "camera.bad_calibration"),
])
def test_a_broken_file_is_refused_with_a_code(tmp_path: Path, content: str, code: str) -> None:
    path = tmp_path / "cam.json"
    path.write_text(content)
    with pytest.raises(CalibrationError) as e:
        calibration.load(path)
    assert e.value.code == code
    with pytest.raises(CalibrationError) as missing:
        calibration.load(tmp_path / "nope.json")
    assert missing.value.code == "camera.no_calibration"


def test_four_marks_give_the_camera_pose_and_the_same_cards() -> None:
    spec = random_scene(FAN_SCENE, "napoletane")
    table, image = _dealer_marks(spec.camera)
    # a technician clicks each mark to within half a pixel
    clicked = image + np.random.default_rng(1).uniform(-0.5, 0.5, image.shape)
    pose = calibration.from_marks(table, clicked)
    # the table corners, far outside the marks, land within a few pixels of the true ones
    assert np.abs(np.subtract(pose.image_corners, spec.camera.image_corners)).max() < 8.0
    frame, truth = Renderer().render(spec, FAN_SCENE)
    found = Recognizer("napoletane", camera=pose).recognize(frame)
    tally = score(found, truth)
    assert tally.false == 0 and tally.right == tally.expected
    assert "5s" in {d.code for d in found}


def test_marks_on_a_line_are_refused() -> None:
    table = np.array([[0, 0], [100, 0], [200, 0], [0, 100]], np.float64)
    with pytest.raises(CalibrationError) as e:
        calibration.from_marks(table, table + 300)
    assert e.value.code == "camera.bad_marks"


def _config_with_camera(tmp_path: Path, camera: str) -> Path:
    text = (ROOT / "config" / "studio.toml").read_text()
    text = text.replace('shuffler = { port = "sim", baud = 115200 }',
                        'shuffler = { port = "sim", baud = 115200 }\n' + camera, 1)
    path = tmp_path / "studio.toml"
    path.write_text(text)
    return path


def test_the_table_config_names_the_calibration_file_and_the_card_source_uses_it(
        tmp_path: Path) -> None:
    cam = SimCamera("napoletane", seed=3)
    calibration.save(tmp_path / "camera-sem-live-1.json", cam.camera)
    path = _config_with_camera(
        tmp_path, 'camera = { source = "sim", width = 1280, height = 720, fps = 25, '
                  'calibration = "camera-sem-live-1.json" }')  # relative to the config file
    table = load_config(path).table("sem-live-1")
    assert table.devices.camera.pose() == cam.camera
    source = CameraCardSource.for_table(table, need=2, window=3)
    assert source.recognizer.camera == cam.camera  # the calibrated path
    cam.place_card("Kd", 1)
    cam.place_card("3b", "dealer")
    seen = []
    for n in range(3):
        seen += source.feed(cam.frame(n / 25), n / 25)
    assert sorted((s.code, s.region) for s in seen) == [("3b", "dealer"), ("Kd", "position-1")]


def test_a_table_camera_without_calibration_uses_outlines_only(tmp_path: Path) -> None:
    path = _config_with_camera(tmp_path, 'camera = { source = "0", width = 1280, height = 720, '
                                         'fps = 25 }')
    table = load_config(path).table("sem-live-1")
    assert table.devices.camera.pose() is None
    assert CameraCardSource.for_table(table).recognizer.camera is None


def test_a_missing_calibration_file_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    path = _config_with_camera(tmp_path, 'camera = { source = "sim", width = 1280, height = 720, '
                                         'fps = 25, calibration = "nope.json" }')
    with pytest.raises(ConfigError) as e:
        load_config(path)
    assert "tables[0].devices.camera.calibration" in str(e.value)
    assert "camera.no_calibration" in str(e.value)


def _studio(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio.cli", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_calibrated_recognition_names_the_cards_outlines_miss(tmp_path: Path) -> None:
    rendered = _studio("camera", "render", str(tmp_path), "--deck", "napoletane",
                       "--scenes", "1", "--seed", str(FAN_SCENE))
    assert rendered.returncode == 0, rendered.stderr
    image = tmp_path / f"napoletane-{FAN_SCENE}.png"
    truth = json.loads(image.with_suffix(".json").read_text())
    face_up = {t["card"] for t in truth if t["face_up"]}
    fully = {t["card"] for t in truth if t["face_up"] and t["visible"] >= 0.995}

    made = _studio("camera", "calibrate", "-o", str(tmp_path / "cam.json"),
                   "--scene", str(FAN_SCENE), "--deck", "napoletane")
    assert made.returncode == 0, made.stderr
    plain = _studio("recognize", str(image), "--deck", "napoletane", "--json")
    calibrated = _studio("recognize", str(image), "--deck", "napoletane", "--json",
                         "--calibration", str(tmp_path / "cam.json"))
    assert plain.returncode == 0 and calibrated.returncode == 0, calibrated.stderr
    [without] = json.loads(plain.stdout)
    [with_pose] = json.loads(calibrated.stdout)
    assert without["calibrated"] is False and with_pose["calibrated"] is True
    assert set(without["cards"]) <= face_up and set(with_pose["cards"]) <= face_up
    assert "5s" not in without["cards"]
    assert fully <= set(with_pose["cards"])  # every fully visible card, the 5s among them

    # the same from four clicked marks: the dealer area's corners in this image
    _, marks = _dealer_marks(random_scene(FAN_SCENE, "napoletane").camera)
    args = [f"{x:.1f},{y:.1f}" for x, y in marks]
    made = _studio("camera", "calibrate", "-o", str(tmp_path / "marks.json"), "--marks", *args)
    assert made.returncode == 0, made.stderr
    by_marks = _studio("recognize", str(image), "--deck", "napoletane", "--json",
                       "--calibration", str(tmp_path / "marks.json"))
    assert fully <= set(json.loads(by_marks.stdout)[0]["cards"]) <= face_up


def test_cli_calibration_errors_have_codes(tmp_path: Path) -> None:
    rendered = _studio("camera", "render", str(tmp_path), "--deck", "french", "--scenes", "1")
    assert rendered.returncode == 0
    image = next(tmp_path.glob("*.png"))
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = _studio("recognize", str(image), "--deck", "french", "--calibration", str(bad))
    assert result.returncode == 2 and "camera.bad_calibration" in result.stderr
    result = _studio("camera", "calibrate", "-o", str(tmp_path / "c.json"),
                     "--marks", "1,1", "2,2", "3,3", "4,4")
    assert result.returncode == 2 and "camera.bad_marks" in result.stderr
    result = _studio("camera", "calibrate", "-o", str(tmp_path / "c.json"), "--scene", "4")
    assert result.returncode == 2 and "camera.no_deck" in result.stderr
    made = _studio("camera", "calibrate", "-o", str(tmp_path / "sim.json"), "--sim")
    assert made.returncode == 0 and calibration.load(tmp_path / "sim.json") == CameraPose()
    helped = _studio("recognize", "--help")
    assert "--calibration FILE" in helped.stdout and "calibrate" in helped.stdout
