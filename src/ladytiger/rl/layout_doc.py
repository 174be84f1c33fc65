"""Write every game's tensor layout into docs/rl.md: `python -m ladytiger.rl.layout_doc`.

The page's prose is kept; only the text between `<!-- layouts:start -->` and
`<!-- layouts:end -->` is rewritten. A test checks the page matches the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ladytiger
from ladytiger.rl.encoders import encoder_for

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
    return "\n".join(parts)


def main(page: str = "docs/rl.md") -> None:
    path = Path(page)
    text = path.read_text()
    before, _, rest = text.partition(START)
    _, _, after = rest.partition(END)
    path.write_text(f"{before}{START}\n{layouts_markdown()}\n{END}{after}")


if __name__ == "__main__":
    main(*sys.argv[1:])
