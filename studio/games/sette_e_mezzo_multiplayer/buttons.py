"""The buttons a player sees now: only those it may press, with the amounts they may carry.

"Accetto" with the piatto or maximum bet (the bank offer); "Gioco" / "Non gioco" (piatto, the
punter in turn; a tournament punter sees only "Gioco"); the stake then "Sto" / "Tiro" (the
punter's first decision, one button carrying the amount); "Sto" / "Tiro" afterwards; the banker's
"Sto" / "Tiro". A lone matta hides "Sto"; 7 1/2 hides "Tiro". While waiting for its turn, a
player who may set its decision in advance sees the same buttons (`advance_buttons`), and
"Remove" once one is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studio.cards import Card
from studio.games.sette_e_mezzo_multiplayer.acceptance import bank_range
from studio.games.sette_e_mezzo_multiplayer.advance import Presets, may_preset
from studio.games.sette_e_mezzo_multiplayer.classica import ClassicaBank
from studio.games.sette_e_mezzo_multiplayer.hands import may_hit, may_stand
from studio.games.sette_e_mezzo_multiplayer.piatto import PiattoBank
from studio.games.sette_e_mezzo_multiplayer.table_rules import TableRules
from studio.games.sette_e_mezzo_multiplayer.turns import Phase

ACCETTO = "Accetto"
GIOCO = "Gioco"
NON_GIOCO = "Non gioco"
STO = "Sto"
TIRO = "Tiro"
REMOVE = "Remove"


@dataclass(frozen=True, slots=True)
class Button:
    """A button; `low`/`high` bound the amount it carries (None when it carries none)."""

    label: str
    low: int | None = None
    high: int | None = None


def offer_buttons(rules: TableRules, credit: int, punters: int) -> tuple[Button, ...]:
    """The bank offered to a player: "Accetto" with the amount range (the piatto, or the
    maximum bet per punter in classica, whose maximum loss is that x punters)."""
    if credit <= 0 or punters <= 0:
        return ()
    low, high = bank_range(rules, credit, punters)
    return (Button(ACCETTO, low, high),)


def buttons(bank: PiattoBank | ClassicaBank, player: str) -> tuple[Button, ...]:
    """What `player` may press now in `bank` (nothing when it is not its decision)."""
    if bank.decider != player:
        return ()
    if bank.phase is Phase.JOIN:
        return (Button(GIOCO),) if bank.rules.tournament else (Button(GIOCO), Button(NON_GIOCO))
    if bank.phase is Phase.BANKER:
        return _sto_tiro(bank.banker_cards)
    cards = bank.punter_cards if isinstance(bank, PiattoBank) else bank.hands[player]
    if bank.phase is Phase.PUNTER:
        return _sto_tiro(cards)
    low, high = _stake_range(bank, player)
    return tuple(Button(b.label, low, high) for b in _sto_tiro(cards))


def advance_buttons(bank: PiattoBank | ClassicaBank, player: str, presets: Presets
                    ) -> tuple[Button, ...]:
    """Before its turn: the decision it may set in advance, or "Remove" once it has one."""
    if player in presets:
        return (Button(REMOVE),)
    if not may_preset(bank, player):
        return ()
    if player == bank.banker:
        return _sto_tiro(bank.banker_cards)
    assert isinstance(bank, ClassicaBank)
    low, high = bank.stake_range(player)
    return tuple(Button(b.label, low, high) for b in _sto_tiro(bank.hands[player]))


def _stake_range(bank: PiattoBank | ClassicaBank, player: str) -> tuple[int, int]:
    if isinstance(bank, ClassicaBank):
        return bank.stake_range(player)
    high = min(bank.piatto, bank.credits[player])
    return min(bank.rules.min_bet, high), high


def _sto_tiro(cards: Sequence[Card]) -> tuple[Button, ...]:
    out = []
    if may_stand(cards):
        out.append(Button(STO))
    if may_hit(cards):
        out.append(Button(TIRO))
    return tuple(out)
