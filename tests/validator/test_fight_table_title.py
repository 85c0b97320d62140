"""The fight table names what its second figure spends, as the ruleset does: Luck (FF),
Courage (reliques' heroism), or nothing at all when the fights have no such choice (d20)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.validator.checker import validate_path
from dedale.validator.report.text import render

BOOKS = Path(__file__).resolve().parent / "books"


def _write(tmp_path: Path, ruleset: str, enemy: str) -> Path:
    folder = tmp_path / ruleset
    folder.mkdir()
    (folder / "book.yaml").write_text(f"titre: T\nlangue: fr\njeu de règles: {ruleset}\n")
    (folder / "a.dd").write_text(
        f"§ 1\n> combat\n> ennemi {enemy}\n> victoire -> 2\n\n§ 2\n> victoire\n"
    )
    return folder


@pytest.mark.parametrize(
    ("ruleset", "enemy", "title", "cell"),
    [
        ("df-classic", "ORQUE HABILETÉ 7 ENDURANCE 6", "sans Chance / Chance au mieux", " / "),
        ("reliques", "Spectre FOR 2 AGL 2 PER 2 CON 2 arme 1", "sans Courage / Courage au",
         " / "),
        ("d20", "Brigand CA 12 attaque +2 dégâts 1d6 PV 9", "(probabilité de victoire)", None),
    ],
)  # fmt: skip
def test_the_title_says_what_the_best_figure_spends(tmp_path, ruleset, enemy, title, cell):
    report = validate_path(_write(tmp_path, ruleset, enemy), runs=0)
    stream = io.StringIO()
    render([report], stream, all_fights=True)
    text = stream.getvalue()
    line = next(row for row in text.splitlines() if row.startswith("Chances en combat"))
    assert title in line, line
    row = next(r for r in text.splitlines() if r.startswith("│ 1 "))
    assert (" / " in row) == (cell is not None), row
