"""Property tests (hypothesis) of the Sette e Mezzo rules."""

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.cards import MATTA, DeckKind, deck
from studio.games.sette_e_mezzo import SETTE_E_MEZZO, SEVEN, Hand, card_halves
from studio.games.sette_e_mezzo_live import rules as live

DECK = deck(DeckKind.ITALIAN_40)
ORDINARY = [c for c in DECK if not c.is_matta]
PT = live.LivePaytable()

hands_without_matta = st.lists(st.sampled_from(ORDINARY), min_size=1, max_size=8, unique=True)


@given(hands_without_matta, st.integers(min_value=0, max_value=8))
def test_a_hand_of_two_or_more_cards_with_the_matta_is_7_or_7_and_a_half(others, at):
    cards = others[:at] + [MATTA] + others[at:]
    h = Hand.of(cards)
    other_halves = sum(card_halves(c) for c in others)
    if other_halves > SEVEN:
        assert h.bust
    else:
        assert h.total in (SEVEN, SETTE_E_MEZZO)


def rounds():
    """A whole one-position round: a shuffled deck, bets, and the cards taken in rule order."""
    return st.tuples(
        st.permutations(DECK),
        st.integers(min_value=1, max_value=500_000),
        st.integers(min_value=0, max_value=10_000),
        st.integers(min_value=0, max_value=10_000),
        st.lists(st.booleans(), min_size=8, max_size=8),
    )


def play(shuffled, hits):
    """Deal a round by the rules; `hits` are the player's choices where choice is allowed."""
    cards = iter(shuffled)
    player_cards = [next(cards)]
    dealer_cards = [next(cards)]
    dealer_first = Hand.of(dealer_cards)
    choices = iter(hits)
    while True:
        h = Hand.of(player_cards)
        if live.must_draw_automatically(h, dealer_first) or (
                live.may_decide(h, dealer_first) and next(choices, False)):
            player_cards.append(next(cards))
            continue
        break
    player = Hand.of(player_cards)
    automatic = live.automatic_win(player, dealer_first)
    if not player.bust and not automatic:
        while live.dealer_must_draw(Hand.of(dealer_cards)):
            dealer_cards.append(next(cards))
    return player_cards, dealer_cards, automatic


@settings(max_examples=400)
@given(rounds())
def test_settlement_never_pays_a_bust_player_and_money_balances(r):
    shuffled, main, pp, mdp, hits = r
    player_cards, dealer_cards, automatic = play(shuffled, hits)
    bets = live.Bets(main, pp, mdp)
    s = live.settle_player(bets, player_cards, dealer_cards, PT, automatic=automatic)
    if Hand.of(player_cards).bust:
        assert s.main is live.MainResult.LOSE and s.main_returned == 0
    # money staked = money returned + house result, and each part is a whole number of cents
    assert bets.staked == s.returned + s.house_result
    assert all(isinstance(x, int) for x in (s.returned, s.house_result, s.main_returned))
    assert 0 <= s.main_returned <= main + main * 3 // 2
    for side, stake in ((s.partita_perfetta, pp), (s.mano_di_poker, mdp)):
        if side is not None:
            assert side.returned in (0, stake) or side.returned > stake


@settings(max_examples=300)
@given(rounds())
def test_a_royal_always_wins_and_the_dealers_royal_beats_every_other_hand(r):
    shuffled, _, _, _, hits = r
    player_cards, dealer_cards, automatic = play(shuffled, hits)
    player = Hand.of(player_cards)
    dealer = Hand.of(dealer_cards[:1] if automatic else dealer_cards)
    result = live.settle_main(player, dealer)
    if player.royal:
        assert result is live.MainResult.ROYAL
    elif dealer.royal:
        assert result is live.MainResult.LOSE
