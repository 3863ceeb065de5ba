"""Sette e Mezzo Live: live dealer, many players on shared positions (RULES.md).

`rules.py` the pure rules, `round.py` the round as a pure state machine, `game.py` the seam
object the table core drives.
"""
