"""Validator awareness of the amateur constructs (issue 8): hidden numbers and computed
destinations count as links, each computed destination's possible values are listed
(I019), and a declared hidden paragraph with no clue raises W017."""

from __future__ import annotations

from pathlib import Path

from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.graph import build_graph

EXTRA = Path(__file__).resolve().parents[1] / "books_extra"
AMATEUR = EXTRA / "amateur"
W017_FIXTURE = EXTRA / "validator" / "W017-hidden-paragraph.dd"


def _findings(path: Path, runs: int = 0):
    return validate_path(path, runs=runs, seed=0).findings


def test_hidden_paragraph_without_clue_raises_w017():
    found = _findings(W017_FIXTURE)
    assert {f.code for f in found} == {"W017", "I019"}
    w017 = next(f for f in found if f.code == "W017")
    assert (w017.paragraph, w017.span.line) == (3, 13)


def test_a_clue_in_the_text_silences_w017(tmp_path):
    text = W017_FIXTURE.read_text("utf-8").replace(
        "Nothing tells you which one to try.", "A scratch beside it reads 3."
    )
    clued = tmp_path / "clued.dd"
    clued.write_text(text, "utf-8")
    assert {f.code for f in _findings(clued)} == {"I019"}


def test_amateur_book_is_clean_and_fully_linked():
    found = _findings(AMATEUR, runs=200)
    assert [f for f in found if f.severity != "info"] == []
    assert {f.code for f in found} == {"I019"}


def _line(text: str) -> int:
    """The line of the amateur book that holds ``text``."""
    lines = (AMATEUR / "book.dd").read_text("utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if text in line)


def test_each_computed_destination_lists_its_values():
    listed = {
        (f.span.line, f.message): f.data["targets"] for f in _findings(AMATEUR) if f.code == "I019"
    }
    assert listed == {
        (_line("> hidden number"), "the hidden number may lead to: 3, 24"): [3, 24],
        (_line("-> [previous]"), "going back may lead to: 2"): [2],
        (
            _line("-> [number of Brass Key + 20]"),
            "a computed destination may lead to: 70 (20 would name no paragraph)",
        ): [70],
        (_line("-> [noted camp]"), "the paragraph noted as 'camp' may lead to: 1"): [1],
        (_line("> revenez en arri"), "going back may lead to: 1"): [1],
    }


def test_a_shop_gives_what_it_sells(tmp_path):
    text = """---
title: t
ruleset: df-classic
---
§ 1
> gain 5 gold
> buy Rope for 2 gold
-> 2 On
§ 2
-> 3 (if Rope) Climb
-> 1 Back
§ 3
> victory
"""
    path = tmp_path / "shop.dd"
    path.write_text(text, "utf-8")
    assert [f.code for f in _findings(path)] == []  # no E023, no E028: the rope is sold


def test_fight_odds_use_the_attack_stat():
    report = validate_path(AMATEUR, runs=0, seed=0)
    (spectre,) = report.fights
    assert spectre.error is None and spectre.odds


def test_graph_edges_of_the_amateur_constructs():
    graph = build_graph(load_book(AMATEUR))
    edges = {(e.source, e.target, e.kind) for node in graph.nodes.values() for e in node.edges}
    assert {(2, 3, "goto"), (2, 24, "hidden")} <= edges  # hidden number: fallback + hidden
    assert (3, 2, "choice") in edges  # [previous] from 3: its only predecessor
    assert (6, 70, "choice") in edges  # the key's number (0 or 50) + 20: only 70 exists
    assert (9, 1, "choice") in edges  # [noted camp]
    assert (9, 90, "choice") in edges  # [paragraph × 10], a constant
    assert (10, 1, "goto") in edges  # go back from the well
    assert 24 in graph.reachable_from([graph.start])


def test_state_aware_checks_follow_noted_paragraphs(tmp_path):
    text = """---
title: t
ruleset: df-classic
---
§ 1
> note paragraph camp
-> 2 Explore
-> 3 (if Key) Open the gate
§ 2
> take Key
-> [noted camp] Back to the camp
§ 3
> victory
"""
    path = tmp_path / "noted.dd"
    path.write_text(text, "utf-8")
    assert [f.code for f in _findings(path)] == ["I019"]  # no E028: the key comes back


def test_paragraphs_listed_in_book_yaml_are_reached_by_hidden_numbers(tmp_path):
    text = """---
title: t
ruleset: df-classic
validator:
  hidden: [3]
---
§ 1
A dial; the number 3 is scratched beside it.
> hidden number otherwise -> 2
§ 2
> victory
§ 3
> victory
"""
    path = tmp_path / "listed.dd"
    path.write_text(text, "utf-8")
    found = _findings(path)
    assert [(f.code, f.data.get("targets")) for f in found] == [("I019", [2, 3])]
