"""The XHTML bodies of the EPUB: every text escaped, every reference a link to its section.

A section is a file of its own (``s12.xhtml``, its number the anchor ``#s12``); a reference
to a number the book has no section for is set in bold without a link, so every link of the
EPUB resolves.
"""

from __future__ import annotations

import re
from collections.abc import Container
from html import escape

from dedale.export.document import (
    AdventureSheet,
    Block,
    Choices,
    Ending,
    EnemyBox,
    Heading,
    Inline,
    Prose,
    Ref,
    Rule,
    Section,
    Styled,
)


def section_file(number: int) -> str:
    """The file name of section ``number`` inside the EPUB."""
    return f"s{int(number)}.xhtml"


_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` without the characters XML cannot hold (control characters, lone
    surrogates): a book may contain them, an EPUB may not."""
    return _NOT_XML.sub("", text)


def _text(text: str) -> str:
    return escape(" ".join(xml_safe(text).split()), quote=True)


def inline(piece: Inline, known: Container[int]) -> str:
    if isinstance(piece, Ref):
        number = int(piece.number)
        if number in known:
            return f'<a class="ref" href="{section_file(number)}#s{number}"><b>{number}</b></a>'
        return f"<b>{number}</b>"
    if isinstance(piece, Styled):
        body = _text(piece.text)
        if piece.bold:
            body = f"<b>{body}</b>"
        if piece.italic:
            body = f"<i>{body}</i>"
        return body
    return _text(piece)


def inlines(pieces: tuple[Inline, ...], known: Container[int]) -> str:
    return "".join(inline(piece, known) for piece in pieces)


def block(item: Block | Heading, known: Container[int]) -> str:
    """One block as XHTML."""
    if isinstance(item, Heading):
        return f"<h2>{_text(item.text)}</h2>\n"
    if isinstance(item, Prose):
        return f"<p>{inlines(item.inlines, known)}</p>\n"
    if isinstance(item, Rule):
        return f'<p class="rule">{inlines(item.inlines, known)}</p>\n'
    if isinstance(item, Choices):
        rows = []
        for choice in item.items:
            pieces = choice.inlines
            if choice.target is not None and choice.target not in pieces:
                pieces = (*pieces, " ", choice.target)
            rows.append(f"<li>{inlines(pieces, known)}</li>")
        return '<ul class="choices">' + "".join(rows) + "</ul>\n"
    if isinstance(item, EnemyBox):
        rows = "".join(
            f'<tr><td class="enemy">{_text(enemy.name)}</td>'
            + "".join(f"<td>{_text(name)} {_text(value)}</td>" for name, value in enemy.stats)
            + "</tr>"
            for enemy in item.enemies
        )
        note = f'<p class="note">{_text(item.note)}</p>' if item.note else ""
        return f'<div class="enemies"><table>{rows}</table>{note}</div>\n'
    if isinstance(item, Ending):
        return f'<p class="ending {_text(item.kind)}">{inlines(item.inlines, known)}</p>\n'
    return ""


def section_body(section: Section, known: Container[int]) -> str:
    number = int(section.number)
    blocks = "".join(block(item, known) for item in section.blocks)
    return f'<section id="s{number}"><h3 class="number">{number}</h3>\n{blocks}</section>'


def sheet_body(sheet: AdventureSheet) -> str:
    """The Adventure Sheet as tables to fill in (on screen or printed from the reader)."""
    rows = "".join(
        f"<tr><th>{_text(box.label)}</th><td>"
        + "<br/>" * max(0, min(int(box.lines), 40) - 1)
        + "&#160;</td></tr>"
        for box in sheet.boxes
    )
    stats = "".join(f"<td>{_text(stat)}</td>" for stat in sheet.encounter_stats)
    count = max(0, min(int(sheet.encounters), 60))
    encounters = "".join(
        f'<table class="encounter"><tr><th>{_text(sheet.encounter_label)}</th></tr>'
        f"<tr>{stats}</tr></table>"
        for _ in range(count)
    )
    return (
        f'<h2>{_text(sheet.title)}</h2><table class="sheet">{rows}</table>'
        f"<h3>{_text(sheet.encounter_label)}</h3>{encounters}"
    )


STYLE = """\
body { font-family: serif; }
h3.number { text-align: center; font-weight: bold; margin: 1.2em 0 0.4em; }
p { text-align: justify; margin: 0.3em 0; }
ul.choices { list-style: none; padding-left: 1em; }
div.enemies { border: 1px solid black; padding: 0.3em 0.6em; margin: 0.6em 0; }
div.enemies td { padding-right: 1em; }
td.enemy { font-variant: small-caps; }
p.ending { text-align: center; font-weight: bold; }
table.sheet, table.encounter { border-collapse: collapse; width: 100%; margin: 0.4em 0; }
table.sheet th, table.sheet td, table.encounter th, table.encounter td {
  border: 1px solid black; padding: 0.3em; text-align: left; vertical-align: top; }
"""
