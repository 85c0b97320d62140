"""How each kind of paragraph and edge looks on the map (shared by DOT and Mermaid)."""

from __future__ import annotations

from dedale.bookmap.model import MapNode

FILL = {
    "victory": "#c8e6c9",
    "death": "#ffcdd2",
    "fight": "#ffe0b2",
    "test": "#e1f5fe",
    "hidden": "#eeeeee",
}
"""The fill of a paragraph by its first kind in this order of precedence."""
PRECEDENCE = ("victory", "death", "fight", "test", "hidden")
FINDING_COLOUR = "#d32f2f"


def main_kind(node: MapNode) -> str | None:
    """The kind that gives a paragraph its colour (None: a plain paragraph)."""
    return next((kind for kind in PRECEDENCE if kind in node.kinds), None)


def node_title(node: MapNode) -> list[str]:
    """The lines written in a paragraph's box: ``§ 12``, its label, its findings' marks."""
    lines = [f"§ {node.number}"]
    if node.label:
        lines.append(node.label)
    lines += [f"⚠ {finding.words}" for finding in node.findings]
    return lines
