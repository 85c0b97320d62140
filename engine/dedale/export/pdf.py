"""PDF (and page pictures) of a Document, set by Typst through the ``typst`` package.

No system dependency: the compiler is the package's own, and only the fonts Typst bundles
are used (system fonts are ignored, so the same book gives the same PDF on every machine).
"""

from __future__ import annotations

from dedale.errors import DedaleError
from dedale.export.document import Document
from dedale.export.typst_book import render_typst
from dedale.i18n import tr


class ExportError(DedaleError):
    """The export could not produce its file (a missing extra, Typst refusing the source)."""


def _compiler():
    try:
        import typst
    except ImportError:
        raise ExportError(
            tr("PDF export needs the `typst` package"),
            hint=tr("install Dédale's export extra: pip install 'dedale[export]'"),
        ) from None
    return typst, typst.Compiler(ignore_system_fonts=True)


def compile_typst(source: str, fmt: str = "pdf", ppi: float | None = None) -> bytes | list[bytes]:
    """Compile a Typst source to PDF bytes, or to one PNG per page (``fmt="png"``)."""
    typst, compiler = _compiler()
    try:
        return compiler.compile(source.encode("utf-8"), format=fmt, ppi=ppi, timestamp=0)
    except typst.TypstError as error:  # a bug in the generated source, reported located
        raise ExportError(
            tr("Typst could not set the book: {reason}", reason=str(error.message)),
            hint=tr("please report it with the book that caused it"),
        ) from None


def render_pdf(document: Document) -> bytes:
    """The printed book as PDF bytes."""
    data = compile_typst(render_typst(document), "pdf")
    assert isinstance(data, bytes)
    return data


def section_pages(document: Document) -> dict[int, int]:
    """The page each section starts on, as Typst sets the book (to measure the shuffle's
    page estimate against)."""
    import json

    typst, _ = _compiler()
    source = render_typst(document).encode("utf-8")
    try:
        answer = typst.query(source, "<dd-page>", field="value", ignore_system_fonts=True)
        found = json.loads(answer)
    except typst.TypstError as error:
        raise ExportError(
            tr("Typst could not set the book: {reason}", reason=str(error.message)),
            hint=tr("please report it with the book that caused it"),
        ) from None
    return {int(number): int(page) for number, page in found}


def render_pages_png(document: Document, ppi: float = 72) -> list[bytes]:
    """Every page of the printed book as a PNG (for tests and the docs' picture)."""
    data = compile_typst(render_typst(document), "png", ppi)
    return data if isinstance(data, list) else [data]
