"""The EPUB through ebooklib: opened again with ebooklib, every link resolved, the table of
contents and the book's language in the metadata."""

from __future__ import annotations

import io
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from dedale.export.build import build_document
from dedale.export.epub import render_epub
from dedale.export.shuffle import renumber
from dedale.language import load_book

from tests.export.sample_document import HOSTILE, sample_document

epub = pytest.importorskip("ebooklib.epub", reason="ebooklib (the export extra) is needed")
ROOT = Path(__file__).resolve().parents[2]


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.add(attributes["id"])
        if tag == "a" and "href" in attributes:
            self.hrefs.append(attributes["href"])


def opened(data: bytes, tmp_path: Path):
    path = tmp_path / "book.epub"
    path.write_bytes(data)
    return epub.read_epub(str(path), {"ignore_ncx": True})


def documents(book) -> dict[str, _Anchors]:
    found = {}
    for item in book.get_items():
        if item.get_name().endswith(".xhtml"):
            parser = _Anchors()
            parser.feed(item.get_content().decode("utf-8"))
            found[item.get_name()] = parser
    return found


def unresolved(book) -> list[str]:
    pages = documents(book)
    missing = []
    for name, page in pages.items():
        for href in page.hrefs:
            file, _, anchor = href.partition("#")
            target = pages.get(file or name)
            if target is None or (anchor and anchor not in target.ids):
                missing.append(f"{name} -> {href}")
    return missing


def test_every_link_of_a_sample_book_resolves(tmp_path):
    book = load_book(ROOT / "books" / "le-puits-des-ombres")
    document = build_document(book)
    read = opened(render_epub(document), tmp_path)
    assert read.get_metadata("DC", "language") == [("fr", {})]
    assert read.get_metadata("DC", "title") == [("Le Puits des Ombres", {})]
    pages = documents(read)
    links = sum(len(page.hrefs) for name, page in pages.items() if name.startswith("s"))
    assert links >= 100
    assert not unresolved(read)
    assert {f"s{n}.xhtml" for n in book.paragraphs} <= set(pages)


def test_a_shuffled_book_links_to_the_new_numbers(tmp_path):
    book = load_book(ROOT / "tests" / "books_extra" / "shuffle")
    mapping = renumber(book, 11)
    document = build_document(book).renumbered(mapping)
    read = opened(render_epub(document), tmp_path)
    assert not unresolved(read)
    first = documents(read)["s1.xhtml"]  # the start is pinned: 1 leads to 2 and 3, renumbered
    assert sorted(first.hrefs) == sorted(f"s{mapping[n]}.xhtml#s{mapping[n]}" for n in (2, 3))


def test_the_table_of_contents_and_escaped_text(tmp_path):
    data = render_epub(sample_document())
    read = opened(data, tmp_path)
    titles = [getattr(entry, "title", None) for entry in read.toc]
    assert titles[:3] == ["La Grotte des Échos", "Règles", "Feuille d'Aventure"]
    section, groups = read.toc[-1]
    assert [link.title for link in groups] == ["1–40"]
    body = zipfile.ZipFile(io.BytesIO(data)).read("EPUB/s3.xhtml").decode("utf-8")
    assert "&lt;lab&gt;" in body and "<lab>" not in body
    assert HOSTILE.split()[0] in body


def test_characters_xml_cannot_hold_are_dropped(tmp_path):
    """A book may contain control characters; the EPUB (XML) may not: they are left out."""
    import dataclasses

    from dedale.export.document import Enemy, EnemyBox, Prose, Section

    enemies = EnemyBox((Enemy("ORC\x01", (("SKILL\x02", "7"),)),), "\x1f")
    hostile = Section(4, (Prose(("Nul \x00 ici \x0b, 🐉 \u202e ok",)), enemies))
    base = sample_document(3)
    document = dataclasses.replace(base, title="T\x01", sections=(*base.sections, hostile))
    read = opened(render_epub(document), tmp_path)
    assert read.get_metadata("DC", "title") == [("T", {})]
    body = documents(read)["s4.xhtml"]
    assert "s4" in body.ids and not unresolved(read)
