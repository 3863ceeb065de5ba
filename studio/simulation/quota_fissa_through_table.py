"""Sette e Mezzo Quota Fissa hands through the real table core (`private_tables.run`): bots
stake 1 EUR a hand and play the exact engine's best decision for the cards they have seen."""

from __future__ import annotations

from typing import Any

from studio.config import load_config
from studio.mathematics import sette_e_mezzo_quota_fissa as exact
from studio.simulation.private_tables import PrivateReport
from studio.simulation.private_tables import run as run_private

STAKE = 100


def best_play(eng: Any) -> Any:
    """The decide of a best-play bot: the engine's choice given every card seen."""
    def decide(s: Any) -> str:
        left = eng.full
        for c in (*s.cards, *s.bank):
            left = eng.take(left, eng.class_of(c))
        return "carta" if eng.hits(s.hand(), s.bank_hand(), left) else "stai"
    return decide


async def run(hands: int, tables: int, seed: int, database: str | None = None,
              config: str | None = None, audit_log: bool = True
              ) -> tuple[PrivateReport, float]:
    """(the report, the exact return with best play)."""
    cfg = load_config(config).first_table("sette-e-mezzo-quota-fissa")
    eng = exact.engine(cfg.paytable.win_odds)
    report = await run_private(cfg, hands, tables, seed,
                               [{"position": 1, "kind": "main", "amount": STAKE}],
                               best_play(eng), database, audit_log)
    return report, 1 + eng.expected_net()
