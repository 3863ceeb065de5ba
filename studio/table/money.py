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


def money_for(state: core.RoundState, events: Iterable[core.Event]
              ) -> list[ledger.Post | ledger.Release]:
    """Posts for settled spots (the payout split over the spot's placements), releases for
    refunds (Mano di Poker without a second card) and for a void."""
    out: list[ledger.Post | ledger.Release] = []
    rid = state.round_id
    events = list(events)
    if not any(e.type in ("side_bet_settled", "player_settled") for e in events):
        by_spot: dict[tuple[str, int, str], list[core.Placement]] = {}
    else:  # index once: a settlement of thousands of spots stays linear
        by_spot = {}
        for p in state.placements:
            by_spot.setdefault((p.player, p.position, p.kind), []).append(p)

    def spot(player: str, position: int, kind: str) -> list[core.Placement]:
        return by_spot.get((player, position, kind), [])

    def pay(placements: list[core.Placement], returned: int, refund: bool = False) -> None:
        if len(placements) == 1 and not refund:  # the common case: one placement per spot
            p = placements[0]
            out.append(ledger.Post(f"{rid}/{p.placement_id}/settle",
                                   reservation_id(rid, p.placement_id), returned,
                                   ledger.Known(p.player, p.amount, rid)))
            return
        if refund:
            out.extend(ledger.Release(f"{rid}/{p.placement_id}/refund",
                                      reservation_id(rid, p.placement_id),
                                      ledger.Known(p.player, p.amount, rid)) for p in placements)
            return
        for p, share in zip(placements, allocate(returned, [p.amount for p in placements]),
                            strict=True):
            out.append(ledger.Post(f"{rid}/{p.placement_id}/settle",
                                   reservation_id(rid, p.placement_id), share,
                                   ledger.Known(p.player, p.amount, rid)))

    post, known = ledger.Post, ledger.Known
    for e in events:
        d = e.data
        if e.type == "side_bet_settled":
            pay(spot(d["player"], d["position"], d["kind"]), d["returned"])
        elif e.type == "player_settled":
            mains = by_spot.get((d["player"], d["position"], "main"), ())
            if len(mains) == 1:  # the common case inline: 30,000 of these in a settlement
                p = mains[0]
                out.append(post(f"{rid}/{p.placement_id}/settle",
                                reservation_id(rid, p.placement_id), d["main"]["returned"],
                                known(p.player, p.amount, rid)))
            else:
                pay(list(mains), d["main"]["returned"])
            m = d["mano_di_poker"]
            if m is not None:
                pay(spot(d["player"], d["position"], "mano_di_poker"), m["returned"],
                    refund=m["result"] == "refund")
        elif e.type == "round_voided":
            for r in d["refunds"]:
                out.append(ledger.Release(f"{rid}/{r['placement_id']}/void",
                                          reservation_id(rid, r["placement_id"]),
                                          ledger.Known(r["player"], r["amount"], rid)))
    return out
