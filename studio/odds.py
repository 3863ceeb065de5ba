"""Payout odds ("X:Y") and the money they return, in integer cents.

"X:1" means the stake comes back plus X times the stake (RULES.md). Wins are truncated, never
rounded, to the cent.
"""

from __future__ import annotations

from fractions import Fraction


class OddsError(ValueError):
    code = "config.bad_odds"


def parse_odds(text: str) -> Fraction:
    """'3:2' -> 3/2, '55:1' -> 55. Rejects anything that is not two non-negative integers."""
    parts = str(text).split(":")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise OddsError(f"odds must look like 'X:Y' with whole numbers, got {text!r}")
    num, den = (int(p) for p in parts)
    if den == 0:
        raise OddsError(f"odds {text!r} divide by zero")
    return Fraction(num, den)


def format_odds(odds: Fraction) -> str:
    return f"{odds.numerator}:{odds.denominator}"


def win_cents(stake: int, odds: Fraction) -> int:
    """The win on top of the stake, truncated to the cent."""
    if stake < 0:
        raise ValueError("stake must not be negative")
    return stake * odds.numerator // odds.denominator


def returned_cents(stake: int, odds: Fraction) -> int:
    """Stake plus win: what a winning bet pays back."""
    return stake + win_cents(stake, odds)
