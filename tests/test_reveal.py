"""The helper the no-reveal tests lean on finds a card however a page or message carries it."""

from tests.reveal import shows


def test_a_card_shows_as_a_word_of_its_own_not_inside_a_random_token():
    assert shows('{"cards": ["Ab", "5c"]}', "Ab")
    assert shows('<img src="/cards/napoletane/Tc.jpg" data-card="Tc">', "Tc")
    assert shows("['7b']", "7b") and shows("card-Tc", "Tc")
    assert not shows('{"session": "hqFlnAb2uRfPpIdp.sem-live-1.hMPoInmCkzOuSnYE"}', "Ab")
    assert not shows("bet 13000", "3000") and not shows("bobby", "bob")
