"""Every round replays from the log to the same settlements and money; a round whose money
differs is named."""

from dataclasses import replace

import pytest

from studio import ledger
from studio.games.sette_e_mezzo_live.game import GAME
from studio.games.sette_e_mezzo_live.round import FORTY, Phase, RoundError
from studio.storage import audit, event_log
from studio.table import replay
from studio.table.replay import ReplayMismatch
from tests.table_harness import Harness

REPLAYERS = {"sette-e-mezzo-live": replay.replayer("sette-e-mezzo-live")}
GAMES = {"table:sem-live-1": "sette-e-mezzo-live"}


async def play_rounds(h: Harness, rounds: int) -> None:
    players = [f"p{i}" for i in range(8)]
    for p in players:
        h.credit(p, 500_000)
    await h.start()
    for n in range(rounds):
        for i, p in enumerate(players):
            await h.bet(p, 1 + i % 3, 500 + 100 * (i % 4))
            if i % 2:
                await h.bet(p, 1 + i % 3, 100, "mano_di_poker")
            if i % 3 == 0:
                await h.bet(p, 1 + i % 3, 100, "partita_perfetta")
        if n % 5 == 4:
            await h.actor.cancel_bets("p0", f"cancel{n}")
        await h.close_betting()
        steps = 0
        while not h.actor.state.finished:
            steps += 1
            if n % 7 == 6 and steps == 2:
                await h.dealer("void", reason="test void")
                break
            deciders = h.actor.state.deciders()
            if deciders:
                await h.decide(deciders[0], h.actor.state.deciding, "carta" if steps % 2 else "stai")
            await h.advance(h.cfg.timers.decision_s)
        await h.advance(h.cfg.timers.pause_between_rounds_s)


async def test_all_rounds_replay_to_the_same_money(store):
    h = Harness(store, card_source="rng", seed=7)
    await play_rounds(h, 15)
    report = audit.verify(store, replayers=REPLAYERS, games=GAMES)
    assert report.ok, report.problems
    assert report.rounds_replayed >= 15
    await h.actor.stop()


async def test_a_round_with_money_the_log_does_not_imply_is_named(store):
    h = Harness(store, card_source="rng", seed=8)
    await play_rounds(h, 3)
    round_id = h.actor.state.round_id
    with store.transaction() as tx:
        ledger.reserve(tx, "forged", "p1", 100, round_id=round_id)
    report = audit.verify(store, replayers=REPLAYERS, games=GAMES)
    mismatch = [p for p in report.problems if p.code == "audit.replay_mismatch"]
    assert mismatch and mismatch[0].round_id == round_id
    await h.actor.stop()


async def test_a_logged_settlement_the_rules_do_not_give_is_a_mismatch(store):
    h = Harness(store, card_source="rng", seed=9)
    await play_rounds(h, 1)
    with store.reader() as tx:
        events = event_log.read(tx, stream_id="table:sem-live-1",
                                round_id="sem-live-1-000001")
    assert replay.replay_round(GAME, events)[0].phase is Phase.CLOSED  # the genuine log replays
    cards = [e for e in events if e.type in ("card_dealt", "burn_card")]
    unseen = sorted(FORTY - {e.payload["card"] for e in cards})
    forged = list(events)
    i = forged.index(cards[-1])
    forged[i] = replace(forged[i], payload={**forged[i].payload, "card": unseen[0]})
    with pytest.raises((ReplayMismatch, RoundError)):
        replay.replay_round(GAME, forged)
    await h.actor.stop()
