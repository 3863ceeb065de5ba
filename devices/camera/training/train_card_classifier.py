"""Train the card classifier of one art from the scans (via the wide generator's tune scenes)
and write its weights into the package (devices/camera/weights/), for numpy to run.

    pip install -e '.[train]'
    .venv/bin/python -m devices.camera.training.train_card_classifier --art french \
        [--scenes 1400] [--first-seed 100000] [--epochs 14] [--crops FILE.npz ...]

Crops come from tune seeds only (from --first-seed, default 100,000: apart from the seeds the
benchmark's tune split runs, 0 and up); the last tenth of them is held back to report the
validation accuracy. Why torch only here: the studio runs the small weights with numpy.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from devices.camera.card_classifier import CardClassifier, weights_path
from devices.camera.templates import BACK
from devices.camera.training.crops import OTHER, crops
from studio.cards import DeckArt, DeckKind

KINDS = {"napoletane": "italian40", "piacentine": "italian40", "french": "french52"}


WIDTHS = (12, 24, 48)  # channels of the three conv layers: ~4 M multiply-adds per crop
HIDDEN = 64


def build(n_classes: int):  # type: ignore[no-untyped-def]
    """The network the numpy forward pass in card_classifier.py mirrors (60x40 in, three
    3x3 conv + ReLU + 2x2 max pool, 7x5 left, two dense layers)."""
    from torch import nn

    a, b, c = WIDTHS
    return nn.Sequential(
        nn.Conv2d(3, a, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c * 7 * 5, HIDDEN), nn.ReLU(), nn.Dropout(0.2),
        nn.Linear(HIDDEN, n_classes))


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


def train(images: np.ndarray, labels: list[str], epochs: int, seed: int = 0,
          out: Path | None = None) -> tuple[CardClassifier, float]:
    """Train on the first nine tenths, report accuracy on the rest; the weights as numpy
    (written to `out` after every epoch too, so a long run can be tried before it ends)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(seed)
    names = sorted(set(labels) - {BACK, OTHER}) + [BACK, OTHER]
    y = np.array([names.index(s) for s in labels], np.int64)
    x = images.astype(np.float32).transpose(0, 3, 1, 2)  # N, C, H, W
    cut = int(0.9 * len(x))
    net = build(len(names))
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * (cut // 128 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(cut)
        t0, total = time.time(), 0.0
        for i in range(0, cut, 128):
            idx = order[i:i + 128]
            xb = x[idx].copy()
            turn = rng.random(len(idx)) < 0.5  # either way up: the same card
            xb[turn] = xb[turn][:, :, ::-1, ::-1]
            for k in np.nonzero(rng.random(len(idx)) < 0.15)[0]:
                xb[k] = _erase_edge(xb[k], rng)
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
            save(_to_numpy(net, names), out)
    return _to_numpy(net, names), _accuracy(net, x[cut:], y[cut:])


def _accuracy(net, x: np.ndarray, y: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    with torch.no_grad():
        pred = np.concatenate([net(torch.from_numpy(x[i:i + 512])).argmax(1).numpy()
                               for i in range(0, len(x), 512)])
    return float((pred == y).mean()) if len(y) else 0.0


def _to_numpy(net, names: list[str]) -> CardClassifier:  # type: ignore[no-untyped-def]
    from torch import nn

    convs = [(m.weight.detach().numpy().reshape(m.out_channels, -1), m.bias.detach().numpy())
             for m in net if isinstance(m, nn.Conv2d)]
    dense = [(m.weight.detach().numpy(), m.bias.detach().numpy())
             for m in net if isinstance(m, nn.Linear)]
    return CardClassifier(tuple(names), tuple(convs), tuple(dense))


def save(clf: CardClassifier, path: Path) -> None:
    """float16 weights: a few hundred kB in the package, accuracy unchanged."""
    arrays: dict[str, np.ndarray] = {"labels": np.array(clf.labels)}
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
    args = parser.parse_args()
    if args.crops:
        parts = [np.load(f) for f in args.crops]
        images = np.concatenate([p["x"] for p in parts])
        labels = [str(s) for p in parts for s in p["y"]]
    else:
        seeds = range(args.first_seed, args.first_seed + args.scenes)
        images, labels = crops(DeckArt(args.art), DeckKind(KINDS[args.art]), seeds)
    print(f"{len(labels)} crops, {len(set(labels))} labels", flush=True)
    clf, acc = train(images, labels, args.epochs, out=weights_path(args.art))
    save(clf, weights_path(args.art))
    print(f"validation accuracy {100 * acc:.2f}%; written {weights_path(args.art)}")


if __name__ == "__main__":
    main()
