"""The book language: paragraph files -> AST, book folders -> Book.

Public API: ``parse_text(text, file)`` and ``load_book(path)``.
"""

from __future__ import annotations

from dedale.language.parser import parse_text

__all__ = ["load_book", "parse_text"]


def load_book(path):  # noqa: ANN001, ANN201 - re-exported with full signature below
    """Load a book folder (book.yaml + ``*.dd``) or a single ``.dd`` file with front matter."""
    from dedale.language.loader import load_book as _load_book

    return _load_book(path)
