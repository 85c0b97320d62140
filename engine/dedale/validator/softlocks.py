"""Some-path soft-locks (issue 14.7): what is lost on one path and needed later.

W086: from the states the state-aware explorer walked (paragraph, items held, codewords
set), the states from which no victory can be reached any more are *doomed*. A step from a
state that could still win into a doomed one, that loses an item or clears a codeword, is a
soft-lock when a doomed state after it fails a condition (or a cost) for want of that very
item or codeword: on that path the reader gave up, spent, dropped or traded away what the
book needs later (or had to drop it for the ruleset's inventory limit, where a gain may pass
it), and can no longer win. Found statically, on every path the explorer
walks, with the path that shows it.

W087: ``> lose Lantern`` in a paragraph where no path can hold a Lantern (no start item,
no paragraph on the way gives one): the line does nothing, and is most often a misspelt name.
"""

from __future__ import annotations

import difflib
from collections import deque

from dedale import ast
from dedale.i18n import tr
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.budget import Deadline, budget_finding
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, header_span, walk
from dedale.validator.resources import shown_path
from dedale.validator.rules_checks import Uses, starting_items
from dedale.validator.state_explorer import Explorer, State
from dedale.validator.state_start import over_the_limit

MAX_CANDIDATES = 500  # losing steps examined
MAX_SEARCH = 200_000  # doomed states visited in all, looking for where the loss bites
SOFTLOCK_SECONDS = 5.0  # the time budget of the soft-lock search (I051 when it runs out)


def _alive(explorer: Explorer, victories: set[int]) -> set[State]:
    """States from which a victory paragraph can be reached (backwards from them)."""
    alive = {state for state in explorer.seen if state[0] in victories}
    queue = deque(alive)
    while queue:
        for before in explorer.preds.get(queue.popleft(), ()):
            if before not in alive:
                alive.add(before)
                queue.append(before)
    return alive


def _loss_span(graph: Graph, number: int, kind: str, name: str) -> Span | None:
    """Where paragraph ``number`` loses the item or clears the codeword (None if it does not:
    the item was dropped for the inventory limit)."""
    paragraph = graph.nodes[number].paragraph
    for statement in walk(paragraph.body):
        if kind == "item" and isinstance(statement, ast.LoseItem) and fold(statement.item) == name:
            return statement.span
        if kind == "item" and isinstance(statement, ast.Choice):
            for cost in statement.costs:
                if cost.item is not None and fold(cost.item) == name:
                    return cost.span
        if (
            kind == "codeword"
            and isinstance(statement, ast.ClearCodeword)
            and fold(statement.codeword) == name
        ):
            return statement.span
    return None


def _gain_span(graph: Graph, number: int) -> Span:
    """The first gain of paragraph ``number`` (where the inventory limit makes a drop)."""
    paragraph = graph.nodes[number].paragraph
    for statement in walk(paragraph.body):
        if isinstance(statement, ast.GainItem):
            return statement.span
    return header_span(paragraph)


def _path(explorer: Explorer, state: State) -> list[int]:
    numbers = [state[0]]
    seen = {state}
    while state in explorer.parent and len(numbers) < 10_000:
        state = explorer.parent[state]
        if state in seen:
            break
        seen.add(state)
        if numbers[-1] != state[0]:
            numbers.append(state[0])
    return numbers[::-1]


def _written(uses: Uses, kind: str, name: str) -> str:
    table = uses.items_needed if kind == "item" else uses.codewords_tested
    sites = table.get(name)
    return sites[0][2] if sites else name


def may_lose(graph: Graph, book: object = None, uses: Uses | None = None) -> bool:
    """Whether some paragraph may lose an item or clear a codeword that a condition tests
    (with ``uses``; any, without), or drop one for the inventory limit: else W086 cannot be,
    and the explorer need not record its steps."""
    items = set(uses.items_needed) if uses is not None else None
    codewords = set(uses.codewords_tested) if uses is not None else None
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.LoseItem):
                names, wanted = {fold(statement.item)}, items
            elif isinstance(statement, ast.ClearCodeword):
                names, wanted = {fold(statement.codeword)}, codewords
            elif isinstance(statement, ast.Shop):  # selling gives an item up
                names = {
                    fold(o.goods.item)
                    for o in statement.offers
                    if isinstance(o.goods, ast.LoseItem)
                }
                wanted = items
            elif isinstance(statement, ast.Choice):
                names, wanted = {fold(c.item) for c in statement.costs if c.item}, items
            else:
                continue
            if names and (wanted is None or names & wanted):
                return True
    return bool(over_the_limit(graph, book)) if book is not None else False


def lost_before_needed(explorer: Explorer | None, graph: Graph, uses: Uses) -> list[Finding]:
    """W086 from a finished exploration that recorded its steps (explore_states)."""
    if explorer is None or not explorer.record or explorer.truncated or explorer.timed_out:
        return []
    victories = {n for n, node in graph.nodes.items() if "victory" in node.endings}
    alive = _alive(explorer, victories)
    if not alive:
        return []  # no victory at all: E016 / E028 say so
    # (before, after, kind, name): a step into a doomed state that loses something, taken
    # from a state that could still win, or from the first doomed one (the paragraph the
    # reader chose to enter loses it)
    losing = []
    for state, befores in explorer.preds.items():
        if state in alive:
            continue
        # an atom no longer alive at the state's paragraph was dropped, not lost: nothing
        # after it tests it (validator.state_atoms)
        alive_items, alive_codes = explorer.alive_at(state[0]) or (-1, -1)
        for before in befores:
            gone_items = before[1] & ~state[1] & alive_items
            gone_codes = before[2] & ~state[2] & alive_codes
            lost = [("item", x) for x in explorer.names(gone_items, explorer.item_names)]
            lost += [("codeword", c) for c in explorer.names(gone_codes, explorer.code_names)]
            if lost and (before in alive or explorer.preds.get(before, set()) & alive):
                losing += [(before, state, kind, name) for kind, name in lost]
    if not losing:
        return []
    after: dict[State, list[State]] = {}
    for state, befores in explorer.preds.items():
        for before in befores:
            after.setdefault(before, []).append(state)
    losing.sort(
        key=lambda step: (_order(explorer, step[0]), _order(explorer, step[1]), step[2], step[3])
    )
    budget = MAX_SEARCH
    reported: dict[tuple[int, str, str], Finding] = {}
    deadline = Deadline(SOFTLOCK_SECONDS)
    timed_out: int | None = None
    for done, (before, state, kind, name) in enumerate(losing[:MAX_CANDIDATES]):
        key = (before[0], kind, name)
        if key in reported or budget <= 0:
            continue
        if deadline.passed():
            timed_out = done
            break
        needed, budget = _needed_at(explorer, after, alive, state, (kind, name), budget)
        if needed is not None:
            reported[key] = _finding(explorer, graph, uses, before, kind, name, needed)
    found = list(reported.values())
    if timed_out is not None:
        what = tr("the soft-lock checks (W086)")
        total = min(len(losing), MAX_CANDIDATES)
        found.append(budget_finding(what, timed_out, total, SOFTLOCK_SECONDS))
    return found


def _order(explorer: Explorer, state: State) -> tuple:
    items = sorted(explorer.names(state[1], explorer.item_names))
    codes = sorted(explorer.names(state[2], explorer.code_names))
    return (state[0], items, codes, sorted(state[3]))


def _needed_at(explorer, after, alive, start: State, atom, budget: int):
    """The paragraph where a doomed state after ``start`` fails for want of ``atom``."""
    queue, seen = deque([start]), {start}
    while queue and budget > 0:
        budget -= 1
        state = queue.popleft()
        if atom in explorer.failures.get(state, ()):
            return state[0], budget
        for nxt in after.get(state, ()):
            if nxt not in seen and nxt not in alive:
                seen.add(nxt)
                queue.append(nxt)
    return None, budget


def _finding(explorer, graph, uses, before: State, kind, name, needed: int, path=None) -> Finding:
    """W086 (``path``: the paragraphs to ``before``; None: the explorer's recorded one)."""
    written = _written(uses, kind, name)
    what = (
        tr("item '{name}'", name=written)
        if kind == "item"
        else tr("codeword '{name}'", name=written)
    )
    number = before[0]
    path = shown_path(path if path is not None else _path(explorer, before))
    span = _loss_span(graph, number, kind, name)
    if span is None:  # not lost by a line of the book: dropped for the inventory limit
        span = _gain_span(graph, number)
        message = tr(
            "on some paths {what} may be dropped here for the inventory limit although "
            "paragraph {needed} needs it later: the reader can then no longer win (e.g. {path})",
            what=what,
            needed=needed,
            path=path,
        )
    else:
        message = tr(
            "on some paths {what} is lost here although paragraph {needed} needs it later: "
            "the reader can then no longer win (e.g. {path})",
            what=what,
            needed=needed,
            path=path,
        )
    return finding(
        "W086",
        message,
        span,
        paragraph=number,
        hint=tr(
            "let the reader keep it, or give another way on at paragraph {needed}", needed=needed
        ),
    )


def lost_never_held(graph: Graph, book: object, hidden: tuple[int, ...]) -> list[Finding]:
    """W087: a ``lose`` of an item no path to its paragraph can hold."""
    if graph.start not in graph.nodes:
        return []
    gains: dict[int, set[str]] = {}
    written: dict[str, str] = {}  # folded -> as the book writes it
    for number, node in graph.nodes.items():
        given = gains[number] = set()
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem):
                given.add(fold(statement.item))
                written.setdefault(fold(statement.item), statement.item)
            elif isinstance(statement, ast.Shop):
                given.update(
                    fold(offer.goods.item)
                    for offer in statement.offers
                    if isinstance(offer.goods, ast.GainItem)
                )
    anything = {number for number in hidden if number in graph.nodes}
    held: dict[int, set[str]] = {graph.start: set(starting_items(book))}
    queue = deque([graph.start, *anything])
    while queue:
        number = queue.popleft()
        wide = number in anything
        out = held.get(number, set()) | gains[number]
        for target in set(graph.successors(number)):
            if target not in graph.nodes:
                continue
            if wide and target not in anything:
                anything.add(target)
                queue.append(target)
            elif target not in anything and (target not in held or not out <= held[target]):
                held[target] = held.get(target, set()) | out
                queue.append(target)
    found = []
    for number, can_hold in held.items():
        if number in anything:
            continue
        body = graph.nodes[number].paragraph.body
        sold = {id(o.goods) for s in walk(body) if isinstance(s, ast.Shop) for o in s.offers}
        for statement in walk(body):
            if not isinstance(statement, ast.LoseItem):
                continue
            if fold(statement.item) in can_hold | gains[number]:
                continue
            if id(statement) in sold:
                message = tr(
                    "no path to paragraph {number} can hold item '{name}': "
                    "it can never be sold here",
                    number=number,
                    name=statement.item,
                )
            else:
                message = tr(
                    "no path to paragraph {number} can hold item '{name}': "
                    "losing it here does nothing",
                    number=number,
                    name=statement.item,
                )
            found.append(
                finding(
                    "W087",
                    message,
                    statement.span,
                    paragraph=number,
                    hint=_did_you_mean(statement.item, can_hold | gains[number], written)
                    or tr("check the item's name, or give it on the way here"),
                )
            )
    return found


def _did_you_mean(name: str, held: set[str], written: dict[str, str]) -> str | None:
    close = difflib.get_close_matches(fold(name), sorted(held), n=1, cutoff=0.75)
    return tr("did you mean '{name}'?", name=written.get(close[0], close[0])) if close else None


def check_softlocks(
    explorer: Explorer | None, graph: Graph, book: object, uses: Uses, hidden: tuple[int, ...]
) -> list[Finding]:
    """W086 and W087 (and I158: the drops for the inventory limit, one at a time)."""
    from dedale.validator.softlocks_drops import dropped_before_needed

    dropped, notes = dropped_before_needed(explorer, graph, uses)
    found = lost_before_needed(explorer, graph, uses)
    known = {(item.paragraph, item.message) for item in found}
    found += [item for item in dropped if (item.paragraph, item.message) not in known]
    return found + notes + lost_never_held(graph, book, hidden)
