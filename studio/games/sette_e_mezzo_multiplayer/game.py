"""The multiplayer table as the seated-table core drives it (`studio.table.seated.SeatedGame`).

The state machine is `table.py`; this module adds what the core needs around it: the setup
from the configuration, snapshots (between banks) as JSON for the log, and what each player
may see: a face-down card is its holder's alone (the banker's until it reveals), drawn cards
are everyone's, and each player gets the buttons it may press now (`buttons.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from studio.cards import DeckKind
from studio.games.sette_e_mezzo import Hand
from studio.games.sette_e_mezzo_multiplayer import table as tbl
from studio.games.sette_e_mezzo_multiplayer import tournament_tables
from studio.games.sette_e_mezzo_multiplayer.autoplay import AutoPlay
from studio.games.sette_e_mezzo_multiplayer.buttons import (
    REMOVE,
    advance_buttons,
    buttons,
    offer_buttons,
)
from studio.games.sette_e_mezzo_multiplayer.classica import ClassicaBank
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.piatto import PiattoBank
from studio.games.sette_e_mezzo_multiplayer.table_rules import Kind, TableRules, Variant
from studio.games.sette_e_mezzo_multiplayer.tournament import Elimination, ranking
from studio.games.sette_e_mezzo_multiplayer.turns import Phase


class MultiplayerGame:
    name = "sette-e-mezzo-multiplayer"
    deck_kind = DeckKind.ITALIAN_40
    seated = True
    refusal = MultiplayerError
    page = "sette_e_mezzo_multiplayer"

    # -- setup and snapshots -------------------------------------------------------------------

    def setup(self, cfg: Any) -> tbl.Setup:
        rules = TableRules(Variant(cfg.variant), Kind(getattr(cfg, "kind", "cash")),
                           cfg.min_bet, cfg.min_bank, cfg.rake_bp)
        return tbl.Setup(rules, cfg.seats, cfg.buy_in_min, cfg.buy_in_max, cfg.decision_s,
                         cfg.idle_s)

    def new_state(self, setup: tbl.Setup) -> tbl.Table:
        return tbl.new_table(setup)

    def to_json(self, t: tbl.Table) -> dict[str, Any]:
        """A snapshot between banks (a bank in play is rebuilt from the inputs after it)."""
        if t.bank is not None:
            raise MultiplayerError("mp.snapshot_in_bank", "snapshots are taken between banks")
        s, r = t.setup, t.setup.rules
        return {
            "setup": {"variant": str(r.variant), "kind": str(r.kind), "min_bet": r.min_bet,
                      "min_bank": r.min_bank, "rake_bp": r.rake_bp, "seats": s.seats,
                      "buy_in_min": s.buy_in_min, "buy_in_max": s.buy_in_max,
                      "decision_s": s.decision_s, "idle_s": s.idle_s},
            "seats": list(t.seats), "credits": dict(t.credits), "sitout": sorted(t.sitout),
            "has_bet": sorted(t.has_bet), "skips": dict(t.skips),
            "autoplay": {p: [a.punter, a.banker] for p, a in t.autoplay.items()},
            "offer": t.offer, "due_seat": t.due_seat, "bank_no": t.bank_no,
            "leaving": sorted(t.leaving), "tickets": t.tickets,
            "awaiting": list(t.awaiting) if t.awaiting is not None else None,
            "deadline": t.deadline, "last_play": t.last_play, "dealing": list(t.dealing),
            "dealt": t.dealt, "fresh": t.fresh, "rake": t.rake, "results": list(t.results),
            "eliminated": list(t.eliminated), "moved_out": [list(m) for m in t.moved_out],
        }

    def from_json(self, d: Mapping[str, Any]) -> tbl.Table:
        s = d["setup"]
        rules = TableRules(Variant(s["variant"]), Kind(s["kind"]), s["min_bet"], s["min_bank"],
                           s["rake_bp"])
        setup = tbl.Setup(rules, s["seats"], s["buy_in_min"], s["buy_in_max"],
                          s["decision_s"], s["idle_s"])
        return tbl.Table(
            setup, tuple(d["seats"]), MappingProxyType(dict(d["credits"])),
            frozenset(d["sitout"]), frozenset(d["has_bet"]), MappingProxyType(dict(d["skips"])),
            MappingProxyType({p: AutoPlay(a, b) for p, (a, b) in d["autoplay"].items()}),
            d["offer"], d["due_seat"], None, d["bank_no"], MappingProxyType({}),
            frozenset(d["leaving"]), d["tickets"],
            tuple(d["awaiting"]) if d["awaiting"] is not None else None, d["deadline"],
            d["last_play"], tuple(d["dealing"]), d["dealt"], d["fresh"], d["rake"],
            tuple(d["results"]), MappingProxyType({}), tuple(d.get("eliminated", ())),
            tuple((p, c) for p, c in d.get("moved_out", ())))

    # -- the state machine ---------------------------------------------------------------------

    step = staticmethod(tbl.step)
    void = staticmethod(tbl.void)
    needs = staticmethod(tbl.needs)
    card_usable = staticmethod(tbl.card_usable)
    wake_at = staticmethod(tbl.wake_at)
    at_checkpoint = staticmethod(tbl.at_checkpoint)

    def round_id(self, t: tbl.Table, table_id: str) -> str | None:
        return t.round_id(table_id)

    def books_money(self, t: tbl.Table) -> bool:
        """Cash tables move money; a tournament's chips are not money (its buy-ins and
        prizes are, moved by the tournament)."""
        return not t.setup.rules.tournament

    # -- what a player sees --------------------------------------------------------------------

    def view(self, t: tbl.Table, player: str | None) -> dict[str, Any]:
        b = t.bank
        seats = []
        for i, p in enumerate(t.seats):
            if p is None:
                seats.append({"seat": i, "player": None})
                continue
            seats.append({"seat": i, "player": p, "credit": t.credit(p) + t.extra.get(p, 0),
                          "sitout": p in t.sitout, "banker": b is not None and p == b.banker,
                          "cards": _cards(t, p, player), "leaving": p in t.leaving})
        decider = t.awaiting[0] if t.awaiting is not None else None
        view: dict[str, Any] = {
            "variant": str(t.setup.rules.variant), "min_bet": t.setup.rules.min_bet,
            "min_bank": t.setup.rules.min_bank, "rake_bp": t.setup.rules.rake_bp,
            "seats": seats, "players": t.players, "bank_no": t.bank_no,
            "banker": b.banker if b is not None else None, "offer": t.offer,
            "piatto": b.piatto if isinstance(b, PiattoBank) else None,
            "max_bet": b.terms.max_bet if isinstance(b, ClassicaBank) else None,
            "phase": str(b.phase) if b is not None else None,
            "punter": b.punter if b is not None else None,
            "turn": decider, "deadline": t.deadline, "results": list(t.results),
            "matta_deal": list(t.dealing), "kind": str(t.setup.rules.kind),
            "eliminated": [e["player"] for e in t.eliminated],
        }
        if player is not None and player in t.seats:
            view["me"] = {"player": player, "credit": t.credit(player) + t.extra.get(player, 0),
                          "rebuy_pending": b.rebuys.get(player, 0) if b is not None else 0,
                          "sitout": player in t.sitout,
                          "autoplay": _autoplay(t.autoplay.get(player, AutoPlay())),
                          "buttons": _buttons(t, player)}
        return view


def _autoplay(a: AutoPlay) -> dict[str, float]:
    return {"punter": a.punter / 2, "banker": a.banker / 2}


def _buttons(t: tbl.Table, player: str) -> list[dict[str, Any]]:
    if t.offer == player:
        punters = sum(1 for p in t.players if p != player and p not in t.sitout
                      and t.credits.get(p, 0) > 0)
        out = [{"label": b.label, "low": b.low, "high": b.high, "action": "accept"}
               for b in offer_buttons(t.setup.rules, t.credits.get(player, 0), punters)]
        if not t.setup.rules.tournament:
            out.append({"label": "Non accetto", "low": None, "high": None, "action": "refuse"})
        return out
    b = t.bank
    if b is None or b.phase is Phase.OVER:
        return []
    action = {Phase.JOIN: "join", Phase.STAKE: "stake"}.get(b.phase, "decide")
    now = [{"label": x.label, "low": x.low, "high": x.high, "action": action}
           for x in buttons(b, player)]
    if now:
        return now
    return [{"label": x.label, "low": x.low, "high": x.high,
             "action": "remove_preset" if x.label == REMOVE else "preset"}
            for x in advance_buttons(b, player, t.presets)]


def _cards(t: tbl.Table, holder: str, viewer: str | None) -> list[str | None]:
    """The holder's cards as `viewer` sees them: None for a card face down."""
    b = t.bank
    if b is None:
        return []
    if holder == b.banker:
        cards = b.banker_cards
        revealed = b.phase in (Phase.BANKER, Phase.OVER)
    elif isinstance(b, PiattoBank):
        cards = b.punter_cards if holder == b.punter else ()
        revealed = False
    else:
        cards = b.hands.get(holder, ())
        revealed = b.phase is Phase.OVER or Hand.of(cards).bust
    return [c.code if (i > 0 or revealed or viewer == holder) else None
            for i, c in enumerate(cards)]


class TournamentTables:
    """What the tournament (`studio.table.tournaments`) asks of this game's tables."""

    draw = staticmethod(tournament_tables.draw)
    rebalance = staticmethod(tournament_tables.rebalance)
    prizes = staticmethod(tournament_tables.prizes)

    def seat_input(self, chips: int) -> dict[str, Any]:
        return {"type": "sit", "amount": chips, "director": True}

    def unseat_input(self, players: list[str]) -> dict[str, Any]:
        return {"type": "transfer_out", "players": players, "director": True}

    def between_rounds(self, t: tbl.Table) -> bool:
        return t.bank is None

    def seated(self, t: tbl.Table) -> list[str]:
        return t.players

    def chips(self, t: tbl.Table) -> dict[str, int]:
        return {p: t.credit(p) + t.extra.get(p, 0) for p in t.players}

    def moved_out(self, t: tbl.Table) -> list[tuple[str, int]]:
        return list(t.moved_out)

    def eliminations(self, t: tbl.Table) -> list[dict[str, Any]]:
        return list(t.eliminated)

    def ranking(self, eliminations: list[dict[str, Any]], survivors: list[str]) -> list[str]:
        return ranking([Elimination(e["player"], e["round"], f"{e['table']}/{e['banker']}",
                                    e["chips_before"], e["seat_order"]) for e in eliminations],
                       survivors)


GAME = MultiplayerGame()
GAME.tournament = TournamentTables()  # type: ignore[attr-defined]
