"""The map as text: Graphviz DOT, Mermaid (flowchart) and JSON. Clusters per file."""

from __future__ import annotations

import json

from dedale.bookmap.model import BookMap, MapEdge, MapNode
from dedale.bookmap.style import FILL, FINDING_COLOUR, main_kind, node_title

EDGE_DOT = {
    "fight-win": 'style=bold, color="#2e7d32"',
    "fight-lose": 'style=dashed, color="#c62828"',
    "escape": 'style=dashed, color="#6d4c41"',
    "limit": 'style=dashed, color="#6d4c41"',
    "hidden": "style=dotted",
}


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _dot_node(node: MapNode) -> str:
    attributes = [f'label="{_dot_text(chr(10).join(node_title(node)))}"'.replace("\n", "\\n")]
    kind = main_kind(node)
    styles = ["filled"] if kind else []
    attributes.append(f'fillcolor="{FILL[kind]}"' if kind else 'fillcolor="white"')
    if "victory" in node.kinds or "death" in node.kinds:
        attributes.append("shape=doubleoctagon" if kind == "victory" else "shape=octagon")
    elif "fight" in node.kinds:
        attributes.append("shape=box3d")
    elif "test" in node.kinds:
        attributes.append("shape=hexagon")
    if "hidden" in node.kinds:
        styles.append("dashed")
    if "start" in node.kinds:
        attributes.append("penwidth=3")
    if node.findings:
        styles.append("bold")
        attributes.append(f'color="{FINDING_COLOUR}"')
    if styles:
        attributes.append(f'style="{",".join(styles)}"')
    tooltip = f"{node.file}:{node.line}" + (f" — {node.excerpt}" if node.excerpt else "")
    attributes.append(f'tooltip="{_dot_text(tooltip)}"')
    return f"p{node.number} [{', '.join(attributes)}];"


def _dot_edge(edge: MapEdge) -> str:
    attributes = [f'label="{_dot_text(edge.label)}"'] if edge.label else []
    if edge.kind in EDGE_DOT:
        attributes.append(EDGE_DOT[edge.kind])
    suffix = f" [{', '.join(attributes)}]" if attributes else ""
    return f"p{edge.source} -> p{edge.target}{suffix};"


def to_dot(book_map: BookMap) -> str:
    """The map as a Graphviz digraph, one ``cluster`` per file."""
    out = [
        "digraph book {",
        f'  label="{_dot_text(book_map.title)}";',
        "  labelloc=t;",
        '  fontname="Helvetica";',
        "  rankdir=TB;",
        '  node [shape=box, fontname="Helvetica", fontsize=11];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for index, file in enumerate(book_map.files):
        out.append(f"  subgraph cluster_{index} {{")
        out.append(f'    label="{_dot_text(file)}";')
        out.append('    style=rounded; color="#9e9e9e";')
        out += [f"    {_dot_node(n)}" for n in book_map.nodes.values() if n.file == file]
        out.append("  }")
    for target in _missing(book_map):
        out.append(
            f'  p{target} [label="§ {target}\\n?", style="dashed,bold", color="{FINDING_COLOUR}"];'
        )
    out += [f"  {_dot_edge(edge)}" for edge in _drawn(book_map)]
    out.append("}")
    return "\n".join(out) + "\n"


def _drawn(book_map: BookMap) -> list[MapEdge]:
    """The edges that end at a paragraph, drawn or missing (None targets are left out)."""
    return [edge for edge in book_map.edges if edge.target is not None]


def _missing(book_map: BookMap) -> list[int]:
    """Destinations that name no paragraph of the book (drawn as dashed boxes)."""
    return sorted({e.target for e in _drawn(book_map) if e.target not in book_map.nodes})


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;")


def to_mermaid(book_map: BookMap) -> str:
    """The map as a Mermaid flowchart, one ``subgraph`` per file."""
    out = ["flowchart TD"]
    for kind, fill in FILL.items():
        out.append(f"  classDef {kind} fill:{fill}")
    out.append(f"  classDef finding stroke:{FINDING_COLOUR},stroke-width:3px")
    out.append("  classDef start stroke-width:4px")
    for index, file in enumerate(book_map.files):
        out.append(f'  subgraph file{index}["{_mermaid_text(file)}"]')
        for node in book_map.nodes.values():
            if node.file == file:
                title = "<br/>".join(_mermaid_text(line) for line in node_title(node))
                out.append(f'    p{node.number}["{title}"]')
        out.append("  end")
    for target in _missing(book_map):
        out.append(f'  p{target}["§ {target} ?"]:::finding')
    for edge in _drawn(book_map):
        arrow = "-.->" if edge.kind in ("fight-lose", "escape", "limit", "hidden") else "-->"
        label = f'|"{_mermaid_text(edge.label)}"|' if edge.label else ""
        out.append(f"  p{edge.source} {arrow}{label} p{edge.target}")
    for node in book_map.nodes.values():
        classes = [kind for kind in (main_kind(node),) if kind]
        classes += ["start"] if "start" in node.kinds else []
        classes += ["finding"] if node.findings else []
        if classes:
            out.append(f"  class p{node.number} {','.join(classes)}")
    return "\n".join(out) + "\n"


def to_json(book_map: BookMap) -> str:
    """The map as one JSON object (nodes, edges, files), stable for tools."""
    data = {
        "title": book_map.title,
        "start": book_map.start,
        "files": book_map.files,
        "nodes": [
            {
                "number": node.number,
                "label": node.label,
                "file": node.file,
                "line": node.line,
                "kinds": list(node.kinds),
                "findings": [
                    {"code": f.code, "mark": f.mark, "words": f.words, "message": f.message}
                    for f in node.findings
                ],
                "excerpt": node.excerpt,
            }
            for node in book_map.nodes.values()
        ],
        "edges": [
            {
                "source": edge.source,
                "target": edge.target,
                "kind": edge.kind,
                "label": edge.label,
                "line": edge.line,
            }
            for edge in book_map.edges
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
