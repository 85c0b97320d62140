"""Names real books use (issue 12.10): item names with digits in conditions, enemy names that
begin with an ordinal or a number, and a book stat alias that is a word of an enemy's name."""

from __future__ import annotations

import pytest
from dedale import ast
from dedale.language.parser import lark_line_items, parse_text
from dedale.plain.player import EXIT_VICTORY

from .play_helpers import load_errors, load_text, transcript

EN = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"
FR = "---\ntitle: t\nruleset: df-classic\nlanguage: fr\n---\n"


def test_an_item_name_with_a_number_in_a_condition_is_offered_once_taken(tmp_path):
    book = load_text(
        tmp_path,
        EN + "§ 1\n> take Relic 48\n-> 2 (if Relic 48) Use the relic\n-> 3 Walk on\n"
        "§ 2\n> victory\n§ 3\n> death\n",
    )
    choice = book.paragraphs[1].body[1]
    assert isinstance(choice, ast.Choice) and choice.condition.item == "Relic 48"
    assert (choice.condition.span.column, choice.condition.span.end_column) == (10, 18)
    code, text = transcript(book, "1\n")
    assert "Use the relic" in text and code == EXIT_VICTORY


@pytest.mark.parametrize(
    ("line", "item"),
    [
        ("> if Relic 48 -> 3", "Relic 48"),
        ("> if Relic 48 and Key -> 3", "Relic 48"),
        ("-> 3 (if not Relic 48) x", "Relic 48"),
        ("-> 3 (give Relic 48) x", None),
    ],
)
def test_numbers_in_item_names_everywhere_a_name_goes(line, item):
    (parsed,) = lark_line_items(line, 1, "x.dd")
    names = [n.item for n in _walk(parsed) if isinstance(n, ast.HasItem)]
    if item is not None:
        assert item in names
    else:
        assert parsed.costs[0].item == "Relic 48"


def test_a_number_inside_a_name_still_ends_it_before_the_next_word():
    # "status Poisoned lose 1 STAMINA" lacks its colon: the error stays on "1"
    with pytest.raises(Exception) as caught:
        parse_text("§ 1\n> status Poisoned lose 1 STAMINA each paragraph\n", "x.dd")
    (error,) = caught.value.errors
    assert (error.span.line, error.span.column) == (2, 24)


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("> enemy 1st GARGOYLE SKILL 7 STAMINA 6", "1st GARGOYLE"),
        ("> enemy 2nd GARGOYLE: SKILL 7 STAMINA 6", "2nd GARGOYLE"),
        ("> ennemi 2e GARDE HABILETÉ 7 ENDURANCE 6", "2e GARDE"),
        ("> ennemi 1er GARDE HABILETÉ 7 ENDURANCE 6", "1er GARDE"),
        ("> fight 3 GOBLINS SKILL 5 STAMINA 4", "3 GOBLINS"),
        ("> ally 2e LOUP HABILETÉ 6 ENDURANCE 5", "2e LOUP"),
    ],
)
def test_enemy_names_beginning_with_an_ordinal_or_a_number(line, name):
    (parsed,) = lark_line_items(line, 1, "x.dd")
    enemy = parsed.enemies[0] if isinstance(parsed, ast.Fight) else parsed.value
    assert enemy.name == name
    assert enemy.stats[-1][1] in (4, 5, 6)


def test_two_numbered_guards_fight_in_turn_and_the_book_is_won(tmp_path):
    book = load_text(
        tmp_path,
        FR + "§ 1\n> combat l'un après l'autre\n> ennemi 1er GARDE HABILETÉ 1 ENDURANCE 2\n"
        "> ennemi 2e GARDE HABILETÉ 1 ENDURANCE 2\n> victoire -> 2\n§ 2\n> victoire\n",
    )
    assert [e.name for e in book.paragraphs[1].body[0].enemies] == ["1er GARDE", "2e GARDE"]
    code, text = transcript(book, "n\n" * 40, lang="fr", hero=(12, 24, 9))
    assert "1er GARDE" in text and "2e GARDE" in text
    assert code == EXIT_VICTORY


WEREWOLF = (
    "---\ntitle: t\nruleset: df-classic\nlanguage: en\n"
    "rules:\n  stats:\n    LYCANTHROPY: {names: {en: LYCANTHROPY, fr: LYCANTHROPIE},"
    " aliases: [WEREWOLF], roll: '0'}\n---\n"
)


def test_a_stat_alias_may_be_a_word_of_an_enemy_name(tmp_path):
    book = load_text(
        tmp_path, WEREWOLF + "§ 1\n> fight WHITE WEREWOLF SKILL 1 STAMINA 2\n> win -> 2\n"
        "§ 2\n> victory\n",
    )  # fmt: skip
    assert book.paragraphs[1].body[0].enemies[0].name == "WHITE WEREWOLF"


def test_a_stat_in_an_enemy_name_with_its_value_missing_is_still_reported(tmp_path):
    (error,) = load_errors(tmp_path, EN + "§ 1\n> fight\n> enemy ORC SKILL STAMINA 6\n")
    assert error.message == "the enemy `ORC SKILL` has no SKILL"
    assert error.hint == "is a value missing? write it like `SKILL 7`"
    assert (error.span.line, error.span.column) == (8, 9)


def _walk(node):
    from dedale.language.checks import walk

    return list(walk(node))
