"""Helpers for the language tests: AST -> plain data for snapshots and comparisons."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from dedale.span import Span

OMITTED_AT_DEFAULT = {("Enemy", "group"), ("Enemy", "member")}
"""Fields added after the snapshots were taken, left out when they hold their default (an
enemy outside a group), so that the snapshots of books without them do not change."""


def plain(node: Any, *, spans: bool = True, rename=None) -> Any:
    """A readable nested structure of an AST node (``_type`` + fields)."""
    if isinstance(node, Span):
        return f"{node.line}:{node.column}-{node.end_line}:{node.end_column}"
    if is_dataclass(node):
        data: dict[str, Any] = {"_type": type(node).__name__}
        for f in fields(node):
            if f.name == "span" and not spans:
                continue
            if (type(node).__name__, f.name) in OMITTED_AT_DEFAULT and getattr(
                node, f.name
            ) == f.default:
                continue
            data[f.name] = plain(getattr(node, f.name), spans=spans, rename=rename)
        return data
    if isinstance(node, tuple | list):
        return [plain(item, spans=spans, rename=rename) for item in node]
    if isinstance(node, str) and rename is not None:
        return rename(node)
    return node
