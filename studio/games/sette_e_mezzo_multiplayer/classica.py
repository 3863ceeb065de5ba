"""The classica variant: the banker plays every punter at once, one hand a bank.

The banker states its maximum bet (`acceptance.accept_classica`). Every punter of the bank gets a
face-down card, in turn from the banker's right, then the banker one; each punter in turn stakes
(between the minimum and the banker's maximum, or the amount an all-in banker forces) and says
"Sto" / "Tiro"; then the banker reveals and plays, unless every punter is bust or out. Everything
is settled at the end of the bank: a winning punter pays rake on its win, the banker on the bank's
net result if positive. The cards are shuffled only at the bank's start (the matta changes
nothing), and the bank passes at its end.

Sitout: a banker in sitout while stakes are still to be placed ("at betting time") pays every
punter twice the minimum bet (its whole credit shared, if less) and loses; the stakes already
placed go back. After every stake is in, the system plays for it. A punter in sitout at its turn
to stake does not play; after staking, the system plays for it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from studio.cards import Card
from studio.games.sette_e_mezzo_multiplayer.acceptance import ClassicaTerms, accept_classica
from studio.games.sette_e_mezzo_multiplayer.banker import Seats
from studio.games.sette_e_mezzo_multiplayer.hands import Shoe, banker_wins, check_decision, hand
from studio.games.sette_e_mezzo_multiplayer.money import moved, rake_cents, share_cents
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
class ClassicaBank(Turns):
    """A classica bank in play. `credits` are table credits outside the stakes on the table."""

    rules: TableRules
    banker: str
    terms: ClassicaTerms
    punters: tuple[str, ...]  # dealt in, in turn order
    credits: Mapping[str, int]
    hands: Mapping[str, tuple[Card, ...]]
    stakes: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    banker_cards: tuple[Card, ...] = ()
    turn: int = 0
    phase: Phase = Phase.STAKE
    expecting: Deal | None = None
    shoe: Shoe = field(default_factory=Shoe)
    sitout: frozenset[str] = frozenset()
    out: frozenset[str] = frozenset()  # punters who did not play (sitout at their turn)
    rake: int = 0
    results: tuple[HandResult, ...] = ()
    sitout_penalty: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    rebuys: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # pending

    def stake_range(self, player: str) -> tuple[int, int]:
        """(lowest, highest) stake of `player` now; an all-in banker may force one amount."""
        credit = self.credits[player]
        if player in self.terms.forced:
            amount = self.terms.forced[player]
            return amount, amount
        high = min(self.terms.caps[player], credit)
        return min(self.rules.min_bet, high), high

    def total_money(self) -> int:
        return (sum(self.credits.values()) + sum(self.rebuys.values())
                + sum(self.stakes.values()) + self.rake)


def open_bank(rules: TableRules, seats: Seats, banker: str, max_bet: int | None,
              credits: Mapping[str, int], sitout: Collection[str] = ()) -> ClassicaBank:
    """The banker accepted with `max_bet` (checked; None for an all-in banker). A banker in
    sitout at betting time pays the penalty at once and the bank is over."""
    require(rules.variant is Variant.CLASSICA, "mp.wrong_variant", "not a classica table")
    candidates = punters_of(seats, banker, sitout, credits)
    require(bool(candidates), "mp.no_punters", "a classica bank needs punters")
    terms = accept_classica(rules, credits.get(banker, 0), max_bet, candidates, credits)
    dealt_in = tuple(p for p in candidates if p in terms.caps or p in terms.forced)
    bank = ClassicaBank(rules, banker, terms, dealt_in, moved(credits, {}),
                        MappingProxyType({p: () for p in dealt_in}), sitout=frozenset(sitout),
                        expecting=Deal(dealt_in[0], False))
    if banker in sitout:
        return _banker_sitout(bank)
    return bank


def shuffled(bank: ClassicaBank) -> ClassicaBank:
    """The table shuffled the cards (at the bank's start; or a shoe run dry mid-hand)."""
    in_play = [c for cards in bank.hands.values() for c in cards] + list(bank.banker_cards)
    return replace(bank, shoe=bank.shoe.shuffled(in_play))


def deal(bank: ClassicaBank, card: Card) -> ClassicaBank:
    """The card the table dealt to `bank.expecting`: first round face down, punters then the
    banker; then the drawn cards face up."""
    require(bank.expecting is not None, "mp.no_card_expected", "no card is due now")
    to = bank.expecting
    assert to is not None
    shoe = bank.shoe.deal(card)
    if to.player == bank.banker:
        bank = replace(bank, shoe=shoe, banker_cards=(*bank.banker_cards, card), expecting=None)
        if not to.face_up:
            return _arrive(bank)  # every first card is out: the first punter plays
        return _settle(bank) if hand(bank.banker_cards).bust else bank
    cards = (*bank.hands[to.player], card)
    bank = replace(bank, shoe=shoe, hands=moved_hands(bank.hands, to.player, cards),
                   expecting=None)
    if not to.face_up:
        i = bank.punters.index(to.player) + 1
        nxt = bank.punters[i] if i < len(bank.punters) else bank.banker
        return replace(bank, expecting=Deal(nxt, False))
    if hand(cards).bust:
        return _arrive(replace(bank, turn=bank.turn + 1))  # it loses; settled at the end
    return bank


def stake(bank: ClassicaBank, player: str, amount: int, hit: bool) -> ClassicaBank:
    """The punter's stake, then "Tiro" (hit) or "Sto"."""
    require_actor(bank.phase, bank.expecting, bank.decider, player, (Phase.STAKE,))
    low, high = bank.stake_range(player)
    check_stake(amount, bank.credits[player], low, high, "mp.stake_above_maximum")
    check_decision(bank.hands[player], hit)
    bank = replace(bank, stakes=moved(bank.stakes, {player: amount}), phase=Phase.PUNTER,
                   credits=moved(bank.credits, {player: -amount}))
    return _punter_decides(bank, player, hit)


def decide(bank: ClassicaBank, player: str, hit: bool) -> ClassicaBank:
    """"Sto" / "Tiro" of the punter in turn (after its stake) or of the banker."""
    require_actor(bank.phase, bank.expecting, bank.decider, player, (Phase.PUNTER, Phase.BANKER))
    if bank.phase is Phase.PUNTER:
        check_decision(bank.hands[player], hit)
        return _punter_decides(bank, player, hit)
    return banker_decides(bank, hit, _settle)


def set_sitout(bank: ClassicaBank, player: str, on: bool) -> ClassicaBank:
    """Sitout or "sono tornato"; see the module's docstring for what it costs and when."""
    bank = with_sitout(bank, player, on)
    if not on:
        return bank
    if player == bank.banker and bank.phase is not Phase.BANKER and _stakes_to_come(bank):
        return _banker_sitout(bank)
    if player == bank.punter and bank.phase is Phase.STAKE and bank.expecting is None:
        return _arrive(bank)
    return bank


def rebuy(bank: ClassicaBank, player: str, amount: int) -> ClassicaBank:
    """More table credit: the bank is one hand, so it is credited when the bank is over."""
    return add_rebuy(bank, player, amount, bank.phase is not Phase.OVER)


def moved_hands(hands: Mapping[str, tuple[Card, ...]], player: str,
                cards: tuple[Card, ...]) -> Mapping[str, tuple[Card, ...]]:
    return MappingProxyType({**hands, player: cards})


def _stakes_to_come(bank: ClassicaBank) -> bool:
    return any(p not in bank.stakes and p not in bank.out for p in bank.punters)


def _punter_decides(bank: ClassicaBank, player: str, hit: bool) -> ClassicaBank:
    if hit:
        return replace(bank, expecting=Deal(player, True))
    return _arrive(replace(bank, turn=bank.turn + 1))


def _arrive(bank: ClassicaBank) -> ClassicaBank:
    """The next punter to stake, skipping one in sitout; after the last, the banker plays unless
    no punter is left standing (every one bust or out), and then the bank is settled."""
    while bank.punter is not None and bank.punter in bank.sitout:
        bank = replace(bank, out=bank.out | {bank.punter}, turn=bank.turn + 1)
    if bank.punter is not None:
        return replace(bank, phase=Phase.STAKE)
    standing = [p for p, s in bank.stakes.items() if not hand(bank.hands[p]).bust]
    if standing:
        return replace(bank, phase=Phase.BANKER)
    return _settle(bank)


def _settle(bank: ClassicaBank) -> ClassicaBank:
    """Every punter against the banker; winning punters pay rake on their win, the banker on
    the bank's net result if positive."""
    banker_hand = hand(bank.banker_cards)
    changes: dict[str, int] = {}
    results = []
    net = 0
    rake = 0
    for p in bank.punters:
        if p not in bank.stakes:
            continue
        s = bank.stakes[p]
        won_by_banker = banker_wins(hand(bank.hands[p]), banker_hand)
        r = 0 if won_by_banker else rake_cents(s, bank.rules.rake_bp)
        changes[p] = 0 if won_by_banker else 2 * s - r
        net += s if won_by_banker else -s
        rake += r
        results.append(HandResult(p, s, won_by_banker, r, bank.hands[p], bank.banker_cards))
    banker_rake = rake_cents(net, bank.rules.rake_bp)
    changes[bank.banker] = net - banker_rake
    return credit_rebuys(replace(
        bank, credits=moved(bank.credits, changes), stakes=MappingProxyType({}),
        rake=bank.rake + rake + banker_rake, results=tuple(results), phase=Phase.OVER,
        expecting=None))


def _banker_sitout(bank: ClassicaBank) -> ClassicaBank:
    """Twice the minimum bet to every punter of the bank (the banker's whole credit shared when
    it has less); stakes already placed go back; no rake (no hand was played)."""
    owed = 2 * bank.rules.min_bet * len(bank.punters)
    credit = bank.credits[bank.banker]
    pay = ({p: 2 * bank.rules.min_bet for p in bank.punters} if credit >= owed
           else share_cents(credit, bank.punters))
    back = moved(bank.stakes, pay)
    paid = sum(pay.values())
    return credit_rebuys(replace(
        bank, credits=moved(bank.credits, {**back, bank.banker: -paid}),
        stakes=MappingProxyType({}), sitout_penalty=MappingProxyType(pay), phase=Phase.OVER,
        expecting=None))
