"""``json.dumps(value, ensure_ascii=False, indent=2)``, the same text, in less CPU time (issue
14.11: the JSON report of a 1,000-paragraph book took 0.025 s of its 0.4 s).

With ``indent``, the ``json`` module leaves its C encoder for the pure-Python one: a
generator per container, a type test chain per value. :func:`dumps_indented` walks the value
once with one recursive function that appends the pieces to a list (the strings escaped by
``json``'s own C escaper, the numbers written by ``int.__repr__`` and ``float.__repr__``, as
``json`` does). It takes what ``json.dumps`` takes without ``default``: dicts (keys ``str``,
``int``, ``float``, ``bool`` or ``None``, in their order), lists and tuples, strings, numbers,
``True``, ``False`` and ``None`` (their subclasses too); anything else raises ``TypeError`` as
``json.dumps`` does. ``tests/test_json_text.py`` compares both on random documents.
"""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Any

_INFINITY = float("inf")


def _float(value: float) -> str:
    """A float as ``json`` writes it (``allow_nan=True``)."""
    if value != value:
        return "NaN"
    if value == _INFINITY:
        return "Infinity"
    if value == -_INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _key(key: Any) -> str:
    """A dict key as ``json`` writes it (quoted text)."""
    if isinstance(key, str):
        return encode_basestring(key)
    if isinstance(key, float):
        return '"' + _float(key) + '"'
    if key is True:
        return '"true"'
    if key is False:
        return '"false"'
    if key is None:
        return '"null"'
    if isinstance(key, int):
        return '"' + int.__repr__(key) + '"'
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def dumps_indented(value: Any, indent: int = 2) -> str:
    """The text of ``json.dumps(value, ensure_ascii=False, indent=indent)``."""
    pieces: list[str] = []
    put = pieces.append
    step = " " * indent
    escape = encode_basestring
    int_repr = int.__repr__
    simple = {  # the exact types of most values: their writer, without a type test chain
        str: escape,
        int: int_repr,
        float: _float,
        bool: lambda flag: "true" if flag else "false",
        type(None): lambda _: "null",
    }.get

    def scalar(item: Any) -> str | None:
        """The text of a value that is no container, or None for a container."""
        if isinstance(item, str):
            return escape(item)
        if item is None:
            return "null"
        if item is True:
            return "true"
        if item is False:
            return "false"
        if isinstance(item, int):
            return int_repr(item)
        if isinstance(item, float):
            return _float(item)
        if isinstance(item, (list, tuple, dict)):
            return None
        raise TypeError(f"Object of type {item.__class__.__name__} is not JSON serializable")

    def write(item: Any, pad: str) -> None:
        kind = type(item)
        if kind is str:
            put(escape(item))
            return
        if kind is dict or (kind is not list and isinstance(item, dict)):
            if not item:
                put("{}")
                return
            inner = pad + step
            separator = "{"
            for key, member in item.items():
                put(separator)
                put(inner)
                put(escape(key) if type(key) is str else _key(key))
                put(": ")
                plain = simple(type(member))
                if plain is not None:
                    put(plain(member))
                else:
                    write(member, inner)
                separator = ","
            put(pad)
            put("}")
            return
        if kind is list or isinstance(item, (list, tuple)):
            if not item:
                put("[]")
                return
            inner = pad + step
            separator = "["
            for member in item:
                put(separator)
                put(inner)
                plain = simple(type(member))
                if plain is not None:
                    put(plain(member))
                else:
                    write(member, inner)
                separator = ","
            put(pad)
            put("]")
            return
        text = scalar(item)
        if text is None:  # pragma: no cover - the containers are handled above
            raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")
        put(text)

    write(value, "\n")
    return "".join(pieces)
