"""A quick look at a book's title, author and language (book.yaml only), so the title screen
is drawn at once while the book itself loads in the background."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from dedale.language.meta_keys import LANGUAGE_VALUES, TOP, norm

META_FILE = "book.yaml"


@dataclass(frozen=True)
class BookPreview:
    """What the title screen needs before the book is loaded."""

    title: str
    author: str = ""
    language: str | None = None


def read_preview(path: Path) -> BookPreview:
    """Title, author and language from ``book.yaml``; the folder name if it cannot be read
    (the real load reports any error with its position)."""
    fallback = BookPreview(title=path.stem if path.is_file() else path.name)
    meta_file = path / META_FILE
    if not meta_file.is_file():
        return fallback
    try:
        data = YAML(typ="safe").load(meta_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError):
        return fallback
    if not isinstance(data, dict):
        return fallback
    # the loader's own key table and language values (``Titre``, ``langue: anglais``)
    meta = {TOP.canonical(k) or str(k): v for k, v in data.items()}
    author = meta.get("author") or ""
    if isinstance(author, list):
        author = ", ".join(str(a) for a in author)
    language = meta.get("language")
    return BookPreview(
        title=str(meta.get("title") or fallback.title),
        author=str(author),
        language=LANGUAGE_VALUES.get(norm(language)) if language else None,
    )
