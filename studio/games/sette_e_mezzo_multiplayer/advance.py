"""Decisions set in advance ("in alcuni casi il giocatore potrà impostare la sua decisione ancor
prima che tocchi a lui"); "Remove" undoes one.

Our reading of "some cases": a player of the bank who already holds its card and whose turn has
not come yet: in classica a punter waiting for its turn (with its stake, as its first decision
carries one), and in both variants the banker while the punters play. The cards such a decision
rests on cannot change before the turn comes, so it is checked once, when set, and applied
unchanged when the turn arrives (the table calls `apply`); a preset whose cards are gone (a piatto
banker's hand that ended before its turn, the punter having bust) is dropped unplayed. Presets
are plain data kept by the table beside the bank.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from studio.cards import Card
from studio.games.sette_e_mezzo_multiplayer import classica, piatto
from studio.games.sette_e_mezzo_multiplayer.classica import ClassicaBank
from studio.games.sette_e_mezzo_multiplayer.hands import check_decision
from studio.games.sette_e_mezzo_multiplayer.piatto import PiattoBank
from studio.games.sette_e_mezzo_multiplayer.turns import Phase, check_stake, require

Presets = Mapping[str, "Preset"]


@dataclass(frozen=True, slots=True)
class Preset:
    """"Tiro" (hit) or "Sto", with the stake when the decision is the punter's first."""

    hit: bool
    amount: int | None = None
    on: tuple[int, tuple[Card, ...]] | None = None  # the hand and cards it was set against


def may_preset(bank: PiattoBank | ClassicaBank, player: str) -> bool:
    if bank.phase is Phase.OVER or bank.decider == player:
        return False
    if player == bank.banker:
        return bool(bank.banker_cards) and bank.phase is not Phase.BANKER
    return (isinstance(bank, ClassicaBank) and player in bank.punters
            and bank.punters.index(player) > bank.turn and bool(bank.hands[player])
            and player not in bank.sitout)


def set_preset(presets: Presets, bank: PiattoBank | ClassicaBank, player: str,
               preset: Preset) -> Presets:
    """Record a decision in advance, checked now against the player's cards and stake range."""
    require(may_preset(bank, player), "mp.preset_not_allowed",
            "a decision can be set in advance only while waiting for one's turn")
    if player == bank.banker:
        require(preset.amount is None, "mp.preset_no_stake", "the banker stakes nothing")
        check_decision(bank.banker_cards, preset.hit)
    else:
        assert isinstance(bank, ClassicaBank)
        require(preset.amount is not None, "mp.preset_needs_stake", "the stake comes first")
        low, high = bank.stake_range(player)
        check_stake(preset.amount or 0, bank.credits[player], low, high,
                    "mp.stake_above_maximum")
        check_decision(bank.hands[player], preset.hit)
    return MappingProxyType({**presets, player: replace(preset, on=_holding(bank, player))})


def remove_preset(presets: Presets, player: str) -> Presets:
    """"Remove": the decision is made by hand again (nothing to remove is no error)."""
    return MappingProxyType({p: d for p, d in presets.items() if p != player})


def drop_stale(bank: PiattoBank | ClassicaBank, presets: Presets) -> Presets:
    """Only presets set against the cards the player still holds stay."""
    return MappingProxyType({p: d for p, d in presets.items() if d.on == _holding(bank, p)})


def apply(bank: PiattoBank | ClassicaBank, presets: Presets
          ) -> tuple[PiattoBank | ClassicaBank, Presets]:
    """Play the decider's preset, if it has one, and drop it (and any stale one); otherwise
    nothing changes."""
    presets = drop_stale(bank, presets)
    player = bank.decider
    if player is None or player not in presets:
        return bank, presets
    preset = presets[player]
    module = piatto if isinstance(bank, PiattoBank) else classica
    if bank.phase is Phase.STAKE and preset.amount is not None:
        bank = module.stake(bank, player, preset.amount, preset.hit)  # type: ignore[arg-type]
    else:
        bank = module.decide(bank, player, preset.hit)  # type: ignore[arg-type]
    return bank, remove_preset(presets, player)


def _holding(bank: PiattoBank | ClassicaBank, player: str) -> tuple[int, tuple[Card, ...]]:
    """The hand (a piatto bank plays one a punter, a classica bank one in all) and the cards
    `player` holds in it."""
    if isinstance(bank, ClassicaBank):
        cards = bank.banker_cards if player == bank.banker else bank.hands.get(player, ())
        return 0, cards
    if player == bank.banker:
        return bank.turn, bank.banker_cards
    return bank.turn, bank.punter_cards if player == bank.punter else ()
