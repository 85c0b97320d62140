"""Load a book with the editor's unsaved texts in place of the files on disk.

The loader reads every file through ``_read`` (folder books) or reads the single file of a
single-file book itself; :class:`OverlayLoader` answers both from the open documents first,
so that diagnostics follow what the author types before he saves.
"""

from __future__ import annotations

import gc
from pathlib import Path

from dedale import limits
from dedale.book import Book
from dedale.errors import BookLoadError, BookStructureError, BookSyntaxError, DedaleError
from dedale.i18n import tr
from dedale.language.loader import _Loader
from dedale.span import Span


class OverlayLoader(_Loader):
    """The book loader, reading ``overlay[path]`` (resolved paths) before the disk."""

    def __init__(self, path: Path, overlay: dict[Path, str]) -> None:
        super().__init__(path)
        self.overlay = overlay

    def _text(self, path: Path) -> str | None:
        try:
            return self.overlay.get(path.resolve())
        except (OSError, RuntimeError):
            return None

    def _read(
        self, path: Path, shown: str, where: Span | None = None, limit: int = limits.MAX_FILE_BYTES
    ) -> str | None:
        text = self._text(path)
        if text is None:
            return super()._read(path, shown, where, limit)
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > limit:
            self.errors.append(self._too_large(shown, where, limit))
            return None
        self.total += len(data)
        self.digest.update(shown.encode("utf-8", "replace") + b"\0" + data + b"\0")
        return text.lstrip("\ufeff")

    def _load_single(self, file: Path) -> Book:
        text = self._text(file)
        if text is None:
            return super()._load_single(file)
        # The single-file path reads bytes itself: give it the unsaved text as a file view.
        return super()._load_single(_TextPath(file, text))


class _TextPath(type(Path())):  # type: ignore[misc]
    """A path whose content is the editor's text (stat size and bytes), for single files."""

    _overlay_text: str = ""

    def __new__(cls, path: Path, text: str) -> _TextPath:
        made = super().__new__(cls, path)
        made._overlay_text = text
        return made

    def __init__(self, path: Path, text: str) -> None:  # Python 3.11: Path has no __init__ args
        pass

    def read_bytes(self) -> bytes:
        return self._overlay_text.encode("utf-8", "surrogatepass")

    def stat(self, *, follow_symlinks: bool = True):  # noqa: ANN201 - os.stat_result
        real = super().stat(follow_symlinks=follow_symlinks)
        size = len(self.read_bytes())
        fields = list(real)
        fields[6] = size  # st_size
        import os

        return os.stat_result(fields)


def load_with_overlay(path: Path, overlay: dict[Path, str]) -> Book:
    """:func:`dedale.language.load_book` with the editor's texts; BookLoadError lists every
    error, as the loader does."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return OverlayLoader(path, overlay).load()
    except BookLoadError:
        raise
    except DedaleError as error:
        raise BookLoadError([error]) from None
    except RecursionError:
        raise BookLoadError(
            [BookSyntaxError(tr("the book nests too deeply to be read"), Span(str(path), 1, 1))]
        ) from None
    except (OSError, ValueError) as error:
        raise BookLoadError([BookStructureError(str(error), Span(str(path), 1, 1))]) from None
    finally:
        if collecting:
            gc.enable()
