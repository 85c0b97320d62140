"""A :class:`~dedale.export.document.Document` as one Typst source, in the printed series'
page style: a title page, the rules, the Adventure Sheet on full pages, then the numbered
sections in two columns under a running header giving the numbers on the page, each number
centred in bold, enemies in ruled boxes, every reference a link to its section.

Author text only ever enters the source through :mod:`dedale.export.typst_text` (string
literals), so nothing a book says is read as Typst markup or code.
"""

from __future__ import annotations

from collections.abc import Container

from dedale.export.document import (
    Block,
    Choices,
    Document,
    Ending,
    EnemyBox,
    Heading,
    Prose,
    Rule,
    Section,
)
from dedale.export.typst_sheet import sheet_pages
from dedale.export.typst_text import inlines, string
from dedale.i18n import Message, tr, translate

FONT = "Libertinus Serif"
"""Typst's own bundled serif (SIL Open Font License): no system font is used."""

PREAMBLE = """\
#let dd-ref(n) = link(label("dd-" + str(n)), strong(str(n)))
#let dd-section(n, body) = [
  #block(above: 1.4em, below: 0.8em, width: 100%, breakable: false)[
    #align(center, text(size: 13pt, weight: "bold")[#str(n)])
  ] #label("dd-" + str(n))
  #metadata(n) <dd-number>
  #context [#metadata((n, here().page())) <dd-page>]
  #body
]
#let dd-enemies(rows, note) = block(
  width: 100%, inset: (x: 6pt, y: 5pt), stroke: 0.7pt, breakable: false, above: 0.8em,
  below: 0.8em,
)[
  #set par(justify: false)
  #for (name, stats) in rows [#smallcaps(name) #h(1fr) #box(stats) #linebreak()]
  #if note != "" [#align(center, emph(note))]
]
#let dd-choice(body) = block(above: 0.5em, below: 0.5em, inset: (left: 0.8em), body)
#let dd-rule(body) = block(above: 0.6em, below: 0.6em, body)
#let dd-ending(body) = align(center, block(above: 1em, text(weight: "bold", body)))
#let dd-header(title) = context {
  let page = here().page()
  let shown = query(<dd-number>).filter(m => m.location().page() == page)
  if shown.len() > 0 {
    let first = shown.first().value
    let last = shown.last().value
    set text(size: 8.5pt)
    grid(
      columns: (1fr, 1fr),
      align(left, smallcaps(title)),
      align(right, strong(if first == last { str(first) } else { str(first) + "–" + str(last) })),
    )
    v(-6pt)
    line(length: 100%, stroke: 0.4pt)
  }
}
"""


def _label(document: Document, key: str, english: Message) -> str:
    """A word the layout needs, from the Document's labels, else from the catalogue."""
    return document.labels.get(key) or translate(english, document.language)


def block(item: Block | Heading, known: Container[int] = frozenset()) -> str:
    """One block of a section or of the front matter; ``known``: the section numbers (a
    reference to another number is printed without a link)."""
    if isinstance(item, Heading):
        return f"#heading(level: 1, {string(item.text)})\n"
    if isinstance(item, Prose):
        return inlines(item.inlines, known) + "\n\n"
    if isinstance(item, Rule):
        return f"#dd-rule[{inlines(item.inlines, known)}]\n"
    if isinstance(item, Choices):
        return "".join(f"#dd-choice[{inlines(choice_line(c), known)}]\n" for c in item.items)
    if isinstance(item, EnemyBox):
        rows = []
        for enemy in item.enemies:
            stats = "  ".join(f"{name} {value}" for name, value in enemy.stats)
            rows.append(f"({string(enemy.name)}, {string(stats)})")
        return f"#dd-enemies(({', '.join(rows)},), {string(item.note)})\n"
    if isinstance(item, Ending):
        return f"#dd-ending[{inlines(item.inlines, known)}]\n"
    return ""


def choice_line(choice):
    """A choice's pieces, with its destination appended when its sentence does not name it
    already (the builder writes the whole "rendez-vous au 12" sentence as a rule)."""
    if choice.target is None or choice.target in choice.inlines:
        return choice.inlines
    return (*choice.inlines, " ", choice.target)


def section(item: Section, known: Container[int]) -> str:
    """A numbered section: its centred number (a link target), then its blocks."""
    body = "".join(block(piece, known) for piece in item.blocks)
    return f"#dd-section({int(item.number)})[\n{body}]\n"


def title_page(document: Document) -> str:
    return (
        "#page(columns: 1, header: none, footer: none)[\n"
        "#v(1fr)\n"
        f'#align(center, text(size: 26pt, weight: "bold", {string(document.title)}))\n'
        "#v(1.5em)\n"
        f"#align(center, text(size: 14pt, {string(document.author)}))\n"
        "#v(2fr)\n]\n"
    )


def render_typst(document: Document) -> str:
    """The whole book as a Typst source (compile it with :func:`dedale.export.pdf.render_pdf`)."""
    lang = document.language if document.language in ("fr", "en") else "en"
    title = string(document.title)
    parts = [
        PREAMBLE,
        f"#set document(title: {title}, author: {string(document.author)}, date: none)\n",
        f'#set text(font: "{FONT}", size: 10pt, lang: "{lang}")\n',
        "#set par(justify: true, leading: 0.55em, spacing: 0.75em)\n",
        "#set heading(numbering: none)\n",
        "#show heading: it => align(center, block(above: 1.2em, below: 0.8em, "
        'text(size: 13pt, weight: "bold", it.body)))\n',
        '#set page(paper: "a4", margin: (x: 1.7cm, top: 2.2cm, bottom: 2cm), columns: 2,\n'
        f'  header: dd-header({title}), numbering: "1", number-align: center)\n',
        "#set columns(gutter: 0.8cm)\n",
        title_page(document),
    ]
    known = frozenset(int(item.number) for item in document.sections)
    if document.front:
        parts.append("#page(columns: 1)[\n")
        parts.extend(block(item, known) for item in document.front)
        parts.append("]\n")
    if document.sheet is not None:
        heading = _label(document, "sheet", tr("Adventure Sheet"))
        initial = _label(document, "initial", tr("Initial"))
        parts.append(sheet_pages(document.sheet, heading, initial))
    parts.extend(section(item, known) for item in document.sections)
    return "".join(parts)
