"""Train the card localiser (devices/camera/card_localiser.py) on the wide generator's tune
scenes and write it into the package as ONNX (devices/camera/weights/card_localiser.onnx).

    pip install -e '.[train]'
    nice -n 19 .venv/bin/python -m devices.camera.training.train_card_localiser \
        [--per-deck 750] [--first-seed 200000] [--epochs 8] [--data FILE.npz ...]
        [--head-kernel 1|3] [--out FILE.onnx]

Views come from tune seeds 200,000-299,999 only (apart from the benchmark's tune seeds 0-1,999
and from the held-out ones), all four decks; the last twentieth of them is held back to
report how many cards the peaks find. Targets: every drawn card showing >= 40% of itself,
face up or down (a back is refused cheaply downstream), a Gaussian at its centre; cards
showing less are left out of the loss near their centre. Why torch only here: the studio
runs the small network with onnxruntime.

The shipped weights: the defaults (3,000 views from seeds 200,000-200,749, ~10 minutes with
two processes on a busy 2-core machine; 8 epochs of 112 x 192 crops, 10 s to 2.5 minutes
each as the machine was busy), validation 406/434 cards found.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from devices.camera.card_localiser import (
    INPUT_H,
    INPUT_W,
    STRIDE,
    VIEW_PER_INPUT,
    WEIGHTS,
    network_input,
    peaks,
)
from devices.camera.onnx_writer import Graph

MIN_VISIBLE = 0.4  # a card showing this much of itself is a target
SIGMA = 0.8  # the centre's Gaussian, in output cells (8 view pixels)
OUT_H, OUT_W = INPUT_H // STRIDE, INPUT_W // STRIDE
WIDTHS = (8, 16, 24)  # channels at strides 2, 4 and 8


def build(head_kernel: int = 1, outputs: int = 5,
          fine: int = 0):  # type: ignore[no-untyped-def]
    """Strides 2 and 4 (3x3 convs), then at stride 8 a 3x3 conv and two dilated ones (the
    receptive field spans a card and its neighbours), brought back to stride 4 (a 2x2
    transposed conv) and added to the stride-4 features; two 1x1 convs give the five
    outputs: ~30 M multiply-adds per view. (A 3x3 first head conv, ~40 M, ~0.5 ms more a
    view, named 84 cards more on tune seeds 0-199 and 1000-1199 where this names 82.)
    With `fine` channels, the cover mask's (cover_mask.py): brought on up to stride 2 and
    added to the stride-2 features, a 3x3 conv of `fine` channels there, `outputs` outputs
    per stride-2 cell."""
    import torch
    from torch import nn

    a, b, c = WIDTHS

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.s2 = nn.Conv2d(3, a, 3, 2, 1)
            self.s4 = nn.Conv2d(a, b, 3, 2, 1)
            self.s8 = nn.Conv2d(b, c, 3, 2, 1)
            self.d2 = nn.Conv2d(c, c, 3, 1, 2, dilation=2)
            self.d4 = nn.Conv2d(c, c, 3, 1, 4, dilation=4)
            self.up = nn.ConvTranspose2d(c, b, 2, 2)
            if fine:
                self.up2 = nn.ConvTranspose2d(b, a, 2, 2)
                self.head = nn.Conv2d(a, fine, 3, 1, 1)
            else:
                self.head = nn.Conv2d(b, b, head_kernel, 1, head_kernel // 2)
            self.out = nn.Conv2d(fine or b, outputs, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            r = torch.relu
            e = r(self.s2(x))
            f = r(self.s4(e))
            g = r(self.d4(r(self.d2(r(self.s8(f))))))
            h = r(self.up(g) + f)
            if fine:
                h = r(self.up2(h) + e)
            return self.out(r(self.head(h)))

    return Net()


def to_onnx(net) -> bytes:  # type: ignore[no-untyped-def]
    """The network as ONNX bytes (onnx_writer: no onnx package needed)."""

    def wb(m) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
        return m.weight.detach().numpy(), m.bias.detach().numpy()

    def up(y: str, m, skip: str) -> str:  # type: ignore[no-untyped-def]
        return g.node("Relu", [g.node("Add", [g.conv(y, *wb(m), stride=2, transpose=True),
                                              skip])])

    g = Graph((1, 3, INPUT_H, INPUT_W))
    e = g.node("Relu", [g.conv("input", *wb(net.s2), stride=2)])
    f = g.node("Relu", [g.conv(e, *wb(net.s4), stride=2)])
    y = g.node("Relu", [g.conv(f, *wb(net.s8), stride=2)])
    y = g.node("Relu", [g.conv(y, *wb(net.d2), dilation=2)])
    y = g.node("Relu", [g.conv(y, *wb(net.d4), dilation=4)])
    y = up(y, net.up, f)
    stride = STRIDE
    if hasattr(net, "up2"):  # built `fine`
        y, stride = up(y, net.up2, e), STRIDE // 2
    y = g.node("Relu", [g.conv(y, *wb(net.head))])
    out = g.conv(y, *wb(net.out))
    return g.encode(out, (1, net.out.out_channels, INPUT_H // stride, INPUT_W // stride))


def targets(cards: np.ndarray, flip_x: bool = False, flip_y: bool = False,
            picture: tuple[int, int] = (370, 220),
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat (OUT_H, OUT_W) target, loss weight of the heat, and the regression targets
    (4, OUT_H, OUT_W: cos 2a, sin 2a, offset x, y) with their mask (NaN where none), for one
    view's cards (rows as localiser_data.scene_sample), optionally mirrored within the
    `picture` (the halved view's width and height, input pixels)."""
    cell = STRIDE * VIEW_PER_INPUT
    heat = np.zeros((OUT_H, OUT_W), np.float32)
    weight = np.ones((OUT_H, OUT_W), np.float32)
    reg = np.full((4, OUT_H, OUT_W), np.nan, np.float32)
    best = np.zeros((OUT_H, OUT_W), np.float32)
    gy, gx = np.mgrid[0:OUT_H, 0:OUT_W].astype(np.float32) + 0.5
    view_w, view_h = (s * VIEW_PER_INPUT for s in picture)
    for x, y, angle, visible, _ in cards:
        # the picture mirrored: view pixel i (its centre at i) goes to size - 1 - i
        if flip_x:
            x, angle = view_w - 1 - x, np.pi - angle
        if flip_y:
            y, angle = view_h - 1 - y, -angle
        cx, cy = x / cell, y / cell
        # the peak (1.0, the one positive) on the cell holding the centre; the offset says
        # where in it
        px, py = np.floor(cx) + 0.5, np.floor(cy) + 0.5
        g = np.exp(-((gx - px) ** 2 + (gy - py) ** 2) / (2 * SIGMA ** 2)).astype(np.float32)
        if visible < MIN_VISIBLE:
            weight[g > 0.1] = 0.0  # neither a card to find nor a place without one
            continue
        heat = np.maximum(heat, g)
        near = (g > 0.3) & (g > best)
        best[near] = g[near]
        reg[0][near], reg[1][near] = np.cos(2 * angle), np.sin(2 * angle)
        reg[2][near], reg[3][near] = (cx - gx)[near], (cy - gy)[near]
    weight[heat > 0.1] = 1.0
    return heat, weight, reg


def _mirror(image: np.ndarray, flip_x: bool, flip_y: bool) -> np.ndarray:
    """The halved view mirrored as the targets are."""
    out = image
    if flip_x:
        out = out[:, ::-1]
    if flip_y:
        out = out[::-1]
    return np.ascontiguousarray(out)


def load(files: list[str]) -> tuple[np.ndarray, list[np.ndarray]]:
    images, cards = [], []
    for f in files:
        with np.load(f) as d:
            images.append(d["images"])
            starts = np.concatenate(([0], np.cumsum(d["counts"])))
            cards += [d["cards"][starts[i]:starts[i + 1]] for i in range(len(d["counts"]))]
    return np.concatenate(images), cards


CROP_H, CROP_W = 112, 192  # training crops (input pixels; multiples of 8 keep the grid)


def batch(images: np.ndarray, cards: list[np.ndarray], idx: np.ndarray,
          rng: np.random.Generator | None) -> tuple[np.ndarray, ...]:
    """Inputs and targets of these views; with `rng`, mirrored at random and cropped to
    CROP_H x CROP_W around a random card (a quarter of the compute of the whole view)."""
    xs, hs, ws, rs = [], [], [], []
    for i in idx:
        fx = bool(rng is not None and rng.random() < 0.5)
        fy = bool(rng is not None and rng.random() < 0.5)
        x = network_input(images[i])[0]
        # the picture (370 x 220) sits in the top-left of the input; mirroring within the
        # picture keeps it there
        h, w = images[i].shape[:2]
        x[:, :h, :w] = _mirror(x[:, :h, :w].transpose(1, 2, 0), fx, fy).transpose(2, 0, 1)
        heat, weight, reg = targets(cards[i], fx, fy, (w, h))
        if rng is not None:
            ys, xs_ = np.nonzero(heat >= 0.99)
            if len(ys):
                k = int(rng.integers(len(ys)))
                cy, cx = ys[k] * STRIDE, xs_[k] * STRIDE
            else:
                cy, cx = INPUT_H // 2, INPUT_W // 2
            y0 = int(np.clip(cy - rng.uniform(24, CROP_H - 24), 0, INPUT_H - CROP_H)) // 8 * 8
            x0 = int(np.clip(cx - rng.uniform(24, CROP_W - 24), 0, INPUT_W - CROP_W)) // 8 * 8
            x = x[:, y0:y0 + CROP_H, x0:x0 + CROP_W]
            c0, r0 = x0 // STRIDE, y0 // STRIDE
            cut = (slice(r0, r0 + CROP_H // STRIDE), slice(c0, c0 + CROP_W // STRIDE))
            heat, weight, reg = heat[cut], weight[cut], reg[(slice(None), *cut)]
        xs.append(x)
        hs.append(heat)
        ws.append(weight)
        rs.append(reg)
    return np.stack(xs), np.stack(hs), np.stack(ws), np.stack(rs)


def loss_fn(out, heat, weight, reg):  # type: ignore[no-untyped-def]
    """CenterNet's focal loss on the heat (per view, over its cards), L1 on the axis and
    the offset where they are defined. (The axis weighted double gave no closer axis: 5.7
    against 5.9 degrees median on the validation views, and found fewer cards.)"""
    import torch

    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat >= 0.99
    pos_loss = -(torch.log(p) * (1 - p) ** 2)[pos].sum()
    neg = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * weight)[~pos].sum()
    n = max(1, int(pos.sum()))
    mask = ~torch.isnan(reg)
    if not mask.any():
        return (pos_loss + neg) / n
    reg_loss = (out[:, 1:][mask] - reg[mask]).abs().mean()
    return (pos_loss + neg) / n + reg_loss


def evaluate(net, images: np.ndarray, cards: list[np.ndarray]) -> str:  # type: ignore[no-untyped-def]
    """Of the cards showing >= 45% (face up or down): found (a peak within 8 view pixels);
    peaks on no such card; the median angle error (degrees) of the found."""
    import torch

    net.eval()
    found = total = extra = 0
    errors = []
    with torch.no_grad():
        for i in range(len(images)):
            out = net(torch.from_numpy(network_input(images[i]))).numpy()[0]
            ps = peaks(out, 0.3, 16)
            real = [c for c in cards[i] if c[3] >= 0.45]
            total += len(real)
            used = set()
            for c in real:
                d = [np.hypot(p.x - c[0], p.y - c[1]) for p in ps]
                if d and min(d) < 8:
                    found += 1
                    j = int(np.argmin(d))
                    used.add(j)
                    e = abs((ps[j].angle - c[2] + np.pi / 2) % np.pi - np.pi / 2)
                    errors.append(np.degrees(e))
            extra += sum(1 for j, p in enumerate(ps) if j not in used and not any(
                np.hypot(p.x - c[0], p.y - c[1]) < 8 for c in cards[i]))
    net.train()
    med = float(np.median(errors)) if errors else float("nan")
    return (f"found {found}/{total} ({100 * found / max(1, total):.1f}%), "
            f"{extra} peaks on no card, angle error median {med:.1f} deg")


def fit(net, cut: int, step: Callable[[np.ndarray], tuple[Any, int]], epochs: int,  # type: ignore[no-untyped-def]
        rng: np.random.Generator, validate: Callable[[], str], out: Path | None,
        size: int = 16):
    """The view networks' training loop (the localiser's, and the cover mask's,
    train_cover_mask.py): AdamW at one cycle's rates, the first `cut` views shuffled each
    epoch, `size` a step; `step(indices)` gives the step's loss and how many views it took.
    After each epoch, the loss, `validate()` and the network written to `out` as ONNX."""
    import torch

    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((cut + size - 1) // size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-3, total_steps=steps,
                                                pct_start=0.1)
    for epoch in range(epochs):
        order = rng.permutation(cut)
        t0, total = time.time(), 0.0
        for i in range(0, cut, size):
            opt.zero_grad()
            loss, taken = step(order[i:i + size])
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * taken
        print(f"epoch {epoch + 1}: loss {total / cut:.4f} ({time.time() - t0:.0f} s); "
              f"validation {validate()}", flush=True)
        if out is not None:
            out.write_bytes(to_onnx(net))
    return net


def view_parser(doc: str, per_deck: int, first_seed: int, epochs: int, maker: str,
                out: Path) -> argparse.ArgumentParser:
    """The view trainers' arguments: the views to make (`maker`'s) or load, the epochs and
    the ONNX file, with these defaults."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--per-deck", type=int, default=per_deck)
    parser.add_argument("--first-seed", type=int, default=first_seed)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--data", nargs="*", help=f"views made earlier ({maker})")
    parser.add_argument("--out", type=Path, default=out)
    return parser


def views(args: argparse.Namespace, make: Callable[[int, int, Path], None],
          name: str) -> list[str]:
    """The view files to train on (`view_parser`'s arguments): --data, or else one made now
    (`make`) as NAME_SEED.npz."""
    if args.data:
        return list(args.data)
    path = Path(f"{name}_{args.first_seed}.npz")
    make(args.first_seed, args.per_deck, path)
    return [str(path)]


def train(images: np.ndarray, cards: list[np.ndarray], epochs: int, seed: int = 0,
          out: Path | None = None, head_kernel: int = 1):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(seed)
    cut = len(images) - max(1, len(images) // 20)
    net = build(head_kernel)
    with torch.no_grad():
        net.out.bias[0] = -2.2  # a card centre is rare: start the heat near its prior

    def step(idx: np.ndarray):  # type: ignore[no-untyped-def]
        x, h, w, r = (torch.from_numpy(a) for a in batch(images, cards, idx, rng))
        return loss_fn(net(x), h, w, r), len(x)

    return fit(net, cut, step, epochs, rng, lambda: evaluate(net, images[cut:], cards[cut:]),
               out)


def main() -> None:
    parser = view_parser(__doc__, 750, 200_000, 8, "localiser_data.make", WEIGHTS)
    parser.add_argument("--head-kernel", type=int, default=1, choices=(1, 3))
    args = parser.parse_args()
    from devices.camera.training.localiser_data import make

    images, cards = load(views(args, make, "localiser_views"))
    print(f"{len(images)} views, {sum(len(c) for c in cards)} cards", flush=True)
    train(images, cards, args.epochs, out=args.out, head_kernel=args.head_kernel)
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
