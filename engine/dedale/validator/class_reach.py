"""Where each class of the ruleset can go (issue 14.10): the paragraphs and the moves the
state-aware explorer found for the states of each class (its kit held), and W088 when
some class reaches no victory paragraph while another one does.

The explorer (validator.state_explorer) keeps the class in every state; classes that no
condition tells apart and whose kits give the same tracked items are explored once
(validator.state_batches) and read here as their twin. The moves come from the explorer's
cache of paragraph effects (batches) or its recorded steps; where neither has them (a
paragraph where a gain may be dropped for the inventory limit), every edge out of a
paragraph the class reaches is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.i18n import tr
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, header_span

Names = frozenset[str]  # a class by its folded names (id and names in every language)


@dataclass(frozen=True, slots=True)
class ClassReach:
    """Each class's reached paragraphs, and its moves (paragraph -> targets; a paragraph
    absent from ``moves`` allows every edge)."""

    reached: dict[Names, frozenset[int]]
    moves: dict[Names, dict[int, frozenset[int]]]

    def of(self, class_id: str | None) -> Names | None:
        """The class whose folded names hold ``class_id`` (None: unknown)."""
        if class_id is None:
            return None
        from dedale.rules.ruleset import fold

        key = fold(class_id)
        return next((names for names in self.reached if key in names), None)

    def allows(self, names: Names, source: int, target: int) -> bool:
        """Whether a hero of the class may go from ``source`` to ``target``."""
        if source not in self.reached[names]:
            return False
        targets = self.moves[names].get(source)
        return targets is None or target in targets


def class_reach(explorer: object | None) -> ClassReach | None:
    """The per-class reach of a finished exploration (None: none, cut short, or fewer than
    two classes)."""
    if explorer is None or explorer.truncated or explorer.timed_out:  # type: ignore[attr-defined]
        return None
    reached: dict[Names, set[int]] = {}
    moves: dict[Names, dict[int, set[int]]] = {}
    batches = explorer.batch_seen  # type: ignore[attr-defined]
    if batches is not None:
        for (number, names), found in batches.items():
            if found:
                reached.setdefault(names, set()).add(number)
        twin_of = getattr(explorer, "twins", {})
        by_class: dict[Names, dict[int, set[int]]] = {}
        for (number, _, _, names), (cached, _) in explorer.effects.items():  # type: ignore[attr-defined]
            by_class.setdefault(names, {}).setdefault(number, set()).update(
                move[0] for move in cached
            )
        for names in reached:
            moves[names] = by_class.get(twin_of.get(names, names), {})
    else:
        for state in explorer.seen:  # type: ignore[attr-defined]
            reached.setdefault(state[3], set()).add(state[0])
        for state in explorer.starts:  # type: ignore[attr-defined]
            reached.setdefault(state[3], set()).add(state[0])
        if explorer.record:  # type: ignore[attr-defined]
            for after, befores in explorer.preds.items():  # type: ignore[attr-defined]
                for before in befores:
                    moves.setdefault(before[3], {}).setdefault(before[0], set()).add(after[0])
            for names, numbers in reached.items():  # a paragraph with no move: none allowed
                for number in numbers:
                    moves.setdefault(names, {}).setdefault(number, set())
    if len(reached) < 2 or frozenset() in reached:
        return None
    return ClassReach(
        {names: frozenset(numbers) for names, numbers in reached.items()},
        {names: {n: frozenset(t) for n, t in moves.get(names, {}).items()} for names in reached},
    )


def class_findings(
    graph: Graph, book: object, explorer: object | None, reach: ClassReach | None = None
) -> list[Finding]:
    """W088 for each class of the ruleset that reaches no victory paragraph while another
    class does, at the first way to victory it cannot take from where it goes: a gate its
    kit does not open, a choice for another class (``reach``: the explorer's, when read)."""
    reach = reach if reach is not None else class_reach(explorer)
    if reach is None:
        return []
    victories = {n for n, node in graph.nodes.items() if "victory" in node.endings}
    winners = [names for names, numbers in reach.reached.items() if numbers & victories]
    if not winners:
        return []  # no class wins: the book-wide checks (E028, W085) say so
    to_victory = graph.reaching(list(victories))
    found = []
    for names, numbers in reach.reached.items():
        if numbers & victories:
            continue
        ends = [  # the ways from where the class goes to a way to victory it never takes
            edge
            for number in sorted(numbers)
            for edge in graph.nodes[number].edges
            if edge.target in to_victory and edge.target not in numbers
        ]
        shown = _class_name(book, names)
        if ends:
            places = listed(
                [
                    tr("paragraph {number} (line {line})", number=e.source, line=e.span.line)
                    for e in ends[:4]
                ]
                + (["…"] if len(ends) > 4 else [])
            )
            message = tr(
                "no way to win was found for the class {name}: its ways to victory end at {places}",
                name=shown,
                places=places,
            )
            span, paragraph = ends[0].span, ends[0].source
        else:
            message = tr("no way to win was found for the class {name}", name=shown)
            span, paragraph = header_span(graph.nodes[graph.start].paragraph), graph.start
        found.append(
            finding(
                "W088",
                message,
                span,
                paragraph=paragraph,
                hint=tr("give this class a way to what the gate needs, or another way on"),
                **{"class": _class_id(book, names)},
            )
        )
    return found


def listed(parts: list) -> object:
    """``a, b, c`` that stays translatable (a plain ``", ".join`` of Messages is English)."""
    shown = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        shown = tr("{first}, {rest}", first=part, rest=shown)
    return shown


def _classes(book: object) -> dict:
    return getattr(getattr(book, "ruleset", None), "classes", None) or {}


def _class_id(book: object, names: Names) -> str:
    from dedale.rules.ruleset import fold

    for cls in _classes(book).values():
        if fold(cls.id) in names:
            return cls.id
    return sorted(names)[0]


def _class_name(book: object, names: Names) -> str:
    """The class's name in the book's language."""
    from dedale.rules.ruleset import fold

    meta = getattr(book, "meta", None)
    lang = meta.get("language") if isinstance(meta, dict) else getattr(meta, "language", None)
    for cls in _classes(book).values():
        if fold(cls.id) in names:
            return cls.names.get(lang or "", cls.id)
    return sorted(names)[0]
