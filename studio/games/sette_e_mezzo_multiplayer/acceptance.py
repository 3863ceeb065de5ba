"""Accepting the bank: the piatto or the maximum bet, the all-in, and refusing.

Piatto: the banker states the piatto, at least the table's minimum piatto, or all its credit
when that is less (all-in). Classica: the banker states the maximum bet it accepts from each
punter (shown with its maximum loss, maximum bet x punters); the minimum bank is the unit minimum
x punters. A banker whose credit is below that goes all-in: each punter's cover is the credit
divided by the punters, the remainder on the first punter; when that cover is below the minimum
bet, the first punters instead must bet exactly the minimum until the credit is covered (the last
of them the rest), and punters beyond the cover sit this bank out (our reading of the regulation's
"le prime punte sono obbligate a giocare la puntata minima fino a copertura totale").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.money import share_cents
from studio.games.sette_e_mezzo_multiplayer.table_rules import TableRules, Variant


def bank_range(rules: TableRules, credit: int, punters: int = 1) -> tuple[int, int]:
    """The amounts "Accetto" may carry: (lowest, highest). Piatto: the piatto; classica: the
    maximum bet per punter. A banker short of the minimum has one amount: all-in."""
    if credit <= 0:
        raise MultiplayerError("mp.no_credit", "no table credit to bank with")
    if rules.variant is Variant.PIATTO:
        return (min(rules.min_bank, credit), credit)
    if punters <= 0:
        raise MultiplayerError("mp.no_punters", "a classica bank needs punters")
    top = credit // punters
    if top < rules.min_bank:  # all-in: the whole credit, divided by the punters
        return (top, top)
    return (rules.min_bank, top)


def accept_piatto(rules: TableRules, credit: int, piatto: int) -> int:
    """The piatto the banker puts up, checked against the minimum and its credit."""
    low, high = bank_range(rules, credit)
    if piatto > high:
        raise MultiplayerError("mp.bank_above_credit", "the piatto is above the table credit")
    if piatto < low:
        raise MultiplayerError("mp.bank_below_minimum",
                               f"the piatto is at least {low} cents (all-in below the minimum)")
    return piatto


@dataclass(frozen=True, slots=True)
class ClassicaTerms:
    """What a classica banker covers. `caps`: each punter's highest stake, in turn order;
    `forced`: the punters who must bet exactly their amount (all-in banker below the minimum
    bet); punters absent from both sit this bank out."""

    max_bet: int
    max_loss: int
    all_in: bool
    caps: Mapping[str, int]
    forced: Mapping[str, int]


def accept_classica(rules: TableRules, credit: int, max_bet: int | None,
                    punters: Sequence[str], punter_credits: Mapping[str, int]) -> ClassicaTerms:
    """The banker's maximum bet (None when it is all-in and has no choice to make)."""
    low, high = bank_range(rules, credit, len(punters))
    all_in = high < rules.min_bank
    if all_in:
        return _all_in_terms(rules, credit, punters, punter_credits)
    if max_bet is None or max_bet < low:
        raise MultiplayerError("mp.bank_below_minimum",
                               f"the maximum bet is at least {low} cents a punter")
    if max_bet > high:
        raise MultiplayerError("mp.bank_above_credit",
                               "the maximum loss (maximum bet x punters) is above the credit")
    return ClassicaTerms(max_bet, max_bet * len(punters), False,
                         {p: max_bet for p in punters}, {})


def _all_in_terms(rules: TableRules, credit: int, punters: Sequence[str],
                  punter_credits: Mapping[str, int]) -> ClassicaTerms:
    base, rest = divmod(credit, len(punters))
    if base >= rules.min_bet:
        caps = {p: base + (rest if i == 0 else 0) for i, p in enumerate(punters)}
        return ClassicaTerms(base, credit, True, caps, {})
    forced: dict[str, int] = {}
    left = credit
    for p in punters:
        if left <= 0:
            break
        amount = min(rules.min_bet, left, punter_credits.get(p, 0))
        if amount > 0:
            forced[p] = amount
            left -= amount
    return ClassicaTerms(base, credit - left, True, {}, forced)


def tournament_refusal_penalty(rules: TableRules, credit: int, refuser: str,
                               others_in_turn: Sequence[str]) -> dict[str, int]:
    """A tournament bank may not be refused: in sitout or silent past the time limit, the player
    loses half the minimum piatto (or all its credit if less), shared among the other seated
    players (`others_in_turn`, from its right; the remainder's cents to the first of them).
    Returns the credit changes."""
    if not rules.tournament:
        raise MultiplayerError("mp.not_a_tournament", "cash tables refuse freely")
    lost = min(rules.min_bank // 2, credit)
    shares = share_cents(lost, [p for p in others_in_turn if p != refuser])
    return {refuser: -(lost if shares else 0), **shares}
