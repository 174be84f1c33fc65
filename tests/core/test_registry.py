"""Loading games by name, with options checked and errors that list what is allowed."""

import pytest

import ladytiger
from ladytiger.core import BadOptionError, UnknownGameError


def test_registered_games_declare_name_players_options_and_description():
    infos = ladytiger.registered_games()
    assert "doors" in [info.name for info in infos]
    for info in infos:
        assert info.description and info.title
        assert 1 <= info.min_players <= info.max_players
        assert info.all_options()[0].name == "players"
        assert info.rules_page == f"docs/rules/{info.name}.md"


def test_load_game_uses_declared_defaults():
    game = ladytiger.load_game("doors")
    assert game.options == {"players": 2, "gems_to_win": 10, "random_first_collector": False}
    assert game.num_players == 2


def test_unknown_game_lists_the_games():
    with pytest.raises(UnknownGameError, match="there is no game called 'dors'.*doors"):
        ladytiger.load_game("dors")


def test_unknown_option_lists_the_options():
    with pytest.raises(BadOptionError, match="doors has no option 'speed'.*gems_to_win"):
        ladytiger.load_game("doors", speed=3)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 3}, "option 'players' cannot be 3; it must be one of 2"),
        ({"gems_to_win": 0}, "option 'gems_to_win' cannot be 0; it must be an integer >= 1"),
        ({"gems_to_win": "many"}, "cannot be 'many'"),
        ({"random_first_collector": "perhaps"}, "must be true or false"),
    ],
)
def test_bad_option_values_are_named(options, message):
    with pytest.raises(BadOptionError, match=message):
        ladytiger.load_game("doors", **options)


def test_option_text_from_a_command_line_is_converted():
    game = ladytiger.load_game("doors", gems_to_win="5", random_first_collector="true")
    assert game.options["gems_to_win"] == 5 and game.options["random_first_collector"] is True


def test_games_with_equal_options_are_equal():
    assert ladytiger.load_game("doors") == ladytiger.load_game("doors", gems_to_win=10)
    assert ladytiger.load_game("doors") != ladytiger.load_game("doors", gems_to_win=9)
