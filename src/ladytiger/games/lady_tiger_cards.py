"""The Lady and the Tiger's deck, shared by Doors, Favor, Hoard, Labyrinth and Traps.

Every card has two traits, a colour (Red or Blue) and a role (Lady or Tiger). The four Door
cards are one of each identity. The 14 Clue cards are three of each identity plus two wilds:
Blue/Red has both colours and no role, Lady/Tiger has both roles and no colour.

Cards are small ints so states copy cheaply: a regular card's number is colour * 2 + role.
"""

from __future__ import annotations

from typing import Final

RED, BLUE = 0, 1
LADY, TIGER = 0, 1
COLOUR_NAMES: Final = ("Red", "Blue")
ROLE_NAMES: Final = ("Lady", "Tiger")

RED_LADY, RED_TIGER, BLUE_LADY, BLUE_TIGER = 0, 1, 2, 3
BLUE_RED: Final = 4  # wild: counts as either colour, has no role
LADY_TIGER: Final = 5  # wild: counts as either role, has no colour

IDENTITIES: Final = (RED_LADY, RED_TIGER, BLUE_LADY, BLUE_TIGER)
CLUE_KINDS: Final = (RED_LADY, RED_TIGER, BLUE_LADY, BLUE_TIGER, BLUE_RED, LADY_TIGER)
WILDS: Final = (BLUE_RED, LADY_TIGER)
CARD_NAMES: Final = ("Red Lady", "Red Tiger", "Blue Lady", "Blue Tiger", "Blue/Red", "Lady/Tiger")
CLUE_COUNTS: Final = (3, 3, 3, 3, 1, 1)
CLUE_DECK_SIZE: Final = sum(CLUE_COUNTS)  # 14
DOOR_COUNT: Final = len(IDENTITIES)  # 4

_BY_NAME: Final = {name.lower(): card for card, name in enumerate(CARD_NAMES)}
_EXACT: Final = {name: card for card, name in enumerate(CARD_NAMES)}


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def card_from_name(name: str) -> int:
    """The card called `name` (any case); KeyError if there is none."""
    card = _EXACT.get(name)  # the engine's own spelling, the common case
    return card if card is not None else _BY_NAME[" ".join(name.split()).lower()]


def identity(colour: int, role: int) -> int:
    return colour * 2 + role


def colour_of(card: int) -> int | None:
    """The single colour of a regular card; None for the wilds."""
    return card >> 1 if card < 4 else None


def role_of(card: int) -> int | None:
    """The single role of a regular card; None for the wilds."""
    return card & 1 if card < 4 else None


def has_colour(card: int, colour: int) -> bool:
    """Whether `card` counts as `colour` (Blue/Red counts as both, Lady/Tiger as neither)."""
    if card == BLUE_RED:
        return True
    if card == LADY_TIGER:
        return False
    return card >> 1 == colour


def has_role(card: int, role: int) -> bool:
    """Whether `card` counts as `role` (Lady/Tiger counts as both, Blue/Red as neither)."""
    if card == LADY_TIGER:
        return True
    if card == BLUE_RED:
        return False
    return card & 1 == role


def shared_traits(card: int, door: int) -> int:
    """How many of the door's two traits a regular card has (0, 1 or 2)."""
    return int(card >> 1 == door >> 1) + int(card & 1 == door & 1)


# The two regular cards and the wild that count as each colour, and as each role. Counting
# is asked often (every take may complete a set), so it reads these instead of testing cards.
_WITH_COLOUR: Final = tuple(
    tuple(c for c in CLUE_KINDS if has_colour(c, colour)) for colour in (RED, BLUE)
)
_WITH_ROLE: Final = tuple(
    tuple(c for c in CLUE_KINDS if has_role(c, role)) for role in (LADY, TIGER)
)


def count_with_colour(counts: list[int] | tuple[int, ...], colour: int) -> int:
    """How many cards of a per-kind count vector count as `colour` (a vector may stop
    before the wilds)."""
    first, second, wild = _WITH_COLOUR[colour]
    total = counts[first] + counts[second]
    return total + counts[wild] if len(counts) > wild else total


def count_with_role(counts: list[int] | tuple[int, ...], role: int) -> int:
    first, second, wild = _WITH_ROLE[role]
    total = counts[first] + counts[second]
    return total + counts[wild] if len(counts) > wild else total


SET_SIZE: Final = 4


def matching_set_trait(counts: list[int] | tuple[int, ...], door: int) -> str | None:
    """The trait of `door` ("Red", "Tiger", ...) on which `counts` hold a set of 4, if any.

    A set is four cards sharing one trait with the door; colour is checked before role.
    """
    colour, role = door >> 1, door & 1
    if count_with_colour(counts, colour) >= SET_SIZE:
        return COLOUR_NAMES[colour]
    if count_with_role(counts, role) >= SET_SIZE:
        return ROLE_NAMES[role]
    return None


def cards_listing(counts: list[int] | tuple[int, ...]) -> list[str]:
    """Card names of a per-kind count vector, in card order (stable, leaks no draw order)."""
    return [CARD_NAMES[card] for card, n in enumerate(counts) for _ in range(n)]
