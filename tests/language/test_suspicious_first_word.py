"""A prose line's first word, which decides whether it may be a rule line without its
``>``, is read from the folded start of the line only (issue 14.11): the same decision as
from the whole folded line, on every prose line of the sample books and on edge lines."""

from __future__ import annotations

from pathlib import Path

from dedale.language import load_book
from dedale.language import suspicious as s
from dedale.language.keywords import fold

ROOT = Path(__file__).resolve().parents[2]
EDGES = [
    "Combat", "combattez le troll", "Combattezzzzzzzzzzzzzzzzzz", "prenez", "PRENEZ l'épée",
    "Épée", "ÉPÉE rouillée", "3 pièces d'or", "12", "tentez votre chance", "tentez-", "-> 4",
    "a" * 40, "gagnez" + "é" * 30, "’tis", "l’ennemi", "Ennemi GOBELIN", "\u2212 1 si",
    "victoire", "Victory!", "go to 4", "rendez-vous au 7",
]  # fmt: skip


def _decision(folded: str, line: str) -> bool:
    first = s._FIRST.match(folded)
    return not (
        first is None or (first.group(0).lower() not in s._FIRST_WORDS and not line[0].isdigit())
    )


def test_the_start_of_the_line_decides_as_the_whole_line():
    lines = list(EDGES)
    for folder in sorted((ROOT / "books").iterdir()):
        if folder.is_dir():
            for paragraph in load_book(folder).paragraphs.values():
                lines += [line for _, line in s._prose_lines(paragraph.body)]
    assert len(lines) > 500
    kept = 0
    for line in lines:
        whole = _decision(fold(line), line)
        assert _decision(fold(line[: s._FIRST_SPAN]), line) == whole, line
        kept += whole
    assert kept  # some lines do go on to the parser
