"""``build_document(book)``: a loaded Book as its printed text (a Document).

Each paragraph becomes a Section: its prose (:mod:`dedale.export.build_prose`), each rule
line as the printed book's sentence (:mod:`dedale.export.sentences`), its choices, enemy
boxes and ending; the rules of the ruleset are written at the front
(:mod:`dedale.export.rules_text`) and the Adventure Sheet drawn from the ruleset and the book
(:mod:`dedale.export.sheet`).
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.export import document as doc
from dedale.export.build_prose import ProseWriter
from dedale.export.sentences import Clauses
from dedale.export.sentences_base import sentence, to_inlines
from dedale.export.sentences_fights import enemy_box, fight_clauses
from dedale.export.sentences_more import choice_clause, hidden_clause
from dedale.i18n import tr


def build_document(book: Any) -> doc.Document:
    """The printed book: front matter (rules), numbered sections and the Adventure Sheet."""
    from dedale.export.rules_text import rules_front
    from dedale.export.sheet import adventure_sheet

    writer = SectionWriter(book)
    sections = tuple(writer.section(book.paragraphs[n]) for n in sorted(book.paragraphs))
    return doc.Document(
        title=book.meta.title,
        author=book.meta.author,
        language=writer.lang,
        front=rules_front(book),
        sections=sections,
        sheet=adventure_sheet(book),
        labels=labels(writer),
    )


def labels(writer: Clauses) -> dict[str, str]:
    """The words a renderer needs in the book's language."""
    say = writer.say
    return {
        "rules": say(tr("How to play")),
        "sheet": say(tr("Adventure Sheet")),
        "sections": say(tr("The adventure")),
        "contents": say(tr("Contents")),
        "death": say(tr("The end")),
        "victory": say(tr("Victory")),
        "enemy": say(tr("Enemy")),
        "initial": say(tr("Initial")),
    }


class SectionWriter(Clauses):
    """Sections of one book: prose, rule sentences, choices, enemy boxes, endings."""

    def __init__(self, book: Any) -> None:
        super().__init__(book)
        self.prose_writer = ProseWriter(book)

    def section(self, paragraph: ast.Paragraph) -> doc.Section:
        """One numbered paragraph as printed."""
        self.here = paragraph.number
        blocks: list[doc.Block] = []
        choices: list[doc.Choice] = []
        for stmt in paragraph.body:
            if isinstance(stmt, ast.Choice) or (
                isinstance(stmt, ast.HiddenNumber) and stmt.offered
            ):
                choices.append(self.choice(stmt))
                continue
            if choices:
                blocks.append(doc.Choices(tuple(choices)))
                choices = []
            blocks.extend(self.blocks(stmt))
        if choices:
            blocks.append(doc.Choices(tuple(choices)))
        return doc.Section(paragraph.number, tuple(blocks))

    def choice(self, stmt: ast.Choice | ast.HiddenNumber) -> doc.Choice:
        """A choice as its whole printed sentence; ``target``: where it leads, when fixed."""
        if isinstance(stmt, ast.HiddenNumber):
            return doc.Choice(to_inlines(sentence(hidden_clause(self, stmt))), None)
        inlines = self.prose_writer.inlines(sentence(choice_clause(self, stmt)))  # *light* Markdown
        refs = [piece for piece in inlines if isinstance(piece, doc.Ref)]
        target = refs[-1] if refs and not isinstance(stmt.target, ast.ComputedRef) else None
        if isinstance(stmt.target, ast.ComputedRef):
            target = self.constant_ref(stmt.target)
        return doc.Choice(inlines, target)

    def constant_ref(self, dest: ast.ComputedRef) -> doc.Ref | None:
        number = self.constant(dest.expr)
        return doc.Ref(number) if number is not None and number in self.book.paragraphs else None

    def blocks(self, stmt: ast.Statement) -> list[doc.Block]:
        """The printed blocks of one statement (most are one sentence)."""
        if isinstance(stmt, ast.Prose):
            return list(self.prose_writer.blocks(stmt.text))
        if isinstance(stmt, ast.Fight):
            box: list[doc.Block] = [enemy_box(self, stmt)]
            return box + [doc.Rule(to_inlines(sentence(c))) for c in fight_clauses(self, stmt)]
        if isinstance(stmt, ast.Ending):
            return [doc.Ending(stmt.kind, to_inlines(sentence(self.clause(stmt))))]
        text = self.clause(stmt)
        return [doc.Rule(to_inlines(sentence(text)))] if text else []
