"""The page model the shuffle spreads linked paragraphs with: where the first section is
printed and how many characters of sections a page holds.

Estimated from the text by default; when Typst is installed, measured on the book as Typst
sets it before the shuffle (the front matter does not move, and a book's density of text per
page barely changes when its sections are reordered). Either way the pages of the shuffled
book are an estimate until it is set again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dedale.export.document import Document, Heading
from dedale.export.shuffle import CHARS_PER_PAGE, SECTION_OVERHEAD

FRONT_CHARS_PER_PAGE = 7000
"""Characters of rules on a one-column page (the front matter), estimated."""


@dataclass(frozen=True, slots=True)
class PageModel:
    first_page: int
    per_page: int
    measured: bool


def estimated_model(document: Document) -> PageModel:
    """The title page, the rules at about 7,000 characters a page, the Adventure Sheet."""
    front = sum(
        len(block.text) if isinstance(block, Heading) else block_size(block)
        for block in document.front
    )
    rules = -(-front // FRONT_CHARS_PER_PAGE) if document.front else 0
    first = 2 + rules + (1 if document.sheet is not None else 0)
    return PageModel(first, CHARS_PER_PAGE, False)


def measured_model(document: Document, lengths: Mapping[int, int]) -> PageModel:
    """The first section's page and the text per page of the book as Typst sets it (the
    estimate when Typst is missing or the book is too short to measure)."""
    estimate = estimated_model(document)
    try:
        from dedale.export.pdf import section_pages

        pages = section_pages(document)
    except Exception:  # noqa: BLE001 - no Typst (or it refused): the estimate stands
        return estimate
    if not document.sections or not pages:
        return estimate
    first = pages.get(document.sections[0].number, estimate.first_page)
    # a section at ``offset`` characters starts on page first + offset / per_page, within a
    # page: fit the line through the middle of each section's page (least squares)
    xy = xx = 0.0
    offset = 0
    for section in document.sections:
        page = pages.get(section.number)
        if page is not None and offset:
            xy += offset * (page - first + 0.5)
            xx += offset * offset
        offset += lengths.get(section.number, 0) + SECTION_OVERHEAD
    if xy <= 0 or pages.get(document.sections[-1].number, first) - first < 2:
        return PageModel(first, estimate.per_page, True)
    return PageModel(first, max(1000, round(xx / xy)), True)


def block_size(block) -> int:
    """A block's printed length in characters (an enemy box: as a few lines)."""
    from dedale.export.document import Choices, EnemyBox

    if isinstance(block, Choices):
        return sum(block_size(choice) for choice in block.items)
    if isinstance(block, EnemyBox):
        return 90 * max(1, len(block.enemies))
    pieces = getattr(block, "inlines", ())
    return sum(len(p) if isinstance(p, str) else len(getattr(p, "text", "123")) for p in pieces)


def section_lengths(document: Document) -> dict[int, int]:
    """Each section's printed length in characters."""
    return {s.number: sum(map(block_size, s.blocks)) for s in document.sections}
