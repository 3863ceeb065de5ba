"""Sette e Mezzo multiplayer properties: whole banks played with random cards and choices.

Money is conserved across a whole bank (table credits + piatto + stakes + rake never change), every
button shown is accepted, and the bank always ends. Hypothesis draws the decks (every shuffle),
the choices among the buttons shown, the amounts, and sitouts.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.cards import deck
from studio.games.sette_e_mezzo_multiplayer import classica as C
from studio.games.sette_e_mezzo_multiplayer import piatto as P
from studio.games.sette_e_mezzo_multiplayer.autoplay import auto_hits
from studio.games.sette_e_mezzo_multiplayer.buttons import GIOCO, TIRO, buttons
from studio.games.sette_e_mezzo_multiplayer.errors import MultiplayerError
from studio.games.sette_e_mezzo_multiplayer.table_rules import Kind, TableRules, Variant
from studio.games.sette_e_mezzo_multiplayer.turns import Phase

SEATS = ["A", "B", "C", "D", "E"]
CARDS = deck("italian40")

credits_st = st.fixed_dictionaries({p: st.integers(0, 20_000) for p in SEATS})
rake_st = st.sampled_from([0, 250, 500])


def in_play(bank) -> list:
    if isinstance(bank, P.PiattoBank):
        return [*bank.punter_cards, *bank.banker_cards]
    return [c for cards in bank.hands.values() for c in cards] + list(bank.banker_cards)


def play_out(module, bank, data):
    """Drive a bank to its end; check the money after every step."""
    total = bank.total_money()
    shoe: list = []
    for _ in range(2_000):
        if bank.phase is Phase.OVER:
            return bank
        if bank.expecting is not None:
            if bank.shoe.shuffle_due or not shoe:
                bank = module.shuffled(bank)
                rest = [c for c in CARDS if c not in in_play(bank)]
                shoe = list(data.draw(st.permutations(rest)))
            bank = module.deal(bank, shoe.pop())
        elif (awake := [p for p in (bank.banker, *bank.punters) if p not in bank.sitout]) and (
                data.draw(st.integers(0, 19)) == 0):  # now and then someone goes into sitout
            bank = module.set_sitout(bank, data.draw(st.sampled_from(awake)), True)
        elif bank.decider in bank.sitout and bank.phase in (Phase.PUNTER, Phase.BANKER):
            bank = module.decide(bank, bank.decider, auto_hits(bank, {}))
        else:
            bank = press(module, bank, data)
        assert bank.total_money() == total
        assert all(v >= 0 for v in bank.credits.values())
    raise AssertionError("the bank did not end")


def press(module, bank, data):
    """Press one of the buttons shown to the decider: it must be accepted."""
    player = bank.decider
    shown = buttons(bank, player)
    assert shown, (bank.phase, player)
    b = data.draw(st.sampled_from(shown))
    if bank.phase is Phase.JOIN:
        return module.join(bank, player, b.label == GIOCO)
    if bank.phase is Phase.STAKE:
        amount = data.draw(st.integers(b.low, b.high))
        return module.stake(bank, player, amount, b.label == TIRO)
    return module.decide(bank, player, b.label == TIRO)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(credits=credits_st, rake=rake_st, tournament=st.booleans(), data=st.data())
def test_money_is_conserved_across_a_whole_piatto_bank(credits, rake, tournament, data):
    kind = Kind.TOURNAMENT if tournament else Kind.CASH
    rules = TableRules(Variant.PIATTO, kind, min_bet=100, min_bank=1000,
                       rake_bp=0 if tournament else rake)
    credits = {**credits, "A": max(credits["A"], 1)}
    piatto = data.draw(st.integers(min(1000, credits["A"]), credits["A"]))
    bank = P.open_bank(rules, SEATS, "A", piatto, credits)
    start = sum(credits.values())
    end = play_out(P, bank, data)
    assert sum(end.credits.values()) + end.rake == start and end.piatto == 0
    # the house takes 2 x rake% of each hand's win: the prize share of the stakes stays >= 90 %
    assert end.rake * 10_000 <= sum(2 * r.stake for r in end.results) * rake
    assert end.rake * 10 <= sum(r.stake for r in end.results)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(credits=credits_st, rake=rake_st, data=st.data())
def test_money_is_conserved_across_a_whole_classica_bank(credits, rake, data):
    rules = TableRules(Variant.CLASSICA, Kind.CASH, min_bet=100, min_bank=200, rake_bp=rake)
    credits = {**credits, "A": max(credits["A"], 1)}
    punters = sum(1 for p in SEATS[1:] if credits[p] > 0)
    if punters == 0:
        return
    top = credits["A"] // punters
    max_bet = data.draw(st.integers(200, top)) if top >= 200 else None
    try:
        bank = C.open_bank(rules, SEATS, "A", max_bet, credits)
    except MultiplayerError as e:  # an all-in banker too short to cover anybody
        assert e.code == "mp.no_punters"
        return
    start = sum(credits.values())
    end = play_out(C, bank, data)
    assert sum(end.credits.values()) + end.rake == start and not end.stakes
    assert end.credits["A"] >= 0  # the banker always covers what it may lose
    assert end.rake * 10 <= sum(r.stake for r in end.results)  # prize share >= 90 %
