"""A cache of the parsed built-in rulesets, so that a start does not parse their YAML.

Parsing a built-in ruleset's YAML (ruamel.yaml's round-trip loader) takes ~20 ms, about a
tenth of ``dedale validate`` on a small book; its YNode tree (values and positions) is kept
as JSON in the user's cache folder (dedale.user_cache), in a file named by the SHA-256 of
the YAML text: a header line (format, name, that SHA-256, the SHA-256 of the tree's JSON)
and the tree's JSON. The file is read as untrusted input: a file that is too large, not
JSON, of another format, for another text, whose tree does not match its SHA-256 (cut
short, changed), or whose tree is not made of mappings, lists and plain scalars with
positions is ignored (the YAML is parsed, and the file written again). Writes are atomic
(a temporary file, then ``os.replace``); a cache that cannot be written is done without.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from dedale import limits
from dedale.rules.yamltree import YNode
from dedale.span import Span
from dedale.user_cache import cache_folder

FORMAT = 1
"""The layout of the cache files; a file of another format is ignored."""
MAX_BYTES = 8 * limits.MAX_YAML_BYTES
"""A cache file larger than this is not read."""

_SCALARS = (str, int, float, bool, type(None))


class _Refused(Exception):
    """The cache file is not a tree this module wrote."""


def _path(name: str, digest: str) -> str | None:
    folder = cache_folder()
    if folder is None:
        return None
    return os.path.join(folder, f"ruleset-{name}-{digest[:20]}.json")


def _digest(text: str) -> str:
    return hashlib.sha256(f"{FORMAT}\0{text}".encode()).hexdigest()


def load(name: str, text: str, shown: str) -> YNode | None:
    """The tree of built-in ruleset ``name`` (YAML ``text``, positions in ``shown``) from the
    cache, or None when there is no usable cache file."""
    digest = _digest(text)
    path = _path(name, digest)
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            return None
        header, _, body = raw.partition(b"\n")
        data = json.loads(header)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        if data.get("name") != name or data.get("sha256") != digest:
            return None
        if data.get("tree_sha256") != hashlib.sha256(body).hexdigest():
            return None  # cut short, or changed since it was written
        return _decode(json.loads(body), shown, [limits.MAX_YAML_NODES])
    except (OSError, ValueError, RecursionError, _Refused):
        return None


def store(name: str, text: str, tree: YNode) -> None:
    """Keep ``tree`` (parsed from ``text``) for the next start; silently nothing when the
    cache cannot be written or the tree has positions the cache does not keep."""
    digest = _digest(text)
    path = _path(name, digest)
    if path is None:
        return
    try:
        encoded = _encode(tree, tree.span.file)
    except (_Refused, RecursionError):
        return
    body = json.dumps(encoded).encode()
    header = {"format": FORMAT, "name": name, "sha256": digest}
    header["tree_sha256"] = hashlib.sha256(body).hexdigest()
    payload = json.dumps(header).encode() + b"\n" + body
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as file:
            file.write(payload)
        os.replace(temporary, path)
    except OSError:
        try:
            os.remove(temporary)
        except OSError:
            pass


def _encode(node: YNode, file: str) -> list[Any]:
    """``[kind, line, column, payload]``: kind "m" (payload: [key, line, column, node]
    rows), "l" (a list of nodes) or "s" (a scalar)."""
    span = node.span
    if span.file != file or span.end_line is not None or span.end_column is not None:
        raise _Refused
    value = node.value
    if isinstance(value, dict):
        rows = []
        for key, child in value.items():
            key_span = node.key_spans.get(key)
            if key_span is None or key_span.file != file or key_span.end_line is not None:
                raise _Refused
            rows.append([key, key_span.line, key_span.column, _encode(child, file)])
        if len(node.key_spans) != len(value):
            raise _Refused
        return ["m", span.line, span.column, rows]
    if isinstance(value, list):
        return ["l", span.line, span.column, [_encode(child, file) for child in value]]
    if not isinstance(value, _SCALARS):
        raise _Refused
    return ["s", span.line, span.column, value]


def _position(line: Any, column: Any) -> tuple[int, int]:
    if type(line) is not int or type(column) is not int or line < 1 or column < 1:
        raise _Refused
    return line, column


def _decode(data: Any, file: str, budget: list[int]) -> YNode:
    """The YNode tree of an encoded one; _Refused at anything :func:`_encode` never writes."""
    budget[0] -= 1
    if budget[0] < 0 or type(data) is not list or len(data) != 4:
        raise _Refused
    kind, line, column, payload = data
    span = Span(file, *_position(line, column))
    if kind == "s":
        if not isinstance(payload, _SCALARS):
            raise _Refused
        return YNode(payload, span)
    if type(payload) is not list:
        raise _Refused
    if kind == "l":
        return YNode([_decode(child, file, budget) for child in payload], span)
    if kind != "m":
        raise _Refused
    children: dict[str, YNode] = {}
    key_spans: dict[str, Span] = {}
    for row in payload:
        if type(row) is not list or len(row) != 4 or type(row[0]) is not str:
            raise _Refused
        key = row[0]
        if key in children:
            raise _Refused
        key_spans[key] = Span(file, *_position(row[1], row[2]))
        children[key] = _decode(row[3], file, budget)
    return YNode(children, span, key_spans)
