"""Which ledger movements a round's events imply. One function for the table actor (which
writes them) and the audit replay (which checks them), so the two cannot drift apart."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from studio import ledger
from studio.table.seam import Event, Game, Placement, RoundState

MAX_ID = 180  # the ledger takes ids up to 200 characters: room for a ":void" and more


def fit(movement_id: str) -> str:
    """A movement id derived from the round, the placement and what happens to it, made to
    fit the ledger: a long one keeps its start and ends in a digest of the whole, so it stays
    unique and the same whenever it is derived again (the audit derives it again)."""
    if len(movement_id) <= MAX_ID:
        return movement_id
    digest = hashlib.sha256(movement_id.encode()).hexdigest()[:40]
    return f"{movement_id[:MAX_ID - 42]}~{digest}"


def movement_id(round_id: str, placement_id: str, what: str) -> str:
    return fit(f"{round_id}/{placement_id}/{what}")


def reservation_id(round_id: str, placement_id: str) -> str:
    return movement_id(round_id, placement_id, "reserve")


def allocate(returned: int, stakes: list[int]) -> list[int]:
    """Split a spot's payout over its placements in proportion, cents exact (the last takes
    the remainder), so the sum is exactly what the rules pay for the spot."""
    total = sum(stakes)
    shares = [returned * s // total for s in stakes[:-1]]
    return shares + [returned - sum(shares)]


def reserve_for(round_id: str, p: Placement, group: str | None = None) -> ledger.Reserve:
    return ledger.Reserve(reservation_id(round_id, p.placement_id), p.player, p.amount,
                          round_id, group=group)


def cancel_for(round_id: str, placement_id: str) -> ledger.Release:
    return ledger.Release(movement_id(round_id, placement_id, "cancel"),
                          reservation_id(round_id, placement_id))


def recovery_release(reservation: str) -> ledger.Release:
    return ledger.Release(fit(f"{reservation}:void"), reservation)


def closes_for(game: Game, state: RoundState, events: Iterable[Event]) -> list[ledger.Close]:
    """Which reservations the round's events close, as `ledger.Close` rows: posts for settled
    spots (the payout split over the spot's placements), releases for refunds (a spot the game
    refunds) and for a void. Rows, not request objects: a settlement closes tens of thousands
    at once."""
    out: list[ledger.Close] = []
    rid = state.round_id
    events = list(events)
    settlement = game.settlement_events
    by_spot: dict[tuple[str, int, str], list[Placement]] = {}
    if any(e.type in settlement for e in events):  # index once: a settlement stays linear
        for p in state.placements:
            by_spot.setdefault((p.player, p.position, p.kind), []).append(p)

    def pay(placements: list[Placement], returned: int) -> None:
        shares = [returned] if len(placements) == 1 else allocate(
            returned, [p.amount for p in placements])
        for p, share in zip(placements, shares, strict=True):
            out.append((movement_id(rid, p.placement_id, "settle"),
                        reservation_id(rid, p.placement_id), share, p.player, p.amount, rid))

    for e in events:
        if e.type in settlement:
            for player, position, kind, _, returned in game.spots(e):
                placed = by_spot.get((player, position, kind), ())
                if returned is None:
                    out.extend((movement_id(rid, p.placement_id, "refund"),
                                reservation_id(rid, p.placement_id), None, p.player, p.amount,
                                rid) for p in placed)
                elif len(placed) == 1:  # the common case inline: 30,000 in a settlement
                    p = placed[0]
                    out.append((movement_id(rid, p.placement_id, "settle"),
                                reservation_id(rid, p.placement_id), returned, p.player,
                                p.amount, rid))
                elif placed:
                    pay(list(placed), returned)
        elif e.type == "round_voided":
            out.extend((movement_id(rid, r["placement_id"], "void"),
                        reservation_id(rid, r["placement_id"]), None, r["player"], r["amount"],
                        rid) for r in e.data["refunds"])
    return out


def money_for(game: Game, state: RoundState, events: Iterable[Event]
              ) -> list[ledger.Post | ledger.Release]:
    """`closes_for` as ledger requests (the audit's replay compares their content)."""
    return [ledger.close_request(row) for row in closes_for(game, state, events)]
