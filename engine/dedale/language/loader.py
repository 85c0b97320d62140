"""Book folder (or single file) -> Book, collecting every error in one pass.

A book is a folder with ``book.yaml`` and paragraph files ``*.dd`` (read in name order,
or as ``files:`` lists them), or one ``.dd`` file starting with a YAML front matter
between ``---`` lines. Every problem becomes a typed error with its Span; all of them are
raised together as ``BookLoadError``. A path that is not a book at all raises UsageError.
"""

from __future__ import annotations

import errno
import gc
import hashlib
import itertools
import re
import stat
from pathlib import Path

from dedale import ast, limits
from dedale.book import Book
from dedale.errors import (
    BookLoadError,
    BookMetadataError,
    BookStructureError,
    BookSyntaxError,
    DedaleError,
    UsageError,
)
from dedale.i18n import tr
from dedale.language.book_state import BookState
from dedale.language.checks import check_names
from dedale.language.keywords import name_key
from dedale.language.metadata import BookMeta, did_you_mean, parse_meta
from dedale.language.parser import parse_collecting
from dedale.language.state_names import resolve_state
from dedale.span import Span

EXTENSION = ".dd"
META_FILE = "book.yaml"
MAX_FILE_BYTES = limits.MAX_FILE_BYTES
_FRONT = re.compile(r"---[ \t]*\n")


def inside(path: Path, base: Path) -> bool | None:
    """Whether ``path`` resolves inside ``base``; None when it is a symbolic link loop."""
    try:
        return path.resolve().is_relative_to(base)
    except RuntimeError:  # Python < 3.13: "Symlink loop from ..."
        return None
    except OSError as error:
        return None if error.errno == errno.ELOOP else False
    except ValueError:
        return False


def is_file(path: Path) -> bool:
    """``path.is_file()``, False on any error (a name too long for the system, ...)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _too_many_paragraphs(shown: str) -> BookStructureError:
    return BookStructureError(
        tr("the book has more than {limit} paragraphs", limit=limits.MAX_PARAGRAPHS),
        Span(shown, 1, 1),
        hint=tr("Dédale reads books of up to {limit} paragraphs", limit=limits.MAX_PARAGRAPHS),
    )


def _loop_error(name: str, where: Span) -> BookStructureError:
    return BookStructureError(
        tr("`{name}` is a symbolic link that leads back to itself", name=name),
        where,
        hint=tr("replace the link with the file itself, or point it at a real file"),
    )


def load_book(path: str | Path) -> Book:
    """Load a book folder or a single-file book; raise BookLoadError listing every error."""
    # The AST holds no reference cycles: pausing the cyclic GC while building tens of
    # thousands of small frozen objects saves about a third of the load time.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Loader(Path(path)).load()
    except (BookLoadError, UsageError):
        raise
    except DedaleError as error:
        raise BookLoadError([error]) from None
    except RecursionError:
        raise BookLoadError(
            [BookSyntaxError(tr("the book nests too deeply to be read"), Span(str(path), 1, 1))]
        ) from None
    finally:
        if collecting:
            gc.enable()


def sort_errors(errors: list[DedaleError]) -> list[DedaleError]:
    """Errors in reading order: by file (book.yaml first), line, column."""

    def key(error: DedaleError) -> tuple:
        span = error.span
        if span is None:
            return (0, "", 0, 0)
        return (0 if span.file.endswith(META_FILE) else 1, span.file, span.line, span.column)

    return sorted(errors, key=key)


class _Loader:
    def __init__(self, path: Path):
        self.path = path
        self.errors: list[DedaleError] = []
        self.digest = hashlib.sha256()
        self.total = 0  # bytes of paragraph files read so far
        self.paragraphs = 0  # paragraph headers seen so far

    # ------------------------------------------------------------------ reading
    def _decode(self, data: bytes, shown: str) -> str | None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            before = data[: error.start]
            line = before.count(b"\n") + 1
            column = len(before) - (before.rfind(b"\n") + 1) + 1
            self.errors.append(
                BookSyntaxError(
                    tr("this file is not UTF-8 text"),
                    Span(shown, line, column),
                    hint=tr("save it as UTF-8 in your editor"),
                )  # fmt: skip
            )
            return None
        return text.lstrip("\ufeff") if text.startswith("\ufeff") else text

    def _read(
        self, path: Path, shown: str, where: Span | None = None, limit: int = MAX_FILE_BYTES
    ) -> str | None:
        try:
            status = path.stat()
            size = status.st_size
            if not stat.S_ISREG(status.st_mode):  # a FIFO or a device would block the read
                self.errors.append(
                    BookStructureError(
                        tr("{name} is not a regular file", name=shown),
                        where or Span(shown, 1, 1),
                        hint=tr("a book is made of ordinary text files"),
                    )
                )
                return None
            if size > limit:
                self.errors.append(self._too_large(shown, where, limit))
                return None
            if self.total + size > limits.MAX_BOOK_BYTES:
                self.errors.append(
                    BookStructureError(
                        tr(
                            "the book's files together pass {limit} bytes",
                            limit=limits.MAX_BOOK_BYTES,
                        ),
                        where or Span(shown, 1, 1),
                        hint=tr(
                            "a book is rarely more than a few megabytes; "
                            "is a file here that does not belong to the book?"
                        ),
                    )  # fmt: skip
                )
                return None
            self.total += size
            data = path.read_bytes()
        except OSError as error:
            reason = error.strerror or type(error).__name__
            self.errors.append(
                BookStructureError(
                    tr("cannot read {file}: {reason}", file=shown, reason=reason),
                    where or Span(shown, 1, 1),
                )
            )
            return None
        self.digest.update(shown.encode("utf-8", "replace") + b"\0" + data + b"\0")
        return self._decode(data, shown)

    @staticmethod
    def _too_large(shown: str, where: Span | None, limit: int) -> BookStructureError:
        return BookStructureError(
            tr("this file is too large (more than {limit} bytes)", limit=limit),
            where or Span(shown, 1, 1),
            hint=tr("split the book into several paragraph files, or check that this is "
                    "the right file"),
        )  # fmt: skip

    def _count(self, text: str, shown: str) -> bool:
        """Count the paragraph headers of ``text``; False (and an error) past the bound.

        A quick count (lines starting with ``§`` or ``#``) before parsing, so that a huge
        book is refused before it costs anything; ``_finish`` counts exactly after parsing.
        """
        self.paragraphs += text.count("\n§") + text.count("\n#") + text.startswith(("§", "#"))
        if self.paragraphs <= limits.MAX_PARAGRAPHS:
            return True
        self.errors.append(_too_many_paragraphs(shown))
        return False

    # ------------------------------------------------------------------ entry
    def load(self) -> Book:
        path = self.path
        try:
            found = path.exists() or path.is_symlink()
        except OSError as error:
            raise UsageError(
                tr("{path}: {reason}", path=str(path)[:80], reason=error.strerror)
            ) from None
        if not found:
            raise UsageError(tr("{path}: no such file or folder", path=str(path)))
        if is_file(path) and path.name == META_FILE:
            path = path.parent
        if path.is_dir():
            return self._load_folder(path)
        if path.exists() and not is_file(path):  # a FIFO or a device would block the read
            raise UsageError(tr("{path}: not a regular file", path=str(path)))
        return self._load_single(path)

    def _load_folder(self, root: Path) -> Book:
        meta_path = root / META_FILE
        if not is_file(meta_path) and not meta_path.is_symlink():
            raise UsageError(
                tr("{path}: not a book (no {meta} in this folder)", path=str(root), meta=META_FILE),
                hint=tr(
                    "a book folder holds {meta} and its *{extension} paragraph files",
                    meta=META_FILE,
                    extension=EXTENSION,
                ),
            )
        shown_meta = str(meta_path)
        where = Span(shown_meta, 1, 1)
        meta_inside = inside(meta_path, root.resolve())
        if not meta_inside:
            self.errors.append(
                _loop_error(META_FILE, where)
                if meta_inside is None
                else BookStructureError(
                    tr("`{name}` is a link to a file outside the book folder", name=META_FILE),
                    where,
                    hint=tr("keep every file of the book inside its folder"),
                )
            )
            raise BookLoadError(self.errors)
        text = self._read(meta_path, shown_meta, limit=limits.MAX_YAML_BYTES)
        meta = parse_meta(text, shown_meta, self.errors) if text is not None else None
        files = self._paragraph_files(root, meta)
        parsed: list[tuple[Path, ast.ParagraphFile]] = []
        for file in files:
            source = self._read(file, str(file))
            if source is None:
                continue
            if not self._count(source, str(file)):
                break
            paragraph_file, errors = parse_collecting(source, str(file))
            self.errors.extend(errors)
            parsed.append((file, paragraph_file))
        return self._finish(root, meta, files, parsed)

    def _paragraph_files(self, root: Path, meta: BookMeta | None) -> list[Path]:
        base = root.resolve()
        if meta is not None and meta.files is not None:
            result: list[Path] = []
            if len(meta.files) > limits.MAX_FILES:
                self.errors.append(self._too_many_files(meta.value_span("files")))
                return result
            for index, name in enumerate(meta.files):
                where = (
                    meta.file_spans[index]
                    if index < len(meta.file_spans)
                    else meta.value_span("files")
                )
                candidate = root / name
                within = inside(candidate, base)
                if within is None:
                    self.errors.append(_loop_error(name, where))
                elif not within:
                    self.errors.append(
                        BookStructureError(
                            tr("`{name}` is outside the book folder", name=name),
                            where,
                            hint=tr("list only files inside the book folder"),
                        )  # fmt: skip
                    )
                elif not is_file(candidate):
                    self.errors.append(
                        BookStructureError(
                            tr("paragraph file `{name}` not found", name=name),
                            where,
                            hint=did_you_mean(name, [p.name for p in root.glob(f"*{EXTENSION}")]),
                        )  # fmt: skip
                    )
                else:
                    result.append(candidate)
            return result
        found = []
        try:
            listed = list(itertools.islice(root.rglob(f"*{EXTENSION}"), limits.MAX_FILES + 1))
        except OSError as error:
            listed = []
            self.errors.append(
                BookStructureError(
                    tr(
                        "cannot list the book folder: {reason}",
                        reason=error.strerror or type(error).__name__,
                    ),
                    Span(str(root / META_FILE), 1, 1),
                )  # fmt: skip
            )
        if len(listed) > limits.MAX_FILES:
            self.errors.append(self._too_many_files(Span(str(root / META_FILE), 1, 1)))
            return []
        for candidate in sorted(listed, key=lambda p: p.relative_to(root).as_posix()):
            within = inside(candidate, base)
            if within is None:
                self.errors.append(_loop_error(candidate.name, Span(str(candidate), 1, 1)))
            elif within and is_file(candidate):
                found.append(candidate)
        if not found and not self.errors:
            self.errors.append(
                BookStructureError(
                    tr(
                        "no paragraph files (*{extension}) in this book folder", extension=EXTENSION
                    ),
                    Span(str(root / META_FILE), 1, 1),
                    hint=tr(
                        "write the paragraphs in files such as `part1{extension}`",
                        extension=EXTENSION,
                    ),
                )
            )
        return found

    def _too_many_files(self, where: Span) -> BookStructureError:
        return BookStructureError(
            tr("the book has more than {limit} paragraph files", limit=limits.MAX_FILES),
            where,
            hint=tr("put several paragraphs in each file"),
        )

    def _load_single(self, file: Path) -> Book:
        shown = str(file)
        try:
            if file.stat().st_size > MAX_FILE_BYTES:
                raise BookLoadError([self._too_large(shown, None, MAX_FILE_BYTES)])
            data = file.read_bytes()
        except OSError as error:
            raise UsageError(
                tr("{path}: cannot read ({reason})", path=str(file), reason=error.strerror)
            ) from None
        head = data[:4].lstrip(b"\xef\xbb\xbf")
        if not head.startswith(b"---"):
            if file.suffix != EXTENSION:
                raise UsageError(
                    tr("{path}: not a book", path=str(file)),
                    hint=tr(
                        "give a book folder (with {meta}) or a {extension} file starting with "
                        "a `---` front matter",
                        meta=META_FILE,
                        extension=EXTENSION,
                    ),
                )
            self.errors.append(
                BookMetadataError(
                    tr("a single-file book starts with a front matter between `---` lines"),
                    Span(shown, 1, 1),
                    hint=tr("begin the file with `---`, `title: ...`, `---`"),
                )
            )
            raise BookLoadError(self.errors)
        self.digest.update(shown.encode("utf-8", "replace") + b"\0" + data + b"\0")
        text = self._decode(data, shown)
        if text is None:
            raise BookLoadError(self.errors)
        text = text.replace("\r\n", "\n")
        first = _FRONT.match(text)
        end = re.search(r"^---[ \t]*$", text[first.end() :] if first else "", re.MULTILINE)
        if first is None or end is None:
            self.errors.append(
                BookMetadataError(
                    tr("the front matter is not closed"),
                    Span(shown, 1, 1),
                    hint=tr("end it with a line holding only `---`"),
                )  # fmt: skip
            )
            raise BookLoadError(self.errors)
        front = text[first.end() : first.end() + end.start()]
        meta = parse_meta(front, shown, self.errors, line_offset=1)
        cut = first.end() + end.end()
        blank = "\n" * text[:cut].count("\n")
        if not self._count(text[cut:], shown):
            raise BookLoadError(self.errors)
        paragraph_file, errors = parse_collecting(blank + text[cut:], shown)
        self.errors.extend(errors)
        return self._finish(file.parent, meta, [file], [(file, paragraph_file)])

    # ------------------------------------------------------------------ assembling
    def _finish(
        self,
        root: Path,
        meta: BookMeta | None,
        files: list[Path],
        parsed: list[tuple[Path, ast.ParagraphFile]],
    ) -> Book:
        paragraphs: dict[int, ast.Paragraph] = {}
        labels: dict[str, int] = {}
        label_index: dict[str, int] = {}
        label_spans: dict[str, Span] = {}
        for _file, paragraph_file in parsed:
            for paragraph in paragraph_file.paragraphs:
                first = paragraphs.get(paragraph.number)
                if first is not None:
                    self.errors.append(
                        BookStructureError(
                            tr("paragraph {number} is defined twice", number=paragraph.number),
                            paragraph.span,
                            hint=tr(
                                "paragraph {number} is already defined at {where}",
                                number=paragraph.number,
                                where=str(first.span),
                            ),
                        )  # fmt: skip
                    )
                    continue
                paragraphs[paragraph.number] = paragraph
                if paragraph.label:
                    key = name_key(paragraph.label)
                    if key in label_index and label_index[key] != paragraph.number:
                        self.errors.append(
                            BookStructureError(
                                tr("label `{label}` is used twice", label=paragraph.label),
                                paragraph.span,
                                hint=tr(
                                    "it already names paragraph {number} at {where}",
                                    number=label_index[key],
                                    where=str(label_spans[key]),
                                ),
                            )  # fmt: skip
                        )
                        continue
                    labels[paragraph.label] = paragraph.number
                    label_index[key] = paragraph.number
                    label_spans[key] = paragraph.span

        if len(paragraphs) > limits.MAX_PARAGRAPHS and self.paragraphs <= limits.MAX_PARAGRAPHS:
            self.errors.append(_too_many_paragraphs(str(files[0])))  # headers the count missed
        ruleset = None
        if meta is not None:
            if parsed and not paragraphs and not self.errors:
                self.errors.append(
                    BookStructureError(
                        tr("the book has no paragraphs"),
                        Span(str(files[0]), 1, 1),
                        hint=tr("start a paragraph with a header line such as `§ 1`"),
                    )  # fmt: skip
                )
            if paragraphs and meta.start not in paragraphs:
                self.errors.append(
                    BookMetadataError(
                        tr("the start paragraph {number} does not exist", number=meta.start),
                        meta.value_span("start"),
                        hint=tr("the first paragraph is {number}", number=min(paragraphs)),
                    )
                )
            ruleset = self._ruleset(root, meta)
        start_items = meta.items if meta is not None else ()
        state = meta.state if meta is not None else BookState()
        paragraphs = resolve_state(paragraphs, state, ruleset, start_items, self.errors)
        check_names(paragraphs, label_index, labels, ruleset, self.errors, start_items, state)
        if self.errors or meta is None:
            raise BookLoadError(sort_errors(self.errors) or [BookMetadataError(tr("no metadata"))])
        return Book(
            meta=meta,
            paragraphs=paragraphs,
            labels=labels,
            ruleset=ruleset,
            root=root,
            files=files,
            fingerprint=self.digest.hexdigest(),
            _label_index=label_index,
        )

    def _ruleset(self, root: Path, meta: BookMeta):  # noqa: ANN202 - Ruleset
        from dedale.rules import load_ruleset

        try:
            return load_ruleset(
                meta.ruleset,
                meta.rules,
                root,
                overrides_file=meta.file,
                where=meta.value_span("ruleset"),
            )
        except DedaleError as error:
            self.errors.append(error)
            return None
