"""The piatto variant: the banker puts up a piatto and plays one punter at a time.

One punter at a time from the banker's right: at its turn a cash punter says "Gioco" or "Non
gioco" (in tournaments it must play); then a face-down card to it and one to the banker; it
stakes (between the minimum and the piatto, all-in below the minimum) and says "Sto" or "Tiro"
(drawn cards face up); a punter bust loses at once; otherwise the banker reveals and draws or
stands. A win is paid from the piatto at once, net of rake; a loss enters the piatto net of rake.
The bank ends when a punter who staked the whole piatto wins (the piatto is then empty) or every
punter has played; the banker then takes what the piatto holds. The cards are shuffled at the
bank's start and at the end of any hand in which the matta came out.

Sitout: a punter in sitout when its turn comes, or before it has staked, does not play; in a
tournament it loses half the minimum bet (or all its credit if less) to the bank, which our
reading puts into the piatto. After staking, the system plays for it (`autoplay`). When the
piatto holds less than the minimum bet, the stake is the whole piatto (our reading).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from studio.cards import Card
from studio.games.sette_e_mezzo_multiplayer.acceptance import accept_piatto
from studio.games.sette_e_mezzo_multiplayer.banker import Seats
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.hands import Shoe, banker_wins, check_decision, hand
from studio.games.sette_e_mezzo_multiplayer.money import moved, rake_cents
from studio.games.sette_e_mezzo_multiplayer.table_rules import TableRules, Variant
from studio.games.sette_e_mezzo_multiplayer.turns import (
    Deal,
    HandResult,
    Phase,
    Turns,
    add_rebuy,
    banker_decides,
    check_stake,
    credit_rebuys,
    punters_of,
    require,
    require_actor,
    with_sitout,
)


@dataclass(frozen=True, slots=True)
class PiattoBank(Turns):
    """A piatto bank in play. `credits` are table credits outside the piatto and the stake."""

    rules: TableRules
    banker: str
    punters: tuple[str, ...]
    credits: Mapping[str, int]
    piatto: int
    rake: int = 0
    turn: int = 0
    phase: Phase = Phase.JOIN
    expecting: Deal | None = None
    shoe: Shoe = field(default_factory=Shoe)
    punter_cards: tuple[Card, ...] = ()
    banker_cards: tuple[Card, ...] = ()
    stake: int = 0
    sitout: frozenset[str] = frozenset()
    results: tuple[HandResult, ...] = ()
    skipped: frozenset[str] = frozenset()  # punters who did not play (sitout, "Non gioco")
    fines: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # tournament
    rebuys: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # pending

    def total_money(self) -> int:
        return (sum(self.credits.values()) + sum(self.rebuys.values()) + self.piatto + self.stake
                + self.rake)


def open_bank(rules: TableRules, seats: Seats, banker: str, piatto: int,
              credits: Mapping[str, int], sitout: Collection[str] = ()) -> PiattoBank:
    """The banker accepted with `piatto` (checked); the punters are fixed now."""
    require(rules.variant is Variant.PIATTO, "mp.wrong_variant", "not a piatto table")
    require(banker not in sitout, "mp.banker_in_sitout", "a banker in sitout does not accept")
    accept_piatto(rules, credits.get(banker, 0), piatto)
    bank = PiattoBank(rules, banker, punters_of(seats, banker, sitout, credits),
                      moved(credits, {banker: -piatto}), piatto,
                      sitout=frozenset(sitout))
    return _arrive(bank)


def shuffled(bank: PiattoBank) -> PiattoBank:
    """The table shuffled the cards (due at the bank's start and after a hand with the matta)."""
    return replace(bank, shoe=bank.shoe.shuffled(bank.punter_cards + bank.banker_cards))


def join(bank: PiattoBank, player: str, plays: bool) -> PiattoBank:
    """"Gioco" / "Non gioco" of the punter in turn; in tournaments every punter must play."""
    require_actor(bank.phase, bank.expecting, bank.decider, player, (Phase.JOIN,))
    if not plays:
        require(not bank.rules.tournament, "mp.must_play_in_tournament",
                "in a tournament every punter plays")
        return _arrive(replace(bank, skipped=bank.skipped | {player}, turn=bank.turn + 1))
    return replace(bank, phase=Phase.STAKE, expecting=Deal(player, False))


def deal(bank: PiattoBank, card: Card) -> PiattoBank:
    """The card the table dealt to `bank.expecting`."""
    require(bank.expecting is not None, "mp.no_card_expected", "no card is due now")
    shoe = bank.shoe.deal(card)
    to = bank.expecting
    assert to is not None
    if to.player == bank.banker:
        bank = replace(bank, shoe=shoe, banker_cards=(*bank.banker_cards, card), expecting=None)
        if to.face_up and hand(bank.banker_cards).bust:
            return _settle(bank)
        return bank
    bank = replace(bank, shoe=shoe, punter_cards=(*bank.punter_cards, card), expecting=None)
    if not to.face_up:
        return replace(bank, expecting=Deal(bank.banker, False))
    if hand(bank.punter_cards).bust:
        return _settle(bank)  # a punter bust loses at once: the banker does not play
    return bank


def stake(bank: PiattoBank, player: str, amount: int, hit: bool) -> PiattoBank:
    """The punter's stake, then "Tiro" (hit) or "Sto"."""
    require_actor(bank.phase, bank.expecting, bank.decider, player, (Phase.STAKE,))
    check_stake(amount, bank.credits[player], bank.rules.min_bet, bank.piatto,
                "mp.stake_above_piatto")
    check_decision(bank.punter_cards, hit)
    bank = replace(bank, stake=amount, phase=Phase.PUNTER,
                   credits=moved(bank.credits, {player: -amount}))
    return _punter_decides(bank, hit)


def decide(bank: PiattoBank, player: str, hit: bool) -> PiattoBank:
    """"Sto" / "Tiro" of the punter (after its stake) or of the banker."""
    require_actor(bank.phase, bank.expecting, bank.decider, player, (Phase.PUNTER, Phase.BANKER))
    if bank.phase is Phase.PUNTER:
        check_decision(bank.punter_cards, hit)
        return _punter_decides(bank, hit)
    return banker_decides(bank, hit, _settle)


def set_sitout(bank: PiattoBank, player: str, on: bool) -> PiattoBank:
    """Sitout (by choice or a timed-out decision) or "sono tornato". A punter in turn that has
    not staked yet does not play this hand; after staking, and for the banker, `autoplay` plays."""
    bank = with_sitout(bank, player, on)
    if on and player == bank.punter and bank.phase in (Phase.JOIN, Phase.STAKE):
        return _arrive(bank)
    return bank


def rebuy(bank: PiattoBank, player: str, amount: int) -> PiattoBank:
    """More table credit: at once between hands, at the end of the hand during one."""
    return add_rebuy(bank, player, amount, bank.phase not in (Phase.JOIN, Phase.OVER))


def _punter_decides(bank: PiattoBank, hit: bool) -> PiattoBank:
    if hit:
        return replace(bank, expecting=Deal(bank.punters[bank.turn], True))
    return replace(bank, phase=Phase.BANKER)  # the banker reveals its card and plays


def _settle(bank: PiattoBank) -> PiattoBank:
    """Pay the hand from or into the piatto, net of the winner's rake, then the next punter."""
    punter = bank.punters[bank.turn]
    won_by_banker = banker_wins(hand(bank.punter_cards), hand(bank.banker_cards))
    rake = rake_cents(bank.stake, bank.rules.rake_bp)
    if won_by_banker:
        credits, piatto = bank.credits, bank.piatto + bank.stake - rake
    else:
        credits = moved(bank.credits, {punter: 2 * bank.stake - rake})
        piatto = bank.piatto - bank.stake
    result = HandResult(punter, bank.stake, won_by_banker, rake, bank.punter_cards,
                        bank.banker_cards)
    matta_out = any(c.is_matta for c in bank.punter_cards + bank.banker_cards)
    bank = replace(bank, credits=credits, piatto=piatto, rake=bank.rake + rake, stake=0,
                   results=(*bank.results, result), punter_cards=(), banker_cards=(),
                   shoe=replace(bank.shoe, shuffle_due=bank.shoe.shuffle_due or matta_out),
                   turn=bank.turn + 1)
    if piatto == 0:
        return _close(bank)  # the punter staked the whole piatto and won
    return _arrive(bank)


def _arrive(bank: PiattoBank) -> PiattoBank:
    """Move the turn to the next punter who plays: skip (cash) or fine (tournament) a punter in
    sitout, or one with no credit; close the bank after the last punter. A hand has just ended
    (or none has begun): the rebuys made during it are credited."""
    bank = credit_rebuys(bank)
    while bank.punter is not None:
        p = bank.punter
        if p not in bank.sitout and bank.credits[p] > 0:
            return replace(bank, phase=Phase.JOIN, expecting=None, stake=0)
        credits, piatto = bank.credits, bank.piatto
        if bank.rules.tournament and p in bank.sitout:
            fine = min(bank.rules.min_bet // 2, credits[p])
            credits = moved(credits, {p: -fine})
            piatto += fine
            bank = replace(bank, fines=moved(bank.fines, {p: fine}))
        matta_out = any(c.is_matta for c in bank.punter_cards + bank.banker_cards)
        bank = replace(bank, credits=credits, piatto=piatto, turn=bank.turn + 1,
                       skipped=bank.skipped | {p}, punter_cards=(), banker_cards=(),
                       expecting=None,
                       shoe=replace(bank.shoe, shuffle_due=bank.shoe.shuffle_due or matta_out))
    return _close(bank)


def _close(bank: PiattoBank) -> PiattoBank:
    """The banker takes what the piatto holds."""
    bank = credit_rebuys(bank)
    credits = moved(bank.credits, {bank.banker: bank.piatto})
    return replace(bank, credits=credits, piatto=0, phase=Phase.OVER, expecting=None)


__all__ = ["MultiplayerError", "PiattoBank", "deal", "decide", "join", "open_bank", "rebuy",
           "set_sitout", "shuffled", "stake"]
