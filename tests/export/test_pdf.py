"""The PDF through Typst: produced from a Document, its pages counted, its first pages'
text read back, its links resolved, hostile author text printed as itself."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.export.pdf import render_pages_png, render_pdf
from dedale.export.typst_book import render_typst
from dedale.export.typst_text import inlines, string

from tests.export.sample_document import HOSTILE, sample_document

pytest.importorskip("typst", reason="the export extra's typst sets the PDF")
pypdf = pytest.importorskip("pypdf", reason="pypdf (the test extra) reads the PDF back")


@pytest.fixture(scope="module")
def reader():
    return pypdf.PdfReader(io.BytesIO(render_pdf(sample_document())))


def test_the_pdf_has_its_title_page_rules_sheet_and_sections(reader):
    pages = [page.extract_text() for page in reader.pages]
    assert len(pages) == 8
    assert pages[0].split("\n") == ["La Grotte des Échos", "Anne Onyme"]
    assert pages[1].startswith("Règles\nLancez deux dés")
    assert pages[2].startswith("Feuille d'Aventure\nHABILETÉ Total de départ ENDURANCE")
    assert pages[2].count("Rencontre") == 13  # the heading and 12 encounter boxes
    # the running header: the book's title and the numbers on the page
    assert pages[3].startswith("La Grotte des Échos 1–10\n1\n")
    assert pages[-1].startswith("La Grotte des Échos 40\n40\n")


def test_every_reference_is_a_link_to_its_section(reader):
    links = [
        annot.get_object()
        for page in reader.pages
        for annot in page.get("/Annots") or ()
        if annot.get_object()["/Subtype"] == "/Link"
    ]
    # 39 sections with a rule and two choices (3 refs each) but the ending ones, + the rules'
    refs = sum(1 for n in range(1, 41) if n != 40 and n % 11) * 4 + 1
    assert len(links) == refs
    assert all("/Dest" in link for link in links)


def test_author_text_is_never_markup(reader):
    text = "".join(page.extract_text() for page in reader.pages[3:5])
    flat = " ".join(text.replace("\xad", "-").split())  # pypdf reads a hyphen as U+00AD
    assert " ".join(HOSTILE.split()) in flat
    assert "#set page" in flat  # printed, not run: no page turned red
    assert string('a"b\\c\n#d') == '"a\\"b\\\\c #d"'
    assert inlines(("*x*", "")) == '#"*x*"'


def test_page_one_renders_with_the_title_centred():
    png = render_pages_png(sample_document(sections=3), ppi=30)[0]
    from struct import unpack

    width, height = unpack(">II", png[16:24])
    assert (width, height) == (248, 351)  # A4 at 30 ppi
    assert render_typst(sample_document(sections=3)).count("#dd-section(") == 3


def test_the_pdf_of_a_sample_book(tmp_path):
    from dedale.export.build import build_document
    from dedale.language import load_book

    root = Path(__file__).resolve().parents[2]
    document = build_document(load_book(root / "books" / "le-puits-des-ombres"))
    read = pypdf.PdfReader(io.BytesIO(render_pdf(document)))
    assert len(read.pages) == 11
    assert read.pages[0].extract_text() == "Le Puits des Ombres\nLes auteurs de Dédale"
    assert read.metadata.title == "Le Puits des Ombres"
    sections = read.pages[3].extract_text()
    assert sections.startswith("Le Puits des Ombres 1–")  # the running header
    assert "Le soleil se couche sur Vaubrune" in sections


def test_without_typst_the_export_says_which_extra_to_install(monkeypatch):
    import sys

    from dedale.export.pdf import ExportError

    monkeypatch.setitem(sys.modules, "typst", None)  # import typst raises ImportError
    with pytest.raises(ExportError) as caught:
        render_pdf(sample_document(2))
    assert "needs the `typst` package" in caught.value.message
    assert "pip install 'dedale[export]'" in caught.value.hint
