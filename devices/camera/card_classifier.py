"""A small learned classifier of canonical card crops, run with onnxruntime (onnx_session.py;
no training stack).

Why: the template judge compares a crop with one clean scan per card, so blur, light, a
corner index half in shadow or a cover spoil it: on the wide scenes it refuses most partly
covered French cards even on their true outline. A small CNN trained on crops of the wide
generator's tune scenes (devices/camera/training/) learns what varies. It never names a card on
its own: the recogniser takes its answer only where it is sure and the template match agrees
(recognizer.py), so that a wrong card stays rarer than a late one.

Weights: devices/camera/weights/card_classifier_<art>.npz (conv 3x3 layers with ReLU and 2x2
max pooling, then two dense layers; `labels` names the outputs: card codes, BACK, OTHER).
The shipped ones were made with `python -m devices.camera.training.train_card_classifier`:
French from tune scenes 100,000-101,399 (12 epochs, validation 97.9%). Piacentine first from
100,000-100,499 and 300,000-300,999 with a card's cover on 30% of the crops (--cover 0.3;
14 epochs, validation 98.9%: the last tenth, seeds ~300,900-300,999). On crops of fresh
tune scenes 4,000-4,149 (jittered true outlines), Piacentine's covered cards: 90.9 -> 98.3%
named right, 60.8 -> 72.0% right at >= 0.95, none wrong at >= 0.95 before or after
(tests/bench/bench_wide_scenes.py, 2026-11-25). Napoletane (2026-11-26): from scratch on
100,000-100,499, 300,000-300,999 and 500,000-500,999 with --cover 0.3 (70,458 crops, 16
epochs, validation 99.4%: seeds ~500,900-500,999). Against the weights before it (a
fine-tune of 100,000-100,499's on the first two ranges, kept in tests/data for the tests
made with it), covered cards of tune scenes 17,100-17,499, jittered true outlines: named
right 94.1 -> 97.3%, at >= 0.95 246 -> 274 of 374, none wrong at >= 0.9 either; the
recogniser on tune stills, calibrated: 17,400-17,699 727 -> 734 of 779, 0 false. Again
(2026-11-26, fourteenth session; those weights kept in tests/data) with 600,000-601,499
added (111,916 crops, 14 epochs, validation 99.57%: seeds ~601,350-601,499): covered cards
of tune scenes 18,100-18,399, two jittered true outlines each (650 crops), named right
97.5 -> 97.7%, at >= 0.95 495 -> 523 with 1 -> 0 wrong, at >= 0.9 3 -> 1 wrong; the
recogniser, calibrated: 18,100-18,249 409 -> 412 of 446, 18,250-18,549 821 -> 824 of 883;
uncalibrated 18,100-18,249 391 -> 393; 0 false. Piacentine (2026-11-26, fourteenth
session; the weights before, of 2026-11-25, kept in tests/data) trained so on the same four
ranges (112,526 crops, 12 epochs, validation 99.59%): covered crops of 18,100-18,399 (606)
named right 95.4 -> 96.9%, at >= 0.95 417 -> 478 with 3 -> 0 wrong, at >= 0.9 4 -> 1 wrong;
the recogniser, calibrated: 18,100-18,324 550 -> 556 of 598, 18,325-18,549 571 -> 576 of
617, uncalibrated 18,100-18,299 446 -> 451 of 525, 0 false (on three ranges, the thirteenth
session: crops 259 -> 284 of 368 at >= 0.95, but the recogniser on 17,400-17,699 750 -> 746
of 799, not kept). Tried and not kept: French trained the same way (--cover 0.3 on
100,000-100,499 and 500,000-500,999: covered crops named right at >= 0.95 197 -> 193 of
362). French again (2026-11-27, sixteenth session; the weights before kept in tests/data)
from scratch on four ranges, 100,000-101,399, 300,000-300,999, 500,000-500,999 and
700,000-701,999 (150,684 crops, no cover, 12 epochs, validation 98.92%: seeds ~701,800-
701,999): covered crops of tune french52 scenes 20,750-20,899 (266, jittered true outlines)
named right 241 -> 252, at >= 0.95 142 -> 182 with 2 -> 0 wrong, at >= 0.9 4 -> 0 wrong;
the recogniser, calibrated, tune 20,750-21,049: french40 796 -> 801 of 836, french52 792 ->
795 of 835, 0 false. Both Italian decks again the same day, from scratch on five ranges
(the four before and 700,000-701,999; --cover 0.3, 12 epochs; Napoletane 169,385 crops,
validation 99.49%, Piacentine 168,665, 99.47%; the fourteenth session's weights kept in
tests/data): covered crops of tune 21,600-21,699 sure (>= 0.95) and right 86 -> 88 of 102
and 73 -> 77 of 95, none wrong at >= 0.9 either way; Piacentine's of 20,750-20,899 (312)
at >= 0.95 245 -> 267, at >= 0.9 262 -> 280, none wrong; the recogniser, calibrated:
napoletane 20,750-21,349 1,569 -> 1,580 of 1,678, piacentine 20,750-21,549 2,120 -> 2,128 of
2,254 with one false card more (a 4 of cups the partial judge named, which the weights before
vetoed: gone with `Thresholds.learned_veto_prob` 0.6).
Every deck again (2026-11-27, eighteenth session; the sixteenth session's weights kept in
tests/data as ..._2026-11-27), the Italian ones fine-tuned from those on fresh tune crops
702,000-703,499 (42,011 and 41,367 crops) with blanked covers (--cover 0.3 --blank 0.3;
training/blank_covers.py; `blanks` set, so the recogniser blanks what lies on named cards),
6 epochs at --max-lr 1.5e-3, validation 99.67% and 99.69% (unblanked crops). The spent
held-out Piacentine 7 of cups that the weights before named a 6 at 0.99 alone: 0.62 blanked.
The recogniser, calibrated, tune 25,600-25,899 against the weights before: napoletane 828 ->
833 of 883 (830 unblanked), piacentine 783 -> 786 of 822 (786 unblanked), 0 false;
uncalibrated 25,900-25,999: 218 of 257 and 219 of 252 either way. French so too (42,457 crops
of french52 702,000-703,499, --blank 0.3 only, as before no --cover; validation 98.33%):
tune 25,600-25,899, french40 814 of 842 either way (815 unblanked), french52 833 -> 835 of
871, 0 false. On blanked covered crops of tune 26,400-26,499 (tests/test_card_classifier.py),
sure and right: napoletane 44 -> 69, piacentine 50 -> 65, French 41 -> 43; wrong at >= 0.9:
3 -> 0, 0 -> 0, 1 -> 1.
Both Italian decks again (2026-11-27, twenty-second session; the eighteenth session's weights
kept in tests/data as ..._2026-11-27b), fine-tuned from those on fresh tune crops 704,000-
705,499 with each card showing under 70% cut 12 times (--covered-jitters 12: 50,256 and
49,146 crops), a card's cover, blanks and a rounded object reaching in from an edge on 30%
each (--cover 0.3 --blank 0.3 --blob 0.3: a hand or a sleeve, drawn apart from the
generator's hand; half the misses at 45-55% showing lay under the dealer's hand), 6 epochs
at --max-lr 1.5e-3, validation 99.50% and 99.17%. The recogniser, calibrated, against the
weights before (bench_wide_scenes --ab-classifier): tune 30,850-31,149 napoletane 837 -> 840
of 862, piacentine 863 of 886 either way; 31,150-31,449 797 -> 802 of 816, 832 -> 840 of 857;
no false card added (the one, piacentine 31,059, a 7 of cups showing the column a 6 shares,
either way). The same fine-tune without the blob (--cover-depth 0.65 instead): 870 of 888
and 805 -> 808 of 836 on 29,750-30,049, not kept. On tune 31,600-31,899 the new weights name
a false 6 of coins (napoletane 31,648, on an outline across a cascade's hidden 7 of coins)
that the weights before do not, though both read that outline a 6 at 0.98-0.99: the card
the pipeline names before it differs. Napoletane's were put back to the eighteenth session's
(2026-11-28, twenty-third session, as the twenty-second's note asked: measured on fresh tune
stills 32,000-33,999 calibrated, 2,000 scenes, they named 5,489 against 5,452 of 5,605 cards,
but 4 false cards against 2: 32,503 a 4 of cups for a 3 whose other column lay under the next
card, 32,974 a 5 of cups on an outline across a 7 of swords and a 6 of cups; the spent held-
out report before had shown 3 against 2). A wrong card costs the operator more than a late
one. Piacentine's stay (no false card added on tune or held-out). The same day Napoletane's
were fine-tuned from those (the eighteenth session's) on fresh tune crops 706,000-707,499
with OTHER crops of outlines across a card's neighbours (--straddles 4, crops._straddling:
most false cards are such outlines named by the classifier; --covered-jitters 12 --cover 0.3
--blank 0.3, 69,945 crops, 6 epochs at --max-lr 1.5e-3, validation 99.30%). Tune stills
35,600-37,599 calibrated against the weights before: 5,509 against 5,502 of 5,650, 0 false
cards against 1 (36,793 a 4 of coins). French fine-tuned so (--blank 0.3 --blob 0.3 on
french52 704,000-705,499, 49,999 crops, validation 97.56%): tune 30,850-31,149 french40 813
of 826 either way, french52 779 -> 781 of 797: not shipped.
A wider network, tried and not kept (2026-11-28, twenty-fourth session): Napoletane from
scratch at --widths 16 32 64 --hidden 128 (1.7 times the multiply-adds) on fresh tune crops
708,000-710,999 (--covered-jitters 16 --straddles 4 --cover 0.3 --blank 0.3 --blob 0.15,
151,169 crops, 12 epochs, validation 99.09%). On the true outlines of covered cards
(under 70% showing) of tune 37,750-38,349, right at >= 0.975 161 -> 179 of 265, at >= 0.9
223 -> 231, wrong at >= 0.9 0 -> 1; outlines across neighbours (6,585) named a card at
>= 0.9 1 -> 0. The recogniser, calibrated, tune 38,350-40,349 (2,000 stills): 5,568 against
5,563 of 5,707, 0 false either way: within what another 2,000 scenes move, for a file twice
the size. The classifier is argmax-right on 98.8% of the true outlines of Napoletane cards
45-55% showing (tune 37,750-38,349, 169 cards) but sure (>= 0.9) of 79%: what it needs is
not more width.
Test-time readings, tried and not kept (2026-11-28, twenty-seventh session). On the true
outlines of covered cards (45-70% showing, two jittered outlines each) of tune 47,250-
47,499, Napoletane 246 crops and Piacentine 188, sure (>= 0.9) and right: the crop alone 205
and 154; its logits averaged with four crops shifted 2% of a card and two scaled 2%, 206
and 155; with the crop turned half round, 209 and 159 (at >= 0.96 185 against 178, 134
against 129); with the older weights' (tests/data ..._2026-11-27b, ..._2026-11-27), 208 and
149. None wrong at 0.9 on these, nor more on outlines across neighbours (1,851 and 1,700).
In the recogniser (`_guess` reading the crop and the crop turned together), tune 47,250-
47,549 calibrated: napoletane 836 against 834 of 855, piacentine 743 against 742 of 765,
french40 831 against 833 of 846, french52 801 of 811 either way, 0 false. Nor is the crop
what bounds the recogniser: blanked exactly where each card is covered (the generator's
label image: an oracle), the classifier is sure and right on 69 of 74 Napoletane cards
45-55% showing against 58 plain (Piacentine 62 of 65 against 54), yet the recogniser given
those blanked crops names 836 against 834 of 855 and 748 against 742 of 765 on the same
scenes: its misses there are hypotheses never made (7 of 21 and 5 of 23 not located,
diagnose_wide_misses) and its rules, not the crop.
Ambiguous crops labelled no card, tried and not shipped (2026-11-29, thirty-first session):
Piacentine fine-tuned from the shipped weights on fresh tune crops 711,000-712,499 (50,141,
--covered-jitters 12, the shipped recipe's --cover 0.3 --blank 0.3 --blob 0.3, 6 epochs at
--max-lr 1.5e-3, validation 98.76%) with each covered card told apart from another by under
10 pixels of what shows labelled OTHER (--ambiguous-below 10, crops.ambiguous_cards: about 3
cards in 100 scenes): the false 6s of cups for 7s come from weights sure of a card no method
can name. Tune 56,650-57,149 calibrated: 1,324 against 1,325 of 1,360, 0 false against 1
(56,881, a 6 of cups); of three 6s for 7s traced before, two gone. Held-out 9,350,800-
9,352,799 (2,000 scenes): 5,511 against 5,518 of 5,679, one false card either way (a 5 of
coins, 9,350,851, against the shipped weights' 6 of cups, 9,352,587).
Tried and not kept (2026-11-29, thirty-second session): crops at the fine size (120x80, not
averaged down; each 2x2 block stacked into 12 channels before the first layer, the rest of
the network the same, ~1.6 times the multiply-adds), in case the canonical crop's average
hides the small print that tells a half-covered card. Two Piacentine networks trained alike
from scratch on the same crops (tune 712,500-714,299, --covered-jitters 12 --straddles 4,
86,353 crops, a card's cover on 30%, 10 epochs): validation 98.95% fine against 98.73%; on
covered cards (45-70% showing) of tune 58,750-59,149, two jittered true outlines each (350
crops), argmax right 93.4% against 93.7%, sure (>= 0.9) and right 244 against 247 with 1
wrong against 0, both ways up at >= 0.975 121 against 113; outlines across neighbours (2,897)
named a card at >= 0.9 by neither. The shipped weights, fine-tuned fine (their first layer
spread over each block, so the start answers as they do; fresh crops 714,300-715,799, the
shipped recipe, 6 epochs): on the same crops 290 against the shipped 292 sure and right,
outlines across neighbours named at >= 0.9 5 against 1. What a covered card's crop lacks is
not resolution.

The rescue verifier (2026-11-29, thirty-fourth session; weights card_verifier_<art>.npz,
`card_verifier`, Italian decks only; recognizer.Options.rescue): the same network, fine-tuned
from the shipped classifier on what the recogniser's last pass sees, every hypothesis it
judged on what shows, labelled by where it lies (training/rescue_crops.py): tune scenes
715,800-719,799 (the first labelling) and 720,300-723,299 (a card under 35% showing, or an
outline 0.2 of a width off every card, labelled no card), with the shipped recipe's crops
of 719,800-720,299 (--covered-jitters 12 --straddles 4) beside them; 55,009 and 60,305
crops, --cover 0.3 --blank 0.3 --blob 0.3, 6 epochs at --max-lr 1.5e-3; validation (the
last tenth: rescue crops of ~722,900-723,299) 92.55% and 93.04%:

    .venv/bin/python -m devices.camera.training.rescue_crops --art napoletane \
        --first-seed 720300 --scenes 3000 --out rescue2.npz
    .venv/bin/python -m devices.camera.training.train_card_classifier --art napoletane \
        --crops reg.npz rescue.npz rescue2.npz --init <the shipped classifier> --epochs 6 \
        --max-lr 1.5e-3 --cover 0.3 --blank 0.3 --blob 0.3 \
        --out devices/camera/weights/card_verifier_napoletane.npz

The third verifier (2026-11-29, thirty-fifth session; the second is in git at 4fa28ea):
rescue crops relabelled (a hypothesis on or near only cards showing under 45% is no card:
both false cards of the second's held-out report lay in such stacks) from fresh tune scenes
723,300-729,299 (32,673 and 34,780 crops, 3,744 and 3,910 of them cards), with the shipped
recipe's crops of 729,300-729,799 beside them (56,699 and 59,544 crops), fine-tuned from the
second for 6 epochs as above; validation 91.53% and 92.44%. On tune 68,090-69,589 it names
fewer cards surely (it no longer reads a card 35-45% showing as that card) and, at
rescue_prob 0.7, no false card where the second named 2; on held-out 9,359,300-9,361,299
(bench_wide_scenes) 54 cards more of 11,250 and 1 false card more, so the pass stays off:

    .venv/bin/python -m devices.camera.training.rescue_crops --art piacentine \
        --first-seed 723300 --scenes 3000 --out r1.npz    (and 726300: r2.npz)
    .venv/bin/python -m devices.camera.training.train_card_classifier --art piacentine \
        --scenes 500 --first-seed 729300 --covered-jitters 12 --straddles 4 \
        --save-crops reg.npz --epochs 0
    .venv/bin/python -m devices.camera.training.train_card_classifier --art piacentine \
        --crops reg.npz r1.npz r2.npz --init <the second verifier> --epochs 6 \
        --max-lr 1.5e-3 --cover 0.3 --blank 0.3 --blob 0.3 \
        --out devices/camera/weights/card_verifier_piacentine.npz

Tried and not kept (thirty-fifth session): the verifier reading the outline widened 1.3
times about its centre, unblanked (so that an outline straddling two cards of a cascade shows
their edges inside it). Fine-tuned from the shipped classifier on the rescue crops of tune
729,800-731,299 cut both ways (8,100 and 8,611 crops, 6 epochs, no augmentation), and read on
those of 731,300-731,799 (one card both ways up at a bar, no other at 0.1; right / wrong):
at 0.7 napoletane 127/3 against 51/20 for the same training on the plain crop, piacentine
122/2 against 52/18; validation 95.4% and 94.3% against 91.0% and 88.2%. But trained on
729,800-731,799 and put in the pass (tune 68,090-69,589, candidates read at 0.5), it read
the hypotheses every rule refused less surely than the third verifier: at 0.7 and rival 0.1,
3 and 4 cards more against 19 and 19; at 0.5 and 0.3, 10 and 15 with 2 false piacentine
cards. Fine-tuned again with tune 731,800-734,799 added (5,000 scenes, 27,629 and 29,110
crops; validation 96.1% and 96.9%): at 0.7 and 0.1, 7 and 11 cards more, none false; at 0.5
and 0.1, 13 and 19, none false. It gains with data; the easy hypotheses it reads better are
those the pipeline names already. Left to try: as much data again, and augmentations made
for a widened crop.

Why not the classifier itself: on the rescue crops of 715,800-719,799 the shipped weights
read 911 and 880 cards sure (>= 0.9 both ways) and right of 3,343 and 3,368, and 3 and 12
of 14,117 and 15,944 outlines on no card sure of a card; and the pipeline's rules around
them are tuned to those weights, which a retrain would move. What the verifier adds:
recognizer.Options.rescue.

Tried and not kept (2026-12-02, forty-fourth session): the Italian classifiers fine-tuned
on scenes half drawn in linear light (train_card_classifier --linear-light), as the French
index reader was to +2% of covered French cards on ray_scenes' held-out stills: on those,
the Italian misses are covered cards (45-55% showing: a third missed) the classifier reads
at 0.4-0.94 on their true outlines. Fresh tune crops 740,000-741,499 (70,719 and 71,327,
--covered-jitters 12 --straddles 4), from the shipped weights, 6 epochs at --max-lr 1.5e-3,
--cover 0.3 --blank 0.3 (Piacentine --blob 0.3 too, as shipped); on the held-back tenth
sure (>= 0.9) and right 6,639 -> 6,656 and 6,522 -> 6,684. The recogniser on ray tune stills
711,000-711,749 calibrated: napoletane 1,994 -> 1,999 of 2,059, piacentine 2,073 -> 2,062
of 2,102, 0 false either way; covered cards of ray tune 712,000-712,199 on jittered true
outlines, sure (>= 0.95) and right 337 -> 352 of 430 and 301 -> 291 of 366. Within noise
for Napoletane, a loss for Piacentine: the linear light is not what the classifier lacks
on those frames.

Tried and not kept (2026-12-07, fifty-first session): a fourth rescue verifier, fine-tuned
from the shipped one on as much data again as its last training added: rescue crops of fresh
tune scenes 742,000-744,999 (15,760 and 18,420, 1,820 and 2,027 of them cards) with the
shipped recipe's crops of 745,000-745,499 beside them (--covered-jitters 12 --straddles 4),
6 epochs. On the held-back tenth (rescue crops of ~744,700-744,999, which the shipped
verifier never saw either), Napoletane: the shipped verifier 90.79% right, the recipe above
(--max-lr 1.5e-3, --cover 0.3 --blank 0.3 --blob 0.3) 90.17%, --max-lr 5e-4 unaugmented
90.95%, augmented so 89.74%; a card at >= 0.7 right 219 with 89 wrong against the recipe's 204
and 108. Piacentine, the recipe: 92.17% against 91.03%, 151/57 against 159/71. The verifier
is at what its labels allow: more of the same hypotheses does not teach it more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from devices.camera.onnx_session import OnnxNet
from devices.camera.onnx_writer import Graph
from devices.camera.templates import CANON_H, CANON_W, FINE, coarse_from_fine, normalise
from studio.cards import DeckArt

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"


OTHER = "other"  # the label of a crop that is no card
_FINE_CORNERS = np.array([[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]],
                         np.float32) * FINE - np.float32(0.5)


def canonical_crop(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad as the judge sees it: warped at the fine size, averaged down to the canonical
    size, each channel normalised (float32, CANON_H x CANON_W x 3)."""
    warp = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), _FINE_CORNERS)
    big = cv2.warpPerspective(frame, warp, (CANON_W * FINE, CANON_H * FINE),
                              flags=cv2.INTER_LINEAR)
    return normalise(coarse_from_fine(big))


def weights_path(art: DeckArt | str) -> Path:
    return WEIGHTS_DIR / f"card_classifier_{DeckArt(art).value}.npz"


def verifier_path(art: DeckArt | str) -> Path:
    """The rescue verifier's weights (training/rescue_crops.py): the classifier's network,
    trained on the hypotheses the recogniser judged on what shows."""
    return WEIGHTS_DIR / f"card_verifier_{DeckArt(art).value}.npz"


# OpenBLAS runs a product on several threads past about this many multiply-adds (a matrix-
# vector product past a tenth of it): on a busy machine that costs tens of milliseconds, so
# products are made in row blocks under it (microseconds each), as recognizer._matvec does.
_ONE_THREAD_MADDS = 200_000
_ONE_THREAD_MATVEC = 8_000


def _rows_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b (b a matrix) in row blocks of a small enough that BLAS stays on this thread."""
    rows = max(1, _ONE_THREAD_MADDS // max(1, b.shape[0] * b.shape[1]))
    if len(a) <= rows:
        return a @ b
    return np.concatenate([a[i:i + rows] @ b for i in range(0, len(a), rows)])


def _matvec(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """w @ x (x a vector) in row blocks of w, for the same reason."""
    rows = max(1, _ONE_THREAD_MATVEC // max(1, w.shape[1]))
    if len(w) <= rows:
        return w @ x
    return np.concatenate([w[i:i + rows] @ x for i in range(0, len(w), rows)])


def _conv_relu_pool(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3x3 convolution (padding 1), ReLU, 2x2 max pooling; x is (H, W, C) channel-last, w is
    (O, C*9) in torch's (C, kh, kw) order."""
    h, wd, c = x.shape
    xp = np.pad(x, ((1, 1), (1, 1), (0, 0)))
    cols = sliding_window_view(xp, (3, 3), axis=(0, 1)).reshape(h * wd, c * 9)
    y = np.maximum(_rows_product(cols, w.T) + b, 0.0).reshape(h, wd, -1)
    h2, w2 = h // 2, wd // 2
    return y[:h2 * 2, :w2 * 2].reshape(h2, 2, w2, 2, -1).max(axis=(1, 3))


@dataclass(frozen=True)
class CardClassifier:
    """The shipped weights of one art; `probabilities` of one normalised canonical crop."""

    labels: tuple[str, ...]
    convs: tuple[tuple[np.ndarray, np.ndarray], ...]
    dense: tuple[tuple[np.ndarray, np.ndarray], ...]
    # trained on crops with covers blanked (training/blank_covers.py): the recogniser blanks
    # what lies on cards named already only for such weights (others are merely less sure)
    blanks: bool = False
    # the network of these weights for each crop size (`_net`), shared by every thread
    _nets: dict[tuple[int, int], OnnxNet] = field(default_factory=dict, init=False,
                                                  repr=False, compare=False)

    @classmethod
    def load(cls, path: Path) -> CardClassifier:
        with np.load(path) as data:
            labels = tuple(str(s) for s in data["labels"])
            convs = []
            i = 0
            while f"conv{i}_w" in data:
                w = data[f"conv{i}_w"].astype(np.float32)
                convs.append((w.reshape(len(w), -1), data[f"conv{i}_b"].astype(np.float32)))
                i += 1
            dense = []
            i = 0
            while f"dense{i}_w" in data:
                dense.append((data[f"dense{i}_w"].astype(np.float32),
                              data[f"dense{i}_b"].astype(np.float32)))
                i += 1
            blanks = bool(data["blanks"]) if "blanks" in data else False
        return cls(labels, tuple(convs), tuple(dense), blanks)

    def onnx(self, height: int = CANON_H, width: int = CANON_W) -> bytes:
        """The network as an ONNX model for crops of this size (input 1 x 3 x height x width,
        channels first; the index reader's crops are smaller than the classifier's)."""
        g = Graph((1, 3, height, width))
        x = "input"
        for w, b in self.convs:
            x = g.conv(x, w.reshape(len(w), -1, 3, 3), b)
            x = g.node("MaxPool", [g.node("Relu", [x])],
                       {"kernel_shape": [2, 2], "strides": [2, 2]})
        x = g.node("Flatten", [x], {"axis": 1})  # channels first, as torch flattens
        for k, (w, b) in enumerate(self.dense):
            x = g.node("Gemm", [x, g.weight(w), g.weight(b)], {"transB": 1})
            if k < len(self.dense) - 1:
                x = g.node("Relu", [x])
        return g.encode(x, (1, len(self.labels)))

    def _net(self, height: int, width: int) -> OnnxNet:
        """The network for crops of this size, made on first use (an onnxruntime session
        may be run from several threads at once: onnx_session.py)."""
        net = self._nets.get((height, width))
        if net is None:
            net = self._nets.setdefault((height, width), OnnxNet(self.onnx(height, width)))
        return net

    def logits(self, crop: np.ndarray) -> np.ndarray:
        """Raw outputs for one crop (CANON_H, CANON_W, 3), normalised as templates.normalise
        does (BGR channel order as the frame). Run with onnxruntime (onnx_session.py): the
        French crop 0.31 ms against `reference_logits`' 1.94 (2026-12-03), the same
        probabilities to 1e-6."""
        x = np.asarray(crop, np.float32)
        return self._net(x.shape[0], x.shape[1]).run(x.transpose(2, 0, 1)[None])[0]

    def reference_logits(self, crop: np.ndarray) -> np.ndarray:
        """`logits` computed in numpy, layer by layer: the definition the DNN's outputs are
        tested against."""
        x = np.asarray(crop, np.float32)
        for w, b in self.convs:
            x = _conv_relu_pool(x, w, b)
        x = x.transpose(2, 0, 1).reshape(-1)  # torch flattens channels first
        for k, (w, b) in enumerate(self.dense):
            x = _matvec(w, x) + b
            if k < len(self.dense) - 1:
                x = np.maximum(x, 0.0)
        return x

    def probabilities(self, crop: np.ndarray) -> np.ndarray:
        z = self.logits(crop)
        e = np.exp(z - z.max())
        return e / e.sum()

    def best(self, crop: np.ndarray, allowed: frozenset[str] | None = None) -> tuple[str, float]:
        """The most likely label and its probability; with `allowed`, labels outside it (the
        8s, 9s and 10s when a French deck holds 40) get no share."""
        return self.ranked(crop, allowed, 1)[0]

    def ranked(self, crop: np.ndarray, allowed: frozenset[str] | None = None,
               count: int = 2) -> list[tuple[str, float]]:
        """The `count` most likely labels with their probabilities, most likely first (as
        `best`, `allowed` renormalised)."""
        p = self.probabilities(crop)
        if allowed is not None:
            p = p * np.array([lab in allowed for lab in self.labels], np.float32)
            p = p / max(float(p.sum()), 1e-9)
        order = np.argsort(-p, kind="stable")[:count]
        return [(self.labels[int(i)], float(p[int(i)])) for i in order]


@cache
def card_classifier(art: DeckArt | str) -> CardClassifier | None:
    """The shipped classifier of this art, or None when none is shipped."""
    path = weights_path(art)
    return CardClassifier.load(path) if path.exists() else None


@cache
def card_verifier(art: DeckArt | str) -> CardClassifier | None:
    """The shipped rescue verifier of this art (`verifier_path`), or None."""
    path = verifier_path(art)
    return CardClassifier.load(path) if path.exists() else None
