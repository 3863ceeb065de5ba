"""Bots for the multiplayer tables: for whoever must act, a legal input (tests, benchmark)."""

from __future__ import annotations

import random
from typing import Any

from studio.games.sette_e_mezzo_multiplayer.acceptance import bank_range
from studio.games.sette_e_mezzo_multiplayer.hands import hand, may_hit, may_stand
from studio.games.sette_e_mezzo_multiplayer.piatto import PiattoBank
from studio.games.sette_e_mezzo_multiplayer.table import Table
from studio.games.sette_e_mezzo_multiplayer.turns import Phase


def bot_move(t: Table, rng: random.Random) -> dict[str, Any] | None:
    """The input the bot whose turn it is sends now (None: nobody human must act)."""
    if t.offer is not None and t.offer not in t.sitout:
        p = t.offer
        punters = sum(1 for x in t.players if x != p and x not in t.sitout
                      and t.credits.get(x, 0) > 0)
        low, high = bank_range(t.setup.rules, t.credits[p], max(punters, 1))
        return {"type": "accept", "player": p, "amount": rng.randint(low, high)}
    b = t.bank
    if b is None or b.decider is None or b.decider in b.sitout:
        return None
    p = b.decider
    if b.phase is Phase.JOIN:
        return {"type": "join", "player": p, "plays": True}
    cards = (b.banker_cards if p == b.banker else
             b.punter_cards if isinstance(b, PiattoBank) else b.hands[p])
    hit = may_hit(cards) and (not may_stand(cards) or hand(cards).total < 10)
    if b.phase is Phase.STAKE:
        if isinstance(b, PiattoBank):
            high = min(b.piatto, b.credits[p])
            low = min(t.setup.rules.min_bet, high)
        else:
            low, high = b.stake_range(p)
        # mostly small stakes: a bank lasts several hands (a stake of the whole piatto ends it)
        top = high if rng.random() < 0.1 else max(low, high // 4)
        return {"type": "stake", "player": p, "amount": rng.randint(low, top), "hit": hit}
    return {"type": "decide", "player": p, "hit": hit}
