"""Card recognition on the wide, domain-randomised scenes (devices/camera/wide_scenes.py), per
deck, calibrated and uncalibrated, today's recogniser (the baseline) beside the current one.

    .venv/bin/python -m tests.bench.bench_wide_scenes [--scenes N] [--split held-out|tune]
        [--decks napoletane,piacentine,french40,french52] [--modes calibrated,uncalibrated]
        [--source wide|wide-linear|ray]  (the scenes' generator: wide_scenes.py, or
            ray_scenes.py)
        [--ab OPTION[,OPTION][:NAME=VALUE[,NAME=VALUE]] ...]  (also the current recogniser
            with those switches flipped and those Thresholds values; repeatable: one each)
        [--ab-classifier DIR]  (... and with DIR's card_classifier_<art>.npz where it has one,
            its card_verifier_<art>.npz (the rescue verifier), and its
            index_reader_french.npz for French decks:
                                one A/B recogniser, e.g. the session's start)
        [--ab-threshold NAME=VALUE ...]  (... and with these Thresholds values)

--split tune (seeds from 0) is for developing and tuning; --split held-out (seeds from
HELD_OUT_SEED_BASE, the default) is only for reporting: nobody tunes on it. Figures per deck
and mode: % of counted cards named right (issue 16's rule: >= 45% of the face visible, French
cards also a corner index), false cards, scenes fully right, mean and p95 ms per 1280x720
frame on one core (recognition only; the calibration's view is made before timing, as at a
table's start-up). Goals: >= 99.5% right, 0 false, <= 20 ms (calibrated).

--source wide-linear: wide_scenes.py's scenes drawn in linear light (`linear_light`).

--source ray: the scenes of devices/camera/ray_scenes.py, a third generator built apart (each
pixel's ray cast onto the table and the cards' bowed faces, radial lens distortion with the
best-homography calibration, a point lamp, a Bayer sensor; the shared original scans) and never
tuned on. Its seeds split at the same HELD_OUT_SEED_BASE.

Held-out report, 2026-12-07 (fifty-first session), calibrated: a card the whole-card judge
names under 0.9 refused where the classifier reads another card on its outline at 0.9 both
ways up (Options.whole_learned_veto; it mends the fiftieth report's piacentine 9,010,633, a 6
of swords on a 7 seen whole), on ray stills never run before, code ecc5a2c (the shipped
recogniser; the veto on). Ray tune before it: 718,300-718,599 two Italian decks and
718,300-718,499 two French, 163 cards the whole judge named under 0.9, all right, the
classifier reading each the same at 0.98 or more both ways; 718,600-718,999 Italian, the same
cards either way. The decision rule, fixed before the run: on if it adds no false card and
loses no more than 3 right cards a deck. Where the veto does not fire the two are the same
recogniser, so the current one ran alone, its firings counted (Recognizer._whole_disowned
wrapped) and the scenes it fired in run again with it off:

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9010750 \
        --scenes 2000 --no-baseline --modes calibrated --decks napoletane   (and piacentine;
        French: --first-seed 9009750 --scenes 600)

    ray 9,010,750-9,012,749   shipped (veto on)            false   veto fired
    napoletane                97.83% (5542/5665) 130 ms    0       0 scenes
    piacentine                98.13% (5610/5717) 136 ms    1       0 scenes
    ray 9,009,750-9,010,349
    french40                  98.11% (1762/1796) 137 ms    0       0 scenes
    french52                  98.58% (1599/1622) 128 ms    0       0 scenes

Over the four decks 14,513 of 14,800 (98.06%), 1 false card in 5,200 scenes; whole cards
10,037 of 10,056 (99.81%), 45-55% showing 986 of 1,172 (84.1%).

The veto never fired on held-out: it mends the spent case only. The milliseconds are this
session's machine, slower than the fiftieth session's (ray 9,008,750-9,008,779 napoletane,
129 ms a still now, against 56 ms over 9,008,750-9,010,749 then, the code the same save the
veto, which costs 1.02x on tracked deals): read them against each other, not the goal.
Piacentine also named one card twice. Its false card (spent, looked at after this report):
9,012,108, a 7 of cups 75% showing, the end of a row, named a 6 by the classifier (0.966) on
its own outline: the look-alike mechanism of the reports before.

Held-out report, 2026-12-07 (fiftieth session), calibrated: the moved hypotheses judged best
quick match first (Options.snapped_by_quick) and an Italian network's card refused where its
outline moved reads surer as another card of its suit (Options.read_beside), both on against
both off, in one run, on ray stills never run before, code 5609fc7. Each mends false cards of
the reports below (spent, looked at since: napoletane 9,007,211, 9,004,921, piacentine
9,004,522); the decision rule was fixed before the run: on if together they add no false card
and lose no more than 3 right cards a deck. Ray tune before it: 713,500-713,999 and
714,400-714,799, two Italian decks, the same cards and 0 false either way.

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9008750 \
        --scenes 2000 --no-baseline --modes calibrated --decks napoletane \
        --ab snapped_by_quick,read_beside      (piacentine beside it; French: --scenes 1000,
                                                --ab snapped_by_quick: read_beside is Italian)

    ray 9,008,750-9,010,749   both on                  false   both off                false
    napoletane                98.10% (5538/5645) 56 ms  3      98.12% (5539/5645) 55 ms  3
    piacentine                98.37% (5482/5573) 58 ms  1      98.37% (5482/5573) 56 ms  1
    ray 9,008,750-9,009,749
    french40                  98.32% (2801/2849) 56 ms  0      98.32% (2801/2849) 56 ms  0
    french52                  97.45% (2787/2860) 61 ms  0      97.48% (2788/2860) 61 ms  0

No held-out gain: the same false cards either way, 2 cards fewer of 16,927 (kept by the rule).
Over the four decks 16,608 of 16,927 (98.12%), 4 false cards in 6,000 scenes; whole cards
11,428 of 11,457 (99.75%), 45-55% showing 1,117 of 1,293 (86.4%). The false cards (spent
since, looked at): napoletane 9,008,890 a 7 of coins on a 6 of coins 62% showing, on its own
outline; 9,009,191 a 4 of cups the whole judge named on a 3 of cups 54% showing (its 4 of
cups lies whole 70 pixels aside); 9,009,443 a 2 of coins (the classifier, 0.999) a third of
a card off a 3 of coins 83% showing, the 3 read as surely (0.999, rounded) on the outline
moved: read_beside's pattern, not refused as the 3 is not read surer; piacentine 9,010,633 a
6 of swords the whole judge named on a 7 of swords seen whole (9,008,890 not traced to its
judge). Tried on tune and not kept this session:
the rescue verifier as a veto of the classifier's cards (ray tune 713,500-713,676, two
Italian decks: 15 of 69 right cards read under 0.7 both ways; the spent false ones above
0.25-0.80); the card's own telling print seen (telling.marks_seen) as a floor for the
classifier's cards (ray tune 716,500-716,953: 49 of 255 right cards under 30 pixels, the one
false card over 40: a card whose look-alike has more print, a 6 of cups against a 7, shows
none); the hypotheses the partial judge names judged before those only a network names
(ray tune 717,300-717,699: the same cards either way, +17% ms, and a false 6 of cups on wide
tune 26,770, whose doubt then came too late).

Held-out report, 2026-12-07 (forty-ninth session), the Italian decks calibrated: the rescue
pass (Options.rescue) on against off, in one run, on ray stills never run before, 2,000 a
deck, run at ae095f2 (rescue off, --ab rescue turning it on; the same command now runs
it the other way round). The decision rule was fixed before the run
(ray tune 711,250-711,499 and 713,000-713,499, +12 and +8 cards and no false card): on if
it adds no false card here.

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9006750 \
        --scenes 2000 --no-baseline --modes calibrated --decks napoletane \
        --ab rescue --ab rescue:rescue_prob=0.75   (and piacentine beside it)

    ray 9,006,750-9,008,749   rescue off                false  rescue on               false
    napoletane                97.36% (5529/5679)  70 ms  3      98.01% (5566/5679)  81 ms  3
    piacentine                97.89% (5520/5639)  72 ms  3      98.17% (5536/5639)  83 ms  3

The same false cards either way, none the rescue's (spent since, looked at): five are the
classifier's card (`_learned`, read 0.96-0.99) on an outline off the card beneath, napoletane
9,007,211 and 9,007,989 a 5 of cups on outlines that leave out a 6 of cups' column (the 6 at
9,007,211 seen whole and not named), 9,008,561 a 7 of swords; piacentine 9,008,066 a 6 of
cups and 9,008,646 a 7 of coins on an outline turned across a 4 of coins named already, under
the dealer's hand; 9,007,822 a 6 of cups the partial judge nearly named (separation 0.396).
At rescue_prob 0.75: 5,559 and 5,532, the same false cards. The live path on ray deals never
run before (bench_wide_live --source ray --first-seed 9100060 --deals 15 --ab rescue):
napoletane 44/44 and piacentine 56/56 right, 0 false, 16.69 and 13.49 ms a frame, 1.07x and
1.02x the time without the rescue.

Held-out report, 2026-12-06 (forty-eighth session): the first at the goal's size, 2,000
ray stills a deck never run before, the shipped recogniser (code ea48b89), calibrated and
uncalibrated, two decks a process on the two cores (ms side by side):

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9004250 \
        --scenes 2000 --no-baseline --modes calibrated,uncalibrated \
        --decks napoletane,piacentine   (and french40,french52 beside it)

    ray 9,004,250-9,006,249   calibrated                false  uncalibrated          false
    napoletane                97.18% (5442/5600)  80 ms  2      95.27% (5335/5600) 263 ms  2
    piacentine                98.04% (5607/5719)  96 ms  1      95.80% (5479/5719) 309 ms  0
    french40                  97.97% (5506/5620) 112 ms  0      96.48% (5422/5620) 370 ms  5
    french52                  97.56% (5407/5542)  94 ms  1      96.17% (5330/5542) 319 ms  2

Calibrated, 21,962 of 22,481 cards (97.69%), 4 false cards in 8,000 scenes. By the share
that shows, calibrated: 45-55% 1,511/1,793 (84.3%), 55-70% 1,686/1,808, 70-85% 1,356/1,384,
85-98% 2,018/2,051, whole 15,391/15,445 (99.65%): 432 of the 519 misses show under 85%,
282 of them under 55%; the goal's gap is there. The false cards (spent since, looked
at): napoletane 9,004,904 a 5 of cups and 9,004,921 a 2 of coins,
each the classifier's card (template score 0.40, 0.35) on an outline between two cards of a
fan, naming a look-alike of the card beneath; piacentine 9,004,522 a 7 of coins for a 6 of
coins whose top two coins a white chip hides (the cover mask does not mark a white chip on a
white card); french52 9,004,987 a 4 of spades (not traced). French whole cards are missed
most (french40 17 of 3,982, french52 30 of 3,899, against 3-4 Italian): blurred cards whose
judge cannot tell hearts' pips from diamonds' at the canonical size (tune 711,191 french40:
Options.whole_index_paired, added after this run; on ray held-out 9,006,250-9,006,749
french40 1,366 against 1,365 of 1,386 without it, 9,006,250-449 french52 586 of 596 either
way, 0 false either way).

Held-out report, 2026-12-04 (forty-seventh session), uncalibrated only (the calibrated path
is unchanged): the guessed pose refitted to the cards it names, each aligned to its own scan
by ECC (Options.pose_refit, pose_refit.py), and the outlines' pose always tried in the sweep
(Options.sweep_tries_outline), both on against both off in one run, on ray stills never run
before, 200 scenes a deck, code of this session's commit, OpenCV 5.0.0.93:

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9004050 \
        --scenes 200 --no-baseline --modes uncalibrated --ab pose_refit,sweep_tries_outline \
        --decks french40,french52

    ray 9,004,050-9,004,249   both on                   false   both off                false
    napoletane                94.93% (524/552) 242 ms   0       90.40% (499/552) 135 ms 0
    piacentine                96.20% (507/527) 265 ms   1       93.74% (494/527) 151 ms 1
    french40                  97.55% (518/531) 278 ms   0       93.79% (498/531) 166 ms 0
    french52                  96.14% (573/596) 288 ms   0       92.79% (553/596) 175 ms 0
    wide 9,372,700-9,372,799 (100 a deck; without --source)
    french40                  97.14% (272/280) 138 ms   0       93.21% (261/280)  80 ms 0
    napoletane                95.85% (254/265) 191 ms   0       93.96% (249/265) 103 ms 0

The gain is in covered cards (45-55% showing: napoletane 25/37 against 15/37, piacentine
25/32 against 17/32) and in whole ones (french52 412/414 against 401/414). The Piacentine
false card (9,004,127, a 7 of coins) is the same either way (not traced); on 9,004,163
a 2 of coins was named thrice with both on: the sweep's outline pose, naming one card three
times, beat a framing naming five right. Looked at after this report (spent) and mended in
the same commit (a pose is ranked first by the codes it names: that scene then names 5/6,
no card twice; ray tune 712,000-712,149 and piacentine, french52 712,150-712,249 unchanged).
The wide stills, and the ray ones, ran before that mend. About 1.7x the time a still (the
uncalibrated path only; the live path is calibrated). Developed on ray tune
712,000-712,149 (french40, napoletane: 365 -> 385 of 396, 371 -> 385 of 406; the true
pose there, with the guessed pose's cautious thresholds, names 387 and 380).

Held-out report, 2026-12-02 (forty-fourth session): the shipped recogniser (the retrained
French index reader in), code 954e89a, OpenCV 5.0.0.93, on stills never run before, 500
scenes a deck, two decks side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9003550 \
        --scenes 500 --no-baseline --modes calibrated,uncalibrated --decks french40
    (wide: --first-seed 9372200, without --source)

    ray 9,003,550-9,004,049   calibrated                  false  uncalibrated           false
    napoletane                97.44% (1368/1404) 80 ms    1      91.95% (1291/1404)     0
    piacentine                97.49% (1437/1474) 90 ms    0      90.43% (1333/1474)     0
    french40                  98.01% (1282/1308) 81 ms    0      93.50% (1223/1308)     1
    french52                  97.57% (1403/1438) 87 ms    0      91.31% (1313/1438)     2
    wide 9,372,200-9,372,699
    french40                  98.81% (1409/1426) 64 ms    0      95.72% (1365/1426)     0
    french52                  98.56% (1373/1393) 63 ms    0      95.55% (1331/1393)     0

The misses are covered cards (45-55% showing: ray napoletane 74/97, piacentine 114/140,
french40 78/93, french52 101/115); whole cards 99.4-99.7% on ray, 99.6-99.9% on wide. The false
Napoletane card (9,003,647, spent since) is a whole 3 of coins named a 5 of coins by the
classifier (0.96; 0.89 and 0.92 on the plain crop both ways up) on an upright outline 7-13
degrees off the card's own (its edges), the partial judge's best there a 5 too, unsure; on the
true outline every judge names it a 3 (whole judge 0.963, the classifier 1.0 both ways): the
outline failed, not the judges on it (whether the true one was hypothesised not traced). A
floor on such a card's template score would not refuse it: right cards the classifier named on
tune 0-299 scored as low (0.27 Napoletane, 0.11 Piacentine, against its 0.24). The French
uncalibrated false cards were not traced. On the wide stills the new reader names what the old
one did on 9,371,200-9,372,199 (98.91% and 99.06% there), within the ranges' spread: it was
trained for linear light, which the wide stills do not draw.

Held-out report, 2026-12-02 (forty-second session): the index reader retrained with half its
scenes in linear light (wide_scenes' `linear_light`) against the reader of 2026-11-25, in one
run, code 23f5b51, OpenCV 5.0.0.93; ray held-out 9,003,000-9,003,549 (never run before),
550 scenes a deck (two runs, 150 and 400: the session's time allowed no more):

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9003000 \
        --scenes 150 --no-baseline --modes calibrated --ab-classifier DIR --decks french40
    (and --first-seed 9003150 --scenes 400; DIR holding tests/data's
    index_reader_french_2026-11-25.npz as index_reader_french.npz)

    deck        new reader              false   reader of 2026-11-25    false
    french40    97.67% (1590/1628)      0       95.52% (1555/1628)      0
    french52    97.18% (1483/1526)      0       95.02% (1450/1526)      0

The gain is in covered cards (45-55% showing: french40 118/134 against 98/134, french52
131/153 against 112/153); whole cards the same within 3. The Italian decks do not use it.
Not run this session: the wide held-out stills and the live deals with the new reader.

Held-out report, 2026-12-01 (fortieth session), Options.whole_paired_near (a card the whole-card
judge refuses on its separation alone named when the classifier names it too, 0.98 both ways
up, no index surely reading another), on and off, code f57e2b4, after tune 89,700-90,699 (wide,
four decks, 1,000 each: the same cards either way, +0-4% ms):

    ray held-out 9,002,000-9,002,999 (never run before), 1,000 a deck:
    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9002000 \
        --scenes 1000 --no-baseline --modes calibrated --ab whole_paired_near --decks french40
    wide held-out 9,371,200-9,372,199 (never run before), the same without --source

    deck        ray: on                 off                 wide: on               off
    french40    96.38% (2689/2790) 0    96.24% (2685) 0     98.91% (2804/2835) 0   2804  0
    french52    95.14% (2759/2900) 0    94.90% (2752) 0     99.06% (2733/2759) 0   2733  0

On ray scenes it names about a fifth of the whole French cards missed (whole 2,016 against
2,012 of 2,034, 2,038 against 2,032 of 2,062); on wide ones it changes no card. The rest of
the whole misses (spent 9,000,000-9,000,600, traced): no hypothesis aligned, or a judge's
score of 0.54-0.74 under heavy blur. The Italian decks were not run held-out with it: on tune
it changed no Italian card.

Held-out report, 2026-12-01 (fortieth session): the recogniser of 379fc2e (unchanged since the
thirty-ninth session) on ray_scenes.py's first held-out stills, 2,000 scenes a deck, seeds
9,000,000-9,001,999, never run before (the generator's development looked at seeds 1-40 only),
code 6c383ec, two decks side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --source ray --first-seed 9000000 \
        --scenes 2000 --no-baseline --modes calibrated,uncalibrated --decks napoletane

    deck        calibrated                  false   uncalibrated                false
    napoletane  97.65% (5438/5569) 66.2 ms  1       91.26% (5082/5569) 122 ms   1
    piacentine  97.44% (5549/5695) 71.9 ms  3       92.75% (5282/5695) 133 ms   1
    french40    95.65% (5433/5680) 85.7 ms  0       90.76% (5155/5680) 167 ms   1
    french52    95.46% (5552/5816) 92.9 ms  0       88.51% (5148/5816) 181 ms   4

The Italian decks name as many cards as on wide_scenes' held-out stills (97.72% and 97.48%,
9,368,800-9,370,799): what was tuned on one generator holds on another. French does not
(98.86% and 98.60% there): whole French cards are missed 1.3% of the time (french40 3,991 of
4,044, french52 3,968 of 4,009), Italian ones 0.2% (3,793 of 3,800; 3,810 of 3,815). Looked at
after this report (spent): over-exposed, blurred cards whose corner index has washed out, the
whole-card judge short of its separation (0.17-0.19 of 0.2) and the classifier at 0.99 or more:
Options.whole_paired_near. The four Italian false cards are all the classifier's, on tight rows
and cascades: outlines across strips 38-40% showing (9,000,426 a 4 of coins, 9,001,289 a 4 of
swords) and look-alikes completed by the next card's print (9,001,286 a 7 of swords on a 6,
9,001,808 a 6 of coins on a 5). Cards 45-55% showing: 326/403, 378/481, 316/424, 355/466.

Held-out report, 2026-11-29 (thirty-ninth session): the rescue pass (still off) naming a card
only on print of its own the frame shows (`Thresholds.rescue_min_marks`, telling.marks_seen:
a look-alike's print missing under another card's blank paper is no evidence), 2,000 scenes a
deck, seeds 9,368,800-9,370,799, never run before, code 4c5503f, three recognisers in one run,
the two decks side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9368800 --scenes 2000 \
        --no-baseline --modes calibrated --ab rescue --ab rescue:rescue_min_marks=0 \
        --decks napoletane

    deck        shipped (rescue off)        false   rescue, marks       false   no marks   false
    napoletane  97.72% (5579/5709) 50.1 ms  2       98.28% (5611), 56.4 2       5616       2
    piacentine  97.48% (5445/5586) 50.7 ms  0       97.82% (5464), 56.7 0       5470       1

The rescue with the marks adds no false card here: without them, a 6 of cups on a 7 of cups
(piacentine 9,369,263), which they refuse. On tune 86,700-89,699 it added one (napoletane 89,363,
an outline across a tight cascade's strips), so it stays off. The shipped false cards (9,369,981,
a king of coins; 9,370,339, a 5 of cups) are named in every arm. Cards 45-55% showing: 432/535
and 361/463 shipped, 458 and 372 with the rescue.

Held-out report, 2026-11-29 (thirty-eighth session): the telling check (`Options.telling_check`:
a covered Italian card is named only where what shows of it, from the cards named, the cover
mask and the frame's edge, tells it from every other card on the clean scans; telling.py), and
the rescue pass with it (still off), 2,000 scenes a deck, seeds 9,366,300-9,368,299, never run
before, code 1c42228, three recognisers in one run (`--ab` twice), the two decks side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9366300 --scenes 2000 \
        --no-baseline --modes calibrated --ab rescue --ab telling_check --decks napoletane

    deck        shipped (check on)          false   rescue on           false   check off  false
    napoletane  97.94% (5553/5670) 59.7 ms  1       98.59% (5590), 62.5 2       5554       1
    piacentine  97.25% (5447/5601) 61.1 ms  0       97.86% (5481), 64.7 1       5447       0

The check changed one card (a Napoletane card it refused, named without it) and caught no false
card; +4% ms. The shipped false card (9,367,977, a 2 of cups) is named either way. The rescue's
new ones: napoletane 9,367,302, a 3 of coins on an outline across a 6 of batons and a 2 of coins
76% showing (itself missed); piacentine 9,368,068, a 6 of cups on a 7 of cups 53% showing whose
middle cup lies under a second 7 not named (no estimate from the cards named sees that cover).
Two scenes a deck name a card twice, in every arm. French is untouched by this code (both are
Italian only). Uncalibrated, seeds 9,368,300-9,368,799 (500 a deck, never run before, check on
and off): napoletane 94.73% (1330/1404), 1 false (9,368,659, a 6 of coins), piacentine 93.45%
(1384/1481), 1 false (9,368,416, a 6 of cups), the same cards either way.

Held-out report, 2026-11-29 (thirty-seventh session): the cover mask (cover_mask.py, a small
network marking the dealer's hand and chip stacks on the view; `Options.cover_blanks` blanks it
in the classifier's crops, `cover_hides` hides its cells from the partial judge) on and off,
2,000 scenes a deck, seeds 9,363,800-9,365,799, never run before, code 326f55a, two runs side
by side (the French pair beside a test run: their ms are high):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9363800 --scenes 2000 \
        --no-baseline --modes calibrated --ab cover_blanks,cover_hides --decks napoletane

    deck        shipped (cover on)          false   off                         false
    napoletane  98.30% (5560/5656) 52.7 ms  1       98.11% (5549/5656) 48.9 ms  1
    piacentine  97.82% (5387/5507) 53.7 ms  1       97.64% (5377/5507) 49.8 ms  1
    french40    98.97% (5458/5515) 90.0 ms  0       98.95% (5457/5515) 84.6 ms  0
    french52    98.70% (5631/5705) 91.3 ms  0       98.69% (5630/5705) 84.9 ms  0

Together 98.45% (22,036/22,383) against 98.35%: 23 cards more, no false card added, +8% ms
a still. Neither goal is met. Cards 45-55% showing: 408/480, 363/450, 423/461, 440/491
(off: 404, 358, 423, 439). The false cards (napoletane 9,364,576, a 5 of cups; piacentine
9,365,535, a 6 of cups) are the pipeline's without the mask as well.

Looked at on tune only (thirty-seventh session):
- The cover mask's upper bound: the generator's own cover (its label image, warped into the
  view) given as the mask, tune 78,200-78,499 calibrated, both switches: napoletane 798 against
  795 of 819, piacentine 811 against 810 of 835 (blanking alone 797 and 810, hiding alone 796
  and 810). The learned mask at 0.8 reaches 797 and 810; at 0.5, 796 and 810; the first,
  stride-4 network at 0.5 lost 2 Piacentine cards beside the hand (its edge spilt onto them).
- The rescue pass (Options.rescue, off) with the cover mask on: tune 79,000-79,499, napoletane
  1,385 against 1,382 of 1,399, piacentine 1,407 against 1,404 of 1,428, 0 false; 79,500-80,499,
  2,738 against 2,719 of 2,763 and 2,808 against 2,792 of 2,851, with 1 false card each
  (napoletane 80,121 a 5 of coins, piacentine 80,049 a 6 of cups): it stays off.

Held-out report, 2026-11-29 (thirty-sixth session): `Options.blank_outside` (the classifier's
crop of a card lying across the frame's edge blanked beyond it) on and off, 2,000 scenes a
deck, seeds 9,361,300-9,363,299, never run before, code 9c1cb36, two runs side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9361300 --scenes 2000 \
        --no-baseline --modes calibrated --ab blank_outside --decks napoletane  (and the rest)

    deck        shipped (blank_outside on)  false   off                         false
    napoletane  98.16% (5488/5591) 48.5 ms  1       98.10% (5485/5591) 48.2 ms  1
    piacentine  97.45% (5512/5656) 51.6 ms  1       97.38% (5508/5656) 51.3 ms  1
    french40    99.14% (5653/5702) 54.4 ms  0       99.12% (5652/5702) 54.2 ms  0
    french52    98.79% (5633/5702) 57.3 ms  0       98.77% (5632/5702) 57.4 ms  0

Together 98.39% (22,286/22,651) against 98.35%: 9 cards more, no false card added. Neither goal
is met. Cards 45-55% showing: 431/512, 382/487, 466/506, 488/540. Looked at after this report
(spent): both false cards are the classifier's (`_learned`), on outlines straddling cards, read
surely both ways: napoletane 9,363,103, a 5 of cups on an outline 0.22-0.25 of a width off a 6
of swords and a 6 of cups each 43-44% showing (0.98, 0.86 turned); piacentine 9,362,953, a 5
of swords 0.29 off a 7 of swords seen whole and 0.47 off a 2 of swords (0.97, 0.99 turned).
Their template scores (0.21, 0.27) lie among those of the classifier's right cards (tune
77,300-77,899: about a tenth of 288 under 0.26), so no floor there refuses them.
Uncalibrated (the shipped recogniser only), 500 scenes a deck, seeds 9,363,300-9,363,799, never
run before: napoletane 92.83% (1294/1394), piacentine 93.06% (1395/1499), french40 94.77%
(1358/1433), french52 95.09% (1376/1447), 0 false, 88-112 ms a still.

Looked at on tune only (thirty-sixth session), not kept:
- Where the Italian misses lie (tune 72,590-72,839, 250 scenes a deck, 37 cards missed): 28 had
  a hypothesis within a tenth of a width of their outline; what lies over them (the label
  image) is the dealer's hand for 17, a face-down card for 5, the frame's edge for 4 (hence
  `Options.blank_outside`), cards for the rest. On the true outline blanked wherever the label
  image shows anything else (an oracle), the classifier reads 22 of the 37 right at 0.9 or more
  (plain: 8); the recogniser given those oracle blanks names 8 cards more (napoletane 664 -> 669
  of 683, piacentine 648 -> 651 of 666, no false card added). Its rules refuse the rest: mostly a
  card the partial judge and the classifier agree on, read at 0.65-0.89.
- A card lying face down owning its outline as a named card does (quick match the back at 0.45
  or more: on tune 74,600-74,749 every such hypothesis but one lay within 0.05 of a width of a
  back): names the 2 of swords half under a back in 72,593; tune 75,000-75,599, both Italian
  decks: no card changed.
- The rescue's candidates (hypotheses every rule refused) of tune 72,590-74,589 logged with the
  verifier's, the classifier's and the partial judge's readings and sorted by their truth: at
  the shipped bar (0.7, rival 0.1) +39 napoletane and +24 piacentine cards, none false (counted
  candidate by candidate); asking the partial judge to agree too halves that (+25, +16). The
  candidates false at lower bars lie on the true outlines of look-alikes (a 6 of cups read a 7,
  a 5 of cups a 4), the 4 looked at all under the dealer's hand, told apart by 0-7 pixels of
  what shows (telling.py). Edge support does not tell them from right ones (the share of each
  side on a brightness step, edge_snap's gradient: false candidates lie on their card's
  edges too), nor does a telling check from the templates alone (the pixels that look like the
  named card and not like another card where the two differ: piacentine's false candidates
  17-73 such pixels, a quarter of the right ones under 25).
- The shipped recogniser's two false cards on tune 75,000-75,599 (piacentine) are unnameable
  from what shows: 75,282, a 7 of cups 45% showing, its middle cup under the 7 of batons and the
  ace of coins, named a 6 (read 0.99, and 0.96 turned; told apart by no pixel); 75,137, a 4 of
  coins on the outline of a 6 of coins 24% showing.
- A hand found by its colour, for a telling check that knows what the hand hides: a fixed skin
  rule (YCrCb, Cr 133-173 and Cb 77-127, on the half-size frame) finds 77% and 89% of the hand's
  pixels (tune 78,000-78,199, the 34 and 38 scenes with a hand, napoletane and piacentine) but
  flags 21% and 35% of the cards' pixels too (their warm print under the lights' colour
  temperatures): the hand needs a learned mask (the label image gives its truth).

Held-out report, 2026-11-29 (thirty-fifth session): the rescue pass with its third verifier
(trained with every card under 45% showing labelled no card; rescue_prob 0.7, chosen on tune
68,090-69,589) beside the shipped recogniser (rescue off), 2,000 scenes a deck, seeds
9,359,300-9,361,299, never run before, code d51861a, two runs side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9359300 --scenes 2000 \
        --no-baseline --modes calibrated --ab rescue --decks napoletane  (and piacentine)

    deck        shipped (rescue off)        false   rescue on                   false
    napoletane  98.01% (5523/5635) 43.5 ms  1       98.44% (5547/5635) 47.5 ms  1
    piacentine  97.36% (5467/5615) 46.1 ms  0       97.90% (5497/5615) 50.8 ms  1

Together 97.69% off and 98.17% on (+54 cards of 11,250), +9-10% ms. Cards 45-55% showing:
napoletane 437 against 419 of 500, piacentine 369 against 351 of 455. Looked at after this
report (spent): the napoletane false card is the shipped recogniser's, in both columns (a 7
of coins 57% showing named a 6, 9,361,114); the rescue's own false card is a 6 of cups on an
outline 0.16 of a width off a 7 of cups 53% showing (9,361,178), read 0.73 and 0.76, the 7
not among the verifier's first three (at the second verifier's bar, 0.8, it would not have
been named: a held-out finding, so not acted on). The rescue stays off by default.

Held-out report, 2026-11-29 (thirty-fourth session): the rescue pass (recognizer.Options.rescue,
a verifier trained on the hypotheses the recogniser refuses: Italian decks, calibrated) beside
the recogniser without it (the thirty-third session's), 2,000 scenes a deck, seeds
9,357,300-9,359,299, never run before, code 5aff1da (rescue on; off by default since), two
runs side by side (at later code the same command gives the two arms, labelled the other way):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9357300 --scenes 2000 \
        --no-baseline --modes calibrated --ab rescue --decks napoletane  (and piacentine)

    deck        rescue on                   false   without it                  false
    napoletane  98.80% (5536/5603) 55.6 ms  2       97.98% (5490/5603) 49.1 ms  0
    piacentine  98.18% (5621/5725) 61.4 ms  0       97.41% (5577/5725) 53.8 ms  0

Cards 45-55% showing named: napoletane 451 against 415 of 502, piacentine 452 against 422
of 526. The two false cards (napoletane 9,357,609 and 9,359,109, looked at after this report)
lie on cards under 40% showing, in stacks where no card shows more: a 6 of coins read a 7 at
0.83 and 0.87, and an outline on a jack 27% showing read a 5 of cups at 0.97 both ways. A
wrong card costs more than a late one: the rescue is off by default (the shipped recogniser
is the "without it" column: 0 false in 4,000 scenes, 97.70% together; on, 98.49%). The
French decks are untouched by it (a covered French card needs its index) and were not run
again.

Held-out report, 2026-11-29 (thirty-third session), at the goal's count: 2,000 scenes a deck,
seeds 9,354,800-9,356,799, never run before, calibrated, code 5afb3c8 (the thirty-first
session's recogniser with `learned_turned`, which the Italian decks only ask); two runs side
by side, as below:

    deck        calibrated, 2,000 scenes   false   twice   ms (p95)       45-55% showing
    napoletane  98.00% (5579/5693)         1       0       50.1 (132.0)   365/453
    piacentine  97.14% (5537/5700)         0       1       54.9 (143.6)   422/537
    french40    99.10% (5696/5748)         0       0       54.6 (144.9)   490/513
    french52    98.73% (5463/5533)         0       0       56.0 (149.6)   402/448

Together 22,275/22,674 (98.24%), one false card in 8,000 scenes: napoletane 9,356,031, a 5 of
coins on an outline across a 3 of coins 78% showing and the cups beside it, read 0.95 by
the classifier (`_learned`). The Italian decks run again with `learned_turned` off (`--ab
learned_turned`, after this report): the same cards named, the same false card, +1% ms. Of
the misses, 44-77% per deck are cards 45-55% showing. Neither goal is met. (The machine ran
at about half the thirty-second session's ms: compare ms within one run only.) Uncalibrated,
the Italian decks (the only ones `learned_turned` asks), 500 scenes each, seeds 9,356,800-
9,357,299, never run before: napoletane 94.67% (1261/1332), piacentine 93.82% (1350/1439), 0
false, the same with the switch off.

Held-out report, 2026-11-29 (thirty-second session), at the goal's count: 2,000 scenes a
deck, seeds 9,352,800-9,354,799, never run before, calibrated. The recogniser is the
thirty-first session's (nothing tried was kept); two runs side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9352800 --scenes 2000 \
        --no-baseline --modes calibrated --decks napoletane

    deck        calibrated, 2,000 scenes   false   twice   ms (p95)       45-55% showing
    napoletane  97.78% (5600/5727)         1       4       122.9 (333.9)  426/519
    piacentine  97.31% (5566/5720)         1       1       126.9 (355.9)  449/561
    french40    98.86% (5471/5534)         0       0       127.2 (345.0)  457/497
    french52    98.72% (5554/5626)         1       0       135.7 (382.1)  478/521

Together 22,191/22,607 (98.16%), three false cards in 8,000 scenes, each a pip card named as
the card one pip from it: napoletane 9,353,729 a 5 of cups on an outline across a 6 of cups
seen whole and the jack under it; piacentine 9,353,167 a 5 of cups for a 6 50% showing;
french52 9,354,196 a 6 of diamonds for a 5 72% showing. Of the misses, 60-73% per deck are
cards 45-55% showing. Neither goal is met. (The same recogniser ran at about twice the thirty-
first session's ms on this machine that day: compare ms within one run only.) The Italian decks were first run with
`snap_unmatched` (recognizer.py, not kept): 5,608 and 5,571 right, and one false card more
(piacentine 9,354,104).

Held-out report, 2026-11-29 (thirty-first session), at the goal's count: 2,000 scenes a deck,
seeds 9,348,500-9,350,499, never run before, calibrated, code c347453 (the only change kept,
`learned_outweighs_yield`: a covered Italian card the classifier reads at 0.98 both ways up,
whose partial fit is that card too, is not refused for lying 90% on named outlines; the
French path is the thirtieth session's), four runs side by side (so the ms are two processes
a core), the Italian decks with the switch off beside them (`--ab learned_outweighs_yield`):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9348500 --scenes 2000 \
        --no-baseline --modes calibrated --ab learned_outweighs_yield --decks piacentine

    deck        calibrated, 2,000 scenes   false   twice   ms (p95)       switch off
    napoletane  98.06% (5454/5562)         0       0       63.1 (171.0)   5454, 0 false
    piacentine  97.38% (5532/5681)         1       1       67.7 (182.9)   5530, 1 false
    french40    98.89% (5508/5570)         0       0       78.0 (204.2)
    french52    98.75% (5667/5739)         0       0       81.9 (216.5)

Together 22,161/22,552 (98.27%), one false card in 8,000 scenes: piacentine 9,349,155, a 7
of cups 50% showing, its right half under a 3 of swords, named a 6 of cups by the partial
judge (0.40 against the 7) and the classifier (0.94) together, on an outline 5% of a card off
it. On the generator's truth nothing of it that shows tells it from the 6 (nameable_ceiling:
0 pixels, at 2 pixels' shift): no method can name it, and the recogniser should have refused
it. The 0-false goal is not met for Piacentine at the goal's count, nor the 99.5%.
Then Piacentine again, seeds 9,350,800-9,352,799 (never run before), 2,000 scenes, two runs
of 1,000 side by side, the shipped weights against a fine-tune whose crops of covered cards
no method can name are labelled no card (card_classifier.py; not shipped): shipped 97.17%
(5,518/5,679), 1 false (9,352,587, a 6 of cups for a 7 again); the fine-tune 5,511, 1 false
(9,350,851, a 5 of coins). At the goal's count, Piacentine names a false card about once in
2,000 scenes.
Uncalibrated, seeds 9,350,500-9,350,799 (never run before), 300 scenes a deck, the same code,
four runs side by side (`--modes uncalibrated`): napoletane 91.56% (814/889), piacentine
92.36% (749/811), french40 94.94% (825/869), french52 94.05% (806/857); together 3,194/3,426
(93.23%), 0 false.

Held-out report, 2026-11-28 (thirtieth session), with `index_search` (a covered French card
every judge refused is searched for a fifth of a card around its outline, as the card its
index reads or the classifier guesses, and named there as its index names one): seeds
9,347,200-9,348,199, never run before, 1,000 scenes per deck, calibrated, the A/B recogniser
the session's start (`--ab index_search`):

    deck        calibrated                 false   ms (p95)       the session's start
    french40    98.75% (2849/2885)         0       68.7 (183.5)   2843, 0 false, 61.7 ms
    french52    99.18% (2780/2803)         0       64.8 (173.6)   2773, 0 false, 59.7 ms

+13 of 5,688 French cards, 0 false. The Italian decks have no index reader: unchanged.
Uncalibrated, seeds 9,348,200-9,348,499 (never run before), 300 scenes a deck, code 2350f26:
french40 95.08% (812/854) against 810, 1 false either way (9,348,401, a 3 of clubs);
french52 95.30% (832/873) against 828, 0 false.

Held-out report, 2026-11-28 (twenty-ninth session): the recogniser as the session ends is
the twenty-eighth's (nothing tried was kept). Seeds 9,346,200 and on, never run before,
calibrated, code 84bc0c5 with `--ab-threshold index_alone_prob=0.99` for the French decks
(1,000 scenes each; the current recogniser then named a covered French card from its index
alone at 0.97) and 5f54091 for the Italian ones (500 scenes each):

    deck        calibrated                 false   index alone at 0.97 (not kept)
    napoletane  98.40% (1356/1378)         0
    piacentine  97.19% (1348/1387)         0
    french40    98.81% (2814/2848)         0       2817, 0 false
    french52    98.54% (2696/2736)         0       2699, 1 false (9,346,634, a 5 of spades)

Together 8,214/8,349 (98.38%), 0 false. The goal (99.5%, 0 false) is not met.

Held-out report, 2026-11-28 (twenty-eighth session), with `ownership_carries` (what the
cards named on what shows own and claim carries over to the cascade's hypotheses) and
`same_card_apart` (two detections of one card within 0.45 of its short side are one):
seeds 9,345,900-9,346,199, never run before, 300 scenes per deck, calibrated, code 87b279d,
four runs side by side, the A/B recogniser the session's start (`--ab ownership_carries
--ab-threshold same_card_apart=0`):

    deck        calibrated, 300 scenes     false   twice   the session's start
    napoletane  98.53% (804/816)           0       1       804, 0 false, 1 twice
    piacentine  98.09% (772/787)           0       0       770
    french40    99.21% (877/884)           0       0       874
    french52    98.68% (824/835)           0       0       822

Together 3,277/3,322 (98.65%) against 3,270 (98.44%), 0 false either way, the ms the same.
Before it, three runs of 300 scenes a deck with `taken_within` 0.3 as well (a hypothesis
0.3-0.4 of a card from a named card judged, not taken for it; recognizer.py): 9,344,850-
9,345,149 3,321/3,381 against 3,309, 9,345,150-9,345,449 3,250/3,309 against 3,244,
9,345,600-9,345,899 3,441/3,503 against 3,439, together 10,012/10,193 (98.22%) against
9,992, but two false cards against none (napoletane 9,344,896, a 5 of cups the classifier
alone read on a 3 of cups 31% showing; piacentine 9,345,609, a 6 of cups the partial judge
named on an outline between a 3 of coins and the 7 of cups beside it), both on strips of
tight cascades 0.3-0.4 of a card from a named one. After the first, a rule for the
classifier alone there (`crowded_not_alone`) was made, looking at it; the second was the
partial judge's. `taken_within` went back to 0.4 and the rule, moot then, was removed. In
the second run a 4 of cups was named twice on outlines 0.401 of a card apart (9,345,441);
`same_card_apart` went from 0.4 to 0.45, looking at it. (french40 printed 857 in the first
run: the scoring then counted 9,345,040's two jacks of clubs, each named, one right and one
twice; wide_scoring now gives each detection the nearer copy: 858.) Uncalibrated, seeds
9,345,450-9,345,599 (150 a deck, never run before, code 813e194: `taken_within` 0.3 then,
the A/B the start): napoletane 381/412, piacentine 410/435, french40 441/456, french52
443/457, together 1,675/1,760 (95.17%) against 1,668, 0 false. The goal (99.5%, 0 false) is
not met.

Held-out report, 2026-11-28 (twenty-sixth session), with `lookalike_both_ways` (a covered
card with a near look-alike named when the classifier reads it at 0.9 both ways up),
`alone_unranked` (the classifier alone, at 0.985 both ways up, needs not rank the card first
among the crop's template matches) and `fit_lookalike_doubts` (no card named on an outline
fitted to the classifier's card where the judge fitted its look-alike best before): seeds
9,342,750-9,343,749, never run before, 1,000 scenes per deck, calibrated, code 77751d2, the
A/B recogniser being the session's start (the three switches off), four runs side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9342750 --scenes 1000 \
        --no-baseline --modes calibrated \
        --ab lookalike_both_ways,alone_unranked,fit_lookalike_doubts --decks napoletane
        (and piacentine, french40, french52 beside it)

    deck        calibrated, 1,000 scenes   false cards   the session's start
    napoletane  97.83% (2789/2851)         1             2783, 1 false
    piacentine  97.17% (2645/2722)         0             2642, 0 false
    french40    98.60% (2807/2847)         0             2808, 0 false
    french52    98.16% (2823/2876)         0             2823, 0 false

Together 11,064/11,296 (97.95%) against 11,056 (97.88%); one false card in 4,000 scenes
either way (napoletane 9,343,271, a 7 of coins 57% showing under the dealer's hand, which
the partial judge fits best as a 6 and the classifier reads a 6 at 0.92: the look-alike rule
did not find the 7 near on the cells it took for visible). On tune seeds the three gave +10
of 3,374 Italian cards (46,050-46,649); held-out, +8 of 11,296. Uncalibrated, held-out
9,343,750-9,343,899 (150 scenes a deck, never run before, the same A/B, `--modes
uncalibrated`): napoletane 443/477, piacentine 372/408, french40 420/452, french52 391/424,
together 1,626/1,761 (92.3%), 0 false, the switches changing no card. The goal (99.5%, 0
false) is not met.

Then `covered_by_quick` (the hypotheses judged on what shows taken best quick match first:
the card on top of a cascade before the cards under it), against the code above (the A/B
recogniser the switch off): seeds 9,343,900-9,344,399, never run before, 500 scenes per
deck, calibrated, code 6a4cd28, four runs side by side (`--ab covered_by_quick`):

    deck        calibrated, 500 scenes     false cards   the switch off
    napoletane  97.96% (1391/1420)         1             1389, 1 false
    piacentine  97.04% (1442/1486)         0             the same
    french40    98.58% (1387/1407)         0             1381, 0 false
    french52    97.65% (1373/1406)         0             the same

Together 5,593/5,719 (97.80%) against 5,585 (97.66%); the false card (napoletane 9,344,383,
a 4 of cups) either way.

Held-out, uncalibrated, 2026-11-28 (twenty-seventh session), with `felt_fallback` (on a
green cloth where green's rule calls more than 30% of the picture not felt, the felt learnt
from the frame): seeds 9,344,400-9,344,549, never run before, 150 scenes per deck, code
1516244, four runs side by side, the A/B recogniser the switch off (`--modes uncalibrated
--ab felt_fallback`): napoletane 412/446, piacentine 361/390, french40 395/417, french52
403/440, together 1,571/1,693 (92.79%), 0 false, the switch changing no card (it takes over
in about one scene of 200: on tune 48,000-48,999, 21 of 4,000, uncalibrated 71 against 64
of 73 cards there). The calibrated figures above stand: where it does not take over nothing
changes, and where it did on tune, calibrated, 73 of 73 either way. Calibrated, held-out
9,344,550-9,344,849 (never run before, 300 scenes per deck, code cd21af0, the same A/B,
`--modes calibrated`): napoletane 790/813 (791 the switch off: a card 45-55% showing),
piacentine 818/840, french40 834/843, french52 855/865, together 3,297/3,361 (98.10%)
against 3,298; one false card either way (piacentine 9,344,597, a 6 of cups).

Held-out report, 2026-11-28 (twenty-fifth session), with `index_outweighs_yield` (a French
card the classifier names is kept though its outline lies over 90% on cards named already
when its corner index reads it surely): seeds 9,341,650-9,342,649, never run before, 1,000
scenes per deck, calibrated, code 282a9fc (d7d5915 adds comments), the A/B recogniser being
the session's start (the switch off; it changes French decks only, so the Italian figures
are the start's, measured in the run against learned_min_prob 0.6 below):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9341650 --scenes 1000 \
        --no-baseline --modes calibrated --ab index_outweighs_yield --decks french40
        (and french52 beside it)

    deck        calibrated, 1,000 scenes   false cards   the session's start
    napoletane  97.75% (2737/2800)         1             the same
    piacentine  97.26% (2799/2878)         0             the same
    french40    98.46% (2688/2730)         0             2687, 0 false
    french52    98.62% (2859/2899)         0             2857, 0 false

Together 11,083/11,307 (98.02%) against 11,080 (97.99%); one false card in 4,000 scenes
either way (napoletane 9,341,727, a 7 of spades the classifier read at 0.93 both ways up on
an outline over a tight cascade of cards none of which shows 45%). Run first, on the same
seeds and four decks, with `learned_min_prob` at 0.6 too (code dc3fbbf, against the start:
the A/B of `--ab index_outweighs_yield --ab-threshold learned_min_prob=0.9`), then dropped:
11,088 of 11,307, 3 false cards (recognizer.py, Thresholds.learned_min_prob). The goal (99.5%, 0
false) is not met.

Held-out report, 2026-11-28 (twenty-fourth session), with `learned_quick` (a hypothesis the
quick match drops judged on what shows when the classifier names a card on it at 0.9): seeds
9,340,550-9,341,549, never run before, 1,000 scenes per deck, calibrated, code 63dbd12, the
A/B recogniser being the session's start (the switch off; nothing else differs), two runs
side by side:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9340550 --scenes 1000 \
        --no-baseline --modes calibrated --ab learned_quick --decks napoletane,piacentine
        (and french40,french52 beside it)

    deck        calibrated, 1,000 scenes   false cards   the session's start
    napoletane  97.87% (2754/2814)         0             2751, 0 false
    piacentine  97.37% (2668/2740)         0             2664, 0 false
    french40    98.29% (2753/2801)         0             2752, 0 false
    french52    97.95% (2679/2735)         0             2676, 0 false

Together 10,854/11,090 (97.87%) against 10,843 (97.77%): 11 cards more, 0 false cards in
4,000 scenes either way; 45-55% showing 779 against 774 of 935 (83.3%), the other six cards
more at 55-70% (3), 85-98% (1) and whole (2, piacentine). +4-7% ms a still. Uncalibrated, seeds 9,341,550-9,341,649 (100 a deck, `--modes
uncalibrated`, the same A/B): 1,097 against 1,096 of 1,170 (93.76%; napoletane 267 / 266 of
291, piacentine 268 of 286, french40 287 of 301, french52 275 of 292), 0 false either way.
The goal (99.5%) is not met: most of what is missed still lies at 45-55% showing.

Held-out report, 2026-11-28 (twenty-third session), with the Napoletane classifier put back to
the eighteenth session's weights (card_classifier.py: on fresh tune stills the twenty-second's
named more cards and more false ones): seeds 9,336,350-9,338,349, never run before, 2,000
scenes per deck, calibrated, code 2ea6582 (the classifier's DNN run since, 60fdd8d, names the
same cards: 240 tune scenes, four decks), the A/B recogniser being the session's start (the
twenty-second session's Napoletane weights; nothing else differs):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9336350 --scenes 2000 \
        --no-baseline --modes calibrated --ab-classifier DIR --decks napoletane,piacentine
        (DIR holding the twenty-second session's card_classifier_napoletane.npz; French
        without --ab-classifier, beside it: its code did not change)

    deck        calibrated, 2,000 scenes      false cards               the session's start
    napoletane  96.91% (5488/5663)            2 (9337155:2d, 9337343:2d) 97.55% (5524), 3 (the
                                                                        two, 9338129:2d)
    piacentine  96.85% (5573/5754)            0                         the same
    french40    98.37% (5557/5649)            0                         the same
    french52    98.00% (5627/5742)            0                         the same

Together 22,245/22,808 (97.53%) against 22,281 (97.69%): 36 cards fewer, 2 false cards in
8,000 scenes against 3. By the share that shows: 45-55% 1,745/2,152 (81.1%), 55-70%
1,637/1,727, 70-85% 1,229/1,243, 85-98% 2,459/2,484, whole 15,175/15,202 (99.82%). 55-62 ms a
still (two runs side by side). Uncalibrated, seeds 9,338,350-9,338,449 (never run before, 100
a deck, `--modes uncalibrated`, the same A/B): 1,022 against 1,029 of 1,103 (92.66% /
93.29%; napoletane 255 / 262 of 283, piacentine 253 of 277, french40 253 of 266, french52
261 of 277), 0 false either way.

Then (the same session) the Napoletane weights fine-tuned with straddling OTHER crops
(card_classifier.py, aa77be6), against the weights before them (the eighteenth session's),
seeds 9,338,450-9,340,449, never run before, 2,000 scenes, two runs of 1,000 side by side:
5,465/5,614 (97.34%) against 5,458 (97.22%), 1 false card either way (9339680:6d); by the
share that shows, 45-55% 378 against 369 of 485. Uncalibrated 9,340,450-9,340,549 (100):
259 against 260 of 281, 0 false. Command: `--first-seed 9338450 --scenes 1000 --no-baseline
--modes calibrated --ab-classifier DIR --decks napoletane` (and 9339450), DIR holding the
weights before.

Held-out report, 2026-11-27 (twenty-second session), with the Italian classifiers fine-tuned
with blob covers (card_classifier.py), `rival_doubts` and `refit_needs_index`: seeds
9,334,250-9,336,249, never run before, 2,000 scenes per deck, calibrated, this code (348efcf),
the A/B recogniser being the session's start (both switches off, the weights before):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9334250 --scenes 2000 \
        --no-baseline --modes calibrated --ab rival_doubts,refit_needs_index \
        --ab-classifier DIR --decks napoletane,piacentine   (and french40,french52 beside it;
        DIR holding tests/data's ..._2026-11-27b weights as card_classifier_<art>.npz)

    deck        calibrated, 2,000 scenes      false cards               the session's start
    napoletane  97.71% (5515/5644)            3 (9334627:3c, 9335198:3d, 97.31% (5492), 2
                                                 9335263:2d)               (9334627:3c, 9335921:2d)
    piacentine  97.06% (5390/5553)            1 (9334799:6d)            96.83% (5377), the same 1
    french40    98.14% (5580/5686)            0                         the same
    french52    98.10% (5426/5531)            0                         the same

Together 21,911/22,414 (97.76%) against 21,875 (97.60%): +36 cards; 4 false cards in 8,000
scenes against 3 (the new Napoletane weights: two false cards more, one fewer). By the share
that shows: 45-55% 1,554/1,902 (81.7%), 55-70% 1,567/1,650, 70-85% 1,162/1,174, 85-98%
2,401/2,422, whole 15,227/15,266 (99.74%). 62-95 ms a still (two runs side by side, the
camera tests beside them for ten minutes). Uncalibrated, seeds 9,336,250-9,336,349 (never run
before, 100 a deck, `--modes uncalibrated`, the same A/B): 1,021 against 1,020 of 1,106
(92.31% / 92.22%; napoletane 243 / 241 of 270, piacentine 263 / 264 of 293, french40 275 /
275 of 286, french52 240 / 240 of 257); false: napoletane 9336285:4c either way, 9336348:6s
with this code only.

Held-out report, 2026-11-27 (twenty-first session), with every hypothesis judged on what
shows judged again moved onto the edges its sides lie near (`edge_snap`, edge_snap.py):
seeds 9,332,150-9,334,149, never run before, 2,000 scenes per deck, calibrated, this code
(d7a230c) with `--ab edge_snap` (the code with it off is the session's start: the switch
gates all of the session's change); two processes, two decks each, from a fresh clone:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9332150 --scenes 2000 \
        --no-baseline --modes calibrated --ab edge_snap --decks napoletane,piacentine
        (and french40,french52)

    deck        calibrated, 2,000 scenes      false cards       the session's start
    napoletane  97.52% (5464/5603)            0                 96.88% (5428), 0 false
    piacentine  96.66% (5503/5693)            0                 95.61% (5443), 0 false
    french40    98.22% (5418/5516)            0                 97.48% (5377), 0 false
    french52    98.41% (5571/5661)            1 (9332359: 6c)   97.65% (5528), the same

Together 21,956/22,473 (97.70%) against 21,776 (96.90%): +180 cards; 1 false card in 8,000
scenes, the same either way. By the share that shows: 45-55% 1,605/1,967 (81.6%), 55-70%
1,509/1,604, 70-85% 1,222/1,228, 85-98% 2,339/2,361, whole 15,281/15,313 (99.79%). Time:
118-127 ms a still against 88-99 (+27-41%; this machine, two runs side by side, is about
twice as slow as the last session's; the live path leaves the snap out: bench_wide_live).
Uncalibrated, seeds 9,334,150-9,334,249 (never run before, 100 a deck, `--modes uncalibrated
--ab edge_snap`, the two runs side by side): 1,124 against 1,114 of 1,191 (94.38% / 93.54%;
napoletane 287 / 283 of 305, piacentine 263 / 261 of 286, french40 299 / 296 of 311, french52
275 / 274 of 289), 0 false either way; 205-251 ms a still against 168-209.

Held-out report, 2026-11-27 (twentieth session), with the cards a hand's named cards propose
between and beyond them at its step (`cascade`, devices/camera/cascade.py): seeds 9,330,050-
9,332,049, never run before, 2,000 scenes per deck, calibrated, this code (148291b) with
`--ab cascade` (the code with it off is the session's start: the switch gates all of the
session's change); two processes, two decks each, from a fresh clone, nothing else running:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9330050 --scenes 2000 \
        --no-baseline --modes calibrated --ab cascade --decks napoletane,piacentine
        (and french40,french52)

    deck        calibrated, 2,000 scenes      false cards    the session's start
    napoletane  97.17% (5397/5554)            0              96.38% (5353), 0 false
    piacentine  96.20% (5386/5599)            0              95.50% (5347), 0 false
    french40    97.41% (5448/5593)            0              96.59% (5402), 0 false
    french52    96.87% (5264/5434)            0              95.99% (5216), 0 false

Together 21,495/22,180 (96.91%) against 21,318 (96.11%): +177 cards; 0 false cards in 8,000
scenes either way. By the share that shows: 45-55% 1,506/1,968, 55-70% 1,402/1,535, 70-85%
1,191/1,214, 85-98% 2,434/2,470, whole 14,962/14,993 (99.79%). Time: 52-66 ms a still
against 44-57 (+15-18%; the live path's time is bench_wide_live's).
Uncalibrated, seeds 9,332,050-9,332,149 (never run before, 100 a deck, `--modes uncalibrated
--ab cascade`, beside the live run): 1,037 against 1,029 of 1,126 (92.10% / 91.39%;
napoletane 269 / 269 of 296, piacentine 263 / 260 of 292, french40 236 / 235 of 252,
french52 269 / 265 of 286), 0 false either way.

Held-out report, 2026-11-27 (nineteenth session), with a covered card refitted to the
classifier's card put to the classifier again on the fitted outline (`learned_on_fit`, and
read so turned half round, `learned_on_fit_turned`): seeds 9,327,950-9,329,949, never run
before, 2,000 scenes per deck, calibrated, this code (6f2d6d2) with `--ab learned_on_fit` (the
code with it off is the session's start: detections of 240 tune scene-modes byte-identical);
two processes, two decks each, beside other runs:

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9327950 --scenes 2000 \
        --no-baseline --modes calibrated --ab learned_on_fit --decks napoletane,piacentine
        (and french40,french52)

    deck        calibrated, 2,000 scenes      false cards            the session's start
    napoletane  96.09% (5432/5653)            2 (9328259: 2d,        95.63% (5406), the
                                                 9328410: 4c)          same 2 false
    piacentine  95.21% (5410/5682)            2 (9328599: 7d,        94.77% (5385), the
                                                 9329592: 6c)          same 2 false
    french40    96.33% (5596/5809)            0                      96.18% (5587)
    french52    96.64% (5544/5737)            0                      96.29% (5524)

Together 21,982/22,881 (96.07%) against 21,902 (95.72%): +80 cards; the same 4 false cards
either way, so "0 false in 2,000 scenes per deck" holds for the French decks only on this
range (0 in the eighteenth session's 8,000). By the share that shows: 45-55% 1,510/2,069,
55-70% 1,461/1,657, 70-85% 1,192/1,249, 85-98% 2,477/2,519, whole 15,342/15,387 (99.71%).
Before it, the first form (`learned_on_fit` alone, 973e702) on seeds 9,325,950-9,327,949
(never run before, the same command): napoletane 5450/5665, piacentine 5259/5542, french40
5582/5754, french52 5397/5588: 21,688/22,549 (96.18%) against the start's 21,594 (95.76%),
+94, but 1 false card the start did not make (napoletane 9,327,661: a 7 of cups read at 0.97
on an outline across a tight cascade, 0.74 turned; looked at, so spent: the turned check
came from it, at the cost of 1 card of 5,475 on tune seeds).
Uncalibrated, seeds 9,329,950-9,330,049 (never run before, 100 a deck, `--modes uncalibrated
--ab learned_on_fit`): 1,069 against 1,054 of 1,198 (89.23% / 87.98%; napoletane 232 / 226 of
268, piacentine 277 / 269 of 320, french40 296 / 296 of 309, french52 264 / 263 of 301), 0
false either way.

Held-out report, 2026-11-27 (eighteenth session), with `lookalike_unseparated` (the look-alike
rules also ask about a card the partial judge refused before separating it; a French card is
told from its look-alike by the index it must have read) and the classifiers fine-tuned on
blanked covers, the recogniser blanking what lies on cards named already
(`learned_blanks_named`; card_classifier.py): seeds 9,323,850-9,325,849, never run before,
2,000 scenes per deck, calibrated, this code (275a9ec; two processes, two decks each, beside
other runs: the ms say little):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9323850 --scenes 2000 \
        --no-baseline --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    deck        calibrated, 2,000 scenes           false cards
    napoletane  95.53% (5340/5590)                 0
    piacentine  94.15% (5392/5727)                 0
    french40    96.40% (5353/5553)                 0
    french52    96.09% (5281/5496)                 0

Together 21,366/22,366 (95.53%), whole cards 15,100/15,143 (99.72%), 85-98% showing
2,407/2,453, 70-85% 1,044/1,099, 55-70% 1,365/1,606, 45-55% 1,450/2,065: 0 false cards in
8,000 scenes (2 in the seventeenth session's 8,000, 6 in the sixteenth's). The first 500
scenes a deck against the session's start (a3db14d, a worktree; separate runs): 5,401
against 5,385 of 5,675 (napoletane 1,330 / 1,314, piacentine 1,342 / 1,340, french40 1,388 /
1,390, french52 1,341 / 1,341), 0 false either way. Still short of 99.5%: 856 of the 1,000
cards missed were 45-70% showing (2,815 of 3,671 named); 43 were seen whole.

Held-out report, 2026-11-27 (seventeenth session), with four look-alike rules (a covered
card whose look-alike differs little where it shows needs the classifier at 0.96,
`near_lookalike` and `judged_lookalike`; the rival refit also tries that look-alike and the
classifier's second guess, `lookalike_refit`, `learned_rival_refit`) and a pose fit kept only
when it judges the card at least as well (`keep_better_fit`, its first form; since 30daa85
dropped only when it finds no card, after a false live report: bench_wide_live; not run on
these stills): seeds 9,321,750-9,323,749, never run before, 2,000 scenes per deck,
calibrated, this code (13a58c9; two processes, two decks each):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9321750 --scenes 2000 \
        --no-baseline --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    deck        calibrated, 2,000 scenes           false cards
    napoletane  94.93% (5277/5559)                 1  (9323648: 6d)
    piacentine  94.64% (5300/5600)                 1  (9323738: 6c)
    french40    96.69% (5460/5647)                 0
    french52    96.35% (5410/5615)                 0

Together 21,447/22,421 (95.66%), whole cards 15,117/15,167 (99.67%), 45-55% showing
1,446/2,061; 2 false cards in 8,000 scenes (6 in the sixteenth session's 8,000). Both named
by the classifier sure of the card one pip short (looked at after this report, so spent: a
7 of cups 53% showing named a 6 at 0.99, a 7 of coins 45% named a 6 at 0.94), which none of
the four rules asks. The first 500 scenes a deck against the session's start (14257d4, a
worktree; separate runs, same conditions): 5,355 against 5,361 of 5,592 (napoletane 1,366 /
1,371, piacentine 1,308 / 1,306, french40 1,340 / 1,341, french52 1,341 / 1,343), false 0
against 1 (9322148: 2d). Uncalibrated, seeds 9,323,750-9,323,849 (never run before, 100 a
deck, `--modes uncalibrated`): 1,041 against 1,040 of 1,149 (90.6%), 0 false either way.

Held-out report, 2026-11-27 (sixteenth session), with the three classifiers retrained on
more tune scenes (card_classifier.py), the classifier's veto at 0.6 and a covered card refused
when its closest look-alike is named as surely on an outline fitted to it
(`Options.rival_refit`): seeds 9,319,150-9,321,149, never run before, 2,000 scenes per deck,
calibrated, this code (65e33bc; two processes, two decks each; ~23-26 ms a still on this
machine, twice as fast as the fifteenth session's):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9319150 --scenes 2000 \
        --no-baseline --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    deck        calibrated, 2,000 scenes           false cards
    napoletane  95.48% (5386/5641)                 1  (9320164: 3c)
    piacentine  94.83% (5398/5692)                 4  (9319286, 9319343, 9319417: 6c;
                                                       9319897: 5c)
    french40    96.46% (5551/5755)                 0
    french52    96.41% (5446/5649)                 1  (9319464: 8b)

Together 21,781/22,737 (95.80%), whole cards 15,318/15,371 (99.66%), 45-55% showing
1,526/2,142; 6 false cards in 8,000 scenes (not looked at). The first 500 scenes a deck,
this code against the session's start (dc40a27, a worktree), calibrated: napoletane 1,333
against 1,327 of 1,397, piacentine 1,359 / 1,349 of 1,439, french40 1,367 / 1,363 of 1,415,
french52 1,299 / 1,298 of 1,350: 5,358 against 5,337 of 5,601 (+21), the same 4 false cards
either way (the three 6 of cups and the 8 of clubs: there before this session's changes).
Uncalibrated, seeds 9,321,150-9,321,249 (never run before, 100 a deck, `--modes
uncalibrated`): 990 against 989 of 1,115 (napoletane 239 / 241, piacentine 225 / 225,
french40 251 / 250, french52 275 / 273), 0 false either way.
Then a rule tried after this report (the core check asked of every card, 729943d, reverted)
against this code on seeds 9,321,250-9,321,749 (never run before, 500 a deck, calibrated):
this code napoletane 1,305/1,363 (1 false: 9321405 2d), piacentine 1,329/1,417, french40
1,391/1,443, french52 1,349/1,397: 5,374/5,620 (95.62%), 1 false; the rule 5,367, the same
false card, so it was reverted (these figures chose between the two: not clean held-out).

Held-out report, 2026-11-27 (fifteenth session), with five rules against the false cards of
the report below (`Options.learned_yields`, `Thresholds.learned_covered_share`, the partial
judge's separation 0.43, the nearly-sure pair's 0.3, `Options.index_corners_agree`): seeds
9,317,000-9,318,999, never run before, 2,000 scenes per deck, calibrated, in one run of this
code (e0d121c; two processes, two decks each; ~57-66 ms a still on this machine):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9317000 --scenes 2000 \
        --no-baseline --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    deck        calibrated, 2,000 scenes           false cards
    napoletane  94.94% (5332/5616)                 0
    piacentine  95.22% (5380/5650)                 4  (9317068: 6c, 9317096: 7c, 9317808: 6c,
                                                       9318758: 6c)
    french40    96.08% (5447/5669)                 0
    french52    95.92% (5363/5591)                 0

Together 21,522/22,526 (95.54%), 4 false cards in 8,000 scenes, all Piacentine 6 and 7 of
cups taken for each other: "0 false in 2,000 scenes per deck" holds for three decks of four.
By the share that shows: 45-55% 1,458/2,057, 55-70% 1,384/1,617, 70-85% 1,142/1,215, 85-98%
2,426/2,463, whole 15,112/15,174 (99.59%). The false cards, looked at after this report
(seeds spent): three named by the nearly-sure pair (separation 0.366-0.41, the classifier
agreeing at 0.76-0.97), one by the classifier at 0.907; on tune scenes right cards named so
show the same separations and the same closeness to their nearest rival, so no limit on
either told them apart. The first 500 scenes a deck (9,317,000-9,317,499), this code against
the session's start (cffb318, a worktree; four processes at once, so ms are not comparable):
napoletane 1347/1411 (1350), piacentine 1349/1397 (1350), french40 1310/1353 (1311), french52
1370/1429 (1371): 5,376/5,590 (96.17%) against 5,382 (96.28%), -6 cards; the same 2 false
cards either way (both 6/7 of cups).

Uncalibrated, seeds 9,319,000-9,319,149 (never run before; `--first-seed 9319000 --scenes
150 --no-baseline --modes uncalibrated`, this code and cffb318, four processes at once):
napoletane 379/416 (379), piacentine 367/424 (367), french40 421/454 (420), french52 404/446
(405): 1,571/1,740 (90.29%) either way; 0 false cards either way.

Held-out report, 2026-11-26 (fourteenth session), with the Napoletane and Piacentine
classifiers retrained on four tune ranges (card_classifier.py), the classifier's bar for a
covered card both template judges agree on at 0.9 (`Thresholds.learned_min_prob`; 0.95
under a guessed pose) and a card named from a third of it asked separation 0.45
(`PartialLimits.few_cells_separation`): seeds 9,314,000-9,315,999, never run before, 2,000
scenes per deck, calibrated, in one run of this code (47d386c; two processes, two decks each):

    .venv/bin/python -m tests.bench.bench_wide_scenes --first-seed 9314000 --scenes 2000 \
        --no-baseline --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    deck        calibrated, 2,000 scenes           false cards
    napoletane  95.22% (5360/5629)                 1  (9315577: 7s)
    piacentine  93.66% (5292/5650)                 2  (9315168: 6c, 9315711: 6c)
    french40    96.39% (5337/5537)                 1  (9315722: 6c)
    french52    95.86% (5444/5679)                 0

Together 21,433/22,495 (95.28%), 4 false cards in 8,000 scenes: issue 16's "0 false in 2,000
scenes per deck" holds for french52 only. By the share that shows: 45-55% 1,337/2,013,
55-70% 1,410/1,647, 70-85% 1,134/1,196, 85-98% 2,425/2,470, whole 15,127/15,169 (99.72%).
The false cards, looked at after this report (their seeds are spent): 9315577, a 5 of
swords 37% showing named a 7 by the classifier at 0.943 (under the old bar, 0.95); 9315168
and 9315722, a 7 of cups 50% showing and a 3 of clubs 73% showing named a 6 of cups by the
partial judge at separation 0.423 and 0.421 (the bar: 0.42); 9315711, a 7 of cups 43%
showing named a 6 of cups. The first 500 scenes a deck (9,314,000-9,314,499), this code
against the session's start (8f8f748, a worktree; three processes at once, so ms are not
comparable): napoletane 1311/1368 (1305), piacentine 1333/1435 (1320), french40 1371/1413
(1371), french52 1354/1419 (1355), 0 false either way: 5,369/5,635 (95.28%) against 5,351
(94.96%), +18 cards.

Uncalibrated, seeds 9,316,000-9,316,249 (never run before; `--first-seed 9316000 --scenes
250 --no-baseline --modes uncalibrated`, this code and 8f8f748): napoletane 653/730 (650),
piacentine 606/686 (604), french40 663/714 (663), french52 681/746 (681): 2,603/2,876
(90.51%) against 2,598 (90.33%); 1 false card against 0 (napoletane 9316142: 7d, not looked
at).

Held-out report, 2026-11-26 (thirteenth session), with a covered French card fitted to the
card its index reads (`Options.index_fit`), a card named whole owning only its matching cells
(`whole_owns_what_shows`), a covered card the partial judge refuses on its separation alone
named when the classifier agrees (`paired_near`, and on the outline fitted to the
classifier's card, `paired_near_refit`), and the Napoletane classifier retrained
(card_classifier.py): seeds 9,311,000-9,311,499, never run before, 500 scenes per deck,
calibrated, `--first-seed 9311000 --scenes 500 --no-baseline --modes calibrated` on this code
(129c8f1) and on the session's start (fe39b6c, a worktree), two processes at once (ms per still
+3-9%, two processes on two cores):

    deck        calibrated                        before
    napoletane  94.36% (1304/1382)  0 false       91.90% (1270)  0 false
    piacentine  94.44% (1291/1367)  0 false       93.34% (1276)  0 false
    french40    96.86% (1390/1435)  0 false       96.17% (1380)  0 false
    french52    96.00% (1368/1425)  0 false       95.65% (1363)  0 false

Together 5,353/5,609 (95.44%) against 5,289 (94.30%): +64 cards, 0 false either way. By the
share that shows: 45-55% 286/444 (before 250), 55-70% 336/398 (317), 70-85% 293/309 (287),
85-98% 602/615 (601), whole 3,836/3,843 (99.82%; 3,834). Earlier in the session, on seeds
9,309,000-9,309,499 (never run before), the code before `paired_near_refit` (ea2038b) against
fe39b6c: 5,260/5,606 (93.83%) against 5,206 (92.87%), 0 false either way; 129c8f1 on them
afterwards: 5,282 (94.22%), but 1 false card (french52 9,309,392). That card, looked at, was
named nearly by the partial judge with the French classifier agreeing on an outline fitted to
its card, with no index in view: such a card now needs an index corner reading it, as one the
classifier names does (`near_index_confirms`; no card changed on 1,400 French tune scenes a
deck; on 9,309,000-9,309,499 french52 the false card gone, one right card fewer: 1,291). The
final code (4d0af58) on the French decks, fresh seeds 9,313,000-9,313,499 (`--decks
french40,french52`, and fe39b6c): french40 1394/1435 (1393), french52 1417/1487 (1407), 0
false either way.

Uncalibrated, seeds 9,312,000-9,312,249 (never run before; `--first-seed 9312000 --scenes 250
--no-baseline --modes uncalibrated`, 129c8f1 and fe39b6c): napoletane 662/742 (635),
piacentine 602/675 (586), french40 632/671 (630), french52 597/666 (594): 2,493/2,754
(90.52%) against 2,445 (88.78%), 0 false either way. (ea2038b on 9,310,000-9,310,249:
2,519/2,826 (89.14%) against 2,493, 0 false.)

Held-out report, 2026-11-26 (twelfth session), with a covered card named by the classifier
or its index owning none of the view (`Options.learned_owns_nothing`), a hypothesis judged
with up to 65% of it on named cards (`Thresholds.max_named_share`, 0.55 before), and a French
card named by a close match only refused when its index reads another
(`Options.index_checks_whole`): seeds 9,307,000-9,307,499, never run before, 500 scenes per
deck, calibrated, `--first-seed 9307000 --scenes 500 --no-baseline --modes calibrated` on
this code and on the one before (93b2852, a worktree), two processes at once (and the French
decks again on the final commit, the same figures), ms per still not comparable (three and
four processes on two cores):

    deck        calibrated                        before
    napoletane  90.93% (1293/1422)  1 false       90.44% (1286)  0 false
    piacentine  90.72% (1330/1466)  0 false       90.38% (1325)
    french40    95.88% (1327/1384)  0 false       94.00% (1301)
    french52    95.50% (1381/1446)  0 false       93.57% (1353)

Together 5,331/5,718 (93.23%) against 5,265 (92.08%): +66 cards, and 1 false card more
(napoletane 9307320:7d, not looked at; on tune seeds the change added none in 9,257
calibrated cards). By the share that shows: 45-55% 296/543, 55-70% 333/423, 70-85%
256/274, 85-98% 564/579, whole 3,882/3,899 (99.56%).

Uncalibrated, seeds 9,308,000-9,308,249 (never run before; `--first-seed 9308000 --scenes 250
--no-baseline --modes uncalibrated`, the final code and 93b2852): napoletane 640/723,
piacentine 615/710, french40 686/764, french52 626/684: 2,567/2,881 (89.10%) against 2,542
(88.23%), 0 false either way.

Held-out report, 2026-11-26 (eleventh session), with the classifier naming a card alone
(where no card fits what shows) only at 0.975, not 0.96 (`Thresholds.learned_alone_prob`; tune
6942's false 2 of coins): seeds 9,306,000-9,306,499, never run before, 500 scenes per deck,
calibrated, `--first-seed 9306000 --scenes 500 --no-baseline --modes calibrated` on this
commit and on the one before (8cfe28c, a worktree), two processes at once on a machine about
twice as slow as the tenth session's (48-55 ms a still):

    deck        calibrated                        at 0.96 (before)
    napoletane  92.69% (1268/1368)  1 false       1269, the same false card
    piacentine  91.80% (1277/1391)  0 false       1277
    french40    94.73% (1403/1481)  0 false       1403
    french52    93.38% (1339/1434)  1 false       1339, the same false card

Together 5,287/5,674 (93.18%), 2 false cards in 2,000 scenes (napoletane 9306265:7s, french52
9306298:Td; not looked at), either way: the change cost one card here and removed no false
one. By the share that shows: 45-55% 245/484, 55-70% 268/364, 70-85% 284/306, 85-98%
615/631, whole 3,875/3,889 (99.64%).

Held-out report, 2026-11-26 (tenth session), with a hypothesis too far off to align fitted
anyway and kept when named whole (`fit_low_start`), the localiser's peaks also turned 20
degrees (`Thresholds.localiser_turns`), and the truth's frame edge (a card partly outside the
frame shows only its part inside: wide_scenes.py): seeds 9,304,000-9,304,499, never run
before, 500 scenes per deck, calibrated, two processes on a quiet machine (25-27 ms a still
frame), `--first-seed 9304000 --scenes 500 --no-baseline --modes calibrated --ab
fit_low_start`. % right (cards) / false, and the right cards without `fit_low_start`:

    deck        calibrated                        without fit_low_start
    napoletane  92.11% (1308/1420)  0 false       1307
    piacentine  90.88% (1245/1370)  0 false       1245
    french40    93.72% (1344/1434)  0 false       1344
    french52    93.19% (1327/1424)  0 false       1326

Together 5,224/5,648 (92.49%), 0 false cards in 2,000 scenes; +2 cards for `fit_low_start`
(+5-6% ms). By the share that shows (four decks): 45-55% 269/530 (50.8%), 55-70% 282/382
(73.8%), 70-85% 281/313 (89.8%), 85-98% 573/590 (97.1%), whole 3,819/3,833 (99.63%). The
goal (>= 99.5%) is met for cards seen whole and not for partly covered ones: 360 of the 424
misses show 45-70% of their face. The same code on seeds 9,304,500-9,304,999 (`--first-seed
9304500 --scenes 500 --no-baseline --modes calibrated`, also never run before): napoletane
91.26% (1242/1361), piacentine 92.99% (1286/1383), french40 94.30% (1339/1420), french52
93.41% (1275/1365), 0 false; whole cards 3,689/3,697. Both runs together, 1,000 scenes a
deck: 10,366/11,177 cards (92.74%), 0 false cards in 4,000 scenes, cards seen whole
7,508/7,530 (99.71%).

Uncalibrated, held-out seeds 9,305,000-9,305,249 (never run before; `--first-seed 9305000
--scenes 250 --no-baseline --modes uncalibrated --ab localise_when_guessed`, the switch then
on by default): as shipped (the localiser not run under a guessed calibration) napoletane
83.40% (603/723), piacentine 87.26% (589/675), french40 89.88% (648/721), french52 89.37%
(597/668): 2,437/2,787 (87.44%), 1 false (french52 9305201:Tb); 59-94 ms a still. With the
localiser under the guess: 2,517 (90.31%, +80) but a false card more (napoletane
9305186:3c), +20-25% ms (tune stills 13550-13699 had shown +46 of 1,670 and no false card).
So the localiser's proposals under a guess are judged whole only (`guessed_localised_whole`;
tune 13700-13849: +20 of 1,660 against +42 judged on what shows too, none false either way),
checked on seeds 9,305,250-9,305,499 (never run before, `--first-seed 9305250 --scenes 250
--no-baseline --modes uncalibrated --ab localise_when_guessed`): napoletane 85.62% (631/737,
622 without), piacentine 85.09% (582/684, 573), french40 88.84% (605/681, 603), french52
90.01% (613/681, 602): 2,431/2,783 (87.35%) against 2,400 (+31, +1.1 points), the same one
false card either way (french52 9305387:7b), +11-14% ms (61-74 ms a still).

Held-out report, 2026-11-26 (ninth session), with three changes to where the localiser
proposes cards (recognizer.py `_localised`, chosen on tune seeds, below): seeds 9,303,500-
9,303,999, never run before, 500 scenes per deck, calibrated (the localiser is not run
uncalibrated: those figures are the eighth session's), two processes on a quiet machine about
twice as slow as the eighth session's (its 24-26 ms a still frame are 40-52 here), `--first-seed
9303500 --scenes 500 --no-baseline --modes calibrated --ab localiser_fallback`. % right
(cards) / false, and the right cards without the fallback:

    deck        calibrated                        without localiser_fallback
    napoletane  89.96% (1326/1474)  0 false       1306 (88.60%)
    piacentine  91.28% (1308/1433)  0 false       1293 (90.23%)
    french40    94.34% (1266/1342)  0 false       1251 (93.22%)
    french52    93.41% (1319/1412)  1 false       1307 (92.56%), the same false card

Together 5,219/5,661 (92.19%) against 5,157 without the fallback (+62, +1.1 points), one false
card either way (french52 9303545:3b, not looked at). Right cards by the share of the face
that shows (the bench's new line, four decks together): 45-55% 247/525 (47.0%), 55-70%
307/414 (74.2%), 70-85% 261/276 (94.6%), 85-98% 578/592 (97.6%), whole 3,826/3,854 (99.27%):
half the misses are cards at the edge of issue 16's 45% rule. The goal (>= 99.5%, 0 false)
is not met.

And before the fallback and the edges' axis, `localiser_turns` alone on seeds 9,303,000-
9,303,499 (also never run before; `--ab localiser_turns`): right with / without, false the
same either way: napoletane 1338 / 1335 of 1472 (90.90%, 0 false), piacentine 1320 / 1316 of
1455 (90.72%, 1 false: 9303089:6c, a Piacentine 6 of cups again), french40 1354 / 1351 of 1457
(92.93%, 0), french52 1288 / 1284 of 1388 (92.80%, 0): +14 cards.

What changed (tune seeds only):
- `localiser_turns`: each peak also proposes its card turned 10 degrees either way (after
  every peak's own card, so a peak's card named makes its twins `taken`). Tune 11500-11799
  +2/+2/+6/+1 (napoletane/piacentine/french40/french52), 11800-12099 as the check +2/0/0/+4,
  0 false either way, +3-5% ms. Why: of the cards missed with a peak on them (tune 11500-
  11699), about a fifth had its axis 5-15 degrees off.
- The edges' axis (card_localiser.py, `Peak.edge_axis`): where the edges around a peak agree
  on an axis more than 30 degrees from the network's, its card along the edges' axis is
  proposed too (with the turned twins; french52 12165, a jack seen whole with the network's
  axis 35 degrees off).
- `localiser_fallback`: a peak with an outline hypothesis near it along its axis, dropped
  before as the same card proposed twice, is proposed last of all (judged only where that
  hypothesis was not named). Of 16 cards seen whole and missed on tune 12100-12299, 9 were
  never proposed within 13 px, and on most the localiser's peak lay 0.4-12 px from the true
  centre beside an outline hypothesis 5-17 px off (its corners read among a neighbour's).
  Tune 12300-12599 (300 a deck, fresh), without -> with: napoletane 744 -> 757/831,
  piacentine 751 -> 760/855, french40 749 -> 765/810, french52 749 -> 759/824, 0 false either
  way, +4-10% ms. The suite then found a false card it makes on render.py's scenes
  (piacentine seed 99: a 7 of cups 53% showing named a 6 by the partial judge on a fallback
  hypothesis, the classifier 0.86 for the 7), so a partly covered card named on a fallback
  hypothesis needs the classifier's best guess to agree (`Recognizer._vetoed`'s second chance); the held-out
  figures above were measured before that rule; after it, the same command on the same
  seeds: napoletane 1325 (one fewer), piacentine 1308, french40 1266, french52 1319, false
  the same: 5,218/5,661 (92.17%), +61 against no fallback.

Seen on tune 12100-12299 (200 a deck, a throwaway probe): cards seen whole named 98.9%
(1,476/1,492), partly covered 73.5% (516/702); by the share that shows 44.9% (45-55%), 69.6%,
90.5%, 96.9%. No light, blur, noise, JPEG or felt stands out among the misses. Two probes on
partly covered cards: (1) the partial judge told exactly which cells are covered (from the
generator's own label image) names on their true outlines what it names without being told,
within a card (napoletane 12100-12249: 45-55% 15 -> 16 of 37, 55-70% 19 -> 20 of 27): the
judge's own bars refuse them, not its guess at the cover; (2) on the clean scans, every
counted card differs from every other card on the pixels that show of it (napoletane,
piacentine 300 scenes each: the closest, a piacentine 5 of coins 47% showing against the 6,
a mean squared difference of 0.14 in normalised units, the median 0.6), so no card the rule
counts is a look-alike in principle; in a blurred, noisy frame some are. The classifier
taken at a lower bar where it and the partial judge's best fit agree (`_learned`'s
`expected`): tune 10800-11499, at p >= 0.5 with the judge's separation >= 0.3, +34 italian
cards of ~4,000 but a false one (piacentine 11100: a 5 of cups 53% showing, its middle cup
covered, named a 4 at p 0.94, separation 0.40): not kept.

Held-out report, 2026-11-26 (eighth session), with `localiser_axis` and the refit's hidden
cells (both below, chosen on tune seeds): seeds 9,302,500-9,302,999, never run before, 500
scenes per deck, two processes on an otherwise quiet machine, `.venv/bin/python -m
tests.bench.bench_wide_scenes --first-seed 9302500 --scenes 500 --no-baseline --ab
localiser_axis` (--decks napoletane,piacentine and french40,french52). % right (cards) /
false / mean ms, and the right cards without `localiser_axis`:

    deck        calibrated                           uncalibrated
    napoletane  87.49% (1238/1415)  0  23.9  (1236)  82.47% (1167/1415)  1  60.0
    piacentine  89.24% (1261/1413)  0  24.0  (1257)  82.94% (1172/1413)  0  59.1
    french40    92.77% (1309/1411)  0  24.7  (1306)  90.15% (1272/1411)  1  63.3
    french52    93.58% (1341/1433)  0  25.7  (1338)  90.09% (1291/1433)  0  68.1

`localiser_axis` on held-out: +2/+4/+3/+3 cards calibrated for +1.0-1.1 ms a frame, nothing
false either way (uncalibrated unchanged: the localiser runs on a calibration only). No false
card calibrated in 2,000 scenes; uncalibrated 2, the same either way, not looked at:
napoletane 9302694:2d, french40 9302846:5s. The goal (>= 99.5% right, 0 false) is not met.

The Piacentine 6 of cups, looked for on tune seeds (eighth session): `--split tune --no-baseline
--modes calibrated --decks piacentine`, seeds 7800-9299 and 9300-10799: 89.21% and 89.34%
right, 3 false cards each, 5 of the 6 a 6 of cups (7891, 8181, 8618, 9788, 10225; the sixth
10796:4c, a 5 of cups). Every one lies on a partly covered 7 of cups (41-70% showing) that was
not named. Scene 9788, looked at: the hypothesis straddles a covered queen of spades and the 7
of cups lying over it; the partial judge kept the 7's left column of cups as a 6's right column
and dropped the queen's figure as covered (score 0.97, separation 0.45); the classifier said 6
of cups at 0.43. Because the 7 was not named, "what matched is a card named already" could
not refuse it. Tried: the classifier's veto bar (learned_veto_prob) 0.9 -> 0.75 (no false card
fewer) and 0.6 (8618 gone, 5 right piacentine cards and 2 napoletane lost of ~4,270 each, on
7800-9299): not kept. Next to try: which side of the boundary between kept and dropped cells
the covering card's white margin lies on (a covered card has it on the dropped side; a
straddling hypothesis has it on the kept side), or judging partly covered hypotheses top card
first.

Tune A/B, 2026-11-26 (eighth session), `localiser_axis` (a localiser peak is dropped for an
outline hypothesis near it only when that one lies along the same axis): `--split tune
--no-baseline --modes calibrated --ab localiser_axis`, right cards without -> with, a quiet
machine but two processes, mean ms without -> with:

    deck        6400-6699 (300)        7400-7799 (400, after the choice)  ms (7400-7799)
    napoletane  774 -> 777/874, 0 false   1075 -> 1078/1185, 0 false   21.45 -> 22.68
    piacentine  767 -> 771/877, 0 false   1033 -> 1035/1133, 0 false   21.42 -> 22.50
    french40    734 -> 735/788, 0 false   1029 -> 1030/1117, 0 false   23.77 -> 24.77
    french52    792 -> 794/873, 0 false   1086 -> 1088/1188, 0 false   23.21 -> 24.41

Then (the same session, the same seeds and command without --ab, against the "with" figures
above): the refit to the classifier's card (`_refit_to_learned`) judged on the cells no named
card covers, as the first judgement is (`named_hide`'s hidden cells passed on): 6400-6699
777 -> 779, 771, 735, 794 (unchanged); 7400-7799 1078 -> 1079, 1035 -> 1036, 1030 -> 1031,
1088 -> 1089; 0 false; uncalibrated piacentine 6400-7399 2415 -> 2418/2867, 0 false.

Seen on 6400-6549 (a throwaway probe): 20 napoletane cards missed there had no hypothesis
near them at all, and 17 of the 20 a localiser peak of heat >= 0.3 on them, most dropped for
an outline hypothesis near their centre. Not kept, on the same seeds: the
classifier's `learned_min_prob` lowered from 0.95 (0.85: napoletane +13, piacentine +7 of
~1,450 on 6700-7199, but a false card, piacentine 7042: a 3 of cups 66% showing named a 5;
0.8 and 0.7 a second and third). Of the covered cards located and refused there (63
napoletane), the classifier's best guess on the true outline is right for 59, at >= 0.9 for
32: the two-method rule, not the classifier, refuses them, and lowering its bar admits
look-alikes whose difference is under the cover.

Held-out A/B, 2026-11-26 (seventh session), `named_hide` (a covered card's cells lying on a
card named already are not matched: Options.named_hide), chosen on tune seeds 6000-6149 and
checked on fresh tune seeds 6150-6399 (+6/0/+4/0 calibrated, +3/0/+2/+2 uncalibrated, 0 false
either way). Held-out seeds 9,302,000-9,302,499, never run before, 500 scenes per deck, one
process beside another one-core run: `.venv/bin/python -m tests.bench.bench_wide_scenes
--first-seed 9302000 --scenes 500 --no-baseline --ab named_hide`. Right cards without ->
with, false cards (the same either way):

    deck        calibrated                           uncalibrated
    napoletane  1204 -> 1215/1370 (88.69%), 0 false  1131 -> 1140 (83.21%), 0 false
    piacentine  1279 -> 1293/1429 (90.48%), 3 false  1186 -> 1193 (83.48%), 1 false
    french40    1331 -> 1337/1427 (93.69%), 0 false  1289 -> 1292 (90.54%), 0 false
    french52    1299 -> 1308/1435 (91.15%), 0 false  1273 -> 1275 (88.85%), 2 false

The false cards, the same with and without the change, not looked at: calibrated piacentine
9302254:6c, 9302300:6c, 9302494:6c; uncalibrated piacentine 9302254:6c, french52 9302242:9b,
9302397:9s. A Piacentine 6 of cups is 7 of the 17 false cards of the last two held-out runs
(these 4 and 9300632, 9301843, 9301154): the next thing to look for on tune seeds. On tune, french52
uncalibrated 6089:7s (either way) is a 9 of spades in 8 px of motion blur and a dark exposure,
its outline found 19 px low, named by the whole-card judge: the top row of pips outside it.

Held-out report, 2026-11-25 (sixth session), with everything below (the Italian classifier's
new weights, the classifier's veto, the French index reader): seeds 9,300,000-9,301,999, never
run before, 2,000 scenes per deck, `.venv/bin/python -m tests.bench.bench_wide_scenes --scenes
2000 --first-seed 9300000 --no-baseline`, two processes (napoletane,piacentine and
french40,french52), with a test suite and another engineer's runs on the machine, so the ms are
high. % right (cards) / false / mean ms:

    deck        calibrated                    uncalibrated
    napoletane  89.23% (5063/5674)  2  38.3   83.45% (4735/5674)  0   93.6
    piacentine  89.86% (4997/5561)  2  25.3   84.14% (4679/5561)  1   63.0
    french40    91.49% (5020/5487)  0  42.2   88.68% (4866/5487)  0  110.9
    french52    91.41% (5185/5672)  1  26.7   88.38% (5013/5672)  5   69.8

Against the last report (seeds 9,200,000-9,201,999): calibrated +0.03 / +2.44 / +5.71 / +5.90
points, uncalibrated -1.17 / +1.94 / +8.36 / +9.15; false cards calibrated 12 -> 5 (1/4/3/4 ->
2/2/0/1), uncalibrated 5 -> 6 (1/0/2/2 -> 0/1/0/5). The false cards, not looked at: calibrated
napoletane 9300606:7c, 9300785:2d, piacentine 9300632:6c, 9301843:6c, french52 9300141:9s;
uncalibrated piacentine 9301154:6c, french52 9300141:9s, 9300233:6c, 9300775:9b, 9301124:Tb,
9301493:4s. French52 uncalibrated rose from 2 to 5: the index reader naming a card alone
(>= 0.99) was chosen on calibrated tune seeds, and a guessed pose reads outlines less exactly;
whether it should hold under a guess is the next thing to check, on tune seeds. The goal
(>= 99.5%, 0 false) is not met.

Since the last report (2026-11-25, a sixth session; the card classifier's weights only;
tune seeds only, no held-out run): Piacentine retrained, Napoletane fine-tuned, on three
times the scenes with a card's cover on 30% of the crops (card_classifier.py's docstring;
train_card_classifier --cover, crops of tune seeds 100,000-100,499 and 300,000-300,999). Right cards calibrated,
shipped weights -> new, on fresh tune seeds nobody trained on (`nice -n 19 env PYTHONPATH=.
.venv/bin/python -m tests.bench.bench_wide_scenes --split tune --scenes 300 --first-seed
4000 --no-baseline --modes calibrated --decks napoletane,piacentine`, and --first-seed 4300
as the check; the old weights copied back into devices/camera/weights/ for "before"):

    deck        4000-4299                       4300-4599
    napoletane  752 -> 757/848, false 1 -> 0    754 -> 758/836, false 0 -> 0
    piacentine  741 -> 747/840, false 0 -> 0    727 -> 739/825, false 0 -> 0

(napoletane's false card before: 4173:5s.) Uncalibrated, seeds 4,000-4,199 (--modes
uncalibrated --scenes 200): napoletane 505 -> 504/597 (false 1 -> 0, 4173:5s), piacentine
447 -> 453/529 (false 1 -> 1, the same 4048:6c). The network is the same (~4 M multiply-adds,
~0.8-1.0 ms a crop in numpy either way); the bench's ms here (20-38 ms a frame, before and
after alike) are other engineers' runs on the shared 2-core machine, not the change.
On crops of tune scenes 4,000-4,149 (a throwaway check, jittered true outlines) Piacentine's
partly covered cards: 90.9 -> 98.3% top-1, 60.8 -> 72.0% right at >= 0.95, no wrong card
at >= 0.95 before or after; OTHER crops named a card at >= 0.95: 0 -> 0.
Not kept: French fine-tuned the same way (from the shipped weights, 4 epochs on tune seeds
100,000-101,399 and 300,000-300,999, validation 97.8%): french40 732 -> 734 and 701 ->
699, french52 714 -> 711 and 671 -> 675 (false 0 -> 0, and 1 -> 0: 4422:Tc), no clear gain;
French retrained from scratch on those crops with --cover 0.3 (10 epochs, validation 98.4%
against 97.8% for the fine-tune on the same last tenth): french40 732 -> 739/848 and 701 ->
700/818, french52 714 -> 717/814 and 671 -> 679/800 (+17 of 3,280), but a new false card,
french40 4295:3s (false 0 -> 1 on 4000-4299; french52's 4422:Tc gone): not shipped, not
looked into (the session's time). The next thing to try for French.
The recogniser's thresholds are unchanged (not tried: no time left to measure them apart).

Since the last report (2026-11-25, sixth session; tune seeds only here, the held-out report
follows below once run): (1) the partial judge's card is refused when the classifier is sure
(>= 0.9) of another (`learned_veto`; piacentine 3394, a 5 of cups named a 4 with its middle
cup half under a card; on tune seeds 0-399 no right card of 258 named so was contradicted;
A/B 5000-5299: piacentine 763 -> 762/860, the others unchanged); (2) French cards: the
corner-index reader (devices/camera/index_reader.py, trained on tune seeds 400,000-401,599 by
devices/camera/training/train_index_reader.py, validation 99.21%), `--ab index_reader`,
calibrated and uncalibrated, right cards / false, without -> with:

    seeds       deck      calibrated                     uncalibrated
    5000-5299   french40  752 -> 791/851   0 -> 0        (not run)
    5000-5299   french52  698 -> 767/852   1 -> 0        (not run)
    5300-5599   french40  738 -> 786/854   1 -> 1        687 -> 761/854  0 -> 0
    5300-5599   french52  697 -> 750/835   0 -> 0        649 -> 728/835  1 -> 0

(5300-5599 were run once, after the rule was set on 5000-5299.) On the true outlines of the
covered cards that count (french52 tune 5000-5149, jittered as a corner reads them), the
reader was sure (>= 0.95) and right on 119 of 134, sure and wrong on none. (3) The false card
left on 5300-5599 (french40 5375:4s, the classifier on an outline moved off a covered 2 of
spades onto the card back beside it) led to `index_confirms_learned`: a covered French card the
classifier names needs an index corner reading it (A/B 5000-5599, 600 a deck: french40
1577 -> 1578/1705, false 1 -> 0; french52 1517 -> 1516/1687, 0 -> 0). (4) On french52 tune
5000-5299, 43 refused outlines had a sure index reading (>= 0.95) and no second method
agreeing, all 43 of a card lying there (13 that count): a reading >= 0.99 now names the card
alone (`index_alone_prob`; A/B 5000-5599: french40 1578 -> 1582/1705, french52 1516 ->
1536/1687, false 0 -> 0; chosen on the same seeds, so the held-out run is its check). The
ms, a busy machine:
calibrated +4 to +6 ms a frame with the reader (42 -> 48 on 5300-5599).

Held-out report, 2026-11-25 (fifth session), with the card localiser and the uncalibrated
camera fit (both below): seeds 9,200,000-9,201,999, never run before, 2,000 scenes per deck,
`.venv/bin/python -m tests.bench.bench_wide_scenes --scenes 2000 --first-seed 9200000
--no-baseline`, two processes (napoletane,piacentine and french40,french52) on an otherwise
quiet machine. % right (cards) / false / mean ms:

    deck        calibrated                    uncalibrated
    napoletane  89.20% (5023/5631)  1  24.6   84.62% (4765/5631)  1  61.0
    piacentine  87.42% (4960/5674)  4  25.0   82.20% (4664/5674)  0  62.6
    french40    85.78% (4764/5554)  3  25.9   80.32% (4461/5554)  2  70.9
    french52    85.51% (4816/5632)  4  25.3   79.23% (4462/5632)  2  69.4

Against the last report at this scale (seeds 9,700,000-9,701,999): calibrated +3.54 / +1.34
/ +1.00 / +3.48 points, uncalibrated +18.57 / +17.29 / +17.21 / +19.53. Calibrated false
cards 12 in 8,000 scenes against 4 then. On tune seeds 3,000-3,999 (1,000 a deck, `--split
tune --scenes 1000 --first-seed 3000 --modes calibrated --ab localiser`, run after the
held-out one) the localiser added one of them (french40 3192:6c) and the others were there
without it (piacentine's four, coins cards taken for their neighbours): right cards with /
without it 89.27 / 87.59, 88.86 / 87.29, 85.29 / 84.54, 83.72 / 82.02%. The ms, one
process on a quiet machine (tune seeds 3,000-3,199, `--ab localiser`, napoletane and
french52): 26.7 and 24.8 ms with the localiser, 21.4 and 20.8 without: over the 20 ms goal
either way on this machine. The goal is not met.

Held-out report, 2026-11-25 (fourth session), after the changes below: seeds 9,400,000-
9,400,499, never run before, 500 scenes per deck (not the issue's 2,000: the session's time),
`.venv/bin/python -m tests.bench.bench_wide_scenes --scenes 500 --first-seed 9400000
--no-baseline`, two processes (napoletane,piacentine and french40,french52) beside the test
suite, so the ms are high. % right (cards) / false / mean ms:

    deck        calibrated                    uncalibrated
    napoletane  85.96% (1237/1439)  0  71.5   64.42% (927/1439)  2  133.7
    piacentine  87.45% (1240/1418)  0  63.4   65.94% (935/1418)  1  111.8
    french40    85.31% (1196/1402)  0  68.7   62.55% (877/1402)  1  132.2
    french52    81.50% (1132/1389)  1  65.4   58.46% (812/1389)  2  119.5

False cards, not looked at: calibrated french52 9400464:4s; uncalibrated napoletane 9400388:6d,
9400404:7d, piacentine 9400408:2d, french40 9400236:4s, french52 9400345:9d, 9400464:4s.
Against the report before (other seeds, 2,000 a deck): calibrated +0.30 / +1.37 / +0.53 /
-0.53 points, uncalibrated -1.63 / +1.03 / -0.56 / -1.24: within what 500 scenes can tell.
The goal is not met.

Since the last report (2026-11-25, a still later session; tune seeds only, no held-out run):
the learned card localiser (devices/camera/card_localiser.py; Options.localiser, now on),
`nice -n 19 env PYTHONPATH=. .venv/bin/python -m tests.bench.bench_wide_scenes --split tune
--scenes 200 --first-seed 0 --no-baseline --modes calibrated --ab localiser` (and
--first-seed 1000), the recogniser without and with it in one run. Right cards calibrated,
without -> with; false cards unchanged (0 on 0-199; french40 1043:3d, french52 1048:6s and
1159:7c on 1000-1199, known before):

    deck        0-199                              1000-1199
    napoletane  497 -> 507/563 (88.28 -> 90.05%)   472 -> 484/544 (86.76 -> 88.97%)
    piacentine  495 -> 506/582 (85.05 -> 86.94%)   512 -> 519/596 (85.91 -> 87.08%)
    french40    492 -> 500/571 (86.16 -> 87.57%)   472 -> 479/555 (85.05 -> 86.31%)
    french52    497 -> 504/596 (83.39 -> 84.56%)   490 -> 499/595 (82.35 -> 83.87%)

And on seeds 200-399 / 1200-1399 (run after the change, as a check): 489 -> 494 / 467 ->
482 napoletane, 465 -> 471 / 504 -> 512 piacentine, 475 -> 480 / 473 -> 475 french40, 494 ->
506 / 501 -> 505 french52, false cards the same with and without (french52 277:7b, known).

The ms (a 2-core machine at load 4-7, the two processes and other work; without and with
run in turn per seed): 43.5 -> 54.1, 34.9 -> 39.3, 33.4 -> 39.0, 51.5 -> 60.5 on 0-199 and
45.4 -> 54.8, 41.2 -> 50.7, 38.1 -> 46.3, 41.2 -> 50.0 on 1000-1199: +13 to +25%, about
half of it the network (~4 ms a view niced at load 2.6: input 1, network 2-2.5, peaks and
edges under 1); from ~15 ms quiet that would be ~18 ms, not measured quiet.
diagnose_wide_misses (seeds 0-99, calibrated, --set localiser=0 / 1): cards not located
11 -> 4 napoletane, 33 -> 17 piacentine, 16 -> 8 french40, 16 -> 14 french52 (76 -> 43);
located but refused with the judge right on the true outline 2 -> 5, 4 -> 10, 0 -> 1,
7 -> 7 (the pose a few pixels or degrees off); right 226 -> 231, 234 -> 242, 250 -> 255,
234 -> 235. Upper
bound, the localiser replaced by every true card's centre and axis (piacentine seeds 0-39):
87 -> 92 of 105 named; the 3x3-head network: 87 -> 89. Uncalibrated, nothing changes: the
localiser is not run on a guessed calibration (not measured there).
Not kept: the network's own long axis (5.9 degrees median error on its validation views:
it learnt little beyond "about upright"; the edges around the centre, their angle times
four averaged, give 1.4 when they agree) with proposals filtered only when an outline
hypothesis lay near along the same axis (seeds 0-49: +1 / +1 / +1 / 0 cards, +30 to +45% ms);
the axis loss weighted double (5.7 degrees, fewer centres found); a 3x3 first head conv
(~40 M multiply-adds, ~0.5 ms more a view): 505 / 509 / 501 / 503 and 484 / 520 / 479 / 499,
as good within two cards.


Since the held-out report above (2026-11-25, a later session; uncalibrated only; tune seeds
only, no held-out run), right cards uncalibrated before -> after, tune seeds 0-299 (developed
on) and 1000-1199 (a check; but see the classifier rule below), calibrated for comparison
(unchanged: the same per seed, napoletane 0-299 and french52 1000-1199 run again); after:
`nice -n 19 env PYTHONPATH=. .venv/bin/python -m tests.bench.bench_wide_scenes --split tune
--scenes 300 --first-seed 0 --no-baseline --modes uncalibrated --decks napoletane,piacentine`
(and french40,french52; and --scenes 200 --first-seed 1000), before: the same scenes scored
by the code before:

    deck        0-299: cards, % (calibrated %)        1000-1199
    napoletane  570 -> 708/827  68.92 -> 85.61 (89.00)  369 -> 451/544  67.83 -> 82.90 (86.76)
    piacentine  515 -> 684/825  62.42 -> 82.91 (85.82)  370 -> 484/596  62.08 -> 81.21 (85.91)
    french40    541 -> 684/842  64.25 -> 81.24 (86.58)  376 -> 444/555  67.75 -> 80.00 (85.05)
    french52    566 -> 693/900  62.89 -> 77.00 (83.22)  359 -> 468/595  60.34 -> 78.66 (82.35)

False cards before -> after: 0 -> 0 everywhere but french52 0-299, 1 -> 1 (277:7b, the same).
render.py's scenes (tests/test_recognizer.py, seeds 0-99), uncalibrated: napoletane 297 -> 296
/306, piacentine 273 -> 273/292, french 262 -> 261/280, 0 false before and after. The ms,
one process on the shared 2-core machine (load 3-4 from other work), before and after in
turn per frame, tune seeds 0-199: mean 43.0 -> 63.7 napoletane, 52.5 -> 78.3 french52, 45.1
-> 72.7 piacentine, 51.4 -> 81.8 french40; p95 84 -> 138, 124 -> 186, 85 -> 158, 106 -> 172.

Kept (recognizer.py step 5, camera_family.py): (1) the guessed calibration is the studio's
kind of camera (a centred pinhole, 20-35 degrees tilt, 45-62 degree lens, as wide_scenes.py
draws) fitted to all the cards named whole of the agreeing size, with those ranges as a prior
(napoletane 0-199: median size error of the true cards under the guess 3.3% -> 1.8%, scenes >=
5% off 36 -> 4 of 146), kept only when it places every card within 3 pixels (the worst of
three or more may be dropped): without that check render.py's cameras, which no such pinhole
makes, gave 3 false cards on its french scenes; (1) alone, napoletane 0-199: 387 -> 429; (2)
with no card named whole (napoletane 0-299: 114 scenes, 199 cards, of which calibrated names
161, the guess from an outline named 52, now 158), five framings of the family's middle camera
and the pose of an outline close to a card are ranked by the best small-image score of a card
their size in the view and the best two tried in full (0-299, with (1), before the 3-pixel
check, (3) and (4): napoletane 570 -> 713, french52 566 -> 726); (3) under a guessed pose a
card named whole on its outline is not renamed (piacentine 81: a 4 of coins named a 5); (4)
under a guessed pose the classifier does not name a covered card where no card fits what
shows: with it 712 / 692 / 702 / 724 right on 0-299 (0 false but 277) and 455 / 489 / 462 /
483 on 1000-1199 with 2 false (french40 1043:4s, french52 1175:9c); the rule was chosen after
those two were seen, so 1000-1199 is no clean check for it. Not kept: a plain joint homography
over the named cards (rigid rectangles and a least-squares homography in turn; napoletane
0-199 387 -> 394, against 429 for the camera fit); every framing tried in full (+4 / +5 cards;
six full passes against the ranking and two, about twice the time); framings ranked by a pass
without covered cards (-16 napoletane); the sweep also where the one card named does not fit
the camera (+6 / +4 napoletane / french52, but a false card on render.py's french seed 84); no
classifier at all under a guess (-44 / -56 napoletane / piacentine).

Since the last report (2026-11-25, a later session; tune seeds only, no held-out run yet),
right cards calibrated, before -> after, seeds 0-199 and 1000-1199 (false cards unchanged:
0 on 0-199; french40 1043:3d, french52 1048:6s and 1159:7c on 1000-1199, known before):

    deck        0-199                              1000-1199
    napoletane  493 -> 497/563 (87.57 -> 88.28%)   465 -> 472/544 (85.48 -> 86.76%)
    piacentine  486 -> 495/582 (83.51 -> 85.05%)   500 -> 512/596 (83.89 -> 85.91%)
    french40    489 -> 492/571 (85.64 -> 86.16%)   467 -> 472/555 (84.14 -> 85.05%)
    french52    496 -> 497/596 (83.22 -> 83.39%)   487 -> 490/595 (81.85 -> 82.35%)

Uncalibrated, right cards before -> after, seeds 0-99 and 1000-1099, 0 false before and
after: napoletane 174 -> 174/255 and 188 -> 190/266, piacentine 174 -> 177/285 and 195 ->
196/290, french40 184 -> 185/283 and 193 -> 193/282, french52 190 -> 190/283 and 172 ->
172/301 (ms 59-85, noise only).

Where the misses were (diagnose_wide_misses, seeds 0-99 calibrated): about half of them
"not located" (no hypothesis near the card at all: the middle cards of an overlapping row,
whose corners are not on the blob's outline; whole cards in a close group on a non-green
cloth, taken for the felt by the view's 21-pixel median) and half "located, refused", nearly
all partly covered, where the classifier names the card right on its true outline in ~45 of
49 french52 cases but is not sure enough on the outline read off a corner.

Kept: (1) a partly covered card named from what shows owns only the cells that showed, not
its whole outline (the card lying over it was refused as "on a named card": every such
refusal on seeds 0-199 and 1000-1199 was a right card); (2) a partly covered card every judge
refuses, which the classifier takes for some card at >= 0.5, is fitted (Gauss-Newton, as the
partial judge's near misses are) to that card and the partial judge asked again.
Not kept: fitting from the classifier at >= 0.3 (no card more on seeds 0-199, piacentine and
french52); asking the classifier again on that fitted outline (+42 right cards on both ranges,
2 false: french52 1175 a 9c for a Tc, new); relaxing the classifier's rules alone (its answers
logged on both ranges, estimated: the classifier at >= 0.9 both ways up and among the crop's
3 best templates, whatever the partial judge says, +33 / +33 cards but 3 false on 1000-1199;
>= 0.95 both ways and the crop's best template where the partial judge names another card,
only +5 / +3); hypotheses where a card's border crosses a long straight outline side (a row's
middle cards: piacentine +3 of 285 on seeds 0-99, none elsewhere, +3 to +6 ms); in the view,
the felt's 21-pixel median taken after leaving out what a 41-pixel median shows is not felt
(piacentine +6 to +7 of 285 on seeds 0-99 but napoletane -3 to -4: a lamp's highlight then
joined the cards; french40 -2, french52 +1). The ms (shared, busy machine, niced; A/B in
turn per seed): no change beyond noise, e.g. seeds 0-199 calibrated 30.9 / 31.8 napoletane,
46.6 / 45.1 french52 after / before; the refit costs 0.7-2 ms a frame where it runs.

Last report, 2026-11-25, the issue's 2,000 scenes per deck (`nice -n 19 env
PYTHONPATH=. .venv/bin/python -m tests.bench.bench_wide_scenes --scenes 2000 --first-seed
9700000 --no-baseline`, run as two processes, --decks napoletane,piacentine and
french40,french52; seeds 9,700,000-9,701,999, never run before; a 2-core machine shared with
another engineer's runs and the two processes, so the ms are high), % right (cards) / false /
mean ms:

    deck        calibrated                    uncalibrated
    napoletane  85.66% (4885/5703)  0  31.0   66.05% (3767/5703)  2  59.5
    piacentine  86.08% (4904/5697)  3  36.9   64.91% (3698/5697)  1  69.4
    french40    84.78% (4808/5671)  0  32.7   63.11% (3579/5671)  3  64.3
    french52    82.03% (4625/5638)  1  38.0   59.70% (3366/5638)  4  73.3

Against the report before (other seeds): calibrated -0.15 / +2.31 / +1.58 / -0.17 points,
uncalibrated +9.65 / +17.85 / +14.42 / +11.96. The false cards (seed:card@x,y), not looked
at: calibrated piacentine 9700195:6c, 9700415:4c, 9701909:4c, french52 9701556:9c;
uncalibrated napoletane 9700545:7d, 9701386:2s, piacentine 9701202:2c, french40 9700585:3c,
9701783:Ac, 9701861:5s, french52 9700709:Ac, 9700873:8b, 9701110:2b, 9701452:Tb (more
uncalibrated false cards than before: 10 against 7, perhaps from the calibrations guessed from any
outline; not examined, these seeds being held out). The ms here are the two processes'
sharing; on the same machine a little quieter, one process, tune seeds 0-99 calibrated, the
recogniser before these changes and after, run in turn twice: french52 21.0 / 21.6 ms before,
22.8 / 21.6 after; napoletane 17.7 / 15.7 before, 17.7 / 16.8 after. The goal (>= 99.5%, 0
false in 2,000 scenes per deck, <= 20 ms) is not met.

What changed for it (tune seeds only: 0-449 and 1000-1199; before -> after on seeds 0-199,
calibrated / uncalibrated, 0 false before and after):

    napoletane  86.86 -> 87.57%   58.97 -> 68.74%
    piacentine  82.47 -> 83.51%   46.74 -> 61.86%
    french40    84.94 -> 85.64%   53.24 -> 63.75%
    french52    82.72 -> 83.22%   47.99 -> 64.09%

Kept: (1) calibrated, a partly covered card where no card at all fits the cells that show
(the partial judge finds nothing) may be named by the classifier alone when it is >= 0.96
sure of the crop and of the crop turned half a turn, and its card is the crop's best
whole-card template match (logged hypotheses, seeds 0-449: +10 / +12 / +13 / +11 cards, none
false); (2) uncalibrated, with no card named and no outline close to one, the calibration is
guessed from any card-shaped outline, then on the not-felt mask closed by 9 px; (3) the
outline path's felt is the median of a 41-pixel neighbourhood of the small copy (was 21: a
close row of cards filled over half of it and was taken for the felt); (4) the classifier's
products in row blocks (OpenBLAS stays on one thread: 1 ms a crop, not tens on a busy machine).
Not kept: the paired rule (classifier and partial judge agreeing) at 0.9 instead of 0.95
(+4 / +3 / +12 / +12 cards on seeds 0-449 but two false French cards on 1000-1199); the
classifier alone without the turned crop (a false card at 0.96, seed 415 french40); the
turned crop on the paired rule (a sixth of its cards lost, its false card on seed 277 french52
kept); the 41-pixel felt in the calibrated view too (-10 / +7 / -7 / +1 cards); medians 31 and
61, and not-felt thresholds 26 and 44 (was 34; 44 gave 3 false), in the image (seeds 0-39);
uncalibrated, the three best outlines' calibrations each tried and the one naming most kept
(no card more on seeds 0-39, one false). False cards left on tune seeds 1000-1199, all there
before these changes: french40 1043:3d and french52 1048:6s (classifier and partial judge
agreeing on a wrong card), french52 1159:7c (the whole-card judge).

The report before, the issue's 2,000 scenes per deck (`.venv/bin/python -m
tests.bench.bench_wide_scenes --scenes 2000 --first-seed 9600000 --no-baseline`, seeds
9,600,000-9,601,999, never run before; the learned classifier in; a 2-core machine shared
with other runs, so the ms are high), % right (cards) / false / mean ms:

    deck        calibrated                    uncalibrated
    napoletane  85.81% (5039/5872)  1  14.1   56.40% (3312/5872)  0  23.6
    piacentine  83.77% (4649/5550)  1  14.5   47.06% (2612/5550)  0  21.3
    french40    83.20% (4805/5775)  1  14.6   48.69% (2812/5775)  1  24.3
    french52    82.20% (4668/5679)  2  16.7   47.74% (2711/5679)  6  27.9

The false cards (seed:card@x,y), not looked at since: napoletane 9600105:3c, piacentine
9601472:6c, french40 9600871:2s (uncalibrated 9601603:3b), french52 9600347:Ts and
9600828:3s (uncalibrated also 9600471:3c, 9600565:Tb, 9601166:9b, 9601571:Tb, 9601970:4s).
The goal (>= 99.5%, 0 false in 2,000 scenes per deck) is not met.

The one before it (`.venv/bin/python -m tests.bench.bench_wide_scenes --scenes 300 --first-seed
9900000`, seeds nobody had run before; with the learned classifier, card_classifier.py; a busy
shared 2-core machine, today's recogniser ran ~1.25x slower than in the report before),
% right / false / mean ms:

    deck        current calibrated     current uncalibrated   today's calibrated  uncalibrated
    napoletane  85.61%  0  14.1 ms     52.16%  0  24.2 ms     16.73%  0  4.8 ms    9.82%  0
    piacentine  85.01%  0  15.3 ms     49.48%  0  23.6 ms     16.15%  0  4.8 ms   10.61%  0
    french40    81.86%  0  14.6 ms     46.96%  0  24.6 ms     17.57%  0  4.7 ms   10.56%  0
    french52    83.21%  0  14.7 ms     49.64%  0  26.3 ms     18.61%  0  5.1 ms   11.31%  0

And before it (--scenes 1000 --first-seed 9800000, without the classifier):

    deck        current calibrated     current uncalibrated   today's calibrated  uncalibrated
    napoletane  83.97%  0  10.6 ms     50.05%  0  17.2 ms     15.79%  0  3.6 ms   10.14%  0
    piacentine  82.97%  0  12.2 ms     42.65%  0  17.6 ms     16.24%  0  4.1 ms    9.48%  0
    french40    78.93%  0  11.6 ms     40.53%  2  18.8 ms     16.51%  0  3.8 ms   10.12%  0
    french52    78.44%  0  12.3 ms     37.87%  2  19.7 ms     18.28%  0  4.2 ms   11.31%  0

Where the misses are (tune seeds): tests/bench/diagnose_wide_misses.py.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import cv2

from devices.camera.card_classifier import CardClassifier
from devices.camera.index_reader import index_reader
from devices.camera.ray_scenes import ray_scene
from devices.camera.recognizer import Options, Recognizer, Thresholds, baseline_options
from devices.camera.wide_scenes import HELD_OUT_SEED_BASE, WideScene, wide_scene
from devices.camera.wide_scoring import WideTally, score_wide

# where the scenes come from: wide_scenes.py (tuned on since the tenth session: its held-out
# seeds are new scenes of a generator the recogniser was developed on) or ray_scenes.py (built
# apart, never tuned on); both split their seeds at HELD_OUT_SEED_BASE
# ... or wide_scenes.py in linear light (its `linear_light`: thin print fades as a lens's blur
# fades it; half the index reader's training scenes)
SOURCES: dict[str, Callable[[int, str, str], WideScene]] = {
    "wide": wide_scene, "ray": ray_scene,
    "wide-linear": partial(wide_scene, linear_light=True)}
DECKS = {"napoletane": ("napoletane", "italian40"), "piacentine": ("piacentine", "italian40"),
         "french40": ("french", "french40"), "french52": ("french", "french52")}


def threshold_values(pairs: list[str]) -> dict[str, float]:
    """`--ab-threshold` NAME=VALUE pairs as Thresholds fields, each value as its field's type
    (a count of steps is an int)."""
    return {k: type(getattr(Thresholds(), k))(float(v)) for k, v in
            (kv.split("=") for kv in pairs)}


@dataclass
class Run:
    tally: WideTally
    ms: list[float]

    def line(self, name: str) -> str:
        t = self.tally
        ms = sorted(self.ms)
        return (f"  {name:<24} right {t.right_pct:7.2f}% ({t.right}/{t.expected})  false "
                f"{t.false:>3}  twice {t.twice:>2}  "
                f"scenes right {100.0 * t.perfect / max(1, t.scenes):6.2f}%  "
                f"{statistics.mean(ms):6.2f} ms/frame (p95 {ms[int(0.95 * len(ms))]:6.2f})")


def bench(deck: str, scenes: int, first_seed: int, modes: list[str],
          recognisers: dict[str, Recognizer], source: str = "wide") -> dict[str, Run]:
    runs = {f"{r} {m}": Run(WideTally(), []) for r in recognisers for m in modes}
    for seed in range(first_seed, first_seed + scenes):
        scene = SOURCES[source](seed, *DECKS[deck])
        for rname, rec in recognisers.items():
            for mode in modes:
                camera = scene.camera if mode == "calibrated" else None
                if camera is not None:
                    rec.view(camera)  # once per table at start-up, not per frame
                t0 = time.perf_counter()
                found = rec.recognize(scene.frame, camera)
                run = runs[f"{rname} {mode}"]
                run.ms.append((time.perf_counter() - t0) * 1000)
                tally = score_wide(found, scene.truth)
                tally.false_examples = [f"{seed}:{x}" for x in tally.false_examples]
                tally.twice_examples = [f"{seed}:{x}" for x in tally.twice_examples]
                run.tally.add(tally)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--split", choices=("held-out", "tune"), default="held-out")
    parser.add_argument("--decks", default=",".join(DECKS))
    parser.add_argument("--modes", default="calibrated,uncalibrated")
    parser.add_argument("--source", choices=tuple(SOURCES), default="wide",
                        help="the scenes' generator: wide_scenes.py (wide-linear: in linear "
                             "light) or ray_scenes.py")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--ab", action="append", default=[],
                        metavar="OPTION[,OPTION][:NAME=VALUE[,NAME=VALUE]]",
                        help="also run the current recogniser with these Options switches "
                             "flipped (A/B in the same run, e.g. localiser) and, after a "
                             "colon, these Thresholds values for this one; repeatable, one "
                             "recogniser each")
    parser.add_argument("--ab-classifier", type=Path, default=None, metavar="DIR",
                        help="... and with the classifier weights DIR/card_classifier_<art>.npz "
                             "and DIR/index_reader_french.npz where DIR has them (weights "
                             "trained anew, or the ones before)")
    parser.add_argument("--ab-threshold", action="append", default=[], metavar="NAME=VALUE",
                        help="... and with this Thresholds value (repeatable; e.g. the bar "
                             "a session changed, at its value before)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    first = args.first_seed if args.first_seed is not None else (
        HELD_OUT_SEED_BASE if args.split == "held-out" else 0)
    modes = args.modes.split(",")
    split = "held-out" if first >= HELD_OUT_SEED_BASE else "tune"  # what the seeds are
    print(f"{args.source} scenes ({split}, seeds {first}..{first + args.scenes - 1}), "
          f"{args.scenes} per deck, one core")
    for deck in args.decks.split(","):
        art, kind = DECKS[deck]
        recs = {"current": Recognizer(art, kind)}
        for ab in args.ab or ([""] if args.ab_classifier or args.ab_threshold else []):
            # one recogniser each: the switches flipped, other thresholds, other weights
            flipped, _, own = ab.partition(":")
            switches = flipped.split(",") if flipped else []
            flips = {name: not getattr(Options(), name) for name in switches}
            values = threshold_values(args.ab_threshold + (own.split(",") if own else []))
            name = "current " + " ".join(
                [f"{'+' if on else '-'}{k}" for k, on in flips.items()] +
                [f"{k}={v:g}" for k, v in values.items()])
            weights = reader = verifier = None
            if args.ab_classifier:
                path = args.ab_classifier / f"card_classifier_{art}.npz"
                weights = CardClassifier.load(path) if path.exists() else None
                name += ", other weights" if weights is not None else ""
                path = args.ab_classifier / f"card_verifier_{art}.npz"
                verifier = CardClassifier.load(path) if path.exists() else None
                name += ", other verifier" if verifier is not None else ""
                path = args.ab_classifier / "index_reader_french.npz"
                reader = index_reader(path) if art == "french" and path.exists() else None
                name += ", other index reader" if reader is not None else ""
            recs[name] = Recognizer(art, kind, replace(Thresholds(), **values),
                                    options=replace(Options(), **flips), classifier=weights,
                                    verifier=verifier, index_net=reader)
        if not args.no_baseline:
            recs = {"baseline": Recognizer(art, kind, options=baseline_options()), **recs}
        runs = bench(deck, args.scenes, first, modes, recs, args.source)
        print(deck, flush=True)
        for name, run in runs.items():
            print(run.line(name), flush=True)
            print("    right by visible share:", run.tally.bands_line(), flush=True)
            if run.tally.false_examples and name.startswith("current"):
                print("    false:", ", ".join(run.tally.false_examples[:8]))
            if run.tally.twice_examples and name.startswith("current"):
                print("    twice:", ", ".join(run.tally.twice_examples[:8]))


if __name__ == "__main__":
    main()
