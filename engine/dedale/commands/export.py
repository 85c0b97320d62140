"""``dedale export``: the book as its readers know it on paper, or as an e-book.

    dedale export books/greymane --format pdf                 # greymane.pdf
    dedale export mybook --format epub -o mybook.epub
    dedale export mybook --format html --shuffle --seed 7 --map map.json

Loads the book (a book that does not load: its located errors, exit 1), builds the printed
text (:func:`dedale.export.build.build_document`), renumbers it with ``--shuffle``
(:mod:`dedale.export.shuffle`; the constraints it could not keep are warned about on
stderr), renders it and writes the file atomically. Default output: the book's folder name
with the format's extension, in the current folder. Messages speak the book's language.
Exit codes: 0 written, 1 the book does not load or cannot be exported, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from dedale.errors import BookMetadataError, DedaleError, UsageError
from dedale.i18n import tr, translate

FORMATS = ("pdf", "html", "epub")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("book", help="the book's folder, a single .dd file, or a bundled book")
    parser.add_argument("--format", choices=FORMATS, default="pdf", help="output format")
    parser.add_argument("-o", "--output", metavar="FILE", help="the file to write")
    parser.add_argument(
        "--shuffle", action="store_true",
        help="renumber the paragraphs so that the story cannot be read in order",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=None, metavar="N",
        help="with --shuffle: the seed of the numbering (default 1; same seed, same numbers)",
    )  # fmt: skip
    parser.add_argument(
        "--map", dest="map_file", metavar="FILE",
        help='with --shuffle: write the renumbering as JSON {"old": new}',
    )  # fmt: skip


def default_output(book_path: Path, fmt: str) -> Path:
    """``greymane.pdf`` for the folder ``books/greymane``, ``story.epub`` for ``story.dd``."""
    resolved = book_path.resolve()
    name = resolved.stem if resolved.is_file() else resolved.name
    return Path(f"{name or 'book'}.{fmt}")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, so a reader
    never sees half a file and a failure leaves the old file whole."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    except OSError as error:
        raise UsageError(
            tr("cannot write {path}: {reason}", path=str(path), reason=error.strerror)
        ) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file (mkstemp: 0600)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise UsageError(
            tr("cannot write {path}: {reason}", path=str(path), reason=error.strerror)
        ) from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_pins(book, pinned: tuple[int, ...]) -> None:
    """Every number of book.yaml's ``pinned:`` must be one of the book's paragraphs."""
    missing = [n for n in pinned if n not in book.paragraphs]
    if missing:
        raise BookMetadataError(
            tr("pinned paragraph {number} does not exist", number=missing[0]),
            book.meta.value_span("pinned"),
            hint=tr("list the numbers of paragraphs the book has"),
        )


def run(args: argparse.Namespace) -> int:
    """Export the book; see the module docstring for the exit codes."""
    from dedale.commands.books import resolve_book
    from dedale.language import load_book
    from dedale.validator.report.language import declared_language

    path = resolve_book(args.book)
    lang = declared_language(path) if path.exists() else None
    try:
        if not args.shuffle and (args.seed is not None or args.map_file):
            raise UsageError(tr("--seed and --map need --shuffle"))
        if not path.exists():
            raise UsageError(tr("{path}: no such file or folder", path=str(path)))
        book = load_book(path)
        lang = getattr(book.meta, "language", None) or lang
        pinned = tuple(getattr(book.meta, "pinned", ()) or ())
        check_pins(book, pinned)
        data, warnings, mapping = export(book, args.format, args.shuffle, args.seed or 1, lang)
        output = Path(args.output) if args.output else default_output(path, args.format)
        write_atomically(output, data)
        if mapping is not None and args.map_file:
            text = json.dumps({str(old): new for old, new in sorted(mapping.items())}, indent=1)
            write_atomically(Path(args.map_file), (text + "\n").encode("utf-8"))
    except DedaleError as error:
        error.lang = lang
        raise
    for warning in warnings:
        print(warning, file=sys.stderr)
    print(translate(tr("wrote {path}", path=str(output)), lang))
    return 0


def export(book, fmt: str, shuffle: bool, seed: int, lang: str | None = None):
    """(the file's bytes, the shuffle's warnings, its map or None) for a loaded book."""
    from dedale.export.build import build_document

    document = build_document(book)
    warnings: list[str] = []
    mapping = None
    if shuffle:
        from dedale.export.shuffle import plan
        from dedale.export.shuffle_pages import estimated_model, measured_model, section_lengths
        from dedale.export.shuffle_report import shuffle_warnings

        lengths = section_lengths(document)
        pages = measured_model(document, lengths) if fmt == "pdf" else estimated_model(document)
        result = plan(
            book, seed, lengths=lengths, per_page=pages.per_page, first_page=pages.first_page
        )
        mapping = result.mapping
        warnings = shuffle_warnings(result, lang)
        document = document.renumbered(mapping)
    if fmt == "pdf":
        from dedale.export.pdf import render_pdf

        return render_pdf(document), warnings, mapping
    if fmt == "epub":
        from dedale.export.epub import render_epub

        return render_epub(document), warnings, mapping
    from dedale.export.html import render_html

    return render_html(document).encode("utf-8"), warnings, mapping
