"""Automatic play for a player in sitout after its stake or acceptance ("alla regola").

The player picks a threshold for each role among 3 / 4 / 5 / 6 / 6 1/2; the regulation's default
is 4 1/2, which is not among the choices: kept literally as the default (RULES.md). As punter it
stands from its threshold. As banker: against a punter who stood without drawing, it stands from
its threshold; against a punter who drew, it stands once it beats the punter's visible (drawn)
cards by 1/2 point, the threshold playing no part. In classica the banker faces several punters:
our reading takes the strictest of those requirements over the punters still standing. A lone
matta always draws and 7 1/2 always stands, whatever the threshold. Settings are fixed when the
player sits down (changes apply from the next table entered), so the table passes them in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from studio.cards import Card
from studio.games.sette_e_mezzo import SETTE_E_MEZZO
from studio.games.sette_e_mezzo_multiplayer.classica import ClassicaBank
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.hands import hand, may_hit
from studio.games.sette_e_mezzo_multiplayer.piatto import PiattoBank
from studio.games.sette_e_mezzo_multiplayer.turns import Phase

THRESHOLDS: tuple[int, ...] = (6, 8, 10, 12, 13)  # 3, 4, 5, 6, 6 1/2 in halves
DEFAULT_THRESHOLD = 9  # 4 1/2, the regulation's literal default


@dataclass(frozen=True, slots=True)
class AutoPlay:
    """A player's thresholds, in halves: stand from `punter` as punter, from `banker` as banker
    when the punter stood."""

    punter: int = DEFAULT_THRESHOLD
    banker: int = DEFAULT_THRESHOLD

    def __post_init__(self) -> None:
        for t in (self.punter, self.banker):
            if t not in (*THRESHOLDS, DEFAULT_THRESHOLD):
                raise MultiplayerError("mp.bad_threshold",
                                       "stand from 3, 4, 5, 6 or 6 1/2 (default 4 1/2)")


def punter_hits(cards: Sequence[Card], settings: AutoPlay) -> bool:
    """Draw below the threshold (a lone matta, worth 1/2, always draws)."""
    return may_hit(cards) and hand(cards).total < settings.punter


def banker_hits(banker_cards: Sequence[Card], punters: Iterable[Sequence[Card]],
                settings: AutoPlay) -> bool:
    """The banker's automatic choice against the punters still standing (their whole hands:
    only the drawn cards, after the first, are looked at)."""
    h = hand(banker_cards)
    if h.is_lone_matta:
        return True
    if h.total >= SETTE_E_MEZZO:
        return False
    need = 0
    for cards in punters:
        if hand(cards).bust:
            continue
        drawn = cards[1:]
        need = max(need, hand(drawn).total + 1 if drawn else settings.banker)
    return h.total < need


def auto_hits(bank: PiattoBank | ClassicaBank, settings: Mapping[str, AutoPlay]) -> bool:
    """The choice the system makes now for the decider of `bank` ("Tiro" when True). Only for a
    decision after the stake (a punter in sitout before it does not play)."""
    player = bank.decider
    if player is None or bank.phase not in (Phase.PUNTER, Phase.BANKER):
        raise MultiplayerError("mp.no_automatic_decision", "no decision the system can make now")
    mine = settings.get(player, AutoPlay())
    if isinstance(bank, PiattoBank):
        if bank.phase is Phase.PUNTER:
            return punter_hits(bank.punter_cards, mine)
        return banker_hits(bank.banker_cards, [bank.punter_cards], mine)
    if bank.phase is Phase.PUNTER:
        return punter_hits(bank.hands[player], mine)
    return banker_hits(bank.banker_cards, [bank.hands[p] for p in bank.stakes], mine)
