"""Find face-up cards in a table image and name them.

Pipeline (one frame, no memory; voting across frames is `voting.CardVoter`):

0. With the table's camera calibration (`Recognizer(art, camera=pose)` or
   `recognize(frame, camera=pose)`, as the live table runs; devices/camera/calibration.py) step
   1 is replaced: the frame is rectified to a top-down view of the felt, where every card is a
   rectangle of known size, and each right-angle corner of an outline there, or one long
   straight side, proposes a card (`table_view`). Proposals are gated cheaply (on not-felt, a
   quick small-image score, not a back), aligned to their best matching template (shift and
   turn in the view, Gauss-Newton on the card image, and to a look-alike as well when the fit
   is not close) and then judged as in steps 2-3, with a stricter separation: once aligned,
   what fails to match is what is not there (a hand, a card on top), not a misread outline.
   This splits fanned cards, chips and printed lines that merge into one blob.
   With the localiser (`Options.localiser`), a small learned network on the view
   (card_localiser.py) also marks card centres with their long axis (taken from the edges around the centre
   when they agree); where no outline hypothesis has its centre near, each becomes a card
   hypothesis, after the outline's, gated, aligned and judged exactly as they are: the
   middle cards of a row, fan or cascade have no corner on the outline, and whole cards
   close together on a non-green cloth may vanish from the mask. The caller may hand over
   `hints`, the quads of the cards its last frame named (the live path does,
   voting.CameraCardSource): each proposes its card again, judged whole only.

1. Card-like regions: everything that is not green felt (G well above R and B), opened to drop
   the thin printed markings. A blob that is one card (its hull is a quad it fills) gives that
   quad. A blob of several things (overlapping cards, a hand or a chip on a card) gives one
   hypothesis per straight outline stretch that ends in right-angle corners at both ends: a
   whole card side, from which the card is built inward with the deck's aspect ratio.
2. Each plausible quad (size, aspect) is warped to a small canonical card, normalised per colour
   channel (which cancels brightness and colour temperature) and correlated with every template
   of the deck, both ways up, and with the card back.
3. A card is reported only when the best match is strong, clearly ahead of the next different
   card, and every cell of a 3x2 grid matches on its own (a card partly covered by a hand, a chip
   or another card fails here and is reported later, once uncovered). Backs are never reported.
   Being unsure means reporting nothing: a wrong card is worse than a late one.
4. Calibrated, a card partly covered that the template judges refuse may still be named by a
   small learned classifier (card_classifier.py; a hypothesis whose quick score is too low for
   the partial judge is judged all the same when the classifier names a card on it surely:
   half a card correlates little with a whole template), only when it is sure and both template
   judges point at the same card (the cells that show fit it best, and it is among the crop's
   best whole-card matches), or, where no card at all fits the cells that show (the cover
   spoils the partial judge too), when it is very sure and its card is the crop's best
   whole-card match. Not on the outline path: its outlines can be another card's. When all
   refuse it, yet the classifier takes it for some card (not surely), the card's pose is
   fitted to that card and the partial judge asked again, with its limits (an outline read off
   a corner is a pixel or two off). A card named partly covered owns only the cells where it
   showed (the card lying over it is not "on a named card"); one the classifier or its index
   names owns none (no cells are known to show), yet the classifier names no card lying nearly
   all on named cards' outlines, its own included, and one lying mostly on named cards only at
   its old, higher bar; one named whole owns the cells where its template matches (a subtle
   cover passes the whole judge). The partial judge's card is refused when the classifier is
   sure of another; a card it refuses on its separation alone (nearly sure) is named when the
   classifier names it too (nearly sure), also once fitted to the classifier's card. French
   cards: the corner index is read at the camera's resolution (index_reader.py); a covered
   card every judge refused is named from a sure reading when the partial judge's best fit or
   the classifier's best guess is that card (or from a very sure one alone, its other corner
   reading no other card), first with its pose fitted to the card the index reads (a
   hypothesis a few pixels off spoils the other judges, not the reader); a covered card named
   otherwise is refused when its index surely reads another, one the classifier names (alone,
   or with the partial judge nearly naming it) needs an index corner reading it, and any card
   named by a close match only is refused when its index reads another.
5. Without a calibration, one is guessed from a card named whole (self_calibration.py): the
   pose under which most of the largest few have a card's size; then the studio's kind of
   camera (a pinhole, its axis through the frame's middle, 20-35 degrees from vertical, hardly
   rolled, a 45-62 degree lens; camera_family.py) is fitted to all the cards of that size at
   once, which keeps the guess to planes such a camera sees (one card's corners, a pixel or two
   off, tilt the plane enough to make cards elsewhere 5-30% off their size). That fit is kept
   only when it places every card within 3 pixels (from three cards on the worst, bent or
   misread, may be dropped; render.py's cameras are not of that kind: 4-10 pixels off). With no
   card named whole, the family's middle camera at five framings and the pose of an outline
   close to a card, if any, are ranked by the best small-image score of a card their size on
   the view's outline corners; the best two, and the outline's pose whatever its rank, are
   tried by the calibrated path and the one naming more is kept. The pose kept is then fitted
   again, as the studio's kind of camera, to the cards it named (and those named whole on
   their outlines), each aligned to its own scan in the image (pose_refit.py: the calibrated
   path draws them as rigid cards on the guessed plane, so only the pixels can say it is
   off); the calibrated path runs again under the refitted pose, kept when it names more.
   Under a guessed pose a card named whole on its own outline is not renamed, and
   the classifier does not name a covered card where no card fits what shows (step 4: the
   outlines are less exact under a guess, and on tune seeds it named two cards wrong there),
   and names one the template judges agree on only at 0.95 (0.9 calibrated).
   (Switched off, `family_sweep`: with no card named, from an outline close to a card, failing
   that from any card-shaped outline, on the not-felt mask and then on that mask closed.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from devices.camera import felt_mask
from devices.camera.assets import card_scan
from devices.camera.camera_family import (
    FAMILY_SPANS,
    card_rectangle,
    family_poses,
    fit_family,
)
from devices.camera.card_classifier import (
    OTHER,
    CardClassifier,
    canonical_crop,
    card_classifier,
    card_verifier,
)
from devices.camera.card_localiser import Peak, axis_turn, card_localiser
from devices.camera.cascade import cascade_proposals
from devices.camera.cover_mask import cover_mask
from devices.camera.edge_snap import EdgeImage, snap
from devices.camera.index_reader import IndexReader, index_reader
from devices.camera.layout import CARD_WIDTH, CameraPose
from devices.camera.partial_match import (
    COLS,
    ROWS,
    CellSums,
    Lookalikes,
    PartialLimits,
    judge_partial,
    shown_at,
    visible_cells,
)
from devices.camera.pose_refit import refit_pose
from devices.camera.render import card_aspect
from devices.camera.self_calibration import pose_from_card, pose_from_plane
from devices.camera.table_view import CardRect, TableView, card_hypotheses, card_size
from devices.camera.telling import CEIL_H, CEIL_W, FACE_CORNERS, marks_seen, telling_pixels
from devices.camera.templates import (
    BACK,
    CANON_H,
    CANON_W,
    FINE,
    GRID_COLS,
    GRID_ROWS,
    SEARCH_H,
    SEARCH_W,
    TemplateSet,
    coarse_from_fine,
    normalise,
    template_set,
)
from studio.cards import DeckArt, DeckKind, parse_card


@dataclass(frozen=True)
class Thresholds:
    """Acceptance limits, tuned on scene seeds below 1,000,000 (see tests/test_recognizer.py)."""

    min_score: float = 0.75  # correlation with the best template
    contender_gap: float = 0.15  # templates this close to the best score are contenders
    min_separation: float = 0.1  # discriminant position against every contender (0.5 = exact)
    min_search_score: float = 0.4  # an anchored card is fitted only if it starts this close
    max_cell_error: float = 1.2  # mean squared error of the worst grid cell (normalised units)
    felt_ratio: float = 1.35  # felt: G > felt_ratio * max(R, B) + felt_floor
    felt_floor: float = 8.0
    # green's rule finding more than this share of the picture not felt has failed
    # (Options.felt_fallback): cards, chips and a hand cover far less of a table
    green_felt_max_share: float = 0.3
    # a felt learnt from the frame (felt_mask.py): its median neighbourhood, in pixels of the
    # small copy, in the image (the outline path) and in the calibrated top-down view. In the
    # image a row of cards laid close, seen from near, filled more than half of the default
    # neighbourhood, which then took the cards for the felt and broke their outlines (tune
    # scenes: 41 named the most uncalibrated; in the view 21 named more than 41)
    image_felt_median: int = 41
    view_felt_median: int = felt_mask.MEDIAN_K
    gold_blue: float = 0.5  # printed gold: B < gold_blue * min(G, R) and min(G, R) > gold_min
    gold_min: float = 70.0
    min_area: float = 6000.0  # card area in image pixels
    max_area: float = 30000.0
    min_aspect: float = 1.2  # long side / short side
    max_aspect: float = 2.8
    min_fill: float = 0.85  # a blob taken whole must fill this share of its quad
    refine_from: float = 0.45  # a calibrated hypothesis this close is aligned and judged
    min_quick_score: float = 0.3  # ... if it starts this close at the small search size
    shortlist: int = 24  # templates best at the small size, the only ones compared further
    # a hypothesis fitted from under refine_from (Options.fit_low_start) is judged from here:
    # the cards it named on tune 13300-13399 fitted at 0.77-0.94, half of the rest at 0.3-0.45
    low_start_fit: float = 0.7
    aligned_from: float = 0.9  # a match this close is judged before (or without) aligning it
    sure_fit: float = 0.9  # an aligned match this close is not fitted to a rival card as well
    aligned_min_separation: float = 0.2  # min_separation for an aligned (calibrated) card
    align_search_iterations: int = 0  # Gauss-Newton steps of the alignment, small size
    align_iterations: int = 6  # ... then at the canonical size
    align_max_shift: float = 2.0  # view pixels per alignment step
    outline_pose_score: float = 0.6  # an unnamed outline this close gives a calibration
    # ... and failing that, any card-shaped outline this close (the geometry is what counts),
    # then the same on the not-felt mask closed by this many pixels (a pale card on a dark
    # cloth leaves holes in it that break its outline)
    any_outline_pose_score: float = 0.0
    pose_close: int = 9
    partial_quick: float = 0.15  # a partly covered card is judged on what shows from here
    # a hypothesis whose centre lies this near a named card's (in its short side) is that card.
    # Tried at 0.3 (twenty-eighth session; a tight cascade's next card lies about 0.35 off):
    # tune calibrated, four decks, 49,000-49,299 +7 of 3,479 cards, 49,600-49,899 +6 of
    # 3,451, 0 false, +6-11% ms a still (the live path +17% on French 40); held-out, with
    # ownership_carries and same_card_apart, 9,344,850-9,345,899 (900 scenes a deck) 10,012
    # of 10,193 against the session's start's 9,992, but two false cards against none:
    # strips of tight cascades 0.3-0.4 of a card from a named one, a 5 of cups read by the
    # classifier alone (napoletane 9,344,896) and a 6 of cups the partial judge took for the
    # 7 beside it (piacentine 9,345,609). Not kept: a wrong card costs more than a late one.
    # Tried too (thirty-first session): a hypothesis 0.3-0.4 off a named card judged when it
    # lies on top of it (of their overlap, the named card owning at most half: it owns only
    # what showed). It named a knave of clubs 48% showing (tune piacentine 53,382) and not the
    # two false cards above, but tune 53,450-53,949: napoletane 1,395 against 1,396 of 1,425
    # and a false 2 of coins (53,642, a 3 whose third coin lay under the next card, on an
    # outline a fifth of a card off it, atop the 5 of cups under it), piacentine unchanged.
    # And a fan's cards (the thirty-first session): a fan turns its cards about a point near
    # their foot, so the top card of a tight fan has its centre a few pixels from the next
    # card's (tune french40 53,727, a 2 of diamonds whole on an ace turned 17 degrees, centres
    # 11 view pixels apart). Taking a hypothesis as a named card only along its axis (within
    # 8 degrees; detections too), with each named card's fan mates proposed (turned 10-22
    # degrees about either end's foot) and judged whole first: that 2 named, but tune
    # 54,450-54,749, four decks, 300 scenes each: 3,354 against 3,353 of 3,413, no false
    # card, napoletane's "twice" 3 against 1, and 1.6-2.4 times the time a still
    taken_within: float = 0.4
    # how far (of its width) and on what grid a covered French card's outline is searched
    # for the card its index reads or the classifier guesses (Options.index_search)
    search_reach: float = 0.2
    search_step: float = 0.05
    # ... and two detections of one card this near are one (Recognizer._apart): outlines
    # off a named card, across it and the next, name it again (tune napoletane 49,167 at
    # taken_within 0.3; held-out napoletane 9,345,441, spent, a 4 of cups named on outlines
    # 0.401 of a card apart, hence 0.45; at taken_within 0.4 and 20 pixels, one card named
    # twice in 1,200 held-out scenes, 9,345,600-9,345,899). A copy of a card (an eight-deck
    # shoe) that near would show under 45% of its face
    same_card_apart: float = 0.45
    # ... unless more than this share of its outline lies on cards named already: a card
    # 45-50% showing has 50-55% under named cards, and both outlines are a pixel or two off
    # (0.55 before, 1 - the issue's 45%; with Options.learned_owns_nothing, tune 15500-15749,
    # four decks, calibrated: +5 cards of 2,747 at 0.65, none false, +3-5% ms)
    max_named_share: float = 0.65
    # ... and a card the classifier alone names, counting the outlines of the cards it named
    # before (Options.learned_yields): nearly all of it (a card lying over one of those has
    # up to half of it on that outline; tune french40 18671, 0.68 named, the card right)
    learned_yield_share: float = 0.9
    yield_learned_prob: float = 0.98  # ... unless this sure (Options.learned_outweighs_yield)
    # the classifier names a refused card this sure (~0.98 at most: it is trained with label
    # smoothing) ... (0.95 before; at 0.9, tune 18100-18549 calibrated, the Napoletane
    # weights of the fourteenth session: +5 napoletane of 1,329, +9 piacentine of 1,215,
    # French unchanged on 18100-18299, none false). Tried at 0.6 and not kept (twenty-fifth
    # session): the partial judge's best fit agreeing, tune 41,650-42,849 four decks named
    # +20 of ~13,600 cards with no false card added, but on held-out 9,341,650-9,342,649
    # (1,000 a deck) +8 of 11,307 with 2 false Napoletane cards more (a 5 and a 4 of cups on
    # outlines across a cascade's strips, read 0.9 and 0.895, turned half round 0.52 and
    # 0.51: a turned reading is what to ask of a lower bar, tried on tune seeds first)
    learned_min_prob: float = 0.9
    # ... and read so turned half round too, with no index to confirm it
    # (Options.learned_turned; two false Napoletane cards of an earlier session read 0.51
    # and 0.52 turned: see learned_min_prob above)
    learned_turned_prob: float = 0.6
    # the rescue verifier's bar (Options.rescue): its card at this both ways up, ... (the
    # third verifier, trained with every card under 45% showing labelled no card, on tune
    # 68,090-69,589, rescue candidates read at 0.5 and sorted by their truth: at 0.7 and
    # `rescue_rival_prob` 0.1, napoletane 19 cards more and piacentine 19, none false; the
    # lowest bar with none false 0.6, 28 and 29. The second verifier at its 0.8: 23 and 29
    # more, 2 false piacentine cards, a 7 of cups read on a 6 58% showing)
    rescue_prob: float = 0.7
    # ... and no other card at this in either reading (the look-alike whose telling part is
    # covered: a 7 of batons 45% showing read a 6 at 0.85 and 0.84, the 7 at 0.09 and 0.11,
    # tune piacentine 65,993; as `learned_rival_prob` takes the classifier's second guess)
    rescue_rival_prob: float = 0.1
    # ... but as before where its crop is less to be trusted: under a guessed pose (an
    # outline spanning a cascade's covered cards and the one on top was named that top card
    # at 0.929, issue 15's scene 25, napoletane), and on a card lying more than
    # `learned_covered_share` on cards named already (less than ~42% of it can show: a 5 of
    # swords 37% showing, 61% of its outline on a named 4, read as a 7 at 0.943, held-out
    # napoletane 9315577, looked at after its report; a 6 of clubs 46% showing lay 56% on
    # the ace over it, named at 0.922, tune piacentine 18646; at 0.55 it was refused)
    wary_learned_min_prob: float = 0.95
    learned_covered_share: float = 0.58
    learned_agree: int = 3  # ... and among this many best template matches of the crop
    # where no card fits what shows (the cover spoils the partial judge too), the classifier
    # alone names it only this sure, of the crop and of the crop turned half a turn (the
    # same card: a chance pattern seldom reads the same both ways), and when its card is
    # the crop's best template match (0.975, near the ~0.98 the classifier reaches: at 0.96
    # an outline slid a third of a card off a 3 of coins 65% showing, its third coin outside
    # the crop, was named a 2 of coins at 0.971, tune 6942; tune 6700-7199 (two Italian
    # decks) and 14500-14799 (four decks): 3 cards fewer of 6,252, that false card gone;
    # held-out stills 9,306,000-9,306,499: 1 card fewer of 5,674, no false card more or less)
    learned_alone_prob: float = 0.975
    # ... and this sure (both ways up) where the card is not the crop's best template match
    # (Options.alone_unranked)
    alone_unranked_prob: float = 0.985
    # a covered card the partial judge refuses on its separation alone, this far towards it,
    # is named when the classifier names it too, this sure (Options.paired_near; at 0.3 and
    # 0.8, tune 17400-17699 calibrated: +9 napoletane of 779, +4 piacentine of 799, French
    # unchanged, none false; at 0.25 and 0.7, fresh tune 17700-18099: +4 of 1,120 and +2 of
    # 1,112 more, French unchanged, none false; at 0.3 again since: a 7 of cups 43% showing
    # fit a 6 of cups at 0.264, the classifier agreeing at 0.83, held-out piacentine 9315711,
    # looked at after its report; tune 18550-19149, four decks: no card more or fewer)
    near_separation: float = 0.3
    near_learned_prob: float = 0.7
    # a card the whole-card judge refuses on its separation alone, this far towards it (an
    # aligned card asks aligned_min_separation), is named when the classifier names it too,
    # this sure both ways up (Options.whole_paired_near: over-exposed, blurred French cards
    # whose index has washed out, ray_scenes.py)
    whole_near_separation: float = 0.1
    whole_near_learned_prob: float = 0.98
    # ... or a French card, this sure one way up when its corner index reads it too, this
    # surely (Options.whole_index_paired)
    whole_index_learned_prob: float = 0.85
    whole_index_min_prob: float = 0.9
    # a card the whole-card judge names under this score is refused where the classifier
    # reads another card on its outline this surely both ways up (Options.whole_learned_veto)
    whole_veto_below: float = 0.9
    whole_veto_prob: float = 0.9
    # ... this sure when a look-alike differs from it this little where it shows
    # (Options.near_lookalike): a Piacentine 7 of cups showing its left column, the middle
    # cup under the next card, is a 6 of cups there (gap 0.29-0.46; the classifier named
    # the 6 at 0.82-0.95 in spent held-out 9317068, 9317808, 9319286, 9319343, 9319417 and
    # tune 22011; tune 22000-22599, two Italian decks: 11 right cards of 176 so named fall
    # too, most of them a 6 showing the column a 7 shares). The same look-alikes are refitted
    # to (Options.lookalike_refit) and asked of a card the judge names (judged_lookalike).
    # Measured, not built (thirty-first session): the false 6s of cups for 7s (held-out
    # piacentine 9,349,155, spent; tune 52,770, 52,841) are named on cells where the two
    # templates differ (gap over 0.5), by 1-2 canonical pixels of the cups' place, which an
    # outline 5% off makes up. Counting the pixels where the nearest other card differs by
    # more than 0.5 (normalised, 1-pixel blur, within 1 pixel's shift) on the cells shown:
    # 12, 40 and 40 for those three, but under 45 for 19 of 233 covered cards named right
    # (tune 56,050-56,249, both Italian decks): no bar tells them apart. Nor does checking
    # again, once all are named, without the cells the cards named later show: their shown
    # cells lay beside the card over them, not under it
    near_lookalike_gap: float = 0.5
    near_lookalike_prob: float = 0.96
    # ... or this sure both ways up, the crop and the crop turned half round
    # (Options.lookalike_both_ways)
    lookalike_both_ways_prob: float = 0.9
    # the classifier's second guess is refitted to when it gives it this much
    # (Options.learned_rival_refit)
    learned_rival_prob: float = 0.1
    # a covered card all judges refuse is fitted to the classifier's card when it is this sure
    learned_fit_from: float = 0.5
    # a card the classifier named is refused when its outline moved by these shares of the
    # card's width along its sides reads another card of its suit this surely, and surer than
    # the card was named (Options.read_beside)
    beside_shifts: tuple[float, ...] = (0.2, 0.3)
    beside_prob: float = 0.9
    # a card the partial judge names is refused when the classifier is this sure it is
    # something else (tune seeds 0-399: never so on a right card); 0.9 before the Italian
    # weights of 2026-11-27, less sure of a covered 5 of cups the judge named a 4 (0.68, tune
    # piacentine 20897: a false card). At 0.6, tune 20,750-21,549 piacentine: that false
    # card gone, no card fewer; napoletane 20,750-21,349 and French 21,050-21,449: no change
    learned_veto_prob: float = 0.6
    # a covered French card is named from its corner index read this sure (index_reader.py),
    # when the partial judge's best fit is that card, or the classifier's best guess at this
    index_min_prob: float = 0.95
    index_agree_prob: float = 0.5
    # ... or with no second method, read this sure. Tried and not kept (twenty-ninth
    # session): 0.97. Tune 50,800-51,249, french52 1,237 against 1,234 of 1,254, french40 the
    # same, 0 false (0.98: 1,236); 51,250-51,749, french40 1,356 against 1,355 of 1,372,
    # french52 1,377 against 1,375 of 1,404, 0 false. On its true outline the reader read the
    # card at 0.92 or more in 13 of the 16 French misses of 50,800-51,099 (a 2 of diamonds
    # read 0.989 on its hypothesis was refused, the classifier taking it for a 3 at 0.51,
    # french52 50,844). But held out, 9,346,200-9,347,199: french40 2,817 against 2,814 of
    # 2,848, french52 2,699 against 2,696 of 2,736 with a false 5 of spades (9,346,634, on a
    # 10 and a 6 of spades 39% and 33% showing): a wrong card costs more than a late one
    index_alone_prob: float = 0.99
    # ... and a covered card named otherwise is refused when its index reads another this sure
    index_veto_prob: float = 0.95
    # ... and one the classifier names must have an index corner reading it this sure
    index_confirm_prob: float = 0.5
    # ... and any card named with a score under this is refused when its index reads another
    # this sure (Options.index_checks_whole)
    index_check_below: float = 0.85
    index_disown_prob: float = 0.8
    # a covered card all judges refuse, whose index reads a card this sure, is fitted to that
    # card and judged on what shows again (Options.index_fit)
    index_fit_from: float = 0.8
    # the learned localiser's peaks this strong (0..1) propose cards, the strongest this many
    localiser_min_heat: float = 0.3
    localiser_most: int = 16
    # ... where no outline hypothesis has its centre this close (card widths)
    localiser_apart: float = 0.25
    # ... (with Options.localiser_axis: and its long axis this close, degrees)
    localiser_same_turn: float = 15.0
    # ... (with Options.localiser_turns: each peak also proposes its card turned these many
    # degrees either way, the smaller turns first, judged only where the peak's own is not
    # named; 20 besides 10: a fan's top card whose peak's axis was 29 degrees off, tune deal
    # 13255)
    localiser_turns: tuple[float, ...] = (10.0, 20.0)
    # the cover mask (Options.cover_blanks, cover_hides) marks a view pixel covered where
    # it is this sure: its edge is a cell (4 view pixels) coarse, and a card's pixels taken
    # for cover are evidence lost (tune 78,200-78,499: Options.cover_blanks)
    cover_min_prob: float = 0.8
    # the telling check's bar (Options.telling_check): pixels of what shows of a covered
    # card on which every other card differs from it (telling.py, of CEIL_W x CEIL_H). At 1,
    # only what no pixel tells apart is refused; right cards named were told apart by as few
    # as 7 (and their true visible parts by 6-9: tune piacentine 81,144, 81,248, 81,488)
    min_telling_pixels: int = 1
    # ... and of a card the rescue verifier names (Options.rescue: a network alone, no
    # template matching it): rescue candidates of tune 84,200-85,199 read at 0.7 both ways,
    # a Piacentine 5 of coins read a 4 at 0.94 and 0.86 (84,494) was told apart by 8; the
    # right ones by 20 or more (the fewest: Piacentine 20 and 24, Napoletane 39)
    rescue_min_telling_pixels: int = 20
    # ... and of those, pixels of its own print the frame shows (telling.marks_seen; 0: not
    # asked): of rescue candidates on tune 84,200-85,199, 30 of 40 right Napoletane and 20 of
    # 28 Piacentine show 20 or more; the rescue's false cards 13, 0 and 0 (tune piacentine
    # 85,411 and spent held-out 9,368,068, 6s of cups on 7s whose middle cup lay under a card
    # not named; spent held-out napoletane 9,367,302, a 3 of coins across two cards). Fresh
    # tune 86,700-88,199 (rescue on against off): napoletane +19 cards (+28 without the
    # marks), piacentine +16 (+22), no false card added either way
    rescue_min_marks: int = 20
    # ... and not a card of a code named within this many card widths of its centre
    rescue_same_apart: float = 1.0
    # without a calibration, a guess fitted as the studio's kind of camera is kept only when
    # it places every card it was fitted to within this many pixels (worst card's rms)
    family_max_error: float = 3.0
    # ... and with no card named whole, this many of that camera's framings (the best ranked
    # by this many hypotheses' small-image scores) are tried in full
    sweep_passes: int = 2
    sweep_hypotheses: int = 30
    # the guessed pose refitted to the cards named under it (Options.pose_refit): a card
    # counts when its scan aligns with the image at this correlation (ECC); partly covered
    # cards align at 0.4-0.86, whole ones at 0.93-0.99 (ray tune 712,000-712,149) ...
    refit_min_cc: float = 0.9
    refit_cards: int = 6  # ... of the best scored this many at most
    partial: PartialLimits = field(default_factory=PartialLimits)
    # a card a hand's step proposes lies this much on the not-felt mask (on cards). Tried and
    # not kept (thirtieth session): that mask closed (9 pixels) and its holes filled first, as
    # a card back's dark print and black pips pass for felt, and a card under a back was not
    # proposed (tune french52 52,187); fresh tune 52,550-52,849, four decks: no card changed
    cascade_on_cards: float = 0.8
    # a hypothesis judged on what shows is judged again moved onto the edges its sides lie
    # near (Options.edge_snap): this far at most, in card widths, turned by one of these
    # degrees (+-2 only: 2 cards fewer of 857 on tune 29,300-29,449 Italian)
    snap_reach: float = 0.15
    snap_turns: tuple[float, ...] = (0.0, -2.0, 2.0, -4.0, 4.0)
    snap_min_move: float = 2.0  # ... judged when it moved this many view pixels or more
    # a hypothesis under `partial_quick` is judged on what shows all the same from here when
    # the classifier names a card on it this sure (Options.learned_quick)
    learned_quick_from: float = 0.05
    learned_quick_prob: float = 0.9


@dataclass(frozen=True)
class Options:
    """What the recogniser does beyond the issue-15 pipeline, each switchable so that the
    benchmark can run today's recogniser (`baseline_options`) beside the current one."""

    # "green": felt is where green dominates (the first recogniser); "adaptive": the felt is
    # learnt from the frame (felt_mask.py, any cloth); "auto": green's rule on a green cloth
    felt: str = "auto"
    # ... and, on a green cloth, the learnt felt where green's rule fails (a dark cloth
    # under a warm light: Thresholds.green_felt_max_share). On tune 48,000-48,999 (four
    # decks) it took over in 21 scenes of 4,000: calibrated 73 of 73 cards either way,
    # uncalibrated 71 against 64 of 73, 0 false either way (on 24 scenes of 40,000-40,599
    # chosen for a failing mask: 70 against 54 of 75 uncalibrated, 74 against 72
    # calibrated). Tried and not kept (thirtieth session): on a green cloth, not felt only
    # where green's rule and the learnt felt agree, for a whole 3 of hearts lying unlocated
    # in a lamp's highlight (tune french40 52,270); fresh tune 52,850-53,149, napoletane and
    # french40: no card changed
    felt_fallback: bool = True
    partial: bool = True  # name a partly covered card from what shows (partial_match.py)
    partial_align: bool = True  # ... after fitting its pose when it nearly passes
    # ... the fitted pose kept unless the judge finds no card on it: a fit that slid off (a
    # chip and a highlight on the card) lost a queen of swords 95% showing, nearly named
    # with the classifier agreeing (tune deal napoletane 24730). Not when the fit names
    # another card: that is evidence (held-out deal piacentine 9100456, spent: a 6 of cups
    # judged a 7 nearly, a 6 once fitted; the first outline kept, the classifier named it
    # a 7, a false report). Tune stills 24,600-24,999, four decks: 4,352 vs 4,345 of 4,528
    # (the first rule, dropping any fit judged less well: 4,348), 0 false either way
    keep_better_fit: bool = True
    strict_outline: bool = True  # the outline path asks the calibrated path's separation
    self_calibrate: bool = True  # without a calibration, guess one from a whole card
    learned: bool = True  # a card the templates refuse, the classifier may name (sure, agreeing)
    pose_from_any_outline: bool = True  # no calibration guessed: try any card-shaped outline
    # a partly covered card named from what shows owns those cells alone, not its whole
    # outline: the card lying over it is not "on a named card" (that refused it: tune seeds
    # 0-199 and 1000-1199, calibrated, 18 cards more, none false)
    own_what_shows: bool = True
    learned_fit: bool = True  # a covered card the classifier half knows: fit it, judge again
    # the partial judge's card is refused when the classifier is sure of another: what shows
    # of a 5 of cups can fit a 4 of cups on the cells left, its middle cup half under a card
    learned_veto: bool = True
    # French cards: a covered card's corner index read at the camera's resolution names it
    # (with a second method agreeing) or refuses another name (index_reader.py)
    index_reader: bool = True
    index_confirms_learned: bool = True  # ... and confirms the classifier's covered cards
    # ... and a covered card refitted to the classifier's card and named there by the partial
    # judge shows a corner index of some card on that outline (a French card counts only with
    # an index in view): spent held-out french52 9,332,359, a hypothesis straddling a 3 of
    # hearts and its neighbour, the classifier 0.94 for a 6 of hearts, fitted to it and
    # named, both corners of the fitted outline reading no index
    refit_needs_index: bool = True
    # a card refused as its look-alike fits what shows as surely (`_rival_fits`) is doubted
    # as one the classifier could not tell from its look-alike is, and a doubted card is not
    # named on another outline at the same place, by any path. Tune piacentine 26,770, a 7
    # of cups 41% showing: the twenty-second session's weights, 0.96 sure of a 6 on the first
    # outline (so not doubted there), refused as the 7 fits as well, named the 6 on second
    # outlines refitted to it (the classifier asked again at 0.99; the partial judge)
    rival_doubts: bool = True
    index_checks_whole: bool = True  # ... and may refuse a card named by a close match only
    # ... and a covered card every judge refused is fitted to the card its index reads and
    # judged on what shows again: a hypothesis 4-8% of a card off (built from the corners of
    # the cards around it) spoils the partial judge and the classifier, not the index reader
    index_fit: bool = True
    # ... a card named by its index alone (no second method agreeing) is refused when its
    # other corner reads another card, however unsure: an ace of spades under a hand, its
    # top index read a 4 of spades at 0.995, its bottom one an ace at 0.34 (tune 19243)
    index_corners_agree: bool = True
    # ... and a covered French card every judge refused is searched for, after every other
    # hypothesis, as the card its index reads or the classifier guesses, up to a fifth of a
    # card around its outline (Thresholds.search_reach), and named there as its index names
    # one. Tried and not kept (thirtieth session): its index's card counted as a second
    # method agreeing when its templates explain what shows (8 cells or more, the rest
    # covered from the edge) though another card explains it as well (tune 51,750-52,049,
    # french40 and 52: no card changed); the misses lie 5-16% of a width off their outline.
    # Tried and not kept (thirty-third session): a refused French hypothesis that no index
    # nor classifier points at, its indices read on a 5 x 5 grid of moves (a fifth of a
    # width either way, one batch of the index network) and searched for as the card read
    # surest there: tune 60,250-60,749, french40 1,425 against 1,424 of 1,436, french52
    # 1,339 against 1,338 of 1,353, 0 false, for +75% ms a still (most of those misses had
    # no hypothesis within a fifth of a width to scan from)
    index_search: bool = True
    # the partial judge counts no cell lying on a card named already as showing (they were
    # matched, and the card then dropped as "what matched is a card named already")
    named_hide: bool = True
    # a covered card named by the classifier or its index (no cells known to show) owns none
    # of the view: its outline would claim the cards lying over it, not named yet, and refuse
    # them as "on a named card" (a French fan: tune 15500-15749, four decks, calibrated, +15
    # cards of 2,747, none false; it stays `taken`, so no hypothesis names it again)
    learned_owns_nothing: bool = True
    # ... in the pass over the cascade's hypotheses too: what the cards named on what shows
    # own and claim carries over to it. Before, every named card owned its outline anew
    # there, the ones the classifier named too, whose outline then claimed the cards lying
    # over them (tune napoletane 49,114: a 5 of coins 43% showing owned 56% of a 5 of cups
    # 47% showing, which was not judged). Tune 49,000-49,299, calibrated: napoletane 869
    # against 867 of 888, piacentine 831 against 830 of 845, french40 899 against 895 of
    # 909, french52 822 against 821 of 837, 0 false either way, the time the same
    ownership_carries: bool = True
    # ... but a card the classifier alone names must not lie nearly all on the outlines of
    # cards named already, the classifier's own included (Thresholds.learned_yield_share):
    # an outline lying across the lower halves of a 6 and an ace of coins read as a 7
    # (0.957), the 6 itself named by the classifier (uncalibrated napoletane 9316142, once
    # held out; and issue 15's scene 25, which the guessed pose's bar refused before)
    learned_yields: bool = True
    # ... unless (French) a corner index of its outline reads the card surely
    # (Thresholds.index_min_prob): a card of a tight cascade lies over the one before and
    # under the one after, both named by the classifier, and more than 90% of it lies on
    # their outlines though 54% of it shows (tune french40 41,252, a 3 of diamonds read at
    # 0.996 both ways up, its index in plain view); the index is the card's own evidence
    index_outweighs_yield: bool = True
    # ... or (no index to read) the classifier reads it both ways up at
    # Thresholds.yield_learned_prob and the partial judge's best fit on the outline is that
    # card too: a cascade's card over one the classifier named (which claims its outline) and
    # under the next lies 90% on their outlines (tune piacentine 53,357, a 6 of coins 52%
    # showing, read at 0.985). Tune calibrated, 53,950-54,449: piacentine 1,362 against
    # 1,360 of 1,396, napoletane 1,456 of 1,488 either way, 0 false; 54,750-55,249:
    # piacentine 1,411 against 1,409 of 1,447, napoletane 1,347 of 1,369 either way (and
    # the same false 2 of coins either way, 55,127)
    learned_outweighs_yield: bool = True
    # (Tried and not kept, thirty-first session: a card the classifier names where the
    # templates refused it read so turned half round too, at 0.9, where no index confirms it.
    # Tune calibrated 55,250-56,049: napoletane unchanged, piacentine -1 and -1 of ~1,400, the
    # French decks -1 each of ~830 (asked of them too), 0 false either way; and on the false 2
    # of coins it was for (tune napoletane 55,127, an outline across two cards of a cascade,
    # 0.984, its plain crop 0.876 turned) it refused the 7 of clubs beside it instead: the
    # crop it reads has the named cards blanked, and turned, that reads otherwise)
    # (Tried and not kept, twenty-ninth session, each changing no card of tune 50,800-51,099,
    # four decks, 300 scenes each, calibrated: a card the classifier named claiming, or
    # owning, only the cells its template matches on, since a cascade's card under the next
    # and over one the classifier named lay 90% on their outlines, piacentine 50,352's ace
    # of clubs, but the classifier's cards seldom match their template on enough cells to
    # say; and a refused covered hypothesis judged again once cards named after it owned 5%
    # more of it.)
    # a card named whole owns only the cells where its template matches: one named whole
    # though partly under another card (the whole judge let a subtle cover pass) would claim
    # the card on top, refused then as lying on a named card (a Napoletane jack 66% showing,
    # 73% of it on the outline of the 3 it lies on: tune 17055)
    whole_owns_what_shows: bool = True
    # a covered card the partial judge nearly names (its separation alone short) is named
    # when the classifier names it too, nearly sure (Thresholds.near_separation)
    paired_near: bool = True
    # a card the whole-card judge nearly names (its separation alone short: every cell
    # matches) is named when the classifier names it too, sure both ways up, and no corner
    # index surely reads another card (Thresholds.whole_near_separation). No index must
    # confirm it: an index is asked to tell a covered card from its look-alike, and this one
    # shows whole. Why: on ray_scenes.py's held-out stills (9,000,000-9,001,999, spent since)
    # whole French cards were missed 1.3% of the time, against 0.2% for Italian ones: an
    # over-exposed, blurred card's index washes out, and its judge's separation falls just
    # short (0.17-0.19 of 0.2), the classifier at 0.99 and more
    whole_paired_near: bool = True
    # ... or, a French card, the classifier less sure (one way up) and its corner index
    # reading it too: three methods agreeing (ray tune 711,191 french40, a 4 of hearts seen
    # whole and blurred, its judge's separation 0.118 from the 4 of diamonds on its
    # outline, the classifier 0.91 there, the index 0.93)
    whole_index_paired: bool = True
    # a card the whole-card judge names weakly (under Thresholds.whole_veto_below) is refused
    # where the classifier reads another card on its outline both ways up
    # (`whole_veto_prob`): two methods disagreeing on a card seen whole. The template judge
    # alone named a 6 of swords (score 0.757; the bar is 0.75) on a 7 of swords seen whole,
    # the classifier 0.997 and 0.998 for the 7 (spent held-out piacentine 9,010,633). Ray
    # tune 718,300-718,599 two Italian decks and 718,300-718,499 two French: of 163 cards the
    # whole judge named under 0.9, all right, the classifier read every one the same at 0.98
    # or more both ways up. Refused, the outline is judged on what shows, as any other (wide
    # tune french40 15,585 uncalibrated: a 3 of spades seen whole matched a 3 of clubs at
    # 0.81, refused by its index before, is refused by this too and then named the 3 of spades)
    whole_learned_veto: bool = True
    # ... and so on the outline fitted to the classifier's card (`_refit_to_learned`), the
    # classifier asked again there (tune 17400-17699 calibrated, four decks: +16 of 3,250;
    # 17700-18099: +12 of 4,394; none false)
    paired_near_refit: bool = True
    # ... a French card so named needs an index corner reading it, as one the classifier
    # names does (`index_confirms_learned`)
    near_index_confirms: bool = True
    # ... and one whose look-alike differs little where it shows, the classifier surer
    # (Thresholds.near_lookalike_gap)
    near_lookalike: bool = True
    # ... and one the partial judge names alone (Thresholds.near_lookalike_gap: the
    # classifier must name it as surely as the pair then, or a French card's index read it;
    # a 7 of cups named a 6 at 0.436, tune piacentine 23098. Tune 23,400-23,799: napoletane
    # 1,130 vs 1,132 of 1,188, piacentine 1,021 vs 1,022 of 1,086, 0 false either way; French
    # 23,800-24,199: no card changed)
    judged_lookalike: bool = True
    # ... both: the classifier as sure of the card when it reads the crop turned half round
    # too is sure enough (Thresholds.lookalike_both_ways_prob; not under a guessed pose,
    # `_under_guess`, nor on an outline fitted to the classifier's card, `_learned_on_fit`:
    # there it named a 6 of coins for a 7, tune napoletane 45,617). On tune 43,050-43,649 the
    # look-alike rules refused 59 Italian outlines, 55 of them on their right card, none on
    # another (e.g. napoletane 43,367, a 5 of coins read 0.91 and 0.985 turned). Tune
    # 43,650-44,249 calibrated: napoletane 1,630 vs 1,627 of 1,665, piacentine 1,601 vs
    # 1,593 of 1,660, 0 false either way; the spent held-out look-alikes the rules were made
    # for (piacentine 9,317,068, 9,317,808, 9,319,286, 9,319,343, 9,319,417) name none false;
    # French 43,650-44,049: no card changed. Tried and not kept: the same for the bar of a
    # card the classifier and the partial judge agree on (learned_min_prob 0.9, or 0.8 both
    # ways up): tune 44,250-44,849 Italian, +1 of 3,304
    lookalike_both_ways: bool = True
    # a covered card named from the part that shows (the classifier agreeing or not) is
    # refused when its closest look-alike (the partial judge's rival) is named as surely once
    # the outline is fitted to it: a few pixels of outline then decide between two cards
    # that differ under the cover (held-out piacentine 9317096, looked at after its report;
    # tune 20150-20749, four decks: 1 card fewer of 6,857, a 7 of cups whose outline fitted
    # to a 6 of cups named the 6 as surely)
    rival_refit: bool = True
    # ... and so when the look-alike is the card whose template differs least where it shows
    # (partial_match.closest_lookalike), not the judge's rival (nearest in the image): a
    # Piacentine 4 of cups, a hand over the middle where the 4 and 5 differ, named a 5
    # (spent held-out 9319897; the judge's rival a 7 of coins). Only a look-alike nearer than
    # Thresholds.near_lookalike_gap (tune 23,000-23,399, four decks: no card changed)
    lookalike_refit: bool = True
    # ... and the classifier's second guess, when it gives it `learned_rival_prob`: a
    # Napoletane 4 of cups 51% showing, named a 3 by the nearly-sure pair (the classifier
    # 0.78 for the 3, 0.17 for the 4), the 4 named as surely on an outline fitted to it
    # (spent held-out 9320164)
    learned_rival_refit: bool = True
    # the look-alike rules ask about a card the partial judge refused before telling it
    # apart from any other (another card explains as much, or looks the same where it
    # shows) too: such a card carried no cells, so no look-alike, and the classifier at
    # 0.94 named a Napoletane 7 of coins 45% showing a 6 (spent held-out 9323648). Tune
    # 25,000-25,299: napoletane 796 of 840 either way, piacentine 824 vs 823 of 877; French
    # 52 lost 2 of 841 (a 3 of clubs, its look-alike the 3 of spades) until the classifier's
    # French cards, which need an index corner reading them, were let the index tell them
    # apart (`_index_confirms_learned`); then French 25,300-25,599 as the session's start
    # (804 of 838 and 831 of 877); 0 false throughout
    lookalike_unseparated: bool = True
    # the classifier is shown a covered card with what lies on cards named already blanked,
    # when its weights were trained so (CardClassifier.blanks): a Piacentine 7 of cups, its
    # right half under another 7 whose cups stood where a 6's right column stands, was named
    # a 6 at 0.99 by the classifier alone (spent held-out 9323738)
    learned_blanks_named: bool = True
    # the hypotheses judged on what shows are judged best quick match first (a French 5 of
    # hearts 93% showing, a chip over its corner, lost its place to the jack it lay on, 16%
    # showing and named first from its index: held-out deal 9,100,657, spent). Tune 46,650-
    # 47,249 Italian and 46,650-47,049 French, calibrated: napoletane 1,628 vs 1,623 of
    # 1,661, piacentine 1,666 vs 1,662 of 1,703 (false 0 vs 1), french40 1,079 vs 1,077 of
    # 1,100, french52 1,102 vs 1,101 of 1,122 (1 false either way)
    covered_by_quick: bool = True
    # a covered card the classifier names alone (no template fits what shows) at
    # Thresholds.alone_unranked_prob both ways up needs not be the crop's best template match
    # (tune 43,050-43,649 Italian: of 208 outlines refused so, read at 0.9 or more, one lay
    # on another card, read 0.90; 44,850-45,449 calibrated: napoletane 1,684 vs 1,683 of
    # 1,737, piacentine 1,638 vs 1,636 of 1,670, 0 false either way)
    alone_unranked: bool = True
    # a covered card refitted to the classifier's card (`_refit_to_learned`), which the
    # partial judge takes for it yet refuses, is put to the classifier again there, unless
    # another outline of it was doubted (a Piacentine 7 of cups 41% showing, named a 6 at
    # 0.97 on a second outline after its first was refused as unsure of the 7: tune 26,770).
    # Tuned on 26,700-26,999 (+11 of 3,275 calibrated, four decks); then on tune seeds not
    # looked at before, calibrated 27,000-27,599: +16 of 6,661; uncalibrated 27,600-27,749:
    # +13 of 1,642; 0 false throughout, +0.5 ms a frame
    learned_on_fit: bool = True
    # ... and named only when the classifier names the fitted crop turned half round too
    # (`learned_min_prob`): a 7 of cups read at 0.97 on an outline across a tight cascade of
    # four cards each 30% showing (0.74 turned; spent held-out 9,327,661). Tune 27,000-
    # 27,599 Italian and 27,000-27,399 French, calibrated: 5,249 of 5,475 with it, 5,250
    # without; 0 false either way
    learned_on_fit_turned: bool = True
    # a card the classifier names with no corner index to confirm it (Napoletane and
    # Piacentine) is named only when the crop turned half round reads it too, at
    # Thresholds.learned_turned_prob: spent held-out piacentine 9,353,167, an outline across
    # a king of swords and a 6 of cups 50% showing read a 5 of cups at 0.90 one way up and
    # 0.30 the other, a false card. Tune 63,750-64,749 calibrated: napoletane 2,847 and
    # piacentine 2,789 right either way (of 2,911 and 2,854), at 0.5 as at 0.6, the one
    # false card (63,813, a 2 of coins read 0.99 both ways) either way. (Asked of French
    # cards too, whose index confirms them already: french52 2,734 against 2,735 of 2,770.)
    # Held-out 9,354,800-9,356,799 (after its report): the same cards either way, +1% ms
    learned_turned: bool = True
    # the hypotheses judged on what shows that every rule refused, named at last where the
    # rescue verifier reads them surely (`_rescued`, Thresholds.rescue_prob): a network of
    # the classifier's shape trained on exactly such hypotheses, labelled by where they lie
    # (training/rescue_crops.py), where the classifier was trained on true outlines and
    # reads many an outline across a cascade's neighbours as surely as a half-covered card.
    # Italian decks only (`_rescuing`: a French card needs its index), calibrated only
    # (`_under_guess`). The classifier itself at 0.97 both ways on the partial judge's card
    # named 1 and 2 more of 782 and 894 on tune 64,790-65,089. The session's first verifier
    # (rescue crops labelled on a card within 0.08 of a width, no card beyond 0.25) on fresh
    # tune 66,090-67,089: napoletane 2,704 against 2,677 of 2,724, piacentine 2,744 against
    # 2,728 of 2,813, but 3 false cards more: outlines across a tight cascade's strips
    # (0.2-0.36 of a width off every card) and a 6 of cups 30% showing read a 7. Retrained
    # with those labelled no card, on fresh tune 67,090-68,089: napoletane 2,800 against
    # 2,776 of 2,836, piacentine 2,713 against 2,695 of 2,760, 0 false either way, +13% ms.
    # OFF: on held-out 9,357,300-9,359,299 (2,000 scenes a deck, never run before) it named
    # napoletane 5,536 against 5,490 of 5,603 and piacentine 5,621 against 5,577 of 5,725,
    # but 2 false Napoletane cards against 0 (9,357,609, a 6 of coins 38% showing read a 7
    # at 0.83 and 0.87; 9,359,109, an outline on a jack 27% showing in a stack of cards each
    # under a third showing, read a 5 of cups at 0.97 both ways): a wrong card costs the
    # operator more than a late one. The third verifier (those stacks labelled no card,
    # training/rescue_crops.truth_label; Thresholds.rescue_prob 0.7), on fresh held-out
    # 9,359,300-9,361,299: napoletane 5,547 against 5,523 of 5,635 and piacentine 5,497
    # against 5,467 of 5,615, with 1 false piacentine card more (9,361,178, a 6 of cups on an
    # outline 0.16 of a width off a 7 of cups 53% showing, read 0.73 and 0.76): still off.
    # With the telling check (Thresholds.rescue_min_telling_pixels) and no code twice
    # (rescue_same_apart), tune 81,700-86,699 (4,000 scenes): napoletane +66 cards, no false
    # card added; piacentine +53, one (85,411, a 6 of cups on a 7 of cups 47% showing). Fresh
    # held-out 9,366,300-9,368,299: napoletane 5,590 against 5,553 of 5,670, piacentine
    # 5,481 against 5,447 of 5,601, but a false card more each (9,367,302, a 3 of coins on an
    # outline across a 6 of batons and a 2 of coins; 9,368,068, a 6 of cups on a 7 of cups
    # whose middle cup lies under another 7 not named): still off. Naming only on print of
    # its own the frame shows (Thresholds.rescue_min_marks, which refuses both), fresh tune
    # 86,700-89,699 (3,000 scenes a deck): napoletane +42 cards, one false card added
    # (89,363, a 5 of cups on an outline across a tight cascade's strips, 27 pixels of a 5's
    # cups seen on the strips); piacentine +40, none: still off. Fresh held-out
    # 9,368,800-9,370,799 (after that): napoletane 5,611 against 5,579 of 5,709, piacentine
    # 5,464 against 5,445 of 5,586, no false card added (without the marks: 5,616 and 5,470,
    # a false 6 of cups on a 7 of cups, 9,369,263). ON since the forty-ninth session, measured
    # on the ray-cast scenes (ray_scenes.py, a renderer the verifier never saw): ray tune
    # 711,250-711,499 and 713,000-713,499, calibrated, napoletane 2,002 -> 2,014 of 2,061,
    # piacentine 1,999 -> 2,007 of 2,037, no false card; the cards it named on wide tune
    # 720,000-720,999 (41, both decks) all right, read 0.72-1.0. Then fresh ray held-out
    # 9,006,750-9,008,749 (2,000 scenes a deck, the decision rule fixed before: on if it
    # adds no false card): napoletane 5,566 against 5,529 of 5,679, piacentine 5,536 against
    # 5,520 of 5,639, the same 3 false cards a deck either way (none the rescue's); +15% ms a
    # still. (At rescue_prob 0.75, above the two false cards traced before, read 0.706 and
    # 0.737: 5,559 and 5,532, the same false cards.)
    rescue: bool = True
    # the classifier's crop of a card lying partly beyond the frame's edge is blanked there,
    # as where it lies on cards named (learned_blanks_named): the warp's black is not the
    # card (4 of 37 Italian cards missed on tune 72,590-72,839 lay across the edge). Tune
    # 75,600-76,399 calibrated: napoletane 2,183 against 2,181 of 2,230, piacentine 2,086
    # against 2,085 of 2,136; French 76,400-76,999 unchanged; uncalibrated 77,000-77,299:
    # napoletane 803 against 802 of 856, piacentine unchanged; 0 false either way, the same
    # ms. Held-out 9,361,300-9,363,299, four decks: 22,286 against 22,277 of 22,651, no
    # false card added (bench_wide_scenes)
    blank_outside: bool = True
    # the learned cover mask (cover_mask.py: the dealer's hand, a chip stack on the view) is
    # blanked in the classifier's crops of a card judged on what shows, as the cards named
    # already are (`cover_blanks`), and its cells count as hidden to the partial judge
    # (`cover_hides`), as named_hide's do. Of the Italian cards missed on tune, about half
    # lay partly under the hand. The generator's own cover (its label image: an oracle),
    # tune 78,200-78,499 calibrated, both switches: napoletane 798 against 795 of 819,
    # piacentine 811 against 810 of 835; the learned mask at Thresholds.cover_min_prob 0.8:
    # 797 and 810 (at 0.5, 796 and 810, and the first, coarser network lost 2 Piacentine
    # cards beside the hand). Fresh tune 78,500-78,999, four decks: napoletane 1,412 against
    # 1,411 of 1,435, piacentine 1,403 either way of 1,442 (one gained under the hand, one
    # lost beside a chip the mask found rightly), french40 1,418 either way, french52 1,330
    # against 1,329 of 1,343; 0 false either way; +3-4 ms a still (the mask is run once a
    # frame, only when a hypothesis is judged on what shows), live deals within the noise.
    # Held-out 9,363,800-9,365,799, four decks: 22,036 against 22,013 of 22,383, no false
    # card added (bench_wide_scenes)
    cover_blanks: bool = True
    cover_hides: bool = True
    # a covered Italian card is named only where what shows of it (its outline less what the
    # cards named show, the cover mask and the frame's edge) tells it from every other card by
    # Thresholds.min_telling_pixels on the clean scans (telling.py, `_telling`): a look-alike
    # whose telling pip lies under the next card or the hand is no evidence, however sure the
    # judges are (tune piacentine 81,669: a 7 of cups 47% showing, its middle cup under a
    # king, named a 6 at 0.98 by the partial judge). What a card named by the classifier
    # claims (`claimed`) is not taken as hiding: such cards often lie under the one judged.
    # On the cards the recogniser named from what shows (rescue on, tune 80,500-81,699,
    # 1,750), the estimate was none for 4 right ones (3 not counted, under 45% showing; the
    # other 56% showing, its top half under the hand, told apart by none on its true visible
    # part either: named by luck) and for 1 of 2 false ones. Tune 81,700-82,699 calibrated,
    # napoletane and piacentine: the same cards named, +4% ms a still (each card's map is
    # made once, about 30 ms). Held-out 9,366,300-9,368,299 (after its report): napoletane
    # 5,553 against 5,554 of 5,670, piacentine 5,447 of 5,601 either way, no false card
    # caught nor added; uncalibrated 9,368,300-9,368,799 the same cards; live deals
    # 9,100,809-823 the same, 1.04-1.05x ms a frame
    telling_check: bool = True
    # ... and not where the partial judge fitted its near look-alike best before the fit: a
    # Piacentine 6 of cups 39% showing, judged a 6, the classifier 0.9 for a 7; fitted to
    # the 7, judged a 7 and read a 7 at 0.976 (tune 44,354, a false card). Tune 45,450-
    # 46,049 Italian calibrated: no card changed
    fit_lookalike_doubts: bool = True
    # a hand's named cards propose the cards between and beyond them at its step (cascade.py):
    # tune 28,300-28,599 calibrated, four decks, 3,366 vs 3,341 of 3,469; uncalibrated
    # 28,600-28,699: 935 vs 926 of 1,011; 0 false either way; +14% ms a still, +5% live.
    # The gap split in up to 5 (cascade_proposals' most_split; 3 before): tune 28,700-28,999
    # Italian and 29,000-29,299 four decks, +7 of 5,078, no false card more
    cascade: bool = True
    # ... and each hypothesis judged on what shows, moved onto the edges near its sides
    # (edge_snap.py), judged again after them all: tune 29,300-29,449 four decks and
    # 29,600-29,749 Italian, calibrated: 2,480 vs 2,453 of 2,549 cards, 0 false either way,
    # +25-45% ms a still; uncalibrated 29,300-29,399: 1,119 vs 1,114 of 1,204, 0 false, +20%
    # ms. Not in the live path (`live_options`): +32% ms a frame tracked there
    edge_snap: bool = True
    # ... the moved hypotheses judged best quick match first (as `covered_by_quick`): a 6 of
    # cups seen whole on a 2 of batons lost its place (`taken`) to a moved outline across
    # the two, judged before it, that the classifier read a 5 of cups (spent held-out
    # napoletane 9,007,211)
    snapped_by_quick: bool = True
    # an Italian card the classifier (or the rescue's verifier) named whose outline, moved
    # along its sides, reads surer as another card of its suit is refused
    # (Thresholds.beside_shifts, beside_prob). Of the seven false cards the networks named in
    # the forty-eighth and forty-ninth sessions' held-out reports (spent, looked at since):
    # napoletane 9,004,921 a 2 of coins (0.993) beside a 3 (read 0.999 moved) and piacentine
    # 9,004,522 a 7 of coins (0.961) beside a 6 (0.995) are refused, and 9,004,921's 3 named
    # then; napoletane 9,007,989 a 5 of cups (0.977) beside a 6 read at 0.918 is not. Ray tune
    # 714,000-714,399, two Italian decks: of 182 cards the classifier named, 181 right, one
    # other card of their suit read at 0.8 or more moved (a jack of batons, an ace at 0.895).
    # Ray tune 714,400-714,799 calibrated: napoletane 1,163/1,187, piacentine 1,126/1,145,
    # either way, 0 false either way, +4% ms a still
    read_beside: bool = True
    # a hypothesis whose quick match is under `partial_quick` is judged on what shows too
    # when the classifier names a card on it (Thresholds.learned_quick_prob): half a card
    # under the next correlates little with any whole template, so the quick match dropped
    # cards the classifier names on their true outline at 0.98 both ways up (tune 38,443
    # napoletane, a king of cups 53% showing, 0.14 at 0.08 of a card from its outline).
    # Tune 40,350-40,849 calibrated, four decks: 5,550 vs 5,547 of 5,684 (Italian +1 and +2,
    # French the same), 0 false cards added (2 either way, piacentine 40,614), +5% ms a still.
    # (Tried and not kept, thirty-second session: a hypothesis whose quick match fails even so,
    # moved onto the edges near its sides and matched again before it is dropped: a peak or a
    # corner a fifth of a card off, e.g. tune piacentine 58,013, a 7 of clubs seen whole by a
    # lamp's highlight. Tune 58,250-58,749 calibrated, four decks: 5,636 vs 5,629 of 5,732;
    # uncalibrated 58,750-59,049, napoletane and french52: 1,531 vs 1,526 of 1,641; 0 false
    # either way; +7-10% ms. On held-out piacentine 9,352,800-9,354,799 it gave the partial
    # path the true outline of a 4 of cups 41% showing, which fitted to a 4 slid 8 pixels,
    # was judged a 5 and read a 5 at 0.90 there: a false card (9,354,104; spent). A wrong card
    # costs more than a late one.)
    learned_quick: bool = True
    # calibrated: a small learned network on the view proposes cards too (card_localiser.py;
    # tune seeds 0-199 and 1000-1199: 82 cards more of 4,602, none false, +13-25% time)
    localiser: bool = True
    # ... and a peak is dropped for an outline hypothesis near it only when that one lies
    # along the same axis (the same card proposed twice), not across it (another card; tune
    # seeds 6400-6699 and 7400-7799, calibrated: 18 cards more of 8,200, none false, +5% time)
    localiser_axis: bool = True
    # a localiser peak also proposes its card turned a little either way (Thresholds.
    # localiser_turns), and along the edges' axis where they agree on one far from the
    # network's: the network's axis, or the edges', is 5-15 degrees off on about a fifth of
    # the cards missed with a peak on them (a fan's top card among its neighbours' edges),
    # and the network's 35-50 degrees off on some cards seen whole
    localiser_turns: bool = True
    # a localiser peak with an outline hypothesis near it along its axis is proposed too,
    # after every other: where the outline's corners were read a few pixels off its card (a
    # row's or a fan's top card among its neighbours' corners) the peak is on it, and was
    # dropped as the same card proposed twice
    localiser_fallback: bool = True
    # a hypothesis that starts below `refine_from` is fitted anyway, to the card it looks most
    # like, and judged whole when the fit is close (kept only if named whole): a
    # localiser peak 7 px off a whole card lying on a printed box's lines (its outline
    # hypotheses further off) starts at 0.37 and fits at 0.98; junk starts there too and
    # stays under 0.4 (tune deal 13221)
    fit_low_start: bool = True
    # the guessed calibration: the studio's kind of camera fitted to every card of the
    # agreeing size at once (camera_family.py)
    family_pose: bool = True
    family_drop_worst: bool = True  # ... the worst fitted card dropped while 3 or more
    # no card named whole: the studio's kind of camera at a few framings, the best kept
    family_sweep: bool = True
    # ... where the outline's pose is always tried besides the best `sweep_passes` framings,
    # not ranked among them (ray tune 712,000-712,149: french40 +6 of 396)
    sweep_tries_outline: bool = True
    # the guessed pose refitted to the cards named under it, aligned to their scans
    # (pose_refit.py), the calibrated path run again under it (ray tune 712,000-712,149,
    # uncalibrated, both switches against neither: french40 365 -> 385 of 396, napoletane
    # 371 -> 385 of 406, no false card added; the true pose there names 387 and 380)
    pose_refit: bool = True
    outline_agrees: bool = True  # a card named on its outline is not renamed under a guess
    alone_when_guessed: bool = False  # the classifier names covered cards alone, guessed
    # the localiser's proposals under a guessed calibration too, judged whole only: judged on
    # what shows as well, held-out stills 9,305,000-9,305,249 uncalibrated gave 2,437 -> 2,517
    # of 2,787 cards (+2.9 points) but a false card more (napoletane 9305186, not looked at);
    # tune stills 13700-13849: +20 of 1,660 whole only, +42 on what shows too, none false,
    # +8-10% and +16-19% ms a still; whole only on held-out 9,305,250-9,305,499: 2,400 ->
    # 2,431 of 2,783 (+1.1 points), no false card added
    localise_when_guessed: bool = True
    guessed_localised_whole: bool = True  # ... its proposals judged whole only


def baseline_options() -> Options:
    """The recogniser as it was before issue 16 (green felt only)."""
    return Options(felt="green", partial=False, partial_align=False, strict_outline=False,
                   self_calibrate=False, learned=False, pose_from_any_outline=False,
                   own_what_shows=False, learned_fit=False, localiser=False, index_reader=False,
                   family_pose=False, family_sweep=False, outline_agrees=False)


def live_options() -> Options:
    """The recogniser of a table's camera (voting.CameraCardSource): a card not named in one
    frame is named in the next few, and a frame has 20 ms, so the hypotheses moved onto
    their edges are left out (Options.edge_snap: +32% ms a tracked frame, on tune deals
    26,500-26,509 napoletane that named every card without it)."""
    return Options(edge_snap=False)


@dataclass(frozen=True, eq=False)
class Detection:
    """A card named in one frame: code, image quad (TL, TR, BR, BL as read), match figures.
    Compared by identity: two copies of a card (an eight-deck shoe) are two detections."""

    code: str
    quad: np.ndarray
    score: float
    margin: float
    cell_error: float

    @property
    def center(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def confidence(self) -> float:
        """0..1: how far the match clears the acceptance limits (for logs and the dealer)."""
        return float(min(1.0, max(0.0, (self.score - 0.5) * 2)))


@dataclass
class Candidate:
    """A quad that was examined, with the verdict (for diagnostics and tuning)."""

    quad: np.ndarray
    label: str
    score: float
    margin: float
    cell_error: float
    accepted: bool
    rival: str | None = None  # the partial judge's closest look-alike of `label`, if any
    template: int = -1  # the partial judge's winning template (the card's way up), if any
    shown: np.ndarray | None = None  # ... and the cells (ROWS, COLS) where it matched


_SEARCH_CORNERS = np.array(
    [[0, 0], [SEARCH_W, 0], [SEARCH_W, SEARCH_H], [0, SEARCH_H]], np.float32)
_CANON_CORNERS = np.array(
    [[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]], np.float32)
_TELL_CORNERS = FACE_CORNERS - np.float32(0.5)  # (pixel centres at integers, as cv2's warps)


@dataclass(frozen=True)
class _Level:
    """One image size of the alignment: the card's corners on its pixel grid (pixel centres
    at integers, as cv2.resize made the templates) and, per interior pixel (flattened with
    the channels), its position from the card's centre: the lever arm of a turn."""

    w: int
    h: int
    corners: np.ndarray = field(init=False, repr=False)
    inner_s: np.ndarray = field(init=False, repr=False)
    inner_t: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        w, h = self.w, self.h
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - np.float32(0.5)
        t, s = np.mgrid[0:h, 0:w].astype(np.float32) + np.float32(0.5)
        object.__setattr__(self, "corners", corners)
        for name, g, c in (("inner_s", s, w), ("inner_t", t, h)):
            arm = np.repeat((g[1:-1, 1:-1] - c / 2).reshape(-1, 1), 3, axis=1).ravel()
            object.__setattr__(self, name, arm)


_SEARCH_LEVEL = _Level(SEARCH_W, SEARCH_H)
_CANON_LEVEL = _Level(CANON_W, CANON_H)
_CANON_CENTRED = _CANON_LEVEL.corners
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
_WIDE_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
_VIEW_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def _matvec(matrix: np.ndarray, vec: np.ndarray, rows: int = 16) -> np.ndarray:
    """matrix @ vec in blocks small enough that BLAS stays on this thread: a threaded BLAS
    call costs milliseconds on a busy machine, a few small ones cost microseconds."""
    return np.concatenate([matrix[i:i + rows] @ vec for i in range(0, len(matrix), rows)])


def order_quad(points: np.ndarray) -> np.ndarray:
    """Four corners clockwise (image y down), starting so that the first edge is a short side."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen, since y points down
    d = pts - pts[_NEXT_CORNER]
    side = np.sqrt((d * d).sum(axis=1))  # np.linalg.norm's sum, for a tenth of its cost
    if side[0] + side[2] > side[1] + side[3]:
        pts = pts[_NEXT_CORNER]
    return pts


_NEXT_CORNER = np.array([1, 2, 3, 0])  # each corner's next, clockwise


# perspective changes a card's aspect ratio in the image: the far side is tried at these ratios


def _covers(quad: np.ndarray, anchor: SideAnchor) -> bool:
    """Both corners of the anchor lie on (or within a few pixels of) this quad."""
    poly = quad.reshape(-1, 1, 2)
    return all(cv2.pointPolygonTest(poly, _pt(p), True) > -6 for p in (anchor.a, anchor.b))


def _plausible(quad: np.ndarray, th: Thresholds) -> bool:
    area = cv2.contourArea(quad)
    short = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[3] - quad[2])) / 2
    long = (np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[0] - quad[3])) / 2
    return (th.min_area <= area <= th.max_area and short >= 1
            and th.min_aspect <= long / short <= th.max_aspect)


def _blob_quad(contour: np.ndarray, th: Thresholds) -> np.ndarray | None:
    """The blob as one card: its hull is a quad that the blob fills."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) <= 4:
            break
    if len(approx) != 4:
        return None
    quad = order_quad(approx)
    if not _plausible(quad, th):
        return None
    if cv2.contourArea(contour) < th.min_fill * cv2.contourArea(quad):
        return None  # an L or a notch: cards overlapping, or something on the card
    return _grow(_refine(quad, contour), 1.0)


def _neighbour_side(poly: np.ndarray, start: int, step: int,
                    rounding: float = 26.0) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The first outline edge of 22+ px next to vertex `start` (going by `step`), skipping at
    most `rounding` px of short edges (a rounded corner): a point on it and its direction
    pointing away from `start`, and its length. None when the outline bends about instead."""
    n = len(poly)
    skipped = 0.0
    j = start
    for _ in range(n - 1):
        k = (j + step) % n
        edge = float(np.linalg.norm(poly[k] - poly[j]))
        if edge >= 22:
            return poly[j], (poly[k] - poly[j]) / edge, edge
        skipped += edge
        if skipped > rounding:
            return None
        j = k
    return None


def _intersect(p1: np.ndarray, d1: np.ndarray, p2: np.ndarray,
               d2: np.ndarray) -> np.ndarray | None:
    m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]], np.float64)
    if abs(np.linalg.det(m)) < 0.3:
        return None
    t = np.linalg.solve(m, (p2 - p1).astype(np.float64))
    return (p1 + t[0] * d1).astype(np.float32)


def _pt(v: np.ndarray) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def _unit(v: np.ndarray) -> np.ndarray:
    return v / max(float(np.linalg.norm(v)), 1e-6)


@dataclass(frozen=True)
class SideAnchor:
    """A whole card side (corners a, b) and the directions of the card's two other sides."""

    a: np.ndarray
    b: np.ndarray
    da: np.ndarray
    db: np.ndarray
    lengths: tuple[float, ...]  # the other side's length, as a short and as a long side

    def quad(self, other: float) -> np.ndarray:
        pts = np.array([self.a, self.b, self.b + other * self.db, self.a + other * self.da])
        return _grow(order_quad(pts.astype(np.float32)), 1.0)


def _side_anchors(contour: np.ndarray, aspect: float, th: Thresholds) -> list[SideAnchor]:
    """Card sides seen whole on the outline of a blob that is not one card.

    A straight stretch of outline with a right-ish convex corner at both ends is taken as a
    whole card side; the card lies inward along the neighbouring edges, the other side being
    this one's length times or divided by the aspect ratio (perspective changes the ratio a
    little: the caller searches around it). The matcher rejects the anchors that are not cards.
    """
    poly = cv2.approxPolyDP(contour, 3.0, True).reshape(-1, 2).astype(np.float32)
    n = len(poly)
    if n < 5 or n > 40:
        return []
    anchors = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        length = float(np.linalg.norm(b - a))
        if length < 25:
            continue
        u = (b - a) / length
        # the neighbouring sides, found past the card's rounded corners
        before = _neighbour_side(poly, i, -1)
        after = _neighbour_side(poly, (i + 1) % n, +1)
        if before is None or after is None:
            continue
        (pa, da, la), (pb, db, lb) = before, after
        # both neighbours must be near a right angle (perspective allows slack) ...
        if abs(float(da @ u)) > 0.35 or abs(float(db @ u)) > 0.35:
            continue
        # ... and nearly parallel: a short neighbour may belong to another card
        if float(da @ db) < 0.985:
            if la >= lb:
                db = da
            else:
                da = db
        corner_a, corner_b = _intersect(a, u, pa, da), _intersect(b, u, pb, db)
        if corner_a is None or corner_b is None:
            continue
        # ... and both must run along the blob's inside (a corner, not a notch)
        if (cv2.pointPolygonTest(contour, _pt(corner_a + 8 * da + 4 * u), False) < 0
                or cv2.pointPolygonTest(contour, _pt(corner_b + 8 * db - 4 * u), False) < 0):
            continue
        side = float(np.linalg.norm(corner_b - corner_a))
        anchor = SideAnchor(corner_a, corner_b, da, db, ())
        # the other side's length: as the deck's aspect ratio says (long or short), and as the
        # outline shows when a neighbouring side is seen whole (perspective can skew the ratio)
        nominal = (side * aspect, side / aspect)
        seen = [x for x in (la, lb)  # a neighbour cut short by another card is no guide
                if any(0.75 <= x / n <= 1.5 for n in nominal)]
        lengths = tuple(o for o in dict.fromkeys(round(g, 1) for g in (*nominal, *seen))
                        if _plausible(anchor.quad(o), th))
        if lengths:
            anchors.append(SideAnchor(corner_a, corner_b, da, db, lengths))
    return anchors


def _refine(quad: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """Fit a line to the contour points along each side and intersect neighbours: the corners
    of a rounded card land where its straight edges meet, not on the rounding."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 8:
            return quad
        u = ab / length
        rel = pts - a
        along = rel @ u
        across = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = (across < 4) & (along > 0.15 * length) & (along < 0.85 * length)
        if near.sum() < 6:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(pts[near], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([[d1[0], -d2[0]], [d1[1], -d2[1]]])
        if abs(np.linalg.det(m)) < 1e-3:
            return quad
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    refined = np.array(out, np.float32)
    if np.abs(refined - quad).max() > 12:  # the fit went astray: keep the plain polygon
        return quad
    return refined


def _card_sized(pose: CameraPose, quad: np.ndarray, aspect: float) -> bool:
    """The image quad is a card's size on the table this pose implies (within 12%)."""
    pts = cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(-1, 1, 2),
                                   np.linalg.inv(pose.homography)).reshape(-1, 2)
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)
    short, long = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return bool(abs(short / CARD_WIDTH - 1) < 0.12 and abs(long / (CARD_WIDTH * aspect) - 1) < 0.12)


def surroundings(frame: np.ndarray, quad: np.ndarray, margin: int) -> np.ndarray:
    """The card at `quad` and `margin` canonical pixels around it, as the cell judges see a
    card (warped at the fine size, averaged down; `Recognizer._cell_patch` is margin 0): the
    window at (margin + dx, margin + dy) is the card moved (dx, dy) canonical pixels along
    its sides."""
    size = (CANON_W + 2 * margin, CANON_H + 2 * margin)
    warp = cv2.getPerspectiveTransform(quad, (_CANON_CORNERS + margin) * FINE - np.float32(0.5))
    big = cv2.warpPerspective(frame, warp, (size[0] * FINE, size[1] * FINE),
                              flags=cv2.INTER_LINEAR)
    return cv2.resize(big, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def _in_view(view: TableView, quad: np.ndarray) -> np.ndarray:
    """An image quad's corners in the view (float32, as cv2's warps want them)."""
    return cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(-1, 1, 2),
                                    view.to_view).reshape(-1, 2).astype(np.float32)


def _own_cells(owned: np.ndarray, view: TableView, quad: np.ndarray, cells: np.ndarray) -> None:
    """Mark in `owned` (the view's size) the cells (ROWS x COLS, of the canonical card warped
    from the image `quad`) where a partly covered card was seen."""
    canon = np.repeat(np.repeat(cells.astype(np.uint8), CANON_H // ROWS, axis=0),
                      CANON_W // COLS, axis=1)
    warp = cv2.getPerspectiveTransform(_CANON_CORNERS - np.float32(0.5), _in_view(view, quad))
    shown = cv2.warpPerspective(canon, warp, (owned.shape[1], owned.shape[0]),
                                flags=cv2.INTER_NEAREST)
    np.maximum(owned, shown, out=owned)


def _canonical_share(mask: np.ndarray, view_quad: np.ndarray) -> np.ndarray:
    """`mask` (the view's size, 0/1) over the card at `view_quad`, warped to the canonical
    card's grid: where it lies on cards named already."""
    warp = cv2.getPerspectiveTransform(view_quad, _CANON_CORNERS - np.float32(0.5))
    return cv2.warpPerspective(mask, warp, (CANON_W, CANON_H),
                               flags=cv2.INTER_NEAREST).astype(np.float32)


def _cell_means(canonical: np.ndarray) -> np.ndarray:
    """A canonical-size share (`_canonical_share`) averaged over each of the partial judge's
    cells (ROWS x COLS)."""
    return canonical.reshape(ROWS, CANON_H // ROWS, COLS, CANON_W // COLS).mean(axis=(1, 3))


def _one_card_both_ways(read: list[tuple[str, float]], turned: list[tuple[str, float]],
                        bar: float, rival: float) -> str | None:
    """The card a network's two readings of a crop (`ranked`, upright and turned half round)
    both name at `bar`, with no other card at `rival` in either; None if there is none."""
    guessed = read[0][0]
    if guessed in (BACK, OTHER) or turned[0][0] != guessed or \
            min(read[0][1], turned[0][1]) < bar:
        return None
    if any(r[1][0] not in (BACK, OTHER) and r[1][1] >= rival for r in (read, turned)):
        return None
    return guessed


_CANON_CENTRES = np.stack(np.meshgrid(np.arange(CANON_W) * FINE + (FINE - 1) / 2,
                                       np.arange(CANON_H) * FINE + (FINE - 1) / 2),
                           axis=-1).reshape(-1, 1, 2).astype(np.float64)


def _beyond_frame(shape: tuple[int, ...], quad: np.ndarray) -> np.ndarray | None:
    """The canonical crop's pixels whose centres lie beyond the frame (CANON_H x CANON_W,
    bool), or None when the whole quad lies inside it (nearly always: no warp then)."""
    h, w = shape[:2]
    q = np.asarray(quad, np.float32)
    if q.min() >= 0 and q[:, 0].max() <= w - 1 and q[:, 1].max() <= h - 1:
        return None
    to_image = cv2.getPerspectiveTransform(_CANON_CORNERS * FINE - np.float32(0.5), q)
    xy = cv2.perspectiveTransform(_CANON_CENTRES, to_image).reshape(CANON_H, CANON_W, 2)
    return (xy[..., 0] < -0.5) | (xy[..., 0] > w - 0.5) | (xy[..., 1] < -0.5) | \
        (xy[..., 1] > h - 0.5)


def _hint_rect(view: TableView, quad: np.ndarray, w: float, h: float) -> CardRect:
    """The card of the view's card size (w x h) where an image quad lies: centred on it,
    along its long side (as a localiser peak proposes one)."""
    return _hint_peak(view, quad).rect(w, h)


def _hint_peak(view: TableView, quad: np.ndarray) -> Peak:
    """Where an image quad lies in the view, as a localiser peak: its centre, along its
    long side."""
    pts = cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(-1, 1, 2),
                                   view.to_view).reshape(-1, 2)
    sides = (pts[1] - pts[0] + pts[2] - pts[3], pts[3] - pts[0] + pts[2] - pts[1])
    along = max(sides, key=lambda s: float(np.hypot(*s)))
    centre = pts.mean(axis=0)
    return Peak(float(centre[0]), float(centre[1]), float(np.arctan2(along[1], along[0])),
                1.0)


def _apart(a: CardRect, b: CardRect, pixels: float) -> bool:
    """Two card hypotheses (view pixels) are not the same: centres `pixels` apart or more,
    or long axes a degree apart."""
    return float(np.hypot(*(a.centre - b.centre))) >= pixels or axis_turn(
        a.axis_angle, b.axis_angle) >= np.radians(1.0)


def _doubted_at(doubted: list[tuple[np.ndarray, str]], quad: np.ndarray, label: str) -> bool:
    """Card `label` was doubted on an outline whose centre lies within a quarter of a card's
    width of `quad`'s: another outline of it is a second try at the same evidence."""
    return _code_near(doubted, quad, label, 0.25)


def _code_near(outlines: Iterable[tuple[np.ndarray, str]], quad: np.ndarray, label: str,
               widths: float) -> bool:
    """One of the (image quad, code) `outlines` is card `label` with its centre less than
    `widths` card widths (`quad`'s) from `quad`'s centre."""
    width = float(np.linalg.norm(quad[1] - quad[0]))
    return any(code == label and float(np.linalg.norm(seen.mean(axis=0) - quad.mean(axis=0)))
               < widths * width for seen, code in outlines)


def _moved_quad(quad: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The image quad of the card `quad` moved by (dx, dy) pixels of its canonical crop, along
    its own sides (as the card lies in the image, perspective included)."""
    to_image = cv2.getPerspectiveTransform(_CANON_CORNERS, np.asarray(quad, np.float32))
    return cv2.perspectiveTransform((_CANON_CORNERS + np.float32([dx, dy]))[None],
                                    to_image)[0]


def _hiding(owned: np.ndarray, cover: np.ndarray | None) -> np.ndarray:
    """What hides part of the view for the telling check and the marks: what the cards named
    show (`owned`) and the cover mask (a hand, a chip stack), when there is one."""
    return owned if cover is None else np.maximum(owned, cover)


def _grow(quad: np.ndarray, pixels: float) -> np.ndarray:
    """Push each corner out along its diagonal: undo the opening's and the hull's shrinkage."""
    centre = quad.mean(axis=0)
    out = quad - centre
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return (centre + out * (1 + pixels * 1.41 / np.maximum(norms, 1))).astype(np.float32)


@dataclass
class Recognizer:
    """Names the face-up cards of one deck in BGR frames. Stateless between frames."""

    art: DeckArt | str
    kind: DeckKind | str | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
    camera: CameraPose | None = None  # the table's calibration; None: find cards without it
    options: Options = field(default_factory=Options)
    # the card classifier's weights, when not the shipped ones (a benchmark comparing
    # weights; a test pinned to the weights its change was made with)
    classifier: CardClassifier | None = None
    verifier: CardClassifier | None = None  # ... and the rescue verifier's
    index_net: IndexReader | None = None  # ... and the French corner-index reader's

    def __post_init__(self) -> None:
        self._views: dict[tuple, TableView] = {}
        self._pair_dots: dict[tuple[int, int], float] = {}
        self._gradients: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._normal: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self.art = DeckArt(self.art)
        self.templates: TemplateSet = template_set(self.art, self.kind)
        labels = self.templates.labels
        self._label_ids = np.array([labels.index(lab) for lab in labels])
        self._back_ids = {labels.index(BACK)} if BACK in labels else set()
        self._template_sums: list[CellSums] | None = None
        self._lookalikes: Lookalikes | None = None
        self.aspect = card_aspect(self.art)
        self._classifier = (self.classifier or card_classifier(self.art)) \
            if self.options.learned else None
        self._verifier = (self.verifier or card_verifier(self.art)) \
            if self.options.rescue and self._classifier is not None else None
        self._localiser = card_localiser() if self.options.localiser else None
        self._cover = cover_mask() if (self.options.cover_blanks or self.options.cover_hides) \
            else None
        self._index_reader = (self.index_net or index_reader()) if (
            self.options.index_reader and self.art is DeckArt.FRENCH) else None
        # the classifier may know cards this deck lacks (French 8s to 10s in a 40-card deck)
        self._known = frozenset(labels) | {OTHER}
        self._guessing: Recognizer | None = None

    def card_mask(self, frame: np.ndarray, kernel: np.ndarray = _OPEN_KERNEL,
                  median: int | None = None) -> np.ndarray:
        """255 where something that is not felt lies, thin printed lines removed.

        Felt is where green clearly dominates: G > ratio * max(R, B) + floor. A ratio (not a
        difference) keeps the felt in a card's shadow or a dim corner counted as felt. On
        another cloth, and where green's rule calls too much not felt (`felt_fallback`), the
        felt is learnt from the frame (felt_mask.py).
        """
        th = self.thresholds
        felt = self.options.felt
        if felt == "adaptive" or (felt == "auto" and not felt_mask.looks_green(
                frame, th.felt_ratio, th.felt_floor)):
            return self._learnt_felt_mask(frame, kernel, median)
        green = self._green_felt_mask(frame, kernel)
        if felt == "auto" and self.options.felt_fallback and \
                cv2.countNonZero(green) > th.green_felt_max_share * green.size:
            # a dark green cloth under a warm light and sensor noise fails green's rule on
            # half its pixels (tune piacentine 47,310: 50% of the view "not felt", no card
            # found); the felt learnt from the frame holds there
            return self._learnt_felt_mask(frame, kernel, median)
        return green

    def _learnt_felt_mask(self, frame: np.ndarray, kernel: np.ndarray,
                          median: int | None) -> np.ndarray:
        """`card_mask` with the felt learnt from the frame (felt_mask.py, any cloth)."""
        # printed lines in any colour are not felt here: a wider opening in the image
        wide = _WIDE_OPEN_KERNEL if kernel is _OPEN_KERNEL else kernel
        k = median if median is not None else self.thresholds.image_felt_median
        return cv2.morphologyEx(felt_mask.not_felt(frame, k=k), cv2.MORPH_OPEN, wide)

    def _green_felt_mask(self, frame: np.ndarray, kernel: np.ndarray) -> np.ndarray:
        """`card_mask` by green's rule (the first recogniser's)."""
        th = self.thresholds
        b, g, r = cv2.split(frame)
        limit = cv2.addWeighted(cv2.max(r, b), th.felt_ratio, r, 0.0, th.felt_floor)
        felt = cv2.compare(g, limit, cv2.CMP_GT)
        # the printed gold lines count as felt: blue far below both green and red
        warm = cv2.min(g, r)
        gold = cv2.bitwise_and(
            cv2.compare(cv2.addWeighted(b, 1.0 / th.gold_blue, b, 0.0, 0.0), warm, cv2.CMP_LT),
            cv2.compare(warm, th.gold_min, cv2.CMP_GT))
        not_felt = cv2.bitwise_not(cv2.bitwise_or(felt, gold))
        return cv2.morphologyEx(not_felt, cv2.MORPH_OPEN, kernel)

    def view(self, camera: CameraPose) -> TableView:
        """The top-down view of this calibration, made once (a few ms) and cached: a table
        keeps its camera. Call it at start-up so the first frame does not pay for it."""
        key = camera.image_corners
        if key not in self._views:
            if len(self._views) > 8:
                self._views.clear()
            self._views[key] = TableView(camera)
        return self._views[key]

    def calibrated_candidates(self, frame: np.ndarray, camera: CameraPose,
                              localise: bool = True,
                              localised_whole: bool = False,
                              hints: Sequence[np.ndarray] = ()) -> list[Candidate]:
        """Candidates found in the rectified table view, where every card is a rectangle of
        known size: each right-angle corner of an outline proposes a card (see table_view),
        and, with `localise` and the option on, the learned localiser's peaks (judged whole
        only with `localised_whole`: under a guessed calibration); then `hints`, image quads
        where the last frame named cards, each proposing its card, judged whole only."""
        th = self.thresholds
        view = self.view(camera)
        top_down, mask = self._view_mask(frame, view)
        w, h = card_size(self.aspect, view.scale)
        out: list[Candidate] = []
        accepted: list[np.ndarray] = []

        partial = self.options.partial

        def taken(rect: CardRect) -> bool:
            """Its centre lies on a card already named (with partly covered cards named too:
            near a named card's centre, since a cascaded card's centre lies on the next)."""
            c = (float(rect.centre[0]), float(rect.centre[1]))
            if partial:
                if not accepted:
                    return False
                centres = np.asarray(accepted).mean(axis=1)  # each named card's centre
                gaps = np.hypot(*(rect.centre - centres).T)
                return bool((gaps < th.taken_within * min(w, h)).any())
            return any(cv2.pointPolygonTest(a, c, False) >= 0 for a in accepted)

        # judged on what shows, last; with whether it is a second chance (the localiser's
        # fallback: a hypothesis beside another judged already), each after its quick match
        # (Options.covered_by_quick)
        queued: list[tuple[float, tuple[CardRect, np.ndarray | None, bool]]] = []

        rects, _ = card_hypotheses(mask, w, h, 0.5 * w * h, on_solid=0.95)
        fallback: list[CardRect] = []
        outlined = len(rects)
        if self._localiser is not None and localise:
            found, fallback = self._localised(top_down, rects, w, h)
            rects = rects + found
        hinted = len(rects)
        rects = rects + [_hint_rect(view, quad, w, h) for quad in hints]
        first = len(rects)  # the fallback's second chances follow
        rects = rects + fallback
        for i, rect in enumerate(rects):
            if taken(rect):
                continue
            second = i >= first
            # judged on what shows too (not a localiser's proposal asked to be whole, nor a
            # hint: a card named in the last frame, proposed again where no other found it.
            # Tried, a hint judged on what shows too: tune deals 86,700-86,729, four decks,
            # the same cards; spent held-out deal piacentine 9,100,830, a queen the last frame
            # named was named every frame under the 7 of swords laid on it, and the 7 never)
            on_show = partial and not (localised_whole and i >= outlined) and \
                not hinted <= i < first
            quad = order_quad(view.image_points(rect.corners()))
            quick, label, shortlist = self._quick_match(frame, quad)
            if label == BACK:
                continue  # a card face down
            if quick < th.min_quick_score:
                if on_show and self._worth_judging(frame, quad, quick):
                    queued.append((quick, (rect, shortlist, second)))
                continue  # nothing like any card here
            # a corner read off a rounded, noisy outline is a pixel or two off: every card is
            # aligned before it is judged, so that what fails to match is what is not there
            # (a hand, another card on top), not a misplaced outline
            start = self._start(frame, view, rect, shortlist)
            aligned = self._align(frame, view, rect, shortlist=shortlist, start=start)
            if aligned is None:
                whole = self._fitted_whole(frame, view, rect, shortlist, start)
                if whole is not None:
                    out.append(whole[0])
                    accepted.append(whole[1].corners())
                elif on_show:  # judged on what shows from where it was proposed, as before
                    queued.append((quick, (rect, shortlist, second)))
                continue  # a back, or nothing close to a card
            cand = self._judge(frame, order_quad(view.image_points(aligned.corners())),
                               th.aligned_min_separation, shortlist)
            if not cand.accepted and aligned is rect:
                # it started close, yet is not named: fit it after all and judge again
                aligned = self._align(frame, view, rect, fit=True, shortlist=shortlist,
                                      start=start)
                if aligned is None:
                    continue
                cand = self._judge(frame, order_quad(view.image_points(aligned.corners())),
                                   th.aligned_min_separation, shortlist)
            if not cand.accepted and self._whole_nearly_learned(frame, cand):
                cand = replace(cand, accepted=True)
            elif cand.accepted and self._whole_disowned(frame, cand):
                cand = replace(cand, accepted=False)
            if not cand.accepted and on_show:
                queued.append((quick, (aligned, shortlist, second)))
                continue
            out.append(cand)
            if cand.accepted:
                accepted.append(aligned.corners())
        edges = EdgeImage.of(top_down) if partial and self.options.edge_snap else None
        if self.options.covered_by_quick:
            # the card on top of a cascade first: it is the likeliest card, and a card under
            # it named first (from its corner index) would take its place (`taken`)
            queued.sort(key=lambda q: -q[0])
        later = [hypothesis for _, hypothesis in queued]
        owned: tuple[np.ndarray, np.ndarray] | None = None
        refused: list[tuple[CardRect, np.ndarray]] | None = [] if self._rescuing() else None
        cover: np.ndarray | None = None
        if later:
            later = self._snapped(frame, view, edges, later, w)
            owned = self._owned(frame, view, mask.shape, accepted,
                                [c for c in out if c.accepted])
            cover = self._covered(top_down)
            out += self._partly_covered(frame, view, later, accepted, taken, *owned, None,
                                        refused, cover)
        if partial and self.options.cascade:
            named = [c for c in out if c.accepted]
            proposed = self._cascade_hypotheses(frame, view, mask, named, rects, taken, w, h)
            if proposed:
                proposed = self._snapped(frame, view, edges, proposed, w)
                if owned is None or not self.options.ownership_carries:
                    owned = self._owned(frame, view, mask.shape, accepted, named)
                if cover is None:
                    cover = self._covered(top_down)
                out += self._partly_covered(frame, view, proposed, accepted, taken, *owned,
                                            None, refused, cover)
        if refused and owned is not None:
            out += self._rescued(frame, view, refused, accepted, taken, *owned,
                                 [c for c in out if c.accepted], cover)
        return out

    def _covered(self, top_down: np.ndarray) -> np.ndarray | None:
        """The cover mask of the view (uint8 0/1, the view's size: a hand, a chip stack),
        when Options.cover_blanks or cover_hides asks for it."""
        return self._cover.covered(top_down, self.thresholds.cover_min_prob) \
            if self._cover is not None else None

    def _rescuing(self) -> bool:
        """The last pass names refused hypotheses the verifier reads surely (Options.rescue),
        where no corner index must confirm a covered card (the Italian decks)."""
        return self._verifier is not None and not self._index_confirms_learned()

    def _rescued(self, frame: np.ndarray, view: TableView,
                 refused: list[tuple[CardRect, np.ndarray]], accepted: list[np.ndarray],
                 taken: Callable[[CardRect], bool], owned: np.ndarray,
                 claimed: np.ndarray, named: list[Candidate],
                 cover: np.ndarray | None = None) -> list[Candidate]:
        """The `refused` hypotheses (every one judged on what shows, in the order judged)
        that no card named lies on (`taken`) and that cards named cover no more than
        `learned_covered_share`, named where the verifier reads its crop (`_rescue_crop`) as
        one card both ways up at `rescue_prob` with no other card at `rescue_rival_prob`
        (`_one_card_both_ways`), what shows of it tells that card apart
        (`rescue_min_telling_pixels`), and no card of that code is `named` (or rescued)
        within `rescue_same_apart` card widths (an outline across a card named already: tune
        piacentine 86,575, a 7 of diamonds named twice half a width apart). Each named claims
        its outline, as the classifier's cards do, and is scored 0: an overlapping card named
        otherwise is kept before it."""
        out: list[Candidate] = []
        named = list(named)
        hidden = _hiding(owned, cover)  # (what cards the pass names claim does not hide)
        bar, rival = self.thresholds.rescue_prob, self.thresholds.rescue_rival_prob
        for rect, quad in refused:
            if taken(rect):
                continue
            share, crop = self._rescue_crop(frame, view, owned, quad)
            if share > self.thresholds.learned_covered_share:
                continue
            read = self._verifier.ranked(crop, self._known)  # type: ignore[union-attr]
            turned = self._verifier.ranked(  # type: ignore[union-attr]
                np.ascontiguousarray(crop[::-1, ::-1]), self._known)
            guessed = _one_card_both_ways(read, turned, bar, rival)
            if guessed is None:
                continue
            cand = Candidate(quad, guessed, 0.0, read[0][1], 0.0, True)
            if self._untold(frame, view, cand, hidden,
                            self.thresholds.rescue_min_telling_pixels):
                continue  # what shows is too nearly another card's for a network alone
            if self._unmarked(frame, view, cand, hidden):
                continue  # what tells it is not seen (a look-alike's print may lie under)
            if _code_near(((c.quad, c.label) for c in named), quad, guessed,
                          self.thresholds.rescue_same_apart):
                continue  # named already: this outline lies across it
            if self._read_beside(frame, view, cand, owned, cover):
                continue  # the outline lies across a look-alike's card
            named.append(cand)
            out.append(cand)
            accepted.append(rect.corners())
            cv2.fillConvexPoly(claimed, np.round(rect.corners()).astype(np.int32), 1)
        return out

    def _rescue_crop(self, frame: np.ndarray, view: TableView, owned: np.ndarray,
                     quad: np.ndarray) -> tuple[float, np.ndarray]:
        """The share of the hypothesis that cards named cover, and what the rescue verifier
        reads of it: its crop blanked where cards named lie, as the classifier's (`_blanked`),
        but not under the cover mask (Options.cover_blanks: the verifier was trained before
        it). One warp for both, and one definition for the pass and its training crops
        (training/rescue_crops.py)."""
        on_named = _canonical_share(owned, _in_view(view, quad))
        return float(on_named.mean()), self._crop(frame, quad, self._blanked(on_named))

    def _snapped(self, frame: np.ndarray, view: TableView, edges: EdgeImage | None,
                 later: list[tuple[CardRect, np.ndarray | None, bool]],
                 w: float) -> list[tuple[CardRect, np.ndarray | None, bool]]:
        """The hypotheses to judge on what shows, then each moved onto the edges near its
        sides (edge_snap.py), judged after them all where it lies apart from every one
        judged and its quick match passes as theirs did (`edges` None: the hypotheses
        alone). After, not instead: moved, a hypothesis the judges named as it was may slide
        onto a covering card's print (tune 29,300-29,599, four decks: 3,288 instead of
        3,305 of 3,400)."""
        if edges is None:
            return later
        th = self.thresholds
        turns = tuple(np.radians(t) for t in th.snap_turns)
        out = list(later)
        quick_of: dict[int, float] = {}  # each moved hypothesis's quick match, by its place
        for rect, _, second in later:
            moved = snap(edges, rect, th.snap_reach * w, turns)
            if not all(_apart(moved, other, th.snap_min_move) for other, _, _ in out):
                continue
            judged, shortlist, quick = self._judgeable(frame, view, moved)
            if judged:
                quick_of[len(out)] = quick
                out.append((moved, shortlist, second))
        if self.options.snapped_by_quick:
            # the moved ones best quick match first too (Options.covered_by_quick)
            out[len(later):] = [out[i] for i in sorted(quick_of, key=lambda i: -quick_of[i])]
        return out

    def _cascade_hypotheses(self, frame: np.ndarray, view: TableView, mask: np.ndarray,
                            named: list[Candidate], tried: list[CardRect],
                            taken: Callable[[CardRect], bool], w: float,
                            h: float) -> list[tuple[CardRect, np.ndarray | None, bool]]:
        """The cards a hand's named cards say lie between and beyond them (cascade.py), as
        hypotheses to judge on what shows: not where a card is named, nor where one was
        `tried` already, nor twice, nor where the view's not-felt `mask` shows felt (a card
        lies there only if all of it is on cards: its own face or others')."""
        solid = (mask > 0).astype(np.uint8)
        out: list[tuple[CardRect, np.ndarray | None, bool]] = []
        proposals = cascade_proposals([_hint_peak(view, c.quad) for c in named], w)
        # (x, y, axis angle) of each rect tried and proposal taken: a proposal near one of
        # them (a tenth of a card, 5 degrees) is one seen already; one array, not a loop in
        # Python over every pair (a hand's cascade proposes dozens)
        seen = np.zeros((len(tried) + len(proposals), 3))
        n = len(tried)
        for k, r in enumerate(tried):
            seen[k] = (float(r.centre[0]), float(r.centre[1]), r.axis_angle)
        for p in proposals:
            near = seen[:n]
            if bool(((np.hypot(p.x - near[:, 0], p.y - near[:, 1]) < 0.1 * w)
                     & (axis_turn(p.angle, near[:, 2]) < np.radians(5.0))).any()):
                continue
            seen[n] = (p.x, p.y, p.angle)
            n += 1
            rect = p.rect(w, h)
            if taken(rect) or float(_canonical_share(solid, rect.corners()).mean()) < \
                    self.thresholds.cascade_on_cards:
                continue
            judged, shortlist, _ = self._judgeable(frame, view, rect)
            if judged:
                out.append((rect, shortlist, False))
        return out

    def _view_mask(self, frame: np.ndarray, view: TableView) -> tuple[np.ndarray, np.ndarray]:
        """The frame's top-down view and its not-felt mask (the calibrated path's, and the
        guessed framings' it ranks). Tried and not kept (forty-eighth session): the mask cut
        to 0 beyond the frame's edges, where the view repeats the frame's last rows as
        streaks that merged with an ace of swords seen whole at the bottom edge (ray tune
        711,125 napoletane: named then); ray tune 711,000-711,249 calibrated, four decks:
        2,773 against 2,774 of 2,831 right, no false card either way, for cards reaching
        past the edge (711,143 napoletane a jack 95% showing, 711,135 piacentine a 6 of
        coins 60%) were proposed from the streaks that continue them, and no longer were."""
        top_down = view.rectify(frame)
        return top_down, self.card_mask(top_down, _VIEW_KERNEL, self.thresholds.view_felt_median)

    def _localised(self, top_down: np.ndarray, rects: list[CardRect], w: float,
                   h: float) -> tuple[list[CardRect], list[CardRect]]:
        """The learned localiser's cards (card_localiser.py), after the outline's: only where
        no outline hypothesis lies already (its centre near). They are aligned and judged as
        the outline's are; the judges are the gate. Second, the fallback: the peaks' cards
        beside an outline hypothesis (Options.localiser_fallback), to judge last."""
        th = self.thresholds

        same_turn = np.radians(th.localiser_same_turn) if self.options.localiser_axis else None

        def another(peak: Peak, r: CardRect) -> bool:
            """The peak is not the card `r` proposes: its centre is apart, or its axis."""
            if float(np.hypot(peak.x - r.centre[0], peak.y - r.centre[1])) >= \
                    th.localiser_apart * w:
                return True
            return same_turn is not None and axis_turn(peak.angle, r.axis_angle) > same_turn

        def apart(peak: Peak) -> bool:
            """The outline proposed no card here (where it did, its axis is closer)."""
            return all(another(peak, r) for r in rects)

        found = self._localiser.peaks(  # type: ignore[union-attr]
            top_down, th.localiser_min_heat, th.localiser_most)
        peaks = [p for p in found if apart(p)]
        out = [p.rect(w, h) for p in peaks]
        if self.options.localiser_turns:
            # after every peak's own card, so that one named makes its turned twins `taken`
            out += self._turned(peaks, w, h)
        fallback = []
        if self.options.localiser_fallback:
            # last of all: judged only where the outline's card near it was not named (its
            # turned twins too: tune 12600-12799, +3 cards of 2,249 for +5-7% ms, not kept;
            # again on tune 70,590-71,589, 1,000 a deck, calibrated, for the live path's one
            # miss on held-out deals 9,100,749-763, an ace of swords seen whole on a fan's top
            # whose outline hypothesis lay along its neighbour's axis and dropped the peak
            # on it, the peak's own axis as far off: napoletane 2,803 against 2,797 of 2,861
            # with a false 2 of coins more, piacentine 2,720 against 2,719 of 2,775, +12% ms;
            # not kept)
            fallback = [p.rect(w, h) for p in found if not apart(p)]
        return out, fallback

    def _turned(self, peaks: list[Peak], w: float, h: float) -> list[CardRect]:
        """The peaks' cards turned a little either way, and along the edges' axis where it
        is far from the network's (Options.localiser_turns)."""
        return [Peak(p.x, p.y, p.angle + s * np.radians(turn), p.heat).rect(w, h)
                for turn in self.thresholds.localiser_turns for p in peaks for s in (-1, 1)] + \
            [Peak(p.x, p.y, p.edge_axis, p.heat).rect(w, h)
             for p in peaks if p.edge_axis is not None]

    def _owned(self, frame: np.ndarray, view: TableView, shape: tuple[int, ...],
               accepted: list[np.ndarray],
               named: list[Candidate]) -> tuple[np.ndarray, np.ndarray]:
        """What the `named` cards (their view outlines `accepted`) own of the view: where
        their template matches (`_shown_cells`), or all of their outline; and what they claim
        (none yet: the outlines of covered cards that own nothing, `_partly_covered` adds
        them). `_partly_covered` adds the cards it names to both, in place."""
        owned = np.zeros(shape[:2], np.uint8)
        claimed = np.zeros(shape[:2], np.uint8)  # the outlines of cards that own nothing
        for a, cand in zip(accepted, named, strict=True):
            cells = self._shown_cells(frame, cand) if self.options.whole_owns_what_shows \
                else None
            if cells is None or cells.all():
                cv2.fillConvexPoly(owned, np.round(a).astype(np.int32), 1)
            else:
                _own_cells(owned, view, cand.quad, cells)
        return owned, claimed

    def _partly_covered(self, frame: np.ndarray, view: TableView,
                        later: list[tuple[CardRect, np.ndarray | None, bool]],
                        accepted: list[np.ndarray], taken: Callable[[CardRect], bool],
                        owned: np.ndarray, claimed: np.ndarray,
                        doubted_first: list[tuple[np.ndarray, str]] | None = None,
                        refused: list[tuple[CardRect, np.ndarray]] | None = None,
                        cover: np.ndarray | None = None) -> list[Candidate]:
        """Hypotheses no whole-card match named, judged on what shows of them, once every
        whole card is named: what shows of a card must not lie on a card named already
        (`owned`, see `_owned`: a card seen whole has nothing of another card on it; a
        hypothesis half on a named card and half on the felt would otherwise pass as a card
        under it). French cards every judge refused are judged again after all the others,
        and searched for around their outlines (Options.index_search; `doubted_first`: the
        cards doubted in the first pass, given on that second one): searched first, a card
        found beside its hypothesis would take the place of a card under it that its own
        hypothesis names (tune french52 52,109). `refused`: each hypothesis judged is added
        to it, for the rescue pass (Options.rescue). `cover`: the cover mask (`_covered`), or
        None."""
        out: list[Candidate] = []
        # outlines whose card the classifier named but could not tell from a look-alike
        doubted: list[tuple[np.ndarray, str]] = doubted_first or []
        unfound: list[tuple[CardRect, np.ndarray | None, bool]] = []  # to search for
        for rect, shortlist, second in later:
            if taken(rect):
                continue
            quad = order_quad(view.image_points(rect.corners()))
            view_quad = _in_view(view, quad)
            on_named = _canonical_share(owned, view_quad)
            share = float(on_named.mean())
            if share > self.thresholds.max_named_share:
                continue  # too little of it can show
            named_share = _cell_means(on_named)
            hidden = named_share > 0.5 if self.options.named_hide else None
            if cover is not None and self.options.cover_hides:
                covered = _cell_means(_canonical_share(cover, view_quad)) > 0.5
                hidden = covered if hidden is None else hidden | covered
            cand, cells = self._judge_partial(frame, quad, shortlist, hidden)
            if refused is not None:  # for the rescue (named or not: `taken` tells)
                refused.append((rect, quad))
            fitted_to: str | None = None
            if not cand.accepted and self.options.partial_align and cand.label != BACK \
                    and cand.cell_error <= 2 * self.thresholds.partial.max_error:
                # nearly: the corner it was built on may be a pixel or two off; fit the pose
                # to the card it nearly is (the covered part only weighs the fit down)
                fitted_to = cand.label
                fitted = self._fit_quad(frame, view, rect, quad, cand.label)
                again, again_cells = self._judge_partial(frame, fitted, shortlist, hidden)
                if not self.options.keep_better_fit or again.label != BACK:
                    quad, cand, cells = fitted, again, again_cells
            if not cand.accepted and not second and self._nearly_and_learned(frame, quad, cand):
                cand = replace(cand, accepted=True)
            if cand.accepted and self._vetoed(frame, quad, cand.label, second):
                continue
            index_read = False  # the index reader was asked about this outline already
            if not cand.accepted:
                guess = self._guess(frame, quad, self._on_named(owned, view, quad, cover)) \
                    if self._classifier is not None else None
                learned = self._learned(frame, quad, shortlist, cand.label, guess,
                                        share > self.thresholds.learned_covered_share)
                # (a French card must then have its index read it: that tells them apart)
                if learned is not None and learned.label == cand.label and \
                        self._lookalike_unsure(cand, learned.margin, guess[0]) and \
                        not self._index_confirms_learned():
                    doubted.append((quad, learned.label))
                    learned = None
                refit = None
                if learned is None:
                    refit = self._refit_to_learned(frame, view, rect, quad, shortlist, fitted_to,
                                                   guess, hidden)
                    if refit is not None and not refit[0].accepted:
                        fit_label = refit[0].label
                        learned = self._learned_on_fit(
                            frame, view, refit[0], guess, shortlist, owned,
                            share > self.thresholds.learned_covered_share, doubted,
                            first=cand.label, cover=cover)
                        refit = None
                        if learned is not None and self._learned_refused(
                                frame, view, learned, np.maximum(owned, claimed), fit_label):
                            learned = None  # the corner index may name it yet
                if learned is None:
                    if refit is None:
                        read = self._read_index(frame, quad)
                        refit = self._refit_to_index(frame, view, rect, quad, shortlist, read,
                                                     (fitted_to, guess), hidden)
                        index_read = refit is not None
                        if refit is None:
                            named = self._named_by_index(frame, quad, read, cand.label, guess)
                            if named is None:
                                if doubted_first is None:  # the first pass: search later
                                    if self._search_labels(read, guess):
                                        unfound.append((rect, shortlist, second))
                                    continue
                                found = self._found_by_search(frame, view, rect, shortlist,
                                                              read, guess)
                                if found is None or taken(found[1]):
                                    continue  # (or found on a card named already)
                                named, rect = found  # (what it owns lies where it was found)
                            refit, index_read = (named, None), True
                    elif not index_read and self._shows_no_index(frame, refit[0]):
                        continue  # fitted to the classifier's French card: no index in view
                    cand, cells = refit
                else:
                    if self._learned_refused(frame, view, learned, np.maximum(owned, claimed),
                                             cand.label):
                        continue
                    if self._read_beside(frame, view, learned, owned, cover):
                        continue  # the outline lies across a look-alike's card
                    # (confirmed: its index reads this card, so it cannot read another)
                    cand, cells = (replace(learned, rival=cand.rival, template=cand.template,
                                           shown=cand.shown)
                                   if cand.label == learned.label else learned), None
                    index_read = self._index_reader is not None and \
                        self.options.index_confirms_learned
            if not index_read and self._index_refuses(frame, quad, cand.label):
                continue
            if cells is not None and int((named_share[cells] > 0.5).sum()) > 1:
                continue  # what matched is a card named already
            if cells is not None and self._judged_unsure(frame, cand.quad, cand):
                continue  # as much its look-alike, and the classifier not sure
            if self._rival_fits(frame, view, rect, cand, hidden):
                if self.options.rival_doubts:
                    doubted.append((cand.quad, cand.label))
                continue  # as much its look-alike
            if self.options.rival_doubts and _doubted_at(doubted, cand.quad, cand.label):
                continue  # doubted on another outline: no more evidence here
            if self._untold(frame, view, cand, _hiding(owned, cover)):
                continue  # what shows is as much another card's
            out.append(cand)
            accepted.append(rect.corners())
            if cells is not None and self.options.own_what_shows:
                _own_cells(owned, view, cand.quad, cells)
            else:
                cv2.fillConvexPoly(owned if cells is not None or not
                                   self.options.learned_owns_nothing else claimed,
                                   np.round(rect.corners()).astype(np.int32), 1)
        if unfound:
            out += self._partly_covered(frame, view, unfound, accepted, taken, owned, claimed,
                                        doubted, refused, cover)
        return out

    def _untold(self, frame: np.ndarray, view: TableView, cand: Candidate, hidden: np.ndarray,
                bar: int | None = None) -> bool:
        """An Italian card named from what shows of it whose shown part another card shares
        (`_telling` under `bar`, by default Thresholds.min_telling_pixels; Options.
        telling_check). `hidden`: what hides part of the view (`_hiding`). Not French cards:
        a corner index tells them, and its print blurs away at telling.py's scale."""
        if not self.options.telling_check or self.art is DeckArt.FRENCH:
            return False
        return self._telling(frame, view, cand, hidden) < \
            (self.thresholds.min_telling_pixels if bar is None else bar)

    def _unmarked(self, frame: np.ndarray, view: TableView, cand: Candidate,
                  hidden: np.ndarray) -> bool:
        """A card the rescue verifier names alone shows under Thresholds.rescue_min_marks
        pixels of its own print that tell it apart (`_marks`; 0: not asked)."""
        bar = self.thresholds.rescue_min_marks
        return bar > 0 and self._marks(frame, view, cand, hidden) < bar

    def _telling(self, frame: np.ndarray, view: TableView, cand: Candidate,
                 hidden: np.ndarray) -> int:
        """The pixels of what shows of `cand` (its outline less the view's `hidden` pixels
        and the frame's edge) on which every other card, either way up, differs from its card
        on the clean scans (telling.py). Its way up is the partial judge's template; without
        one, the fewer of both ways. (Tried: only within the cells where the card's template
        matches, as the partial judge keeps them: of the right cards the rescue verifier read on
        tune 84,200-85,199, 23 of 36 Napoletane and 22 of 33 Piacentine were then told apart
        by under 20 pixels, most of their cells matching no template.)"""
        return min(telling_pixels(cand.label, shown, self.art, self._deck_kind())
                   for shown, _ in self._shown_ways(frame, view, cand, hidden))

    def _marks(self, frame: np.ndarray, view: TableView, cand: Candidate,
               hidden: np.ndarray) -> int:
        """The pixels of `cand`'s own print that tell it from every other card and that the
        frame shows on what shows of it (telling.marks_seen), the more of both ways up
        without a template."""
        warp = cv2.getPerspectiveTransform(np.asarray(cand.quad, np.float32),
                                           _TELL_CORNERS)
        seen = cv2.warpPerspective(frame, warp, (CEIL_W, CEIL_H), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        seen = seen.astype(np.float32) / 255.0
        return max(marks_seen(cand.label, np.ascontiguousarray(seen[::-1, ::-1] if turned
                                                               else seen),
                              shown, self.art, self._deck_kind())
                   for shown, turned in self._shown_ways(frame, view, cand, hidden))

    def _shown_ways(self, frame: np.ndarray, view: TableView, cand: Candidate,
                    hidden: np.ndarray) -> list[tuple[np.ndarray, bool]]:
        """What shows of `cand` on telling.py's grid (its outline less the view's `hidden`
        pixels and the frame's edge) as its card lies upright, with whether the outline is
        turned: the partial judge's template's way, or both ways without one."""
        warp = cv2.getPerspectiveTransform(_in_view(view, cand.quad),
                                           _TELL_CORNERS)
        shown = cv2.warpPerspective(hidden, warp, (CEIL_W, CEIL_H),
                                    flags=cv2.INTER_NEAREST) == 0
        outside = _beyond_frame(frame.shape, cand.quad)
        if outside is not None:
            shown &= ~np.repeat(np.repeat(outside, CEIL_H // CANON_H, axis=0),
                                CEIL_W // CANON_W, axis=1)
        ways = [False, True] if cand.template < 0 else [bool(cand.template % 2)]
        return [(np.ascontiguousarray(shown[::-1, ::-1]) if turned else shown, turned)
                for turned in ways]

    def _deck_kind(self) -> DeckKind:
        return DeckKind(self.kind) if self.kind is not None else DeckKind.ITALIAN_40

    def _rival_fits(self, frame: np.ndarray, view: TableView, rect: CardRect, cand: Candidate,
                    hidden: np.ndarray | None) -> bool:
        """What shows of a card named from it names a look-alike as surely (the partial judge
        accepting it) once the outline is fitted to that look-alike (Options.rival_refit):
        two cards that differ under the cover (a Piacentine 6 and 7 of cups, the 7's middle
        cup under the next card) are told apart then by a few pixels of outline, which is no
        evidence. The look-alikes: the judge's rival (`cand.rival`, nearest the card in the
        image), the card whose template differs least where it shows (`closest_lookalike`,
        Options.lookalike_refit) and the classifier's second guess (learned_rival_refit).
        Tried and not kept (thirtieth session): the look-alike fitted and nearly named
        (separation >= near_separation) refusing the card too. Tune 52,550-52,849, four decks:
        one of two false 6s of cups gone (52,770, a 7 showing 39%, the classifier sure of a
        6 at 0.91; fitted to the 7, 0.431), for 3 right cards fewer of 839 Piacentine and 1
        of 863 French 40."""
        if not self.options.rival_refit:
            return False
        tried = [cand.rival]
        if self.options.lookalike_refit:
            tried.append(self._near_lookalike(cand))
        if self.options.learned_rival_refit and self._classifier is not None:
            runner = self._classifier.ranked(canonical_crop(frame, cand.quad), self._known)[1]
            if runner[1] >= self.thresholds.learned_rival_prob:
                tried.append(runner[0])
        for rival in dict.fromkeys(tried):
            if rival is None or rival in (BACK, OTHER, cand.label):
                continue
            quad = self._fit_quad(frame, view, rect, cand.quad, rival)
            again, _ = self._judge_partial(frame, quad, None, hidden)
            if again.accepted and again.label == rival:
                return True
        return False

    def _nearly_and_learned(self, frame: np.ndarray, quad: np.ndarray,
                            cand: Candidate) -> bool:
        """The partial judge refused this card on its separation alone (every other limit
        met, `near_separation` towards it from every look-alike), and the classifier names
        the same card (`near_learned_prob`): two methods, each nearly sure, agreeing. A
        French card needs an index corner reading it too (`near_index_confirms`); one with a
        look-alike that differs little on the cells that show, the classifier
        surer (`near_lookalike`)."""
        th = self.thresholds
        if self._classifier is None or not self.options.paired_near or \
                cand.label in (BACK, OTHER) or cand.margin < th.near_separation:
            return False
        crop, label, prob = self._guess(frame, quad)
        if label != cand.label or prob < th.near_learned_prob:
            return False
        if self._lookalike_unsure(cand, prob, crop):
            return False
        return not self.options.near_index_confirms or \
            not self._index_unconfirmed(frame, quad, label)

    def _whole_nearly_learned(self, frame: np.ndarray, cand: Candidate) -> bool:
        """The whole-card judge refused `cand` on its separation alone (its score and every
        cell met, `whole_near_separation` towards it), and the classifier names the same card
        both ways up (`whole_near_learned_prob`), and no corner index surely reads another
        (`_index_refuses`): two methods agreeing on a card seen whole
        (Options.whole_paired_near); or, a French card, the classifier names it at
        `whole_index_learned_prob` and its corner index reads it at `whole_index_min_prob`:
        three (Options.whole_index_paired)."""
        th = self.thresholds
        if self._classifier is None or not self.options.whole_paired_near or \
                cand.label in (BACK, OTHER) or cand.score < th.min_score or \
                cand.cell_error > th.max_cell_error or cand.margin < th.whole_near_separation:
            return False
        crop, label, prob = self._guess(frame, cand.quad)
        if label != cand.label:
            return False
        if self.options.whole_index_paired and self._index_reader is not None and \
                prob >= th.whole_index_learned_prob:
            read = self._read_index(frame, cand.quad)
            if read is not None and read[0] == label and read[1] >= th.whole_index_min_prob:
                return True
        return self._both_ways(crop, label, prob, th.whole_near_learned_prob) and \
            not self._index_refuses(frame, cand.quad, label)

    def _whole_disowned(self, frame: np.ndarray, cand: Candidate) -> bool:
        """The whole-card judge named `cand` under `whole_veto_below`, and the classifier
        reads another card on its outline at `whole_veto_prob` both ways up
        (Options.whole_learned_veto): a weak template match of a look-alike, the card's own
        difference seen by the network."""
        th = self.thresholds
        if self._classifier is None or not self.options.whole_learned_veto or \
                cand.score >= th.whole_veto_below:
            return False
        crop, label, prob = self._guess(frame, cand.quad)
        return label != cand.label and label not in (BACK, OTHER) and \
            self._both_ways(crop, label, prob, th.whole_veto_prob)

    def _judged_unsure(self, frame: np.ndarray, quad: np.ndarray, cand: Candidate) -> bool:
        """A covered card the partial judge names, whose look-alike differs little where it
        shows (`near_lookalike_gap`), is named only when the classifier names it too, as
        surely as the nearly-sure pair must then (`near_lookalike_prob`), or, a French card,
        an index corner reads it (Options.judged_lookalike)."""
        if not self.options.judged_lookalike or self._classifier is None or \
                self._near_lookalike(cand) is None:
            return False
        crop, label, prob = self._guess(frame, quad)
        if label == cand.label and (prob >= self.thresholds.near_lookalike_prob
                                    or self._sure_both_ways(crop, label, prob)):
            return False
        # a French card's corner index tells apart what its pips may not
        return self._index_reader is None or self._index_unconfirmed(frame, quad, cand.label)

    def _lookalike_unsure(self, cand: Candidate, prob: float,
                          crop: np.ndarray | None = None) -> bool:
        """Another card's template differs from the partial judge's card little on the cells
        that show (`near_lookalike_gap`), and the classifier, naming the same card (at `prob`,
        of `crop`), is not sure enough to tell the two apart (`near_lookalike_prob`, or
        `_sure_both_ways` given the crop): the difference may lie under the cover
        (Options.near_lookalike)."""
        return self.options.near_lookalike and prob < self.thresholds.near_lookalike_prob \
            and not (crop is not None and self._sure_both_ways(crop, cand.label, prob)) \
            and self._near_lookalike(cand) is not None

    def _sure_both_ways(self, crop: np.ndarray, label: str, prob: float) -> bool:
        """`_both_ways` at `lookalike_both_ways_prob` (Options.lookalike_both_ways)."""
        return self.options.lookalike_both_ways and \
            self._both_ways(crop, label, prob, self.thresholds.lookalike_both_ways_prob)

    def _shown_cells(self, frame: np.ndarray, cand: Candidate) -> np.ndarray | None:
        """The cells (ROWS x COLS) of a card named whole where its template matches (its
        best way up): a card named whole may still lie partly under another (its cover
        subtle enough for the whole judge), and owning its whole outline would count the card
        on top as lying on a named card. None when no way up matches enough of it."""
        patch = self._cell_patch(frame, cand.quad)
        limits = self.thresholds.partial
        sums, template_sums = CellSums.of(patch), self._cell_sums()
        best: tuple[int, np.ndarray] | None = None
        for i, label in enumerate(self.templates.labels):
            if label != cand.label:
                continue
            cells, error = visible_cells(patch, self.templates.images[i], limits, sums,
                                         template_sums[i])
            if error <= limits.max_error and (best is None or cells.sum() > best[0]):
                best = (int(cells.sum()), cells)
        return best[1] if best is not None and best[0] >= limits.min_cells else None

    def _vetoed(self, frame: np.ndarray, quad: np.ndarray, label: str,
                second: bool = False) -> bool:
        """The classifier is sure the card the partial judge named is another (or no card):
        the judge keeps the cells that fit its card and drops the rest as covered, so a
        look-alike whose difference lies under the cover's edge can win (a 5 of cups named
        a 4, its middle cup half covered). Two methods disagreeing: refuse. A `second`
        chance (the localiser's fallback, a hypothesis beside one judged already) is refused
        whenever the classifier's best guess is another card, however unsure: its partial
        naming alone gave a false card (render.py's piacentine seed 99, a 7 of cups 53%
        showing named a 6, the classifier 0.86 for the 7)."""
        if self._classifier is None or not (second or self.options.learned_veto):
            return False
        _, best, prob = self._guess(frame, quad)
        return best != label and (second or prob >= self.thresholds.learned_veto_prob)

    def _read_index(self, frame: np.ndarray, quad: np.ndarray) -> tuple[str, float] | None:
        """The card a French outline's corner index reads most surely (index_reader.py), or
        None: no reader, or neither corner shows an index."""
        if self._index_reader is None:
            return None
        reads = [r for r in self._index_reader.read(frame, quad, self._known) if r[0] != OTHER]
        return max(reads, key=lambda r: r[1]) if reads else None

    def _index_refuses(self, frame: np.ndarray, quad: np.ndarray, label: str,
                       prob: float | None = None) -> bool:
        """A covered card named by another method, whose corner index surely (`prob`,
        index_veto_prob unless given) reads another card (an 8 taken for a 7 by the
        classifier, its index in plain view)."""
        read = self._read_index(frame, quad)
        return read is not None and read[0] != label and \
            read[1] >= (self.thresholds.index_veto_prob if prob is None else prob)

    def _index_disowns(self, frame: np.ndarray, cand: Candidate) -> bool:
        """A French card named by a close match only, whose corner index reads another
        card (at `index_disown_prob`): whole cards matched just past the bar were a blurred 9
        of spades taken for a 7 and a 3 of spades for a 3 of clubs (tune 15522 french52 and
        15585 french40, uncalibrated), each index in plain view. Only under
        `index_check_below`: a read costs a few milliseconds."""
        th = self.thresholds
        return self.options.index_checks_whole and cand.score < th.index_check_below and \
            self._index_refuses(frame, cand.quad, cand.label, th.index_disown_prob)

    def _shows_no_index(self, frame: np.ndarray, cand: Candidate) -> bool:
        """A French card's outline neither of whose corners shows an index of any card
        (Options.refit_needs_index; False without the index reader: no French deck)."""
        return self.options.refit_needs_index and self._index_reader is not None and \
            self._read_index(frame, cand.quad) is None

    def _index_confirms_learned(self) -> bool:
        """A covered French card the classifier names must have a corner index read it
        (`_index_unconfirmed` asks the same), which tells it from a look-alike."""
        return self._index_reader is not None and self.options.index_confirms_learned

    def _index_unconfirmed(self, frame: np.ndarray, quad: np.ndarray, label: str) -> bool:
        """A covered French card the classifier names, whose outline's corners show no index
        of that card: a French card counts only with an index in view, and the classifier's
        false cards were outlines moved off their card (a 2 of spades read with its
        neighbour's pips as a 4, the outline's corners on a card back)."""
        return self._index_confirms_learned() and \
            self._unconfirmed_by(self._read_index(frame, quad), label)

    def _unconfirmed_by(self, read: tuple[str, float] | None, label: str) -> bool:
        """The index `read` (`_read_index`) does not confirm `label` (index_confirm_prob)."""
        return read is None or read[0] != label or read[1] < self.thresholds.index_confirm_prob

    def _named_by_index(self, frame: np.ndarray, quad: np.ndarray,
                        read: tuple[str, float] | None, judged: str,
                        guess: tuple[np.ndarray, str, float] | None) -> Candidate | None:
        """A covered French card every judge refused, named from its corner index (`read`,
        `_read_index` of `quad`) when the reader is sure and a second method points at the
        same card (the partial judge's best fit, or the classifier's best guess): the whole
        card is a few pixels of index at the crop size the others see, the reader sees it at
        the camera's. Named by its index alone, its other corner must not read another card
        (Options.index_corners_agree)."""
        th = self.thresholds
        if read is None or read[1] < th.index_min_prob:
            return None
        agreed = read[0] == judged or (
            guess is not None and guess[1] == read[0] and guess[2] >= th.index_agree_prob)
        if not agreed and read[1] < th.index_alone_prob:
            return None
        if not agreed and self.options.index_corners_agree and self._index_reader is not None \
                and any(label not in (OTHER, read[0])
                        for label, _ in self._index_reader.read(frame, quad, self._known)):
            return None
        return Candidate(quad, read[0], read[1], read[1], 0.0, True)

    def _fit_quad(self, frame: np.ndarray, view: TableView, rect: CardRect, quad: np.ndarray,
                  label: str) -> np.ndarray:
        """The image quad of `rect` (read as `quad`) with its pose fitted to card `label`.
        Tried and not kept (twenty-eighth session), on covered cards' true outlines (under 70%
        showing) moved up to 7% of a width and 3 degrees (tune napoletane 49,300-49,359, 50
        outlines), median distance left in card widths, 0.059 at the start: this fit 0.0185;
        each pixel weighed by Cauchy's function at twice the median residual (the cover's
        pixels weigh little) 0.0328, at eight times 0.0215; 12 steps instead of 6, 0.0152
        (72% of outlines under 0.02 against 56%), but the recogniser with it named 866
        against 867 of 888 napoletane and 829 against 830 of 845 piacentine (tune 49,000-
        49,299 calibrated)."""
        corners = view.image_points(rect.corners())
        perm = [int(np.argmin(np.abs(corners - p).sum(axis=1))) for p in quad]
        fitted = self._gauss_newton(frame, view, rect, perm, self.templates.labels.index(label))[0]
        return order_quad(view.image_points(fitted.corners()))

    def _refit_to_learned(self, frame: np.ndarray, view: TableView, rect: CardRect,
                          quad: np.ndarray, shortlist: np.ndarray | None,
                          fitted_to: str | None, guess: tuple[np.ndarray, str, float] | None,
                          hidden: np.ndarray | None = None,
                          ) -> tuple[Candidate, np.ndarray | None] | None:
        """A partly covered card refused by every judge, which the classifier still takes
        for some card (not surely): its outline, read off a corner, may be a pixel or two
        off. So the pose is fitted to that card and the partial judge asked again, with its
        usual limits: the classifier only says which card to fit. `hidden`: the cells known
        covered, as the first judgement had them (tune seeds 6400-6699 and 7400-7799: 6 cards
        more of 8,200 calibrated, none false). The judgement on the fitted outline, accepted
        or not (for `_learned_on_fit`); None when there was no card to fit. Tried and not
        kept (twenty-eighth session): the fit's card still refused, judged again at the pose
        among 75 around the fit (2 steps of 2.5% of its short side either way, turned 0 and
        1.5 degrees either way) where that card's templates show the most cells. On covered
        cards' true outlines moved 4-8% of a width (tune napoletane 49,600-49,699) it named
        11 of 34 right where the judge named none, none wrong, none on 102 outlines across
        others; but in the recogniser, tune 49,000-49,299 calibrated, napoletane 871 against
        870 of 888 and piacentine 832 against 831 of 845, for +40-50% ms a still."""
        label = self._learned_fit_label(fitted_to, guess)
        if label is None:
            return None
        quad = self._fit_quad(frame, view, rect, quad, label)
        cand, cells = self._judge_partial(frame, quad, shortlist, hidden)
        # the templates must name it: the classifier asked again on the fitted outline named
        # 42 more right cards on tune seeds, but two wrong ones (a 9 of clubs for a 10); or
        # nearly, the classifier agreeing on the fitted outline (Options.paired_near_refit)
        if not cand.accepted and self.options.paired_near_refit and \
                self._nearly_and_learned(frame, quad, cand):
            cand = replace(cand, accepted=True)
        return cand, cells

    def _learned_refused(self, frame: np.ndarray, view: TableView, learned: Candidate,
                         outlined: np.ndarray, judged: str | None = None) -> bool:
        """A card the classifier named is refused when its corner index reads another
        (French) or its outline lies nearly all on the `outlined` cards named already
        (Options.learned_yields), unless its index reads it surely
        (Options.index_outweighs_yield) or, with no index, the classifier reads it so both
        ways up and `judged`, the partial judge's best fit on the outline, is that card
        (Options.learned_outweighs_yield)."""
        th = self.thresholds
        # one read serves both: the confirmation (`_index_unconfirmed`) and the exemption
        confirms = self._index_confirms_learned()
        read = self._read_index(frame, learned.quad) if confirms else None
        if confirms and self._unconfirmed_by(read, learned.label):
            return True
        yields = self.options.learned_yields and float(_canonical_share(
            outlined, _in_view(view, learned.quad)).mean()) > th.learned_yield_share
        if not yields:
            return False
        sure_index = self.options.index_outweighs_yield and read is not None and \
            read[1] >= th.index_min_prob
        return not sure_index and not self._sure_without_index(frame, learned, judged)

    def _read_beside(self, frame: np.ndarray, view: TableView, learned: Candidate,
                     owned: np.ndarray, cover: np.ndarray | None) -> bool:
        """A card the classifier (or the rescue verifier) named whose outline, moved along
        its sides by a fifth to a third of the card (`beside_shifts`), the classifier reads
        as another card of the same suit, more surely than the card was named and at
        `beside_prob` (Options.read_beside): the outline lies across that card, which shows
        as its look-alike with a column cut off (a 3 of coins 74% showing read a 2 at 0.993
        on an outline a third of a card off it, the 3 at 0.999 a third of a card aside).
        Surer, not just sure: the 3's own outline moved reads the 2 too (0.992, against the
        3's 1.0 where it lies). Not French cards: their corner index confirms them, and a
        French card's outline moved reads its neighbours in rank far more often (ray tune
        714,000-714,162: 10 of 93 right cards the classifier named, none false)."""
        if not self.options.read_beside or self._classifier is None or \
                self.art is DeckArt.FRENCH:
            return False
        rival = self._beside_rival(frame, view, learned, owned, cover)
        return rival is not None and rival[1] >= self.thresholds.beside_prob and \
            rival[1] > learned.margin

    def _beside_rival(self, frame: np.ndarray, view: TableView, learned: Candidate,
                     owned: np.ndarray, cover: np.ndarray | None) -> tuple[str, float] | None:
        """The surest other card of `learned`'s suit the classifier reads on its outline
        moved along its sides (`_read_beside`), and how sure; None if it reads none."""
        suit = learned.label[-1]
        best: tuple[str, float] | None = None
        for shift in self.thresholds.beside_shifts:
            step = shift * CANON_W
            for dx, dy in ((step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)):
                moved = order_quad(_moved_quad(learned.quad, dx, dy))
                _, label, prob = self._guess(frame, moved,
                                             self._on_named(owned, view, moved, cover))
                if label not in (BACK, OTHER, learned.label) and label[-1] == suit and \
                        (best is None or prob > best[1]):
                    best = (label, prob)
        return best

    def _sure_without_index(self, frame: np.ndarray, learned: Candidate,
                            judged: str | None) -> bool:
        """With no index to read (Options.learned_outweighs_yield): the classifier reads
        the card at `yield_learned_prob` both ways up, and `judged`, the partial judge's
        best fit on its outline, is that card too."""
        if self._index_reader is not None or not self.options.learned_outweighs_yield or \
                judged != learned.label:
            return False
        crop, label, prob = self._guess(frame, learned.quad)
        return label == learned.label and \
            self._both_ways(crop, label, prob, self.thresholds.yield_learned_prob)

    def _learned_on_fit(self, frame: np.ndarray, view: TableView, judged: Candidate,
                        guess: tuple[np.ndarray, str, float] | None,
                        shortlist: np.ndarray | None, owned: np.ndarray, covered: bool,
                        doubted: list[tuple[np.ndarray, str]],
                        first: str | None = None,
                        cover: np.ndarray | None = None) -> Candidate | None:
        """A covered card `_refit_to_learned` fitted to the classifier's card (its `guess`),
        which the partial judge then takes for that card but will not name (`judged`: too
        little shows to tell it apart, or it refused before): the classifier asked again on
        the fitted outline,
        by `_learned`'s rules with the judge's card expected, and by the look-alike rule
        (Options.learned_on_fit). Its first answer came from an outline pixels off. Not where
        another outline of the same card was `doubted` (named, but not told from a look-
        alike): a second outline is a second try at the same evidence, not more of it. And
        only when the crop reads so turned half round too (Options.learned_on_fit_turned).
        Nor where the judge fitted the card's near look-alike best on the outline before
        the fit (`first`, Options.fit_lookalike_doubts): the fit moved a few pixels of
        outline, and those chose between the two."""
        if not self.options.learned_on_fit or guess is None or judged.label != guess[1]:
            return None
        label, fitted = judged.label, judged.quad
        if _doubted_at(doubted, fitted, label):
            return None
        if self.options.fit_lookalike_doubts and first not in (None, BACK, OTHER, label) \
                and self._near_lookalike(judged) == first:
            return None
        guess = self._guess(frame, fitted, self._on_named(owned, view, fitted, cover))
        learned = self._learned(frame, fitted, shortlist, label, guess, covered)
        # (one way up only: a second outline read both ways named a 6 of coins for a 7, the
        # first outline 10% off it, tune napoletane 45,617)
        if learned is not None and self._lookalike_unsure(judged, learned.margin) and \
                not self._index_confirms_learned():
            doubted.append((fitted, label))
            return None
        if learned is None or (self.options.learned_on_fit_turned and not self._turned_agrees(
                guess[0], label, self.thresholds.learned_min_prob)):
            return None
        return learned

    def _alone_unranked(self, crop: np.ndarray, label: str, prob: float) -> bool:
        """A card no template fits on what shows, which the classifier names at
        `alone_unranked_prob` both ways up (Options.alone_unranked), needs not be the crop's
        best whole-card template match: over a card half covered by another, that ranks the
        cover."""
        return self.options.alone_unranked and \
            self._both_ways(crop, label, prob, self.thresholds.alone_unranked_prob)

    def _unconfirmed_turned(self, crop: np.ndarray, label: str) -> bool:
        """Where no corner index must confirm the classifier's card (`_index_confirms_learned`:
        the Italian decks), the crop turned half round is the second reading, and it does not
        read the card at `learned_turned_prob` (Options.learned_turned): one reading of what
        shows is not enough where nothing else names the card."""
        return self.options.learned_turned and not self._index_confirms_learned() and \
            not self._turned_agrees(crop, label, self.thresholds.learned_turned_prob)

    def _both_ways(self, crop: np.ndarray, label: str, prob: float, bar: float) -> bool:
        """The classifier names `crop` `label` at `prob` and the crop turned half round the
        same, each at `bar`: two readings of what shows, from either end of the card."""
        return prob >= bar and self._turned_agrees(crop, label, bar)

    def _turned_agrees(self, crop: np.ndarray, label: str, bar: float) -> bool:
        """The classifier names the crop turned half round the same card, at `bar`: a crop
        that is a card reads as one either way up; one spanning the strips of several cards
        of a tight cascade (what a hypothesis between them sees) seldom does."""
        turned, prob = self._classifier.best(  # type: ignore[union-attr]
            np.ascontiguousarray(crop[::-1, ::-1]), self._known)
        return turned == label and prob >= bar

    def _learned_fit_label(self, fitted_to: str | None,
                           guess: tuple[np.ndarray, str, float] | None) -> str | None:
        """The card `_refit_to_learned` fits a refused covered card to: the classifier's
        best guess (`learned_fit_from`), unless no card or the one fitted to already."""
        if guess is None or not self.options.learned_fit:
            return None
        _, label, prob = guess
        if label in (BACK, OTHER) or label == fitted_to or prob < self.thresholds.learned_fit_from:
            return None
        return label

    def _refit_to_index(self, frame: np.ndarray, view: TableView, rect: CardRect,
                        quad: np.ndarray, shortlist: np.ndarray | None,
                        read: tuple[str, float] | None,
                        tried: tuple[str | None, tuple[np.ndarray, str, float] | None],
                        hidden: np.ndarray | None = None,
                        ) -> tuple[Candidate, np.ndarray | None] | None:
        """A covered French card every judge refused, whose corner index reads a card
        (`read`, `_read_index` of `quad`, at `index_fit_from`; not a card fitted already:
        `tried` holds the partial judge's and the classifier's): its outline is fitted to
        that card and the partial judge asked again, with its usual limits; where it refuses
        yet fits that card best, the index read on the fitted outline decides as
        `_named_by_index` does (sure, and a second method, the partial judge's best fit,
        pointing at the same card)."""
        if self._index_reader is None or not self.options.index_fit:
            return None
        fitted_to, guess = tried
        if read is None or read[1] < self.thresholds.index_fit_from \
                or read[0] not in self.templates.labels \
                or read[0] in (fitted_to, self._learned_fit_label(fitted_to, guess)):
            return None
        quad = self._fit_quad(frame, view, rect, quad, read[0])
        cand, cells = self._judge_partial(frame, quad, shortlist, hidden)
        if cand.accepted:
            return (cand, cells) if cand.label == read[0] else None
        # the part that shows fits the index's card best, not surely (a look-alike differs
        # in the pips' shape only): the index, read again on the fitted outline, decides
        again = self._read_index(frame, quad) if cand.label == read[0] else None
        named = self._named_by_index(frame, quad, again, cand.label, None)
        return (named, None) if named is not None else None

    def _found_by_search(self, frame: np.ndarray, view: TableView, rect: CardRect,
                         shortlist: np.ndarray | None, read: tuple[str, float] | None,
                         guess: tuple[np.ndarray, str, float] | None
                         ) -> tuple[Candidate, CardRect] | None:
        """A covered French card every judge refused, searched for (`_searched`) as the
        card its index reads (at `index_fit_from`) or the classifier guesses (at
        `learned_fit_from`), and named where found as `_named_by_index` names one: its index
        read there sure, and the partial judge or the classifier there agreeing
        (Options.index_search). The card and the outline where it was found."""
        for label in self._search_labels(read, guess):
            moved, quad = self._searched(frame, view, rect, label)
            quad = self._fit_quad(frame, view, moved, quad, label)
            again = self._read_index(frame, quad)
            if again is None or again[0] != label:
                continue
            cand, _ = self._judge_partial(frame, quad, shortlist)
            there = self._guess(frame, quad) if self._classifier is not None else None
            named = self._named_by_index(frame, quad, again, cand.label, there)
            if named is not None:
                return named, moved
        return None

    def _search_labels(self, read: tuple[str, float] | None,
                       guess: tuple[np.ndarray, str, float] | None) -> list[str]:
        """The cards `_found_by_search` looks for: the one the index reads (at
        `index_fit_from`), the classifier's guess (at `learned_fit_from`); none without the
        index reader or Options.index_search."""
        th = self.thresholds
        if self._index_reader is None or not self.options.index_search:
            return []
        labels = []
        if read is not None and read[1] >= th.index_fit_from:
            labels.append(read[0])
        if guess is not None and guess[2] >= th.learned_fit_from:
            labels.append(guess[1])
        return [label for label in dict.fromkeys(labels) if label in self.templates.labels]

    def _searched(self, frame: np.ndarray, view: TableView, rect: CardRect,
                  label: str) -> tuple[CardRect, np.ndarray]:
        """The outline near `rect` (moved along the card's sides up to `search_reach` of its
        width, on a grid of `search_step`, then a canonical pixel around the best) where
        card `label`'s templates match the most cells of what shows, and its image quad
        (Options.index_search): a covered card's hypothesis built from the corners of the
        cards around it may lie a tenth of a card off, too far for `_fit_quad`. The
        surroundings are warped once; each move is a window of them."""
        th = self.thresholds
        limits = th.partial
        sums = self._cell_sums()
        mine = [i for i, name in enumerate(self.templates.labels) if name == label]
        quad = order_quad(view.image_points(rect.corners()))
        m = round(th.search_reach * CANON_W)
        around = surroundings(frame, quad, m)

        scored: dict[tuple[int, int], tuple[float, float]] = {}

        def score(moves: list[tuple[int, int]]) -> None:
            """Each move's cells shown and closeness, the better of the card's templates."""
            windows = [(m + dx, m + dy) for dx, dy in moves]
            shown = np.stack([shown_at(around, self.templates.images[i], sums[i], windows,
                                       limits) for i in mine])  # (template, move, 2)
            # cells first (the closeness, minus a mean error, is under a tenth of a cell)
            pick = np.argmax(shown[:, :, 0] + 0.1 * shown[:, :, 1], axis=0)
            for k, move in enumerate(moves):
                cells, closeness = shown[pick[k], k]
                scored[move] = (float(cells), float(closeness))

        def best() -> tuple[int, int]:
            """The move showing the most cells, the closest, the shortest."""
            return max(scored, key=lambda move: (scored[move], -abs(move[0]) - abs(move[1])))

        step = max(1, round(th.search_step * CANON_W))
        score([(dx, dy) for dx in range(-m, m + 1, step) for dy in range(-m, m + 1, step)])
        x, y = best()
        score([(dx, dy) for dx in range(max(-m, x - step + 1), min(m, x + step - 1) + 1)
               for dy in range(max(-m, y - step + 1), min(m, y + step - 1) + 1)
               if (dx, dy) not in scored])
        dx, dy = best()
        moved = _moved_quad(quad, dx, dy)
        shift = _in_view(view, moved).mean(axis=0) - _in_view(view, quad).mean(axis=0)
        return rect.moved(float(shift[0]), float(shift[1]), 0.0), order_quad(moved)

    def _cell_patch(self, frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The quad at the canonical size as the cell judges see it: warped at the fine size
        and averaged down (plain sampling would alias), not normalised."""
        return surroundings(frame, quad, 0)

    def _cell_sums(self) -> list[CellSums]:
        """The templates' per-cell sums (partial_match.CellSums), made once."""
        if self._template_sums is None:
            self._template_sums = [CellSums.of(t) for t in self.templates.images]
        return self._template_sums

    def _near_lookalike(self, cand: Candidate) -> str | None:
        """The card whose template differs least from the partial judge's where it showed
        (`cand.template` on `cand.shown`), when nearer than `near_lookalike_gap`; None when
        there is none so near, or the card was not so judged."""
        if cand.template < 0 or cand.shown is None:
            return None
        if self._lookalikes is None:
            self._lookalikes = Lookalikes(self.templates.images, self._label_ids)
        near, gap = self._lookalikes.closest(cand.template, cand.shown)
        return self.templates.labels[near] if gap < self.thresholds.near_lookalike_gap else None

    def _judge_partial(self, frame: np.ndarray, quad: np.ndarray, shortlist: np.ndarray | None,
                       hidden: np.ndarray | None = None) -> tuple[Candidate, np.ndarray | None]:
        """Judge a card from the part of it that shows (partial_match.py); `hidden`: its cells
        known covered (by cards named already)."""
        patch = self._cell_patch(frame, quad)
        unit = normalise(patch).reshape(-1)
        scores = self._scores(unit / max(float(np.linalg.norm(unit)), 1e-6), shortlist)
        order = np.argsort(-scores)
        order = order[np.isfinite(scores[order])]
        verdict = judge_partial(patch, self.templates.images, order, self._label_ids,
                                self._back_ids, self.thresholds.partial, self._cell_sums(),
                                hidden)
        label = self.templates.labels[verdict.index] if verdict.index >= 0 else BACK
        rival = self.templates.labels[verdict.rival] if verdict.rival >= 0 else None
        shown = verdict.visible
        if not (self.options.lookalike_unseparated or verdict.accepted or rival is not None):
            shown = None  # refused before it was told apart from any look-alike
        return Candidate(quad, label, 1.0 - verdict.error / 2, verdict.separation,
                         verdict.error, verdict.accepted and label != BACK,
                         rival, verdict.index, shown), shown

    def _on_named(self, owned: np.ndarray, view: TableView, quad: np.ndarray,
                  cover: np.ndarray | None = None) -> np.ndarray | None:
        """The canonical pixels of the image `quad` lying on cards named already (`owned`,
        the view's size), for `_guess` to blank (Options.learned_blanks_named), and under
        `cover` (the cover mask, Options.cover_blanks); None when the classifier was not
        trained on blanks."""
        if not self._blanks():
            return None  # (no warp)
        view_quad = _in_view(view, quad)
        share = _canonical_share(owned, view_quad)
        if cover is not None and self.options.cover_blanks:
            share = np.maximum(share, _canonical_share(cover, view_quad))
        return self._blanked(share)

    def _blanks(self) -> bool:
        """The classifier's crops are blanked where cards named lie (`_on_named`)."""
        return self.options.learned_blanks_named and self._classifier is not None and \
            self._classifier.blanks

    def _blanked(self, on_named: np.ndarray) -> np.ndarray | None:
        """`_on_named` from the canonical share already warped (`_canonical_share`)."""
        return on_named > 0.5 if self._blanks() else None

    def _guess(self, frame: np.ndarray, quad: np.ndarray,
               named: np.ndarray | None = None) -> tuple[np.ndarray, str, float]:
        """The quad's canonical crop, and the classifier's best label for it and its
        probability (the classifier must be loaded). `named`: pixels of the crop lying on
        cards named already, blanked: they show another card, never this one, and where they
        stand in for this card's covered part they can make it look like its look-alike."""
        crop = self._crop(frame, quad, named)
        label, prob = self._classifier.best(crop, self._known)  # type: ignore[union-attr]
        return crop, label, prob

    def _crop(self, frame: np.ndarray, quad: np.ndarray, named: np.ndarray | None) -> np.ndarray:
        """The quad's canonical crop, `named` pixels blanked (`_guess`), and those beyond the
        frame's edge (Options.blank_outside)."""
        crop = canonical_crop(frame, quad)
        if named is not None and named.any():
            crop[named] = 0.0  # the crop's mean, as training/blank_covers.py blanks
        if self.options.blank_outside and self._blanks():
            outside = _beyond_frame(frame.shape, quad)
            if outside is not None:
                crop[outside] = 0.0
        return crop

    def _learned(self, frame: np.ndarray, quad: np.ndarray, shortlist: np.ndarray | None,
                 expected: str | None = None,
                 guess: tuple[np.ndarray, str, float] | None = None,
                 covered: bool = False) -> Candidate | None:
        """The classifier's name for a crop the templates refused (card_classifier.py), taken
        only when it is sure, the card is among the best template matches of the crop and,
        given `expected` (the card the part that shows fits best, though not surely), is that
        card: two different methods agreeing, so a wrong card stays rarer than a late one.
        `expected` BACK or OTHER (no card fits what shows): only when very sure both ways up
        and the card is the crop's best template match. `guess`: the classifier's answer on
        this quad, when asked already (`_guess`). `covered`: the crop lies mostly on cards
        named already (`learned_covered_share`), so it must be surer."""
        if self._classifier is None:
            return None
        th = self.thresholds
        alone = expected in (BACK, OTHER)  # no card fits what shows
        crop, label, prob = guess if guess is not None else self._guess(frame, quad)
        bar = th.learned_alone_prob if alone else th.learned_min_prob
        if covered:
            bar = max(bar, th.wary_learned_min_prob)
        if label in (BACK, OTHER) or prob < bar or (
                expected is not None and not alone and label != expected):
            return None
        unit = crop.reshape(-1)
        unit = unit / max(float(np.linalg.norm(unit)), 1e-6)
        scores = self._scores(unit, shortlist)
        order = [int(i) for i in np.argsort(-scores)[:2 * th.learned_agree]
                 if np.isfinite(scores[i])]
        top = list(dict.fromkeys(self.templates.labels[i] for i in order))
        if label not in top[:1 if alone else th.learned_agree] and not (
                alone and self._alone_unranked(crop, label, prob)):
            return None
        if alone and not self._turned_agrees(crop, label, th.learned_alone_prob):
            return None
        if not alone and self._unconfirmed_turned(crop, label):
            return None
        # scored as the judge scores (its template's correlation), the margin is the certainty
        # (named unranked, `_alone_unranked`: of all the card's templates)
        ranked = [float(scores[i]) for i in order if self.templates.labels[i] == label]
        score = max(ranked) if ranked else max(
            float(self.templates.vectors[i] @ unit)
            for i, name in enumerate(self.templates.labels) if name == label)
        return Candidate(quad, label, score, prob, 0.0, True)

    def candidates(self, frame: np.ndarray, mask: np.ndarray | None = None) -> list[Candidate]:
        """Every plausible card quad in the frame with its best match and verdict (found on
        `mask`, the not-felt mask unless given)."""
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("camera.bad_frame: expected a BGR image (H, W, 3)")
        th = self.thresholds
        # look-alikes (a 3 of clubs and of spades, blurred) are told apart as the calibrated
        # path does, unless running as the first recogniser did
        separation = th.aligned_min_separation if self.options.strict_outline else None
        if mask is None:
            mask = self.card_mask(frame)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for contour in contours:
            if cv2.contourArea(contour) < th.min_area * 0.5:
                continue
            quad = _blob_quad(contour, th)
            if quad is not None:
                whole = self._judge(frame, quad, separation)
                out.append(whole)
                if whole.accepted or (whole.label == BACK and whole.score >= th.min_score):
                    continue
            for anchor in _side_anchors(contour, self.aspect, th):
                if any(c.accepted and _covers(c.quad, anchor) for c in out):
                    continue  # another side of a card already named
                fitted = self._fit_anchor(frame, anchor)
                if fitted is not None:
                    out.append(self._judge(frame, fitted, separation))
        return out

    def recognize(self, frame: np.ndarray, camera: CameraPose | None = None,
                  hints: Sequence[np.ndarray] = ()) -> list[Detection]:
        """The face-up cards named in this frame (nothing when unsure). With the table's
        calibration (`camera`, or the one given at construction) cards are found in the
        rectified top-down view; without it, by outline shapes in the image, and then in the
        view the cards named whole imply (self_calibration.py, camera_family.py) or, with
        none, the studio camera's likeliest framing (module docstring, step 5). `hints`
        (calibrated only): the quads of the cards the last frame named, proposed again
        (calibrated_candidates), for a card the outline and the localiser find in some
        frames of a still table and not in others (sensor noise)."""
        camera = camera or self.camera
        if frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("camera.bad_frame: expected a BGR image (H, W, 3)")
        if camera is not None:
            cands = self.calibrated_candidates(frame, camera, hints=hints)
        else:
            cands = self._uncalibrated(frame)
        found = [Detection(c.label, c.quad, c.score, c.margin, c.cell_error)
                 for c in cands if c.accepted and not self._index_disowns(frame, c)]
        # one physical card cannot be two detections: keep the best of overlapping quads
        found.sort(key=lambda d: -d.score)
        kept: list[Detection] = []
        for d in found:
            if all(self._apart(d, k) for k in kept):
                kept.append(d)
        return kept

    @staticmethod
    def _naming(found: list[Candidate]) -> tuple[int, int, float]:
        """How much a pass under one guessed pose names: first the codes it names (a pose
        that names one card thrice is no better for it: held-out ray 9,004,163 piacentine,
        under the outlines' pose a 2 of coins named three times, two copies half a card off,
        won the sweep against a framing naming five cards right), then its cards, then
        their scores summed."""
        named = [c for c in found if c.accepted]
        return len({c.label for c in named}), len(named), sum(c.score for c in named)

    def _apart(self, d: Detection, k: Detection) -> bool:
        """Two detections are two cards: their centres more than 20 pixels apart and, of one
        code, more than `same_card_apart` of `k`'s short side (a second copy that near would
        show too little of itself to count)."""
        gap = float(np.linalg.norm(np.subtract(d.center, k.center)))
        if d.code != k.code:
            return gap > 20
        short = min(float(np.linalg.norm(k.quad[1] - k.quad[0])),
                    float(np.linalg.norm(k.quad[3] - k.quad[0])))
        return gap > max(20.0, self.thresholds.same_card_apart * short)

    def _uncalibrated(self, frame: np.ndarray) -> list[Candidate]:
        """Outline candidates, and those the calibrated path finds under a guessed pose."""
        cands = self.candidates(frame)
        if not self.options.self_calibrate:
            return cands
        guessed = self.guess_pose(cands)
        named = [c for c in cands if c.accepted]
        if self.options.family_sweep and not named:
            # no card named whole: a pose from outlines alone is one guess among the
            # studio camera's framings (camera_family.py)
            found = self._family_sweep(frame, guessed)
        else:
            if guessed is None and self.options.pose_from_any_outline:
                guessed = self._pose_from_any_outline(frame, cands)
            if guessed is None:
                return cands
            found = self._agreeing(self._under_guess(frame, guessed), named)
        if self.options.pose_refit:
            found = self._refitted(frame, found, named)
        return found + cands

    def _refitted(self, frame: np.ndarray, found: list[Candidate],
                  named: list[Candidate]) -> list[Candidate]:
        """What the calibrated path finds under the guessed pose refitted to the cards named
        (pose_refit.py), when that names more than `found` (`_naming`, as the sweep ranks
        its poses); otherwise `found`."""
        th = self.thresholds
        cards: list[Candidate] = []
        for c in sorted((c for c in (*found, *named) if c.accepted), key=lambda c: -c.score):
            if all(float(np.linalg.norm(c.quad.mean(axis=0) - o.quad.mean(axis=0))) > 20
                   for o in cards):
                cards.append(c)
        pose = refit_pose(frame, [(c.quad, card_scan(parse_card(c.label), self.art))
                                  for c in cards[:th.refit_cards]],
                          self.aspect, th.refit_min_cc, th.family_max_error)
        if pose is None:
            return found
        again = self._agreeing(self._under_guess(frame, pose), named)
        return again if self._naming(again) > self._naming(found) else found

    def _under_guess(self, frame: np.ndarray, pose: CameraPose) -> list[Candidate]:
        """The calibrated path under a guessed pose, where the classifier does not name a
        covered card alone (no template judge agreeing; nor the rescue verifier) unless
        `alone_when_guessed`: on an outline read under a guessed plane it named a 4 of
        spades and a 9 of clubs for other cards (tune seeds 1043 french40, 1175 french52);
        and names one the template judges agree on only as sure as before `learned_min_prob`
        came down (`wary_learned_min_prob`), one with a look-alike only at
        `near_lookalike_prob` (read both ways up at 0.9, a 3 of diamonds was named for a 2
        under the guessed plane of 1043, the index reader's confirmation off)."""
        if self._guessing is None:
            th = self.thresholds
            guessed = replace(th, learned_min_prob=max(th.learned_min_prob,
                                                       th.wary_learned_min_prob),
                              lookalike_both_ways_prob=2.0)
            options = self.options
            if not self.options.alone_when_guessed:
                # (nor the rescue verifier: it too names a card alone; issue 15's generated
                # scene 58, piacentine, a false 3 of swords under the guessed pose)
                guessed = replace(guessed, learned_alone_prob=2.0)
                options = replace(options, rescue=False)
            self._guessing = Recognizer(self.art, self.kind, guessed, None, options,
                                        self.classifier, self.verifier)
            self._guessing._views = self._views  # the same views, made once
        return self._guessing.calibrated_candidates(
            frame, pose, self.options.localise_when_guessed,
            self.options.guessed_localised_whole)

    def _agreeing(self, found: list[Candidate], named: list[Candidate]) -> list[Candidate]:
        """A card named whole on its own outline is not renamed under a guessed pose (a plane
        a little off can make a look-alike fit better: tune seed 81 piacentine, a 4 of coins
        named a 5)."""
        if not self.options.outline_agrees:
            return found
        return [c for c in found if not (c.accepted and any(
            n.label != c.label and float(np.linalg.norm(c.quad.mean(axis=0)
                                                        - n.quad.mean(axis=0))) <= 20
            for n in named))]

    def _family_sweep(self, frame: np.ndarray,
                      guessed: CameraPose | None) -> list[Candidate]:
        """No card named whole: the studio's middle camera at a few framings (camera_family)
        are ranked by how well a card of their size matches somewhere (cheap: the best
        hypothesis's small-image score); the best few, and the pose guessed from outlines if
        any, are tried by the calibrated path and the one that names most is kept (without
        `sweep_tries_outline`, that pose is ranked with the framings)."""
        th = self.thresholds
        family = family_poses()
        mid = len(family) // 2
        ranks: list[tuple[float, CameraPose]] = []
        # the framings differ only in scale about the axis: one view of the middle one,
        # where a card of another framing is that much larger or smaller, ranks them all
        spans = np.array(FAMILY_SPANS)
        view = self.view(family[mid])
        mask = self._view_mask(frame, view)[1]
        for pose, scale in zip(family, spans[mid] / spans, strict=True):
            ranks.append((self._best_quick(frame, view, mask, float(scale)), pose))
        if guessed is not None and not self.options.sweep_tries_outline:
            view = self.view(guessed)
            mask = self._view_mask(frame, view)[1]
            ranks.append((self._best_quick(frame, view, mask, 1.0), guessed))
        ranks.sort(key=lambda r: -r[0])
        tries = [pose for _, pose in ranks[:th.sweep_passes]]
        if guessed is not None and self.options.sweep_tries_outline:
            tries.append(guessed)  # besides the best framings, not ranked among them
        best: tuple[tuple[int, int, float], list[Candidate]] | None = None
        for pose in tries:
            found = self._under_guess(frame, pose)
            naming = self._naming(found)
            if best is None or naming > best[0]:
                best = (naming, found)
        return best[1] if best is not None else []

    def _best_quick(self, frame: np.ndarray, view: TableView, mask: np.ndarray,
                    scale: float) -> float:
        """The best small-image score of a card `scale` times the card's size in this view,
        on the right-angle corners of its not-felt `mask` (as the calibrated path proposes)."""
        th = self.thresholds
        w, h = card_size(self.aspect, view.scale)
        rects, _ = card_hypotheses(mask, w * scale, h * scale, 0.5 * w * h * scale ** 2,
                                   on_solid=0.95)
        best = 0.0
        for rect in rects[:th.sweep_hypotheses]:
            quick, label, _ = self._quick_match(frame, order_quad(view.image_points(
                rect.corners())))
            if label != BACK:
                best = max(best, quick)
        return best

    def _pose_from_any_outline(self, frame: np.ndarray,
                               cands: list[Candidate]) -> CameraPose | None:
        """No card named and no outline close to one: any card-shaped outline gives the
        table's plane (a wrong guess makes cards the wrong size there, and the calibrated
        path then names nothing), first on the outlines found, then on the not-felt mask
        closed (holes in a pale card on a dark cloth break its outline)."""
        th = self.thresholds
        pose = self.guess_pose(cands, th.any_outline_pose_score)
        if pose is not None or th.pose_close <= 0:
            return pose
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (th.pose_close, th.pose_close))
        closed = cv2.morphologyEx(self.card_mask(frame), cv2.MORPH_CLOSE, kernel)
        return self.guess_pose(self.candidates(frame, closed), th.any_outline_pose_score)

    def guess_pose(self, cands: list[Candidate],
                   min_score: float | None = None) -> CameraPose | None:
        """A calibration from the cards named whole (the largest few tried): the one under
        which most of them have a card's size on the table. Without any, from the outlines
        matching a card at least `min_score` (default `outline_pose_score`)."""
        if min_score is None:
            min_score = self.thresholds.outline_pose_score
        whole = sorted((c for c in cands if c.accepted),
                       key=lambda c: -cv2.contourArea(c.quad))
        if not whole:  # no card named, yet an outline that matches a card (or the back)
            # fairly well is a card's shape all the same: the geometry is what is wanted
            whole = sorted((c for c in cands if c.score >= min_score), key=lambda c: -c.score)
        best: tuple[int, CameraPose] | None = None
        for c in whole[:3]:
            pose = pose_from_card(c.quad, self.aspect)
            if pose is None:
                continue
            agree = sum(1 for o in whole if _card_sized(pose, o.quad, self.aspect))
            if best is None or agree > best[0]:
                best = (agree, pose)
        if best is None:
            return None
        if not self.options.family_pose:
            return best[1]
        # the studio's kind of camera fitted to every card of the agreeing size at once: one
        # card's corners, a pixel or two off, allow planes no table camera sees
        agreeing = [o.quad for o in whole if _card_sized(best[1], o.quad, self.aspect)][:6]
        hom = fit_family(agreeing, card_rectangle(self.aspect), self.thresholds.family_max_error,
                         self.options.family_drop_worst)
        family = pose_from_plane(hom) if hom is not None else None
        return family if family is not None else best[1]

    def _canon_patch(self, frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The quad sampled at the canonical size (bilinear, no averaging: enough to align
        and to rank cards, not to judge them), normalised per channel."""
        warp = cv2.getPerspectiveTransform(quad, _CANON_CENTRED)
        return normalise(cv2.warpPerspective(frame, warp, (CANON_W, CANON_H),
                                             flags=cv2.INTER_LINEAR))

    def _align(self, frame: np.ndarray, view: TableView, rect: CardRect, fit: bool = False,
               shortlist: np.ndarray | None = None,
               start: tuple[list[int], np.ndarray] | None = None) -> CardRect | None:
        """Nudge a card hypothesis (shift and turn in the table view; its size is known) to
        where it best matches a template: a corner read off a rounded, noisy outline can be a
        pixel or two and a degree or two off, enough to spoil the match or to make a
        look-alike win. The pose is fitted to the best matching card and, unless that fit is
        close, also to the card that matches nearly as well at the fitted pose; the better
        fit is kept. A close match at the start is kept as it is (the same object), unless
        `fit`. None when the best match is the card back or weaker than `refine_from`.
        `start`: `_start` of this hypothesis, when the caller has it already."""
        perm, scores = start or self._start(frame, view, rect, shortlist)
        ids = self._label_ids
        order = np.argsort(-scores)
        best = int(order[0])
        if self.templates.labels[best] == BACK or scores[best] < self.thresholds.refine_from:
            return None
        th = self.thresholds
        if scores[best] >= th.aligned_from and not fit:
            return rect  # already a close match: the judge tells look-alikes apart
        fitted, score, patch = self._gauss_newton(frame, view, rect, perm, best)
        if score >= th.sure_fit:
            return fitted  # a close fit: look-alikes share the layout, the judge tells them apart
        # at the fitted pose another card may match nearly as well (the first pose favoured
        # a look-alike): fit that one too, from the first pose, and keep the better fit
        after = self._scores(patch.reshape(-1) / max(float(np.linalg.norm(patch)), 1e-6),
                             shortlist)
        rivals = [int(i) for i in np.argsort(-after)[:8]
                  if ids[i] != ids[best] and after[i] >= score - th.contender_gap]
        for pick in rivals[:1]:
            other, other_score, _ = self._gauss_newton(frame, view, rect, perm, pick)
            if other_score > score:
                fitted, score = other, other_score
        return fitted

    def _start(self, frame: np.ndarray, view: TableView, rect: CardRect,
               shortlist: np.ndarray | None) -> tuple[list[int], np.ndarray]:
        """Where alignment starts: the view corners' order as the image's quad reads them,
        and every template's correlation with the hypothesis as proposed."""
        corners = view.image_points(rect.corners())
        ordered = order_quad(corners)
        perm = [int(np.argmin(np.abs(corners - p).sum(axis=1))) for p in ordered]
        first = self._canon_patch(frame, ordered).reshape(-1)
        return perm, self._scores(first / max(float(np.linalg.norm(first)), 1e-6), shortlist)

    def _fitted_whole(self, frame: np.ndarray, view: TableView, rect: CardRect,
                      shortlist: np.ndarray | None, start: tuple[list[int], np.ndarray]
                      ) -> tuple[Candidate, CardRect] | None:
        """A hypothesis `_align` found too far from any card to align (Options.fit_low_start):
        fitted anyway to the card it looks most like and, where the fit reaches
        `low_start_fit`, judged whole. Only a card named whole is kept: a refused one is
        judged on what shows from where it was proposed, as before (judged so from its fitted
        pose, a Piacentine 6 of cups half covered was named a 7: tune 13367). `start`: the
        hypothesis's `_start`, as `_align` had it."""
        if not self.options.fit_low_start:
            return None
        th = self.thresholds
        perm, scores = start
        best = int(np.argmax(scores))
        if self.templates.labels[best] == BACK:
            return None
        fitted, score, _ = self._gauss_newton(frame, view, rect, perm, best)
        if score < th.low_start_fit:
            return None
        cand = self._judge(frame, order_quad(view.image_points(fitted.corners())),
                           th.aligned_min_separation, shortlist)
        return (cand, fitted) if cand.accepted and not self._whole_disowned(frame, cand) \
            else None

    def _gauss_newton(self, frame: np.ndarray, view: TableView, rect: CardRect,
                      perm: list[int], label: int) -> tuple[CardRect, float, np.ndarray]:
        """The card's shift and turn about its centre in the view that best fits template
        `label`: least squares on the normalised card image, linearised with the patch's own
        gradients (the card's size in the view is known, so its image only moves and turns).
        A few cheap steps at the small search size, then at the canonical size. Returns the
        pose, its canonical correlation and its canonical image."""
        th = self.thresholds
        if th.align_search_iterations > 0:
            rect = self._gn_level(frame, view, rect, perm, label, _SEARCH_LEVEL,
                                  th.align_search_iterations)[0]
        return self._gn_level(frame, view, rect, perm, label, _CANON_LEVEL, th.align_iterations)

    def _gn_level(self, frame: np.ndarray, view: TableView, rect: CardRect, perm: list[int],
                  label: int, level: _Level,
                  iterations: int) -> tuple[CardRect, float, np.ndarray]:
        """Gauss-Newton steps at one image size (see `_gauss_newton`). The linearisation uses
        the template's gradients (near the fit the patch looks like the template), so it is
        made once per card, not per step: each step is one warp and three dot products."""
        th = self.thresholds
        template, gs, gt = self._level_template(label, level)
        inner = template[1:-1, 1:-1].ravel()
        tnorm = max(float(np.linalg.norm(inner)), 1e-6)
        pv = rect.corners()[perm].astype(np.float64)  # view corners in canonical order
        a = float(np.linalg.norm(pv[1] - pv[0])) / level.w  # view pixels per image pixel
        b = float(np.linalg.norm(pv[3] - pv[0])) / level.h
        cross = (pv[1, 0] - pv[0, 0]) * (pv[3, 1] - pv[0, 1]) - \
            (pv[1, 1] - pv[0, 1]) * (pv[3, 0] - pv[0, 0])
        sigma = 1.0 if cross > 0 else -1.0
        # the card's size in the view is fixed, so this is the same for every card of a label
        key = (label, level.w, sigma, round(a, 3), round(b, 3))
        cached = self._normal.get(key)
        if cached is None:
            # a turn by d moves pixel (s', t') (from the centre) by
            # (-sigma b/a t', sigma a/b s') d
            gr = (level.inner_t * np.float32(-sigma * b / a)) * gs + \
                (level.inner_s * np.float32(sigma * a / b)) * gt
            # normal equations by plain dot products: a matrix product may start BLAS threads
            ss, st, sr = float(gs @ gs), float(gs @ gt), float(gs @ gr)
            tt, tr, rr = float(gt @ gt), float(gt @ gr), float(gr @ gr)
            cached = (gr, np.linalg.inv(np.array([[ss + 1e-3, st, sr], [st, tt + 1e-3, tr],
                                                  [sr, tr, rr + 1e-3]])))
            if len(self._normal) > 4096:
                self._normal.clear()
            self._normal[key] = cached
        gr, solve = cached
        limit = np.array([th.align_max_shift / a, th.align_max_shift / b, np.radians(2.0)])
        # the pose as a shift and a turn of the card about its first centre; each step warps
        # with image <- view <- this level's pixels (an affine map: the card is a rectangle)
        centre = pv.mean(axis=0)
        rel = pv - centre
        shift, turn = np.zeros(2), 0.0
        best = (shift, turn, -1.0, template)
        for _ in range(iterations):
            c, s_ = np.cos(turn), np.sin(turn)
            corners = centre + shift + rel @ np.array([[c, s_], [-s_, c]])
            e1, e2 = (corners[1] - corners[0]) / level.w, (corners[3] - corners[0]) / level.h
            origin = corners[0] + 0.5 * (e1 + e2)
            affine = np.array([[e1[0], e2[0], origin[0]], [e1[1], e2[1], origin[1]],
                               [0.0, 0.0, 1.0]])
            patch = normalise(cv2.warpPerspective(
                frame, view.to_image @ affine, (level.w, level.h),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP))
            flat = patch[1:-1, 1:-1].ravel()
            pnorm = max(float(np.linalg.norm(flat)), 1e-6)
            score = float(flat @ inner) / (pnorm * tnorm)
            if score <= best[2]:
                break
            best = (shift, turn, score, patch)
            # residual against the template scaled to the patch; the step in its units
            resid = inner - flat * np.float32(tnorm / pnorm)
            rhs = np.array([float(gs @ resid), float(gt @ resid), float(gr @ resid)])
            step = np.clip(solve @ rhs, -limit, limit)
            ds, dt, dturn = float(step[0]), float(step[1]), float(step[2])
            if max(abs(ds) * a, abs(dt) * b) < 0.1 and abs(dturn) < np.radians(0.1):
                break
            shift = shift + ds * e1 + dt * e2
            turn += dturn
        shift, turn, score, patch = best
        return rect.moved(float(shift[0]), float(shift[1]), turn), score, patch

    def _level_template(self, label: int,
                        level: _Level) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Template `label` at this level's size, with its gradients along its width and
        height (interior pixels, flattened), made once per template."""
        key = (label, level.w)
        cached = self._gradients.get(key)
        if cached is None:
            if level.w == CANON_W:
                template = self.templates.images[label]
            else:
                template = self.templates.search[label].reshape(level.h, level.w, 3)
            gs, gt = (cv2.Sobel(template, cv2.CV_32F, dx, 1 - dx, ksize=3, scale=0.125)
                      [1:-1, 1:-1].ravel() for dx in (1, 0))
            cached = self._gradients[key] = (template, gs, gt)
        return cached

    def _quick_score(self, frame: np.ndarray, quad: np.ndarray) -> float:
        """Best correlation at the small search size: cheap, for fitting a card's extent."""
        return self._quick_match(frame, quad)[0]

    def _judgeable(self, frame: np.ndarray, view: TableView,
                   rect: CardRect) -> tuple[bool, np.ndarray | None, float]:
        """A proposed hypothesis (moved onto its edges, or a hand's step) is judged on what
        shows when it is no back and worth it (`_worth_judging`); its shortlist and quick
        match."""
        quad = order_quad(view.image_points(rect.corners()))
        quick, label, shortlist = self._quick_match(frame, quad)
        return label != BACK and self._worth_judging(frame, quad, quick), shortlist, quick

    def _worth_judging(self, frame: np.ndarray, quad: np.ndarray, quick: float) -> bool:
        """A hypothesis is judged on what shows when its quick match reaches `partial_quick`,
        or, a little under it, when the classifier names a card on it surely
        (Options.learned_quick): the judges and their guards decide after."""
        th = self.thresholds
        if quick >= th.partial_quick:
            return True
        if not self.options.learned_quick or self._classifier is None or \
                quick < th.learned_quick_from:
            return False
        _, label, prob = self._guess(frame, quad)
        return label not in (BACK, OTHER) and prob >= th.learned_quick_prob

    def _quick_match(self, frame: np.ndarray,
                     quad: np.ndarray) -> tuple[float, str, np.ndarray]:
        """Best correlation at the small search size, its label (a card or BACK), and the
        templates that match best there (`shortlist` of them): the only ones worth comparing
        at the larger sizes."""
        warp = cv2.getPerspectiveTransform(quad, _SEARCH_CORNERS - np.float32(0.5))
        small = cv2.warpPerspective(frame, warp, (SEARCH_W, SEARCH_H), flags=cv2.INTER_LINEAR)
        vec = normalise(small).reshape(-1)
        scores = self.templates.search @ vec  # small enough to stay on this thread
        best = int(np.argmax(scores))
        shortlist = np.argpartition(-scores, self.thresholds.shortlist - 1)[
            :self.thresholds.shortlist] if len(scores) > self.thresholds.shortlist else None
        return (float(scores[best]) / max(float(np.linalg.norm(vec)), 1e-6),
                self.templates.labels[best], shortlist)

    def _fit_anchor(self, frame: np.ndarray, anchor: SideAnchor) -> np.ndarray | None:
        """The card's far side: the length around the aspect-ratio guess that matches best;
        None when nothing near the guess looks like a card."""
        tried: dict[float, float] = {}

        def at(length: float) -> float:
            if length not in tried:
                tried[length] = self._quick_score(frame, anchor.quad(length))
            return tried[length]

        for nominal in anchor.lengths:
            for stretch in (0.85, 1.0, 1.15):
                at(round(nominal * stretch, 1))
        best_len = max(tried, key=tried.__getitem__)
        if tried[best_len] < self.thresholds.min_search_score:
            return None
        step = 0.075 * best_len
        while step > 0.006 * best_len:
            for other in (best_len - step, best_len + step):
                if at(other) > tried[best_len]:
                    best_len = other
            step /= 2
        return anchor.quad(best_len)

    def _discriminate(self, fine: dict[int, float], a: int, b: int) -> float:
        """+0.5 when the image is template a, -0.5 when template b, along the line between
        them; `fine` holds the image's dot products with the (unit) fine templates, so this
        is (fa - fb) / |ta - tb|^2, with ta . tb computed once per pair."""
        pair = (a, b) if a < b else (b, a)
        cross = self._pair_dots.get(pair)
        if cross is None:
            cross = self._pair_dots[pair] = float(self.templates.fine[a] @ self.templates.fine[b])
        dd = 2.0 - 2.0 * cross
        if dd < 1e-9:
            return 0.0
        return (fine[a] - fine[b]) / dd

    def _scores(self, unit: np.ndarray, shortlist: np.ndarray | None) -> np.ndarray:
        """Correlation of a unit canonical image with every template (-inf off the
        shortlist: those are not computed, one dot product each for the rest)."""
        if shortlist is None:
            return _matvec(self.templates.vectors, unit)
        scores = np.full(len(self.templates.labels), -np.inf, np.float32)
        vectors = self.templates.vectors
        for i in shortlist:
            scores[i] = vectors[i] @ unit
        return scores

    def _judge(self, frame: np.ndarray, quad: np.ndarray, min_separation: float | None = None,
               shortlist: np.ndarray | None = None) -> Candidate:
        th = self.thresholds
        if min_separation is None:
            min_separation = th.min_separation
        # warp at the fine size; the coarse image is its average (plain sampling would alias)
        warp = cv2.getPerspectiveTransform(quad, _CANON_CORNERS * FINE - np.float32(0.5))
        big = cv2.warpPerspective(frame, warp, (CANON_W * FINE, CANON_H * FINE),
                                  flags=cv2.INTER_LINEAR)
        img = normalise(coarse_from_fine(big))
        vec = img.reshape(-1)
        vec = vec / max(float(np.linalg.norm(vec)), 1e-6)
        scores = self._scores(vec, shortlist)
        best = int(np.argmax(scores))
        if scores[best] < th.min_score:
            # the winner scores at most the best: refused, without the costly fine comparison
            return Candidate(quad, self.templates.labels[best], float(scores[best]), 0.0,
                             float("inf"), False)
        vec_fine = normalise(big).reshape(-1)
        vec_fine = vec_fine / max(float(np.linalg.norm(vec_fine)), 1e-6)
        ids = self._label_ids
        # close contenders (same layout, e.g. 6 of spades and 6 of clubs) are decided by a
        # tournament on the pixels where their templates differ, not by the whole card
        winner = best
        rivals = [int(i) for i in np.argsort(-scores)[:12]
                  if scores[i] >= scores[best] - th.contender_gap]
        fine = {i: float(self.templates.fine[i] @ vec_fine) for i in rivals}
        for i in rivals:
            if ids[i] != ids[winner] and self._discriminate(fine, winner, i) < 0:
                winner = i
        separation = min((self._discriminate(fine, winner, i) for i in rivals
                          if ids[i] != ids[winner]), default=0.5)
        label = self.templates.labels[winner]
        diff = img - self.templates.images[winner]
        cell_error = float((diff * diff).reshape(GRID_ROWS, CANON_H // GRID_ROWS, GRID_COLS, -1)
                           .mean(axis=(1, 3)).max())
        score = float(scores[winner])
        accepted = (label != BACK and score >= th.min_score and separation >= min_separation
                    and cell_error <= th.max_cell_error)
        margin = separation  # reported as the margin: how clearly the winner beats the rest
        return Candidate(quad, label, score, margin, cell_error, accepted)
