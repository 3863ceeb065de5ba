"""What both variants share: the phases, who gets the next card, one hand's result, the checks
on whose turn it is and on a stake, and the players of a bank in turn order."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TypeVar

from studio.cards import Card
from studio.games.sette_e_mezzo_multiplayer.banker import Seats, seat_of, to_the_right
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.hands import check_decision
from studio.games.sette_e_mezzo_multiplayer.money import moved


class Phase(StrEnum):
    JOIN = "join"      # piatto, the punter in turn: "Gioco" / "Non gioco"
    STAKE = "stake"    # the punter in turn: amount, then "Sto" / "Tiro"
    PUNTER = "punter"  # the punter in turn, stake placed: "Sto" / "Tiro"
    BANKER = "banker"  # the banker: "Sto" / "Tiro"
    OVER = "over"      # the bank is over and settled


@dataclass(frozen=True, slots=True)
class Deal:
    """Who gets the next card, and whether it is dealt face up (a drawn card)."""

    player: str
    face_up: bool


class Turns:
    """What both banks answer the same way: the punter in turn and who must decide now (None
    while a card is awaited or the bank is over)."""

    __slots__ = ()
    banker: str
    punters: tuple[str, ...]
    turn: int
    phase: Phase
    expecting: Deal | None
    sitout: frozenset[str]
    banker_cards: tuple[Card, ...]
    credits: Mapping[str, int]
    rebuys: Mapping[str, int]

    @property
    def punter(self) -> str | None:
        return self.punters[self.turn] if self.turn < len(self.punters) else None

    @property
    def decider(self) -> str | None:
        if self.expecting is not None or self.phase is Phase.OVER:
            return None
        return self.banker if self.phase is Phase.BANKER else self.punter


@dataclass(frozen=True, slots=True)
class HandResult:
    """One punter against the banker. `rake` is what the winner paid on it (in classica the
    banker's rake is on the net of the bank instead, so it is 0 there when the banker won)."""

    punter: str
    stake: int
    banker_won: bool
    rake: int
    punter_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]


def punters_of(seats: Seats, banker: str, sitout: Collection[str],
               credits: Mapping[str, int]) -> tuple[str, ...]:
    """The punters of a bank, from the banker's right: seated at its start, not in sitout, with
    credit (only who is present when the bank starts may play it)."""
    order = [seats[i] for i in to_the_right(seats, seat_of(seats, banker))]
    return tuple(p for p in order if p is not None and p != banker and p not in sitout
                 and credits.get(p, 0) > 0)


def require(ok: bool, code: str, message: str) -> None:
    if not ok:
        raise MultiplayerError(code, message)


def require_actor(phase: Phase, expecting: Deal | None, actor: str | None, player: str,
                  phases: Collection[Phase]) -> None:
    """The common gate of every decision: the bank is live, no card is awaited, it is this
    player's turn and this kind of decision is asked now."""
    require(phase is not Phase.OVER, "mp.bank_over", "the bank is over")
    require(expecting is None, "mp.awaiting_card", "a card is being dealt")
    require(player == actor, "mp.not_your_turn", f"it is {actor}'s turn")
    require(phase in phases, "mp.wrong_phase", f"not asked now (phase {phase})")


def check_stake(amount: int, credit: int, minimum: int, maximum: int,
                above_code: str) -> None:
    """A stake between the minimum and the maximum; a punter whose credit is below the minimum
    goes all-in (its whole credit). `above_code` names the maximum (piatto or banker's bet)."""
    require(amount <= maximum, above_code, f"the stake is at most {maximum} cents")
    require(amount <= credit, "mp.stake_above_credit", "the stake is above the table credit")
    low = min(minimum, maximum, credit)
    require(amount >= low and amount > 0, "mp.stake_below_minimum",
            f"the stake is at least {low} cents")


Bank = TypeVar("Bank", bound=Turns)


def with_sitout(bank: Bank, player: str, on: bool) -> Bank:
    """Sitout (by choice or a timed-out decision) or "sono tornato" of a player of the bank;
    what it costs is the variant's business."""
    require(player == bank.banker or player in bank.punters, "mp.not_in_bank",
            f"{player} does not play this bank")
    require(bank.phase is not Phase.OVER, "mp.bank_over", "the bank is over")
    return replace(bank, sitout=bank.sitout | {player} if on else bank.sitout - {player})


def banker_decides(bank: Bank, hit: bool, settle: Callable[[Bank], Bank]) -> Bank:
    """The banker's "Tiro" asks for a face-up card; its "Sto" settles."""
    check_decision(bank.banker_cards, hit)
    if hit:
        return replace(bank, expecting=Deal(bank.banker, True))
    return settle(bank)


def add_rebuy(bank: Bank, player: str, amount: int, in_hand: bool) -> Bank:
    """Rebuy: more table credit at any time; during a hand it waits for the hand's end."""
    require(player == bank.banker or player in bank.punters, "mp.not_in_bank",
            f"{player} does not play this bank")
    require(amount > 0, "mp.bad_amount", "a rebuy is a positive amount")
    bank = replace(bank, rebuys=moved(bank.rebuys, {player: amount}))
    return bank if in_hand else credit_rebuys(bank)


def credit_rebuys(bank: Bank) -> Bank:
    """The hand is over: the rebuys made during it become table credit."""
    if not bank.rebuys:
        return bank
    return replace(bank, credits=moved(bank.credits, bank.rebuys), rebuys=MappingProxyType({}))
