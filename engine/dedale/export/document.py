"""The printed book as data, between the builder (Book -> Document) and the renderers.

Every text is already in the book's language and typography; a renderer only lays it out.
A paragraph number the reader may turn to is a :class:`Ref`, so that renumbering
(:meth:`Document.renumbered`) and links (EPUB, HTML) need no parsing of sentences.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Ref:
    """A paragraph number the reader turns to ("rendez-vous au **12**")."""

    number: int


@dataclass(frozen=True, slots=True)
class Styled:
    """A run of text in bold and/or italics."""

    text: str
    bold: bool = False
    italic: bool = False


Inline = str | Styled | Ref
"""A piece of a line: plain text, styled text, or a paragraph reference."""


@dataclass(frozen=True, slots=True)
class Prose:
    """A paragraph of the author's prose (one block of text)."""

    inlines: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule line written out as the printed book's sentence ("Tentez votre Chance : …")."""

    inlines: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice: ``inlines`` is its whole printed sentence, the number included ("Ouvrir
    la porte : rendez-vous au 12"), so a renderer prints it as it is; ``target`` is the
    paragraph it leads to, for links (None: a destination computed by the reader)."""

    inlines: tuple[Inline, ...]
    target: Ref | None = None


@dataclass(frozen=True, slots=True)
class Choices:
    """The choices that end a paragraph, in the book's order."""

    items: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class Enemy:
    """One enemy of an enemy box: its name and its stats in the book's words
    (``(("HABILETÉ", "7"), ("ENDURANCE", "8"))``)."""

    name: str
    stats: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class EnemyBox:
    """The boxed line-up of a fight; ``note``: how they are fought ("un par un"...)."""

    enemies: tuple[Enemy, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class Ending:
    """The end of the book on this paragraph (``kind``: victory or death), in words."""

    kind: str
    inlines: tuple[Inline, ...]


Block = Prose | Rule | Choices | EnemyBox | Ending


@dataclass(frozen=True, slots=True)
class Section:
    """A numbered paragraph of the book."""

    number: int
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of the front matter (the rules' chapters)."""

    text: str


FrontBlock = Heading | Prose | Rule


@dataclass(frozen=True, slots=True)
class SheetBox:
    """A box of the Adventure Sheet: a label and how many lines to write in
    (``initial``: a second box for the initial value, as the printed sheets have)."""

    label: str
    lines: int = 1
    initial: bool = False


@dataclass(frozen=True, slots=True)
class AdventureSheet:
    """The printable Feuille d'Aventure: stats, counters and boxes for equipment, gold,
    provisions, codewords..., and ``encounters`` empty enemy encounter boxes."""

    title: str
    boxes: tuple[SheetBox, ...]
    encounter_label: str
    encounter_stats: tuple[str, ...]
    encounters: int = 12


@dataclass(frozen=True, slots=True)
class Document:
    """A whole printed book. ``language``: "fr" or "en" (the book's)."""

    title: str
    author: str
    language: str
    front: tuple[FrontBlock, ...]
    sections: tuple[Section, ...]
    sheet: AdventureSheet | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    """Words a renderer needs in the book's language ("Règles", "Feuille d'Aventure"...)."""

    def renumbered(self, mapping: Mapping[int, int]) -> Document:
        """The same book with every section number and reference mapped (numbers absent
        from ``mapping`` are kept), sections sorted by their new numbers."""

        def inline(piece: Inline) -> Inline:
            if isinstance(piece, Ref):
                return Ref(mapping.get(piece.number, piece.number))
            return piece

        def block(item):
            if isinstance(item, Choices):
                return Choices(tuple(choice_of(choice) for choice in item.items))
            if isinstance(item, (Prose, Rule, Ending)):
                return dataclasses.replace(item, inlines=tuple(map(inline, item.inlines)))
            return item

        def choice_of(choice: Choice) -> Choice:
            target = inline(choice.target) if choice.target is not None else None
            return Choice(tuple(map(inline, choice.inlines)), target)  # type: ignore[arg-type]

        sections = tuple(
            Section(mapping.get(s.number, s.number), tuple(map(block, s.blocks)))
            for s in self.sections
        )
        front = tuple(block(item) for item in self.front)
        return dataclasses.replace(
            self, sections=tuple(sorted(sections, key=lambda s: s.number)), front=front
        )
