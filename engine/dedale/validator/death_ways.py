"""Ways out of a fight that lead straight to a death ending (issue 14.2, session 7).

A fight's way out — an event's ``-> 40``, a row of the table rolled each assault, the
assault limit, ``end the fight when … -> N``, ``first assault won -> N``, ``when your
STAMINA falls to N -> M``, ``after N assaults won -> M``, an escape — used to count as
"leaving the fight alive" whatever its paragraph. When that paragraph is a death ending
(``> death`` / ``> mort``: its reader can do nothing but die there), the hero does not
leave alive: the fight's odds count that way as a defeat.

A *death ending* is the language's own notion (docs/language.md § 14): a paragraph whose
only way on is the ``death`` ending — the graph gives it no edge, no computed jump, no
victory, and its body cannot run out without one.
"""

from __future__ import annotations

from collections.abc import Callable

from dedale import ast
from dedale.validator.graph import Graph, resolve

Deadly = Callable[[ast.Destination | None], bool]


def death_endings(graph: Graph) -> frozenset[int]:
    """The paragraphs that are death endings (see the module docstring)."""
    return frozenset(
        number
        for number, node in graph.nodes.items()
        if node.endings == {"death"} and not node.edges and not node.computed and not node.stuck
    )


def deadly(graph: Graph, book: object) -> Deadly:
    """Whether a fight's destination is a death ending of this book."""
    deaths = death_endings(graph)

    def is_deadly(target: ast.Destination | None) -> bool:
        if not deaths or not isinstance(target, ast.ParagraphRef):
            return False
        return resolve(book, target) in deaths

    return is_deadly


def doomed_ways(fight: ast.Fight, is_deadly: Deadly | None) -> frozenset[str]:
    """The fight's own ways out (not its events or table rows: their plan counts them as a
    death) whose paragraph is a death ending: ``limit``, ``escape``, ``threshold``,
    ``assaults``, ``first`` and ``exit:I`` (I: the index of that exit among the fight's
    ``end the fight when`` rules, in the order written)."""
    if is_deadly is None:
        return frozenset()
    found = set()
    if fight.assault_limit is not None and is_deadly(fight.assault_limit.target):
        found.add("limit")
    if fight.escape is not None and is_deadly(fight.escape.target):
        found.add("escape")
    if fight.threshold is not None and is_deadly(fight.threshold.target):
        found.add("threshold")
    if fight.win_assaults is not None and is_deadly(fight.win_assaults.target):
        found.add("assaults")
    exits = 0
    for rule in fight.rules:
        if rule.kind == "first" and is_deadly(rule.target):
            found.add("first")
        elif rule.kind == "exit":
            if is_deadly(rule.target):
                found.add(f"exit:{exits}")
            exits += 1
    return frozenset(found)


def counted_deaths(fight: ast.Fight, is_deadly: Deadly | None, book: object) -> tuple[int, ...]:
    """The death endings the fight's ways out turn to that its exact odds count as defeats
    (for the fight table's note): an event's or a table row's turn, and the fight's own
    ways out (:func:`doomed_ways`), in every exact DP (one line, at once, with allies)."""
    if is_deadly is None:
        return ()
    targets: list[ast.Destination | None] = []
    events = [rule for rule in fight.rules if rule.kind not in ("first", "exit")]
    effects = [effect for rule in events for effect in rule.effects]
    if fight.assault_table is not None:
        effects += [e for branch in fight.assault_table.branches for e in branch.body]
    targets += [e.target for e in effects if isinstance(e, ast.Goto)]
    ways = (fight.assault_limit, fight.escape, fight.threshold, fight.win_assaults)
    targets += [way.target for way in ways if way is not None]
    targets += [rule.target for rule in fight.rules if rule.kind in ("first", "exit")]
    found = {resolve(book, t) for t in targets if isinstance(t, ast.ParagraphRef) and is_deadly(t)}
    return tuple(sorted(n for n in found if n is not None))
