"""Sette e Mezzo multiplayer (piatto and classica): players bank for each other. Pure rules.

RULES.md "Sette e Mezzo multiplayer" and seeds/sette-e-mezzo-multiplayer.it.txt. Hand values come
from `studio.games.sette_e_mezzo` (halves, the wild matta); this package adds who banks, how a
bank is accepted, the two ways of playing it, the rake, automatic play and the buttons. Every step
is a pure function on frozen dataclasses: a refusal raises `MultiplayerError` with a stable code
and leaves the state as it was. Cards and shuffles are inputs (the table's RNG shoe supplies them).
"""
