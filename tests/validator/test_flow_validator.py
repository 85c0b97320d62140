"""The validator reads paragraphs in order (issue 13.5) and sees the effects of choices
(issue 13.3): a choice before a test is offered there only (a paragraph whose only choice
stands before a test that may fall through is a dead end), a choice before a `take` is
gated by the state at that point, an item a choice gives is obtainable, and the flow test
book is clean."""

from __future__ import annotations

from pathlib import Path

from dedale.validator import validate_path

FLOW = Path(__file__).resolve().parents[1] / "books_extra" / "flow"
HEAD = '---\ntitle: "t"\nlanguage: en\nruleset: df-classic\n---\n'


def _codes(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    path = tmp_path / "book.dd"
    path.write_text(HEAD + text, "utf-8")
    found = validate_path(path, runs=0, seed=0).findings
    return sorted((f.code, f.span.line) for f in found if f.severity != "info")


CLIFF = """§ 1
A stair climbs the cliff.
-> 2 Go down to the ford
> test your luck
> lucky -> 2
> unlucky: lose 2 STAMINA
{after}
§ 2
> victory
"""


def test_a_choice_before_a_test_that_falls_through_leaves_a_dead_end(tmp_path):
    assert _codes(tmp_path, CLIFF.format(after="")) == [("E014", 6)]


def test_a_choice_after_the_test_is_offered_at_the_end(tmp_path):
    assert _codes(tmp_path, CLIFF.format(after="-> 2 Climb on\n")) == []


def test_a_choice_before_a_take_does_not_see_the_item(tmp_path):
    text = """§ 1
A lamp lies on a shelf by the cellar door.
-> 2 (if Lamp) Go down into the dark cellar
> take Lamp
-> 3 Leave the house

§ 2
> victory

§ 3
> victory
"""
    assert _codes(tmp_path, text) == [("W029", 8)]
    # written after the take, the same choice is passable
    assert (
        _codes(tmp_path, text.replace("> take Lamp\n", "").replace("§ 1\n", "§ 1\n> take Lamp\n"))
        == []
    )


def test_an_item_a_choice_gives_is_obtainable(tmp_path):
    text = """§ 1
A stall by the road.
> gain 2 gold
-> 2 (pay 1 gold, take Lamp) Buy a lamp
-> 3 Walk on

§ 2
-> 3 (if Lamp) Light the lamp and go down
-> 3 Walk on

§ 3
> victory
"""
    assert _codes(tmp_path, text) == []
    assert ("E023", 13) in _codes(tmp_path, text.replace(", take Lamp", ""))


def test_the_flow_book_is_clean():
    found = validate_path(FLOW, runs=200, seed=0).findings
    assert [(f.code, f.message) for f in found] == []
