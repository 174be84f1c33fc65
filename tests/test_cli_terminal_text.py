"""The terminal: a run of the same log line is printed once with its count, and rows of
cards wrap between cards."""

from __future__ import annotations

from rich.console import Console

from ladytiger.cli.log_lines import grouped, print_log


def test_a_run_of_the_same_line_is_one_line_with_its_count():
    lines = ["Seat 1 puts out a card face down."] * 5 + ["Trick 1: [the Forest card]."]
    lines += ["Seat 1 draws.", "Seat 1 puts out a card face down."]
    assert grouped(lines) == [("Seat 1 puts out a card face down.", 5),
                              ("Trick 1: [the Forest card].", 1), ("Seat 1 draws.", 1),
                              ("Seat 1 puts out a card face down.", 1)]
    console = Console(record=True, width=80, color_system=None)
    print_log(console, lines, str.upper)
    printed = console.export_text().splitlines()
    assert printed[0] == "· SEAT 1 PUTS OUT A CARD FACE DOWN. (×5)"
    # A line is text, not markup: brackets are printed as they are.
    assert printed[1] == "· TRICK 1: [THE FOREST CARD]."
    assert len(printed) == 4


def test_a_long_row_of_cards_wraps_between_cards_never_inside_a_name():
    import re

    from ladytiger.cli.views.cards import card_row

    console = Console(record=True, width=40, color_system=None)
    console.print(card_row(["Blue Tiger", "Red Lady", "Blue/Red", "Lady/Tiger"] * 3))
    lines = [line.strip() for line in console.export_text().splitlines() if line.strip()]
    assert len(lines) > 1
    for line in lines:
        assert re.fullmatch(r"((Blue Tiger|Red Lady|Blue/Red|Lady/Tiger)\s*)+", line), line
