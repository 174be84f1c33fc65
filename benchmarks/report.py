"""Write one benchmark's figures into its own section of docs/performance.md.

Each benchmark owns the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`, so
benchmarks can be rerun one at a time without touching each other's figures.
"""

from __future__ import annotations

from pathlib import Path

PERFORMANCE_PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
HEADER = (
    "# Performance\n\n"
    "Figures written by the scripts under `benchmarks/`; each section says how it was "
    "measured. Rerun a script to refresh its section.\n"
)


def write_section(name: str, markdown: str, page: Path = PERFORMANCE_PAGE) -> None:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    text = page.read_text() if page.exists() else HEADER
    block = f"{start}\n{markdown.strip()}\n{end}"
    if start in text and end in text:
        before, _, rest = text.partition(start)
        _, _, after = rest.partition(end)
        text = before + block + after
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text)
