"""Grammar for the log and the moments: who did what, in words a player would write.

A log line is written for one viewer. Their own seat is "You" (and the verb agrees: "You
take", "You are"); any other seat is "Seat N", always with a capital S, because a client
swaps that exact text for the player's name. Texts written for nobody in particular (the
moments) name every seat as "Seat N".

Lists are joined with "and" and no serial comma ("a, b and c"); counts put the noun in the
plural when they are not 1; a sentence starts with a capital letter and ends with a stop.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

# Verbs whose third person is not made by the usual rules.
_IRREGULAR: Final = {"be": "is", "have": "has", "do": "does", "go": "goes"}
# What "You" takes where a seat takes the irregular form above.
_YOU: Final = {"be": "are"}
_NUMBER_WORDS: Final = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)
_ORDINALS: Final = ("first", "second", "third", "fourth", "fifth", "sixth")
_ENDINGS: Final = (".", "!", "?")


def seat_word(seat: int) -> str:
    """A seat as every text names it to someone who does not sit there."""
    return f"Seat {seat}"


def who(seat: int, viewer: int | None) -> str:
    """The seat as the subject at the start of a sentence: "You" or "Seat 2"."""
    return "You" if seat == viewer else seat_word(seat)


def whom(seat: int, viewer: int | None) -> str:
    """The seat anywhere after the start of a sentence: "you" or "Seat 2"."""
    return "you" if seat == viewer else seat_word(seat)


def whose(seat: int, viewer: int | None) -> str:
    """The possessive: "your" or "Seat 2's"."""
    return "your" if seat == viewer else f"{seat_word(seat)}'s"


def yours(seat: int, viewer: int | None) -> str:
    """The possessive standing alone ("... and yours the Red Tiger"): "yours" or "Seat 2's"."""
    return "yours" if seat == viewer else f"{seat_word(seat)}'s"


def their(seat: int, viewer: int | None) -> str:
    """The possessive pronoun for a seat already named: "your" or "their"."""
    return "your" if seat == viewer else "their"


def them(seat: int, viewer: int | None) -> str:
    """The object pronoun for a seat already named: "you" or "them"."""
    return "you" if seat == viewer else "them"


# The verbs are a small fixed vocabulary asked for on every step the bots compare.
@lru_cache(maxsize=512)
def third_person(verb: str) -> str:
    """"take" -> "takes", "guess" -> "guesses", "carry" -> "carries", "be" -> "is"."""
    head, space, tail = verb.partition(" ")
    if head in _IRREGULAR:
        head = _IRREGULAR[head]
    elif head.endswith(("s", "sh", "ch", "x", "z")):
        head += "es"
    elif head.endswith("y") and len(head) > 1 and head[-2] not in "aeiou":
        head = head[:-1] + "ies"
    else:
        head += "s"
    return head + space + tail


def agree(verb: str, seat: int, viewer: int | None) -> str:
    """The verb as the seat's subject takes it: "You take", "Seat 1 takes"."""
    return plural_verb(verb) if seat == viewer else third_person(verb)


def was(seat: int, viewer: int | None) -> str:
    """The past of "be" for the seat: "were" for you, "was" for a seat."""
    return "were" if seat == viewer else "was"


def does(seat: int, viewer: int | None, verb: str, rest: str = "", start: bool = True) -> str:
    """A clause with the seat as subject: does(1, 0, "take", "the Red Lady") gives
    "Seat 1 takes the Red Lady"; as the viewer, "You take the Red Lady"."""
    subject = who(seat, viewer) if start else whom(seat, viewer)
    clause = f"{subject} {agree(verb, seat, viewer)}"
    return f"{clause} {rest}" if rest else clause


@lru_cache(maxsize=512)
def plural_verb(verb: str) -> str:
    """The verb for several subjects ("Seat 1 and Seat 2 are")."""
    head, space, tail = verb.partition(" ")
    return _YOU.get(head, head) + space + tail


def standing(counts: Sequence[int], noun: str) -> str:
    """Every seat's count as one clause: "Seat 0 has 4 gems and Seat 1 has 1 gem"."""
    return join([f"{seat_word(seat)} has {plural(n, noun)}" for seat, n in enumerate(counts)])


def join(items: Sequence[str], conjunction: str = "and") -> str:
    """"a", "a and b", "a, b and c" (no comma before the last)."""
    items = [item for item in items if item]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """"1 gem", "3 gems", "0 gems"; `many` for a noun whose plural is not noun + "s"."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {many if many is not None else plural_noun(noun)}"


def plural_noun(noun: str) -> str:
    """The plural of a noun, or of the last word of a phrase ("Door card" -> "Door cards")."""
    head, space, last = noun.rpartition(" ")
    if last.endswith(("s", "sh", "ch", "x", "z")):
        last += "es"
    elif last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "s"
    return head + space + last


def article(word: str) -> str:
    """"a" or "an" by how the word sounds: "an 8", "an 11", "a Red Lady", "an empty"."""
    first = word.lstrip()[:2]
    if not first:
        return "a"
    if first[0].isdigit():
        number = word.lstrip().split()[0].rstrip(",.;:")
        digits = number.split("-")[0]
        # Spoken 8, 11, 18, 80-89 and 800-899... begin with a vowel sound.
        if digits.startswith("8") or digits in ("11", "18") or (
            len(digits) in (5, 8) and digits.startswith(("11", "18"))
        ):
            return "an"
        return "a"
    return "an" if first[0].lower() in "aeio" else "a"


def a(word: str) -> str:
    """The word with its indefinite article: "a Red Lady", "an 8"."""
    return f"{article(word)} {word}"


def some(count: int, noun: str, many: str | None = None) -> str:
    """"a card" for one, "3 cards" for more, "no cards" for none."""
    if count == 1:
        return a(noun)
    if count == 0:
        return f"no {many if many is not None else plural_noun(noun)}"
    return plural(count, noun, many)


def number_word(count: int) -> str:
    """Small counts spelled out ("three"), larger ones as digits."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def ordinal(number: int) -> str:
    """"first", "second", ... for small numbers; "7th" beyond."""
    if 1 <= number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th"
    )
    return f"{number}{suffix}"


def signed(points: int) -> str:
    """Points with their sign: "+50", "-20", "0"."""
    return f"+{points}" if points > 0 else str(points)


def capitalise(text: str) -> str:
    """The text with its first letter in capitals (the rest untouched)."""
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    """A finished sentence: a capital first letter, and a full stop unless it already ends
    with one, or with "!" or "?"."""
    text = capitalise(text.strip())
    return text if text.endswith(_ENDINGS) else f"{text}."


# ---------------------------------------------------------------------------- runs of steps
# The log merges a run of steps into one line (core/state.py, LogPart). These write that
# line from each step's data, for the shapes several games share.


def dealt(steps: Sequence[dict[str, Any]]) -> str:
    """One sentence for a deal of several steps, each dealing one thing to one seat.

    Each step's data: `seat` (who receives), `viewer`, `item` (what the viewer saw dealt,
    with its article, or None when it is hidden from them), `verb` ("be dealt", "draw"),
    `noun` (what a hidden item is called, "card"), and optionally `lead` (words before a
    colon, "Round 2") and `name` (the item's bare name, "Red Lady", so that repeats are
    counted: "three Red Ladies"). The
    viewer's own items are listed; every other seat's are counted, and seats dealt the same
    count in a row share a clause ("Seat 1 and Seat 2 are dealt 3 cards each").
    """
    first = steps[0]
    viewer = first["viewer"]
    verb = str(first["verb"])
    noun = str(first["noun"])
    lead = first.get("lead")
    if len(steps) == 1:
        # One step, the form the bots compare on every deal: no counting to do.
        item = first["item"] if first["item"] is not None else a(noun)
        text = does(first["seat"], viewer, verb, item, not lead)
        return f"{lead}: {text}." if lead else f"{text}."
    order: list[int] = []
    shown: dict[int, dict[Any, list[str]]] = {}  # per seat, each name's items in order
    hidden: dict[int, int] = {}
    for step in steps:
        seat = step["seat"]
        if seat not in shown:
            order.append(seat)
            shown[seat], hidden[seat] = {}, 0
        if step["item"] is None:
            hidden[seat] += 1
        else:
            # Without a bare name an item is never counted with another.
            name = step.get("name") or len(shown[seat])
            shown[seat].setdefault(name, []).append(str(step["item"]))
    clauses: list[str] = []
    alike: list[int] = []  # seats in a row dealt the same count of hidden items

    def flush() -> None:
        if len(alike) == 1:
            count = some(hidden[alike[0]], noun)
            clauses.append(does(alike[0], viewer, verb, count, False))
        elif alike:
            seats = join([whom(seat, viewer) for seat in alike])
            count = some(hidden[alike[0]], noun)
            clauses.append(f"{seats} {plural_verb(verb)} {count} each")
        alike.clear()

    for seat in order:
        if shown[seat]:
            flush()
            clauses.append(does(seat, viewer, verb, _listed(shown[seat]), False))
        else:
            if alike and hidden[alike[0]] != hidden[seat]:
                flush()
            alike.append(seat)
    flush()
    text = "; ".join(clauses)
    return sentence(f"{lead}: {text}" if lead else text)


def _listed(named: dict[Any, list[str]]) -> str:
    """Items grouped by name: one stays as it is ("an 8"), repeats are counted ("two 7s")."""
    return join(
        [
            items[0] if len(items) == 1 else f"{number_word(len(items))} {plural_noun(str(name))}"
            for name, items in named.items()
        ]
    )


def turned_up(steps: Sequence[dict[str, Any]]) -> str:
    """One sentence for cards turned face up one after another: each step's data holds
    `item` (the card's name, no article) and `where` (words after "turned up", or "")."""
    where = str(steps[0]["where"])
    items = [str(step["item"]) for step in steps]
    if len(items) == 1:
        return sentence(f"the {items[0]} is turned up{where}")
    return sentence(f"{number_word(len(items))} cards are turned up{where}: {join(items)}")
