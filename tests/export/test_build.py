"""build_document: a sample book as its printed text (prose, sentences, refs, sheet)."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest
from dedale import ast
from dedale.export import document as doc
from dedale.export.build import build_document
from dedale.export.sentences import HANDLERS, Clauses
from dedale.language import load_book

BOOKS = Path(__file__).resolve().parents[2] / "books"


def text(inlines) -> str:
    """Inlines as plain text, a Ref as its number."""
    return "".join(
        piece if isinstance(piece, str) else str(getattr(piece, "number", None) or piece.text)
        for piece in inlines
    )


@pytest.fixture(scope="module")
def puits() -> doc.Document:
    return build_document(load_book(BOOKS / "le-puits-des-ombres"))


def test_every_statement_kind_has_a_sentence() -> None:
    kinds = set(typing.get_args(ast.Statement))
    missing = sorted(kind.__name__ for kind in kinds if kind not in HANDLERS)
    assert not missing, f"statement kinds without a printed sentence: {missing}"
    silent = {kind.__name__ for kind, handler in HANDLERS.items() if handler is Clauses.silent}
    assert silent == {"AllowRevisit", "HiddenParagraph"}  # marks only the player reads


def test_sections_follow_the_paragraph_numbers(puits: doc.Document) -> None:
    numbers = [section.number for section in puits.sections]
    assert numbers == sorted(numbers) and numbers[0] == 1
    assert puits.language == "fr" and puits.title == "Le Puits des Ombres"


def test_choices_are_printed_sentences_with_their_reference(puits: doc.Document) -> None:
    first = puits.sections[0]
    choices = [block for block in first.blocks if isinstance(block, doc.Choices)]
    choice = choices[0].items[0]
    assert text(choice.inlines) == "Sortir sur la place du village\u00a0: rendez-vous au 2."
    assert choice.target == doc.Ref(2) and doc.Ref(2) in choice.inlines


def test_luck_test_reads_as_the_printed_book(puits: doc.Document) -> None:
    section = next(s for s in puits.sections if s.number == 18)
    rule = next(block for block in section.blocks if isinstance(block, doc.Rule))
    assert text(rule.inlines) == (
        "Tentez votre Chance\u00a0: si vous êtes Chanceux, rendez-vous au 21\u202f; "
        "si vous êtes Malchanceux, rendez-vous au 19."
    )


def test_enemy_box_and_win_sentence(puits: doc.Document) -> None:
    section = next(s for s in puits.sections if s.number == 19)
    box = next(block for block in section.blocks if isinstance(block, doc.EnemyBox))
    assert box.enemies[0].stats == (("HABILETÉ", "8"), ("ENDURANCE", "7"))
    rules = [text(b.inlines) for b in section.blocks if isinstance(b, doc.Rule)]
    assert "Si vous êtes vainqueur, rendez-vous au 21." in rules


def test_renumbering_reaches_every_reference(puits: doc.Document) -> None:
    moved = puits.renumbered({18: 90, 21: 91})
    section = next(s for s in moved.sections if s.number == 90)
    rule = next(block for block in section.blocks if isinstance(block, doc.Rule))
    assert doc.Ref(91) in rule.inlines and doc.Ref(21) not in rule.inlines
