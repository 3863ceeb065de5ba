"""Sette e Mezzo Live on the table seam (`studio.table.seam.Game`): what the core asks of it.

The round itself is `round.py` (pure state machine); the rules are `rules.py`. This module
translates between them and the core: config to rules, settlement events to spots, what each
audience may see of a round, and a history line per settlement.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from studio.cards import DeckKind, parse_cards
from studio.games.base import RoundGame
from studio.games.sette_e_mezzo import Hand, format_halves
from studio.games.sette_e_mezzo_live import round as core
from studio.table.seam import Event


def total_of(codes: list[str]) -> int | None:
    """A hand's value in halves (7 1/2 = 15), or None for no cards."""
    return _total(tuple(codes)) if codes else None


@lru_cache(maxsize=4096)
def _total(codes: tuple[str, ...]) -> int:
    """Thousands of players at a position hold one of a few prefixes of its cards: each
    prefix is valued once, not once a player (a view per player after every card)."""
    return Hand.of(parse_cards(codes)).total


class SetteEMezzoLive(RoundGame):
    """The game object the studio registers as "sette-e-mezzo-live"."""

    def result_text(self, summary: Mapping[str, Any]) -> str:
        total = summary.get("dealer_total")  # in halves: 15 is 7 1/2
        return "" if total is None else f"Banco {format_halves(total)}"

    name = "sette-e-mezzo-live"
    page = "player.html"  # the studio's live page (studio/web/static)
    cross_checks = True
    round = core
    deck = core.FORTY
    deck_kind = DeckKind.ITALIAN_40
    settlement_events = frozenset({"player_settled", "side_bet_settled"})
    # A settlement of 30,000 bets is stored as ONE event holding a table of them.
    grouped: Mapping[str, str] = {"player_settled": "players_settled",
                                  "side_bet_settled": "side_bets_settled"}
    derived_events = frozenset({"player_settled", "side_bet_settled", "round_closed"})
    choices: Mapping[str, Any] = {"carta": True, "stai": False}
    default_bet = core.BetKind.MAIN.value

    # -- rules and rounds -----------------------------------------------------------------

    def table_rules(self, cfg: Any) -> core.TableRules:
        lim = cfg.limits
        return core.TableRules(
            positions=cfg.positions, burn_card=cfg.burn_card,
            limits=core.Limits(lim.main_min, lim.main_max, lim.side_min, lim.side_max,
                               lim.round_max_total),
            paytable=cfg.paytable.to_paytable())

    def bet_kind(self, name: str) -> str:
        return core.BetKind(name)  # the member: the round compares kinds by identity

    # -- money and history ----------------------------------------------------------------

    def spots(self, event: Event) -> Iterable[tuple[str, int, str, int, int | None]]:
        """(player, position, kind, stake, returned; None: refunded) of each settled spot."""
        d = event.data
        if event.type == "side_bet_settled":
            yield d["player"], d["position"], d["kind"], d["stake"], d["returned"]
            return
        main = d["main"]
        yield d["player"], d["position"], "main", main["stake"], main["returned"]
        m = d["mano_di_poker"]
        if m is not None:
            yield (d["player"], d["position"], "mano_di_poker", m["stake"],
                   None if m["result"] == "refund" else m["returned"])

    def history(self, type_: str, d: Mapping[str, Any]
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """(the player's hand on a position, or None; the results) of a settlement event."""
        if type_ == "side_bet_settled":
            return None, [{"position": d["position"], "kind": d["kind"], "stake": d["stake"],
                           "result": d["result"], "class": d.get("class"),
                           "returned": d["returned"]}]
        main = d["main"]
        results = [{"position": d["position"], "kind": "main", "stake": main["stake"],
                    "result": main["result"], "automatic_win": d.get("automatic_win", False),
                    "returned": main["returned"]}]
        mdp = d.get("mano_di_poker")
        if mdp:
            results.append({"position": d["position"], "kind": "mano_di_poker",
                            "stake": mdp["stake"], "result": mdp["result"],
                            "class": mdp.get("class"), "returned": mdp["returned"]})
        return {"position": d["position"], "cards": d["cards"], "total": d["total"]}, results

    # -- what an audience sees --------------------------------------------------------------

    def round_view(self, s: core.RoundState, player: str | None) -> dict[str, Any]:
        """The round as dealt so far: never the burn card; totals beside the cards so that
        clients never re-implement the matta."""
        target = s.expecting()
        rnd: dict[str, Any] = {
            "round_id": s.round_id, "phase": s.phase.value, "closes_at": s.closes_at,
            "dealer": [c.code for c in s.dealer],
            "positions": {str(n): {"cards": [c.code for c in pos.cards]}
                          for n, pos in s.positions.items()},
            "deciding": s.deciding, "turn": s.turn,
            "expecting": target.describe() if target else None,
        }
        rnd["dealer_total"] = total_of(rnd["dealer"])
        for pos in rnd["positions"].values():
            pos["total"] = total_of(pos["cards"])
        if player is not None:
            rnd.update(self.personal_view(s, player))
        return rnd

    def personal_key(self, s: core.RoundState, player: str) -> Hashable:
        """A player's hand on a position is a prefix of its cards, which only grow in a
        round: its seat (length, stood) and whether the player decides decide the view."""
        return (tuple((n, pos.seats[player]) for n, pos in s.positions.items()
                      if player in pos.seats), s.is_decider(player))

    def personal_view(self, s: core.RoundState, player: str) -> dict[str, Any]:
        hands = {str(n): [c.code for c in pos.cards_of(player)]
                 for n, pos in s.positions.items() if player in pos.seats}
        return {"my_hands": hands, "my_totals": {n: total_of(c) for n, c in hands.items()},
                "my_decision": s.is_decider(player)}

    def personal_changes(self, before: core.RoundState, after: core.RoundState
                         ) -> Iterable[str] | None:
        """The players at each position whose cards or seats changed (positions are
        replaced, never changed in place: compared by identity), and, when whose turn it is
        may have moved (the phase, the position deciding, the dealer's first card), the
        players at the positions deciding before and after."""
        if before.round_id != after.round_id:
            return None
        changed: set[str] = set()
        for n in before.positions.keys() | after.positions.keys():
            old, new = before.positions.get(n), after.positions.get(n)
            if old is not new:
                for pos in (old, new):
                    if pos is not None:
                        changed.update(pos.seats)
        if (before.phase, before.deciding, before.dealer[:1]) != \
                (after.phase, after.deciding, after.dealer[:1]):
            for s in (before, after):
                pos = s.positions.get(s.deciding) if s.deciding is not None else None
                if pos is not None:
                    changed.update(pos.seats)
        return changed


GAME = SetteEMezzoLive()
