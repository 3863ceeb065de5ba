"""The player's history (cronologia), projected from the table's event log.

The log is the truth: a player who was disconnected finds the result of their round here
(the regulation's "puoi visualizzare i risultati del round nella cronologia di gioco"). The
projection reads only the events appended since its last read (by `stream_seq`), so asking for
a history costs one small query. It keeps the most recent `max_rounds` rounds of the table in
memory; a longer history is an operator report, not a table page.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from studio.storage import Store, event_log
from studio.table.actor import expand_stored
from studio.table.seam import Game


class HistoryProjection:
    def __init__(self, store: Store, table_id: str, game: Game, max_rounds: int = 2000,
                 stream: str | None = None) -> None:
        self.store = store
        self.game = game
        self.stream = stream or f"table:{table_id}"
        self.max_rounds = max_rounds
        self.after = 0  # the last stream_seq applied
        self.rounds: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def catch_up(self) -> None:
        with self.store.reader() as tx:
            if self.after == 0:  # first read: only the rounds it keeps, not the whole log
                self.after = event_log.recent_start(tx, self.stream, "betting_opened",
                                                    self.max_rounds)
            for ev in event_log.iter_events(tx, stream_id=self.stream,
                                            after_stream_seq=self.after):
                self._apply(ev.type, ev.round_id, ev.payload, ev.ts)
                self.after = ev.stream_seq
        while len(self.rounds) > self.max_rounds:
            self.rounds.popitem(last=False)

    def for_player(self, player: str, limit: int = 20) -> list[dict[str, Any]]:
        """The player's rounds, newest first: bets, hands, dealer, results, money."""
        self.catch_up()
        out = []
        for rnd in reversed(self.rounds.values()):
            mine = rnd["players"].get(player)
            if mine is None or not (mine["bets"] or mine["results"]):
                continue
            out.append({
                **{k: v for k, v in rnd.items() if k not in ("players",)},
                "bets": mine["bets"],
                "hands": mine["hands"], "results": mine["results"], "staked": mine["staked"],
                "returned": mine["returned"], "net": mine["returned"] - mine["staked"]
                if rnd["status"] != "open" else None})
            if len(out) >= limit:
                break
        return out

    # -- projection ------------------------------------------------------------------------

    def _round(self, round_id: str | None, ts: str) -> dict[str, Any] | None:
        if round_id is None:
            return None
        rnd = self.rounds.get(round_id)
        if rnd is None:
            rnd = self.rounds[round_id] = {
                "round_id": round_id, "at": ts, "status": "open", "reason": None,
                "dealer": [], "dealer_total": None, "players": {}}
        return rnd

    @staticmethod
    def _player(rnd: dict[str, Any], player: str) -> dict[str, Any]:
        return rnd["players"].setdefault(player, {
            "bets": [], "hands": {}, "results": [], "staked": 0, "returned": 0})

    def _apply(self, kind: str, round_id: str | None, p: dict[str, Any], ts: str) -> None:
        if p.get("private"):
            return  # the burn card, the deck order, rejected cards: never in a history
        if kind in self.game.grouped.values():  # one stored event per step
            for single, data in expand_stored(kind, p, self.game.grouped):
                self._apply(single, round_id, data, ts)
            return
        rnd = self._round(round_id, ts)
        if rnd is None:
            return
        if kind in ("bets_placed", "bet_placed"):  # one event per batch (or per bet, earlier)
            for b in p["bets"] if kind == "bets_placed" else [p]:
                me = self._player(rnd, b["player"])
                me["bets"].append({"position": b["position"], "kind": b["kind"],
                                   "amount": b["amount"]})
                me["staked"] += b["amount"]
        elif kind == "bets_cancelled":
            me = self._player(rnd, p["player"])
            me["bets"], me["staked"] = [], 0
        elif kind in self.game.settlement_events:
            me = self._player(rnd, p["player"])
            hand, results = self.game.history(kind, p)
            if hand is not None:
                me["hands"][str(hand["position"])] = {k: v for k, v in hand.items()
                                                      if k != "position"}
            me["results"].extend(results)
            me["returned"] += sum(r["returned"] for r in results)
        elif kind == "round_closed":
            rnd["status"] = "closed"
            rnd.update(self.game.round_summary(p))
        elif kind == "round_voided":
            rnd["status"] = "void"
            rnd["reason"] = p.get("reason")
            for r in p.get("refunds", []):
                me = self._player(rnd, r["player"])
                me["results"].append({"kind": "refund", "result": "refunded",
                                      "returned": r["amount"], "stake": r["amount"]})
                me["returned"] += r["amount"]
