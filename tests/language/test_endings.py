"""An ending line cannot be confused with a fight outcome (issue 12.6): `> victoire` ends the
book, `> victoire -> 10` is where a won fight goes. Both languages."""

from __future__ import annotations

import pytest
from dedale.plain.player import EXIT_VICTORY

from .play_helpers import load_errors, load_text, transcript

FR = "---\ntitle: t\nruleset: df-classic\nlanguage: fr\n---\n"
EN = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"


@pytest.mark.parametrize(
    ("head", "fight"),
    [
        (FR, "> combat\n> ennemi GOBELIN HABILETÉ 5 ENDURANCE 4\n> victoire\n"),
        (EN, "> fight\n> enemy GOBLIN SKILL 5 STAMINA 4\n> victory\n"),
        (FR, "> combat GOBELIN HABILETÉ 5 ENDURANCE 4\nLe gobelin s'effondre.\n> victoire\n"),
    ],
)
def test_a_forgotten_arrow_after_a_fight_says_what_was_meant(tmp_path, head, fight):
    (error,) = load_errors(tmp_path, head + "§ 1\n" + fight + "§ 10\n> victoire\n")
    assert "right after a fight" in error.message
    assert "`> victoire -> N`" in error.message
    assert error.span.line == 6 + fight.count("\n") and error.span.column == 3


def test_death_right_after_a_fight_names_the_defeat_outcome(tmp_path):
    (error,) = load_errors(tmp_path, EN + "§ 1\n> fight ORC SKILL 5 STAMINA 4\n> death\n")
    assert "`> défaite -> N`" in error.message and "already ends the book" in error.hint


def test_an_ending_after_a_fight_with_its_win_line_is_never_reached(tmp_path):
    text = FR + "§ 1\n> combat ORC HABILETÉ 5 ENDURANCE 4\n> victoire -> 2\n> victoire\n"
    (error,) = load_errors(tmp_path, text + "§ 2\n> victoire\n")
    assert error.hint == "this fight already goes to 2 when won, so this line is reached by no one"


@pytest.mark.parametrize(
    ("after", "what"),
    [("-> 2 Continuer", "this choice comes after"), ("> prenez Corde", "this line comes after")],
)
def test_nothing_but_prose_may_follow_an_ending(tmp_path, after, what):
    text = FR + f"§ 1\nVous avez gagné.\n> victoire\nFin.\n{after}\n§ 2\n> mort\n"
    (error,) = load_errors(tmp_path, text)
    assert error.message.startswith(what) and "ends the book" in error.message
    assert (error.span.line, error.span.column) == (10, 1 if after.startswith("->") else 3)
    assert "line 8" in error.hint


def test_the_fight_outcome_and_the_ending_play_as_written(tmp_path):
    book = load_text(
        tmp_path,
        FR + "§ 1\n> combat GOBELIN HABILETÉ 1 ENDURANCE 2\n> victoire -> 10\n"
        "§ 10\nLe chemin est libre.\n> victoire\n",
    )
    code, text = transcript(book, "n\n" * 40, lang="fr", hero=(12, 24, 9))
    assert code == EXIT_VICTORY and "Le chemin est libre." in text


def test_a_fight_outcome_without_a_fight_says_how_to_end_the_book(tmp_path):
    (error,) = load_errors(tmp_path, FR + "§ 1\nVous avez gagné.\n> victoire -> 2\n§ 2\n> mort\n")
    assert error.message == "`win ->`/`victoire ->` without a fight before it"
    assert "write `> victory` / `> victoire` alone" in error.hint
    assert (error.span.line, error.span.column) == (8, 3)


def test_dedale_validate_shows_the_forgotten_arrow_once_with_its_hint(tmp_path, capsys):
    from dedale.cli import main

    path = tmp_path / "book.dd"
    path.write_text(FR + "§ 1\n> combat GOBELIN HABILETÉ 5 ENDURANCE 4\n> victoire\n", "utf-8")
    code = main(["validate", str(path), "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.count("right after a fight") == 1 and "hint: to go on after winning" in out
    code = main(["validate", str(path)])  # a French book is answered in French
    out = capsys.readouterr().out
    assert code == 1 and out.count("juste après un combat") == 1
