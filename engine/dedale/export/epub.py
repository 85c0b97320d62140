"""EPUB of a Document through ebooklib: the rules, the Adventure Sheet and one XHTML file
per section, a table of contents, the book's language and title in the metadata."""

from __future__ import annotations

import io
import uuid
from html import escape

from dedale.export.document import Document
from dedale.export.epub_xhtml import (
    STYLE,
    block,
    section_body,
    section_file,
    sheet_body,
    xml_safe,
)
from dedale.export.pdf import ExportError
from dedale.i18n import Message, tr, translate

GROUP = 50
"""Sections per entry of the table of contents (1–50, 51–100...)."""


def _ebooklib():
    try:
        from ebooklib import epub
    except ImportError:
        raise ExportError(
            tr("EPUB export needs the `ebooklib` package"),
            hint=tr("install Dédale's export extra: pip install 'dedale[export]'"),
        ) from None
    return epub


def _label(document: Document, key: str, english: Message) -> str:
    return document.labels.get(key) or translate(english, document.language)


def render_epub(document: Document) -> bytes:
    """The book as EPUB 3 bytes."""
    epub = _ebooklib()
    lang = document.language if document.language in ("fr", "en") else "fr"
    title, author = xml_safe(document.title), xml_safe(document.author)
    book = epub.EpubBook()
    book.set_identifier(f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, title + '/' + author)}")
    book.set_title(title)
    book.set_language(lang)
    if author:
        book.add_author(author)
    style = epub.EpubItem(
        uid="style", file_name="style.css", media_type="text/css", content=STYLE.encode()
    )
    book.add_item(style)
    known = {int(section.number) for section in document.sections}

    def page(name: str, title: str, body: str):
        item = epub.EpubHtml(title=title, file_name=name, lang=lang)
        item.content = (
            f"<html><head><title>{escape(title)}</title></head><body>{body}</body></html>"
        )
        item.add_item(style)
        book.add_item(item)
        return item

    spine: list = []
    toc: list = []
    cover = page("title.xhtml", title, f"<h1>{escape(title)}</h1><p>{escape(author)}</p>")
    spine.append(cover)
    toc.append(cover)
    if document.front:
        rules = _label(document, "rules", tr("Rules"))
        front = page("rules.xhtml", rules, "".join(block(item, known) for item in document.front))
        spine.append(front)
        toc.append(front)
    if document.sheet is not None:
        name = document.sheet.title or _label(document, "sheet", tr("Adventure Sheet"))
        sheet = page("sheet.xhtml", name, sheet_body(document.sheet))
        spine.append(sheet)
        toc.append(sheet)
    sections = []
    for section in document.sections:
        number = str(int(section.number))
        sections.append(page(section_file(section.number), number, section_body(section, known)))
    spine.extend(sections)
    groups = []
    for start in range(0, len(sections), GROUP):
        chunk = document.sections[start : start + GROUP]
        label = f"{chunk[0].number}–{chunk[-1].number}" if len(chunk) > 1 else str(chunk[0].number)
        groups.append(epub.Link(section_file(chunk[0].number), label, f"group{start}"))
    if groups:
        toc.append((epub.Section(_label(document, "sections", tr("Paragraphs"))), groups))
    book.toc = toc
    book.spine = ["nav", *spine]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    out = io.BytesIO()
    epub.write_epub(out, book, {})
    return out.getvalue()
