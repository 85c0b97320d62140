"""Checks the loader cannot reach (it rejects the book first, or the language has no syntax
for the construct yet), exercised on Books built from AST nodes; settings; the graph."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from dedale import ast
from dedale.errors import BookMetadataError
from dedale.rules import load_ruleset
from dedale.span import Span
from dedale.validator import validate_loaded
from dedale.validator.findings import CHECKS, finding
from dedale.validator.graph import build_graph, dice_bounds
from dedale.validator.settings import read_settings

FILE = "units.dd"


def span(line: int, column: int = 1) -> Span:
    return Span(FILE, line, column)


def ref(number: int, line: int) -> ast.ParagraphRef:
    return ast.ParagraphRef(span=span(line, 4), number=number)


def choice(target: int, line: int, condition=None) -> ast.Choice:
    return ast.Choice(span=span(line), target=ref(target, line), text="on", condition=condition)


def num(value: int, line: int = 11) -> ast.Num:
    return ast.Num(span=span(line), value=value)


def goto(target: int, line: int) -> ast.Goto:
    return ast.Goto(span=span(line), target=ref(target, line))


def plus(left: ast.Expr, right: ast.Expr) -> ast.BinOp:
    return ast.BinOp(span=span(11), op="+", left=left, right=right)


def paragraph(number: int, *body: ast.Statement) -> ast.Paragraph:
    return ast.Paragraph(span=span(number * 10), number=number, body=body)


def victory(number: int) -> ast.Paragraph:
    return paragraph(number, ast.Ending(span=span(number * 10 + 1), kind="victory"))


@dataclass
class FakeBook:
    """The parts of dedale.book.Book the validator reads."""

    paragraphs: dict[int, ast.Paragraph]
    ruleset: Any = field(default_factory=lambda: load_ruleset("df-classic"))
    meta: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, int] = field(default_factory=dict)
    start: int = 1


def codes(book: FakeBook, runs: int = 0) -> list[str]:
    return [item.code for item in validate_loaded(book, FILE, runs=runs).findings]


def book_of(*paragraphs: ast.Paragraph, **kwargs) -> FakeBook:
    return FakeBook({p.number: p for p in paragraphs}, **kwargs)


def test_computed_destination_undeclared_then_declared():
    gold = ast.ValueRef(span=span(11, 9), name="gold")
    computed = ast.ComputedRef(span=span(11, 9), expr=plus(gold, num(1)))
    start = paragraph(1, ast.Goto(span=span(11), target=computed))
    book = book_of(start, victory(2))
    assert codes(book) == ["W018", "W013"]  # no E016: the validator cannot tell
    book.meta = {"validator": {"hidden": [2]}}
    assert codes(book) == []  # declared: reachable, and the computed destination is its clue


def test_constant_computed_destination_is_an_edge():
    here_plus_one = ast.ComputedRef(
        span=span(11), expr=plus(ast.CurrentParagraph(span=span(11)), num(1))
    )
    assert (
        codes(book_of(paragraph(1, ast.Goto(span=span(11), target=here_plus_one)), victory(2)))
        == []
    )


def test_unknown_class():
    ruleset = load_ruleset("df48.5")
    known = next(iter(ruleset.classes))
    body = (
        choice(2, 11, ast.HasClass(span=span(11, 8), name="Wizard")),
        choice(2, 12, ast.HasClass(span=span(12, 8), name=known)),
    )
    book = book_of(paragraph(1, *body), victory(2), ruleset=ruleset)
    found = validate_loaded(book, FILE, runs=0).findings
    assert [(f.code, f.span.line) for f in found] == [("E022", 11)]


def test_runtime_error_carries_seed_and_replay(monkeypatch):
    from dedale.game import interpreter

    def crash(*args, **kwargs):
        raise ZeroDivisionError("division by zero in a destination")

    monkeypatch.setattr(interpreter.Game, "new", classmethod(lambda cls, *a, **k: crash()))
    book = book_of(paragraph(1, choice(2, 11)), victory(2))
    found = validate_loaded(book, FILE, runs=5, seed=40).findings
    errors = [f for f in found if f.code == "E040"]
    assert len(errors) == 1  # five crashes of one kind: one finding
    assert "seed 40" in errors[0].message and "--seed 40" in errors[0].hint


def test_dice_table_must_cover_every_roll():
    def table(high: int) -> ast.Paragraph:
        rows = (
            ast.RangeBranch(span=span(12), low=1, high=3, body=(goto(2, 12),)),
            ast.RangeBranch(span=span(13), low=4, high=high, body=(goto(2, 13),)),
        )  # fmt: skip
        roll = ast.RandomRoll(
            span=span(11), dice=ast.DiceRoll(span=span(11), text="1d6"), branches=rows
        )
        return paragraph(1, roll)

    assert codes(book_of(table(6), victory(2))) == []
    assert codes(book_of(table(5), victory(2))) == ["E014"]  # a 6 leaves the reader stuck
    assert dice_bounds("2d6+1") == (3, 13) and dice_bounds("SKILL") is None


def test_statements_after_a_goto_are_never_run():
    body = (goto(2, 11), choice(3, 12))
    graph = build_graph(book_of(paragraph(1, *body), victory(2), victory(3)))
    assert [edge.target for edge in graph.nodes[1].edges] == [2]


def test_settings_from_book_yaml():
    book = book_of(victory(1))
    book.meta = {
        "validator": {
            "ignore": ["w012", "W013@45"], "fight_threshold": 10, "runs": 50, "hidden": [7],
        }
    }  # fmt: skip
    settings = read_settings(book)
    assert settings.ignored_codes == {"W012"} and settings.ignored_at == {("W013", 45)}
    assert settings.fight_threshold == pytest.approx(0.10)
    assert settings.runs == 50 and settings.hidden == (7,)
    assert settings.silences(finding("W013", "x", paragraph=45))
    assert not settings.silences(finding("W013", "x", paragraph=46))
    book.meta = {"validator": {"ignore": {"W013": [1, 2], "I025": "all"}}}
    settings = read_settings(book)
    assert settings.ignored_codes == {"I025"} and ("W013", 2) in settings.ignored_at


def test_unknown_code_in_ignore_is_a_metadata_error():
    book = book_of(victory(1))
    book.meta = {"validator": {"ignore": ["W999"]}}
    with pytest.raises(BookMetadataError):
        read_settings(book)
    assert codes(book) == ["E003"]


def test_codes_are_well_formed():
    for code, check in CHECKS.items():
        assert code == check.code and code[0] == check.severity[0].upper()
    assert len({code[1:] for code in CHECKS}) == len(CHECKS)  # a number is never reused


def test_public_api_is_sorted_and_importable():
    import dedale.validator as validator

    assert validator.__all__ == sorted(validator.__all__)
    for name in validator.__all__:
        assert getattr(validator, name) is not None


def test_hero_profiles_and_overall_rows_with_classes():
    from dedale.validator.fights import Odds, hero_profiles, overall

    ruleset = load_ruleset("df48.5")
    heroes = hero_profiles(ruleset)
    assert {hero.class_name for hero in heroes} == set(ruleset.classes)
    assert len(heroes) == 3 * len(ruleset.classes)
    by_class = {
        (h.class_name, h.level): dict(h.stats) for h in heroes if h.level != "median"
    }  # fmt: skip
    for name, cls in ruleset.classes.items():
        assert by_class[(name, "weakest")]["SKILL"] == cls.stats["SKILL"].min()
        assert by_class[(name, "strongest")]["SKILL"] == cls.stats["SKILL"].max()
    wins = {"weakest": [0.2, 0.1, 0.3], "median": [0.5, 0.7, 0.6], "strongest": [0.8, 0.9, 0.7]}
    odds = [
        Odds(hero, "none", wins[hero.level][index // 3])
        for index, hero in enumerate(heroes)
    ]  # fmt: skip
    rows = {row.hero.level: row.win for row in overall(odds)}
    assert rows == {"weakest": 0.1, "median": 0.6, "strongest": 0.9}


def test_state_explorer_knows_the_class_of_each_start():
    from dedale.validator.graph import build_graph
    from dedale.validator.state_explorer import Explorer
    from dedale.validator.state_start import _kits

    ruleset = load_ruleset("df48.5")
    name = next(iter(ruleset.classes))
    kits = _kits(ruleset, set())
    assert len(kits) == len(ruleset.classes) and all(kit == frozenset() for kit in kits.values())
    book = book_of(victory(1), ruleset=ruleset)
    explorer = Explorer(build_graph(book), book, set(), set())
    is_class = ast.HasClass(span=span(1), name=name)
    assert explorer.value(is_class, frozenset(), frozenset()) is None  # no class known yet
    explorer.hero_class = next(names for names in kits if name.casefold() in names)
    assert explorer.value(is_class, frozenset(), frozenset()) is True
    assert (
        explorer.value(ast.Not(span=span(1), operand=is_class), frozenset(), frozenset()) is False
    )


def test_a_choice_offered_on_one_path_only_leaves_the_other_stuck():
    has_key = ast.HasItem(span=span(11, 5), item="Key")
    conditional = ast.If(span=span(11), condition=has_key, then=(choice(2, 12),))
    start = paragraph(1, ast.GainItem(span=span(10, 3), item="Key"), conditional)
    assert codes(book_of(start, victory(2))) == ["E014"]
    otherwise = ast.If(
        span=span(11), condition=has_key, then=(choice(2, 12),), otherwise=(goto(2, 13),)
    )
    assert codes(book_of(paragraph(1, otherwise), victory(2))) == ["E023"]  # no Key given


def test_item_marks_are_boxes_unless_misspelt():
    def gain(line: int, tag: str) -> ast.GainItem:
        mark = ast.ItemEffect(span=span(line, 20), tag=tag)  # no bonus: a box of the sheet
        return ast.GainItem(span=span(line), item="Flask", effects=(mark,))

    body = (gain(10, "potion"), gain(11, "pilotag"), goto(2, 12))
    found = [
        (f.span.line, f.hint)
        for f in validate_loaded(
            book_of(paragraph(1, *body), victory(2), ruleset=load_ruleset("df48.5")), FILE, runs=0
        ).findings
        if f.code == "I060"
    ]
    assert found == [(11, "did you mean (pilotage)?")]  # (potion): a box, not a misspelling
    classic = book_of(paragraph(1, *body), victory(2))  # df-classic: no tag known at all
    assert not [f for f in validate_loaded(classic, FILE, runs=0).findings if f.code == "I060"]


def test_tags_no_ability_acts_on():
    def modifier(line: int, *tags: str) -> ast.Modifier:
        return ast.Modifier(span=span(line, 19), value=-2, tags=tags)

    test = ast.Test(
        span=span(11),
        name="skill",
        modifiers=(
            modifier(11, "pilotage"),  # a spelling of piloting in the ruleset's tags
            modifier(11, "PILOTING"),
            modifier(11, "night", "piloting"),  # one tag acted on is enough
            modifier(12, "night"),
            modifier(13, "pilotng"),
        ),
    )
    effect = ast.ItemEffect(span=span(14, 20), stat="SKILL", amount=1, tag="pilotag")
    gain = ast.GainItem(span=span(14), item="Star Chart", effects=(effect,))
    body = (test, gain, goto(2, 15))
    book = book_of(paragraph(1, *body), victory(2), ruleset=load_ruleset("df48.5"))
    found = [f for f in validate_loaded(book, FILE, runs=0).findings if f.code == "I060"]
    assert [(f.span.line, f.hint) for f in found] == [
        (12, "tags the ruleset's abilities act on: piloting, pilotage, pilotage inconnu, "
         "unknown-technology piloting, technologie inconnue"),
        (13, "did you mean (piloting)?"),
        (14, "did you mean (pilotage)?"),
    ]  # fmt: skip
    classic = book_of(paragraph(1, *body), victory(2))  # df-classic: no tagged abilities
    found = [f for f in validate_loaded(classic, FILE, runs=0).findings if f.code == "I060"]
    assert len(found) == 6 and found[0].hint.startswith("no ability of ruleset df-classic")
