"""Options.read_beside: a card the classifier named is refused when its outline, moved a fifth
to a third of a card along its sides, reads surely as another card of its suit: the outline
lies across that card, which shows as its look-alike with a column cut off. Spent held-out
ray stills (looked at after their reports) and ray tune stills."""

from __future__ import annotations

import pytest

from devices.camera.ray_scenes import ray_scene
from devices.camera.recognizer import Detection, Options, Recognizer, Thresholds
from devices.camera.wide_scoring import score_wide
from tests.wide_cards import both_ways

# (deck, seed, the false card named without the rule: 9,004,921 a 2 of coins across a 3 of coins,
# which is named once its place is free; 9,004,522 a 7 of coins across a 6 of coins)
ACROSS = [("napoletane", 9004921, "2d"), ("piacentine", 9004522, "7d")]


def _codes(found: list[Detection]) -> set[str]:
    return {d.code for d in found}


@pytest.mark.parametrize(("deck", "seed", "false"), ACROSS)
def test_a_card_read_on_an_outline_across_its_look_alike_is_refused(
        deck: str, seed: int, false: str) -> None:
    scene, on, off = both_ways(deck, seed, Options(), Options(read_beside=False),
                               source=ray_scene)
    wrong = score_wide(off, scene.truth).false_examples
    assert len(wrong) == 1 and wrong[0].startswith(f"{false}@")
    assert score_wide(on, scene.truth).false == 0
    assert score_wide(on, scene.truth).right >= score_wide(off, scene.truth).right


def test_a_rival_read_less_surely_than_the_bar_refuses_nothing() -> None:
    """9,004,921's false 2 of coins: the 3 of coins beside it is read at 0.999 (a third of a
    card aside); with the bar above that, the false card stands."""
    scene, higher, off = both_ways("napoletane", 9004921, Options(), Options(read_beside=False),
                                   thresholds=Thresholds(beside_prob=0.9995),
                                   source=ray_scene)
    assert score_wide(higher, scene.truth).false == 1 and _codes(higher) == _codes(off)


def test_a_right_card_the_classifier_names_is_kept() -> None:
    """Ray tune napoletane 714,224: a jack of batons the classifier names (0.996), an ace of
    batons read at 0.895 on its outline moved: under the bar, named right either way."""
    scene, on, off = both_ways("napoletane", 714224, Options(), Options(read_beside=False),
                               source=ray_scene)
    assert score_wide(on, scene.truth).right >= score_wide(off, scene.truth).right
    assert "Jb" in _codes(on) and score_wide(on, scene.truth).false == 0


def test_neither_without_the_classifier_nor_on_french_cards() -> None:
    """French cards are confirmed by their corner index; their outlines moved read their
    neighbours in rank far more often (ray tune 714,000-714,162: 10 of 93 right cards)."""
    for rec in (Recognizer("napoletane", options=Options(learned=False)),
                Recognizer("french", "french52")):
        assert not rec._read_beside(None, None, None, None, None)  # type: ignore[arg-type]
