"""The compiled methods of dataclasses, kept between runs (issue 14.11: the start-up floor).

Making a dataclass compiles its generated methods (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, a frozen class's ``__setattr__`` and ``__delattr__``) from source text with
``exec``: ~800 small functions for Dédale's ~160 dataclasses (the AST, the ruleset, the
reports), about 60 ms at every start, a quarter of ``dedale validate`` on a small book.
:func:`install` gives the ``dataclasses`` module an ``exec`` of its own that compiles each
text of a dataclass of Dédale's modules once (other libraries' run as ever) and keeps the
code objects, keyed by their text, in the user's cache folder (dedale.user_cache) in
``marshal`` form, as Python keeps its own ``__pycache__``: one ``marshal`` dict of each
text and its code object's own ``marshal`` bytes, so that a process turns into code only
the texts it makes (a validation ~900 of the file's texts, which hold the player's, the
solver's and the language server's too: unmarshalling them all cost ~7 ms at every start,
issue 14.11). The code is
the same: the same text, compiled with the same flags (no ``__future__`` flag, as
``dataclasses``' own ``exec``), run with the same globals and locals.

The file is for this exact interpreter (its name holds a digest of ``sys.version``) and is
read only when its header and SHA-256 match: a file cut short, changed, of another format,
too large or unreadable is ignored, and written again (atomically: a temporary file, then
``os.replace``) when the process ends, if it compiled anything new. Like Lark's table cache
(a pickle) beside it, the folder is trusted as the user's own. ``DEDALE_NO_CACHE=1``: no
cache, the ``exec`` of ``dataclasses`` left alone.
"""

from __future__ import annotations

import builtins
import dataclasses
import hashlib
import marshal
import os
import sys
from types import CodeType
from typing import Any

from dedale.user_cache import cache_folder

FORMAT = 2
"""The layout of the cache file (1: a marshal dict of texts and code objects)."""
HEADER = f"dedale dataclass methods {FORMAT}\n".encode()
MAX_ENTRIES = 5_000
"""Texts kept at most (Dédale compiles ~800 at a validation's start)."""
MAX_BYTES = 16 * 1024 * 1024
"""A cache file larger than this is not read."""

_codes: dict[str, CodeType | bytes] = {}  # bytes: as read, not unmarshalled yet
_state = {"path": None, "new": 0}


def _exec(source: Any, globals: Any = None, locals: Any = None, /, **options: Any) -> Any:
    """``exec`` for the dataclasses module: the text of a method of one of Dédale's own
    dataclasses is compiled once, then taken from the cache; any other runs as ever."""
    if type(source) is str:  # compiled here with no flag of this module (its __future__)
        code = _codes.get(source) if _ours(globals) else None
        if type(code) is bytes:
            code = _code(code)
            if code is not None:
                _codes[source] = code
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            if _ours(globals) and len(_codes) < MAX_ENTRIES:
                _codes[source] = code
                _state["new"] += 1
        source = code
    return builtins.exec(source, globals, locals, **options)


def _code(raw: bytes) -> CodeType | None:
    """The code object kept as ``raw`` (its ``marshal`` bytes); None when it is not one."""
    try:
        code = marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return None
    return code if type(code) is CodeType else None


def _ours(namespace: Any) -> bool:
    """Whether ``namespace`` (the globals a method is made in) is a module of Dédale."""
    name = namespace.get("__name__") if type(namespace) is dict else None
    return type(name) is str and (name == "dedale" or name.startswith("dedale."))


def cache_path() -> str | None:
    """This interpreter's cache file, or None when there is no cache folder."""
    folder = cache_folder()
    if folder is None:
        return None
    interpreter = f"{sys.version}\0{sys.implementation.cache_tag}".encode()
    digest = hashlib.sha256(interpreter).hexdigest()[:16]
    # the format in the name too: trees of two formats on one machine keep a file each
    return os.path.join(folder, f"dataclasses-{FORMAT}-{digest}.bin")


def install() -> None:
    """Give ``dataclasses`` the caching ``exec`` (once; never over another replacement)."""
    if "exec" in vars(dataclasses):
        return
    path = cache_path()
    if path is None:
        return
    _codes.update(read(path))
    _state["path"] = path
    dataclasses.exec = _exec  # type: ignore[attr-defined]
    import atexit

    atexit.register(save)


def read(path: str) -> dict[str, bytes]:
    """The code objects kept in ``path``, each as its ``marshal`` bytes (turned into code
    when its text is made: :func:`_code`); empty when the file is missing or not valid."""
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except OSError:
        return {}
    digest_end = len(HEADER) + 64
    if (
        len(raw) > MAX_BYTES
        or not raw.startswith(HEADER)
        or raw[digest_end : digest_end + 1] != b"\n"
    ):
        return {}
    payload = raw[digest_end + 1 :]
    if raw[len(HEADER) : digest_end] != hashlib.sha256(payload).hexdigest().encode():
        return {}
    try:
        codes = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    if not all(type(k) is str and type(v) is bytes for k, v in codes.items()):
        return {}
    return codes


def save() -> None:
    """Write the cache file if this process compiled texts it did not hold (at exit)."""
    path = _state["path"]
    if path is None or not _state["new"]:
        return
    try:
        kept = {text: code if type(code) is bytes else marshal.dumps(code)
                for text, code in _codes.items()}  # fmt: skip
        payload = marshal.dumps(kept)
    except ValueError:
        return
    digest = hashlib.sha256(payload).hexdigest().encode()
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as file:
            file.write(HEADER + digest + b"\n" + payload)
        os.replace(temporary, path)
        _state["new"] = 0
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass
