"""Hostile input at load time (issue 11: items 3, 4, 6, 7, 9, 11): each case ends in a typed
error at its file:line:column, quickly; big inputs are generated here, never committed."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from dedale import limits
from dedale.errors import BookLoadError, BookSyntaxError, DedaleError, RulesetError, UsageError
from dedale.language import load_book
from dedale.language.parser import lark_line_items
from dedale.rules import load_ruleset

BOOK = "§ 1\nThe start.\n-> 2 Go on\n\n§ 2\nThe end.\n> victory\n"


def write_book(folder: Path, text: str = BOOK, meta: str = "title: T\nlanguage: en\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.yaml").write_text(meta, encoding="utf-8")
    (folder / "p.dd").write_text(text, encoding="utf-8")
    return folder


def load_errors(path: Path, seconds: float = 5.0) -> list[DedaleError]:
    """The errors of loading ``path`` (which must fail), within ``seconds``."""
    started = time.perf_counter()
    with pytest.raises(BookLoadError) as caught:
        load_book(path)
    assert time.perf_counter() - started < seconds
    return caught.value.errors


def one_error(path: Path, seconds: float = 5.0) -> DedaleError:
    errors = load_errors(path, seconds)
    assert len(errors) == 1, [str(e) for e in errors]
    error = errors[0]
    assert error.span is not None and error.hint
    return error


# --------------------------------------------------------------------------- 11.3 YAML bombs
def billion_laughs(indent: str = "") -> str:
    lines = [f"{indent}a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 9):
        name, previous = chr(97 + level), chr(96 + level)
        refs = ", ".join([f"*{previous}"] * 9)
        lines.append(f"{indent}{name}: &{name} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_under_rules_in_book_yaml(tmp_path):
    meta = "title: T\nlanguage: en\nrules:\n" + billion_laughs("  ")
    error = one_error(write_book(tmp_path, meta=meta))
    assert type(error).__name__ == "BookMetadataError"
    assert "aliases" in error.message
    assert error.span.file.endswith("book.yaml") and error.span.line > 3


def test_alias_bomb_in_an_authors_ruleset(tmp_path):
    (tmp_path / "rules.yaml").write_text("name: mine\n" + billion_laughs(), encoding="utf-8")
    error = one_error(write_book(tmp_path, meta="title: T\nlanguage: en\nruleset: rules.yaml\n"))
    assert isinstance(error, RulesetError)
    assert error.span.file == "rules.yaml" and error.span.line > 1


@pytest.mark.parametrize("where", ["book", "ruleset"])
def test_recursive_alias(tmp_path, where):
    if where == "book":
        meta = "title: T\nlanguage: en\nrules:\n  stats: &s {SKILL: *s}\n"
    else:
        (tmp_path / "r.yaml").write_text("name: r\nstats: &s {SKILL: *s}\n", encoding="utf-8")
        meta = "title: T\nlanguage: en\nruleset: r.yaml\n"
    error = one_error(write_book(tmp_path, meta=meta))
    assert "contains itself" in error.message
    assert error.span.line == (4 if where == "book" else 2)


def test_too_many_yaml_values(tmp_path):
    meta = "title: T\nlanguage: en\nvalidator:\n" + "".join(
        f" k{i}: 1\n" for i in range(limits.MAX_YAML_NODES // 2)
    )
    assert len(meta) < limits.MAX_YAML_BYTES
    error = one_error(write_book(tmp_path, meta=meta))
    assert "YAML values" in error.message


def test_yaml_nested_too_deep(tmp_path):
    meta = "title: T\nlanguage: en\nrules: " + "[" * 300 + "]" * 300 + "\n"
    error = one_error(write_book(tmp_path, meta=meta))
    assert "nested" in error.message


# --------------------------------------------------------------------------- 11.4 sizes
def test_single_file_book_has_a_size_cap(tmp_path):
    book = tmp_path / "big.dd"
    with book.open("w", encoding="utf-8") as handle:
        handle.write("---\ntitle: Big\n---\n§ 1\n")
        line = "A line of prose. " * 50 + "\n"
        handle.write(line * (limits.MAX_FILE_BYTES // len(line) + 1))
    error = one_error(book)
    assert "too large" in error.message and error.span.file == str(book)


def test_too_many_paragraphs_stops_before_parsing(tmp_path):
    count = limits.MAX_PARAGRAPHS + 1
    text = "".join(f"§ {n}\n> victory\n" for n in range(1, count + 1))
    error = one_error(write_book(tmp_path, text), seconds=3.0)
    assert f"more than {limits.MAX_PARAGRAPHS} paragraphs" in error.message


def test_too_many_paragraph_files(tmp_path):
    folder = write_book(tmp_path)
    for n in range(limits.MAX_FILES + 1):
        (folder / f"f{n:05}.dd").write_text("", encoding="utf-8")
    error = one_error(folder)
    assert "paragraph files" in error.message


def test_a_120_kb_condition_line(tmp_path):
    condition = " and ".join(["Rope"] * 24_000)
    text = f"§ 1\nStart.\n-> 2 (if {condition}) Climb\n-> 2 Walk\n\n§ 2\nEnd.\n> victory\n"
    error = one_error(write_book(tmp_path, text), seconds=3.0)
    assert "too long" in error.message
    assert (error.span.line, error.span.column) == (3, limits.MAX_RULE_LINE + 1)


def test_expression_with_too_many_parts(tmp_path):
    condition = " and ".join(["R"] * (limits.MAX_EXPRESSION_TERMS + 2))
    assert len(condition) < limits.MAX_RULE_LINE
    text = f"§ 1\nStart.\n-> 2 (if {condition}) Climb\n-> 2 Walk\n\n§ 2\nEnd.\n> victory\n"
    error = one_error(write_book(tmp_path, text))
    assert "parts" in error.message and error.span.line == 3


def test_parentheses_nested_too_deep(tmp_path):
    condition = "(" * 200 + "Rope" + ")" * 200
    text = f"§ 1\nStart.\n-> 2 (if {condition}) Climb\n-> 2 Walk\n\n§ 2\nEnd.\n> victory\n"
    error = one_error(write_book(tmp_path, text))
    assert "nested" in error.message
    assert error.span.line == 3 and error.span.column == len("-> 2 (if ") + limits.MAX_NESTING


def test_a_prose_line_too_long(tmp_path):
    text = "§ 1\n" + "word " * (limits.MAX_PROSE_LINE // 5 + 1) + "\n> victory\n"
    error = one_error(write_book(tmp_path, text))
    assert error.span.line == 2 and "too long" in error.message


# --------------------------------------------------------------------------- 11.6 numbers
HUGE = "9" * 5000  # past Python's 4,300-digit int() limit
LONG = "9" * 900  # as long as a rule line allows


def test_a_number_past_pythons_digit_limit():
    with pytest.raises(BookLoadError) as caught:
        lark_line_items(f"> gain {HUGE} gold", 4, "p.dd")
    (error,) = caught.value.errors
    assert (error.span.file, error.span.line, error.span.column) == ("p.dd", 4, 8)
    assert "too long" in error.message and error.hint
    with pytest.raises(BookSyntaxError) as caught:
        limits.number(HUGE, limits.PARAGRAPH, None)
    assert "too long" in caught.value.message


def test_a_rule_line_holding_a_5000_digit_number(tmp_path):
    error = one_error(write_book(tmp_path, f"§ 1\n> gain {HUGE} gold\n> victory\n"))
    assert error.span.line == 2 and "too long" in error.message


@pytest.mark.parametrize(
    "text, line",
    [
        (f"§ 1\n> gain {LONG} gold\n> victory\n", 2),
        (f"§ 1\n-> {LONG}\n", 2),
        (f"§ 1\n-> {LONG} Go on\n", 2),
        (f"§ {LONG}\n> victory\n", 1),
        (f"§ 1\n> fight\n> enemy OGRE SKILL 7 STAMINA {LONG}\n> win -> 1\n", 3),
        (f"§ 1\n> fight\n> enemy OGRE SKILL 7 STAMINA -{LONG}\n> win -> 1\n", 3),
        (f"§ 1\n> test your luck\n> lucky -> {LONG}\n> unlucky -> 1\n", 3),
        (f"§ 1\n-> 1 (pay {LONG} gold) Buy\n", 2),
        (f"§ 1\n> roll 1d6\n> 1-{LONG} -> 1\n", 3),
        ("§ 1\n> gain 1000000 gold\n> victory\n", 2),
        ("§ 1\n> fight\n> enemy OGRE SKILL 7 STAMINA 100000000\n> win -> 1\n", 3),
    ],
    ids=lambda value: value[:40] if isinstance(value, str) else str(value),
)
def test_numbers_past_the_digit_limit(tmp_path, text, line):
    errors = load_errors(write_book(tmp_path, text))
    assert any(e.span and e.span.line == line for e in errors), [str(e) for e in errors]
    numbers = [e for e in errors if "number" in e.message or "range" in e.message]
    assert numbers and numbers[0].span.line == line and numbers[0].hint
    assert all(len(e.message) < 200 for e in errors)


def test_start_in_book_yaml_past_the_digit_limit(tmp_path):
    error = one_error(write_book(tmp_path, meta=f"title: T\nlanguage: en\nstart: {HUGE}\n"))
    assert error.span.line == 3 and "too long" in error.message


def test_ruleset_value_past_the_digit_limit(tmp_path):
    meta = f"title: T\nlanguage: en\nrules:\n  counters:\n    gold: {{initial: {HUGE}}}\n"
    error = one_error(write_book(tmp_path, meta=meta))
    assert error.span.line == 5


# --------------------------------------------------------------------------- 11.7 symlinks
def test_a_listed_file_that_links_to_itself(tmp_path):
    folder = write_book(tmp_path, meta="title: T\nlanguage: en\nfiles: [p.dd, loop.dd]\n")
    os.symlink("loop.dd", folder / "loop.dd")
    error = one_error(folder)
    assert "leads back to itself" in error.message
    assert (error.span.line, error.span.column) == (3, 15)


def test_a_found_file_that_links_to_itself(tmp_path):
    folder = write_book(tmp_path)
    os.symlink("loop.dd", folder / "loop.dd")
    error = one_error(folder)
    assert "leads back to itself" in error.message and error.span.file.endswith("loop.dd")


def test_a_ruleset_that_links_to_itself(tmp_path):
    folder = write_book(tmp_path, meta="title: T\nlanguage: en\nruleset: loop.yaml\n")
    os.symlink("loop.yaml", folder / "loop.yaml")
    error = one_error(folder)
    assert isinstance(error, RulesetError) and "leads back to itself" in error.message
    assert error.span.line == 3


def test_book_yaml_linking_out_of_the_book(tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("title: Not yours\n", encoding="utf-8")
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "p.dd").write_text(BOOK, encoding="utf-8")
    os.symlink(outside, folder / "book.yaml")
    error = one_error(folder)
    assert "outside the book folder" in error.message
    assert error.span.file.endswith("book.yaml")


def test_book_yaml_linking_to_itself(tmp_path):
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "p.dd").write_text(BOOK, encoding="utf-8")
    os.symlink("book.yaml", folder / "book.yaml")
    error = one_error(folder)
    assert "leads back to itself" in error.message


# --------------------------------------------------------------------------- 11.9 long names
@pytest.mark.parametrize("name", ["x" * 5000, "y" * 300 + ".yaml"])
def test_a_ruleset_name_longer_than_a_file_name(tmp_path, name):
    error = one_error(write_book(tmp_path, meta=f"title: T\nlanguage: en\nruleset: {name}\n"))
    assert isinstance(error, RulesetError) and error.span.line == 3
    assert "unknown ruleset" in error.message or "not found" in error.message
    assert len(error.message) < 200


def test_load_ruleset_with_a_long_name_has_a_did_you_mean():
    with pytest.raises(RulesetError) as caught:
        load_ruleset("df-classic" + "c" * 4000)
    assert "unknown ruleset" in caught.value.message


# --------------------------------------------------------------------------- 11.11 dice
@pytest.mark.parametrize(
    "line, word",
    [
        ("> lose 1000000d1000000 STAMINA", "1000000d1000000"),
        ("> lose 0d6 STAMINA", "0d6"),
        ("> lose 1d0 STAMINA", "1d0"),
        ("> lose 101d6 STAMINA", "101d6"),
        ("> lose 1d1001 STAMINA", "1d1001"),
        (f"> lose 1d{LONG} STAMINA", f"1d{LONG}"),
        ("> roll 0d6\n> 1-6 -> 1", "0d6"),
    ],
    ids=lambda value: value[:40],
)
def test_dice_no_book_can_roll_are_load_errors(tmp_path, line, word):
    text = f"§ 1\nStart.\n{line}\n-> 1 Again\n"
    error = one_error(write_book(tmp_path, text))
    assert error.span.line == 3 and error.span.file.endswith("p.dd")
    assert error.span.column == line.index(word) + 1


@pytest.mark.parametrize("dice", ["99999999d6", "1d99999999", "0d6", f"1d{LONG}"], ids=len)
def test_dice_in_enemy_lines_keep_their_position(tmp_path, dice):
    line = f"> enemy OGRE SKILL 7 STAMINA {dice}"
    text = f"§ 1\nStart.\n> fight\n{line}\n> win -> 1\n"
    error = one_error(write_book(tmp_path, text))
    assert error.span.file.endswith("p.dd") and "<dice>" not in str(error)
    assert (error.span.line, error.span.column) == (4, line.index(dice) + 1)


def test_dedale_odds_with_a_ruleset_name_longer_than_a_file_name(capsys):
    from dedale.cli import main

    for name in ("x" * 300, "x" * 300 + ".yaml"):
        code = main(
            ["odds", "--lang", "en", "--rules", name, "--hero", "10", "20", "--enemy", "8", "10"]
        )
        assert code == 2
        err = capsys.readouterr().err
        assert "unknown ruleset" in err or "not found" in err


def test_alias_bomb_in_a_single_file_front_matter(tmp_path):
    book = tmp_path / "b.dd"
    book.write_text("---\ntitle: T\nrules:\n" + billion_laughs("  ") + "---\n§ 1\n> victory\n")
    error = one_error(book)
    assert "aliases" in error.message and error.span.line > 4


def test_exact_odds_of_huge_dice_are_refused_not_computed():
    from dedale.errors import DiceExpressionError
    from dedale.rules import parse_dice

    expr = parse_dice("100d1000")
    assert (expr.min(), expr.max()) == (100, 100_000)
    started = time.perf_counter()
    with pytest.raises(DiceExpressionError):
        expr.distribution()
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize(
    "line",
    ["> " + " " * 4_000_000 + "x//", "prose " + " " * 4_000_000 + "x // y"],
    ids=["rule", "prose"],
)
def test_a_4_mb_line_with_a_comment_marker_is_refused_quickly(tmp_path, line):
    error = one_error(write_book(tmp_path, f"§ 1\n{line}\n> victory\n"), seconds=3.0)
    assert error.span.line == 2 and "too long" in error.message


def test_one_typo_in_a_big_file_is_found_in_linear_time(tmp_path):
    body = "".join(
        f"§ {n}\nText.\n> gain 1 gold\n> lose 1 gold\n-> {n + 1} Go on\n" for n in range(1, 3000)
    )
    lines = body.count("\n")
    error = one_error(write_book(tmp_path, body + "§ 3000\n> lose 2\n> victory\n"), seconds=10)
    assert error.span.line == lines + 2 and "what to change" in error.message


def test_syntax_errors_of_a_file_stop_after_a_hundred(tmp_path):
    errors = load_errors(write_book(tmp_path, "§ 1\n" + "> lose 2\n" * 5000 + "> victory\n"))
    assert len(errors) == limits.MAX_SYNTAX_ERRORS + 1
    (stopped,) = [e for e in errors if "not checked" in e.message]
    assert stopped.span.line == 101 and stopped.hint


@pytest.mark.parametrize("roll", ["+".join(["1d6"] * 300), "+".join(["1d6"] * 12) + "+99d6"])
def test_a_ruleset_roll_with_too_many_terms_or_dice(tmp_path, roll):
    meta = f"title: T\nlanguage: en\nrules:\n  stats: {{SKILL: {{roll: {roll}}}}}\n"
    error = one_error(write_book(tmp_path, meta=meta), seconds=2.0)
    assert isinstance(error, RulesetError) and error.span.line == 4


def test_a_fifo_is_never_read(tmp_path):
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "p.dd").write_text(BOOK, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo")
    os.symlink(tmp_path / "fifo", folder / "book.yaml")  # outside: refused before reading
    assert "outside" in one_error(folder).message
    os.remove(folder / "book.yaml")
    os.mkfifo(folder / "book.yaml.fifo")
    os.symlink("book.yaml.fifo", folder / "book.yaml")
    assert "not a regular file" in one_error(folder).message
    os.mkfifo(tmp_path / "single.dd")
    with pytest.raises(UsageError):
        load_book(tmp_path / "single.dd")


def test_a_long_text_aliased_many_times(tmp_path):
    meta = (
        'title: T\nlanguage: en\nauthor: &a "'
        + "x" * 100_000
        + '"\nitems: ['
        + ", ".join(["*a"] * 20)
        + "]\n"
    )
    error = one_error(write_book(tmp_path, meta=meta))
    assert "characters" in error.message and error.span.line == 4


def test_overrides_given_as_data_that_contain_themselves():
    stats: dict = {}
    stats["SKILL"] = stats
    with pytest.raises(RulesetError) as caught:
        load_ruleset("df-classic", {"stats": stats})
    assert "contains itself" in caught.value.message


def test_deep_flow_nesting_is_refused_before_the_yaml_parser(tmp_path):
    """Found by the fuzz campaign: ruamel took 12 s on 2,000 nested `[`; a linear scan
    refuses them first, at the bracket past the bound."""
    import time

    from dedale.errors import BookLoadError
    from dedale.language import load_book

    path = tmp_path / "deep.dd"
    path.write_text(
        "---\ntitle: Deep\nrules: " + "[" * 60_000 + "\n---\n§ 1\n> victory\n", encoding="utf-8"
    )
    started = time.monotonic()
    with pytest.raises(BookLoadError) as raised:
        load_book(path)
    assert time.monotonic() - started < 2
    error = raised.value.errors[0]
    assert "nested more than 40 deep" in str(error.message)
    assert (error.span.line, error.span.column) == (3, 48)
