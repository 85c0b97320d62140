"""W088 and the path of fights per class (issue 14.10): a class of the ruleset none of
whose item/codeword states reaches a victory paragraph, while another class does."""

from __future__ import annotations

from pathlib import Path

from dedale.language import load_book
from dedale.rules.ruleset import fold
from dedale.validator import validate_path
from dedale.validator.class_reach import class_reach
from dedale.validator.graph import build_graph
from dedale.validator.rules_checks import collect_uses
from dedale.validator.state_start import explore_states

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
ROPE = BOOKS / "W088-class-never-wins.dd"
CLEAN = BOOKS / "class-every-one-wins.dd"
CHOICE = BOOKS / "W088-class-choice.dd"  # `(si classe Scientifique)`: the badge's way


def _kits(book) -> dict[str, set[str]]:
    """Each class id and its kit's folded names (aliases too), from the ruleset's data."""
    ruleset = book.ruleset
    names = {}
    for item in ruleset.items.values():
        every = {fold(item.id), *map(fold, item.names.values()), *map(fold, item.aliases)}
        names.update({name: every for name in every})
    return {
        cls.id: set().union(*(names.get(fold(thing), {fold(thing)}) for thing in cls.kit))
        for cls in ruleset.classes.values()
    }


def test_w088_names_each_class_without_the_rope_and_only_them():
    report = validate_path(ROPE, runs=0, seed=0)
    found = [item for item in report.findings if item.code == "W088"]
    kits = _kits(load_book(ROPE))
    without_rope = sorted(cls for cls, kit in kits.items() if "corde" not in kit)
    assert without_rope and len(without_rope) < len(kits)  # the fixture's premise
    assert sorted(item.data["class"] for item in found) == without_rope
    for item in found:
        assert item.data["class"] in item.message
        assert (item.span.line, item.paragraph) == (9, 1)  # the rope's way, § 1
        assert "paragraph 4" in item.message  # and the card's gate, never passed
    assert [item.code for item in report.findings] == ["W088"] * len(without_rope)


def test_a_clean_df48_5_book_gives_nothing():
    report = validate_path(CLEAN, runs=200, seed=0)
    assert report.findings == []


def test_the_batches_read_as_the_full_exploration():
    """The per-class reach from the batches (twin classes explored once) is the one of
    the full, uncached exploration and of the recorded one."""
    for path in (ROPE, CLEAN, CHOICE):
        book = load_book(path)
        graph = build_graph(book)
        uses = collect_uses(graph)
        reaches = [
            class_reach(explore_states(graph, book, uses, (), record=record, compact=compact))
            for record, compact in ((False, True), (True, True), (False, False))
        ]
        assert reaches[0].reached == reaches[1].reached == reaches[2].reached
        assert reaches[0].moves == reaches[1].moves  # moves: cached effects, recorded steps


def test_the_path_of_fights_takes_only_ways_the_class_can_go():
    book = load_book(CLEAN)
    kits = _kits(book)
    report = validate_path(CLEAN, runs=0, seed=0)
    heroes = report.fight_path.heroes
    assert {hero.class_name for hero in heroes} >= {
        cls for cls, kit in kits.items() if "corde" in kit
    }  # the rope's class has the best path: the strongest level's
    for hero in heroes:
        through_the_well = 3 in hero.paragraphs
        assert through_the_well <= ("corde" in kits[hero.class_name])
    rope = validate_path(ROPE, runs=0, seed=0).fight_path
    assert all("corde" in kits[hero.class_name] for hero in rope.heroes)


def test_the_classes_w088_names_are_those_the_solver_never_wins_with():
    """Independently: the exact solver (dedale solve) with each class's strongest hero,
    who wins the droid's fight surely: 0 exactly for the classes W088 names, > 0 for the
    others."""
    from dedale.solve import clock
    from dedale.solve.graph import solve_book
    from dedale.solve.heroes import landmarks

    for path in (ROPE, CLEAN, CHOICE):
        book = load_book(path)
        named = {
            item.data["class"]
            for item in validate_path(path, runs=0, seed=0).findings
            if item.code == "W088"
        }
        for cls in book.ruleset.classes:
            heroes, _ = landmarks(book.ruleset, cls)
            result = solve_book(book, heroes[-1].values, cls, deadline=clock.now() + 60)
            assert result.complete
            assert (result.win_probability == 0) == (cls in named), (path.name, cls)


def test_a_choice_for_one_class_is_taken_by_that_class_only():
    report = validate_path(CHOICE, runs=0, seed=0)
    found = [item for item in report.findings if item.code == "W088"]
    classes = sorted(load_book(CHOICE).ruleset.classes)
    others = [name for name in classes if name != "Scientifique"]
    assert sorted(item.data["class"] for item in found) == others
    assert {(item.span.line, item.paragraph) for item in found} == {(8, 1)}
    assert [item.code for item in report.findings] == ["W088"] * (len(classes) - 1)
