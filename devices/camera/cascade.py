"""Where the cards missing from a cascade or a fan lie, from the cards named in it.

A dealer lays a hand's cards at a regular step: a cascade shifts each card by the same
offset, a fan turns it by the same angle too. Two cards of one hand named along the same
axis (or nearly: a fan's) say where the cards between them lie (the gap split into equal
steps) and where the next ones would lie past either end (one step on). The middle cards
of a tight cascade show a strip each, and their outline's corners are short, noisy
segments a hypothesis misses by 15-50 pixels; here they are proposed from the hand's
geometry instead, and the judges decide as for any other hypothesis.

Cards are `Peak`s here, as the localiser's are (a centre and a long axis in view pixels);
a proposal's heat is 1, as a hint's is: it says nothing of how sure the proposal is.
"""

from __future__ import annotations

import numpy as np

from devices.camera.card_localiser import Peak, axis_turn


def _at(x: float, y: float, angle: float) -> Peak:
    """A proposed card (heat 1: see the module's docstring)."""
    return Peak(x, y, angle, 1.0)


def _mean_axis(a: float, b: float, t: float) -> float:
    """The axis a share `t` of the way from axis `a` to axis `b` (the shorter way round, an
    axis being the same turned half a turn)."""
    d = (b - a + np.pi / 2) % np.pi - np.pi / 2
    return a + t * d


def _between(c: Peak, a: Peak, b: Peak, card_w: float) -> bool:
    """Card `c` lies between `a` and `b` (within a third of a card width of the segment
    joining their centres, not at either end)."""
    ab = np.array([b.x - a.x, b.y - a.y])
    ac = np.array([c.x - a.x, c.y - a.y])
    t = float(ac @ ab / (ab @ ab))
    return 0.0 < t < 1.0 and float(np.linalg.norm(ac - t * ab)) < card_w / 3


def _pairs(laid: list[Peak], card_w: float, max_turn: float,
           max_gap: float) -> list[tuple[Peak, Peak, float]]:
    """Pairs of named cards that may be next to one another in a hand: axes at most
    `max_turn` apart, centres at most `max_gap` card widths apart, no named card between
    them; with their centres' distance."""
    out = []
    for i, a in enumerate(laid):
        for b in laid[i + 1:]:
            gap = float(np.hypot(b.x - a.x, b.y - a.y))
            if gap <= max_gap * card_w and axis_turn(a.angle, b.angle) <= max_turn and \
                    not any(_between(c, a, b, card_w) for c in laid if c is not a and c is not b):
                out.append((a, b, gap))
    return out


def cascade_proposals(laid: list[Peak], card_w: float, max_turn: float = np.radians(25.0),
                      max_gap: float = 4.5, min_step: float = 0.12,
                      most_split: int = 5) -> list[Peak]:
    """Cards proposed between and beyond each pair of named cards that may be of one hand
    (`_pairs`). Between: the gap split into 2 to `most_split` equal steps, or into as many
    as the steps of neighbouring named cards (pairs under a card width apart) fit in it,
    give or take one; no step under `min_step` card widths. Beyond: one step past either
    card of a neighbouring pair. Proposals may repeat one another; the caller drops those
    near a card named."""
    pairs = _pairs(laid, card_w, max_turn, max_gap)
    steps = [gap for _, _, gap in pairs if min_step * card_w <= gap < card_w]
    out: list[Peak] = []
    for a, b, gap in pairs:
        counts = set(range(2, most_split + 1)) | {round(gap / s) + d for s in steps
                                                  for d in (-1, 0, 1)}
        for n in sorted(c for c in counts if c >= 2 and gap / c >= min_step * card_w):
            out += [_at(a.x + (b.x - a.x) * k / n, a.y + (b.y - a.y) * k / n,
                         _mean_axis(a.angle, b.angle, k / n)) for k in range(1, n)]
        if min_step * card_w <= gap < card_w:
            out += [_at(2 * b.x - a.x, 2 * b.y - a.y, _mean_axis(a.angle, b.angle, 2.0)),
                    _at(2 * a.x - b.x, 2 * a.y - b.y, _mean_axis(a.angle, b.angle, -1.0))]
    return out
