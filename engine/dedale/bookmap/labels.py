"""Edge labels in the author's own words, read from the line that makes the edge: the
parenthesised conditions and costs of a choice (``if Key`` / ``si Clé``), the outcome or
condition before ``->`` or ``:`` of a rule line (``success``, ``if codeword X``)."""

from __future__ import annotations

import re
from pathlib import Path

from dedale.i18n import tr, translate
from dedale.validator.graph import Edge

_CHOICE = re.compile(r"^\s*->\s*(?:\[[^\]]*\]|\S+)\s*((?:\([^()]*\)\s*)*)")
_GROUP = re.compile(r"\(([^()]*)\)")
MAX_LABEL = 48
"""Longer labels are cut (with an ellipsis): a map is read at a glance."""


class SourceLines:
    """The lines of the book's files, read once each (an unreadable file gives none)."""

    def __init__(self) -> None:
        self._files: dict[str, list[str]] = {}

    def line(self, file: str, number: int) -> str:
        if file not in self._files:
            try:
                self._files[file] = Path(file).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._files[file] = []
        lines = self._files[file]
        return lines[number - 1] if 0 < number <= len(lines) else ""


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1].rstrip() + "…"


def choice_label(line: str) -> str:
    """The parenthesised groups after a choice's destination, without their parentheses."""
    match = _CHOICE.match(line)
    if match is None:
        return ""
    return _cut("; ".join(group.strip() for group in _GROUP.findall(match.group(1))))


def rule_label(line: str) -> str:
    """What comes before ``->`` or ``:`` on a rule line (``> success -> 4``: success)."""
    text = line.strip().removeprefix(">").strip()
    cuts = [at for at in (text.find("->"), text.find(":")) if at > 0]
    return _cut(text[: min(cuts)].strip()) if cuts else ""


def kind_label(kind: str, lang: str | None = None) -> str:
    """The label of an edge that its line does not name in words."""
    labels = {
        "fight-win": tr("win"),
        "fight-lose": tr("lose"),
        "escape": tr("escaped"),
        "limit": tr("limit"),
        "hidden": "?",
    }
    return translate(labels[kind], lang) if kind in labels else ""


def edge_label(edge: Edge, lines: SourceLines, lang: str | None = None) -> str:
    """The label ``dedale graph`` writes on an edge."""
    line = lines.line(edge.span.file, edge.span.line)
    if edge.kind == "choice" and edge.choice is not None:
        return choice_label(line)
    if edge.kind in ("goto", "limit", "escape"):
        return rule_label(line) or kind_label(edge.kind, lang)
    return kind_label(edge.kind, lang)
