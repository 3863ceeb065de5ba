"""Punto e Banco on the table seam: the regulation's private virtual table (one 52-card deck
shuffled before every hand). The live table on the shoe is `live.py`."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from studio.cards import DeckKind
from studio.games.base import RoundGame
from studio.games.punto_e_banco import round as core
from studio.games.punto_e_banco import rules
from studio.games.punto_e_banco.rules import Bet, Paytable
from studio.table.seam import Event


def paytable_of(cfg: Any) -> Paytable:
    """The config's paytable (`studio.config.PuntoEBancoPaytableConfig`) as the rules take it."""
    return cfg.paytable.to_paytable()


class PuntoEBanco(RoundGame):
    """The game object the studio registers as "punto-e-banco"."""

    name = "punto-e-banco"
    round = core
    deck = core.FIFTY_TWO
    deck_kind = DeckKind.FRENCH_52
    settlement_events = frozenset({"player_settled"})
    grouped: Mapping[str, str] = {"player_settled": "players_settled"}
    derived_events = frozenset({"player_settled", "round_closed"})
    choices: Mapping[str, Any] = {}
    default_bet = Bet.PUNTO.value

    def table_rules(self, cfg: Any) -> core.TableRules:
        lim = cfg.limits
        return core.TableRules(core.Limits(lim.main_min, lim.main_max, lim.side_min,
                                           lim.side_max, lim.round_max_total), paytable_of(cfg),
                               decks=cfg.decks, burn_cards=getattr(cfg, "burn_cards", 0))

    def bet_kind(self, name: str) -> str:
        return Bet(name)

    def spots(self, event: Event) -> Iterable[tuple[str, int, str, int, int | None]]:
        d = event.data
        for b in d["bets"]:
            yield d["player"], d["position"], b["kind"], b["stake"], b["returned"]

    def history(self, type_: str, d: Mapping[str, Any]
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        return None, [{"position": d["position"], "kind": b["kind"], "stake": b["stake"],
                       "result": b["result"], "returned": b["returned"],
                       "commission": b["commission"], "outcome": d["outcome"]}
                      for b in d["bets"]]

    def personal_view(self, s: Any, player: str) -> dict[str, Any]:
        return {}  # a hand has nothing personal: the player's bets come from the table

    def personal_key(self, s: Any, player: str) -> Hashable:
        """Nothing personal in a hand: every player's part stands the whole round (a card to
        10,000 players builds none of them again)."""
        return ()

    def personal_changes(self, before: Any, after: Any) -> Iterable[str]:
        return ()  # nothing personal in a hand

    def result_text(self, summary: Mapping[str, Any]) -> str:
        winner = {"punto": "Punto", "banco": "Banco", "pari": "Pari"}.get(
            summary.get("outcome") or "", "")
        return f"{winner} {summary.get('punto_total')}-{summary.get('banco_total')}".strip()

    def round_summary(self, closed: Mapping[str, Any]) -> dict[str, Any]:
        return {k: closed.get(k) for k in ("outcome", "punto", "banco", "punto_total",
                                          "banco_total", "punto_pair", "banco_pair")}

    def round_view(self, s: core.RoundState, player: str | None) -> dict[str, Any]:
        """Both sides' cards as they are dealt, their totals, and where the next card goes."""
        target = s.expecting()
        view: dict[str, Any] = {
            "round_id": s.round_id, "phase": s.phase.value, "closes_at": s.closes_at,
            "punto": [c.code for c in s.punto], "banco": [c.code for c in s.banco],
            "punto_total": rules.total(s.punto) if s.punto else None,
            "banco_total": rules.total(s.banco) if s.banco else None,
            "expecting": target.describe() if target else None,
            "next_to": target.kind if target else None,
            "deciding": None, "turn": 0, "positions": {}, "dealer": [],
            "hands": [{"place": side, "name": side.capitalize(),
                       "cards": [c.code for c in cards],
                       "total": rules.total(cards) if cards else None}
                      for side, cards in (("punto", s.punto), ("banco", s.banco))],
        }
        if s.finished and s.punto:
            view["outcome"] = rules.outcome(s.punto, s.banco).value
        return view


GAME = PuntoEBanco()
