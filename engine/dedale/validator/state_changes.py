"""Checks on the state changes of issue 13 §7: a penalty that lasts until an item is found
but no paragraph, shop or starting kit gives that item (or any weapon, for
``until you find a weapon``) is never lifted (W063); an item needed somewhere that the book
only ever offers as an optional pick-up (``you may take``) is pointed out (I064, info: the
reader who leaves it chose to); a rule that needs more counted items at once than the
inventory limit lets the hero carry can never be met (W065)."""

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


def needs_more_than_the_limit(graph: Graph, book: object) -> Iterator[Finding]:
    """W065: ``(if Rope and Lamp and Bell and Map)`` with ``inventory_limit: 3`` (items the
    limit does not count — by name, tag, ruleset id or kind — left out)."""
    ruleset = getattr(book, "ruleset", None)
    limit = getattr(ruleset, "inventory_limit", None)
    if not limit:
        return
    tags: dict[str, set[str]] = {}  # folded item -> the plain tags the book gives it
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem):
                found = tags.setdefault(fold(statement.item), set())
                found.update(fold(e.tag) for e in statement.effects if e.tag and e.stat is None)
    exempt = set(getattr(ruleset, "inventory_exempt", ()))
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            condition = getattr(statement, "condition", None)
            if not isinstance(statement, ast.Choice | ast.If) or condition is None:
                continue
            needed = {
                fold(name)
                for name in _conjoined_items(condition)
                if _counted(name, tags.get(fold(name), set()), exempt, ruleset)
            }
            if len(needed) > limit:
                yield finding(
                    "W065",
                    tr(
                        "this needs {count} items at once, but the hero may carry only {limit}",
                        count=len(needed),
                        limit=limit,
                    ),
                    statement.span,
                    paragraph=number,
                    hint=tr("raise inventory_limit, or exempt some of these items from it"),
                )


def _conjoined_items(condition: ast.Condition) -> list[str]:
    """The items a condition needs all together (the atoms of its top-level ``and``)."""
    if isinstance(condition, ast.HasItem):
        return [condition.item]
    if isinstance(condition, ast.And):
        return [name for part in condition.operands for name in _conjoined_items(part)]
    return []


def _counted(name: str, tags: set[str], exempt: set[str], ruleset) -> bool:
    if fold(name) in exempt or tags & exempt:
        return False
    found = ruleset.resolve(name) if hasattr(ruleset, "resolve") else None
    if found is not None and found[0] == "item":
        definition = ruleset.items[found[1]]
        return fold(found[1]) not in exempt and fold(definition.kind) not in exempt
    return True


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
