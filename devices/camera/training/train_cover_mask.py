"""Train the cover mask (devices/camera/cover_mask.py) on the wide generator's tune scenes
and write it into the package as ONNX (devices/camera/weights/cover_mask.onnx).

    pip install -e '.[train]'
    nice -n 19 .venv/bin/python -m devices.camera.training.train_cover_mask \
        [--per-deck 2000] [--first-seed 240000] [--epochs 12] [--data FILE.npz ...]
        [--out FILE.onnx]

Views come from tune seeds 240,000-259,999 (training/cover_data.py), all four decks; the
last twentieth is held back to report how much of the cover the mask finds and how much of
the cards it takes for cover (what it must not do: a card's pixels blanked are evidence
lost). Why torch only here: the studio runs the small network with onnxruntime.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from devices.camera.card_localiser import INPUT_H, INPUT_W, network_input
from devices.camera.cover_mask import WEIGHTS, mask_from_logits
from devices.camera.training.train_card_localiser import build, fit, view_parser, views

STRIDE = 2  # input pixels per output cell: a hand's edge is placed within 4 view pixels
OUT_H, OUT_W = INPUT_H // STRIDE, INPUT_W // STRIDE
# The network: the card localiser's (train_card_localiser.build: strides 2 to 8, two dilated
# convs, back to stride 4) taken one step further up, to stride 2, where the stride-2
# features are added, then a 3x3 conv of FINE_WIDTH channels and the one output (~45 M
# multiply-adds a view). The localiser's own stride-4 head, tried first: its edge a cell of
# 8 view pixels coarse, the mask spilt onto the cards beside the hand, and at 0.5 it refused
# Piacentine cards there (tune 78,200-78,499).
FINE_WIDTH = 8

POS_WEIGHT = 2.0  # the cover is rare (a few per cent of a view with a hand): weigh it up


def load(files: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    images, covers, cards = [], [], []
    for f in files:
        with np.load(f) as d:
            images.append(d["images"])
            covers.append(d["covers"])
            cards.append(d["cards"])
    return np.concatenate(images), np.concatenate(covers), np.concatenate(cards)


def cell_target(cover: np.ndarray) -> np.ndarray:
    """The cover's share of each output cell (OUT_H x OUT_W, 0..1) from its share of each
    input pixel (uint8 0-255, the halved view's size)."""
    full = np.zeros((INPUT_H, INPUT_W), np.float32)
    h, w = cover.shape
    full[:h, :w] = cover / 255.0
    return full.reshape(OUT_H, STRIDE, OUT_W, STRIDE).mean(axis=(1, 3))


def batch(images: np.ndarray, covers: np.ndarray, idx: np.ndarray,
          rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and cell targets of these views, mirrored at random with `rng`."""
    xs, ts = [], []
    for i in idx:
        image, cover = images[i], covers[i]
        if rng is not None and rng.random() < 0.5:
            image, cover = image[:, ::-1], cover[:, ::-1]
        if rng is not None and rng.random() < 0.5:
            image, cover = image[::-1], cover[::-1]
        xs.append(network_input(np.ascontiguousarray(image))[0])
        ts.append(cell_target(np.ascontiguousarray(cover)))
    return np.stack(xs), np.stack(ts)


def evaluate(net, images: np.ndarray, covers: np.ndarray,  # type: ignore[no-untyped-def]
             cards: np.ndarray) -> str:
    """At the halved view's pixels (cover_mask.mask_from_logits, as CoverMask reads them),
    at 0.5: the share of covered pixels found, of card pixels flagged, of felt flagged."""
    import torch

    net.eval()
    found = covered = on_cards = card_px = on_felt = felt_px = 0
    with torch.no_grad():
        for i in range(len(images)):
            z = net(torch.from_numpy(network_input(images[i]))).numpy()[0, 0]
            up = mask_from_logits(z, STRIDE, covers[i].shape, 0.5)
            truth = covers[i] > 127
            found += int((up & truth).sum())
            covered += int(truth.sum())
            on_cards += int((up & cards[i]).sum())
            card_px += int(cards[i].sum())
            felt = ~truth & ~cards[i]
            on_felt += int((up & felt).sum())
            felt_px += int(felt.sum())
    net.train()
    return (f"cover found {100 * found / max(1, covered):.1f}% of {covered} px, card pixels "
            f"flagged {100 * on_cards / max(1, card_px):.2f}%, felt flagged "
            f"{100 * on_felt / max(1, felt_px):.2f}%")


def train(images: np.ndarray, covers: np.ndarray, cards: np.ndarray, epochs: int,
          seed: int = 0, out: Path | None = None):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(seed)
    cut = len(images) - max(1, len(images) // 20)
    net = build(outputs=1, fine=FINE_WIDTH)
    with torch.no_grad():
        net.out.bias[0] = -3.0  # cover is rare: start near its prior
    pos_weight = torch.tensor(POS_WEIGHT)

    def step(idx: np.ndarray):  # type: ignore[no-untyped-def]
        x, t = (torch.from_numpy(a) for a in batch(images, covers, idx, rng))
        return torch.nn.functional.binary_cross_entropy_with_logits(
            net(x)[:, 0], t, pos_weight=pos_weight), len(x)

    return fit(net, cut, step, epochs, rng,
               lambda: evaluate(net, images[cut:], covers[cut:], cards[cut:]), out)


def main() -> None:
    args = view_parser(__doc__, 2000, 240_000, 12, "cover_data.make", WEIGHTS).parse_args()
    from devices.camera.training.cover_data import make

    images, covers, cards = load(views(args, make, "cover_views"))
    print(f"{len(images)} views", flush=True)
    train(images, covers, cards, args.epochs, out=args.out)
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
