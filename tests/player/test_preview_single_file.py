"""The title screen's quick look at a single-file book reads its front matter: a French
``.dd`` book gets a French player from the first screen (it was English until the book had
loaded, whatever ``langue: fr`` said), and its title is the book's, not the file name."""

from __future__ import annotations

import argparse
import asyncio

from dedale.player.launch import build_app
from dedale.player.preview import read_preview

BOOK = """---
titre: La Tour du Corbeau
auteur: Jeanne Martin
langue: fr
jeu-de-règles: df-classic
---
§ 1
Vous poussez la porte.
> victoire
"""


def test_the_front_matter_gives_title_author_and_language(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(BOOK, "utf-8")
    preview = read_preview(path)
    assert (preview.title, preview.author, preview.language) == (
        "La Tour du Corbeau",
        "Jeanne Martin",
        "fr",
    )


def test_a_long_french_book_is_read_from_its_first_bytes(tmp_path):
    path = tmp_path / "long.dd"
    pad = 64 * 1024 - 1 - len(BOOK.encode("utf-8"))  # the 64 KiB read ends inside an "é"
    path.write_text(BOOK + "x" * pad + "été" * 100, "utf-8")
    assert read_preview(path).language == "fr"


def test_a_file_without_front_matter_or_with_odd_values_falls_back(tmp_path):
    plain = tmp_path / "notes.dd"
    plain.write_text("§ 1\nNo front matter.\n", "utf-8")
    assert read_preview(plain).title == "notes" and read_preview(plain).language is None
    odd = tmp_path / "odd.dd"
    odd.write_text("---\ntitle: [1, 2]\nlanguage: {a: b}\n---\n§ 1\n> victory\n", "utf-8")
    assert (read_preview(odd).title, read_preview(odd).language) == ("odd", None)
    unclosed = tmp_path / "open.dd"
    unclosed.write_text("---\ntitle: Never closed\n§ 1\n", "utf-8")
    assert read_preview(unclosed).title == "open"


def test_a_french_single_file_book_is_played_in_french_from_the_first_screen(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(BOOK, "utf-8")
    app = build_app(argparse.Namespace(book=str(path), seed=1, hero=None, lang=None))
    assert app.texts.lang == "fr"

    async def title_screen() -> str:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            title = str(app.screen.query_one("#book-title").render())
            author = str(app.screen.query_one("#book-author").render())
            return f"{title} | {author}"

    assert asyncio.run(title_screen()) == "La Tour du Corbeau | par Jeanne Martin"
