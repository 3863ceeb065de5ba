"""A frame counter drawn into the picture as a row of black/white blocks.

Why: to measure capture-to-decode latency (and to check that receivers see the frames we
sent, in order) we need the frame's identity to survive H.264 compression. Big flat blocks
do; a side table keyed by RTP timestamp would not, because every viewer's RTP timestamps
start at a random origin.
"""

from __future__ import annotations

import numpy as np

BITS = 24  # 2**24 frames = 7.7 days at 25 fps; the counter wraps after that
BLOCK = 16  # pixels per bit, a multiple of the 16x16 macroblock so each bit is one block
STAMP_HEIGHT = BLOCK
STAMP_WIDTH = BLOCK * (BITS + 2)  # a white start block and a black end block frame the bits


def stamp_index(image: np.ndarray, index: int) -> None:
    """Draw `index` (mod 2**24) into the top-left corner of a BGR or grey image, in place."""
    value = index % (1 << BITS)
    row = image[:STAMP_HEIGHT, :STAMP_WIDTH]
    row[:, :BLOCK] = 255
    for bit in range(BITS):
        x = BLOCK * (bit + 1)
        row[:, x : x + BLOCK] = 255 if (value >> (BITS - 1 - bit)) & 1 else 0
    row[:, BLOCK * (BITS + 1) :] = 0


def read_index(luma: np.ndarray) -> int | None:
    """Read the counter back from a decoded picture's luma plane (or a grey image).

    Returns None when the start/end markers are not where they should be (no stamp)."""
    if luma.ndim == 3:
        luma = luma.mean(axis=2)
    if luma.shape[0] < STAMP_HEIGHT or luma.shape[1] < STAMP_WIDTH:
        return None
    # sample the centre of each block: edges blur under compression, centres do not
    c = BLOCK // 2
    centres = luma[c - 2 : c + 2, :STAMP_WIDTH].astype(np.float32)
    means = [float(centres[:, b * BLOCK + c - 2 : b * BLOCK + c + 2].mean()) for b in
             range(BITS + 2)]
    if means[0] < 160 or means[-1] > 96:
        return None
    value = 0
    for m in means[1:-1]:
        value = (value << 1) | (1 if m >= 128 else 0)
    return value
