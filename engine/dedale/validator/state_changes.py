"""Checks on the state changes of issue 13 §7: a penalty that lasts until an item is found
but no paragraph, shop or starting kit gives that item (or any weapon, for
``until you find a weapon``) is never lifted (W063); an item needed somewhere that the book
only ever offers as an optional pick-up (``you may take``) is pointed out (I064, info: the
reader who leaves it chose to)."""

from __future__ import annotations

from collections.abc import Iterator

from dedale import ast
from dedale.i18n import tr
from dedale.rules.ruleset import fold
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, walk
from dedale.validator.rules_checks import Uses, starting_items


def penalties_never_lifted(graph: Graph, book: object, uses: Uses) -> Iterator[Finding]:
    """W063: ``lose 2 SKILL until you find Sword`` where nothing gives a Sword."""
    given = set(uses.items_given) | starting_items(book)
    armed = _weapons_given(graph, book) or bool(_start_weapons(book))
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if not isinstance(statement, ast.Penalty):
                continue
            if statement.weapon:
                if armed:
                    continue
                what = tr("a weapon")
            elif fold(statement.item or "") in given:
                continue
            else:
                what = statement.item or ""
            yield finding(
                "W063",
                tr("this penalty lasts until the hero has {what}, which nothing gives", what=what),
                statement.span,
                paragraph=number,
                hint=tr(
                    "give the item somewhere (`> take …`, a shop, book.yaml's items), or lift "
                    "the penalty another way"
                ),
            )


def optional_items_needed(graph: Graph, book: object, uses: Uses) -> Iterator[Finding]:
    """I064: ``(if Iron Key)`` where every paragraph giving an Iron Key says "you may take"."""
    optional: dict[str, tuple[int, str]] = {}  # folded name -> first paragraph offering it
    firm = starting_items(book)
    for number, node in graph.nodes.items():
        body = node.paragraph.body
        offered = {id(s.take) for s in walk(body) if isinstance(s, ast.MayTake)}
        for statement in walk(body):
            if not isinstance(statement, ast.GainItem):
                continue
            name = fold(statement.item)
            if id(statement) in offered:
                optional.setdefault(name, (number, statement.item))
            else:
                firm.add(name)
    for name, (offered_at, _) in optional.items():
        if name in firm:
            continue
        for number, span, written in uses.items_needed.get(name, ()):
            yield finding(
                "I064",
                tr(
                    "item '{name}' is needed here, but the book only offers it as an optional "
                    "pick-up (paragraph {number}): a reader who left it cannot go this way",
                    name=written,
                    number=offered_at,
                ),
                span,
                paragraph=number,
            )


def _weapons_given(graph: Graph, book: object) -> bool:
    """Whether some paragraph (or shop) gives a weapon: ``(weapon)`` or a ruleset weapon."""
    ruleset = getattr(book, "ruleset", None)
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem) and _is_weapon(statement, ruleset):
                return True
    return False


def _start_weapons(book: object) -> list[str]:
    meta = getattr(book, "meta", None)
    ruleset = getattr(book, "ruleset", None)
    items = (meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)) or ()
    found = [
        item.item for item in items if isinstance(item, ast.GainItem) and _is_weapon(item, ruleset)
    ]
    for klass in (getattr(ruleset, "classes", None) or {}).values():
        found += [name for name in klass.kit if _ruleset_weapon(ruleset, name)]
    return found


def _is_weapon(statement: ast.GainItem, ruleset) -> bool:
    return statement.weapon or _ruleset_weapon(ruleset, statement.item)


def _ruleset_weapon(ruleset, name: str) -> bool:
    definition = ruleset.item(name) if ruleset is not None and hasattr(ruleset, "item") else None
    return definition is not None and definition.kind == "weapon"
