"""State-aware reachability over items and codewords.

The explorer walks (paragraph, items held, codewords set) states from the start, running
each paragraph body symbolically: item and codeword operations change the state, choices
and ``if`` whose conditions test items or codewords are taken only when the state allows
it, and everything else (stats, dice, visited paragraphs) may go either way. Only the items
and codewords that some condition tests are tracked, which keeps the state space small.

A *gate* is a condition the explorer met. A gate that is false in every state reaching it
is never passable: if it stands between the reader and every victory, that is E028 (the
item or codeword it needs is obtainable only on paths that avoid this point); otherwise W029.
"""

from __future__ import annotations

from dedale.i18n import tr
from dedale.rules.ruleset import fold
from dedale.validator.book_state_checks import flag_sites
from dedale.validator.budget import STATES_SECONDS, budget_finding
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph
from dedale.validator.rules_checks import Uses, starting_items
from dedale.validator.state_explorer import (  # noqa: F401  (re-exported)
    MAX_STATES,
    Explorer,
    Gate,
    State,
)
from dedale.validator.state_start import explore_states, over_the_limit  # noqa: F401


def check_states(
    graph: Graph,
    book: object,
    uses: Uses,
    hidden: tuple[int, ...],
    seconds: float | None = STATES_SECONDS,
    explorer: Explorer | None = None,
) -> list[Finding]:
    """E028, W029 (and I050 when the state space is too large to explore, I051 when
    exploring takes more than ``seconds``), from ``explorer`` if given (see explore_states)."""
    if explorer is None:
        explorer = explore_states(graph, book, uses, hidden, seconds)
    if explorer is None:
        return []
    start_items = starting_items(book)
    flags = flag_sites(graph, book)  # the book's own flags (where each is noted)
    if explorer.timed_out:
        what = tr("state-aware checks (E028, W029)")
        states = tr("states")
        return [budget_finding(what, explorer.count, None, explorer.deadline.seconds, states)]
    if explorer.truncated:
        return [
            finding(
                "I050",
                tr(
                    "more than {limit} item/codeword states: state-aware checks skipped",
                    limit=explorer.limit,
                ),
                None,
            )
        ]
    victories = [n for n, node in graph.nodes.items() if "victory" in node.endings]
    plain_victory = bool(victories) and graph.start in graph.reaching(victories)
    state_victory = any(n in explorer.reached for n in victories)
    leads_to_victory = graph.reaching(victories)
    found = []
    for gate in explorer.gates.values():
        if gate.passable or not gate.missing:
            continue
        obtainable = [
            (kind, name)
            for kind, name in sorted(gate.missing)
            if (
                kind != "flag"
                and fold(name) in (uses.items_given if kind == "item" else uses.codewords_set)
            )
            or (kind == "item" and fold(name) in start_items)
            or (kind == "flag" and name in flags[0])
        ]
        if not obtainable:
            continue  # never given anywhere: E023/E024 already say so
        needed = tr(" and ").join(
            tr("item '{name}'", name=name)
            if kind == "item"
            else tr("flag '{name}'", name=name)
            if kind == "flag"
            else tr("codeword '{name}'", name=name)
            for kind, name in obtainable
        )
        where = _giving_paragraphs(uses, obtainable, flags[0])
        blocks_victory = (
            plain_victory and not state_victory and any(t in leads_to_victory for t in gate.targets)
        )
        code = "E028" if blocks_victory else "W029"
        lead = (
            tr(
                "victory needs {needed} here, but no path to paragraph {number} "
                "obtains it (given only in {where})",
                needed=needed,
                number=gate.paragraph,
                where=where,
            )
            if blocks_victory
            else tr(
                "this needs {needed} here, but no path to paragraph {number} "
                "obtains it (given only in {where})",
                needed=needed,
                number=gate.paragraph,
                where=where,
            )
        )
        found.append(
            finding(
                code,
                lead,
                gate.span,
                paragraph=gate.paragraph,
                hint=tr("make it obtainable on a path through here, or give another way on"),
            )
        )
    return found


def _giving_paragraphs(uses: Uses, wanted: list[tuple[str, str]], flags=None) -> str:
    numbers: set[int] = set()
    for kind, name in wanted:
        if kind == "flag":
            numbers.update((flags or {}).get(name, ()))
            continue
        table = uses.items_given if kind == "item" else uses.codewords_set
        numbers.update(number for number, _, _ in table.get(fold(name), ()))
    if not numbers:
        return tr("the starting kit")
    shown = sorted(numbers)
    return ", ".join(map(str, shown[:6])) + (", ..." if len(shown) > 6 else "")
