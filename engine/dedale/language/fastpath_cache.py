"""The fast paths' terminal patterns kept between runs, so that a book whose every rule line
takes a fast path never builds the Lark parser (issue 14.11: start-up).

The fast paths (:mod:`dedale.language.fastpath`) take their keyword patterns from the
grammar's terminals, read from the Lark parser; building it from Lark's cached tables costs
~12-18 ms at every start, for nothing when no line goes to Lark (the generated benchmark
books, many small books). The patterns' sources are kept as JSON in the user's cache folder
(dedale.user_cache), in a file named by the SHA-256 of Lark's version, the grammar's text
and this file's format: a header line (format, that SHA-256, the SHA-256 of the body) and
the body. The file is read as untrusted input: too large, not JSON, another format or
digest, a body that does not match its SHA-256, other names than asked, a source that is
not a string or does not compile (when its user compiles it): ignored (the parser is
built, and the file written again).
Writes are atomic; a cache that cannot be written is done without.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from typing import TypeVar

from dedale.user_cache import cache_folder

T = TypeVar("T")

FORMAT = 1
"""The layout of the cache files (and of the sources kept); another format is ignored."""
MAX_BYTES = 200_000
"""A cache file larger than this is not read."""


def _compiles(found: dict[str, str]) -> dict[str, str]:
    """``found``, once each source is checked to compile (``re.error`` if one does not)."""
    for source in found.values():
        re.compile(source)
    return found


def sources(
    grammar: str,
    names: tuple[str, ...],
    build: Callable[[], dict[str, str]],
    use: Callable[[dict[str, str]], T] = _compiles,  # type: ignore[assignment]
) -> T:
    """``use`` of the regular expressions ``names`` of the fast paths (by default: the
    sources, each checked to compile): from the cache when it holds a good copy for this
    grammar and Lark on which ``use`` raises no ``re.error``, else of ``build()`` (which
    reads the parser), kept. ``fastpath`` gives its ``use`` that compiles the patterns it
    makes of them: each source is compiled once, not once more to check it (~4 ms)."""
    from dedale.grammars import lark_version

    digest = hashlib.sha256(f"{FORMAT}\0{lark_version()}\0{grammar}".encode()).hexdigest()
    folder = cache_folder()
    path = None if folder is None else os.path.join(folder, f"fastpath-{digest[:20]}.json")
    if path is not None:
        found = _read(path, digest, names)
        if found is not None:
            try:
                return use(found)
            except (re.error, RecursionError, OverflowError):
                pass  # a source that does not compile: built again
    built = build()
    made = use(built)
    if path is not None:
        _write(path, digest, built)
    return made


def _read(path: str, digest: str, names: tuple[str, ...]) -> dict[str, str] | None:
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            return None
        header, _, body = raw.decode("utf-8").partition("\n")
        head = json.loads(header)
        if head != {"format": FORMAT, "digest": digest, "body": _sha(body)}:
            return None
        found = json.loads(body)
        if not isinstance(found, dict) or sorted(found) != sorted(names):
            return None
        if not all(isinstance(source, str) for source in found.values()):
            return None
        return found
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None


def _write(path: str, digest: str, found: dict[str, str]) -> None:
    body = json.dumps(found, sort_keys=True)
    header = json.dumps({"format": FORMAT, "digest": digest, "body": _sha(body)})
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(header + "\n" + body)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
