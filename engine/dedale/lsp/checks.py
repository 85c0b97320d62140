"""The validator's findings for the language server: the quick ones as the author types,
all of them on save.

:func:`quick_findings` runs the validator's checks that look at the text and its graph
(structure, rules and names, the book's own state, computed destinations, loops of forced
jumps, repeated tests, prose that reads like a rule) and leaves out the costly ones (the
state-space exploration, fight odds, random games, which :func:`full_findings` adds through
:func:`dedale.validator.checker.validate_loaded`, on save).
"""

from __future__ import annotations

from pathlib import Path

from dedale.errors import BookLoadError, DedaleError
from dedale.validator.book_state_checks import check_book_state
from dedale.validator.checker import validate_loaded
from dedale.validator.computed import computed_destinations
from dedale.validator.dedupe import one_per_defect
from dedale.validator.findings import Finding
from dedale.validator.graph import build_graph, declared_hidden
from dedale.validator.loops import forced_loops
from dedale.validator.near_names import tie_near_names
from dedale.validator.prose_checks import explain_dead_ends, prose_findings
from dedale.validator.repeated_tests import repeated_test_findings
from dedale.validator.rules_checks import check_rules, collect_uses
from dedale.validator.settings import read_settings
from dedale.validator.structure import check_structure, load_error_findings


def quick_findings(book: object) -> list[Finding]:
    """The static findings of a loaded book (what the editor shows as the author types)."""
    try:
        settings = read_settings(book)
    except DedaleError as error:
        return load_error_findings([error])
    graph = build_graph(book)
    hidden = tuple(dict.fromkeys((*settings.hidden, *declared_hidden(book))))
    found = check_structure(graph, book, hidden)
    uses = collect_uses(graph)
    found += check_rules(graph, book, uses)
    found = tie_near_names(found, uses, book)
    found += check_book_state(graph, book)
    found += computed_destinations(graph, book)
    found += forced_loops(graph, book)
    found += repeated_test_findings(graph, book)
    found += prose_findings(book)
    found = explain_dead_ends(one_per_defect(found, graph))
    kept = [item for item in found if not settings.silences(item)]
    return sorted(kept, key=lambda item: item.sort_key())


def full_findings(book: object, root: Path) -> list[Finding]:
    """Every finding of ``dedale validate`` (odds, random games: on save)."""
    return validate_loaded(book, str(root)).findings


def load_findings(error: BookLoadError) -> list[Finding]:
    """The loader's errors as findings (their codes E001-E005)."""
    return sorted(load_error_findings(list(error.errors)), key=lambda item: item.sort_key())
