"""Marked references in prose (``{§ 12}``, ``{§ label}``) end to end: both players show
the number, the export makes it a Ref, the loader and the validator locate bad ones."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from dedale.errors import BookLoadError
from dedale.export import document as doc
from dedale.export.build import build_document
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer
from dedale.player.app import DedaleApp
from dedale.validator import validate_path
from dedale.validator.cli import exit_code
from textual.widgets import Markdown

TOUR = Path(__file__).resolve().parents[1] / "books_extra" / "print"
LUCKY = [1, 6]  # the boat: 7 against LUCK 9
# the boat; sell the lantern, buy the rope, leave the shop; into the tower; climb
SCRIPT = "1\n3\n1\n4\n1\n1\n"


@pytest.fixture(scope="module")
def book():
    return load_book(TOUR)


def _game(book, lang: str = "fr") -> Game:
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ariane", lang=lang, free_stats=True)
    game.rng.force(LUCKY)
    return game


def test_the_plain_player_shows_the_marked_numbers(book, snapshot):
    game = _game(book)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(SCRIPT), out, echo=True).play()
    text = out.getvalue()
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == [1, 2, 4, 6, 9]
    assert "le gué du 7 est plus sûr" in text and "(le gué est au 7)" in text
    assert "{§" not in text and "Ariane" in text
    assert text == snapshot


def test_the_textual_player_shows_the_marked_number(book):
    app = DedaleApp(book, _game, lang="fr")
    pages: list[str] = []

    async def scenario():
        async with app.run_test(size=(110, 36)) as pilot:
            for key in ("1", "enter"):  # new game, start the adventure
                await pilot.press(key)
                await pilot.pause()
            pages.extend(w.source for w in app.screen.query("#page > *") if isinstance(w, Markdown))

    asyncio.run(scenario())
    assert any("le gué du 7 est plus sûr" in page for page in pages), pages


def test_the_export_prints_a_reference_it_renumbers(book):
    document = build_document(book)
    first = document.sections[0].blocks[0]
    assert isinstance(first, doc.Prose) and doc.Ref(7) in first.inlines
    shore = next(s for s in document.sections if s.number == 4)
    assert doc.Ref(7) in shore.blocks[0].inlines  # {§ gué}: the label's paragraph
    moved = document.renumbered({7: 42})
    assert doc.Ref(42) in moved.sections[0].blocks[0].inlines


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "book.yaml").write_text("title: T\nlanguage: fr\n", encoding="utf-8")
    (tmp_path / "book.dd").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_malformed_reference_is_a_located_load_error(tmp_path):
    folder = _write(tmp_path, "§ 1\nVoyez le {§ 1 2}.\n-> 2 Aller\n\n§ 2\n> victoire\n")
    with pytest.raises(BookLoadError) as caught:
        load_book(folder)
    error = caught.value.errors[0]
    assert (error.span.line, error.span.column) == (2, 10)
    assert "{§ 1 2}" in error.message and "{§ 12}" in error.hint


def test_a_reference_to_no_paragraph_is_e010(tmp_path):
    folder = _write(
        tmp_path, "§ 1\nVoyez le\nrenvoi {§ 99} et {§ 2}.\n-> 2 Aller\n\n§ 2\n> victoire\n"
    )
    report = validate_path(folder, runs=0)
    found = [f for f in report.findings if f.code == "E010"]
    assert len(found) == 1
    assert (found[0].span.line, found[0].span.column) == (3, 8) and "{§ 99}" in found[0].message


def test_the_book_validates_clean_in_strict_mode():
    report = validate_path(TOUR, runs=200)
    assert [f.code for f in report.findings] == [] and exit_code([report], strict=True) == 0


def test_a_marked_turn_to_in_a_paragraph_with_no_way_on_is_suspicious(tmp_path):
    from dedale.language.suspicious import suspicious_prose

    text = "§ 1\nLe pont cède. Rendez-vous au {§ 2}.\n\n§ 2\n> victoire\n"
    found = suspicious_prose(load_book(_write(tmp_path, text)))
    assert [(s.kind, s.span.line) for s in found] == [("destination-in-prose", 2)]


def test_the_language_server_knows_a_marked_reference():
    from dedale.lsp.index import index_file

    path = TOUR / "book.dd"
    text = path.read_text(encoding="utf-8")
    index = index_file(path, text)
    lines = text.split("\n")
    marked = [
        ref
        for ref in index.references
        if lines[ref.at.line][ref.at.start - 3 : ref.at.start] == "{§ "
    ]
    assert [(ref.number, ref.label, ref.paragraph) for ref in marked] == [
        (7, None, 1),
        (None, "gué", 4),
    ]
    assert all(lines[r.at.line][r.at.start : r.at.end] in ("7", "gué") for r in marked)
