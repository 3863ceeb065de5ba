"""Rake and sharing in integer cents.

Rounding: the regulation gives only exact examples, so the rake is truncated to the cent (the
house's disfavour, as every win of the studio is truncated, never rounded, in the player's favour).
Sharing an amount among players gives each the same whole cents and the remainder one cent each
to the first players in the given order (the turn order from the payer's right).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from studio.games.sette_e_mezzo_multiplayer.table_rules import BP


def rake_cents(win: int, rake_bp: int) -> int:
    """win x 2 x rake%, truncated: EUR 10 at 5 % -> EUR 1 (the regulation's example)."""
    if win <= 0:
        return 0
    return win * 2 * rake_bp // BP


def share_cents(amount: int, recipients: Sequence[str]) -> dict[str, int]:
    """Equal shares; the remainder's cents go one each to the first recipients."""
    if not recipients:
        return {}
    each, rest = divmod(amount, len(recipients))
    return {p: each + (1 if i < rest else 0) for i, p in enumerate(recipients)}


def moved(credits: Mapping[str, int], changes: Mapping[str, int]) -> Mapping[str, int]:
    """A new read-only credits map with the changes added; the inputs are left as they were."""
    out = dict(credits)
    for p, c in changes.items():
        out[p] = out.get(p, 0) + c
    return MappingProxyType(out)
