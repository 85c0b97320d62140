"""What the hero carries at each fight (issue 14.3): the items surely held, and those maybe
held, on the paths that reach it.

Two flow analyses over the paragraph graph, by folded item name:

- *maybe held* (a may-analysis): the start items, and every item some paragraph on a path
  gives (losses ignored: an over-approximation);
- *surely held* (a must-analysis): the start items every hero has (book.yaml's, and those in
  every class's kit), plus what a paragraph gives before anything can leave it, minus
  anything the paragraph may lose, drop, sell or give up on the way taken (a choice's
  ``(give X)``); where the ruleset has an inventory limit that the items held could pass, a
  gain may force any item out, so nothing is sure after it. Met at a paragraph by several
  paths, it is what every path holds.

At the fight itself the gains and losses of its paragraph before the fight count. The fight
odds can take ``surely`` as the loadout every hero has (the worst case over the reachable
paths) and ``surely | maybe`` as the best one, and :func:`item_effects` says what each item
does (weapon, stat bonuses) where the book gives it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.graph import Graph, walk
from dedale.validator.rules_checks import starting_items

_PLAIN = (
    ast.Prose,
    ast.ChangeValue,
    ast.GainItem,
    ast.LoseItem,
    ast.SetCodeword,
    ast.ClearCodeword,
    ast.Choice,
    ast.MealRule,
    ast.OpenWorld,
    ast.AllowRevisit,
    ast.NoteParagraph,
    ast.HiddenParagraph,
    ast.StatusOn,
    ast.StatusOff,
)


@dataclass(frozen=True, slots=True)
class Loadout:
    """The items (folded names) the hero surely holds at a fight, and those he may hold
    besides on some reachable path."""

    surely: frozenset[str]
    maybe: frozenset[str]

    @property
    def best(self) -> frozenset[str]:
        """Everything some path may bring to the fight."""
        return self.surely | self.maybe


def _sure_start(book: object) -> set[str]:
    ruleset = getattr(book, "ruleset", None)
    kits = [
        {fold(item) for item in cls.kit}
        for cls in (getattr(ruleset, "classes", None) or {}).values()
    ]
    meta = getattr(book, "meta", None)
    items = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
    sure = {fold(str(getattr(item, "item", item))) for item in items or ()}
    if kits:
        sure |= set.intersection(*kits)
    return sure


def _moved(body, kind: type) -> set[str]:
    """The items the statements of ``body`` give (``kind`` GainItem) or take (LoseItem),
    shops' goods included."""
    found = set()
    for statement in walk(body):
        if isinstance(statement, kind):
            found.add(fold(statement.item))
        elif isinstance(statement, ast.Shop):
            found.update(fold(o.goods.item) for o in statement.offers if isinstance(o.goods, kind))
    return found


def _gains(body) -> set[str]:
    return _moved(body, ast.GainItem)


def _losses(body) -> set[str]:
    return _moved(body, ast.LoseItem)


def _sure_gains(body) -> set[str]:
    """Items given by the plain statements that open the body (nothing can leave before)."""
    found = set()
    for statement in body:
        if not isinstance(statement, _PLAIN):
            break
        if isinstance(statement, ast.GainItem):
            found.add(fold(statement.item))
    return found


class _Flow:
    def __init__(self, graph: Graph, book: object):
        self.graph = graph
        ruleset = getattr(book, "ruleset", None)
        self.limit = getattr(ruleset, "inventory_limit", None)
        self.gains: dict[int, set[str]] = {}
        self.losses: dict[int, set[str]] = {}
        self.fights: set[int] = set()  # the paragraphs with a fight
        for n, node in graph.nodes.items():  # one walk of each body
            gains, losses = self.gains[n], self.losses[n] = set(), set()
            for statement in walk(node.paragraph.body):
                kind = type(statement)
                if kind is ast.GainItem:
                    gains.add(fold(statement.item))
                elif kind is ast.LoseItem:
                    losses.add(fold(statement.item))
                elif kind is ast.Fight:
                    self.fights.add(n)
                elif kind is ast.Shop:
                    for offer in statement.offers:
                        goods = offer.goods
                        if isinstance(goods, ast.GainItem):
                            gains.add(fold(goods.item))
                        elif isinstance(goods, ast.LoseItem):
                            losses.add(fold(goods.item))
        self.sure = {n: _sure_gains(node.paragraph.body) for n, node in graph.nodes.items()}
        self.every = set(starting_items(book)).union(*self.gains.values())

    def maybe(self, starts: dict[int, set[str]]) -> dict[int, set[str]]:
        held = {n: set(items) for n, items in starts.items()}
        queue = deque(held)
        while queue:
            number = queue.popleft()
            out = held[number] | self.gains[number]
            for target in set(self.graph.successors(number)):
                if target not in held or not out <= held[target]:  # reached, or grown
                    held[target] = held.get(target, set()) | out
                    queue.append(target)
        return held

    def surely(self, starts: dict[int, set[str]], maybe: dict[int, set[str]]):
        held: dict[int, set[str]] = {n: set(items) for n, items in starts.items()}
        queue = deque(held)
        rounds = 0
        limit = 4 * (len(self.graph.nodes) + 1) * (len(self.every) + 1)  # monotone: bounded
        while queue and rounds < limit:
            rounds += 1
            number = queue.popleft()
            node = self.graph.nodes[number]
            base = held[number] | self.sure[number]
            if self.limit is not None and self.gains[number]:
                if len(maybe.get(number, set()) | self.gains[number]) > self.limit:
                    base = set()  # a gain may force any item out
            base -= self.losses[number]
            for edge in node.edges:
                target = edge.target
                if target is None or target not in self.graph.nodes:
                    continue
                out = base
                if edge.choice is not None:
                    out = out - {fold(c.item) for c in edge.choice.costs if c.item}
                if target in starts:
                    out = out & starts[target]
                new = out if target not in held else held[target] & out
                if target not in held or new != held[target]:
                    held[target] = new
                    queue.append(target)
        return held


def loadouts(graph: Graph, book: object, hidden: tuple[int, ...] = ()) -> dict[Span, Loadout]:
    """The Loadout at every fight reachable from the start, by the fight's span."""
    if graph.start not in graph.nodes:
        return {}
    flow = _Flow(graph, book)
    open_starts = {n for n in hidden if n in graph.nodes and n != graph.start}
    maybe_starts = {graph.start: set(starting_items(book))}
    maybe_starts |= {n: set(flow.every) for n in open_starts}
    maybe = flow.maybe(maybe_starts)
    sure_starts = {graph.start: _sure_start(book)} | {n: set() for n in open_starts}
    surely = flow.surely(sure_starts, maybe)
    found: dict[Span, Loadout] = {}
    for number, node in graph.nodes.items():
        if number not in maybe or number not in flow.fights:
            continue
        body = node.paragraph.body
        for index, statement in enumerate(body):
            fights = [s for s in walk((statement,)) if isinstance(s, ast.Fight)]
            if not fights:
                continue
            before = body[:index]
            sure = set(surely.get(number, set()))
            if all(isinstance(s, _PLAIN) for s in before) and isinstance(statement, ast.Fight):
                sure |= _sure_gains(before)
                sure -= _losses(before)
            else:
                sure -= flow.losses[number]
            may = maybe[number] | _gains(before if isinstance(statement, ast.Fight) else body)
            if flow.limit is not None and _gains(before) and len(may) > flow.limit:
                sure = set()  # a gain here may have forced any item out
            for fight in fights:
                found[fight.span] = Loadout(frozenset(sure), frozenset(may - sure))
    return found


def maybe_held(graph: Graph, book: object) -> tuple[dict[int, set[str]], dict[int, set[str]]]:
    """The items some path may bring to each paragraph reached from the start, and the items
    each paragraph gives."""
    if graph.start not in graph.nodes:
        return {}, {}
    flow = _Flow(graph, book)
    return flow.maybe({graph.start: set(starting_items(book))}), flow.gains


def item_effects(graph: Graph) -> dict[str, ast.GainItem]:
    """Each item (folded name) the book gives with effects (a weapon, a stat bonus, a tag),
    and the first line that gives it so."""
    found: dict[str, ast.GainItem] = {}
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem) and (statement.weapon or statement.effects):
                found.setdefault(fold(statement.item), statement)
    return found
