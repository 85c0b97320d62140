"""The book's own flags and counters (issue 13 §4) as authors write them: book.yaml's
``state:`` in English and French, the directives and conditions in both keyword languages,
and a located error with a "did you mean" for each misuse. Books without ``state:`` keep
their meaning (bare names are items)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale import ast
from dedale.errors import BookLoadError
from dedale.game import Game
from dedale.language import load_book

STATE_EN = """state:
  flags:
    calf following: {name: The calf follows you}
  counters:
    lieutenants met: {max: 3}
"""
STATE_FR = """état:
  drapeaux:
    veau qui suit: {nom: Le veau vous suit, feuille: notes}
  compteurs:
    lieutenants rencontrés: {feuille: caractéristiques, départ: 1, maximum: 3}
"""


def write(root: Path, body: str, head: str = STATE_EN, lang: str = "en") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "book.yaml").write_text(f"title: t\nlanguage: {lang}\n{head}", "utf-8")
    (root / "p.dd").write_text(body, "utf-8")
    return root


def errors(root: Path) -> list[tuple[str, int, int, str, str]]:
    """(file name, line, column, message, hint) of every load error."""
    with pytest.raises(BookLoadError) as caught:
        load_book(root)
    return [
        (Path(e.span.file).name, e.span.line, e.span.column, str(e.message), str(e.hint or ""))
        for e in caught.value.errors
    ]


def body_of(book, number: int = 1) -> tuple:
    return book.paragraphs[number].body


def test_english_directives_and_conditions(tmp_path):
    book = load_book(write(tmp_path, (
        "§ 1\n> note calf following\n> add 2 to lieutenants met\n> remove 1 from lieutenants met\n"
        "> clear calf following\n> take 2 Torches\n"
        "> if lieutenants met >= 1 and not calf following: go to 2\n"
        "-> 2 (if you have 2 Torches) On\n-> 2 (if 2 Torches or calf following) On\n"
        "\n§ 2\n> victory\n"
    )))  # fmt: skip
    body = body_of(book)
    assert body[0] == ast.SetFlag(span=body[0].span, name="calf following")
    assert (body[1].op, body[1].name, body[2].op) == ("add", "lieutenants met", "sub")
    assert type(body[3]) is ast.ClearFlag
    condition = body[5].condition
    assert type(condition.operands[0]) is ast.Compare
    assert condition.operands[1] == ast.Not(
        span=condition.operands[1].span,
        operand=ast.HasFlag(span=condition.operands[1].operand.span, name="calf following"),
    )
    assert body[6].condition == ast.HasItem(span=body[6].condition.span, item="Torches", count=2)
    assert [type(c) for c in body[7].condition.operands] == [ast.HasItem, ast.HasFlag]


def test_french_keywords_and_book_yaml(tmp_path):
    book = load_book(write(tmp_path, (
        "§ 1\n> notez veau qui suit\n> ajoutez 1 à lieutenants rencontrés\n"
        "> retirez 1 de lieutenants rencontrés\n> rayez veau qui suit\n> effacez Veau Qui Suit\n"
        "> prenez 2 Dents\n"
        "> si vous avez 2 Dents et lieutenants rencontrés >= 1: allez au 2\n"
        "-> 2 (si pas veau qui suit) Suite\n\n§ 2\n> victoire\n"
    ), head=STATE_FR, lang="fr"))  # fmt: skip
    body = body_of(book)
    assert [type(s) for s in body[:5]] == [
        ast.SetFlag, ast.ChangeCount, ast.ChangeCount, ast.ClearFlag, ast.ClearFlag,
    ]  # fmt: skip
    assert body[4].name == "veau qui suit"  # any case, any accents: the declared name
    entry = book.meta.state.counter("lieutenants rencontres")
    assert (entry.sheet, entry.start, entry.maximum) == ("stats", 1, 3)
    assert book.meta.state.flag("veau qui suit").display == "Le veau vous suit"
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", lang="fr")
    while game.next() is not None:
        pass
    assert game.outcome == "victory" and game.state.counts == {} and game.state.flags == set()


def test_counters_read_in_expressions_and_computed_destinations(tmp_path):
    book = load_book(write(tmp_path, (
        "§ 1\nYou met {lieutenants met}.\n> add 1 to lieutenants met\n"
        "> add 1d6 to lieutenants met\n"
        "-> [lieutenants met * 10] Go\n\n§ 30\nYou met {lieutenants met}.\n> victory\n"
    )))  # fmt: skip
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", lang="en")
    game.rng.force([4])
    seen = []
    for _ in range(50):
        item = game.next()
        if item is None:
            break
        seen.append(item)
        if type(item).__name__ == "ChoosePrompt":
            assert item.options[0].target == 30
            game.answer(item.options[0].index)
    assert game.state.counts == {"lieutenants met": 3}  # 1, then 1 + 4, capped at 3
    assert "You met 3." in [getattr(e, "text", None) for e in seen]


def test_a_counter_stays_within_zero_and_its_maximum(tmp_path):
    book = load_book(write(tmp_path, (
        "§ 1\n> add 9 to lieutenants met\n> if lieutenants met = 3: note calf following\n"
        "> remove 7 from lieutenants met\n> victory\n"
    )))  # fmt: skip
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", lang="en")
    while game.next() is not None:
        pass
    assert game.state.flags == {"calf following"} and game.state.counts == {}


def test_a_single_word_counter_takes_the_usual_forms(tmp_path):
    head = "state:\n  counters: [lieutenants]\n"
    book = load_book(write(tmp_path, (
        "§ 1\n> gain 2 lieutenants\n> lose 1 lieutenants\n> set lieutenants to 5\n"
        "-> 2 (if lieutenants > 4) On\n\n§ 2\n> victory\n"
    ), head=head))  # fmt: skip
    assert [(s.op, type(s)) for s in body_of(book)[:3]] == [
        ("add", ast.ChangeCount), ("sub", ast.ChangeCount), ("set", ast.ChangeCount),
    ]  # fmt: skip


def test_books_without_state_are_unchanged(tmp_path):
    root = write(tmp_path, (
        "§ 1\n> add 3 to gold\n-> 2 (if Rope) Climb\n-> 2 (if 2 Rope) Climb twice\n"
        "\n§ 2\n> victory\n"
    ), head="")  # fmt: skip
    body = body_of(load_book(root))
    assert body[0] == ast.ChangeValue(span=body[0].span, op="add", name="gold",
                                      amount=body[0].amount)  # fmt: skip
    assert [type(c.condition) for c in body[1:3]] == [ast.HasItem, ast.HasItem]


MISUSES = [
    ("§ 1\n> note met lieutenant\n> victory\n", "",
     ("p.dd", 2, 3, "`met lieutenant` is not a flag of this book", "declare it in book.yaml")),
    ("§ 1\n> note calf folowing\n> victory\n", STATE_EN,
     ("p.dd", 2, 3, "`calf folowing` is not a flag of this book",
      "did you mean `calf following`?")),
    ("§ 1\n> note lieutenants met\n> victory\n", STATE_EN,
     ("p.dd", 2, 3, "`lieutenants met` is not a flag of this book",
      "`lieutenants met` is a counter: `add 1 to lieutenants met`")),
    ("§ 1\n> add 1 to lieutenant met\n> victory\n", STATE_EN,
     ("p.dd", 2, 3, "`lieutenant met` is not a counter of this book",
      "did you mean `lieutenants met`?")),
    ("§ 1\n-> 2 (if calf folowing) On\n\n§ 2\n> victory\n", STATE_EN,
     ("p.dd", 2, 10, "`calf folowing` is neither a flag, a counter nor an item of this book",
      "did you mean `calf following`?")),
    ("§ 1\n> if 2 calf following: victory\n> death\n", STATE_EN,
     ("p.dd", 2, 6, "`calf following` is a flag: it is set or not, it has no count",
      "write `if calf following` or `if not calf following`")),
    ("§ 1\n> restore lieutenants\n> victory\n", "state:\n  counters: [lieutenants]\n",
     ("p.dd", 2, 3, "`lieutenants` is a counter of the book: add to it, take from it or set it",
      "`add 1 to lieutenants`")),
]  # fmt: skip


@pytest.mark.parametrize(("body", "head", "expected"), MISUSES)
def test_a_misuse_is_a_located_error(tmp_path, body, head, expected):
    found = errors(write(tmp_path, body, head=head))
    assert len(found) == 1, found
    file, line, column, message, hint = found[0]
    assert (file, line, column, message) == expected[:4]
    assert expected[4] in hint


BAD_YAML = [
    ("state: [calf]\n", (3, 8, "`state` must be a mapping with `flags:` and `counters:`")),
    ("state:\n  flag: [calf]\n", (4, 3, "unknown key `flag`")),
    ("state:\n  flags: calf\n", (4, 3, "`flags` must be a list of names")),
    ("state:\n  flags:\n    calf: {shown: no}\n", (5, 12, "unknown key `shown`")),
    ("state:\n  flags:\n    calf: {start: 1}\n", (5, 12, "unknown key `start`")),
    ("state:\n  flags:\n    calf: {sheet: left}\n", (5, 19, "unknown sheet place `left`")),
    ("state:\n  counters:\n    met: {start: 4, max: 3}\n", (5, 18, "`met` starts above")),
    ("state:\n  counters:\n    met: {start: -1}\n", (5, 18, "`start` must be a whole number")),
    ("state:\n  flags: [calf, Calf]\n", (4, 17, "`Calf` is declared twice")),
    ("state:\n  counters: [gold]\n", (4, 14, "`gold` is already a name of the ruleset")),
    ("state:\n  flags: [" + "x" * 101 + "]\n", (4, 11, "a name of at most 100 characters")),
    ("état:\n  drapeaux: [veau]\n  comptes: [x, veau]\n", (5, 16, "`veau` is declared twice")),
]  # fmt: skip


@pytest.mark.parametrize(("head", "expected"), BAD_YAML)
def test_a_bad_state_section_is_a_located_error(tmp_path, head, expected):
    found = errors(write(tmp_path, "§ 1\n> victory\n", head=head))
    located = [(line, column, message) for file, line, column, message, _ in found]
    assert any(
        (line, column) == expected[:2] and expected[2] in message
        for line, column, message in located
    ), located
    assert all(file == "book.yaml" for file, *_ in found)


def test_a_flag_may_not_also_be_an_item(tmp_path):
    found = errors(write(tmp_path, "§ 1\n> take Rope\n> victory\n", "state:\n  flags: [Rope]\n"))
    assert [(f[1], f[3]) for f in found] == [
        (4, "`Rope` is declared as a flag but the book also gives it as an item"),
    ]


def test_a_count_before_a_counter_asks_for_a_comparison(tmp_path):
    found = errors(write(tmp_path, "§ 1\n-> 2 (if 3 gold) Pay\n\n§ 2\n> victory\n", head=""))
    assert found == [("p.dd", 2, 10, "`gold` is a stat or counter, not an item",
                      "compare it: `if gold >= 3`")]  # fmt: skip


def test_a_counter_alone_or_counted_in_a_condition(tmp_path):
    book = load_book(write(tmp_path, (
        "§ 1\n-> 2 (if lieutenants met) One\n-> 2 (if 2 lieutenants met) Two\n\n§ 2\n> victory\n"
    )))  # fmt: skip
    conditions = [s.condition for s in body_of(book)]
    assert [(c.op, c.left.name, c.right.value) for c in conditions] == [
        (">=", "lieutenants met", 1), (">=", "lieutenants met", 2),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "name", ["calf and cow", "item lost", "not met", "visited cave", "2 calves", "codeword x"]
)
def test_a_name_the_paragraphs_cannot_write_is_refused_where_declared(tmp_path, name):
    found = errors(write(tmp_path, "§ 1\n> victory\n", head=f"state:\n  flags: [{name}]\n"))
    assert [(f[0], f[1], f[3]) for f in found] == [
        ("book.yaml", 4, f"the paragraphs cannot write the name `{name}`"),
    ]
