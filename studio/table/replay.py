"""Replay a Sette e Mezzo Live round from its logged events: feed the logged inputs (bets,
cards, decisions, timer expiries, void) to the pure round again, check that it decides the same
settlements, and return the money the round implies. `studio audit verify` compares that money
with the ledger's movements for the round (`studio.storage.audit`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from studio import ledger
from studio.cards import parse_card
from studio.storage.event_log import StoredEvent
from studio.table import round as core
from studio.table.actor import expand_stored
from studio.table.money import cancel_for, money_for, recovery_release, reservation_id, reserve_for

# Events the round itself derives: the replay must derive them identically.
DERIVED = {"player_settled", "side_bet_settled", "round_closed"}


class ReplayMismatch(ValueError):
    """The logged outcome is not what the rules give for the logged inputs."""


def _public(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k != "private"}


def replay_round(events: Sequence[StoredEvent]) -> tuple[core.RoundState | None, list[ledger.Request]]:
    requests: list[ledger.Request] = []
    state: core.RoundState | None = None
    placements: dict[str, core.Placement] = {}
    logged: list[tuple[str, dict[str, Any]]] = []
    derived: list[tuple[str, dict[str, Any]]] = []

    def feed(cmd: core.Command) -> None:
        nonlocal state
        state, out = core.step(state, cmd)
        requests.extend(money_for(state, out))
        derived.extend((e.type, dict(e.data)) for e in out if e.type in DERIVED)

    for ev in events:
        p = ev.payload
        t = ev.type
        for single, data in expand_stored(t, _public(p)):
            if single in DERIVED:
                logged.append((single, data))
        if t == "betting_opened":
            state, _ = core.open_round(ev.round_id, core.rules_from_json(p["rules"]),
                                       p["closes_at"])
        elif state is None:
            continue
        elif t == "bets_placed":
            for b in p["bets"]:
                pl = core.Placement(b["placement_id"], b["player"], b["position"],
                                    core.BetKind(b["kind"]), b["amount"])
                placements[pl.placement_id] = pl
                requests.append(reserve_for(state.round_id, pl))
        elif t == "bets_cancelled":
            for pid in p["placement_ids"]:
                placements.pop(pid, None)
                requests.append(cancel_for(state.round_id, pid))
        elif t == "betting_closed":
            feed(core.CloseBetting(p.get("closes_at", 0.0), tuple(placements.values())))
        elif t == "deck_opened":
            feed(core.OpenDeck(p["deck_set"]))
        elif t in ("burn_card", "card_dealt"):
            feed(core.CardSeen(parse_card(p["card"]), p["source"]))
        elif t == "decision_made":
            feed(core.Decide(p["player"], p["position"], p["choice"] == "carta"))
        elif t == "decision_timed_out":
            feed(core.DecisionTimeout(p["position"], p["turn"]))
        elif t == "round_voided":
            if state.phase is core.Phase.BETTING:
                state = replace(state, placements=tuple(placements.values()))
            if p.get("recovery"):
                # voided on recovery: every reservation left open was released
                open_ids = [pl for pl in placements.values()
                            if (pl.player, pl.position, pl.kind.value) not in state.settled]
                requests.extend(recovery_release(reservation_id(state.round_id, pl.placement_id))
                                for pl in open_ids)
                state = replace(state, phase=core.Phase.VOID)
            else:
                feed(core.Void(p["reason"]))
    if logged != derived:
        first = next((i for i, (a, b) in enumerate(zip(logged, derived, strict=False))
                      if a != b), min(len(logged), len(derived)))
        raise ReplayMismatch(
            f"event {first}: logged {logged[first] if first < len(logged) else None}, "
            f"replayed {derived[first] if first < len(derived) else None}")
    return state, requests


def sette_e_mezzo_live(events: Sequence[StoredEvent]) -> list[ledger.Request]:
    """The audit's replayer for Sette e Mezzo Live tables."""
    return replay_round(events)[1]
