"""One finding per defect (issue 12.11): the cause is reported once, at its line; random
games report only what the static checks did not already explain. Each case asserts the
exact list of findings."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.validator import validate_path

YAML = "title: Once\nlanguage: {lang}\nruleset: df-classic\nstart: 1\n"

DEAD_END = "§ 1\nStart.\n-> 2 Go\n-> 3 Other\n\n§ 2\nNothing here.\n\n§ 3\n> victory\n"
MISSING = "§ 1\nStart.\n-> 2 Go\n-> 7 Other\n\n§ 2\n> victory\n"
# the author forgot `-> 3` after `> victoire`: winning the fight ends the book
FORGOTTEN_ARROW = """§ 1
Vous entrez dans la crypte.
-> 2 Avancer

§ 2
Un rat géant vous attaque.
> combat
> ennemi RAT GÉANT HABILETÉ 5 ENDURANCE 4
> victoire

§ 3
Un couloir.
-> 4 Continuer

§ 4
Une porte.
-> 5 Ouvrir
-> 6 Reculer

§ 5
Le trésor.
> victoire

§ 6
Une fosse.
> mort
"""


def findings(tmp_path: Path, text: str, lang: str = "en") -> list[tuple[str, int, str]]:
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "book.yaml").write_text(YAML.format(lang=lang), encoding="utf-8")
    (folder / "book.dd").write_text(text, encoding="utf-8")
    report = validate_path(folder, runs=200, seed=0)
    return [(f.code, f.span.line, str(f.message)) for f in report.findings]


def test_dead_end_is_not_also_a_stuck_random_game(tmp_path):
    assert findings(tmp_path, DEAD_END) == [
        ("E014", 6, "dead end: paragraph 2 has no way on and is not an ending")
    ]


def test_missing_target_is_not_also_a_crashed_random_game(tmp_path):
    assert findings(tmp_path, MISSING) == [
        ("E010", 4, "choice leads to paragraph 7, which does not exist")
    ]


def test_a_forgotten_arrow_after_a_fight_is_one_load_error_at_its_line(tmp_path):
    found = findings(tmp_path, FORGOTTEN_ARROW, "fr")
    assert [item[:2] for item in found] == [("E002", 9)]  # not 15 findings down the line


def test_a_cut_off_part_of_the_book_is_one_finding_where_it_begins(tmp_path):
    # the same book where the fight's paragraph simply ends the book: 3-6 are cut off
    text = FORGOTTEN_ARROW.replace("> combat\n> ennemi RAT GÉANT HABILETÉ 5 ENDURANCE 4\n", "")
    found = findings(tmp_path, text, "fr")
    assert [item[:2] for item in found] == [("W013", 9)]  # no I042, nor W013 for 4, 5, 6
    assert found[0][2] == (
        "paragraph 3 cannot be reached from the start (1), nor can the 3 paragraphs only "
        "it leads to: 4, 5, 6"
    )


@pytest.mark.parametrize("runs", [0, 200])
def test_two_separate_unreachable_paragraphs_stay_two(tmp_path, runs):
    text = "§ 1\nStart.\n-> 2 Go\n\n§ 2\n> victory\n\n§ 3\nLost.\n-> 2 Back\n\n§ 4\n-> 2 Back\n"
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "book.yaml").write_text(YAML.format(lang="en"), encoding="utf-8")
    (folder / "book.dd").write_text(text, encoding="utf-8")
    report = validate_path(folder, runs=runs, seed=0)
    assert [(f.code, f.paragraph) for f in report.findings] == [("W013", 3), ("W013", 4)]


def test_a_trap_that_is_a_forced_loop_is_reported_once(tmp_path):
    text = "§ 1\nStart.\n-> 2 Go\n-> 4 Leave\n\n§ 2\n> go to 3\n\n§ 3\n> go to 2\n\n"
    text += "§ 4\n> victory\n"
    assert [item[:2] for item in findings(tmp_path, text)] == [("E070", 10)]
