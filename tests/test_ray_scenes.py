"""The third scene source (devices/camera/ray_scenes.py): its camera, its truth by issue 16's
rule, its deals, and the recogniser on a few of its development seeds (its held-out seeds are
for the reports of tests/bench/bench_wide_scenes.py and bench_wide_live.py --source ray)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from devices.camera import calibration as calibration_file
from devices.camera import ray_scenes
from devices.camera.assets import AssetError
from devices.camera.layout import CARD_WIDTH, FRAME_H, FRAME_W, TABLE_W
from devices.camera.ray_scenes import (
    HELD_OUT_SEED_BASE,
    Lens,
    _Card,
    _hit,
    _lens,
    _plan,
    calibration,
    labelled_ray_scene,
    ray_deal,
    ray_scene,
    render,
)
from devices.camera.recognizer import Recognizer
from devices.camera.tracking import moved, thumbnail
from devices.camera.wide_scenes import LABEL_SCALE, visible_mask
from devices.camera.wide_scoring import LiveScorer, WideTally, score_wide
from studio.cards import DeckArt, DeckKind
from tests.bench.bench_wide_live import FRAME_S, source


def _lens_at(seed: int, k1: float | None = None) -> Lens:
    lens, _ = _lens(np.random.default_rng(seed))
    return lens if k1 is None else replace(lens, k1=k1, k2=0.0)


def test_each_pixels_ray_lands_where_the_lens_projects_it_back() -> None:
    lens = _lens_at(3)
    assert lens.k1 != 0  # the distortion is inverted, not absent
    rays = lens.rays()
    table = _hit(lens, rays, 0.0)
    ys, xs = np.mgrid[0:FRAME_H:37, 0:FRAME_W:41]
    pts = table[ys, xs].reshape(-1, 2)
    back = lens.project(np.column_stack([pts, np.zeros(len(pts))]))
    want = np.column_stack([xs.ravel() + 0.5, ys.ravel() + 0.5])
    assert np.abs(back - want).max() < 0.05


def test_the_frame_shows_the_table_unmirrored_the_dealer_at_the_top() -> None:
    for seed in range(5):
        lens = _lens_at(seed)
        origin, right, near = lens.project(np.array(
            [[TABLE_W / 2, 300, 0], [TABLE_W / 2 + 100, 300, 0], [TABLE_W / 2, 400, 0]]))
        assert right[0] > origin[0] and abs(right[1] - origin[1]) < 20  # table x: rightwards
        assert near[1] > origin[1] and abs(near[0] - origin[0]) < 20  # table y: downwards


def test_the_calibration_is_exact_without_distortion_and_close_with_it() -> None:
    def worst(lens: Lens) -> float:
        pose = calibration(lens)
        gx, gy = np.meshgrid(np.linspace(100, TABLE_W - 100, 9), np.linspace(100, 700, 7))
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        img = lens.project(np.column_stack([pts, np.zeros(len(pts))]))
        seen = (img[:, 0] > 0) & (img[:, 0] < FRAME_W) & (img[:, 1] > 0) & (img[:, 1] < FRAME_H)
        return float(np.abs(pose.project(pts[seen]) - img[seen]).max())

    assert worst(_lens_at(3, k1=0.0)) < 0.01
    bent = worst(_lens_at(3, k1=-0.06))
    assert 0.5 < bent < 12  # a real lens: the best homography is a few pixels off at the edges


def test_the_same_seed_gives_the_same_scene_and_decks_draw_apart() -> None:
    a, b = ray_scene(21, "napoletane"), ray_scene(21, "napoletane")
    assert np.array_equal(a.frame, b.frame)
    assert [t.code for t in a.truth] == [t.code for t in b.truth]
    assert not np.array_equal(a.frame, ray_scene(21, "piacentine").frame)
    assert a.frame.shape == (FRAME_H, FRAME_W, 3)


def _plan_with(cards: list[_Card], art: DeckArt = DeckArt.FRENCH,
               kind: DeckKind = DeckKind.FRENCH_52):
    rng = np.random.default_rng(5)
    plan = _plan(rng, art, kind)
    plan.cards, plan.chips, plan.button, plan.hand = cards, [], None, None
    return plan, rng


def test_truth_follows_the_rule_a_card_under_another_and_a_french_index_covered() -> None:
    h = CARD_WIDTH * 1.45
    # a 5 of hearts with a king laid over its left 30% (its top-left index) and another card
    # over its bottom-right corner (the other index): 63% shows, yet no index, so it does
    # not count
    five = _Card("5c", True, 700, 300, 0.0, 0.0, 0.5)
    king = _Card("Kb", True, 700 - 0.7 * CARD_WIDTH, 300, 0.0, 0.0, 1.0)
    corner = _Card("Kb", True, 700 + 0.75 * CARD_WIDTH, 300 + 0.72 * h, 0.0, 0.0, 1.5)
    plan, rng = _plan_with([five, king, corner])
    scene, labels = render(plan, rng)
    t_five, t_king, t_corner = scene.truth
    assert t_king.visible > 0.97 and t_king.counts
    assert 0.58 < t_five.visible < 0.68
    assert t_five.index_shares[0] < 0.05 and t_five.index_shares[1] < 0.2
    assert not t_five.counts
    # the label image says the same as the truth: what shows of the five on its face
    shown = visible_mask(labels, 1, t_five.quad).mean()
    assert abs(shown - t_five.visible) < 0.05
    assert labels.shape == (FRAME_H // LABEL_SCALE, FRAME_W // LABEL_SCALE)
    # the corner card alone lies clear: both its index corners show
    assert min(t_corner.index_shares) > 0.95


def test_a_face_down_card_never_counts_and_a_card_outside_the_frame_shows_nothing() -> None:
    down = _Card("7d", False, 700, 320, 0.0, 0.0, 0.5)
    away = _Card("7d", True, -4000, 320, 0.0, 0.0, 0.5)
    plan, rng = _plan_with([down, away], DeckArt.NAPOLETANE, DeckKind.ITALIAN_40)
    scene, _ = render(plan, rng)
    assert scene.truth[0].visible > 0.97 and not scene.truth[0].counts
    assert scene.truth[1].visible == 0.0 and not scene.truth[1].counts


def test_a_bowed_card_is_drawn_where_its_flat_outline_says_give_or_take_its_rise() -> None:
    flat = _Card("3s", True, 700, 320, 20.0, 0.0, 0.5)
    bowed = replace(flat, bend=4.0)
    sizes = []
    for card in (flat, bowed):
        plan, rng = _plan_with([card], DeckArt.PIACENTINE, DeckKind.ITALIAN_40)
        scene, labels = render(plan, rng)
        sizes.append(int((labels == 1).sum()))
        assert scene.truth[0].visible > 0.97
    assert abs(sizes[1] - sizes[0]) / sizes[0] < 0.06


def test_the_seeds_split_as_wide_scenes_do() -> None:
    assert HELD_OUT_SEED_BASE == 9_000_000


@pytest.mark.parametrize("art", ["napoletane", "piacentine", "french"])
def test_the_recogniser_names_the_cards_of_a_few_development_scenes(art: str) -> None:
    """Development seeds 10-17 (looked at while the generator was built): the calibrated
    recogniser names nearly every counted card and no false one. This holds the generator to
    drawing cards the recogniser can read (scans right way round, colours in order, the
    calibration where the cards are), not a figure to report."""
    rec = Recognizer(art)
    tally = WideTally()
    for seed in range(10, 18):
        scene, _ = labelled_ray_scene(seed, art)
        rec.view(scene.camera)
        tally.add(score_wide(rec.recognize(scene.frame, scene.camera), scene.truth))
    assert tally.expected >= 12
    assert tally.false == 0
    assert tally.right >= math.floor(0.85 * tally.expected)


def test_a_technician_renders_ray_scenes_and_recognises_them_with_their_calibration(
        tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]

    def studio(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "studio.cli", *args], check=False,
                              cwd=root, capture_output=True, text=True, timeout=120)

    made = studio("camera", "render", str(tmp_path), "--deck", "french", "--source", "ray",
                  "--scenes", "1", "--seed", "11")
    assert made.returncode == 0, made.stderr
    image = tmp_path / "ray-french-11.png"
    truth = json.loads(image.with_suffix(".json").read_text())
    cam = tmp_path / "ray-french-11.calibration.json"
    assert np.allclose(calibration_file.load(cam).image_corners,
                       ray_scene(11, "french").camera.image_corners, atol=0.01)
    counted = sorted(t["card"] for t in truth if t["counts"])
    assert len(counted) >= 3
    named = studio("recognize", str(image), "--deck", "french", "--json", "--calibration",
                   str(cam))
    assert named.returncode == 0, named.stderr
    assert sorted(json.loads(named.stdout)[0]["cards"]) == counted


def test_a_ray_deal_ends_on_its_plan_dealt_round_the_table_one_camera_throughout() -> None:
    deal = ray_deal(9, "french", "french52", opening=1, hand_frames=1, still_frames=2)
    still = ray_scene(9, "french", "french52")  # seed 9: two cards, no random hand
    assert "hand" not in still.notes and deal.camera == still.camera
    frames = list(deal.frames)
    assert deal.order == [1, 0]  # the player's card, then the dealer's
    assert len(frames) == 1 + 2 * (1 + 2)
    assert [f.dealt for f in frames] == [0, 1, 1, 1, 2, 2, 2]
    assert [f.hand for f in frames] == [False, True, False, False, True, False, False]
    assert frames[0].truth == [] and frames[1].cards == (1,)
    for got, want in zip(frames[-1].truth, still.truth, strict=True):
        assert (got.code, got.counts) == (want.code, want.counts)
        assert abs(got.visible - want.visible) < 1e-9
    # the same table each still frame with its own noise: the tracker sees no movement
    a, b = frames[-2].frame, frames[-1].frame
    assert not np.array_equal(a, b)
    assert not moved(thumbnail(b), thumbnail(a), 12.0)
    # the dealer's hand over the card being laid: movement, and less of that card shows
    hand, after = frames[-3], frames[-2]
    assert moved(thumbnail(hand.frame), thumbnail(frames[-4].frame), 12.0)
    newest = hand.cards.index(deal.order[-1])
    assert hand.truth[newest].visible < after.truth[newest].visible - 0.1


def test_the_live_path_names_a_ray_development_deal() -> None:
    deal = ray_deal(9, "french", "french52", still_frames=6)
    tracked = source("french", "french52", deal.camera, calibrated=True, tracked=True)
    scorer = LiveScorer()
    for n, frame in enumerate(deal.frames):
        scorer.frame(frame, tracked.feed(frame.frame, n * FRAME_S))
    t = scorer.done()
    assert (t.expected, t.right, t.false) == (2, 2, 0)


def test_without_the_shared_scans_a_ray_scene_says_so_rather_than_draw_another_scene(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_scenes, "SHARED_CARDS", tmp_path)
    ray_scenes._original.cache_clear()
    try:
        with pytest.raises(AssetError, match="shared card scans") as raised:
            ray_scene(1, "napoletane")
        assert raised.value.code == "camera.asset_missing"
    finally:
        ray_scenes._original.cache_clear()
