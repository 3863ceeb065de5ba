"""Replay a round of any game from its logged events: feed the logged inputs (bets,
cards, decisions, timer expiries, void) to the game's pure round again, check that it decides the same
settlements, and return the money the round implies. `studio audit verify` compares that money
with the ledger's movements for the round (`studio.storage.audit`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from studio import ledger
from studio.cards import parse_card
from studio.games import GAMES, game_for
from studio.storage.event_log import StoredEvent
from studio.table import seam as core
from studio.table.actor import expand_stored
from studio.table.money import cancel_for, money_for, recovery_release, reserve_for


class ReplayMismatch(ValueError):
    """The logged outcome is not what the rules give for the logged inputs."""


def _public(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k != "private"}


def replay_round(game: core.Game, events: Sequence[StoredEvent]
                 ) -> tuple[core.RoundState | None, list[ledger.Request]]:
    """The state the logged inputs lead to and the money they imply; ReplayMismatch when
    the logged outcome is not what the game's rules give."""
    requests: list[ledger.Request] = []
    state: core.RoundState | None = None
    placements: dict[str, core.Placement] = {}
    logged: list[tuple[str, dict[str, Any]]] = []
    derived: list[tuple[str, dict[str, Any]]] = []

    derives = game.derived_events

    def feed(cmd: core.Command) -> None:
        nonlocal state
        state, out = game.step(state, cmd)
        requests.extend(money_for(game, state, out))
        derived.extend((e.type, dict(e.data)) for e in out if e.type in derives)

    for ev in events:
        p = ev.payload
        t = ev.type
        for single, data in expand_stored(t, _public(p), game.grouped):
            if single in derives:
                logged.append((single, data))
        if t == "betting_opened":
            state, _ = game.open_round(ev.round_id, game.rules_from_json(p["rules"]),
                                       p["closes_at"])
        elif state is None:
            continue
        elif t == "bets_placed":
            for b in p["bets"]:
                pl = core.Placement(b["placement_id"], b["player"], b["position"],
                                    game.bet_kind(b["kind"]), b["amount"])
                placements[pl.placement_id] = pl
                requests.append(reserve_for(state.round_id, pl))
        elif t == "bets_cancelled":
            for pid in p["placement_ids"]:
                placements.pop(pid, None)
                requests.append(cancel_for(state.round_id, pid))
        elif t == "betting_closed":
            feed(core.CloseBetting(p.get("closes_at", 0.0), tuple(placements.values())))
        elif t == "deck_opened":
            feed(core.OpenDeck(p["deck_set"], fresh=bool(p.get("fresh"))))
        elif t in ("burn_card", "hole_card", "card_dealt"):
            feed(core.CardSeen(parse_card(p["card"]), p["source"]))
        elif t == "decision_made":
            feed(core.Decide(p["player"], p["position"], game.choices[p["choice"]],
                             frozenset(p.get("unfunded", ()))))
        elif t == "decision_timed_out":
            feed(core.DecisionTimeout(p["position"], p["turn"]))
        elif t == "round_voided":
            if state.betting:
                state = replace(state, placements=tuple(placements.values()))
            if p.get("recovery"):
                # voided on recovery: every reservation the round left open was released
                closed = {r.reservation_id for r in requests
                          if isinstance(r, ledger.Post | ledger.Release)}
                requests.extend(recovery_release(r.movement_id) for r in list(requests)
                                if isinstance(r, ledger.Reserve) and r.movement_id not in closed)
                break  # void: nothing further of this round is replayed
            else:
                feed(core.Void(p["reason"]))
    if logged != derived:
        first = next((i for i, (a, b) in enumerate(zip(logged, derived, strict=False))
                      if a != b), min(len(logged), len(derived)))
        raise ReplayMismatch(
            f"event {first}: logged {logged[first] if first < len(logged) else None}, "
            f"replayed {derived[first] if first < len(derived) else None}")
    return state, requests


def replayer(game_name: str) -> Callable[[Sequence[StoredEvent]], list[ledger.Request]]:
    """The audit's replayer (studio.storage.audit.Replayer) for the tables of a game."""
    game = game_for(game_name)
    if getattr(game, "seated", False):  # a seated table (studio.table.seated)
        from studio.table.seated import replay_round as replay_seated

        return lambda events: replay_seated(game, events)  # type: ignore[arg-type]

    def replay(events: Sequence[StoredEvent]) -> list[ledger.Request]:
        return replay_round(game, events)[1]
    return replay


def replayers() -> dict[str, Callable[[Sequence[StoredEvent]], list[ledger.Request]]]:
    """A replayer for every game the studio serves."""
    return {name: replayer(name) for name in GAMES}
