"""render_html: one self-contained page, anchors #pN, every Ref a link, a print stylesheet.
The HTML of the print test book is snapshotted (read it when it changes)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from dedale.export import document as doc
from dedale.export.build import build_document
from dedale.export.html import render_html
from dedale.language import load_book

ROOT = Path(__file__).resolve().parents[2]
TOUR = ROOT / "tests" / "books_extra" / "print"


class _Links(HTMLParser):
    """Ids and internal links of a page, and whether its tags balance."""

    VOID = {"meta", "br", "img", "link", "hr", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.stack: list[str] = []
        self.unbalanced: list[str] = []

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if "id" in found:
            self.ids.add(found["id"])
        if tag == "a" and "href" in found:
            self.hrefs.append(found["href"])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.unbalanced.append(tag)


@pytest.fixture(scope="module")
def page() -> str:
    return render_html(build_document(load_book(TOUR)))


def _parse(html: str) -> _Links:
    links = _Links()
    links.feed(html)
    return links


def test_the_page_is_self_contained_and_well_formed(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and '<html lang="fr">' in page
    assert "<script" not in page and "<link" not in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    links = _parse(page)
    assert links.unbalanced == [] and links.stack == []


def test_every_reference_is_a_link_to_an_anchor(page: str) -> None:
    links = _parse(page)
    assert {f"p{n}" for n in range(1, 10)} <= links.ids
    internal = [href for href in links.hrefs if href.startswith("#")]
    assert internal and all(href[1:] in links.ids for href in internal)
    assert "<h3><strong>7</strong></h3>" in page
    assert 'le gué du <a class="ref" href="#p7">7</a> est plus sûr' in page


def test_the_print_stylesheet(page: str) -> None:
    printed = page[page.index("@media print") :]
    assert "columns: 2" in printed and "page-break-before: always" in printed


def test_author_text_is_escaped() -> None:
    document = doc.Document(
        title="<Tom & Jerry>",
        author="",
        language="en",
        front=(),
        sections=(doc.Section(1, (doc.Prose(("a <b> & ", doc.Styled("c<d", bold=True))),)),),
    )
    html = render_html(document)
    assert "<title>&lt;Tom &amp; Jerry&gt;</title>" in html
    assert "a &lt;b&gt; &amp; <strong>c&lt;d</strong>" in html


def test_the_html_of_the_print_book(page: str, snapshot) -> None:
    body = page[page.index("<body>") :]  # the stylesheet is its own file
    assert body == snapshot


def test_the_html_of_a_sample_book(snapshot) -> None:
    page = render_html(build_document(load_book(ROOT / "books" / "first-steps")))
    links = _parse(page)
    assert links.unbalanced == [] and all(h[1:] in links.ids for h in links.hrefs)
    assert page[page.index('<section class="adventure"') :] == snapshot
