"""Blackjack on the table seam: the regulation's virtual table (a private table, five
positions, eight decks shuffled before every game, the dealer's hole card face down)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from studio.cards import DeckKind
from studio.games.base import RoundGame
from studio.games.blackjack import round as core
from studio.games.blackjack import rules
from studio.games.blackjack.behind import BEHIND, BEHIND_INSURANCE, BEHIND_SPLIT
from studio.games.blackjack.rules import Action
from studio.table.seam import Event

KINDS = frozenset({core.MAIN, core.SPLIT, core.INSURANCE, *core.SIDE_BETS, core.DEALER_PAIR,
                   BEHIND, BEHIND_SPLIT, BEHIND_INSURANCE})


class Blackjack(RoundGame):
    """The game object the studio registers as "blackjack"."""

    name = "blackjack"
    round = core
    deck = core.FIFTY_TWO
    deck_kind = DeckKind.FRENCH_52
    settlement_events = frozenset({"game_settled"})
    grouped: Mapping[str, str] = {}
    derived_events = frozenset({"game_settled", "round_closed"})
    choices: Mapping[str, Any] = {a.value: a for a in Action}
    choices_adding_money = frozenset({Action.DOUBLE.value, Action.SPLIT.value,
                                      Action.INSURE.value})
    default_bet = core.MAIN

    def table_rules(self, cfg: Any) -> core.TableRules:
        lim = cfg.limits
        return core.TableRules(core.Limits(lim.main_min, lim.main_max, lim.side_min,
                                           lim.side_max, lim.round_max_total),
                               cfg.paytable.to_paytable(), cfg.positions, cfg.decks,
                               shared=cfg.pace == "live",
                               burn_cards=getattr(cfg, "burn_cards", 0))

    def bet_kind(self, name: str) -> str:
        if name not in KINDS:
            raise ValueError(f"no bet called {name!r}")
        return name

    def spots(self, event: Event) -> Iterable[tuple[str, int, str, int, int | None]]:
        d = event.data
        for b in d["bets"]:
            yield d["player"], b["position"], b["kind"], b["stake"], b["returned"]

    def history(self, type_: str, d: Mapping[str, Any]
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        return None, [dict(b) for b in d["bets"]]

    def round_summary(self, closed: Mapping[str, Any]) -> dict[str, Any]:
        return {"dealer": closed.get("dealer") or [], "dealer_total": closed.get("dealer_total"),
                "positions": closed.get("positions") or {}}

    def round_view(self, s: core.RoundState, player: str | None) -> dict[str, Any]:
        """The table as players may see it: the hole card face down (None) until it is turned
        over, each position's hands, whose turn it is and the buttons allowed."""
        game = s.game
        dealer = [c.code for c in game.dealer] if game else []
        if len(dealer) >= 2 and not s.hole_shown:
            dealer[1] = None  # face down: the card itself is never sent before the reveal
        up = rules.score(game.dealer[:1]) if game and game.dealer else None
        shown = rules.score(game.dealer) if game and s.hole_shown else None
        target = s.expecting()
        return {
            "round_id": s.round_id, "phase": s.phase.value, "closes_at": s.closes_at,
            "dealer": dealer,
            "dealer_total": shown.total if shown else (up.total if up else None),
            "dealer_soft": shown.soft if shown else (up.soft if up else False),
            "dealer_total_text": _total_text(shown or up),
            "positions": {str(p.number): _position_view(p) for p in game.positions}
            if game else {},
            "dealer_pair": game.dealer_pair if game else 0,
            "deciding": s.deciding, "hand": s.deciding_hand, "turn": s.turn,
            "insurance": s.phase is core.Phase.INSURANCE,
            "choices": s.choices() if player is not None and player == s.owner(s.deciding)
            else [],
            "expecting": target.describe() if target else None,
        }


def _total_text(score: rules.Score | None) -> str:
    """A total as the dealer console shows it: '17', 'soft 17', 'BJ'."""
    if score is None:
        return ""
    return "BJ" if score.blackjack else f"soft {score.total}" if score.soft else str(score.total)


def _position_view(p: rules.Position) -> dict[str, Any]:
    return {"bet": p.bet, "player_pair": p.player_pair, "twenty_one_three": p.twenty_one_three,
            "insurance": p.insurance,
            "hands": [{"cards": [c.code for c in h.cards], "total": h.score.total,
                       "soft": h.score.soft, "stake": h.stake, "status": h.status.value,
                       "doubled": h.doubled} for h in p.hands]}


GAME = Blackjack()
