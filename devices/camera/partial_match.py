"""Naming a card from the part of it that shows (fanned and cascaded hands, a hand on a card).

Why: Napoletane and Piacentine cards have no corner indices, so a card under another card or a
hand must be named from whatever shows, and a whole-card match fails there: the covering thing
spoils both the correlation and the per-channel normalisation. Here the card is split into a
grid of cells; against each candidate template the cells that do not match are dropped and both
images are normalised again on the cells left, a few times over, so what remains is the part of
the card that is really there. The card is named only when

- enough of it is left (at least `min_cells`, about 45% of the face), matching closely,
- what was dropped reaches the card's edge (a hand or a card covers from outside: a hole in
  the middle is where the card differs from the template, as a 7 differs from a 6),
- no other card tried explains nearly as much of it, and
- on exactly those cells every other card of the deck that differs there is clearly worse (the
  image lies near the winner on the line to each rival, as the whole-card judge asks), and no
  other card is indistinguishable there: a strip of white border or a corner of a figure that
  several cards share names nothing.

Refusing is always allowed: a card not named now is named when it is uncovered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

ROWS, COLS = 6, 4


@dataclass(frozen=True)
class PartialLimits:
    """Acceptance limits, tuned on the wide scenes' tuning seeds only."""

    cell_error: float = 0.45  # a cell matches when its mean squared error is below this
    max_error: float = 0.3  # mean squared error over the cells kept
    rival_cells: int = 2  # the winner shows this many cells more than any other card tried
    min_cells: int = 8  # of ROWS * COLS: a card half covered keeps 8-11 clean cells
    # position towards the winner against each rival (0.5: exact); 0.42 before, when a 3 of
    # clubs 73% showing fit a 6 of clubs at 0.421 (held-out french40 9315722, looked at after
    # its report; at 0.43 with near_separation 0.3, tune 18550-19349, four decks: +1
    # card of 8,954, no false card more or fewer)
    min_separation: float = 0.43
    # ... and this, for a card named from the fewest cells allowed (min_cells, a third of
    # it): a Piacentine 6 of cups showing its left column under a 4 and a hand fit a 7 of
    # cups at 0.432 (tune 18422; at 0.45, tune 18100-18549 calibrated, four decks on
    # 18100-18249 and two on the rest: that false card gone, 1 right card fewer of 3,402)
    few_cells_separation: float = 0.45
    min_difference: float = 0.15  # mean squared difference that makes a rival distinguishable
    candidates: int = 4  # templates (best whole-card scores first) tried as the winner
    iterations: int = 3
    core_check: bool = True  # look-alikes must differ away from the covered edge too
    # (Tried and not kept, forty-eighth session: each image's spread on the cells kept taken
    # as at least 0.3 of its spread on every cell that may show. Normalised on a few cells
    # of nearly plain card, sensor noise is blown up to the size of print and the fit
    # collapses: ray tune 711,118 napoletane, a 3 of cups 60% showing, error 1.0 on its own
    # template, 0.06 with the floor, yet refused (a 3 of coins fit as many cells). Ray
    # tune 711,000-711,249 calibrated: napoletane 667 against 668 of 687, piacentine 669 of
    # 676 either way, no false card either way.)


@dataclass(frozen=True)
class PartialVerdict:
    index: int  # the winning template, or -1
    cells: int
    error: float
    separation: float
    accepted: bool
    visible: np.ndarray | None = None  # (ROWS, COLS) cells where the winner shows
    rival: int = -1  # the other card's template the winner is told apart from least


def _cell_mask(cells: np.ndarray, h: int, w: int) -> np.ndarray:
    """Pixel mask (h, w) of a boolean cell grid (ROWS, COLS)."""
    return np.repeat(np.repeat(cells, h // ROWS, axis=0), w // COLS, axis=1)


def _normalised(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The image's pixels under the mask (n, 3), each channel zero mean, unit variance there."""
    px = image[mask]
    return (px - px.mean(axis=0)) / np.maximum(px.std(axis=0), 0.05)


def cell_sums(image: np.ndarray) -> np.ndarray:
    """Per cell and channel sums of an image (ROWS, COLS, 3): with these, any set of cells'
    means and variances, and so every cell's error, cost a few dozen operations."""
    return stacked_cell_sums(image[None])[0]


def stacked_cell_sums(images: np.ndarray) -> np.ndarray:
    """`cell_sums` of M images of one size (M, h, w, 3) at once: (M, ROWS, COLS, 3). Float32
    images are averaged by OpenCV's area resampling (whole blocks: each cell's mean), a tenth
    of numpy's strided sum's time; other types (float64 sums lose less) by numpy."""
    m, h, w = images.shape[:3]
    if images.dtype == np.float32 and h % ROWS == 0 and w % COLS == 0:
        tall = np.ascontiguousarray(images).reshape(m * h, w, 3)
        means = cv2.resize(tall, (COLS, m * ROWS), interpolation=cv2.INTER_AREA)
        return means.reshape(m, ROWS, COLS, 3) * np.float32((h // ROWS) * (w // COLS))
    return images.reshape(m, ROWS, h // ROWS, COLS, w // COLS, 3).sum(axis=(2, 4))


@dataclass(frozen=True)
class CellSums:
    """Per-cell sums of an image and its square (and the pixels per cell)."""

    s: np.ndarray
    ss: np.ndarray
    n: int

    @classmethod
    def of(cls, image: np.ndarray) -> CellSums:
        h, w = image.shape[:2]
        return cls(cell_sums(image), cell_sums(image * image), (h // ROWS) * (w // COLS))


def visible_cells(patch: np.ndarray, template: np.ndarray, limits: PartialLimits,
                  patch_sums: CellSums | None = None,
                  template_sums: CellSums | None = None,
                  hidden: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """The cells where the patch is this template (iterated: drop what does not match,
    normalise again on the rest) and the mean error on them. `hidden`: cells known to be
    covered (another card named on them), never counted as showing."""
    cells, errors = visible_cells_of(patch, template[None], np.zeros(1, int), limits,
                                     [template_sums] if template_sums else None, patch_sums,
                                     hidden)
    return cells[0], float(errors[0])


def _errors_of_pairs(p_s: np.ndarray, p_ss: np.ndarray, t_s: np.ndarray, t_ss: np.ndarray,
                     pt: np.ndarray, n: int, cells: np.ndarray) -> np.ndarray:
    """Mean squared error per cell of M patch-template pairs at once, both images of each
    pair normalised on its kept cells (from sums: the expansion of the squared difference of
    the two normalised images). The sums (M or 1, ROWS, COLS, 3) broadcast against each
    other; `cells` (M, ROWS, COLS) each pair's kept cells."""
    weight = cells[..., None]
    count = n * np.maximum(cells.sum(axis=(1, 2)), 1)[:, None, None, None]

    def stats(a: np.ndarray, aa: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mean = (a * weight).sum(axis=(1, 2), keepdims=True) / count
        var = (aa * weight).sum(axis=(1, 2), keepdims=True) / count - mean * mean
        return mean, np.maximum(np.sqrt(np.maximum(var, 0.0)), 0.05)

    mp, sp = stats(p_s, p_ss)
    mt, st = stats(t_s, t_ss)
    a = (p_ss - 2 * mp * p_s + n * mp * mp) / (sp * sp)
    b = (t_ss - 2 * mt * t_s + n * mt * mt) / (st * st)
    c = (pt - mt * p_s - mp * t_s + n * mp * mt) / (sp * st)
    return (a + b - 2 * c).sum(axis=3) / (3 * n)


def _settled(errors: Callable[[np.ndarray], np.ndarray], m: int, allowed: np.ndarray,
             limits: PartialLimits) -> tuple[np.ndarray, np.ndarray]:
    """`visible_cells`' iteration for M pairs at once (`errors`: their cell errors for given
    kept cells, (M, ROWS, COLS)); `allowed`: (ROWS, COLS) cells not known hidden. The kept
    cells (M, ROWS, COLS) and the mean error on them (inf where fewer than two were left)."""
    cells = np.repeat(allowed[None], m, axis=0)
    if allowed.sum() < 2:
        return cells, np.full(m, np.inf)
    err = errors(cells)
    live = np.ones(m, bool)  # not yet settled
    dead = np.zeros(m, bool)  # fewer than two cells left: no fit
    for step in range(limits.iterations):
        keep = (err < limits.cell_error) & allowed
        if step == 0:
            # much of the card covered spoils the first normalisation: start from the cells
            # that match best instead
            few = keep.sum(axis=(1, 2)) < limits.min_cells
            ranked = np.sort(np.where(allowed, err, np.inf).reshape(m, -1), axis=1)
            cut = ranked[:, min(limits.min_cells, int(allowed.sum())) - 1][:, None, None]
            keep[few] = ((err <= cut) & allowed)[few]
        dying = live & (keep.sum(axis=(1, 2)) < 2)
        dead |= dying
        live &= ~dead & ~(keep == cells).all(axis=(1, 2))
        cells = np.where((live | dying)[:, None, None], keep, cells)
        if not live.any():
            break
        err = np.where(live[:, None, None], errors(cells), err)
    count = cells.sum(axis=(1, 2))
    mean = (err * cells).sum(axis=(1, 2)) / np.maximum(count, 1)
    return cells, np.where(dead | (count == 0), np.inf, mean)


def visible_cells_of(patch: np.ndarray, templates: np.ndarray, chosen: np.ndarray,
                     limits: PartialLimits, template_sums: list[CellSums] | None = None,
                     patch_sums: CellSums | None = None,
                     hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`visible_cells` of the patch against each `chosen` template at once: their cells
    (len(chosen), ROWS, COLS) and mean errors. Why: the partial judge tries four templates
    a hypothesis and a frame has dozens of hypotheses; one pass over the four stacked
    costs about what one template alone did."""
    m = len(chosen)
    if m == 0:
        return np.zeros((0, ROWS, COLS), bool), np.zeros(0)
    p = patch_sums or CellSums.of(patch)
    sums = [template_sums[i] if template_sums else CellSums.of(templates[i]) for i in chosen]
    t_s, t_ss = np.stack([t.s for t in sums]), np.stack([t.ss for t in sums])
    pt = stacked_cell_sums(patch[None] * templates[chosen])
    allowed = np.ones((ROWS, COLS), bool) if hidden is None else ~hidden
    return _settled(lambda cells: _errors_of_pairs(p.s[None], p.ss[None], t_s, t_ss, pt, p.n,
                                                   cells), m, allowed, limits)


def covered_from_outside(cells: np.ndarray) -> bool:
    """Every dropped cell is joined to the card's edge through dropped cells."""
    dropped = ~cells
    reach = np.zeros_like(dropped)
    reach[0, :], reach[-1, :], reach[:, 0], reach[:, -1] = (
        dropped[0, :], dropped[-1, :], dropped[:, 0], dropped[:, -1])
    while True:
        grown = reach.copy()
        grown[1:, :] |= reach[:-1, :]
        grown[:-1, :] |= reach[1:, :]
        grown[:, 1:] |= reach[:, :-1]
        grown[:, :-1] |= reach[:, 1:]
        grown &= dropped
        if np.array_equal(grown, reach):
            return bool(np.array_equal(reach, dropped))
        reach = grown


def judge_partial(patch: np.ndarray, templates: np.ndarray, order: np.ndarray,
                  ids: np.ndarray, back_ids: set[int],
                  limits: PartialLimits = PartialLimits(),
                  template_sums: list[CellSums] | None = None,
                  hidden: np.ndarray | None = None) -> PartialVerdict:
    """Name the card in `patch` (canonical size, any per-channel scale) from its visible
    cells. `templates`: the deck's canonical images; `order`: template indices to consider,
    best whole-card scores first (the shortlist); `ids`: template -> card identity (both ways
    up share one); `back_ids`: identities of the card back; `template_sums`: the templates'
    `CellSums`, made once per deck; `hidden`: (ROWS, COLS) cells known covered."""
    chosen = np.asarray(order[:limits.candidates], int)
    shown, errors = visible_cells_of(patch, templates, chosen, limits, template_sums, None,
                                     hidden)
    tried = [(int(i), int(cells.sum()), float(error), cells)
             for i, cells, error in zip(chosen, shown, errors, strict=True)
             if error <= limits.max_error]
    if not tried:
        return PartialVerdict(-1, 0, float("inf"), 0.0, False)
    win, n, error, cells = max(tried, key=lambda x: (x[1], -x[2]))
    # refused below: the cells still say where the winner showed (its look-alikes there)
    if n < limits.min_cells or int(ids[win]) in back_ids or not covered_from_outside(cells):
        return PartialVerdict(win, n, error, 0.0, False, cells)
    if any(ids[i] != ids[win] and m > n - limits.rival_cells for i, m, _, _ in tried):
        return PartialVerdict(win, n, error, 0.0, False, cells)  # another explains as much
    h, w = patch.shape[:2]
    mask = _cell_mask(cells, h, w)
    p = _normalised(patch, mask).reshape(-1)
    # every template of the deck on the visible cells, each channel normalised there
    rivals = _templates_on(templates, mask)
    t = rivals[win]
    others = ids != ids[win]
    gaps = ((rivals[others] - t) ** 2).mean(axis=1)
    if gaps.size == 0:
        return PartialVerdict(win, n, error, 0.5, True, cells)
    if float(gaps.min()) < limits.min_difference:
        return PartialVerdict(win, n, error, 0.0, False, cells)  # another looks the same here
    to_rival = ((rivals[others] - p) ** 2).mean(axis=1)
    to_win = float(((t - p) ** 2).mean())
    # +0.5 at the winner, -0.5 at a rival, along the line between them
    positions = (to_rival - to_win) / (2 * gaps)
    separation = float(positions.min())
    rival = int(np.nonzero(others)[0][int(np.argmin(positions))])
    if separation >= limits.min_separation and limits.core_check \
            and not _told_apart_inside(templates, cells, win, others, limits):
        separation = 0.0  # what tells it from a look-alike lies only along the covered edge
    least = limits.few_cells_separation if n <= limits.min_cells else limits.min_separation
    return PartialVerdict(win, n, error, separation, separation >= least, cells, rival)


def _told_apart_inside(templates: np.ndarray, cells: np.ndarray, win: int, others: np.ndarray,
                       limits: PartialLimits) -> bool:
    """The winner differs from every other card on the visible cells away from the covered
    ones too: a cell beside the cover may show the covering card, and the covering card's
    print can look like just what tells two cards apart (the middle cup of a 5 of cups)."""
    dropped = ~cells
    near = dropped.copy()
    near[1:, :] |= dropped[:-1, :]
    near[:-1, :] |= dropped[1:, :]
    near[:, 1:] |= dropped[:, :-1]
    near[:, :-1] |= dropped[:, 1:]
    core = cells & ~near
    if not dropped.any():
        return True
    if core.sum() < 2:
        return False
    h, w = templates.shape[1:3]
    rivals = _templates_on(templates, _cell_mask(core, h, w))
    gaps = ((rivals[others] - rivals[win]) ** 2).mean(axis=1)
    return bool(gaps.min() >= limits.min_difference)


def _templates_on(templates: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Every template's pixels under the mask, each channel normalised there, flattened
    (N, n * 3): what the judge compares a patch with."""
    rivals = templates[:, mask]
    rivals = (rivals - rivals.mean(axis=1, keepdims=True)) / np.maximum(
        rivals.std(axis=1, keepdims=True), 0.05)
    return rivals.reshape(len(templates), -1)


class Lookalikes:
    """`closest_lookalike` for one deck from per-cell sums (the templates' own, and their
    products with each winner's, made once per winner): a few microseconds a call instead
    of a millisecond, so every covered card named can ask it."""

    def __init__(self, templates: np.ndarray, ids: np.ndarray) -> None:
        self._templates = templates.astype(np.float64)  # sums of squares lose little
        self._ids = ids
        sums = [CellSums.of(t) for t in self._templates]
        self._s = np.stack([c.s for c in sums])  # (N, ROWS, COLS, 3)
        self._ss = np.stack([c.ss for c in sums])
        self._n = sums[0].n
        self._cross: dict[int, np.ndarray] = {}

    def closest(self, win: int, cells: np.ndarray) -> tuple[int, float]:
        """As `closest_lookalike(templates, ids, win, cells)`."""
        cross = self._cross.get(win)
        if cross is None:
            cross = self._cross[win] = np.stack(
                [cell_sums(t * self._templates[win]) for t in self._templates])
        count = self._n * int(cells.sum())
        mean = self._s[:, cells].sum(axis=1) / count  # (N, 3)
        var = np.maximum(self._ss[:, cells].sum(axis=1) / count - mean * mean, 0.0)
        std = np.maximum(np.sqrt(var), 0.05)
        # each normalised on the cells: mean squared difference, per channel, from the sums
        per_channel = var / std ** 2 + var[win] / std[win] ** 2 - 2 * (
            cross[:, cells].sum(axis=1) / count - mean * mean[win]) / (std * std[win])
        gaps = per_channel.mean(axis=1)
        others = np.nonzero(self._ids != self._ids[win])[0]
        best = int(others[int(np.argmin(gaps[others]))])
        return best, float(gaps[best])


def closest_lookalike(templates: np.ndarray, ids: np.ndarray, win: int,
                      cells: np.ndarray) -> tuple[int, float]:
    """The other card's template most like template `win` on `cells` (ROWS, COLS), and how
    far (mean squared difference, channels normalised there; 2 is no likeness): a card whose
    look-alike differs little where it shows may be that look-alike with the difference
    under the cover (a Piacentine 7 of cups, its middle cup covered, is a 6). The definition,
    from the pixels; `Lookalikes` answers the same from sums, for the recogniser."""
    h, w = templates.shape[1:3]
    rivals = _templates_on(templates, _cell_mask(cells, h, w))
    others = np.nonzero(ids != ids[win])[0]
    gaps = ((rivals[others] - rivals[win]) ** 2).mean(axis=1)
    best = int(np.argmin(gaps))
    return int(others[best]), float(gaps[best])


def _boxes(image: np.ndarray, ys: np.ndarray, xs: np.ndarray, h: int, w: int) -> np.ndarray:
    """Per-cell, per-channel sums of the (h, w) windows of `image` at top-left corners (ys,
    xs): (len(ys), ROWS, COLS, 3), from one integral image."""
    table = cv2.integral(np.ascontiguousarray(image, np.float32), sdepth=cv2.CV_64F)
    rows = ys[:, None] + (h // ROWS) * np.arange(ROWS + 1)
    cols = xs[:, None] + (w // COLS) * np.arange(COLS + 1)
    v = table[rows[:, :, None], cols[:, None, :]]
    return v[:, 1:, 1:] - v[:, :-1, 1:] - v[:, 1:, :-1] + v[:, :-1, :-1]


def shown_at(around: np.ndarray, template: np.ndarray, template_sums: CellSums,
             moves: list[tuple[int, int]], limits: PartialLimits) -> np.ndarray:
    """For each move (x, y), the canonical-size window of `around` (a card's surroundings)
    at that offset judged as `visible_cells` judges a patch against `template` with no cells
    known hidden: (cells kept, -mean error there) per move, (len(moves), 2), 0 cells where
    the error passes `max_error`. All moves at once: a search for where a covered card lies
    costs a few milliseconds instead of half a millisecond a move."""
    h, w = template.shape[:2]
    ys = np.array([y for _, y in moves])
    xs = np.array([x for x, _ in moves])
    windows = np.lib.stride_tricks.sliding_window_view(around, (h, w, 3))[ys, xs, 0]
    n = template_sums.n
    s, ss = _boxes(around, ys, xs, h, w), _boxes(around * around, ys, xs, h, w)
    # the windows' products with the template stacked, each window's cells summed in place
    stacked = (windows * template).reshape(len(moves) * h, w, 3)
    pt = _boxes(stacked, np.arange(len(moves)) * h, np.zeros(len(moves), int), h, w)
    ts, tss = template_sums.s[None], template_sums.ss[None]
    cells, mean = _settled(lambda kept: _errors_of_pairs(s, ss, ts, tss, pt, n, kept),
                           len(moves), np.ones((ROWS, COLS), bool), limits)
    count = cells.sum(axis=(1, 2))
    fits = mean <= limits.max_error
    return np.stack([np.where(fits, count, 0), np.where(fits, -mean, 0.0)], axis=1)
