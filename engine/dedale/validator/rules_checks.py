"""Rules-aware checks: classes the ruleset does not know, items and codewords needed but never
given (or given but never used), choices into a World already visited on every path, and
modifier tags no ability acts on."""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.i18n import tr
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, atoms, conditions, walk
from dedale.validator.test_forms import modifier_conditions

Site = tuple[int, Span, str]  # paragraph number, where, the name as written


@dataclass(slots=True)
class Uses:
    """Where each item and codeword (by folded name) is given, needed or otherwise used."""

    items_given: dict[str, list[Site]] = field(default_factory=dict)
    items_needed: dict[str, list[Site]] = field(default_factory=dict)
    items_used: set[str] = field(default_factory=set)  # lost, or with effects in fights
    codewords_set: dict[str, list[Site]] = field(default_factory=dict)
    codewords_tested: dict[str, list[Site]] = field(default_factory=dict)


def starting_items(book: object) -> set[str]:
    """Folded names of items the hero may start with (class kits, book.yaml ``items``)."""
    ruleset = getattr(book, "ruleset", None)
    names = {
        fold(item) for cls in (getattr(ruleset, "classes", None) or {}).values() for item in cls.kit
    }
    meta = getattr(book, "meta", None)
    items = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
    names.update(fold(str(getattr(item, "item", item))) for item in items or ())
    return names


def _add(table: dict[str, list[Site]], number: int, span: Span, name: str) -> None:
    table.setdefault(fold(name), []).append((number, span, name))


def collect_uses(graph: Graph) -> Uses:
    """Scan every paragraph for item and codeword operations."""
    uses = Uses()
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem):
                _add(uses.items_given, number, statement.span, statement.item)
                if statement.weapon or statement.effects:
                    uses.items_used.add(fold(statement.item))
            elif isinstance(statement, ast.LoseItem):
                uses.items_used.add(fold(statement.item))
            elif isinstance(statement, ast.Penalty) and statement.item is not None:
                uses.items_used.add(fold(statement.item))  # it lifts a penalty
            elif isinstance(statement, ast.SetCodeword):
                _add(uses.codewords_set, number, statement.span, statement.codeword)
            elif isinstance(statement, ast.Choice):
                for cost in statement.costs:
                    if cost.item is not None:
                        _add(uses.items_needed, number, cost.span, cost.item)
            found = [*modifier_conditions(statement)]  # "test your skill -1 if Dagger"
            if (
                isinstance(statement, ast.Choice | ast.If | ast.HiddenNumber)
                and statement.condition is not None
            ):
                found.append(statement.condition)
            if isinstance(statement, ast.Fight):  # rules under an enemy read items too
                found.extend(r.condition for r in statement.rules if r.condition is not None)
            for condition in found:
                for atom in atoms(condition):
                    if isinstance(atom, ast.HasItem):
                        _add(uses.items_needed, number, atom.span, atom.item)
                    elif isinstance(atom, ast.HasCodeword):
                        _add(uses.codewords_tested, number, atom.span, atom.codeword)
    return uses


def _is_counter(ruleset: object, name: str) -> bool:
    resolve = getattr(ruleset, "resolve", None)
    found = resolve(name) if resolve is not None else None
    return found is not None and found[0] == "counter"


def items_and_codewords(graph: Graph, book: object, uses: Uses) -> Iterator[Finding]:
    """E023, E024, I025, I026."""
    start = starting_items(book)
    ruleset = getattr(book, "ruleset", None)
    never_given = (
        ("E023", uses.items_needed, set(uses.items_given) | start,
         tr("item '{name}' is needed here but no paragraph gives it"),
         tr("add '> take {name}' to a paragraph on the way here")),
        ("E024", uses.codewords_tested, set(uses.codewords_set),
         tr("codeword '{name}' is tested here but no paragraph sets it"),
         tr("add '> set codeword {name}' to a paragraph on the way here")),
    )  # fmt: skip
    for code, needed, given, message, hint in never_given:
        for name, sites in needed.items():
            if name in given:
                continue
            for number, span, written in sites:
                yield finding(
                    code,
                    tr(message.msgid, name=written),
                    span,
                    paragraph=number,
                    hint=tr(hint.msgid, name=written),
                )
    for name, sites in uses.items_given.items():
        if _is_counter(ruleset, name):
            continue  # "buy 2 Provisions for 3 gold": a counter bought, not an item
        known = ruleset.item(name) if ruleset is not None and hasattr(ruleset, "item") else None
        used = (
            name in uses.items_needed
            or name in uses.items_used
            or (known is not None and known.kind != "other")
        )
        if not used:
            number, span, written = sites[0]
            yield finding(
                "I025",
                tr(
                    "item '{name}' is given here but never needed, lost or used in a fight",
                    name=written,
                ),
                span,
                paragraph=number,
            )
    for name, sites in uses.codewords_set.items():
        if name not in uses.codewords_tested:
            number, span, written = sites[0]
            yield finding(
                "I026",
                tr("codeword '{name}' is set here but never tested", name=written),
                span,
                paragraph=number,
            )


def unknown_classes(graph: Graph, book: object) -> Iterator[Finding]:
    """E022: a class condition naming a class the ruleset does not define. (Unknown stats
    and counters are found by the loader; see structure.load_error_findings.)"""
    ruleset = getattr(book, "ruleset", None)
    if ruleset is None:
        return
    classes = {
        fold(written)
        for cls in (getattr(ruleset, "classes", None) or {}).values()
        for written in (cls.id, *cls.names.values())
    }
    for number, node in graph.nodes.items():
        for condition in conditions(node.paragraph.body):
            if isinstance(condition, ast.HasClass) and fold(condition.name) not in classes:
                yield finding(
                    "E022",
                    tr(
                        "unknown class '{name}' in ruleset {ruleset}",
                        name=condition.name,
                        ruleset=ruleset.name,
                    ),
                    condition.span,
                    paragraph=number,
                    hint=tr(
                        "classes: {classes}",
                        classes=", ".join(sorted(ruleset.classes)) or tr("none"),
                    ),
                )


def worlds(graph: Graph) -> Iterator[Finding]:
    """W027: a choice into a World's first paragraph when that World is already visited on
    every path to the choice (and revisits are not allowed there)."""
    opens: dict[int, str] = {}
    allow: set[int] = set()
    for number, node in graph.nodes.items():
        for statement in node.paragraph.body:
            if isinstance(statement, ast.OpenWorld):
                opens[number] = fold(statement.world)
            elif isinstance(statement, ast.AllowRevisit):
                allow.add(number)
    if not opens or graph.start is None or graph.start not in graph.nodes:
        return
    # must-analysis: worlds surely visited on arriving at each paragraph
    before: dict[int, frozenset[str]] = {graph.start: frozenset()}
    queue = deque([graph.start])
    while queue:
        number = queue.popleft()
        after = before[number] | ({opens[number]} if number in opens else frozenset())
        for target in set(graph.successors(number)):
            new = before[target] & after if target in before else after
            if before.get(target) != new:
                before[target] = new
                queue.append(target)
    for number, node in graph.nodes.items():
        if number not in before or number in allow:
            continue
        visited = before[number] | ({opens[number]} if number in opens else set())
        for edge in node.edges:
            if edge.kind != "choice" or edge.choice is None or edge.choice.revisit:
                continue
            world = opens.get(edge.target) if edge.target is not None else None
            if world is not None and world in visited and edge.target != number:
                yield finding(
                    "W027",
                    tr(
                        "every path here has already visited the World of paragraph "
                        "{number}: this choice can never be taken",
                        number=edge.target,
                    ),
                    edge.span,
                    paragraph=number,
                    hint=tr("add '(revisit)' to the choice or '> allow revisit' to the paragraph"),
                )


def tagged_modifiers(graph: Graph) -> Iterator[tuple[int, Span, tuple[str, ...], bool]]:
    """Every tagged modifier (of tests, fights, and item effects): paragraph, span, tags,
    and whether it is a mark only (an item's tag with no bonus: ``(potion)`` sorts the item
    into the sheet's Potion box)."""
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.Fight):
                for modifier in statement.modifiers:
                    if modifier.tags:
                        yield number, modifier.span, tuple(modifier.tags), False
            elif isinstance(statement, ast.GainItem):
                for effect in statement.effects:
                    if effect.tag:
                        yield number, effect.span, (effect.tag,), effect.stat is None


def _did_you_mean(tags: tuple[str, ...], known: dict[str, str]) -> str | None:
    """The known spelling (by folded form) closest to one of ``tags``, if any is close."""
    for tag in tags:
        close = difflib.get_close_matches(fold(tag), list(known), n=1, cutoff=0.75)
        if close:
            return known[close[0]]
    return None


def unacted_tags(graph: Graph, book: object) -> Iterator[Finding]:
    """I060: a tagged modifier whose tags no ability of the ruleset (classes and items) acts
    on: a misspelt tag (``(pilotge)``) silently does nothing. Info: a tag may be purely
    descriptive. An item's mark with no bonus (``(potion)``, a box of the sheet, as the
    language reference teaches) is reported only when it is close to a tag the ruleset
    knows (a likely misspelling)."""
    ruleset = getattr(book, "ruleset", None)
    if ruleset is None:
        return
    abilities = [
        ability
        for owner in (*ruleset.classes.values(), *ruleset.items.values())
        for ability in owner.abilities
        if ability.tag is not None
    ]
    known: dict[str, str] = {}  # folded spelling -> as the ruleset writes it
    for tag, spellings in ruleset.tags.items():
        for written in (tag, *spellings):
            known.setdefault(fold(written), written)
    for ability in abilities:
        known.setdefault(fold(ability.tag), ability.tag)
    exempt = set(getattr(ruleset, "inventory_exempt", ()))  # tags the inventory limit skips
    for number, span, tags, mark in tagged_modifiers(graph):
        if any(ability.acts_on(tags) for ability in abilities):
            continue
        if any(fold(tag) in exempt for tag in tags):
            continue
        written = ", ".join(tags)
        suggestion = _did_you_mean(tags, known)
        if mark and (suggestion is None or fold(suggestion) in map(fold, tags)):
            continue  # a box of the sheet, not a misspelt tag
        if suggestion is not None:
            hint = tr("did you mean ({tag})?", tag=suggestion)
        elif known:
            hint = tr("tags the ruleset's abilities act on: {tags}", tags=", ".join(known.values()))
        else:
            hint = tr(
                "no ability of ruleset {ruleset} acts on tagged modifiers", ruleset=ruleset.name
            )
        yield finding(
            "I060",
            tr(
                "no ability of ruleset {ruleset} acts on the tag ({tags}): "
                "this modifier always applies in full",
                ruleset=ruleset.name,
                tags=written,
            ),
            span,
            paragraph=number,
            hint=hint,
            tags=list(tags),
        )


def check_rules(graph: Graph, book: object, uses: Uses) -> list[Finding]:
    """Every rules-aware finding (state-aware reachability lives in state_reach)."""
    found = list(unknown_classes(graph, book))
    found += items_and_codewords(graph, book, uses)
    found += worlds(graph)
    found += unacted_tags(graph, book)
    from dedale.validator.state_changes import (  # (they import this module)
        needs_more_than_the_limit,
        optional_items_needed,
        penalties_never_lifted,
    )

    found += penalties_never_lifted(graph, book, uses)
    found += optional_items_needed(graph, book, uses)
    found += needs_more_than_the_limit(graph, book)
    return found
