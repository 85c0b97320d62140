"""Save files: a versioned JSON document written atomically.

A save holds everything needed to rebuild a game exactly:

- ``format`` (always ``"dedale-save"``) and ``version`` (:data:`SAVE_VERSION`);
- ``book``: the book's ``title`` and content ``fingerprint``;
- ``seed`` and ``creation`` (the hero options given to ``Game.new``);
- ``origin``: ``None`` for a game played from its start, or the state a game resumed from
  after its book was edited (see :func:`dedale.game.resume`);
- ``decisions``: the full decision log (answers to prompts and player actions);
- ``state``: a snapshot of the GameState when the save was written.

:func:`write_save` writes a temporary file in the same folder, fsyncs it and renames it over
the target, so a crash mid-write never leaves a broken save and the previous save survives.
:func:`read_save` raises :class:`dedale.errors.SaveError` with a specific message for each
way a file can be unusable (missing, unreadable, garbage, truncated, not a save, too new,
too old, incomplete, a field of the wrong type or out of its range, nested too deeply,
too big) at the line and column of the bad field, and never changes anything. A save is
untrusted input: :data:`dedale.save_checks.SAVE_SCHEMA` gives every field its type and range.

Temporary files are named ``.<save>.<pid>.<random>.tmp``; :func:`write_save` removes those
left beside the target by a writer that was killed (its process is gone).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dedale.errors import SaveError
from dedale.i18n import tr
from dedale.save_checks import (
    BadNumber,
    check_fields,
    check_nesting,
    parse_int,
    refuse_constant,
    span_of,
)
from dedale.span import Span

SAVE_FORMAT = "dedale-save"
SAVE_VERSION = 1
MIN_SAVE_VERSION = 1

MAX_SAVE_BYTES = 32 * 1024 * 1024
"""A save bigger than this is refused (a long game's save is well under 1 MB)."""
STALE_TEMP_SECONDS = 600
"""A temporary file of unknown writer older than this is an interrupted save's."""

_REQUIRED: dict[str, type | tuple[type, ...]] = {
    "book": dict,
    "seed": int,
    "creation": dict,
    "decisions": list,
    "state": dict,
}


@dataclass(slots=True)
class SaveData:
    """The content of a save file (see the module docstring for each field)."""

    title: str
    fingerprint: str
    seed: int
    creation: dict[str, Any]
    decisions: list[Any]
    state: dict[str, Any]
    origin: dict[str, Any] | None = None
    version: int = SAVE_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON document written to disk."""
        return {
            "format": SAVE_FORMAT,
            "version": self.version,
            "book": {"title": self.title, "fingerprint": self.fingerprint},
            "seed": self.seed,
            "creation": self.creation,
            "origin": self.origin,
            "decisions": self.decisions,
            "state": self.state,
            **self.extra,
        }


def write_save(path: str | os.PathLike[str], data: SaveData) -> Path:
    """Write ``data`` to ``path`` atomically (temp file, fsync, rename). Returns the path."""
    target = Path(path)
    text = json.dumps(data.to_json(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder
        )
    except OSError as error:
        raise SaveError(
            tr(
                "cannot write the save {target}: {value}",
                target=target,
                value=error.strerror or error,
            )
        ) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp_name, target)
    except OSError as error:
        try:
            os.unlink(temp_name)
        except OSError:
            pass
        raise SaveError(
            tr(
                "cannot write the save {target}: {value}",
                target=target,
                value=error.strerror or error,
            )
        ) from None
    _fsync_folder(folder)
    remove_stale_temporaries(target)
    return target


def remove_stale_temporaries(target: Path) -> int:
    """Delete the temporary files that interrupted saves of ``target`` left; how many."""
    removed = 0
    prefix = f".{target.name}."
    folder = target.parent if str(target.parent) else Path(".")
    try:
        candidates = [p for p in folder.iterdir() if p.name.startswith(prefix)]
    except OSError:
        return 0
    for path in candidates:
        if path.suffix == ".tmp" and _writer_gone(path, path.name[len(prefix) :]):
            try:
                path.unlink()
                removed += 1
            except OSError:
                continue
    return removed


def _writer_gone(path: Path, rest: str) -> bool:
    """Whether the process that wrote this temporary file is no longer running."""
    pid_text = rest.split(".", 1)[0]
    if pid_text.isascii() and pid_text.isdigit() and len(pid_text) <= 10:
        pid = int(pid_text)
        if pid == os.getpid():
            return False  # ours: another thread may be writing it right now
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except (PermissionError, OSError):
            return False
        return False
    try:  # an older name without the writer's id: judge by age
        return time.time() - path.stat().st_mtime > STALE_TEMP_SECONDS
    except OSError:
        return False


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable where the platform allows it."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def read_save(path: str | os.PathLike[str]) -> SaveData:
    """Read and check a save file; raise SaveError saying exactly what is wrong."""
    source = Path(path)
    try:
        raw = source.read_bytes()
    except FileNotFoundError:
        raise SaveError(
            tr("no save file at {source}", source=source), hint=tr("check the path")
        ) from None
    except IsADirectoryError:
        raise SaveError(tr("{source} is a folder, not a save file", source=source)) from None
    except OSError as error:
        raise SaveError(
            tr(
                "cannot read the save {source}: {value}",
                source=source,
                value=error.strerror or error,
            )
        ) from None
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(
            tr(
                "the save {path} is too big to be a Dédale save ({size} bytes; at most {limit})",
                path=str(source),
                size=len(raw),
                limit=MAX_SAVE_BYTES,
            ),
            Span(str(source), 1, 1),
            hint=tr("the file may be corrupted or be some other kind of file"),
        )
    if not raw.strip():
        raise SaveError(
            tr("the save {source} is empty (was it cut off while being written?)", source=source),
            Span(str(source), 1, 1),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(
            tr(
                "the save {source} is not a Dédale save: it holds binary data, not text",
                source=source,
            ),
            Span(str(source), 1, 1),
            hint=tr("the file may be corrupted or be some other kind of file"),
        ) from None
    stripped = text.lstrip("\ufeff \t\r\n")
    where = Span(str(source), 1, 1)
    if not stripped.startswith("{"):
        raise SaveError(
            tr(
                "the save {source} is not a Dédale save: it does not hold a JSON document",
                source=source,
            ),
            Span(str(source), 1, 1),
            hint=tr("the file may be corrupted or be some other kind of file"),
        )
    body = text.lstrip("\ufeff")
    check_nesting(source, body)
    try:
        document = json.loads(body, parse_int=parse_int, parse_constant=refuse_constant)
    except BadNumber as bad:
        raise SaveError(
            tr("the save {path} is corrupted: {problem}", path=str(source), problem=bad.problem),
            span_of(source, body, bad.position(body)),
            hint=tr("the file was damaged or edited by hand; use an older save"),
        ) from None
    except json.JSONDecodeError as error:
        at = Span(str(source), error.lineno, error.colno)
        # json reports a string cut by the end of the file at the string's start
        if error.pos >= len(body.rstrip()) - 1 or error.msg == "Unterminated string starting at":
            raise SaveError(
                tr(
                    "the save {source} is truncated: it ends in the middle of the data",
                    source=source,
                ),
                at,
                hint=tr("the file was cut off; use an older save"),
            ) from None
        raise SaveError(
            tr(
                "the save {source} is corrupted: invalid JSON at line {lineno}, "
                "column {colno} ({msg})",
                source=source,
                lineno=error.lineno,
                colno=error.colno,
                msg=error.msg,
            ),
            at,
            hint=tr("the file was damaged or edited by hand; use an older save"),
        ) from None
    try:
        return _check_document(source, body, document)
    except SaveError as error:
        error.span = error.span or where  # the document as a whole is at fault
        raise


def _check_document(source: Path, text: str, document: Any) -> SaveData:
    if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
        raise SaveError(tr("{source} is a JSON file but not a Dédale save", source=source))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(tr("the save {source} has no valid format version", source=source))
    if version > SAVE_VERSION:
        raise SaveError(
            tr(
                "the save {source} was written by a newer Dédale (save format "
                "{version}; this version reads formats {MIN_SAVE_VERSION} to "
                "{SAVE_VERSION})",
                source=source,
                version=version,
                MIN_SAVE_VERSION=MIN_SAVE_VERSION,
                SAVE_VERSION=SAVE_VERSION,
            ),
            hint=tr("upgrade Dédale to load it"),
        )
    if version < MIN_SAVE_VERSION:
        raise SaveError(
            tr(
                "the save {source} uses the old save format {version}, which this "
                "version no longer reads (formats {MIN_SAVE_VERSION} to "
                "{SAVE_VERSION})",
                source=source,
                version=version,
                MIN_SAVE_VERSION=MIN_SAVE_VERSION,
                SAVE_VERSION=SAVE_VERSION,
            )
        )
    check_fields(source, text, document)  # every field's type and range, at its place
    for key, kind in _REQUIRED.items():
        if not isinstance(document.get(key), kind) or isinstance(document.get(key), bool):
            raise SaveError(
                tr(
                    "the save {source} is incomplete: field '{key}' is missing or bad",
                    source=source,
                    key=key,
                )
            )
    book = document["book"]
    title, fingerprint = book.get("title"), book.get("fingerprint")
    if not isinstance(title, str) or not isinstance(fingerprint, str):
        raise SaveError(
            tr("the save {source} is incomplete: the book's identity is missing", source=source)
        )
    origin = document.get("origin")
    if origin is not None and not isinstance(origin, dict):
        raise SaveError(tr("the save {source} is incomplete: field 'origin' is bad", source=source))
    known = {"format", "version", "book", "origin", *_REQUIRED}
    return SaveData(
        title=title,
        fingerprint=fingerprint,
        seed=document["seed"],
        creation=document["creation"],
        decisions=document["decisions"],
        state=document["state"],
        origin=origin,
        version=version,
        extra={k: v for k, v in document.items() if k not in known},
    )


def check_book(data: SaveData, title: str, source: str | os.PathLike[str] = "the save") -> None:
    """Raise SaveError if the save was made for another book than ``title``."""
    if data.title != title:
        raise SaveError(
            tr(
                "{source} belongs to another book: '{title}', not '{title2}'",
                source=source,
                title=data.title,
                title2=title,
            ),
            Span(str(source), 1, 1),
            hint=tr("open the book this save was made with"),
        )
