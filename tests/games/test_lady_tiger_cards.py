"""The shared card model: the deck, the wilds and sets (rulebook: Components, Doors > Sets)."""

from ladytiger.games.lady_tiger_cards import (
    BLUE,
    BLUE_RED,
    CARD_NAMES,
    CLUE_COUNTS,
    LADY,
    LADY_TIGER,
    RED,
    TIGER,
    card_from_name,
    has_colour,
    has_role,
    matching_set_trait,
    shared_traits,
)


def counts(*names: str) -> list[int]:
    vector = [0] * 6
    for name in names:
        vector[card_from_name(name)] += 1
    return vector


def test_the_clue_deck_is_three_of_each_identity_and_two_wilds():
    assert dict(zip(CARD_NAMES, CLUE_COUNTS, strict=True)) == {
        "Red Lady": 3, "Red Tiger": 3, "Blue Lady": 3, "Blue Tiger": 3,
        "Blue/Red": 1, "Lady/Tiger": 1,
    }


def test_blue_red_counts_as_either_colour_and_no_role():
    assert has_colour(BLUE_RED, RED) and has_colour(BLUE_RED, BLUE)
    assert not has_role(BLUE_RED, LADY) and not has_role(BLUE_RED, TIGER)


def test_lady_tiger_counts_as_either_role_and_no_colour():
    assert has_role(LADY_TIGER, LADY) and has_role(LADY_TIGER, TIGER)
    assert not has_colour(LADY_TIGER, RED) and not has_colour(LADY_TIGER, BLUE)


def test_regular_cards_share_zero_one_or_two_traits_with_a_door():
    red_tiger = card_from_name("Red Tiger")
    assert shared_traits(card_from_name("Red Tiger"), red_tiger) == 2
    assert shared_traits(card_from_name("Red Lady"), red_tiger) == 1
    assert shared_traits(card_from_name("Blue Tiger"), red_tiger) == 1
    assert shared_traits(card_from_name("Blue Lady"), red_tiger) == 0


def test_rulebook_example_red_lady_set_of_four_red_cards():
    # Two Red Ladies, the Blue/Red wild and a Red Tiger: a Red set for the Red Lady.
    hand = counts("Red Lady", "Red Lady", "Blue/Red", "Red Tiger")
    assert matching_set_trait(hand, card_from_name("Red Lady")) == "Red"


def test_rulebook_table_for_the_red_tiger():
    red_tiger = card_from_name("Red Tiger")
    mixed = counts("Blue Lady", "Red Lady", "Blue Lady", "Blue Lady")
    assert matching_set_trait(mixed, red_tiger) is None
    assert matching_set_trait(counts(*["Blue Tiger"] * 4), red_tiger) == "Tiger"
    assert matching_set_trait(counts("Red Lady", "Red Lady", "Red Lady", "Red Tiger"),
                              red_tiger) == "Red"


def test_a_set_must_share_a_trait_with_the_door_in_question():
    # Four Blue cards are no set for the Red Tiger, but are one for the Blue Lady.
    blues = counts("Blue Lady", "Blue Lady", "Blue Tiger", "Blue/Red")
    assert matching_set_trait(blues, card_from_name("Red Tiger")) is None
    assert matching_set_trait(blues, card_from_name("Blue Lady")) == "Blue"


def test_three_cards_are_not_a_set():
    assert matching_set_trait(counts("Red Lady", "Red Lady", "Blue/Red"),
                              card_from_name("Red Lady")) is None
