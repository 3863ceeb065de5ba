"""The live path on the wide scenes: each seed's scene dealt card by card (wide_deal: the
dealer's hand over each card as it is laid, then the table still, five frames a second, each
frame with its own sensor noise) through what a table runs on its camera: the recogniser, the
tracker and the voter (voting.CameraCardSource). Issue 16's time goal is for this path
("calibrated, tracked").

    .venv/bin/python -m tests.bench.bench_wide_live [--deals 50] [--split held-out|tune]
        [--first-seed N] [--decks napoletane,...] [--modes calibrated,uncalibrated]
        [--source wide|ray]  (the deals' generator: wide_deal, or ray_scenes.ray_deal)
        [--ab OPTION[,OPTION]]  (also the tracked path with those switches flipped, same run)
        [--ab-threshold NAME=VALUE ...]  (... and with these Thresholds values)

For each deck and mode, two runs over the same frames: tracked (the live path) and every frame
recognised (the baseline, same run). Printed: the cards the table was told right (of the cards
that counted once laid, issue 16's rule), false reports, repeated reports, frames from a card's
first frame on the felt to its report (median), and ms per frame of the whole path (mean, p95;
the frames that reuse the last detections cost a thumbnail). One core (OpenCV one thread).

Seeds: the deal of seed S is still scene S's cards, chips, camera and light, so held-out deals
use seeds no still run has used (HELD_OUT_DEAL_BASE), and tune deals are tune seeds.

Held-out report (2026-12-07, fiftieth session), the live path with Options.read_beside (on)
against off in the same run, on ray deals never run before, 15 a deck, calibrated, the two
Italian decks side by side (read_beside is Italian; snapped_by_quick is off the live path
with edge_snap), code 9ed7e33:

    .venv/bin/python -m tests.bench.bench_wide_live --source ray --first-seed 9100075 \
        --deals 15 --modes calibrated --decks napoletane --ab read_beside  (piacentine beside)

    deck        tracked              ms a frame (p95)   every frame ms   tracked / every   on / off
    napoletane  58/58, 0 false       17.96 (85.2)       34.53            0.52x             1.04x
    piacentine  64/64, 0 false       12.60 (56.1)       31.18            0.40x             1.06x

122/122 cards told right either way, 0 false reports (1 repeated a deck); under the 20 ms goal.

Held-out report (2026-12-06, forty-eighth session), the shipped live path (code ea48b89: the
calibrated path as the forty-fifth session left it; a7a26d3's refactor and the uncalibrated
changes since do not change what it names) on ray deals never run before, 15 a deck,
calibrated, beside one still benchmark (bench_wide_scenes' 2,000 scenes) on the other core:

    .venv/bin/python -m tests.bench.bench_wide_live --source ray --first-seed 9100045 \
        --deals 15 --modes calibrated --decks napoletane,piacentine,french40,french52

    deck        tracked              ms a frame (p95)   every frame ms   tracked / every
    napoletane  61/61, 0 false       16.83 (74.5)       39.35            0.43x
    piacentine  56/56, 0 false       11.08 (54.4)       27.93            0.40x
    french40    62/62, 0 false       13.09 (53.4)       30.24            0.43x
    french52    65/65, 0 false       14.56 (62.0)       34.21            0.43x

244/244 cards told right, 0 false reports (9 repeated); 13.94 ms a frame over the 3,240
frames against 33.01 recognising every frame (0.42x). Under the 20 ms goal on this machine,
which is about twice the last one's speed: the forty-fifth session's spent deals
9,100,030-9,100,044 french40, tracked path only, alone, 13.27 ms a frame here against 29.32
there. Pooled with the forty-fifth session's deals (the same code's path): 464/465 right,
0 false.

Held-out report (2026-12-03, forty-fifth session), the live path made faster with the same
reports (the networks run with onnxruntime, onnx_session.py; the partial judge's four templates
judged at once, partial_match.visible_cells_of): --source ray deals 9,100,030-9,100,044 (never
run before), 15 a deck, calibrated; code cd39a3e beside the forty-fourth session's f04f0e1,
two runs side by side, nothing else on the machine:

    .venv/bin/python -m tests.bench.bench_wide_live --source ray --first-seed 9100030 \
        --deals 15 --modes calibrated --decks napoletane,piacentine,french40,french52

    deck        tracked (cd39a3e)    ms a frame (p95)   f04f0e1 ms (p95)   new / old
    napoletane  55/55, 0 false       20.82 (84.0)       27.10 (114.4)      0.77x
    piacentine  47/47, 0 false       21.92 (86.2)       29.18 (115.6)      0.75x
    french40    63/63, 0 false       29.32 (121.2)      39.83 (159.9)      0.74x
    french52    55/56, 0 false       31.78 (150.1)      43.31 (191.2)      0.73x

220/221 either way, 0 false reports (3 repeated); 26.06 against 34.99 ms a frame over the
3,012 frames (0.74x). Missed: french52 9,100,038, a king of spades 83% showing, by every path.
This machine is slower than the forty-fourth session's: on the spent deals 9,100,015-029,
french40, f04f0e1's tracked path took 41.68 ms a frame here (run alone, that path only)
against 22.45 there (this bench, beside another run). So neither path meets the 20 ms goal
here; what this run shows is the ratio.

Held-out report (2026-12-02, forty-fourth session), --source ray, the French decks with the
index reader retrained on linear light (2026-12-02): deals 9,100,015-9,100,029 (never run
before), 15 a deck, calibrated, code 954e89a, two runs side by side, nothing else on the
machine:

    .venv/bin/python -m tests.bench.bench_wide_live --source ray --first-seed 9100015 \
        --deals 15 --modes calibrated --decks french40

    deck        tracked              ms a frame (p95)   every frame
    french40    56/56, 0 false       22.45 (90.6)       45.04 (tracked 0.50x)
    french52    57/57, 0 false       15.23 (71.2)       38.17 (tracked 0.40x)

113/113, 0 false reports, 1 repeated (french52). French 40's mean is over the 20 ms goal on
these deals (19.19 for the path before the sixteenth session's hints in the same run).

Held-out report (2026-12-01, fortieth session), --source ray (ray_scenes.ray_deal, a generator
never tuned on): deals 9,100,000-9,100,014 (never run before), 15 a deck, calibrated. Code
8d2eca3 for napoletane and french40 (two runs side by side, nothing else on the machine);
piacentine at 5ef8833 and french52 at f57e2b4 beside other runs (their ms not comparable):

    deck        tracked              ms a frame (p95)   every frame
    napoletane  49/49, 0 false       18.72 (79.0)       44.16
    piacentine  60/60, 0 false       (shared machine)   tracked 0.41x every frame
    french40    60/61, 0 false       20.22 (92.7)       49.54 (without whole_paired_near 59/61)
    french52    48/51, 0 false       (shared machine)   tracked 0.37x every frame

217/221 (98.2%), 0 false reports, 1 repeated. Missed: french40 9,100,013 a 6 of hearts 93%
showing; french52 9,100,003 an 8 of hearts 85%, 9,100,013 a king of spades 75% and a 2 of
clubs 58% showing.

Held-out report (2026-11-29, thirty-ninth session), the shipped path (this session's change,
the rescue's marks, is off with the rescue): deals 9,100,824-9,100,838 (never run before), 15 a
deck, code 4c5503f, two runs side by side, nothing else on the machine:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100824 \
        --modes calibrated --decks napoletane

    deck        tracked (shipped)    ms a frame (p95)   every frame
    napoletane  68/69, 0 false       12.58 (64.2)       31.47
    piacentine  61/62, 0 false       15.34 (74.3)       32.98
    french40    67/67, 0 false       13.40 (67.4)       33.21
    french52    51/51, 0 false       12.98 (63.0)       34.36

247/249 cards told right (99.20%), 0 false reports (6 repeated); 13.55 ms a frame over the
3,384 frames. Missed: napoletane 9,100,828, a 7 of swords 51% showing; piacentine 9,100,830, a 7
of swords 92% showing under a chip, named by the still path (edge_snap) in every frame and by
the live path in 2 of the last 10 (its hint is judged whole only, which the chip fails).

Held-out report (2026-11-29, thirty-eighth session), with the telling check (recognizer.Options
telling_check: a covered Italian card is named only where what shows of it tells it from every
other card on the clean scans): deals 9,100,809-9,100,823 (never run before), 15 a deck, code
1c42228, two runs side by side (a third process beside napoletane's and both French runs part
of the time: their ms are high), the Italian decks beside the path with the check off:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100809 \
        --modes calibrated --ab telling_check --decks napoletane

    deck        tracked (shipped)    ms a frame (p95)   check off         on / off
    napoletane  58/58, 0 false       19.19 (85.2)       58/58, 18.44      1.04x
    piacentine  49/49, 0 false       13.46 (68.9)       49/49, 12.79      1.05x
    french40    46/46, 0 false       14.57 (63.5)       (not asked)
    french52    61/61, 0 false       19.14 (89.8)       (not asked)

214/214 cards told right, 0 false reports; 16.8 ms a frame over the 2,976 frames; every frame
recognised 37.0-46.9 ms.

Held-out report (2026-11-29, thirty-seventh session), with the cover mask (recognizer.Options
cover_blanks and cover_hides: the dealer's hand and chips, marked by a small network on the
view, blanked in the classifier's crops and hidden from the partial judge): deals
9,100,794-9,100,808 (never run before), 15 a deck, code 326f55a, two runs side by side, the
shipped path beside the one with the mask off (`--ab cover_blanks,cover_hides`):

    deck        tracked (shipped)    ms a frame (p95)   mask off          on / off
    napoletane  52/52, 0 false       15.28 (74.5)       52/52, 15.39      0.99x
    piacentine  52/52, 0 false       10.77 (48.5)       52/52, 10.57      1.02x
    french40    53/53, 0 false       12.98 (66.1)       53/53, 12.53      1.04x
    french52    49/51, 0 false       13.04 (65.8)       49/51, 13.12      0.99x

206/208 cards told right either way, 0 false reports. French 52's two misses (deal 9,100,808,
an 8 of clubs 87% showing and a 6 of diamonds 91%) are missed every frame recognised too, mask
on or off. The ms are higher than the last report's with the mask off too (10.6-15.4 against
9.0-11.2 there), on other deals; every frame recognised 30.5-33.0.

Held-out report (2026-11-29, thirty-sixth session), with `blank_outside` (recognizer.Options:
the classifier's crop blanked beyond the frame's edge): deals 9,100,779-9,100,793 (never run
before), 15 a deck, code 9c1cb36, two runs side by side, the shipped path beside the one with
the switch off (`--ab blank_outside`):

    deck        tracked (shipped)    ms a frame (p95)   switch off        on / off
    napoletane  59/59, 0 false       9.20 (40.6)        59/59, 9.01       1.02x
    piacentine  58/58, 0 false       11.48 (57.0)       58/58, 11.18      1.03x
    french40    52/52, 0 false       9.47 (44.8)        52/52, 9.23       1.03x
    french52    59/59, 0 false       10.42 (56.0)       59/59, 10.15      1.03x

228/228 cards told right either way, 0 false reports (6 cards reported twice, either way).

Held-out report (2026-11-29, thirty-fifth session), the rescue pass with its third verifier
(recognizer.Options.rescue, off by default; Italian decks): deals 9,100,764-9,100,778 (never
run before), 15 a deck, code 29c20ac, two runs side by side, the shipped path beside the one
with the rescue on (`--ab rescue`):

    deck        tracked (shipped)    ms a frame (p95)   rescue on         on / off
    napoletane  62/62, 0 false       9.68 (45.2)        62/62, 9.44       0.98x
    piacentine  56/56, 0 false       10.90 (49.3)       56/56, 10.56      0.97x

118/118 cards told right either way, 0 false reports. (The thirty-fourth session's deals
9,100,749-763 missed one card in every mode, an ace of swords seen whole on a fan's top:
see recognizer._localised, the fallback's turned twins, measured and not kept.)

Held-out report (2026-11-29, thirty-third session), with `learned_turned` (recognizer.py;
Italian decks only): deals 9,100,734-9,100,748 (never run before), 15 a deck, code 5afb3c8,
two runs side by side, each with the switch off beside it (`--ab learned_turned`):

    deck        tracked              ms a frame (p95)   switch off        on / off
    napoletane  49/49, 0 false       9.59 (44.2)        49/49, 9.55       1.00x
    piacentine  62/62, 0 false       11.50 (56.9)       62/62, 11.21      1.03x

111/111 cards told right, 0 false reports (piacentine: one card reported twice).

Held-out report (2026-11-29, thirty-first session), with `learned_outweighs_yield`
(bench_wide_scenes; Italian decks only): deals 9,100,719-9,100,733 (never run before), 15 a
deck, code c347453, two runs side by side, each with the switch off beside it (`--ab
learned_outweighs_yield`):

    deck        tracked              ms a frame (p95)   switch off        on / off
    napoletane  69/69, 0 false       7.65 (31.6)        69/69, 7.32       1.05x
    piacentine  63/63, 0 false       8.91 (40.2)        63/63, 8.58       1.04x

132/132 cards told right, 0 false reports, 8.3 ms a frame over the 1,806 frames.

Held-out report (2026-11-28, thirtieth session), with `index_search` (bench_wide_scenes: a
covered French card every judge refused searched for around its outline): deals
9,100,704-9,100,718 (never run before), 15 a deck, the French decks (the Italian ones have no
index reader: unchanged), code 8e7360b, two runs side by side, each with the switch off
beside it (`--ab index_search`):

    deck        tracked              ms a frame (p95)   switch off        on / off
    french40    41/41, 0 false       19.49 (100.6)      41/41, 16.89      1.15x
    french52    59/59, 0 false       16.78 (85.8)       59/59, 16.04      1.05x

100/100 cards told right, 0 false reports, 17.9 ms a frame over the 1,410 frames (16.4 with
the switch off). These deals cost more than the twenty-eighth session's either way.

Held-out report (2026-11-28, twenty-eighth session), with `ownership_carries` and
`same_card_apart` (bench_wide_scenes): deals 9,100,689-9,100,703 (never run before), 15 a
deck, code 652fe77 (its live path as the session's end's: `taken_within` 0.4, which the
stills had at 0.3 then, and `crowded_not_alone`, since removed, moot at 0.4), two runs side
by side (the Italian decks, then the French ones), each with the session's start beside it
(`--ab ownership_carries,crowded_not_alone --ab-threshold same_card_apart=0`):

    deck        tracked              ms a frame (p95)   the start         now / start
    napoletane  44/44, 0 false       8.16 (37.6)        44/44, 7.90       1.03x
    piacentine  66/67, 0 false       13.61 (67.2)       66/67, 13.50      1.01x
    french40    64/64, 0 false       11.12 (46.7)       64/64, 10.96      1.01x
    french52    57/57, 0 false       9.39 (42.9)        57/57, 9.35       1.00x

231/232 cards told right (99.57%), 0 false reports, 10.8 ms a frame over the 3,216 frames.
The card missed (piacentine 9,100,691, a 6 of cups seen whole) is missed by every path,
the start's and every frame recognised too.

Held-out report (2026-11-28, twenty-seventh session), with `felt_fallback` (bench_wide_scenes;
the felt learnt from the frame where green's rule fails on a green cloth): deals
9,100,674-9,100,688 (never run before), 15 a deck, code 1516244, two runs side by side (the
Italian decks, then the French ones), each with the switch off beside it (`--ab
felt_fallback`):

    deck        tracked              ms a frame (p95)   switch off        on / off
    napoletane  51/51, 0 false       15.36 (71.5)       51/51, 15.09      1.02x
    piacentine  61/61, 0 false       14.65 (67.9)       61/61, 14.18      1.03x
    french40    62/62, 0 false       19.03 (90.8)       62/62, 18.40      1.03x
    french52    46/46, 0 false       15.34 (76.6)       46/46, 16.55      0.93x

220/220 cards told right, 0 false reports, 16.2 ms a frame over the 2,988 frames (16.1 with
the switch off: it took over in none of these deals, the ratios are the machine's noise).

Held-out report (2026-11-28, twenty-sixth session), with `lookalike_both_ways`,
`alone_unranked` and `fit_lookalike_doubts` (bench_wide_scenes): deals 9,100,644-9,100,658
(never run before), 15 a deck, code 52d9781, two runs side by side on the two cores (the
Italian decks, then the French ones), each with the three switches off beside it:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100644 \
        --modes calibrated --ab lookalike_both_ways,alone_unranked,fit_lookalike_doubts \
        --decks napoletane (piacentine beside it; then french40 and french52)

    deck        tracked              ms a frame (p95)   switches off      on / off
    napoletane  65/65, 0 false       13.04 (59.9)       65/65, 12.49      1.04x
    piacentine  47/47, 0 false       15.62 (79.0)       47/47, 15.03      1.04x
    french40    67/68, 0 false       18.92 (78.3)       67/68, 18.97      1.00x
    french52    65/65, 0 false       21.11 (105.6)      65/65, 20.60      1.02x

244/245 cards told right, 0 false reports, 17.3 ms a frame over the 3,336 frames; French 52
over 20 ms on these deals either way (alone on the machine, no A/B: 20.23 ms; "tracked,
before", the path before the sixteenth session's hints, 17.47 in that run): these deals
cost more than 9,100,629-9,100,643's (13.3 ms there). The miss, french40 9,100,657's 5 of
clubs 93% showing, is missed tracked either way and by "tracked, before"; every frame
recognised names it (68/68): the tracker's, as the twenty-fifth session's miss, it seemed;
looked at after this report (spent), it was the recogniser's order (`covered_by_quick`).

Then with `covered_by_quick` (the hypotheses judged on what shows taken best quick match
first): deals 9,100,659-9,100,673 (never run before), 15 a deck, code 6a4cd28, two runs side
by side as above, each with the switch off beside it (`--ab covered_by_quick`):

    deck        tracked              ms a frame (p95)   switch off        on / off
    napoletane  59/59, 0 false       19.47 (104.7)      59/59, 19.48      1.00x
    piacentine  58/58, 0 false       16.69 (83.0)       58/58, 15.72      1.06x
    french40    45/45, 0 false       15.16 (71.3)       45/45, 15.06      1.01x
    french52    49/49, 0 false       16.11 (76.9)       49/49, 15.54      1.04x

211/211 cards told right, 0 false reports, 17.0 ms a frame over the 2,940 frames.

Held-out report (2026-11-28, twenty-fifth session), with `index_outweighs_yield`
(bench_wide_scenes; French only): deals 9,100,629-9,100,643 (never run before), 15 a deck,
code 282a9fc, two runs side by side on the two cores, the French decks with the switch off
beside them, then the Italian ones (which it does not change):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100629 \
        --modes calibrated --ab index_outweighs_yield --decks french40 (french52 beside it)
    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100629 \
        --modes calibrated --decks napoletane (piacentine beside it)

    deck        tracked              ms a frame (p95)   switch off        on / off
    napoletane  56/56, 0 false       11.71 (52.6)       -                 -
    piacentine  41/41, 0 false       13.51 (63.9)       -                 -
    french40    63/64, 0 false       13.97 (63.1)       63/64, 13.17      1.06x
    french52    52/52, 0 false       13.29 (57.5)       52/52, 13.16      1.01x

212/213 cards told right, 0 false reports, 13.1 ms a frame over the 2,952 frames. The miss,
french40 9,100,635's 5 of hearts 88% showing, is missed tracked either way (and by "tracked,
before"); recognising every frame names it (64/64): the tracker's, not the judge's, to look at.

Held-out report (2026-11-28, twenty-fourth session), with `learned_quick` (bench_wide_scenes):
deals 9,100,614-9,100,628 (never run before), 15 a deck, code 63dbd12, two runs side by side
on the two cores (the Italian decks, the French ones), each with the switch off beside it:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100614 \
        --modes calibrated --ab learned_quick --decks napoletane,piacentine (french40,french52)

    deck        tracked              ms a frame (p95)   learned_quick off   on / off
    napoletane  55/55, 0 false       16.74 (72.8)       55/55, 15.55        1.08x
    piacentine  51/51, 0 false       14.85 (65.3)       51/51, 14.07        1.06x
    french40    58/58, 0 false       16.21 (70.2)       58/58, 15.65        1.04x
    french52    50/50, 0 false       14.90 (63.7)       50/50, 14.51        1.03x

214/214 cards told right, 0 false reports, 15.7 ms a frame over the 3,012 frames (two
benchmarks side by side: alone on the machine the last report's path ran 11.1 ms).

Held-out report (2026-11-28, twenty-third session), with the classifier and the index reader
run in OpenCV's DNN module and the Napoletane weights put back (bench_wide_scenes): deals
9,100,584-9,100,598 (never run before), 15 a deck, this code (60fdd8d), alone on the machine:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100584 \
        --modes calibrated

    deck        tracked                  ms a frame (p95)   every frame ms   tracked / every
    napoletane  52/54, 0 false            8.53 (36.5)       21.22            0.40x
    piacentine  65/66, 0 false           12.93 (64.4)       32.72            0.40x
    french40    45/45, 0 false           10.15 (44.8)       28.97            0.35x
    french52    72/72, 0 false           11.95 (57.8)       28.68            0.42x

234/237 cards told right (98.73%), 0 false reports (4 repeated); missed napoletane 9100585 4d
and 6s (49% and 53% showing) and piacentine 9100595 7c (92%), every frame too. 11.1 ms a frame
over the 3,192 frames. The DNN's share, same run on tune deals 26,500-26,509: napoletane 8.95
against 9.39 ms a frame with the numpy forward pass (0.95x), french52 13.98 against 15.87
(0.88x), the same reports. Then, with the Napoletane weights fine-tuned with straddling crops
(aa77be6), napoletane deals 9,100,599-9,100,613 (never run before): 46/46, 0 false reports,
13.15 ms a frame tracked (every frame 26.56).

Held-out report (2026-11-27, twenty-second session), with the Italian classifiers fine-tuned
with blob covers and `rival_doubts`, `refit_needs_index` (bench_wide_scenes): deals
9,100,569-9,100,583 (never run before), 15 a deck, this code (348efcf), alone on the machine:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100569 \
        --modes calibrated

    deck        tracked                  ms a frame (p95)   every frame ms   tracked / every
    napoletane  50/50, 0 false           11.21 (55.0)       29.83            0.38x
    piacentine  58/58, 0 false           12.11 (59.3)       31.98            0.38x
    french40    42/42, 0 false           14.01 (75.0)       31.94            0.44x
    french52    52/53, 0 false           25.09 (115.5)      66.20            0.38x

202/203 cards told right (99.51%), 0 false reports (5 repeated); missed french52 9100578 Ac
(93% showing), every frame too. 15.8 ms a frame over the 2,868 frames (this machine is faster
than the last session's: tune deals 26,500-26,509 napoletane 11.5 ms here, 21.4 there).

Held-out report (2026-11-27, twenty-first session): the live path leaves out the hypotheses
moved onto their edges (`edge_snap`, bench_wide_scenes; `recognizer.live_options`), so its
code is the session's start; `--ab edge_snap` measures the path with them. Deals
9,100,554-9,100,568 (never run before), 15 a deck, this code (d7a230c) from a fresh clone,
alone on the machine:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100554 \
        --modes calibrated --ab edge_snap

    deck        tracked                  ms a frame (p95)   +edge_snap               every frame ms
    napoletane  57/57, 0 false           23.23 (118.7)      57/57, 29.51 ms          61.84
    piacentine  49/51, 0 false           20.25 (97.8)       50/51, 24.18 ms          52.77
    french40    67/67, 0 false           30.34 (148.1)      67/67, 35.44 ms          75.32
    french52    53/53, 0 false           18.29 (89.5)       53/53, 21.81 ms          49.41

226/228 cards told right (99.12%), 0 false reports (one repeated report each French deck);
the two missed are Piacentine cards lying whole (9100562 Qc 100% showing, 9100566 4c 97%),
missed every frame too. Tracked 0.37-0.40x the every-frame path; 23.5 ms a frame over the
3,120 frames (28.2 with `edge_snap`, 1.16-1.27x, one card more). This machine is slower than
the last session's (the same code there: 18.6 ms a frame beside another run, 14.68 alone on
tune deals 26,500-26,509 napoletane; here 21.4 ms on those, beside another run): the 20 ms
goal holds on the last machine, not on this one.

Held-out report (2026-11-27, twentieth session), with the cards a hand's step proposes
(`cascade`, bench_wide_scenes), deals 9,100,539-9,100,553 (never run before), 15 a deck, this
code (148291b) from a fresh clone, beside the uncalibrated still run for its first minutes:

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100539 \
        --modes calibrated --ab cascade

    deck        tracked                  ms a frame (p95)   -cascade ms   every frame ms
    napoletane  51/51, 0 false           16.28 (72.4)       14.78         39.56
    piacentine  64/64, 0 false           20.93 (106.9)      19.81         54.29
    french40    40/40, 0 false           15.12 (69.7)       13.94         39.47
    french52    59/59, 0 false           20.65 (107.7)      18.73         52.61

214/214 cards told right, 0 false reports, with and without `cascade`; tracked 0.38-0.41x the
every-frame path, 1.06-1.10x without `cascade` (18.6 ms against 17.1 over the 2,976 frames).
This machine is slower than the last session's: alone, tune deals 26,500-26,509 napoletane
(`--split tune --deals 10 --first-seed 26500 --decks napoletane --modes calibrated --ab
cascade`) ran at 14.68 ms tracked against 13.98 without (the last machine: 9.14 ms).

Held-out report (2026-11-27, nineteenth session), with `learned_on_fit` and its turned check
(bench_wide_scenes), deals 9,100,524-9,100,538 (never run before), 15 a deck, this code
(6f2d6d2), one process beside the full test suite and a still run (the ms are high for that;
the ratio is the same run's):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 15 --first-seed 9100524 \
        --modes calibrated

    cards told right, tracked; false; ms a frame tracked / every frame (ratio)
    napoletane   47/47, 0   16.80 / 45.93  (0.37x)
    piacentine   40/40, 0   25.86 / 53.56  (0.48x)
    french40     48/48, 0   13.39 / 38.54  (0.35x)
    french52     46/49, 0   15.86 / 39.78  (0.40x)   missed 9100536 3s (97% showing), 9100538
                                                    3d and 4s (whole), every frame too

181/184 (98.37%), 0 false reports (6 repeated: a card reported twice, which the cross-check
ignores). Pooled with the earlier sessions' held-out deals: 4,959/4,991 (99.36%).

Held-out report (2026-11-27, eighteenth session), with `lookalike_unseparated` and the
classifiers trained on blanked covers (bench_wide_scenes), deals 9,100,504-9,100,523 (never
run before), 20 a deck, this code (275a9ec), one process beside two still runs (the ms are
high for that; the ratio is the same run's):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 20 --first-seed 9100504 \
        --modes calibrated

    cards told right, tracked; false; ms a frame tracked / every frame (ratio)
    napoletane   87/87, 0   47.01 / 123.37  (0.38x)
    piacentine   82/83, 0   45.28 / 117.97  (0.38x)   missed 9100517 Kd, seen whole, every
                                                     frame too
    french40     64/64, 0   23.18 /  62.02  (0.37x)
    french52     75/75, 0   15.43 /  41.34  (0.37x)

308/309 (99.68%), 0 false reports. Pooled with the earlier sessions' held-out deals:
4,778/4,807 (99.40%).

Held-out report (2026-11-27, seventeenth session), with the four look-alike rules and
`keep_better_fit` (bench_wide_scenes), this code against the session's start (14257d4, a
worktree), one process each, side by side (four decks each):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100444 \
        --modes calibrated

Deals 9,100,444-9,100,473 (never run before), with `keep_better_fit`'s first form
(13a58c9): 461/464 tracked either way (napoletane 113/113, piacentine 120/122, french40
113/113, french52 115/116; missed 9100456 6c 60% showing, 9100458 Kb and 9100446 4b whole,
missed every frame too), but one false report this code made and the start did not: 9100456
frame 43, a 6 of cups nearly judged a 7, judged a 6 once fitted; the first form kept the first
outline and the classifier named a 7 there. Fixed (30daa85: a fit that names another card is
kept), then deals 9,100,474-9,100,503 (never run before), this code (30daa85):

    cards the table was told right, tracked: this code / the start; false; ms a frame tracked /
    every frame, this code (the start's tracked), frames to a report (median) this / start
    napoletane  127/127 / 127, 0   11.33 / 29.86  (0.38x; 10.98)   5 / 4
    piacentine   96/96  /  96, 0   10.03 / 25.20  (0.40x;  8.38)   4 / 4
    french40    106/106 / 106, 0   19.40 / 49.25  (0.39x; 17.24)   4 / 4
    french52    115/115 / 115, 0   21.70 / 53.92  (0.40x; 22.05)   4 / 4

444/444 either way, 0 false reports. Only napoletane ran alone; the other decks beside the
full test suite (the French ones' every frame twice as slow as alone: their ms are high for
both codes alike, so French 52's tracked 21.7 ms, the start's 22.1, say little of the 20 ms
goal; napoletane alone: 11.3 ms). Tracked, this code was 3% (napoletane, alone) to 20%
(piacentine) slower than the start's on these deals (the rules ask the classifier and
refit more), and on napoletane reports a card a frame later (median). With the earlier
sessions' held-out deals: 4,470/4,498 (99.38%).

Held-out report (2026-11-27, sixteenth session), with the last recognition's cards proposed
to the next (CameraCardSource.hinted), a change no new card explains looked at longer
(StillTracker.explained), the classifiers retrained and `rival_refit` (bench_wide_scenes):
deals of seeds never run before, 9,100,414-9,100,443, 30 a deck, calibrated, this code
(65e33bc) and the session's start (dc40a27, a worktree), two processes each (two decks each;
this code's napoletane and piacentine beside a third process), on a machine about 2.5 times
as fast as the fifteenth session's (every frame 16-29 ms):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100414 \
        --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    cards the table was told right, tracked: this code / the start; false; ms a frame
    tracked / tracked before (no hints, settled on any change) / every frame, this code
    napoletane  133/133 / 133, 0    8.93 /  8.45 / 23.31  (0.38x; the start alone: 6.17)
    piacentine  108/108 / 108, 0    6.98 /  6.47 / 18.69  (0.37x; 6.46)
    french40    128/129 / 128, 0   11.01 / 10.35 / 29.42  (0.37x; 8.33; missed 9100421 Js,
                                                            93% showing, named every frame)
    french52    123/123 / 123, 0    6.83 /  6.41 / 17.98  (0.38x; 6.45)

Together 492/493 (99.80%) either way, 0 false reports in 120 deals; the two live changes
cost 6-8% of the tracked path's time (same run) and changed no card on these deals (the
spent held-out deal 9,100,401 is what they were made for: tests/test_wide_deal.py). Under
20 ms a frame tracked on every deck. With the tenth to fifteenth sessions' held-out deals:
3,565/3,590 (99.30%).

Held-out report (2026-11-27, fifteenth session), with five rules against false stills (the
classifier yielding to named cards' outlines, the classifier's old bar on a card lying mostly
on named cards, the partial judge's separation 0.43, the nearly-sure pair's 0.3, a French
card named by its index alone needing its other corner's agreement): deals of seeds never run
before, 9,100,384-9,100,413, 30 a deck, calibrated, this code (e0d121c), two processes (two
decks each) on a machine as slow as the fourteenth session's (every frame 44-55 ms):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100384 \
        --modes calibrated --decks napoletane,piacentine  (and french40,french52)

    cards the table was told right, tracked; false; ms a frame tracked / every frame
    napoletane  105/106, 0   16.65 / 43.65  (0.38x; missed 9100406 7d, 91% showing, also
                                              every frame)
    piacentine  115/116, 0   16.03 / 44.22  (0.36x; missed 9100401 Kc, 100% showing, which
                                              every frame named: 116/116)
    french40    100/101, 0   18.69 / 49.39  (0.38x; missed 9100404 6c, 97% showing, also
                                              every frame)
    french52    109/110, 0   20.40 / 54.59  (0.37x; missed 9100390 9b, 100% showing, also
                                              every frame)

Together 429/433 (99.08%), 0 false reports in 120 deals. French52 tracked took 20.40 ms, over
the 20 ms goal on this machine (its every-frame figure 4% above the fourteenth session's,
the ratio the same). With the tenth to fourteenth sessions' held-out deals: 3,073/3,097
(99.23%). (Misses not looked at; the session's start was not run on these deals.)

Held-out report (2026-11-26, fourteenth session), with both Italian classifiers retrained,
the classifier's bar at 0.9 where both template judges agree, and a card named from a third
of it asked separation 0.45: deals of seeds never run before, 9,100,354-9,100,383, 30 a deck,
calibrated, this code (47d386c) alone after the first deck (napoletane's ran beside two
other processes), on a machine about 2.5 times as slow as the thirteenth session's (every
frame 42-52 ms):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100354 \
        --modes calibrated --decks napoletane,piacentine,french40,french52

    cards the table was told right, tracked; false; ms a frame tracked / every frame
    napoletane  119/119, 0   19.76 / 52.17  (0.38x)
    piacentine  129/129, 0   15.66 / 42.26  (0.37x)
    french40    115/115, 0   17.12 / 45.87  (0.37x)
    french52    109/110, 0   19.73 / 52.33  (0.38x; missed 9100354 Qc, 99% showing, also
                                              every frame; not looked at)

Together 472/473 (99.79%), 0 false reports in 120 deals; tracked under 20 ms a frame on this
slower machine. With the tenth to thirteenth sessions' held-out deals: 2,644/2,664 (99.25%).
(The session's start was not run on these deals.)

Held-out report (2026-11-26, thirteenth session), with a covered French card fitted to the
card its index reads, a card named whole owning only its matching cells, a covered card the
partial judge nearly names named when the classifier agrees (also once fitted to the
classifier's card) and the Napoletane classifier retrained: deals of seeds never run before,
9,100,324-9,100,353, 30 a deck, calibrated, one process, this code (129c8f1) and the session's
start (fe39b6c, a worktree, run beside another process), on a machine about three times as
fast as the twelfth session's (every frame 16-21 ms):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100324 \
        --modes calibrated --decks napoletane,piacentine,french40,french52

    cards the table was told right, tracked: this code / before; false; ms a frame tracked
    (this code / before) and every frame (this code)
    napoletane  108/108 / 108, 0    6.17 / 6.43, every frame 16.22  (0.38x)
    piacentine  116/116 / 116, 0    7.42 / 7.87, every frame 19.11  (0.39x)
    french40    108/109 / 108, 0    8.19 / 7.82, every frame 21.19  (0.39x)
    french52    112/112 / 112, 0    6.60 / 6.66, every frame 17.44  (0.38x)

Together 444/445 (99.78%) either way, 0 false reports in 120 deals; repeated reports 13
against 11 (french40 8 / 7, french52 3 / 2; not looked at). With the tenth to twelfth
sessions' held-out deals: 2,172/2,191 (99.13%).

Held-out report (2026-11-26, twelfth session), with a covered card the classifier or its
index names owning none of the view, hypotheses judged with up to 65% of them on named cards,
and a French card named by a close match refused when its index reads another: deals of
seeds never run before, 9,100,294-9,100,323, 30 a deck, calibrated, two processes (two decks
each), this code and the session's starting code (93b2852, a worktree), on a machine slower
still (every frame 46-60 ms):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100294 \
        --modes calibrated --decks napoletane,piacentine   (and french40,french52)

    cards the table was told right, tracked: this code / before; false; ms a frame tracked
    (this code / before) and every frame
    napoletane  96/98   / 95,  0   17.43 / 16.72, every frame 45.66  (0.38x)
    piacentine  113/115 / 112, 0   20.00 / 19.08, every frame 51.54  (0.39x)
    french40    101/102 / 101, 0   24.05 / 23.71, every frame 60.46  (0.40x)
    french52    109/111 / 109, 0   19.58 / 18.41, every frame 54.64  (0.36x)

Together 419/426 (98.36%) against 417 (97.89%), 0 false either way. Missed (not looked at):
napoletane 9100310 Ad 99% showing, 9100322 Qs 91%; piacentine 9100296 2s 52%, Qb 49%;
french40 9100316 6c 96%; french52 9100306 4c 96%, 2c 100%. With the tenth and eleventh
sessions' held-out deals: 1,728/1,746 (98.97%).

Held-out report (2026-11-26, eleventh session), with the classifier naming a card alone only
at 0.975 (`Thresholds.learned_alone_prob`): deals of seeds never run before, 9,100,264-
9,100,293, 30 a deck, calibrated, two processes (two decks each) on a machine about twice as
slow as the tenth session's (every frame 36-47 ms here against 18-21):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100264 \
        --modes calibrated --decks napoletane,piacentine   (and french40,french52)

    cards the table was told right: tracked / every frame; false; ms a frame tracked /
    every frame
    napoletane  111/111 / 111, 0   14.19 / 36.43  (0.39x)
    piacentine  107/107 / 107, 0   15.04 / 36.71  (0.41x)
    french40    103/104 / 103, 0   17.44 / 47.28  (0.37x)
    french52    117/117 / 117, 0   15.95 / 42.51  (0.38x)

    together: 438/439 cards (99.77%) right tracked, 0 false reports in 120 deals (the miss:
    french40 9100281, an ace 97% showing; not looked at). With the tenth session's held-out
    deals, 1,309/1,320 (99.17%). Tracked stays under 20 ms a frame on this slower machine
    (14.2-17.4); the ratio to every frame (0.37-0.41x) is the tenth session's.

Held-out report (2026-11-26, tenth session), with a hypothesis too far off to align fitted
anyway (`Options.fit_low_start`), the localiser's peaks turned 20 degrees too, the voter's
`moved` rule (a second copy of a card laid over the first) and the truth's frame edge (a card
partly outside the frame shows only its part inside); deals of seeds never run before,
calibrated, two processes (two decks each) on a quiet machine faster than the ninth
session's (every frame 18-21 ms here against 24.5-32.8):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 60 --first-seed 9100144 \
        --modes calibrated --decks napoletane,piacentine   (and french40,french52)

    cards the table was told right: tracked / every frame; false; ms a frame tracked /
    every frame
    napoletane  252/252 / 252, 0   7.77 / 19.19  (0.41x)
    piacentine  198/203 / 199, 0   7.55 / 18.08
    french40    187/192 / 188, 0   8.52 / 21.32  (0.40x)
    french52    234/234 / 234, 0   8.06 / 20.83

    together: 871/881 cards (98.86%) right tracked, 0 false reports in 240 deals; every frame
    873/881. The time goal (<= 20 ms a frame, calibrated, tracked) is met on every deck
    (7.6-8.5 ms); the accuracy goal (>= 99.5%) is not on these seeds. The misses come in
    clusters: piacentine 9100181 (a queen, a jack and a 4 showing 45-52%) and 9100190 (91-93%),
    french40 9100169 and 9100170 (a 3 seen whole in each), 9100183, 9100191 (two cards, 88-92%):
    seven deals hold the ten. Not looked at further (held-out). On tune deals 13200-13259 the
    same changes took 877/884 to 882/884 (the two left: whole cards washed out under a lamp's
    highlight), on 13260-13459 1,416/1,426 and 1,479/1,489 (after them, tracked only): of the
    20 missed there, 10 lay under a lamp's highlight of 0.6 or more (on those looked at, the
    not-felt mask takes the highlight for a card and the card for felt, and the localiser's
    heat on them is 0.18-0.33, under its 0.3 bar, 7-20 px off), two were cut by the frame's
    bottom edge, one lay 82% outside the frame (the truth no longer counts it).

    Uncalibrated (`--deals 30 --first-seed 9100204 --modes uncalibrated`, two processes, seeds
    9,100,204-9,100,233, never run before): tracked / every frame, 0 false on every path
    napoletane  106/108 / 108   15.45 / 38.43 ms
    piacentine  109/111 / 109   17.85 / 40.38 ms
    french40    113/117 / 113   18.76 / 46.52 ms
    french52    105/109 / 106   18.01 / 45.25 ms
    together 433/445 (97.30%) tracked, 436/445 every frame (the eighth session's, other seeds:
    180/186); every miss a card seen whole (the guessed pose's path had no localiser). With
    the localiser's proposals under the guess, judged whole only (`localise_when_guessed`,
    bench_wide_scenes), on seeds 9,100,234-9,100,263 (`--first-seed 9100234`, never run
    before): napoletane 123/125 (123), piacentine 106/107 (106), french40 108/109 (108),
    french52 114/116 (115): 451/457 (98.69%) tracked, 452/457 every frame, 0 false;
    17.5-23.4 ms a frame tracked against 45.0-61.4 every frame.

Held-out report (2026-11-26, ninth session), with the localiser's turned and fallback
proposals (bench_wide_scenes: +1.1 points on held-out stills); deals of seeds never run
before, calibrated (the uncalibrated path runs no localiser: its figures are the eighth
session's below), two processes (two decks each) on a quiet machine about twice as slow as
the eighth session's (every frame 24.5-32.8 ms here against 19.5-21.4):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100084 \
        --modes calibrated --decks napoletane,piacentine   (and french40,french52)
    ... --first-seed 9100114 ...   (the same, seeds 9,100,114-9,100,143)

    cards the table was told right, tracked (every frame); false (all paths); ms a frame
    tracked / every frame
    deck        9,100,084-113         9,100,114-143          ms (the two runs)
    napoletane  110/110 (110), 0      104/105 (104), 0       11.10 / 27.67   11.05 / 27.73
    piacentine  103/103 (103), 0      115/118 (115), 0       12.25 / 32.79   11.54 / 29.37
    french40     93/93  (93),  0       99/99  (99),  0       11.52 / 28.95    9.38 / 24.53
    french52    119/120 (120), 0      103/103 (103), 0       12.62 / 30.20   10.65 / 27.97

    together: 846/851 cards (99.41%) right tracked, 0 false reports in 240 deals; every frame
    847/851. Missed (the bench's new line): 9100096 4d (96% showing; named by every frame,
    not by the tracked path), 9100139 7c (94%), 9100119 6s (45%), 9100129 2d (96%), 9100141
    Qs (98%). The time goal (<= 20 ms a frame, calibrated, tracked) is met on every deck
    (9.4-12.6 ms, 0.37-0.42x every frame); the accuracy goal (>= 99.5%) nearly: the first 30
    deals a deck gave 425/426, the next 421/425 (the eighth session's, other seeds and the
    code before: 407/413, 98.5%). Four of the five missed show 94-98% of their face.

Held-out report (2026-11-26, eighth session): the tracker now waits for a still picture (a
frame unlike the one before is not looked at, at most 3 in a row: tracking.py), beside the
tracker without the wait and every frame recognised, in one run; and the recogniser's
`localiser_axis` (bench_wide_scenes). Deals of seeds never run before, two processes (one a
mode) on an otherwise quiet machine, faster than the seventh session's (every frame 19.5-21.4
ms calibrated here against 38-54 then):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --first-seed 9100042 \
        --modes calibrated          (seeds 9,100,042-9,100,071)
    .venv/bin/python -m tests.bench.bench_wide_live --deals 12 --first-seed 9100072 \
        --modes uncalibrated        (seeds 9,100,072-9,100,083)

    cards the table was told right: tracked / tracked, no wait / every frame; false (all
    paths); ms a frame tracked / no wait / every frame; report after (median frames)
    calibrated
    napoletane  113 / 113 / 113 of 113, 0   8.35 / 8.58 / 19.89   5 / 4 / 4
    piacentine   86 /  86 /  86 of 89,  0   8.02 / 8.39 / 19.52   5 / 4 / 4
    french40     99 / 100 / 101 of 101, 0   7.98 / 8.48 / 21.36   5 / 3.5 / 3
    french52    109 / 109 / 109 of 110, 0   7.72 / 8.39 / 20.30   5 / 4 / 4
    uncalibrated
    napoletane   48 /  47 /  48 of 50,  0  20.49 / 21.99 / 49.31   5 / 4 / 4
    piacentine   33 /  32 /  33 of 34,  0  19.80 / 20.65 / 47.85   5 / 4 / 4
    french40     50 /  50 /  50 of 52,  0  21.86 / 24.24 / 60.34   5 / 4 / 4
    french52     49 /  49 /  49 of 50,  0  28.31 / 31.82 / 62.55   5 / 3 / 3

    together, calibrated: 407/413 cards (98.5%) right tracked, 0 false; the time goal (<= 20
    ms a frame, calibrated, tracked) met on every deck on this machine (7.7-8.4 ms); the wait
    takes 3-8% off the tracked path's time (7-11% uncalibrated) for one more frame (0.2 s)
    before a card is reported; right cards with / without it: 407 / 408 calibrated, 180 / 178
    uncalibrated. Repeated reports (tracked) 8 calibrated, 4 uncalibrated.

Held-out report (2026-11-26, seventh session; deals of seeds never run before, calibrated):

    .venv/bin/python -m tests.bench.bench_wide_live --deals 30 --modes calibrated
        (seeds 9,100,000-9,100,029; beside one other one-core process, a still-scene run)
    .venv/bin/python -m tests.bench.bench_wide_live --deals 12 --first-seed 9100030 \
        --modes calibrated   (seeds 9,100,030-9,100,041; a quiet machine, load 0.04 before)

    cards the table was told right, tracked (every frame); false; ms a frame tracked / every
    frame, the quiet run:
    deck        9,100,000-029            9,100,030-041         quiet ms
    napoletane  97/102 (98/102), 0       44/45 (44/45), 0      20.59 / 48.48  0.42x
    piacentine  120/121 (120/121), 0     44/45 (44/45), 0      16.74 / 38.42  0.44x
    french40    111/111 (111/111), 0     39/39 (39/39), 0      21.85 / 53.70  0.41x
    french52    108/110 (108/110), 0     41/42 (41/42), 0      21.23 / 46.55  0.46x

    together: 604/615 cards (98.2%) right tracked, 605 every frame; 0 false reports;
    repeated reports 16 (tracked) and 13 (every frame) in 168 deals.

The time goal (<= 20 ms a frame, calibrated, tracked) is met for piacentine only; the others
are 0.6-1.9 ms over. A frame is dearer here than a still scene (every frame 38-54 ms against
the stills' 25-27): a deal's frames hold the hand's frames (67 ms against 47-49 for the still
ones, tune probe on 6 deals) and more cards as it goes (napoletane 34 ms with one card, 154-214
with six or seven), and nothing on the table costs 15-47 ms already (the view's remap, the
felt, the localiser's network: 3.5 ms, the hypotheses; a black felt's 47). The tracked path
recognises 41-46% of the frames: the hand's two, then three still ones to settle (the voter's
`need`), then every 10th. What would take it under: a cheaper frame when nothing is on the felt
or nothing changed where cards lie, or a longer refresh; not tried.

Tune run (2026-11-26, seventh session; `--split tune --first-seed 100 --deals 20`, a busy
machine: a test suite and another engineer's cluster benchmarks, so the ms are two to three
times a quiet machine's; the ratio is the figure), cards right / false reports / ms a frame
tracked and every frame:

    napoletane  calibrated    66/66, 0 false   41.8 / 93.3 ms  0.45x
                uncalibrated  64/66, 0 false  103.9 / 227.8 ms 0.46x
    piacentine  calibrated    77/77, 0 false   21.4 / 57.0 ms  0.38x
                uncalibrated  76/77, 0 false   77.2 / 170.0 ms 0.45x
    french40    calibrated    77/78, 0 false   27.1 / 55.5 ms  0.49x
                uncalibrated  77/78, 0 false   55.8 / 123.4 ms 0.45x
    french52    calibrated    80/80, 0 false   20.3 / 49.7 ms  0.41x
                uncalibrated  80/80, 0 false   52.6 / 120.9 ms 0.43x

Tracked and every frame named the same cards. Why the live path names more than a still
(89-91% held-out on stills): a card is seen whole as it is laid, before the next card of a
fan or cascade covers it, and the voter reports it then. The one french40 miss (seed 114, a
king of diamonds 94% visible laid over a 7 of spades, 30 px off it) is a still-scene miss too:
diagnose_wide_misses puts it in "located, refused, oracle right" (the outline examined is a
little off, the judge names the card on its true outline). A repeated report is a card
reported twice (a track that lost it and found it again, or a neighbour's outline named as it
under the next card); the cross-check ignores a sighting of a card the table already has.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace

import cv2

from devices.camera.layout import CameraPose
from devices.camera.ray_scenes import ray_deal
from devices.camera.tracking import StillTracker
from devices.camera.voting import CameraCardSource
from devices.camera.wide_scenes import WideDeal, wide_deal
from devices.camera.wide_scoring import LiveScorer, LiveTally
from tests.bench.bench_wide_scenes import DECKS, threshold_values

HELD_OUT_DEAL_BASE = 9_100_000  # no still run has used these seeds (bench_wide_scenes)
# the deals' generator (bench_wide_scenes.SOURCES): wide_scenes.py, tuned on, or ray_scenes.py,
# built apart and never tuned on
DEALS: dict[str, Callable[[int, str, str], WideDeal]] = {"wide": wide_deal, "ray": ray_deal}
FRAME_S = 0.2  # five frames a second


# the paths compared in one run: tracked or every frame recognised (the baseline); "tracked,
# before" is the tracked path as it was before the sixteenth session (2026-11-27): no hints
# (CameraCardSource.hinted) and settled on any change (StillTracker.explained off); before
# it, this column was the tracker with no wait for a still picture (the eighth's)
PATHS: dict[str, tuple[bool, bool]] = {"tracked": (True, True), "tracked, before": (True, False),
                                       "every frame": (False, True)}


def source(art: str, kind: str, deal_camera: CameraPose, calibrated: bool,
           tracked: bool, wait: int = StillTracker.wait, hinted: bool = True,
           explained: bool = True) -> CameraCardSource:
    """The table's card source for this deal's camera, as a table makes it
    (CameraCardSource.calibrated: the view made at start-up), with this deck's kind;
    `hinted`, `explained`: the sixteenth session's two changes (off: the path before)."""
    pose = deal_camera if calibrated else None
    made = CameraCardSource.calibrated(art, pose, None, kind=kind, tracked=tracked, wait=wait)
    made.hinted = hinted
    if made.tracker is not None:
        made.tracker.explained = explained
    return made


def ab_name(ab: str | None, values: dict[str, float] | None) -> str | None:
    """The A/B path's name: the switches flipped and the thresholds set (None: no A/B)."""
    parts = ([f"-{ab}"] if ab else []) + [f"{k}={v:g}" for k, v in (values or {}).items()]
    return "tracked " + " ".join(parts) if parts else None


def run_deals(deck: str, seeds: range, mode: str, ab: str | None = None,
              values: dict[str, float] | None = None, deals: str = "wide"
              ) -> dict[str, tuple[LiveTally, list[float]]]:
    """Each deal's frames through the tracked path and the every-frame path; with `ab` (an
    Options switch, or several joined by commas) or `values` (Thresholds fields) also the
    tracked path with those switches flipped and those thresholds, in the same run."""
    art, kind = DECKS[deck]
    flipped_name = ab_name(ab, values)
    names = list(PATHS) + ([flipped_name] if flipped_name else [])
    out: dict[str, tuple[LiveTally, list[float]]] = {name: (LiveTally(), []) for name in names}
    for seed in seeds:
        deal = DEALS[deals](seed, art, kind)
        paths = {name: (source(art, kind, deal.camera, mode == "calibrated", tracked,
                               hinted=now, explained=now), LiveScorer())
                 for name, (tracked, now) in PATHS.items()}
        if flipped_name:
            flipped = source(art, kind, deal.camera, mode == "calibrated", True)
            options = flipped.recognizer.options
            flipped.recognizer.options = replace(options, **{
                name: not getattr(options, name) for name in (ab.split(",") if ab else [])})
            flipped.recognizer.thresholds = replace(flipped.recognizer.thresholds,
                                                    **(values or {}))
            paths[flipped_name] = (flipped, LiveScorer())
        for n, frame in enumerate(deal.frames):
            for name, (path, scorer) in paths.items():
                t0 = time.perf_counter()
                reports = path.feed(frame.frame, n * FRAME_S)
                out[name][1].append((time.perf_counter() - t0) * 1000)
                scorer.frame(frame, reports)
        for name, (_, scorer) in paths.items():
            tally = scorer.done()
            tally.false_examples = [f"{seed} {x}" for x in tally.false_examples]
            tally.missed_examples = [f"{seed} {x}" for x in tally.missed_examples]
            out[name][0].add(tally)
    return out


def line(name: str, tally: LiveTally, ms: list[float]) -> str:
    s = sorted(ms)
    lag = statistics.median(tally.frames_to_report) if tally.frames_to_report else float("nan")
    return (f"  {name:<30} right {tally.right_pct:7.2f}% ({tally.right}/{tally.expected})  "
            f"false {tally.false:>3}  repeated {tally.repeated:>3}  report after {lag:4.1f} "
            f"frames  {statistics.mean(s):6.2f} ms/frame (p95 {s[int(0.95 * len(s))]:6.2f}, "
            f"{len(s)} frames)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--split", choices=("held-out", "tune"), default="held-out")
    parser.add_argument("--first-seed", type=int, default=None)
    parser.add_argument("--decks", default=",".join(DECKS))
    parser.add_argument("--modes", default="calibrated,uncalibrated")
    parser.add_argument("--source", choices=tuple(DEALS), default="wide",
                        help="the deals' generator: wide_scenes.py or ray_scenes.py")
    parser.add_argument("--ab", default=None, metavar="OPTION[,OPTION]",
                        help="also the tracked path with these Options switches flipped")
    parser.add_argument("--ab-threshold", action="append", default=[], metavar="NAME=VALUE",
                        help="... and with these Thresholds values")
    args = parser.parse_args()
    values = threshold_values(args.ab_threshold)
    flipped_name = ab_name(args.ab, values)
    cv2.setNumThreads(1)
    first = args.first_seed if args.first_seed is not None else (
        HELD_OUT_DEAL_BASE if args.split == "held-out" else 0)
    seeds = range(first, first + args.deals)
    split = "held-out" if first >= HELD_OUT_DEAL_BASE else "tune"  # what the seeds are
    print(f"{args.source} deals ({split}, seeds {first}..{seeds[-1]}), {args.deals} per deck, "
          "one core")
    for deck in args.decks.split(","):
        print(deck, flush=True)
        for mode in args.modes.split(","):
            runs = run_deals(deck, seeds, mode, args.ab, values, args.source)
            for name, (tally, ms) in runs.items():
                print(line(f"{mode} {name}", tally, ms), flush=True)
                if tally.false_examples:
                    print("    false:", ", ".join(tally.false_examples[:8]))
                if tally.missed_examples:
                    print("    missed:", ", ".join(tally.missed_examples[:8]))
            tracked, before, every = (statistics.mean(runs[k][1]) for k in PATHS)
            print(f"  {mode}: tracked / every frame = {tracked / every:.2f}x, tracked / "
                  f"tracked before = {tracked / before:.2f}x", flush=True)
            if flipped_name:
                flipped = statistics.mean(runs[flipped_name][1])
                print(f"  {mode}: tracked / {flipped_name} = {tracked / flipped:.2f}x",
                      flush=True)


if __name__ == "__main__":
    main()
