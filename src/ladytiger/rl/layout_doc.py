"""Write every game's tensor layout into docs/rl.md: `python -m ladytiger.rl.layout_doc`.

The page's prose is kept; only the text between `<!-- layouts:start -->` and
`<!-- layouts:end -->` is rewritten. A test checks the page matches the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ladytiger
from ladytiger.rl.encoders import encoder_for
from ladytiger.rl.infostate import MAX_TENSOR_SIZE, info_state_encoder

START, END = "<!-- layouts:start -->", "<!-- layouts:end -->"


def layouts_markdown() -> str:
    parts = []
    for info in ladytiger.registered_games():
        parts.append(f"### {info.title} (`{info.name}`)")
        for players in info.player_counts():
            game = ladytiger.load_game(info.name, players=players)
            encoder = encoder_for(game)
            parts.append(
                f"{players} player{'s' if players > 1 else ''}: size {encoder.size}, "
                f"action mask size {game.num_distinct_actions()}.\n"
            )
            parts.append(
                f"<!-- layout:{info.name}:{players} -->\n{encoder.layout_markdown()}\n"
                "<!-- /layout -->\n"
            )
            parts.append(info_state_line(game, encoder))
    return "\n".join(parts)


def info_state_line(game: ladytiger.Game, encoder: object) -> str:
    history = info_state_encoder(game, encoder)  # type: ignore[arg-type]
    if history is not None:
        return (
            f"Information-state tensor: size {history.size} = the observation "
            f"({encoder.size}) + {history.steps} steps x {history.slot} "  # type: ignore[attr-defined]
            f"(1 chance + {history.players} seats + 1 unknown + {history.width} actions).\n"
        )
    if not game.info.imperfect_information:
        return "Information-state tensor: not offered (nothing is hidden).\n"
    return (
        f"Information-state tensor: not offered (the step bound, {game.max_game_length()}, "
        f"would make it larger than {MAX_TENSOR_SIZE:,} entries).\n"
    )


def main(page: str = "docs/rl.md") -> None:
    path = Path(page)
    text = path.read_text()
    before, _, rest = text.partition(START)
    _, _, after = rest.partition(END)
    path.write_text(f"{before}{START}\n{layouts_markdown()}\n{END}{after}")


if __name__ == "__main__":
    main(*sys.argv[1:])
