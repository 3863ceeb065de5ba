"""How much of what shows of a card tells it from every other card of its deck: the pixels of
its visible part on which another card, either way up, differs visibly on the clean scans
(`telling_pixels`), and how much of that a frame shows to be its own print (`marks_seen`). A
card told apart by no pixel cannot be named by any method from what shows (a Napoletane 7 of
cups whose middle cup lies under the next card is a 6 there). Used by the recogniser, on what
it sees of a covered card (Options.telling_check: such a card is not named), by
tests/bench/nameable_ceiling.py on its truly visible part (wide_scenes.visible_mask: the
ceiling of what can be named) and by the card classifier's training crops
(training/crops.py: such a crop is labelled no card).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from devices.camera.render import prepared_card
from studio.cards import DeckArt, DeckKind, deck

CEIL_W, CEIL_H = 80, 120  # about the size a card has in a 1280x720 frame
# a difference a camera keeps (of 1.0) after a blur like its own: at these, the Napoletane 6
# and 7 of cups are alike on their top and bottom quarters, the 7's middle cup tells them
BLUR = 2.0
DIFF = 0.3
SHIFT = 2  # pixels: how far apart two scans may draw the same thing
# the face grid's corners (TL, TR, BR, BL), for warps of a card's quad onto it
FACE_CORNERS = np.float32([[0, 0], [CEIL_W, 0], [CEIL_W, CEIL_H], [0, CEIL_H]])
INK = 0.2  # a face's print: this far (of 1.0) from its paper's colour (the face's median)
NEAR = 0.15  # a frame's pixel shows a face's pixel when this near it (either face fitted)...
CLOSER = 0.02  # ... and this much nearer it than the other face's
SEEN_BLUR = 1.5  # the frame's card is blurred this much more (a camera blurred it some)


@cache
def faces(art: DeckArt, kind: DeckKind) -> tuple[list[str], np.ndarray]:
    """Every card of the deck, its face at the ceiling's size (blurred, 0..1), upright and
    turned: (codes, array [card, turn, H, W, 3])."""
    codes, out = [], []
    for card in deck(kind):
        face = prepared_card(card.code, art)[:, :, :3]
        small = cv2.resize(face, (CEIL_W, CEIL_H), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small.astype(np.float32) / 255.0, (0, 0), BLUR)
        codes.append(card.code)
        out.append(np.stack([small, small[::-1, ::-1]]))
    return codes, np.stack(out)


@cache
def _padded(art: DeckArt, kind: DeckKind) -> np.ndarray:
    """Every face of `faces` as bytes, wrapped SHIFT pixels round each side for its shifts,
    with a fourth channel of zeros so that a pixel's four bytes read as one word:
    [card * turn, H + 2 SHIFT, W + 2 SHIFT, 4] (uint8)."""
    _, all_faces = faces(art, kind)
    n, turns, h, w, _ = all_faces.shape
    wrapped = np.pad(all_faces.reshape(n * turns, h, w, 3),
                     ((0, 0), (SHIFT, SHIFT), (SHIFT, SHIFT), (0, 0)), mode="wrap")
    out = np.zeros(wrapped.shape[:-1] + (4,), np.uint8)
    out[..., :3] = np.round(wrapped * 255.0)
    return out


@cache
def telling_map(code: str, art: DeckArt, kind: DeckKind) -> np.ndarray:
    """Where each card of the deck, either way up, differs visibly from `code`'s face: no
    channel within DIFF of it at any shift within SHIFT pixels (two scans of the same pip lie
    a pixel or two apart, which no camera tells from no difference). [card, turn, H, W]
    (bool). In bytes, so that the recogniser can ask it of a card it names (about 30 ms a
    card, once): a difference of exactly DIFF may round either way."""
    codes, all_faces = faces(art, kind)
    n, turns, h, w, _ = all_faces.shape
    padded = _padded(art, kind)
    own = padded[codes.index(code) * turns, SHIFT:SHIFT + h, SHIFT:SHIFT + w]
    own = np.ascontiguousarray(np.broadcast_to(own, (n * turns, h, w, 4))).reshape(-1, w * 4)
    limit = int(DIFF * 255.0)
    differs = np.ones((n * turns, h, w), bool)
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            moved = np.ascontiguousarray(padded[:, SHIFT - dy:SHIFT - dy + h,
                                                SHIFT - dx:SHIFT - dx + w])
            far = cv2.absdiff(moved.reshape(-1, w * 4), own)
            cv2.threshold(far, limit, 255, cv2.THRESH_BINARY, dst=far)
            differs &= far.reshape(n * turns, h, w, 4).view(np.uint32)[..., 0] != 0
    return differs.reshape(n, turns, h, w)


def telling_pixels(code: str, mask: np.ndarray, art: DeckArt, kind: DeckKind) -> int:
    """The fewest of the `mask`'s pixels on which another card (either way up) differs from
    `code`."""
    codes, _ = faces(art, kind)
    i = codes.index(code)
    counts = (telling_map(code, art, kind) & mask).reshape(len(codes), 2, -1).sum(axis=-1)
    counts[i] = np.iinfo(counts.dtype).max  # itself, either way up
    return int(counts.min())


@cache
def ink(art: DeckArt, kind: DeckKind) -> np.ndarray:
    """Where each face of `faces` is print, not paper: [card, turn, H, W] (bool)."""
    _, all_faces = faces(art, kind)
    paper = np.median(all_faces.reshape(all_faces.shape[:2] + (-1, 3)), axis=2)
    return np.linalg.norm(all_faces - paper[:, :, None, None, :], axis=-1) > INK


def _fitted(seen: np.ndarray, face: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """`face` (..., H, W, 3) in the frame's colours: per face and channel, the gain (at least
    0.05) and offset that fit it to `seen` on the `mask`'s pixels (least squares)."""
    x, y = face[..., mask, :], seen[mask]  # (..., n, 3), (n, 3)
    xm, ym = x.mean(axis=-2, keepdims=True), y.mean(axis=0)
    gain = ((x - xm) * (y - ym)).mean(axis=-2, keepdims=True) / \
        np.maximum(x.var(axis=-2, keepdims=True), 1e-4)
    gain = np.maximum(gain, 0.05)
    return gain[..., None, :] * face + (ym - gain * xm)[..., None, :]


def marks_seen(code: str, seen: np.ndarray, mask: np.ndarray, art: DeckArt,
               kind: DeckKind) -> int:
    """The fewest pixels, over every other card either way up, where `code`'s print differs
    visibly from that card (`telling_map`), the `mask` lets it show, and `seen` (the frame's
    card on `faces`' grid, 0..1, `code` upright) shows it: within NEAR of `code`'s face and
    CLOSER to it than to the other card's, each face fitted to the frame's colours on the
    mask. Why: a card under another card's blank paper looks like a card without the print
    that lies there (a 7 of cups whose middle cup lies under a card is a 6 of cups there);
    what tells a card must be seen, not missed. A 6 of cups has no print a 7 lacks, so it is
    never told from a 7 by this: 0."""
    codes, all_faces = faces(art, kind)
    i = codes.index(code)
    if not mask.any():
        return 0
    seen = cv2.GaussianBlur(seen.astype(np.float32), (0, 0), SEEN_BLUR)
    fitted = _fitted(seen, all_faces, mask)  # [card, turn, H, W, 3]
    far = np.linalg.norm(fitted - seen, axis=-1)  # [card, turn, H, W]
    own = far[i, 0]
    shows = mask & ink(art, kind)[i, 0] & (own < NEAR)
    counts = (telling_map(code, art, kind) & shows & (own < far - CLOSER)).reshape(
        len(codes), 2, -1).sum(axis=-1)
    counts[i] = np.iinfo(counts.dtype).max  # itself, either way up
    return int(counts.min())
