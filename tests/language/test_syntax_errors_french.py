"""Syntax errors (E001) of a French book are in French, with French keywords in their hints;
an English book keeps its English messages (the catalogue translates, the text stays)."""

from __future__ import annotations

import json

import pytest
from dedale.cli import main
from dedale.errors import BookLoadError
from dedale.i18n import Message
from dedale.language import load_book
from dedale.language.parser import KNOWN_MISTAKES, _known_mistake

FRENCH = "titre: Test\nlangue: fr\njeu de règles: df-classic\n"
ENGLISH = "title: Test\nlanguage: en\nruleset: df-classic\n"
LINES = (
    "§ 1\n"
    "> comabt GOBELIN HABILETÉ 5 ENDURANCE 4\n"
    "> victoire 50\n"
    "-> 2 (sinon) Partir\n"
    "> perdez 2 ENDURANCE )\n"
    "§ 2\n> mort\n"
)
# (message, hint) of each line above, in French then in English
FRENCH_FINDINGS = [
    ("directive inconnue `comabt`", "vouliez-vous dire `combat`\u202f?"),
    (
        "une issue de combat demande `->` et un paragraphe",
        "écrivez `> victoire -> 50`, `> fuite -> 20` / `> win -> 50`, `> escape -> 20`",
    ),
    ("option de choix inconnue `sinon`", "les options d'un choix sont `si ...`"),
    ("`)` inattendu\u202f; attendu\u00a0: ", None),
]
ENGLISH_FINDINGS = [
    ("unknown directive `comabt`", "did you mean `combat`?"),
    (
        "a fight option needs `->` and a paragraph",
        "write `> win -> 50`, `> escape -> 20` / `> victoire -> 50`, `> fuite -> 20`",
    ),
    ("unknown choice option `sinon`", "choice options are `if ...`"),
    ("unexpected `)`; expected ", None),
]


def _book(tmp_path, front: str, lines: str = LINES):
    (tmp_path / "book.yaml").write_text(front, encoding="utf-8")
    (tmp_path / "a.dd").write_text(lines, encoding="utf-8")
    return tmp_path


def _errors(folder) -> list:
    with pytest.raises(BookLoadError) as caught:
        load_book(folder)
    return caught.value.errors


@pytest.mark.parametrize(("lang", "expected"), [("fr", FRENCH_FINDINGS), ("en", ENGLISH_FINDINGS)])
def test_the_loader_errors_translate_to_the_report_language(tmp_path, lang, expected):
    errors = _errors(_book(tmp_path, FRENCH if lang == "fr" else ENGLISH))
    assert [e.span.line for e in errors] == [2, 3, 4, 5]
    for error, (message, hint) in zip(errors, expected, strict=True):
        assert isinstance(error.message, Message)
        assert error.message.translate(lang).startswith(message)
        if hint is None:
            assert error.hint is None
        else:
            assert error.hint.translate(lang).startswith(hint)
    # the list of what was expected is translated item by item
    unexpected = errors[3].message.translate(lang)
    end_of_line = "la fin de la ligne" if lang == "fr" else "the end of the line"
    assert end_of_line in unexpected


@pytest.mark.parametrize(
    ("front", "expected"), [(FRENCH, FRENCH_FINDINGS), (ENGLISH, ENGLISH_FINDINGS)]
)
def test_validate_answers_a_book_in_its_language(tmp_path, capsys, front, expected):
    folder = _book(tmp_path, front)
    assert main(["validate", str(folder)]) == 1
    text = capsys.readouterr().out
    for message, hint in expected:
        assert message in text
        if hint is not None:
            assert hint in text
    assert main(["validate", "--format", "json", str(folder)]) == 1
    findings = json.loads(capsys.readouterr().out)["books"][0]["findings"]
    assert [f["code"] for f in findings] == ["E001"] * 4
    for finding, (message, hint) in zip(findings, expected, strict=True):
        assert finding["message"].startswith(message)
        assert (finding["hint"] or "").startswith(hint or "")


def test_lang_fr_translates_an_english_books_syntax_errors(tmp_path, capsys):
    folder = _book(tmp_path, ENGLISH)
    assert main(["validate", "--format", "json", "--lang", "fr", str(folder)]) == 1
    findings = json.loads(capsys.readouterr().out)["books"][0]["findings"]
    assert findings[0]["message"] == "directive inconnue `comabt`"
    assert findings[0]["hint"] == "vouliez-vous dire `combat`\u202f?"


def test_every_known_mistake_is_recognised_and_translated():
    """Each example of KNOWN_MISTAKES gets its own (message, hint) back, both Messages with a
    French translation (the tuple labels go through Lark's match_examples unchanged)."""
    for label, examples in KNOWN_MISTAKES.items():
        for example in examples:
            assert _known_mistake(example) == label, example
        message, hint = label
        assert isinstance(message, Message) and isinstance(hint, Message)
        assert message.translate("fr") != message and hint.translate("fr") != hint


def test_a_known_mistake_hint_names_the_french_keywords_first(tmp_path):
    (error,) = _errors(_book(tmp_path, FRENCH, "§ 1\n> testez votre chance\n> chanceux 30\n"))
    assert error.message.translate("fr") == (
        "une issue demande `->` et un paragraphe, ou `:` et une directive"
    )
    assert error.hint.translate("fr") == (
        "écrivez `> chanceux -> 30` ou `> malchanceux\u00a0: perdez 2 ENDURANCE`"
    )


def test_a_paragraph_defined_twice_and_a_missing_start_are_told_in_french(tmp_path):
    folder = _book(tmp_path, FRENCH, "§ 12\nx\n> mort\n\n§ 12\ny\n> mort\n")
    errors = _errors(folder)
    shown = {(e.message.translate("fr"), e.hint.translate("fr")) for e in errors}
    twice = f"le paragraphe 12 est déjà défini en {folder / 'a.dd'}:1:1"
    assert shown == {
        ("le paragraphe de départ 1 n'existe pas", "le premier paragraphe est le 12"),
        ("le paragraphe 12 est défini deux fois", twice),
    }
    assert {e.message.translate("en") for e in errors} == {
        "the start paragraph 1 does not exist", "paragraph 12 is defined twice",
    }  # fmt: skip
