"""``render_html(document)``: the printed book as one self-contained HTML file.

Inline CSS (``html.css`` beside this module), no script and no network: paragraph numbers
in bold with anchors ``#p12``, every :class:`~dedale.export.document.Ref` a link to its
anchor, enemy boxes as ruled tables, the rules at the front and the Adventure Sheet on its
own printed page (``@media print``: the paragraphs in two columns).
"""

from __future__ import annotations

from html import escape
from importlib import resources

from dedale.export import document as doc


def stylesheet() -> str:
    """The CSS shipped beside this module."""
    return resources.files("dedale.export").joinpath("html.css").read_text(encoding="utf-8")


def render_html(document: doc.Document) -> str:
    """The whole book as an HTML5 page in the book's language."""
    labels = document.labels
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_attr(document.language)}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_text(document.title)}</title>",
        f"<style>\n{stylesheet()}</style>",
        "</head>",
        "<body>",
        '<header class="book">',
        f"<h1>{_text(document.title)}</h1>",
    ]
    if document.author:
        parts.append(f'<p class="author">{_text(document.author)}</p>')
    parts.append("</header>")
    parts.extend(_contents(document))
    if document.front:
        parts.append('<section class="rules" id="rules">')
        parts.extend(_front(document.front, labels.get("rules", "")))
        parts.append("</section>")
    if document.sheet is not None:
        parts.extend(_sheet(document.sheet, labels.get("initial", "")))
    parts.append('<section class="adventure" id="adventure">')
    if labels.get("sections"):
        parts.append(f"<h2>{_text(labels['sections'])}</h2>")
    parts.append('<div class="paragraphs">')
    for section in document.sections:
        parts.extend(_section(section))
    parts.extend(["</div>", "</section>", "</body>", "</html>", ""])
    return "\n".join(parts)


def _text(value: str) -> str:
    return escape(value, quote=False)


def _attr(value: str) -> str:
    return escape(value, quote=True)


def inlines(pieces: tuple[doc.Inline, ...]) -> str:
    """Inline pieces as HTML: text escaped, styles as <strong>/<em>, refs as links."""
    out = []
    for piece in pieces:
        if isinstance(piece, doc.Ref):
            out.append(f'<a class="ref" href="#p{piece.number}">{piece.number}</a>')
        elif isinstance(piece, doc.Styled):
            html = _text(piece.text)
            if piece.italic:
                html = f"<em>{html}</em>"
            if piece.bold:
                html = f"<strong>{html}</strong>"
            out.append(html)
        else:
            out.append(_text(piece))
    return "".join(out)


def _contents(document: doc.Document) -> list[str]:
    labels = document.labels
    entries = []
    if document.front:
        entries.append(("rules", labels.get("rules", "")))
    if document.sheet is not None:
        entries.append(("sheet", document.sheet.title))
    entries.append(("adventure", labels.get("sections", "")))
    items = [f'<li><a href="#{key}">{_text(title)}</a></li>' for key, title in entries if title]
    if not items:
        return []
    heading = labels.get("contents", "")
    head = f"<h2>{_text(heading)}</h2>" if heading else ""
    return ['<nav class="contents">', head, "<ol>", *items, "</ol>", "</nav>"]


def _front(blocks: tuple[doc.FrontBlock, ...], title: str) -> list[str]:
    out = []
    first = True
    for block in blocks:
        if isinstance(block, doc.Heading):
            tag = "h2" if first else "h3"
            out.append(f"<{tag}>{_text(block.text)}</{tag}>")
        elif isinstance(block, doc.Rule):
            out.append(f'<p class="rule">{inlines(block.inlines)}</p>')
        else:
            out.append(f"<p>{inlines(block.inlines)}</p>")
        first = False
    if out and not isinstance(blocks[0], doc.Heading) and title:
        out.insert(0, f"<h2>{_text(title)}</h2>")
    return out


def _section(section: doc.Section) -> list[str]:
    number = section.number
    out = [f'<section class="paragraph" id="p{number}">', f"<h3><strong>{number}</strong></h3>"]
    for block in section.blocks:
        out.extend(_block(block))
    out.append("</section>")
    return out


def _block(block: doc.Block) -> list[str]:
    if isinstance(block, doc.Prose):
        return [f"<p>{inlines(block.inlines)}</p>"]
    if isinstance(block, doc.Rule):
        return [f'<p class="rule">{inlines(block.inlines)}</p>']
    if isinstance(block, doc.Choices):
        items = [f"<li>{inlines(choice.inlines)}</li>" for choice in block.items]
        return ['<ul class="choices">', *items, "</ul>"]
    if isinstance(block, doc.EnemyBox):
        return _enemies(block)
    return [f'<p class="ending {_attr(block.kind)}">{inlines(block.inlines)}</p>']


def _enemies(box: doc.EnemyBox) -> list[str]:
    rows = []
    for enemy in box.enemies:
        cells = "".join(
            f"<td>{_text(name)}&nbsp;{_text(value)}</td>" for name, value in enemy.stats
        )
        rows.append(f'<tr><td class="name">{_text(enemy.name)}</td>{cells}</tr>')
    out = ['<table class="enemies">', *rows, "</table>"]
    if box.note:
        out.append(f'<p class="enemy-note">{_text(box.note)}</p>')
    return out


def _sheet(sheet: doc.AdventureSheet, initial_label: str) -> list[str]:
    out = ['<section class="sheet" id="sheet">', f"<h2>{_text(sheet.title)}</h2>"]
    out.append('<div class="boxes">')
    for box in sheet.boxes:
        wide = " wide" if box.lines > 1 else ""
        lines = "".join('<div class="line"></div>' for _ in range(max(1, box.lines)))
        initial = (
            f'<div class="initial">{_text(initial_label) or "&nbsp;"}</div>' if box.initial else ""
        )
        out.append(
            f'<div class="box{wide}"><div class="label">{_text(box.label)}</div>'
            f"{lines}{initial}</div>"
        )
    out.append("</div>")
    out.append('<div class="encounters">')
    stats = "".join(f"<div>{_text(name)}&nbsp;=</div>" for name in sheet.encounter_stats)
    for _ in range(max(0, sheet.encounters)):
        out.append(
            f'<div class="encounter"><div class="label">{_text(sheet.encounter_label)}</div>'
            f"{stats}</div>"
        )
    out.append("</div>")
    out.append("</section>")
    return out
