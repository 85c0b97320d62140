"""The printable Adventure Sheet (Feuille d'Aventure) in Typst: on full pages of its own,
one ruled box per stat, counter and list (with a small box for the initial value where the
printed sheets have one), then a grid of empty enemy encounter boxes."""

from __future__ import annotations

from dedale.export.document import AdventureSheet, SheetBox
from dedale.export.typst_text import string

LINE = "1.7em"
"""The height of one line to write in."""


def _box(item: SheetBox, initial_label: str) -> str:
    lines = max(1, min(int(item.lines), 40))
    height = f"{lines} * {LINE} + 1.6em"
    initial = ""
    if item.initial:
        initial = (
            "#place(top + right, dx: 5pt, dy: -5pt, box(stroke: 0.6pt, inset: 3pt, "
            f"width: 5.2em, height: 3.2em, align(top + left, text(size: 6.5pt, "
            f"{string(initial_label)}))))\n"
        )
    rules = ""
    if lines > 1:
        rules = "".join(
            f"#place(top + left, dy: 1.6em + {k} * {LINE}, line(length: 100%, "
            "stroke: (paint: luma(170), thickness: 0.4pt)))\n"
            for k in range(1, lines)
        )
    return (
        f"rect(width: 100%, height: {height}, stroke: 0.9pt, inset: 5pt)[\n"
        f'#text(size: 8pt, weight: "bold", {string(item.label)})\n{initial}{rules}]'
    )


def _encounter(label: str, stats: tuple[str, ...]) -> str:
    rows = "".join(
        f"#grid(columns: (auto, 1fr), column-gutter: 4pt, text(size: 7pt, {string(stat)}), "
        "box(width: 100%, height: 1.3em, stroke: 0.5pt))\n#v(2pt)\n"
        for stat in stats
    )
    return (
        "rect(width: 100%, stroke: 0.8pt, inset: 5pt)[\n"
        f'#text(size: 7.5pt, weight: "bold", {string(label)})\n#v(2pt)\n{rows}]'
    )


def sheet_pages(sheet: AdventureSheet, heading: str, initial_label: str = "") -> str:
    """The sheet as full pages (one column, no running header)."""
    singles = [b for b in sheet.boxes if b.lines <= 2]
    tall = [b for b in sheet.boxes if b.lines > 2]
    count = max(0, min(int(sheet.encounters), 60))
    parts = [
        "#page(columns: 1, header: none)[\n",
        f'#align(center, text(size: 16pt, weight: "bold", {string(sheet.title or heading)}))\n',
        "#v(0.6em)\n",
    ]
    if singles:
        cells = ", ".join(_box(b, initial_label) for b in singles)
        parts.append(f"#grid(columns: (1fr, 1fr, 1fr), gutter: 8pt, {cells})\n#v(6pt)\n")
    if tall:
        cells = ", ".join(_box(b, initial_label) for b in tall)
        parts.append(f"#grid(columns: (1fr, 1fr), gutter: 8pt, {cells})\n")
    if count:
        parts.append("#v(1.2em)\n")
        parts.append(
            f'#align(center, text(size: 13pt, weight: "bold", {string(sheet.encounter_label)}))\n'
        )
        cells = ", ".join(
            _encounter(sheet.encounter_label, sheet.encounter_stats) for _ in range(count)
        )
        parts.append(f"#grid(columns: (1fr, 1fr, 1fr), gutter: 8pt, {cells})\n")
    parts.append("]\n")
    return "".join(parts)
