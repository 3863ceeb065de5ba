from pathlib import Path

import pytest

from studio.cards import (
    MATTA,
    Card,
    CardCodeError,
    DeckArt,
    DeckKind,
    Rank,
    Suit,
    card_name,
    deck,
    parse_card,
    parse_cards,
    scan_file_name,
    shoe,
)

# The project's own copy of the scans (devices/assets/cards, from shared/cards).
CARD_ASSETS = Path(__file__).resolve().parents[1] / "devices" / "assets" / "cards"


def test_every_code_round_trips_and_is_unique():
    cards = deck(DeckKind.FRENCH_52)
    assert len({c.code for c in cards}) == 52
    for c in cards:
        assert parse_card(c.code) == c
        assert len(c.code) == 2


@pytest.mark.parametrize("kind,size", [("italian40", 40), ("french40", 40), ("french52", 52)])
def test_deck_sizes(kind, size):
    cards = deck(kind)
    assert len(cards) == len(set(cards)) == size


def test_forty_card_decks_have_no_8_9_10():
    for kind in (DeckKind.ITALIAN_40, DeckKind.FRENCH_40):
        assert not {c.rank for c in deck(kind)} & {Rank.EIGHT, Rank.NINE, Rank.TEN}


def test_shoe_of_n_decks_holds_each_card_n_times():
    s = shoe(DeckKind.FRENCH_52, 8)
    assert len(s) == 416
    assert s.count(parse_card("Ac")) == 8
    with pytest.raises(ValueError):
        shoe(DeckKind.FRENCH_52, 0)


def test_matta_is_the_king_of_denari_in_every_forty_card_deck():
    assert parse_card("Kd") == MATTA and MATTA.is_matta
    assert not parse_card("Kc").is_matta
    assert card_name(MATTA, DeckArt.NAPOLETANE) == "re di denari"
    assert card_name(MATTA, DeckArt.FRENCH) == "K di quadri"


def test_suit_letters_are_the_italian_initials():
    # c is coppe = cuori (hearts), never clubs; b is bastoni = fiori (clubs).
    assert parse_card("7c").suit is Suit.COPPE
    assert parse_card("7b").suit is Suit.BASTONI
    assert card_name(parse_card("7c"), "french") == "7 di cuori"
    assert card_name(parse_card("Qs"), "piacentine") == "cavallo di spade"


@pytest.mark.parametrize("bad", ["", "K", "Kdd", "1d", "Kx", "kd", "10d", "Zs", None, 12])
def test_unknown_codes_are_rejected_clearly(bad):
    with pytest.raises(CardCodeError) as e:
        parse_card(bad)
    assert e.value.code == "card.unknown_code"


def test_parse_cards_accepts_lists_and_strings():
    assert parse_cards("Ad, 7c Kd") == [Card(Rank.ASSO, Suit.DENARI), parse_card("7c"), MATTA]


@pytest.mark.parametrize("art", ["napoletane", "piacentine", "french"])
def test_every_forty_card_scan_exists(art):
    kind = DeckKind.FRENCH_40 if art == "french" else DeckKind.ITALIAN_40
    for c in deck(kind):
        assert (CARD_ASSETS / art / scan_file_name(c, art)).is_file(), c


def test_scan_names_follow_the_scan_numbering():
    assert scan_file_name(MATTA, "napoletane") == "10d.jpg"
    assert scan_file_name(parse_card("Jb"), "piacentine") == "8b.jpg"
    assert scan_file_name(MATTA, "french") == "13d.jpg"
    assert scan_file_name(parse_card("Ts"), "french") == "10s.jpg"
