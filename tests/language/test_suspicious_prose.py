"""Prose that reads like a rule (issue 12.7): a rule line without its `>`, and "Rendez-vous
au 9." as text in a paragraph with no way on. Load errors that such a line explains name it;
the rest are returned by `suspicious_prose` for the validator to report as warnings."""

from __future__ import annotations

import pytest
from dedale.language import suspicious_prose

from .play_helpers import load_errors, load_text

FR = "---\ntitre: t\n---\n"


def test_outcomes_after_a_test_without_its_arrow_name_the_text_line(tmp_path):
    text = FR + "§ 1\nUn garde.\ntentez votre habileté\n> réussite -> 2\n> échec -> 3\n"
    errors = load_errors(tmp_path, text + "§ 2\n> victoire\n§ 3\n> mort\n")
    assert [e.span.line for e in errors] == [7, 8]
    assert errors[0].message == "a test outcome without a test before it"
    assert errors[0].hint == (
        "line 6 `tentez votre habileté` is text: is its `>` missing? "
        "write `> tentez votre habileté`"
    )


def test_a_fight_line_without_its_arrow_is_suspected(tmp_path):
    # an enemy line starts a fight of its own, so the book loads; the mode line is only text
    text = FR + "§ 1\ncombat l'un après l'autre\n> ennemi ORC HABILETÉ 5 ENDURANCE 4\n"
    book = load_text(tmp_path, text + "> victoire -> 2\n§ 2\n> victoire\n")
    (found,) = suspicious_prose(book)
    assert found.span.line == 5 and "`combat l'un après l'autre`" in found.message


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("tentez votre habileté", 1),
        ("  perdez 2 ENDURANCE", 3),
        ("Prenez la Corde", 1),
        ("1-2 -> 3", 1),
        ("victoire", 1),
        ("test your luck", 1),
    ],
)
def test_a_rule_line_without_its_arrow_is_reported_with_its_place(tmp_path, line, column):
    book = load_text(tmp_path, FR + f"§ 1\nUn garde.\n{line}\n-> 3 Partir\n§ 3\n> victoire\n")
    (found,) = suspicious_prose(book)
    assert found.kind == "rule-as-prose"
    assert (found.span.line, found.span.column) == (6, column)
    assert found.hint.startswith(f"rule lines start with `>`: write `> {line.strip()}`")


def test_turn_to_in_the_text_of_a_dead_end(tmp_path):
    book = load_text(tmp_path, FR + "§ 1\nVous passez. Rendez-vous au 9.\n§ 9\n> victoire\n")
    (found,) = suspicious_prose(book)
    assert found.kind == "destination-in-prose"
    assert found.message == "the text sends the reader to 9, but this paragraph has no way on"
    assert (found.span.line, found.span.column) == (5, 14)
    assert "`> rendez-vous au 9`" in found.hint


@pytest.mark.parametrize(
    "prose",
    [
        "Si vous avez la clé, rendez-vous au 9.\n-> 9 (si Clé) Ouvrir\n-> 2 Partir",
        "Tentez votre Chance. Puis lisez la suite.\n-> 2 Suite",
        "Combat\nLe 12 mars, il pleuvait.\n-> 2 Suite",
        "Victoire !\n> victoire",
    ],
)
def test_ordinary_text_is_not_suspected(tmp_path, prose):
    book = load_text(tmp_path, FR + f"§ 1\n{prose}\n§ 2\n> victoire\n§ 9\n> victoire\n")
    assert suspicious_prose(book) == []
