"""The map of a book: paragraphs as nodes, choices as edges, the validator's findings
marked, rendered as Graphviz DOT, Mermaid, JSON or SVG (``dedale graph``)."""

from dedale.bookmap.model import BookMap, MapEdge, MapNode, build_map
from dedale.bookmap.select import around, from_paragraph

__all__ = ["BookMap", "MapEdge", "MapNode", "around", "build_map", "from_paragraph"]
