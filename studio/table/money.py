"""Which ledger movements a round's events imply. One function for the table actor (which
writes them) and the audit replay (which checks them), so the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Iterable

from studio import ledger
from studio.table import round as core


def reservation_id(round_id: str, placement_id: str) -> str:
    return f"{round_id}/{placement_id}/reserve"


def allocate(returned: int, stakes: list[int]) -> list[int]:
    """Split a spot's payout over its placements in proportion, cents exact (the last takes
    the remainder), so the sum is exactly what the rules pay for the spot."""
    total = sum(stakes)
    shares = [returned * s // total for s in stakes[:-1]]
    return shares + [returned - sum(shares)]


def reserve_for(round_id: str, p: core.Placement, group: str | None = None) -> ledger.Reserve:
    return ledger.Reserve(reservation_id(round_id, p.placement_id), p.player, p.amount,
                          round_id, group=group)


def cancel_for(round_id: str, placement_id: str) -> ledger.Release:
    return ledger.Release(f"{round_id}/{placement_id}/cancel",
                          reservation_id(round_id, placement_id))


def recovery_release(reservation: str) -> ledger.Release:
    return ledger.Release(f"{reservation}:void", reservation)


def closes_for(state: core.RoundState, events: Iterable[core.Event]) -> list[ledger.Close]:
    """Which reservations the round's events close, as `ledger.Close` rows: posts for settled
    spots (the payout split over the spot's placements), releases for refunds (Mano di Poker
    without a second card) and for a void. Rows, not request objects: a settlement closes tens
    of thousands at once."""
    out: list[ledger.Close] = []
    rid = state.round_id
    events = list(events)
    if not any(e.type in ("side_bet_settled", "player_settled") for e in events):
        by_spot: dict[tuple[str, int, str], list[core.Placement]] = {}
    else:  # index once: a settlement of thousands of spots stays linear
        by_spot = {}
        for p in state.placements:
            by_spot.setdefault((p.player, p.position, p.kind), []).append(p)

    def pay(placements: list[core.Placement], returned: int, refund: bool = False) -> None:
        if refund:
            out.extend((f"{rid}/{p.placement_id}/refund", reservation_id(rid, p.placement_id),
                        None, p.player, p.amount, rid) for p in placements)
            return
        shares = [returned] if len(placements) == 1 else allocate(
            returned, [p.amount for p in placements])
        for p, share in zip(placements, shares, strict=True):
            out.append((f"{rid}/{p.placement_id}/settle", reservation_id(rid, p.placement_id),
                        share, p.player, p.amount, rid))

    for e in events:
        d = e.data
        if e.type == "side_bet_settled":
            pay(by_spot.get((d["player"], d["position"], d["kind"]), []), d["returned"])
        elif e.type == "player_settled":
            mains = by_spot.get((d["player"], d["position"], "main"), ())
            if len(mains) == 1:  # the common case inline: 30,000 of these in a settlement
                p = mains[0]
                out.append((f"{rid}/{p.placement_id}/settle",
                            reservation_id(rid, p.placement_id), d["main"]["returned"],
                            p.player, p.amount, rid))
            else:
                pay(list(mains), d["main"]["returned"])
            m = d["mano_di_poker"]
            if m is not None:
                pay(by_spot.get((d["player"], d["position"], "mano_di_poker"), []),
                    m["returned"], refund=m["result"] == "refund")
        elif e.type == "round_voided":
            out.extend((f"{rid}/{r['placement_id']}/void",
                        reservation_id(rid, r["placement_id"]), None, r["player"], r["amount"],
                        rid) for r in d["refunds"])
    return out


def money_for(state: core.RoundState, events: Iterable[core.Event]
              ) -> list[ledger.Post | ledger.Release]:
    """`closes_for` as ledger requests (the audit's replay compares their content)."""
    return [ledger.close_request(row) for row in closes_for(state, events)]
