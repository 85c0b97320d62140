"""The compact state explorer (liveness, bitsets, cached paragraph effects) finds exactly
what the full one finds, on every sample book and fixture where the full one completes; and
it checks whole a book the full one gives up on (issue 14.8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.errors import DedaleError
from dedale.language import load_book
from dedale.validator import state_explorer
from dedale.validator.checker import validate_path
from dedale.validator.graph import build_graph, declared_hidden
from dedale.validator.rules_checks import collect_uses
from dedale.validator.softlocks import lost_before_needed
from dedale.validator.state_reach import check_states
from dedale.validator.state_start import explore_states

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = sorted(
    path.parent
    for base in ("books", "tests/books_extra", "tests/validator/books")
    for path in (ROOT / base).rglob("book.yaml")
)


def _outcome(book, compact: bool, record: bool = True):
    graph = build_graph(book)
    uses = collect_uses(graph)
    hidden = tuple(declared_hidden(book))
    roots = hidden if any(node.computed for node in graph.nodes.values()) else ()
    explorer = explore_states(graph, book, uses, roots, None, record=record, compact=compact)
    if explorer is None:
        return None
    gates = {
        key: (gate.passable, frozenset(gate.missing or ()), frozenset(gate.targets))
        for key, gate in explorer.gates.items()
    }
    found = [
        (f.code, f.message, f.span)
        for f in check_states(graph, book, uses, roots, explorer=explorer)
        + lost_before_needed(explorer, graph, uses)
    ]
    return explorer.truncated, explorer.reached, gates, found, explorer.count


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_compact_exploration_finds_what_the_full_one_finds(folder):
    try:
        book = load_book(folder)
    except DedaleError:
        pytest.skip("a fixture that does not load")
    full = _outcome(book, compact=False)
    compact = _outcome(book, compact=True)
    batches = _outcome(book, compact=True, record=False)  # validator.state_batches
    if full is None:
        assert compact is None and batches is None
        return
    assert not full[0], "the full exploration completes on every fixture"
    assert compact[:4] == full[:4]
    assert compact[4] <= full[4]  # never more states
    assert batches[:3] == full[:3] and batches[4] == compact[4]
    without_softlocks = [item for item in full[3] if item[0] != "W086"]
    assert batches[3] == without_softlocks  # W086 needs the recorded steps


def test_a_400_section_book_with_60_items_and_20_codewords_is_checked_whole(tmp_path, monkeypatch):
    import sys

    sys.path.insert(0, str(ROOT / "tools" / "bench"))
    from gen_book import write_book

    folder = write_book(tmp_path / "book", 400, items=60, codewords=20)
    book = load_book(folder)
    graph = build_graph(book)
    uses = collect_uses(graph)
    assert len(uses.items_needed) >= 60 and len(uses.codewords_tested) == 20
    with monkeypatch.context() as patch:  # today's explorer: every atom, 200,000 states
        patch.setattr(state_explorer, "MAX_STATES", 200_000)
        assert explore_states(graph, book, uses, (), None, compact=False).truncated
    compact = explore_states(graph, book, uses, (), None)
    assert not compact.truncated and 200_000 < compact.count < state_explorer.MAX_STATES
    codes = [f.code for f in validate_path(folder, runs=0).findings]
    assert "I050" not in codes and "I051" not in codes


def test_the_batch_loop_stops_at_its_time_budget(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "tools" / "bench"))
    from gen_book import write_book

    book = load_book(write_book(tmp_path / "book", 200, items=30, codewords=10))
    graph = build_graph(book)
    uses = collect_uses(graph)
    cut = explore_states(graph, book, uses, (), seconds=1e-9)
    assert cut.timed_out and cut.truncated and cut.count < 1000
    found = check_states(graph, book, uses, (), explorer=cut)
    assert [item.code for item in found] == ["I051"]
