"""Where the state-aware explorer starts: one state per class of the ruleset (its kit held)
at the start paragraph and at the hidden ones, the paragraphs where a gain may pass the
inventory limit, and :func:`explore_states`, which runs an :class:`Explorer` from them."""

from __future__ import annotations

from dedale.rules.ruleset import fold
from dedale.validator.book_state_checks import flag_key, flag_sites
from dedale.validator.budget import STATES_SECONDS, Deadline
from dedale.validator.graph import Graph
from dedale.validator.rules_checks import Uses, starting_items
from dedale.validator.state_explorer import Explorer


def over_the_limit(graph: Graph, book: object) -> set[int]:
    """Paragraphs whose gains may pass the ruleset's inventory limit: the items some path
    may bring there, and those the paragraph gives, are more than the limit."""
    from dedale.validator.loadout import maybe_held

    limit = getattr(getattr(book, "ruleset", None), "inventory_limit", None)
    if limit is None:
        return set()
    held, gains = maybe_held(graph, book)
    return {n for n, given in gains.items() if given and len(held.get(n, set()) | given) > limit}


def _kits(ruleset: object, items: set[str]) -> dict[frozenset[str], frozenset[str]]:
    """Each class (by its folded names) and the tracked items of its kit; one hero of no
    known class and no kit when the ruleset has no classes."""
    kits = {}
    for cls in (getattr(ruleset, "classes", None) or {}).values():
        names = frozenset(fold(written) for written in (cls.id, *cls.names.values()))
        kits[names] = frozenset(fold(item) for item in cls.kit) & items
    return kits or {frozenset(): frozenset()}


def explore_states(
    graph: Graph,
    book: object,
    uses: Uses,
    hidden: tuple[int, ...],
    seconds: float | None = STATES_SECONDS,
    record: bool = False,
    compact: bool = True,
) -> Explorer | None:
    """Explore the (paragraph, items, codewords, class) states from the start and the
    hidden paragraphs; None when no item or codeword is ever tested. ``compact``: track
    each atom only while it is alive and cache paragraph effects (False: every tracked
    atom in every state, as a reference for the tests)."""
    items = set(uses.items_needed)
    codewords = set(uses.codewords_tested)
    flags = flag_sites(graph, book)  # the book's own flags, tracked as codewords
    codewords |= {flag_key(name) for name in flags[1]}
    if graph.start not in graph.nodes or not (items or codewords):
        return None
    deadline = Deadline(seconds)
    may_drop = over_the_limit(graph, book)
    if may_drop and compact:
        from dedale.validator.state_monotone import more_items_never_hurt

        if more_items_never_hurt(graph, items):
            # every drop first (exactly as without this), within a small count budget;
            # past it the drops change no gate (state_monotone) and are left out, the
            # soft-locks they cause checked one drop at a time (softlocks, I158)
            trial = _run(graph, book, uses, hidden, items, codewords, deadline, record, may_drop,
                         cap=DROP_TRIAL)  # fmt: skip
            if not trial.truncated or trial.timed_out:
                return trial
            from dedale.validator.softlocks import may_lose

            explorer = _run(graph, book, uses, hidden, items, codewords, deadline,
                            record and may_lose(graph, None, uses), set())  # fmt: skip
            explorer.unfollowed_drops = may_drop
            return explorer
    return _run(graph, book, uses, hidden, items, codewords, deadline, record, may_drop,
                compact=compact)  # fmt: skip


DROP_TRIAL = 5_000
"""States the explorer may find with every drop for the inventory limit followed, before
it leaves the drops out (where more items never close a way: validator.state_monotone)."""


def _run(graph, book, uses, hidden, items, codewords, deadline, record, may_drop, compact=True,
         cap=None) -> Explorer:  # fmt: skip
    """One exploration (see explore_states); ``cap``: a count budget of its own."""
    start_items = starting_items(book)
    kits = _kits(getattr(book, "ruleset", None), items)
    base = frozenset(start_items & items) - frozenset().union(*kits.values())
    explorer = Explorer(graph, book, items, codewords)
    held = explorer.masks((base, frozenset()))[0]
    starts = [
        (graph.start, held | explorer.masks((kit, frozenset()))[0], 0, names)
        for names, kit in kits.items()
    ]
    starts += [
        (number, held, 0, names) for number in hidden if number in graph.nodes for names in kits
    ]
    explorer.deadline = deadline
    explorer.record = record
    explorer.may_drop = may_drop
    explorer.cap = cap
    if compact:
        explorer.prepare_compact()
    explorer.explore(starts)
    return explorer
