"""One book as the editor sees it: its files (unsaved texts first), its index, the book
loaded from them, its findings. Independent of the protocol (the server wraps it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dedale import limits
from dedale.errors import BookLoadError, DedaleError
from dedale.i18n import tr
from dedale.lsp.books import BookPlace
from dedale.lsp.checks import full_findings, load_findings, quick_findings
from dedale.lsp.index import BookIndex, FileIndex, index_file
from dedale.lsp.overlay import load_with_overlay
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.report.language import declared_language


@dataclass(slots=True)
class BookSession:
    """The state of one book; ``overlay`` holds the open documents' texts (resolved paths)."""

    place: BookPlace
    overlay: dict[Path, str] = field(default_factory=dict)
    book: object | None = None
    findings: list[Finding] = field(default_factory=list)
    generation: int = 0  # counts the edits, so that a check of an older text is dropped
    _indexed: dict[Path, tuple[str, FileIndex]] = field(default_factory=dict)
    _fights: list | None = None  # FightReport list of ``book`` (computed on first hover)

    @property
    def lang(self) -> str:
        meta = getattr(self.book, "meta", None)
        lang = getattr(meta, "language", None)
        return str(lang) if lang else declared_language(self.place.root)

    def text(self, path: Path) -> str | None:
        """The file's text: the editor's when it is open, else the disk's (bounded)."""
        if path in self.overlay:
            return self.overlay[path]
        try:
            if path.stat().st_size > limits.MAX_FILE_BYTES:
                return None
            return path.read_text("utf-8", errors="replace")
        except OSError:
            return None

    def lines(self, path: Path) -> list[str]:
        text = self.text(path)
        return text.split("\n") if text is not None else []

    def files(self) -> list[Path]:
        return self.place.files(set(self.overlay))

    def index(self) -> BookIndex:
        """The index of every paragraph file (re-parsing only the files whose text changed)."""
        result = BookIndex()
        for path in self.files():
            if path.name == "book.yaml":
                continue
            text = self.text(path)
            if text is None or len(text) > limits.MAX_FILE_BYTES:  # the loader says why
                continue
            if not self.place.folder:
                text = _blank_front_matter(text)
            cached = self._indexed.get(path)
            if cached is None or cached[0] != text:
                cached = (text, index_file(path, text))
                self._indexed[path] = cached
            result.files[path] = cached[1]
        return result

    def check(self, full: bool = False) -> list[Finding]:
        """Load the book with the unsaved texts and run the quick (or every) check."""
        self.adopt(*run_checks(self.place, dict(self.overlay), full))
        return self.findings

    def adopt(self, book: object | None, findings: list[Finding]) -> None:
        """Take the result of :func:`run_checks` (the odds of hovers are computed anew)."""
        self.book, self.findings, self._fights = book, findings, None

    def fight_reports(self, seconds: float = 2.0) -> list:
        """The fight odds of the loaded book (cached until the next check)."""
        if self.book is None:
            return []
        if self._fights is None:
            from dedale.validator.fights import fight_reports
            from dedale.validator.graph import build_graph

            try:
                self._fights = fight_reports(build_graph(self.book), self.book, seconds=seconds)
            except (DedaleError, RecursionError, ValueError, KeyError):
                self._fights = []
        return self._fights


def run_checks(
    place: BookPlace, overlay: dict[Path, str], full: bool = False
) -> tuple[object | None, list[Finding]]:
    """(the book, its findings) for the files with ``overlay``'s texts; safe in a worker
    thread (it touches no session)."""
    try:
        book = load_with_overlay(place.root, overlay)
    except BookLoadError as error:
        return None, load_findings(error)
    try:
        return book, full_findings(book, place.root) if full else quick_findings(book)
    except (DedaleError, RecursionError, ValueError, KeyError) as error:
        # a check that fails on an odd book: say so at the book's first file
        where = Span(str(place.files()[0]), 1, 1)
        reason = tr("a check stopped on this book: {reason}", reason=str(error))
        return book, [finding("E005", reason, where)]


def _blank_front_matter(text: str) -> str:
    """A single-file book's text with its front matter blanked (line numbers kept)."""
    if not text.lstrip("\ufeff").startswith("---"):
        return text
    lines = text.split("\n")
    for number in range(1, min(len(lines), 10_000)):
        if lines[number].strip() == "---":
            return "\n" * number + "\n" + "\n".join(lines[number + 1 :])
    return text
