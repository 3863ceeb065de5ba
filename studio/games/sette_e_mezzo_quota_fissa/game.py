"""Sette e Mezzo Quota Fissa on the table seam: a private table, one player against the bank."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from studio.cards import DeckKind
from studio.games.base import RoundGame
from studio.games.sette_e_mezzo_quota_fissa import round as core
from studio.table.seam import Event


class SetteEMezzoQuotaFissa(RoundGame):
    """The game object the studio registers as "sette-e-mezzo-quota-fissa"."""

    name = "sette-e-mezzo-quota-fissa"
    round = core
    deck = core.FORTY
    deck_kind = DeckKind.ITALIAN_40
    settlement_events = frozenset({"hand_settled"})
    grouped: Mapping[str, str] = {}
    derived_events = frozenset({"hand_settled", "round_closed"})
    choices: Mapping[str, Any] = {"carta": True, "stai": False}
    default_bet = core.MAIN

    def table_rules(self, cfg: Any) -> core.TableRules:
        return core.TableRules(cfg.limits.main_min, cfg.limits.main_max,
                               cfg.paytable.win_odds)

    def bet_kind(self, name: str) -> str:
        if name != core.MAIN:
            raise ValueError(f"no bet called {name!r}")
        return core.MAIN

    def spots(self, event: Event) -> Iterable[tuple[str, int, str, int, int | None]]:
        d = event.data
        yield d["player"], d["position"], d["kind"], d["stake"], d["returned"]

    def history(self, type_: str, d: Mapping[str, Any]
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        return ({"position": d["position"], "cards": d["cards"], "total": d["total"]},
                [{"position": d["position"], "kind": d["kind"], "stake": d["stake"],
                  "result": d["result"], "returned": d["returned"],
                  "bank": d["bank"], "bank_total": d["bank_total"]}])

    def round_view(self, s: core.RoundState, player: str | None) -> dict[str, Any]:
        """One hand: the player's cards and the bank's, both face up as they are dealt."""
        hand, bank = s.hand(), s.bank_hand()
        return {
            "round_id": s.round_id, "phase": s.phase.value, "closes_at": s.closes_at,
            "dealer": [c.code for c in s.bank], "dealer_total": bank.total if s.bank else None,
            "positions": {"1": {"cards": [c.code for c in s.cards],
                                "total": hand.total if s.cards else None}},
            "deciding": s.deciding, "turn": s.turn,
            "expecting": s.expecting().describe() if s.expecting() else None,
            "choices": s.choices() if player == s.player else [],
            "stake": s.stake,
        }


GAME = SetteEMezzoQuotaFissa()
