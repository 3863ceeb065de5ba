"""Sette e Mezzo Quota Fissa: one player against the bank, cards from an RNG. Pure rules.

Same cards, values and wild matta as every Sette e Mezzo (the bank's matta too); no Royal bonus.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from studio.games.sette_e_mezzo import FIVE, SETTE_E_MEZZO, SEVEN, Hand
from studio.odds import returned_cents


def must_hit(player: Hand, bank_first: Hand) -> bool:
    """The player must hit while below the bank's card, and must hit a lone matta."""
    if player.bust:
        return False
    return player.is_lone_matta or player.total < bank_first.total


def may_hit(player: Hand, bank_first: Hand) -> bool:
    """Free choice: not forced, not bust, and not at 7 1/2 (which cannot hit)."""
    return (
        not player.bust
        and player.total < SETTE_E_MEZZO
        and not must_hit(player, bank_first)
    )


def bank_must_draw(bank: Hand) -> bool:
    """The bank draws while below 5 and stands on 5 or more, whatever the player holds."""
    return bank.total < FIVE


class Result(StrEnum):
    LOSE = "lose"
    PUSH = "push"
    WIN = "win"


def settle(player: Hand, bank: Hand) -> Result:
    """A bust player loses at once; a bank bust pays; higher total wins; every tie is a push."""
    if player.bust:
        return Result.LOSE
    if bank.bust:
        return Result.WIN
    if player.total > bank.total:
        return Result.WIN
    if player.total < bank.total:
        return Result.LOSE
    return Result.PUSH


def returned(stake: int, result: Result, win_odds: Fraction) -> int:
    if result is Result.WIN:
        return returned_cents(stake, win_odds)
    return stake if result is Result.PUSH else 0


def net(result: Result, win_odds: Fraction) -> Fraction:
    return {Result.WIN: win_odds, Result.PUSH: Fraction(0), Result.LOSE: Fraction(-1)}[result]


def disconnected_player_hits(player: Hand, bank_first: Hand) -> bool:
    """The choice the system makes for a player who has not come back within a week
    (the regulation): a first-card matta hits; against a bank matta the player hits up to 7;
    otherwise the player hits below 5 or below the bank's total, and stands otherwise.
    """
    if must_hit(player, bank_first):
        return True
    if not may_hit(player, bank_first):
        return False
    if bank_first.is_lone_matta:
        return player.total < SEVEN
    return player.total < FIVE or player.total < bank_first.total
