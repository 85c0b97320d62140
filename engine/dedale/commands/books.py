"""``dedale books``: the books bundled with Dédale (name, title, language, ruleset).

Also where a BOOK argument is resolved: a path that exists, else the name of a bundled book
(``dedale play tutorial``). Exit codes: 0.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from dedale.errors import UsageError
from dedale.i18n import tr

DEFAULT_BOOK = "le-puits-des-ombres"
"""The bundled book played when none is given."""


@dataclass(frozen=True)
class BundledBook:
    """One book shipped in ``dedale.books``, as ``dedale books`` lists it."""

    name: str
    path: Path
    title: str
    language: str
    ruleset: str


def bundled_folder() -> Path:
    """The folder of the bundled books (package ``dedale.books``)."""
    return Path(str(resources.files("dedale.books")))


def bundled_names() -> list[str]:
    """The names of the bundled books (their folder names), sorted."""
    folder = bundled_folder()
    return sorted(p.name for p in folder.iterdir() if (p / "book.yaml").is_file())


def bundled_book(name: str) -> Path | None:
    """The folder of the bundled book ``name``, or None."""
    if name not in bundled_names():
        return None
    return bundled_folder() / name


def resolve_book(given: str | None) -> Path:
    """The book to play: a path that exists, a bundled book's name, or the default book."""
    if not given:
        default = bundled_book(DEFAULT_BOOK)
        names = bundled_names()
        if default is None and not names:
            raise UsageError(tr("no bundled book found"), hint=tr("give the path of a book"))
        return default or bundled_folder() / names[0]
    path = Path(given)
    try:
        if path.exists():
            return path
    except (OSError, ValueError):
        pass
    bundled = bundled_book(given)
    if bundled is not None:
        return bundled
    raise UsageError(
        tr("no book at {path}", path=given),
        hint=tr(
            "give a book folder or .dd file, or one of the bundled books: {names}",
            names=", ".join(bundled_names()),
        ),  # fmt: skip
    )


def describe(name: str) -> BundledBook:
    """Name, title, language and ruleset of a bundled book, read from its book.yaml."""
    from dedale.language.metadata import parse_meta

    path = bundled_folder() / name
    meta_file = path / "book.yaml"
    meta = parse_meta(meta_file.read_text(encoding="utf-8"), str(meta_file), [])
    if meta is None:
        return BundledBook(name, path, name, "?", "?")
    return BundledBook(name, path, meta.title, meta.language, meta.ruleset)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("--json", action="store_true", help="print one JSON array")


def run(args: argparse.Namespace) -> int:
    """List the bundled books."""
    books = [describe(name) for name in bundled_names()]
    if args.json:
        import json

        rows = [
            {"name": b.name, "title": b.title, "language": b.language, "ruleset": b.ruleset}
            for b in books
        ]
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    width = max((len(b.name) for b in books), default=4)
    for book in books:
        default = "  " + tr("(default)") if book.name == DEFAULT_BOOK else ""
        print(f"{book.name:<{width}}  {book.language}  {book.ruleset:<10}  {book.title}{default}")
    print()
    print(tr("Play one with: dedale play NAME"))
    return 0
