"""`studio recognize IMAGE... --deck ART [--json]`: the face-up cards in still images.
`studio camera render OUTDIR --deck ART [--scenes N] [--seed S]`: sample table scenes as PNG.

The first is the recogniser's single-frame path (no voting), for technicians checking a camera
still; the second writes what the simulated camera sees, with the true cards in a JSON sidecar.
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
    p.add_argument("--json", action="store_true", help="print JSON: one entry per image")
    p.set_defaults(func=run_recognize)

    c = sub.add_parser("camera", help="the simulated table camera")
    csub = c.add_subparsers(dest="camera_command", required=True, metavar="ACTION")
    r = csub.add_parser("render", help="write random table scenes as PNG (+ truth JSON)")
    r.add_argument("outdir", type=Path)
    r.add_argument("--deck", required=True, choices=DECKS)
    r.add_argument("--scenes", type=int, default=5)
    r.add_argument("--seed", type=int, default=0, help="first scene seed")
    r.set_defaults(func=run_render)


def _error(code: str, message: str) -> int:
    print(f"error [{code}]: {message}", file=sys.stderr)
    return 2


def run_recognize(args: argparse.Namespace) -> int:
    import cv2

    from devices.camera.recognizer import Recognizer

    recognizer = Recognizer(args.deck)
    results: list[dict[str, Any]] = []
    for path in args.images:
        frame = cv2.imread(path, cv2.IMREAD_COLOR)
        if frame is None:
            return _error("camera.unreadable_image", f"cannot read image {path!r}")
        detections = recognizer.recognize(frame)
        detections.sort(key=lambda d: (d.center[0], d.center[1]))
        results.append({
            "image": path,
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
