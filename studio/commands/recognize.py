"""`studio recognize IMAGE... --deck ART [--calibration FILE] [--json]`: the face-up cards in
still images.
`studio camera render OUTDIR --deck ART [--scenes N] [--seed S]`: sample table scenes as PNG.
`studio camera calibrate -o FILE (--marks X,Y X,Y X,Y X,Y [--area NAME] | --scene SEED --deck ART)`:
a camera calibration file.

The first is the recogniser's single-frame path (no voting), for technicians checking a camera
still; with the camera's calibration (the file the table's config names) it is the path the live
table runs. The second writes what the simulated camera sees, with the true cards in a JSON
sidecar. The third makes the calibration file (devices/camera/calibration.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DECKS = ("napoletane", "piacentine", "french")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("recognize", help="name the face-up cards in still images (camera path)")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="PNG/JPEG files")
    p.add_argument("--deck", required=True, choices=DECKS, help="card art on the table")
    p.add_argument("--calibration", type=Path, metavar="FILE",
                   help="the camera's calibration JSON (from `studio camera calibrate`): cards "
                        "are found in the rectified top-down view of the table, as the live "
                        "table does; without it, by outline shapes only (less accurate)")
    p.add_argument("--json", action="store_true", help="print JSON: one entry per image")
    p.set_defaults(func=run_recognize)

    c = sub.add_parser("camera", help="the simulated table camera")
    csub = c.add_subparsers(dest="camera_command", required=True, metavar="ACTION")
    r = csub.add_parser("render", help="write random table scenes as PNG (+ truth JSON)")
    r.add_argument("outdir", type=Path)
    r.add_argument("--deck", required=True, choices=DECKS)
    r.add_argument("--scenes", type=int, default=5)
    r.add_argument("--seed", type=int, default=0, help="first scene seed")
    r.add_argument("--source", choices=("sim", "wide", "ray"), default="sim",
                   help="sim: the demo's simulated camera (render.py); wide and ray: the "
                        "domain-randomised generators the recogniser is measured on "
                        "(wide_scenes.py, ray_scenes.py), each scene with its camera's "
                        "calibration beside it (<stem>.calibration.json)")
    r.set_defaults(func=run_render)

    k = csub.add_parser(
        "calibrate", help="write a camera calibration file (JSON) for `recognize --calibration` "
                          "and a table's [tables.devices.camera] calibration",
        description="From four marks printed on the felt (the corners of a printed area, by "
                    "default the dealer area) and the pixels where they show in a still of this "
                    "camera, given clockwise from the area's top-left as the camera sees the "
                    "table (the dealer's side at the top); or the simulated camera's pose for a "
                    "scene of `studio camera render`.")
    k.add_argument("-o", "--output", type=Path, required=True, metavar="FILE")
    src = k.add_mutually_exclusive_group(required=True)
    src.add_argument("--marks", nargs=4, metavar="X,Y",
                     help="image pixels of the area's corners: top-left, top-right, "
                          "bottom-right, bottom-left")
    src.add_argument("--scene", type=int, metavar="SEED",
                     help="the simulated camera of `camera render --seed SEED` (needs --deck)")
    src.add_argument("--sim", action="store_true",
                     help="the live simulated table camera (`studio demo`'s)")
    k.add_argument("--area", default="dealer",
                   help="the printed area whose corners are the marks: dealer (default) or "
                        "position-N")
    k.add_argument("--positions", type=int, default=3,
                   help="betting positions on the table (they set the areas' places)")
    k.add_argument("--deck", choices=DECKS, help="card art of --scene")
    k.set_defaults(func=run_calibrate)


def _error(code: str, message: str) -> int:
    print(f"error [{code}]: {message}", file=sys.stderr)
    return 2


def run_recognize(args: argparse.Namespace) -> int:
    import cv2

    from devices.camera.calibration import CalibrationError, load
    from devices.camera.recognizer import Recognizer

    camera = None
    if args.calibration is not None:
        try:
            camera = load(args.calibration)
        except CalibrationError as e:
            return _error(e.code, str(e))
    recognizer = Recognizer(args.deck, camera=camera)
    results: list[dict[str, Any]] = []
    for path in args.images:
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            return _error("camera.unreadable_image", f"cannot read image {path!r}")
        detections = recognizer.recognize(frame)
        detections.sort(key=lambda d: (d.center[0], d.center[1]))
        results.append({
            "image": path,
            "calibrated": camera is not None,
            "cards": [d.code for d in detections],
            "detections": [{"card": d.code, "center": [round(v, 1) for v in d.center],
                            "confidence": round(d.confidence, 3)} for d in detections],
        })
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for r in results:
            cards = " ".join(r["cards"]) if r["cards"] else "(no face-up card)"
            print(f"{r['image']}: {cards}")
    return 0


def run_render(args: argparse.Namespace) -> int:
    import cv2

    from devices.camera.render import Renderer
    from devices.camera.scenes import random_scene

    if args.scenes < 1:
        return _error("camera.bad_scene_count", "--scenes must be at least 1")
    args.outdir.mkdir(parents=True, exist_ok=True)
    if args.source != "sim":
        return _render_measured(args)
    renderer = Renderer()
    for seed in range(args.seed, args.seed + args.scenes):
        frame, truth = renderer.render(random_scene(seed, args.deck), seed)
        stem = args.outdir / f"{args.deck}-{seed}"
        cv2.imwrite(str(stem.with_suffix(".png")), frame)
        stem.with_suffix(".json").write_text(json.dumps([
            {"card": t.code, "face_up": t.face_up, "area": t.area,
             "visible": round(t.visible, 3), "quad": t.quad.round(1).tolist()}
            for t in truth], indent=1))
        print(stem.with_suffix(".png"))
    return 0


def _render_measured(args: argparse.Namespace) -> int:
    """`camera render --source wide|ray`: the stills the recogniser's figures are measured on,
    with their truth (issue 16's rule: which cards count) and their calibration files."""
    import cv2

    from devices.camera import calibration
    from devices.camera.assets import AssetError
    from devices.camera.ray_scenes import ray_scene
    from devices.camera.wide_scenes import wide_scene

    make = ray_scene if args.source == "ray" else wide_scene
    for seed in range(args.seed, args.seed + args.scenes):
        try:
            scene = make(seed, args.deck)
        except AssetError as e:
            return _error(e.code, str(e))
        stem = args.outdir / f"{args.source}-{args.deck}-{seed}"
        cv2.imwrite(str(stem.with_suffix(".png")), scene.frame)
        calibration.save(stem.with_suffix(".calibration.json"), scene.camera)
        stem.with_suffix(".json").write_text(json.dumps([
            {"card": t.code, "face_up": t.face_up, "counts": t.counts,
             "visible": round(t.visible, 3), "quad": t.quad.round(1).tolist()}
            for t in scene.truth], indent=1))
        print(stem.with_suffix(".png"))
    return 0


def _point(text: str) -> tuple[float, float]:
    x, _, y = text.partition(",")
    return float(x), float(y)


def run_calibrate(args: argparse.Namespace) -> int:
    from devices.camera import calibration
    from devices.camera.layout import CameraPose, default_areas
    from devices.camera.scenes import random_scene

    try:
        if args.marks is not None:
            try:
                image = [_point(m) for m in args.marks]
            except ValueError:
                return _error("camera.bad_marks", "each mark is X,Y in image pixels, e.g. 312,140")
            try:
                area = next(a for a in default_areas(args.positions) if a.name == args.area)
            except (StopIteration, ValueError):
                return _error("camera.unknown_area",
                              f"no area {args.area!r} on a table of {args.positions} positions")
            pose = calibration.from_marks(area.corners(), image)
        elif args.scene is not None:
            if args.deck is None:
                return _error("camera.no_deck", "--scene needs --deck (each art has its scenes)")
            pose = random_scene(args.scene, args.deck).camera
        else:
            pose = CameraPose()  # the SimCamera default
    except calibration.CalibrationError as e:
        return _error(e.code, str(e))
    calibration.save(args.output, pose)
    print(args.output)
    return 0
