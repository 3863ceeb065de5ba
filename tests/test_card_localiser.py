"""The learned card localiser (devices/camera/card_localiser.py): the hand-written ONNX file
onnxruntime runs, the shipped weights without torch, a card it finds where the outline path has no
hypothesis, and the recogniser with it naming at least as much, nothing false (tune seeds)."""

from __future__ import annotations

import subprocess
import sys
import threading

import cv2
import numpy as np
import pytest

from devices.camera.card_localiser import WEIGHTS, card_localiser, edge_angle
from devices.camera.onnx_session import OnnxNet
from devices.camera.onnx_writer import Graph
from devices.camera.recognizer import Options, Recognizer
from devices.camera.table_view import card_hypotheses, card_size
from devices.camera.wide_scenes import wide_scene
from devices.camera.wide_scoring import WideTally, score_wide


def test_the_onnx_writer_gives_what_onnxruntime_runs(tmp_path) -> None:
    """A strided conv, a dilated one, a transposed one and an add, checked against numpy."""
    rng = np.random.default_rng(0)
    w1, b1 = rng.normal(0, 0.5, (2, 3, 3, 3)), rng.normal(0, 0.1, 2)
    w2, b2 = rng.normal(0, 0.5, (2, 2, 3, 3)), rng.normal(0, 0.1, 2)
    wt, bt = rng.normal(0, 0.5, (2, 2, 2, 2)), rng.normal(0, 0.1, 2)
    g = Graph((1, 3, 8, 8))
    a = g.node("Relu", [g.conv("input", w1, b1, stride=2)])
    b = g.conv(a, w2, b2, dilation=2)
    out = g.node("Add", [g.conv(b, wt, bt, stride=2, transpose=True),
                         g.conv("input", np.zeros((2, 3, 1, 1)), np.zeros(2))])
    path = tmp_path / "t.onnx"
    path.write_bytes(g.encode(out, (1, 2, 8, 8)))
    x = rng.normal(0, 1, (1, 3, 8, 8)).astype(np.float32)
    got = OnnxNet(path).run(x)[0]

    def conv(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, dil: int) -> np.ndarray:
        k = w.shape[2]
        pad = dil * (k - 1) // 2
        xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
        h = (xp.shape[1] - dil * (k - 1) - 1) // stride + 1
        y = np.zeros((w.shape[0], h, h))
        for i in range(h):
            for j in range(h):
                win = xp[:, i * stride:i * stride + dil * (k - 1) + 1:dil,
                         j * stride:j * stride + dil * (k - 1) + 1:dil]
                y[:, i, j] = np.tensordot(w, win, axes=3) + b
        return y

    y = conv(conv(x[0], w1, b1, 2, 1).clip(0), w2, b2, 1, 2)
    up = np.zeros((2, 8, 8))
    for i in range(4):
        for j in range(4):
            up[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2] = np.einsum("c,cokl->okl", y[:, i, j], wt)
    up += bt[:, None, None]
    assert np.abs(got - up).max() < 1e-4


def test_the_edges_give_a_cards_axis_modulo_a_quarter_turn() -> None:
    """A card turned 17 degrees on a dark cloth: its sides' angle, modulo 90 degrees."""
    grey = np.full((120, 120), 30, np.uint8)
    box = cv2.boxPoints(((60.0, 60.0), (28.0, 46.0), 17.0))
    cv2.fillConvexPoly(grey, np.round(box).astype(np.int32), 220, cv2.LINE_AA)
    angle, consistent = edge_angle(grey, 60, 60)
    assert abs(np.degrees(angle) % 90 - 17) < 1.5 and consistent > 0.5


def test_the_shipped_weights_run_without_torch() -> None:
    """The studio runs the localiser with onnxruntime alone: torch blocked, it still
    proposes."""
    code = ("import sys; sys.modules['torch'] = None\n"
            "import cv2\n"
            "from devices.camera.card_localiser import card_localiser\n"
            "from devices.camera.table_view import TableView\n"
            "from devices.camera.wide_scenes import wide_scene\n"
            "scene = wide_scene(5, 'napoletane')\n"
            "view = TableView(scene.camera)\n"
            "print(len(card_localiser().peaks(view.rectify(scene.frame))))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert int(done.stdout.strip()) >= 1


# (art, kind, seed, card index): the middle card of an overlapping row (65% of it showing), no
# outline hypothesis near it, named only with the localiser (a tune scene)
MIDDLE_CARD = ("piacentine", "italian40", 6, 3)


def test_a_middle_card_the_outline_misses_is_proposed_and_named() -> None:
    art, kind, seed, index = MIDDLE_CARD
    assert WEIGHTS.exists()
    scene = wide_scene(seed, art, kind)
    card = scene.truth[index]
    rec = Recognizer(art, kind, options=Options(localiser=True))
    view = rec.view(scene.camera)
    top = view.rectify(scene.frame)
    w, h = card_size(rec.aspect, view.scale)
    centre = cv2.perspectiveTransform(card.quad.reshape(-1, 1, 2).astype(np.float64),
                                      view.to_view).reshape(4, 2).mean(axis=0)
    mask = rec.card_mask(top, np.ones((3, 3), np.uint8), rec.thresholds.view_felt_median)
    rects, _ = card_hypotheses(mask, w, h, 0.5 * w * h, on_solid=0.95)
    assert all(np.hypot(*(r.centre - centre)) > 0.25 * w for r in rects)
    peaks = card_localiser().peaks(top)
    assert any(np.hypot(p.x - centre[0], p.y - centre[1]) < 0.1 * w for p in peaks)

    def named(r: Recognizer) -> list[str]:
        return [d.code for d in r.recognize(scene.frame, scene.camera)
                if cv2.pointPolygonTest(card.quad.reshape(-1, 1, 2), d.center, False) >= 0]

    assert card.counts and card.code in named(rec)
    assert card.code not in named(Recognizer(art, kind, options=Options(localiser=False)))


@pytest.mark.parametrize("art, kind", [("piacentine", "italian40"), ("french", "french52")])
def test_the_localiser_names_at_least_as_many_and_nothing_false(art: str, kind: str) -> None:
    with_loc, without = WideTally(), WideTally()
    rec = Recognizer(art, kind, options=Options(localiser=True))
    plain = Recognizer(art, kind, options=Options(localiser=False))
    for seed in range(4, 12):
        scene = wide_scene(seed, art, kind)
        with_loc.add(score_wide(rec.recognize(scene.frame, scene.camera), scene.truth))
        without.add(score_wide(plain.recognize(scene.frame, scene.camera), scene.truth))
    assert with_loc.false == 0 and without.false == 0
    assert with_loc.right >= without.right


def test_tables_in_worker_threads_running_one_network_get_the_one_thread_output() -> None:
    """The tables recognise in worker threads at once, on one onnxruntime session of the
    localiser (a cv2.dnn.Net, which ran it before, gave wrong outputs and exceptions when two
    threads shared it): every thread's output is the one-thread output."""
    from concurrent.futures import ThreadPoolExecutor

    loc = card_localiser()
    assert loc is not None
    rng = np.random.default_rng(0)
    images = [rng.integers(0, 255, (224, 376, 3), dtype=np.uint8) for _ in range(4)]
    alone = [loc.output(image).copy() for image in images]
    start = threading.Barrier(4)

    def run(k: int) -> tuple[int, bool]:
        start.wait()
        same = all(np.allclose(loc.output(images[k]), alone[k], atol=1e-5) for _ in range(30))
        return id(loc.net), same

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(run, range(4)))
    assert all(same for _, same in results)
    assert len({net for net, _ in results}) == 1  # one session serves them all
