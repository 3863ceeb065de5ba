"""Train the card classifier of one art from the scans (via the wide generator's tune scenes)
and write its weights into the package (devices/camera/weights/), for numpy to run.

    pip install -e '.[train]'
    .venv/bin/python -m devices.camera.training.train_card_classifier --art french \
        [--scenes 1400] [--first-seed 100000] [--epochs 14] [--crops FILE.npz ...] \
        [--save-crops FILE.npz] [--cover 0.3] [--cover-depth 0.55] [--covered-jitters 12]
        [--blank 0.3] [--ambiguous-below 10] [--linear-light] [--init WEIGHTS.npz --max-lr 1.5e-3]
        [--out W] [--widths 12 24 48] [--hidden 64] [--threads 2]

(--epochs 0 with --save-crops only cuts the crops, to train later on several ranges at once;
--cover: the share of training crops covered by part of another, as a card lying over it;
--cover-depth: the most such a cover hides; --covered-jitters: crops cut per card showing under
70% (the half-hidden cards of fans and cascades, few in a scene, most of the misses);
--blank: the share blanked as the recogniser blanks what lies on cards named (blank_covers.py);
--linear-light: every odd seed's scene drawn in linear light (wide_scenes' `linear_light`);
--ambiguous-below: a covered card told apart from another by fewer pixels of what shows is
labelled OTHER (crops.ambiguous_cards);
--init: a fine-tune of weights trained before, a few epochs instead of a whole run;
--widths, --hidden: the network's size, the conv layers' channels and the dense layer's.)

Crops come from tune seeds only (from --first-seed, default 100,000: apart from the seeds the
benchmark's tune split runs, 0 and up); the last tenth of them is held back to report the
validation accuracy. Why torch only here: the studio runs the small weights with numpy.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from devices.camera.card_classifier import CardClassifier, weights_path
from devices.camera.templates import BACK, TemplateSet, template_set
from devices.camera.training.blank_covers import blank_mask, orientations, telling_masks
from devices.camera.training.crops import OTHER, crops
from studio.cards import DeckArt, DeckKind

KINDS = {"napoletane": "italian40", "piacentine": "italian40", "french": "french52"}


WIDTHS = (12, 24, 48)  # channels of the three conv layers: ~4 M multiply-adds per crop
HIDDEN = 64


def build(n_classes: int, widths: tuple[int, int, int] = WIDTHS, hidden: int = HIDDEN,
          left: tuple[int, int] = (7, 5)):  # type: ignore[no-untyped-def]
    """The network the numpy forward pass in card_classifier.py mirrors (60x40 in, three
    3x3 conv + ReLU + 2x2 max pool, `left` (7x5) rows and columns left, two dense layers)."""
    from torch import nn

    a, b, c = widths
    return nn.Sequential(
        nn.Conv2d(3, a, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c * left[0] * left[1], hidden), nn.ReLU(), nn.Dropout(0.2),
        nn.Linear(hidden, n_classes))


def _erase_edge(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A band from one edge filled with a flat random value: covers the generator may not
    draw (a sleeve, a chip's edge)."""
    x = x.copy()
    h, w = x.shape[1:3]
    side = int(rng.integers(4))
    depth = float(rng.uniform(0.1, 0.35))
    value = rng.normal(0, 1, 3).astype(np.float32)[:, None, None]
    if side == 0:
        x[:, :int(h * depth)] = value
    elif side == 1:
        x[:, h - int(h * depth):] = value
    elif side == 2:
        x[:, :, :int(w * depth)] = value
    else:
        x[:, :, w - int(w * depth):] = value
    return x


def _cover_with_card(x: np.ndarray, other: np.ndarray, rng: np.random.Generator,
                     deepest: float = 0.55) -> np.ndarray:
    """A band from one edge, or a corner, replaced by the same part of another crop: a card
    lying over this one, as in a fan or a cascade (up to ~`deepest` hidden; the crops' own
    covers stop at 60%). Why: in fans and cascades the cover is another card's face, not a
    flat fill, and the part that shows must be named from what shows of it alone."""
    x = x.copy()
    h, w = x.shape[1:3]
    if rng.random() < 0.5:  # a band from one side
        side = int(rng.integers(4))
        depth = float(rng.uniform(0.15, deepest))
        rows = slice(0, int(h * depth)) if side == 0 else slice(h - int(h * depth), h)
        cols = slice(0, int(w * depth)) if side == 2 else slice(w - int(w * depth), w)
        if side < 2:
            x[:, rows] = other[:, rows]
        else:
            x[:, :, cols] = other[:, :, cols]
    else:  # a corner: a cascade's next card
        most = 0.75 * float(np.sqrt(deepest / 0.55))  # a corner hides up to ~`deepest` too
        dh, dw = int(h * rng.uniform(0.3, most)), int(w * rng.uniform(0.3, most))
        r0 = 0 if rng.random() < 0.5 else h - dh
        c0 = 0 if rng.random() < 0.5 else w - dw
        x[:, r0:r0 + dh, c0:c0 + dw] = other[:, r0:r0 + dh, c0:c0 + dw]
    return x


def _cover_with_blob(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A rounded object reaching in from one edge (two to five overlapping ellipses, one
    colour, shaded across): a hand, a sleeve or a chip stack over the card, drawn apart from
    the generator's own hand so the classifier learns "something lies over part of it", not
    the generator's hand. Covers about 15-65% of the crop."""
    x = x.copy()
    h, w = x.shape[1:3]
    mask = np.zeros((h * 4, w * 4), np.uint8)  # drawn 4x, then averaged down: soft edges
    side = int(rng.integers(4))
    depth = float(rng.uniform(0.25, 0.75))
    along = float(rng.uniform(0.2, 0.8))
    if side < 2:  # from the top or the bottom
        cx, cy = along * w * 4, (0 if side == 0 else h * 4)
        reach = depth * h * 4
    else:
        cx, cy = (0 if side == 2 else w * 4), along * h * 4
        reach = depth * w * 4
    for _ in range(int(rng.integers(2, 6))):
        centre = (int(cx + rng.normal(0, 0.25) * w * 4), int(cy + rng.normal(0, 0.25) * h * 4))
        axes = (int(reach * rng.uniform(0.4, 1.0)), int(reach * rng.uniform(0.6, 1.2)))
        cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
    alpha = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    if not (0.1 < alpha.mean() < 0.7):
        return x  # nothing much drawn, or all of it: leave the crop
    colour = rng.normal(0, 1, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 1 + 0.3 * rng.normal() * ((xx / w - 0.5) + (yy / h - 0.5))  # lit from one side
    fill = colour[:, None, None] * shade[None] + rng.normal(0, 0.05, (3, h, w))
    return (x * (1 - alpha[None]) + fill * alpha[None]).astype(x.dtype)


def _load_into(net, clf: CardClassifier) -> None:  # type: ignore[no-untyped-def]
    """Start from weights trained before (the same labels and widths): a fine-tune on more
    crops costs a few epochs, not a whole run."""
    import torch
    from torch import nn

    convs = [m for m in net if isinstance(m, nn.Conv2d)]
    dense = [m for m in net if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for m, (w, b) in zip(convs + dense, clf.convs + clf.dense, strict=True):
            m.weight.copy_(torch.from_numpy(w.reshape(m.weight.shape)))
            m.bias.copy_(torch.from_numpy(b))


def train(images: np.ndarray, labels: list[str], epochs: int, seed: int = 0,
          out: Path | None = None, cover: float = 0.0, init: CardClassifier | None = None,
          max_lr: float = 3e-3, widths: tuple[int, int, int] = WIDTHS,
          hidden: int = HIDDEN, threads: int = 2, blank: float = 0.0,
          templates: TemplateSet | None = None,
          cover_depth: float = 0.55, blob: float = 0.0) -> tuple[CardClassifier, float]:
    """Train on the first nine tenths, report accuracy on the rest; the weights as numpy
    (written to `out` after every epoch too, so a long run can be tried before it ends).
    `cover`: the share of training crops covered by part of another crop (_cover_with_card,
    hiding up to `cover_depth`); `blob`: the share covered by a rounded object from an edge
    (_cover_with_blob: a hand, a sleeve);
    `blank`: the share blanked as the recogniser blanks what lies on named cards (a third of
    those, of cards with a look-alike, where it hides what tells them apart: blank_covers.py;
    needs the deck's `templates`); `widths`, `hidden`: the network's size (the numpy side
    reads it off the weights); `threads`: torch's, 1 beside other work (two threads on a busy
    core ran 4x slower)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    names = sorted(set(labels) - {BACK, OTHER}) + [BACK, OTHER]
    net = build(len(names), widths, hidden)
    if init is not None:
        if list(init.labels) != names:
            raise ValueError("the weights to start from name other labels")
        _load_into(net, init)
    telling: dict[tuple[str, int], list[np.ndarray]] = {}
    ways = np.zeros(len(images), np.int8)
    if blank > 0:
        if templates is None:
            raise ValueError("blank covers need the deck's templates")
        telling = telling_masks(templates, rng)
        ways = orientations(images, labels, templates)

    def augment(xb: np.ndarray, idx: np.ndarray) -> np.ndarray:
        turn = rng.random(len(xb)) < 0.5  # either way up: the same card
        xb[turn] = xb[turn][:, :, ::-1, ::-1]
        for k in np.nonzero(rng.random(len(xb)) < 0.15)[0]:
            xb[k] = _erase_edge(xb[k], rng)
        for k in np.nonzero(rng.random(len(xb)) < cover)[0]:
            xb[k] = _cover_with_card(xb[k], xb[int(rng.integers(len(xb)))], rng, cover_depth)
        for k in np.nonzero(rng.random(len(xb)) < blob)[0]:
            xb[k] = _cover_with_blob(xb[k], rng)
        for k in np.nonzero(rng.random(len(xb)) < blank)[0]:
            masks = telling.get((labels[idx[k]], int(ways[idx[k]]) ^ int(turn[k])))
            if masks and rng.random() < 1 / 3:
                xb[k][:, masks[int(rng.integers(len(masks)))]] = 0.0
            else:
                xb[k][:, blank_mask(rng)] = 0.0
        return xb

    return fit(net, images, labels, names, epochs, rng, augment, max_lr, out, blanks=blank > 0)


def fit(net, images: np.ndarray, labels: list[str], names: list[str],  # type: ignore[no-untyped-def]
        epochs: int, rng: np.random.Generator,
        augment: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
        max_lr: float = 3e-3,
        out: Path | None = None, blanks: bool = False) -> tuple[CardClassifier, float]:
    """The training loop of the shipped small networks (this classifier, the index reader):
    AdamW with a one-cycle schedule, batches of 128 (`augment`ed: the crops, their indices),
    the last tenth held back for the validation figure printed after each epoch; the
    weights as numpy (`blanks`: trained on blanked covers, CardClassifier.blanks)."""
    import torch

    y = np.array([names.index(s) for s in labels], np.int64)
    x = images.astype(np.float32).transpose(0, 3, 1, 2)  # N, C, H, W
    cut = int(0.9 * len(x))
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * (cut // 128 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(cut)
        t0, total = time.time(), 0.0
        for i in range(0, cut, 128):
            idx = order[i:i + 128]
            xb = augment(x[idx].copy(), idx) if augment is not None else x[idx]
            opt.zero_grad()
            loss = loss_fn(net(torch.from_numpy(xb)), torch.from_numpy(y[idx]))
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        acc = _accuracy(net, x[cut:], y[cut:])
        print(f"epoch {epoch + 1}: loss {total / cut:.4f}, validation {100 * acc:.2f}% "
              f"({time.time() - t0:.0f} s)", flush=True)
        if out is not None:
            save(_to_numpy(net, names, blanks), out)
    return _to_numpy(net, names, blanks), _accuracy(net, x[cut:], y[cut:])


def _accuracy(net, x: np.ndarray, y: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    with torch.no_grad():
        pred = np.concatenate([net(torch.from_numpy(x[i:i + 512])).argmax(1).numpy()
                               for i in range(0, len(x), 512)])
    return float((pred == y).mean()) if len(y) else 0.0


def _to_numpy(net, names: list[str],  # type: ignore[no-untyped-def]
              blanks: bool = False) -> CardClassifier:
    from torch import nn

    convs = [(m.weight.detach().numpy().reshape(m.out_channels, -1), m.bias.detach().numpy())
             for m in net if isinstance(m, nn.Conv2d)]
    dense = [(m.weight.detach().numpy(), m.bias.detach().numpy())
             for m in net if isinstance(m, nn.Linear)]
    return CardClassifier(tuple(names), tuple(convs), tuple(dense), blanks)


def save(clf: CardClassifier, path: Path) -> None:
    """float16 weights: a few hundred kB in the package, accuracy unchanged."""
    arrays: dict[str, np.ndarray] = {"labels": np.array(clf.labels),
                                     "blanks": np.array(clf.blanks)}
    for i, (w, b) in enumerate(clf.convs):
        arrays[f"conv{i}_w"], arrays[f"conv{i}_b"] = w.astype(np.float16), b.astype(np.float16)
    for i, (w, b) in enumerate(clf.dense):
        arrays[f"dense{i}_w"], arrays[f"dense{i}_b"] = w.astype(np.float16), b.astype(np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--art", choices=sorted(KINDS), required=True)
    parser.add_argument("--scenes", type=int, default=1400)
    parser.add_argument("--first-seed", type=int, default=100_000)
    parser.add_argument("--epochs", type=int, default=14)
    parser.add_argument("--crops", nargs="*", help="crop files made earlier (x, y arrays)")
    parser.add_argument("--save-crops", type=Path, help="write the crops made here (x, y)")
    parser.add_argument("--cover", type=float, default=0.0,
                        help="share of crops covered by part of another (_cover_with_card)")
    parser.add_argument("--cover-depth", type=float, default=0.55,
                        help="the most a cover hides (share of the crop)")
    parser.add_argument("--blob", type=float, default=0.0,
                        help="share of crops covered by a rounded object from an edge")
    parser.add_argument("--covered-jitters", type=int, default=None,
                        help="crops per card showing under 70%% (4 as every card otherwise)")
    parser.add_argument("--straddles", type=int, default=0,
                        help="OTHER crops per card across its neighbours (crops._straddling)")
    parser.add_argument("--ambiguous-below", type=int, default=None,
                        help="label OTHER a covered card told apart by fewer pixels "
                             "(crops.ambiguous_cards)")
    parser.add_argument("--linear-light", action="store_true",
                        help="every odd seed's scene drawn in linear light (wide_scenes)")
    parser.add_argument("--blank", type=float, default=0.0,
                        help="share of crops blanked as the recogniser blanks named cards")
    parser.add_argument("--out", type=Path, help="weights file (default: the package's)")
    parser.add_argument("--init", type=Path, help="weights to start from (a fine-tune)")
    parser.add_argument("--max-lr", type=float, default=3e-3)
    parser.add_argument("--widths", type=int, nargs=3, default=WIDTHS,
                        help="channels of the three conv layers")
    parser.add_argument("--hidden", type=int, default=HIDDEN, help="the dense layer's size")
    parser.add_argument("--threads", type=int, default=2, help="torch's (1 beside other work)")
    args = parser.parse_args()
    out = args.out or weights_path(args.art)
    if args.crops:
        parts = [np.load(f) for f in args.crops]
        images = np.concatenate([p["x"] for p in parts])
        labels = [str(s) for p in parts for s in p["y"]]
    else:
        seeds = range(args.first_seed, args.first_seed + args.scenes)
        images, labels = crops(DeckArt(args.art), DeckKind(KINDS[args.art]), seeds,
                               covered_jitters=args.covered_jitters, straddles=args.straddles,
                               ambiguous_below=args.ambiguous_below,
                               linear_light=args.linear_light)
        if args.save_crops is not None:
            np.savez(args.save_crops, x=images, y=np.array(labels))
            print(f"crops written to {args.save_crops}", flush=True)
            if args.epochs == 0:
                return
    print(f"{len(labels)} crops, {len(set(labels))} labels", flush=True)
    init = CardClassifier.load(args.init) if args.init is not None else None
    clf, acc = train(images, labels, args.epochs, out=out, cover=args.cover, init=init,
                     max_lr=args.max_lr, widths=tuple(args.widths), hidden=args.hidden,
                     threads=args.threads, blank=args.blank,
                     templates=template_set(args.art, KINDS[args.art]) if args.blank else None,
                     cover_depth=args.cover_depth, blob=args.blob)
    save(clf, out)
    print(f"validation accuracy {100 * acc:.2f}%; written {out}")


if __name__ == "__main__":
    main()
