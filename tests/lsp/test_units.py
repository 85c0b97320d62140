"""The language server's pieces on their own: vocabulary, overlay, index, fixes, rename."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.errors import BookLoadError
from dedale.language.keywords import CHOICE_OPTION_WORDS, DIRECTIVE_WORDS
from dedale.lsp.books import find_book
from dedale.lsp.navigation import RenameRefused, rename
from dedale.lsp.overlay import load_with_overlay
from dedale.lsp.session import BookSession
from dedale.lsp.vocabulary import CHOICE_OPTIONS, DIRECTIVES, in_order

SALT = Path(__file__).parents[1] / "books_extra" / "lsp"


def test_every_keyword_offered_is_one_the_grammar_knows() -> None:
    known = set(DIRECTIVE_WORDS) | {"lose", "win"}
    for english, french in DIRECTIVES:
        assert english in known and french in known, (english, french)
    for english, french in CHOICE_OPTIONS:
        assert english in CHOICE_OPTION_WORDS and french in CHOICE_OPTION_WORDS


def test_the_books_language_comes_first() -> None:
    assert in_order(DIRECTIVES, "fr")[0] == ("rendez-vous au", "fr")
    assert in_order(DIRECTIVES, "en")[0] == ("go to", "en")


def test_a_single_file_book_is_loaded_from_the_unsaved_text(tmp_path: Path) -> None:
    file = tmp_path / "short.dd"
    file.write_text("---\ntitle: Short\nlanguage: en\n---\n§ 1\n> victory\n")
    place = find_book(file.resolve())
    assert place is not None and not place.folder
    unsaved = "---\ntitle: Short\nlanguage: en\n---\n§ 1\n-> 2 On\n\n§ 2\n> victory\n"
    book = load_with_overlay(place.root, {place.root: unsaved})
    assert sorted(book.paragraphs) == [1, 2]
    with pytest.raises(BookLoadError):
        load_with_overlay(place.root, {place.root: "---\ntitle: Short\n---\n§ 1\n> fihgt now\n"})
    session = BookSession(place, {place.root: unsaved})
    assert [h.number for h in session.index().headings()] == [1, 2]
    assert session.index().heading(2).number_at.line == 7


def test_rename_refuses_a_number_taken_or_a_bad_label() -> None:
    place = find_book((SALT / "01-road.dd").resolve())
    index = BookSession(place).index()
    heading = index.heading(2)
    line, column = heading.number_at.line, heading.number_at.start
    with pytest.raises(RenameRefused):
        rename(index, heading, line, column, "3")
    with pytest.raises(RenameRefused):
        rename(index, heading, line, column, "two")
    label = heading.label_at
    with pytest.raises(RenameRefused):
        rename(index, heading, label.line, label.start, "12 monkeys")
    with pytest.raises(RenameRefused):
        rename(index, heading, label.line, label.start, "gate")  # names paragraph 1


def test_the_test_book_validates_strictly() -> None:
    from dedale.validator.checker import validate_path

    report = validate_path(SALT)
    assert [(f.code, f.message) for f in report.findings] == []


def test_completion_after_a_keyword_of_several_words_and_after_a_keyword() -> None:
    from dedale.lsp.completion import complete

    place = find_book((SALT / "01-road.dd").resolve())
    index = BookSession(place).index()
    several = [item.label for item in complete(index, "> test your", "en")]
    assert "test your luck" in several
    names = {item.label: item.detail for item in complete(index, "> take ", "en")}
    assert names["Copper Key"] == "item" and names["SCARF"] == "codeword"
    assert names["DUNE RAIDER"] == "enemy"
    french = {item.label: item.detail for item in complete(index, "> prenez ", "fr")}
    assert french["Copper Key"] == "objet"
    options = [item.label for item in complete(index, "-> 4 (", "fr")]
    assert options.index("si") < options.index("if")
    assert complete(index, "Plain prose here", "en") == []


def test_a_near_name_gets_its_fix() -> None:
    from dedale.lsp.diagnostics import by_file

    cistern = (SALT / "02-cistern.dd").resolve()
    place = find_book(cistern)
    text = cistern.read_text().replace("(if Copper Key)", "(if Coper Key)")
    session = BookSession(place, {cistern: text})
    findings = session.check()
    placed = by_file(findings, cistern, session.lines, "fr")
    fixes = [fix for item, *_rest, fix in placed[cistern] if item.code == "E023"]
    assert len(fixes) == 1, [(f.code, f.message) for f in findings]
    line = text.split("\n")[fixes[0]["line"]]
    assert line[fixes[0]["start"] : fixes[0]["end"]] == "Coper Key"
    assert fixes[0]["text"] == "Copper Key" and fixes[0]["title"] == "Remplacer par `Copper Key`"


def test_renumbering_a_hidden_paragraph_edits_book_yamls_hidden_lists(tmp_path: Path) -> None:
    from dedale.lsp.navigation import _hidden_values

    yaml_lines = [
        "titre: Le puits",
        "départ: 1",
        "validateur:",
        "  cachés: [24, 124, 24]   # 24 twice",
        "hidden:",
        "  - 7",
        "  - 24",
        "  # a comment",
        "  - 240",
        "state: {}",
        "  - 24",
    ]
    meta = (tmp_path / "book.yaml", yaml_lines)
    places = _hidden_values(meta, 24)
    assert [(p.line, yaml_lines[p.line][p.start : p.end]) for p in places] == [
        (3, "24"), (3, "24"), (6, "24"),
    ]  # fmt: skip
    assert [p.start for p in places[:2]] == [11, 20]
    assert _hidden_values(meta, 7)[0].line == 5
