"""The live Blackjack table's seats and bets behind them.

- A seat (positions 1..7) belongs, for a round, to the player whose bets lie on it: the first
  to bet on an empty seat takes it (main, then Player Pair and 21+3 beside it); nobody else may
  bet on it, but anyone else may bet behind it (`behind`), any number of players. A player who
  cancels gives the seat back.
- A bet behind rides on the seat's hands and follows the seated player's decisions (`follow`):
  a double, a split and insurance where the follower's credit allows (the table reserves the
  stake; the round is told which followers it could not fund), otherwise the bet stays as it
  was. It settles as the seat's hands do (`settle_behind`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from studio.games.bet_book import SpotBook
from studio.games.bet_limits import check_round_total, check_spot
from studio.games.blackjack import rules
from studio.games.blackjack.rules import Action
from studio.table.seam import Event, Placement, RoundError

MAIN, PLAYER_PAIR, TWENTY_ONE_THREE = "main", "player_pair", "twenty_one_three"
SEAT_KINDS = (MAIN, PLAYER_PAIR, TWENTY_ONE_THREE)  # the seated player's bets on a seat
BEHIND, BEHIND_SPLIT, BEHIND_INSURANCE = "behind", "behind_split", "behind_insurance"
BEHIND_HAND_KINDS = (BEHIND, BEHIND_SPLIT)  # a bet behind hand 0, and the split's hand
BEHIND_NEWS_S = 1.0  # how often every player is told the bets behind the seats, at most


@dataclass(frozen=True, slots=True)
class Behind:
    """A player's bet behind a seat: the stake on each of the seat's hands (one, two once it
    followed a split) and its insurance (None: not decided)."""

    hands: tuple[int, ...]
    insurance: int | None = None


# ------------------------------------------------------------------------------- the window


class SeatBook(SpotBook):
    """The bets of a live table's window: seats taken by their first bet, bets behind taken
    seats, each spot within the table's limits (a bet behind: the main bet's), each player's
    round within `round_max_total`."""

    def __init__(self, rules_: Any, closes_at: float) -> None:
        super().__init__(rules_, closes_at)
        self.owners: dict[int, str] = {}
        self.behind_sums: dict[int, list[int]] = {}  # seat -> [bets behind, cents] (the view)
        self._news: list[Event] = []  # seats taken or given back, for every player to see
        self._behind_changed = False
        self._behind_told = float("-inf")  # when the bets behind were last told to everyone

    def owner(self, number: int, pending: SeatBook | None = None) -> str | None:
        return self.owners.get(number) or (pending.owners.get(number) if pending else None)

    def check_command(self, player: str, bets: Sequence[tuple[str, Any, Any, Any]], now: float,
                      pending: SeatBook | None = None) -> list[Placement]:
        if not self.open or now >= self.closes_at:
            raise RoundError("bet.window_closed", "Stop alle puntate: bets are closed")
        lim, seats = self.rules.limits, self.rules.positions
        local: dict[tuple[int, str], int] = {}
        out: list[Placement] = []
        total = self.player_total(player) + (pending.player_total(player) if pending else 0)

        def stake(number: int, kind: str) -> int:
            return (self.stake(player, number, kind) + local.get((number, kind), 0)
                    + (pending.stake(player, number, kind) if pending else 0))

        for placement_id, number, kind, amount in bets:
            if type(amount) is not int or amount <= 0:
                raise RoundError("bet.bad_amount", "a bet is a positive whole number of cents")
            if kind not in SEAT_KINDS and kind != BEHIND:
                raise RoundError("bet.unknown_kind", f"no bet called {kind!r} at this table")
            if type(number) is not int or not 1 <= number <= seats:
                raise RoundError("bet.unknown_position", f"no seat {number} at this table")
            if placement_id in self.placements or (pending and placement_id in
                                                   pending.placements):
                raise RoundError("bet.duplicate_id", "this bet was already placed")
            owner = self.owner(number, pending)
            if kind == BEHIND:
                if owner is None and stake(number, MAIN) == 0:
                    raise RoundError("bet.seat_empty", f"nobody sits at seat {number}: take "
                                     "the seat, or bet behind a seat that is taken")
                if owner == player or stake(number, MAIN):
                    raise RoundError("bet.behind_own_seat", "you play this seat yourself")
                low, high = lim.main_min, lim.main_max
            else:
                if owner is not None and owner != player:
                    raise RoundError("bet.seat_taken", f"seat {number} is taken: bet behind it")
                if stake(number, BEHIND):
                    raise RoundError("bet.behind_own_seat", "you bet behind this seat")
                if kind != MAIN and stake(number, MAIN) == 0:
                    raise RoundError("bet.side_without_main",
                                     "side bets need your main bet on the same seat")
                low, high = ((lim.main_min, lim.main_max) if kind == MAIN
                             else (lim.side_min, lim.side_max))
            spot = stake(number, kind) + amount
            check_spot(spot, low, high)
            total += amount
            check_round_total(total, lim.round_max_total)
            local[(number, kind)] = local.get((number, kind), 0) + amount
            out.append(Placement(placement_id, player, number, kind, amount))
        return out

    def count(self, p: Placement) -> None:
        super().count(p)
        if p.kind in SEAT_KINDS:
            self.owners.setdefault(p.position, p.player)

    def add(self, p: Placement) -> Event:
        if p.kind in SEAT_KINDS and p.position not in self.owners:
            self._news.append(Event("seat_taken", {"seat": p.position}))
        if p.kind == BEHIND:
            sums = self.behind_sums.setdefault(p.position, [0, 0])
            sums[0] += self.stake(p.player, p.position, BEHIND) == 0  # players, not chips
            sums[1] += p.amount
            self._behind_changed = True
        return super().add(p)

    def cancel(self, player: str) -> Event:
        for number in [n for n, who in self.owners.items() if who == player]:
            del self.owners[number]  # the seat is free again
            self._news.append(Event("seat_freed", {"seat": number}))
        for n, sums in self.behind_sums.items():
            stake = self.stake(player, n, BEHIND)
            if stake:
                sums[0] -= 1
                sums[1] -= stake
                self._behind_changed = True
        return super().cancel(player)

    def window_events(self, now: float) -> list[Event]:
        """Seats taken or given back at once; the bets behind the seats at most once a second
        (thousands of players bet behind: each news reaches every player)."""
        news, self._news = self._news, []
        if self._behind_changed and now - self._behind_told >= BEHIND_NEWS_S:
            self._behind_changed, self._behind_told = False, now
            news.append(Event("behind_changed", {"seats": {
                str(n): {"behind": count, "behind_total": cents}
                for n, (count, cents) in sorted(self.behind_sums.items())}}))
        return news

    def seats_view(self, player: str | None) -> dict[str, dict[str, Any]]:
        """What a player sees of the window: which seats are taken (and whether by them), and
        how many players bet behind each, and how much. Never who the others are."""
        out = {}
        for n in range(1, self.rules.positions + 1):
            owner = self.owners.get(n)
            count, cents = self.behind_sums.get(n, (0, 0))
            out[str(n)] = {"taken": owner is not None, "mine": owner is not None
                           and owner == player, "behind": count, "behind_total": cents,
                           "my_behind": self.stake(player, n, BEHIND) if player else 0}
        return out


# ------------------------------------------------------------------------------- the round


def seats_and_behind(placements: Iterable[Placement]
                     ) -> tuple[dict[tuple[int, str], int], dict[int, str],
                                dict[int, dict[str, Behind]], list[Placement]]:
    """The window's bets as the round plays them: the seats' stakes per (seat, kind), each
    seat's player, the bets behind each taken seat, and the bets behind an empty seat (to
    refund)."""
    spots: dict[tuple[int, str], int] = {}
    owners: dict[int, str] = {}
    behind_stakes: dict[int, dict[str, int]] = {}
    behind_placed: list[Placement] = []
    for p in placements:
        if p.kind == BEHIND:
            seat = behind_stakes.setdefault(p.position, {})
            seat[p.player] = seat.get(p.player, 0) + p.amount
            behind_placed.append(p)
        else:
            spots[(p.position, p.kind)] = spots.get((p.position, p.kind), 0) + p.amount
            owners.setdefault(p.position, p.player)
    behind = {n: {who: Behind((stake,)) for who, stake in seat.items()}
              for n, seat in sorted(behind_stakes.items()) if n in owners}
    orphans = [p for p in behind_placed if p.position not in owners]
    return spots, owners, behind, orphans


def sums_of(seat: Mapping[str, Behind]) -> tuple[int, int]:
    """(players, cents) behind a seat, insurance included: what the table shows of them."""
    return len(seat), sum(sum(b.hands) + (b.insurance or 0) for b in seat.values())


def refund_orphans(orphans: Sequence[Placement]) -> list[Event]:
    """Bets behind a seat nobody took: one settlement per player, every stake refunded."""
    by_player: dict[str, list[dict[str, Any]]] = {}
    for p in orphans:
        by_player.setdefault(p.player, []).append({
            "position": p.position, "kind": BEHIND, "stake": p.amount, "returned": None,
            "result": "no_seat"})
    return [Event("game_settled", {"player": who, "bets": bets})
            for who, bets in by_player.items()]


def follow(behind: Mapping[str, Behind], number: int, action: Action, hand: int,
           unfunded: frozenset[str]) -> tuple[dict[str, Behind], list[Placement]]:
    """The bets behind seat `number` after its player's `action` on `hand`, and the stakes
    the followers add (placements the table reserves)."""
    out: dict[str, Behind] = {}
    added: list[Placement] = []
    for who, b in behind.items():
        funded = who not in unfunded
        if action is Action.DOUBLE and funded and hand < len(b.hands):
            hands = list(b.hands)
            added.append(Placement(f"{who}/{number}/behind-double{hand}", who, number,
                                   BEHIND_HAND_KINDS[hand], hands[hand]))
            hands[hand] *= 2
            b = replace(b, hands=tuple(hands))
        elif action is Action.SPLIT and funded:
            added.append(Placement(f"{who}/{number}/behind-split", who, number, BEHIND_SPLIT,
                                   b.hands[0]))
            b = replace(b, hands=(b.hands[0], b.hands[0]))
        elif action is Action.INSURE and funded and rules.insurance_stake(b.hands[0]):
            stake = rules.insurance_stake(b.hands[0])
            added.append(Placement(f"{who}/{number}/behind-insurance", who, number,
                                   BEHIND_INSURANCE, stake))
            b = replace(b, insurance=stake)
        elif action in rules.INSURANCE_ACTIONS:
            b = replace(b, insurance=0)
        out[who] = b
    return out, added


def settle_behind(game: rules.Game, behind: Mapping[int, Mapping[str, Behind]],
                  paytable: rules.Paytable) -> Iterable[tuple[str, dict[str, Any]]]:
    """(player, settled bet) for every bet behind: each stake on its hand of the seat, as the
    seat's hand settles (a stake that did not follow a split stays on the first hand)."""
    dealer = rules.score(game.dealer)
    for number, backers in behind.items():
        pos = game.position(number)
        results = [rules.main_result(h.score, dealer) for h in pos.hands]
        paid: dict[tuple[int, int], int] = {}  # (hand, stake) -> returned: stakes repeat
        for who, b in backers.items():
            for i, stake in enumerate(b.hands):
                key = (i, stake)
                if key not in paid:
                    paid[key] = rules.main_returned(stake, results[i], paytable)
                yield who, {"position": number, "kind": BEHIND_HAND_KINDS[i], "stake": stake,
                            "returned": paid[key], "result": results[i].value}
            if b.insurance:
                won = dealer.blackjack
                yield who, {"position": number, "kind": BEHIND_INSURANCE, "stake": b.insurance,
                            "returned": rules.returned_cents(b.insurance, paytable.insurance)
                            if won else 0, "result": "win" if won else "lose"}
