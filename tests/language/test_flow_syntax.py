"""Indented blocks (issue 13.3): a line belongs to a block by its leading whitespace, not by
where its keyword starts; effects under a choice are optional and only effects are taken."""

from __future__ import annotations

from dedale import ast
from dedale.language import parse_text


def _body(text: str) -> tuple:
    return parse_text("§ 1\n" + text + "-> 2 Go\n\n§ 2\n> victory\n", "t.dd").paragraphs[0].body


def test_an_unindented_line_after_a_choice_is_a_rule_of_the_paragraph():
    body = _body("-> 2 Run\n> lose 1 STAMINA\n>   gain 1 LUCK\n")
    assert [type(s) for s in body] == [ast.Choice, ast.ChangeValue, ast.ChangeValue, ast.Choice]
    assert body[0].effects == ()


def test_indented_effects_belong_to_the_choice_above():
    body = _body("-> 2 Run\n\t> lose 1 STAMINA\n  > take Rope\n  -> 2 Hide\n")
    assert [type(s) for s in body] == [ast.Choice, ast.Choice, ast.Choice]
    assert [type(e) for e in body[0].effects] == [ast.ChangeValue, ast.GainItem]


def test_extra_spaces_after_the_marker_do_not_indent():
    body = _body("> if Key:\n  > gain 1 LUCK\n>   lose 1 STAMINA\n")
    assert [type(s) for s in body] == [ast.If, ast.ChangeValue, ast.Choice]
    assert [type(e) for e in body[0].then] == [ast.ChangeValue]
