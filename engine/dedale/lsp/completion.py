"""Completion: keywords after ``>`` and in a choice's ``(...)``, paragraphs after ``->``,
the names the book already uses elsewhere on a rule line."""

from __future__ import annotations

import re

from lsprotocol import types

from dedale.i18n import tr, translate
from dedale.language.keywords import fold
from dedale.lsp.index import BookIndex
from dedale.lsp.vocabulary import CHOICE_OPTIONS, DIRECTIVES, in_order

_AFTER_ARROW = re.compile(r"^\s*(?:->|→)\s*[\w-]*$")
_IN_OPTIONS = re.compile(r"^\s*(?:->|→)\s*\S+\s*\((?:[^)]*[,;])?\s*[\w'’ -]*$")
_AFTER_GT = re.compile(r"^\s*>\s*[\w'’-]*$")
_ON_RULE = re.compile(r"^\s*(?:>|->|→)")
MAX_ITEMS = 2_000

_KINDS = {
    "item": (tr("item"), types.CompletionItemKind.Value),
    "codeword": (tr("codeword"), types.CompletionItemKind.Constant),
    "stat": (tr("stat"), types.CompletionItemKind.Variable),
    "enemy": (tr("enemy"), types.CompletionItemKind.Class),
}


def complete(
    index: BookIndex, before: str, lang: str, ruleset: object = None
) -> list[types.CompletionItem]:
    """The completion items for a cursor with ``before`` (its line up to the cursor)."""
    if _AFTER_ARROW.match(before):
        return _paragraphs(index, lang)
    if _IN_OPTIONS.match(before):
        return _keywords(CHOICE_OPTIONS, lang) + _names(index, lang, ruleset)
    if _AFTER_GT.match(before) or _keyword_prefix(before):
        return _keywords(DIRECTIVES, lang)
    if _ON_RULE.match(before):
        return _names(index, lang, ruleset)
    return []


def _keyword_prefix(before: str) -> bool:
    """``> test your`` (a keyword of several words being typed): still keywords."""
    written = fold(before.lstrip()[1:].lstrip()).casefold() if before.lstrip()[:1] == ">" else ""
    return " " in written and any(
        fold(word).casefold().startswith(written) for pair in DIRECTIVES for word in pair
    )


def _keywords(pairs: tuple[tuple[str, str], ...], lang: str) -> list[types.CompletionItem]:
    return [
        types.CompletionItem(
            label=word,
            kind=types.CompletionItemKind.Keyword,
            detail=translate(tr("keyword ({language})", language=language), lang),
            sort_text=f"{position:04d}",
        )
        for position, (word, language) in enumerate(in_order(pairs, lang))
    ]


def _paragraphs(index: BookIndex, lang: str) -> list[types.CompletionItem]:
    items = []
    for heading in sorted(index.headings(), key=lambda h: h.number)[:MAX_ITEMS]:
        first = heading.first_lines[0] if heading.first_lines else ""
        detail = f"§ {heading.number}" + (f" {heading.label}" if heading.label else "")
        items.append(
            types.CompletionItem(
                label=str(heading.number),
                kind=types.CompletionItemKind.Reference,
                detail=detail,
                documentation=first or None,
                sort_text=f"0{heading.number:08d}",
            )
        )
        if heading.label:
            items.append(
                types.CompletionItem(
                    label=heading.label,
                    kind=types.CompletionItemKind.Reference,
                    detail=detail,
                    documentation=first or None,
                    sort_text=f"1{heading.label}",
                )
            )
    return items


def _names(index: BookIndex, lang: str, ruleset: object) -> list[types.CompletionItem]:
    items = []
    for kind, (label, item_kind) in _KINDS.items():
        names = set(index.names(kind))
        if kind == "stat":
            names |= {
                name
                for stat in (*getattr(ruleset, "stats", ()), *getattr(ruleset, "counters", ()))
                for name in (stat.names.get(lang) or next(iter(stat.names.values()), ""),)
                if name
            }
        for name in sorted(names)[:MAX_ITEMS]:
            items.append(
                types.CompletionItem(label=name, kind=item_kind, detail=translate(label, lang))
            )
    return items
