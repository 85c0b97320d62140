"""A quick look at a book's title, author and language (book.yaml or a single file's front
matter), so the title screen is drawn at once while the book itself loads in the
background."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from dedale.language.meta_keys import LANGUAGE_VALUES, TOP, norm

META_FILE = "book.yaml"
SNIFF_BYTES = 64 * 1024  # a front matter is read from the first 64 KiB only


@dataclass(frozen=True)
class BookPreview:
    """What the title screen needs before the book is loaded."""

    title: str
    author: str = ""
    language: str | None = None


def _front_matter(path: Path) -> str | None:
    """The front matter of a single-file book (between its first two ``---`` lines, in its
    first 64 KiB), or None."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as handle:
            # (a cut inside a letter at the end of the bytes read is not the front matter's)
            text = handle.read(SNIFF_BYTES).decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return None
    text = text.replace("\r\n", "\n")
    if not text.startswith("---\n"):
        return None
    front, closed, _ = text[4:].partition("\n---")
    return front if closed else None


def read_preview(path: Path) -> BookPreview:
    """Title, author and language from ``book.yaml`` (or a single-file book's front
    matter); the file or folder name if it cannot be read (the real load reports any error
    with its position)."""
    fallback = BookPreview(title=path.stem if path.is_file() else path.name)
    try:
        if path.is_file():
            source = _front_matter(path)
        else:
            meta_file = path / META_FILE
            source = None
            if meta_file.is_file() and meta_file.stat().st_size <= SNIFF_BYTES:
                source = meta_file.read_text(encoding="utf-8")
        if source is None:
            return fallback
        data = YAML(typ="safe").load(source)
    except (OSError, UnicodeDecodeError, YAMLError):
        return fallback
    if not isinstance(data, dict):
        return fallback
    # the loader's own key table and language values (``Titre``, ``langue: anglais``)
    meta = {TOP.canonical(k) or str(k): v for k, v in data.items()}
    author = meta.get("author") or ""
    if isinstance(author, list):
        author = ", ".join(str(a) for a in author if isinstance(a, str | int))  # words only
    title, language = meta.get("title"), meta.get("language")
    return BookPreview(
        title=title if isinstance(title, str) and title else fallback.title,
        author=author if isinstance(author, str) else "",
        language=LANGUAGE_VALUES.get(norm(language)) if isinstance(language, str) else None,
    )
