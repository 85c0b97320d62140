"""book.yaml's commonest form read without ruamel.yaml (issue 14.11: the start-up).

Most book.yaml files are a few ``key: value`` lines (``title: Le Puits``, ``start: 1``).
ruamel.yaml costs ~10-12 ms of CPU to import at every start, more than reading such a file
takes; :func:`plain_mapping` reads exactly these files itself, and gives up (None: the
caller parses the text with ruamel.yaml, as before) at anything else. What it reads is
what ruamel.yaml's round-trip loader reads there: the same keys in the same order, the
same values of the same types (``str``, ``int``), the same positions (``.lc.key(k)`` and
``.lc.value(k)``, 0-based line and column). It takes only:

- lines that are blank, or a comment from their first column (``# ...``);
- ``key: value`` lines from the first column: the key a word (letters, digits, ``_``,
  ``-``, starting with a letter or ``_``), one or more spaces after the colon, the value
  either a whole number from 1 to 999,999,999 without a leading zero (an ``int``; longer
  ones meet the loader's limit on digits, and ruamel.yaml reads
  ``0`` as its own ``ScalarInt``) or text that starts with a
  letter and holds only letters, digits, spaces and ``' ’ . , ! ? ( ) / + -`` (a ``str``,
  its trailing spaces cut);
- no key twice, no key or value that a YAML loader reads as a boolean, null or number
  (``yes``, ``Off``, ``null``, ``nan``...), every character printable (no tab, no
  carriage return, no byte-order mark), at most :data:`MAX_CHARS` characters.

Anything else (a list, a nested mapping, quotes, a comment after a value, a date, an
empty value, an indented line...) is left to ruamel.yaml, with its own messages.
tests/language/test_metadata_plain.py checks it against ruamel.yaml's reading.
"""

from __future__ import annotations

import re

MAX_CHARS = 4_000
"""A longer text is left to ruamel.yaml (and its size limits)."""

_LINE = re.compile(
    r"(?P<key>[^\W\d][\w-]*):(?P<gap> +)"
    r"(?P<value>[1-9][0-9]{0,8}|[^\W\d_][\w '’.,!?()/+-]*?) *"
)
# words some YAML loader reads as a boolean, null or number (YAML 1.1 and 1.2), any case
_SPECIAL = frozenset(
    {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf", "none"}
)


class Positions:
    """Where each key and value of a :class:`PlainMap` is, as ruamel.yaml's ``lc``."""

    __slots__ = ("_keys", "_values", "col", "line")

    def __init__(self) -> None:
        self._keys: dict[str, tuple[int, int]] = {}
        self._values: dict[str, tuple[int, int]] = {}
        self.line = 0
        self.col = 0

    def key(self, key: str) -> tuple[int, int]:
        return self._keys[key]

    def value(self, key: str) -> tuple[int, int]:
        return self._values[key]


class PlainMap(dict):
    """A flat book.yaml read by :func:`plain_mapping`: a dict with ruamel.yaml's ``lc``."""

    def __init__(self) -> None:
        super().__init__()
        self.lc = Positions()


def plain_mapping(text: str) -> PlainMap | None:
    """``text`` read as ruamel.yaml's round-trip loader reads it, when it is only
    ``key: value`` lines (see the module's documentation); else None."""
    if len(text) > MAX_CHARS:
        return None
    found = PlainMap()
    positions = found.lc
    for number, line in enumerate(text.split("\n")):
        if not line.isprintable():
            return None
        if not line or line[0] == "#" or line.isspace():
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match.group("key"), match.group("value")
        if key in found or key.lower() in _SPECIAL or value.lower() in _SPECIAL:
            return None
        if not positions._keys:
            positions.line = number
        positions._keys[key] = (number, 0)
        positions._values[key] = (number, match.start("value"))
        found[key] = int(value) if value[0] in "0123456789" else value
    return found or None
