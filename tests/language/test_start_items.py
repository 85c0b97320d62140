"""book.yaml's starting items (issue 12.1): written as a take line's argument, parsed by the
take rule into located GainItems, given at creation by the interpreter's take handler."""

from __future__ import annotations

import pytest
from dedale import ast
from dedale.plain.player import EXIT_VICTORY
from dedale.validator import validate_path

from .play_helpers import load_errors, load_text, transcript

PARAGRAPHS = """§ 1
Une porte de chêne.
-> 2 (si Épée) Forcer la porte avec l'épée
-> 3 Partir
§ 2
> victoire
§ 3
> mort
"""


def folder_book(tmp_path, items_yaml: str):
    (tmp_path / "book.yaml").write_text(
        f"titre: L'épée\nlangue: fr\njeu-de-règles: df-classic\n{items_yaml}", "utf-8"
    )
    (tmp_path / "texte.dd").write_text(PARAGRAPHS, "utf-8")
    return tmp_path


def test_a_starting_sword_is_given_offered_and_shown_end_to_end(tmp_path):
    root = folder_book(tmp_path, "objets: [Épée (arme, HABILETÉ +1), 2 Torches]\n")
    from dedale.language import load_book

    book = load_book(root)
    sword, torches = book.meta.items
    assert (sword.item, sword.weapon, sword.effects[0].stat, sword.effects[0].amount) == (
        "Épée", True, "HABILETÉ", 1,
    )  # fmt: skip
    assert sword.span.file.endswith("book.yaml") and (sword.span.line, sword.span.column) == (4, 10)
    assert (torches.item, torches.count) == ("Torches", 2)
    report = validate_path(root, runs=50)
    assert [f for f in report.findings if "Épée" in f.message or "Torches" in f.message] == []
    assert report.count("error") == 0
    code, text = transcript(book, "feuille\n1\n", lang="fr")
    assert "Forcer la porte avec l'épée" in text
    assert "Objets\u00a0:\n    Épée (HABILETÉ +1)\n    Torches x2" in text
    assert code == EXIT_VICTORY


def test_block_lists_and_items_without_effects(tmp_path):
    book = load_text(
        tmp_path,
        "---\ntitle: t\nlanguage: en\nitems:\n  - Lantern\n  - Short Sword (weapon, SKILL +2)\n"
        "---\n§ 1\n> victory\n",
    )
    lantern, sword = book.meta.items
    assert isinstance(lantern, ast.GainItem) and lantern.item == "Lantern"
    assert (lantern.span.line, lantern.span.column) == (5, 5)
    assert sword.item == "Short Sword" and sword.effects[0].amount == 2


def test_starting_items_are_in_the_heros_hands_before_the_first_paragraph(tmp_path):
    from dedale.game import Game

    book = load_text(
        tmp_path, "---\ntitle: t\nlanguage: en\nitems: [Rope, 3 Torches]\n---\n§ 1\n> victory\n"
    )
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en")
    while game.next() is not None:
        pass
    assert game.state.hero.items == {"Rope": 1, "Torches": 3}


@pytest.mark.parametrize(
    ("items", "message", "column"),
    [
        ("[Épée (arme, HABILITÉ +1)]", "unknown stat `HABILITÉ`", 22),
        ("[Épée (arme, HABILETÉ +)]", "unexpected `+`", 31),
        ("[Épée (arme]", "unexpected end of line; expected `)`", None),
    ],
)
def test_a_bad_starting_item_is_a_located_error(tmp_path, items, message, column):
    errors = load_errors(tmp_path, f"---\ntitle: t\nobjets: {items}\n---\n§ 1\n> victoire\n")
    assert len(errors) == 1 and errors[0].message.startswith(message), errors[0].message
    assert errors[0].span.line == 3
    if column is not None:
        assert errors[0].span.column == column


@pytest.mark.parametrize("items", ["[Corde, Clé: fer]", "[Corde, [a, b]]", "[Corde, true]", "[~]"])
def test_an_entry_that_is_not_one_line_of_text_is_refused(tmp_path, items):
    (error,) = load_errors(tmp_path, f"---\ntitle: t\nobjets: {items}\n---\n§ 1\n> victoire\n")
    assert error.message == "a starting item is one line naming an item"
    assert error.span.line == 3 and error.span.column > 9
