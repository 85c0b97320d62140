"""Le Puits des Ombres (books/le-puits-des-ombres): the default book of ``dedale play``.

The intended winning path below is also written in the book's PLAN.md. The structural tests
check it against the parsed paragraphs; the end-to-end test plays it to victory.
"""

from __future__ import annotations

from pathlib import Path

from dedale import ast
from dedale.language import parse_text

BOOK = Path(__file__).resolve().parents[2] / "books" / "le-puits-des-ombres"

# Paragraphs visited by the intended winning path, in order.
WINNING_PATH = (
    1, 2, 3, 4, 2, 5, 6, 2, 7, 8, 2, 11, 12, 15, 16, 17, 21, 23, 26, 30, 31, 32, 26, 44, 45,
    48, 50, 51, 55, 57, 60, 64, 66, 72, 68, 69, 73, 75, 76, 77, 80, 82, 86, 88,
)  # fmt: skip


def paragraphs() -> dict[int, ast.Paragraph]:
    """Every paragraph of the book, by number."""
    found: dict[int, ast.Paragraph] = {}
    for path in sorted(BOOK.glob("*.dd")):
        for paragraph in parse_text(path.read_text(encoding="utf-8"), str(path)).paragraphs:
            assert paragraph.number not in found, f"§{paragraph.number} defined twice"
            found[paragraph.number] = paragraph
    return found


def destinations(statements: tuple[ast.Statement, ...]) -> set[int]:
    """Every paragraph number a paragraph's statements can lead to."""
    found: set[int] = set()

    def add(target: ast.Destination | None) -> None:
        if isinstance(target, ast.ParagraphRef) and target.number is not None:
            found.add(target.number)

    for statement in statements:
        if isinstance(statement, ast.Choice | ast.Goto):
            add(statement.target)
        elif isinstance(statement, ast.Fight):
            add(statement.win)
            add(statement.lose)
            add(statement.escape.target if statement.escape else None)
            add(statement.assault_limit.target if statement.assault_limit else None)
        elif isinstance(statement, ast.Test | ast.RandomRoll):
            for branch in statement.branches:
                found |= destinations(branch.body)
        elif isinstance(statement, ast.If):
            found |= destinations(statement.then) | destinations(statement.otherwise)
    return found


def endings(paragraph: ast.Paragraph) -> list[str]:
    return [s.kind for s in paragraph.body if isinstance(s, ast.Ending)]


def test_paragraphs_are_numbered_without_gaps() -> None:
    numbers = sorted(paragraphs())
    assert numbers == list(range(1, len(numbers) + 1))
    assert 80 <= len(numbers) <= 120


def test_every_paragraph_is_reachable_and_leads_on() -> None:
    book = paragraphs()
    seen, todo = {1}, [1]
    while todo:
        for target in destinations(book[todo.pop()].body):
            assert target in book, f"a choice leads to §{target}, which does not exist"
            if target not in seen:
                seen.add(target)
                todo.append(target)
    assert seen == set(book)
    for number, paragraph in book.items():
        assert endings(paragraph) or destinations(paragraph.body), f"§{number} is a dead end"


def test_one_victory_and_several_deaths() -> None:
    kinds = [kind for paragraph in paragraphs().values() for kind in endings(paragraph)]
    assert kinds.count("victory") == 1
    assert kinds.count("death") >= 5


def test_prose_is_compact() -> None:
    for number, paragraph in paragraphs().items():
        words = sum(len(s.text.split()) for s in paragraph.body if isinstance(s, ast.Prose))
        assert 40 <= words <= 120, f"§{number} has {words} words"


def test_the_winning_path_follows_the_book() -> None:
    book = paragraphs()
    for here, there in zip(WINNING_PATH, WINNING_PATH[1:], strict=False):
        assert there in destinations(book[here].body), f"§{here} does not lead to §{there}"
    assert endings(book[WINNING_PATH[-1]]) == ["victory"]


def test_every_fight_mode_is_used() -> None:
    fights = [
        s for paragraph in paragraphs().values() for s in paragraph.body if isinstance(s, ast.Fight)
    ]
    assert {fight.mode for fight in fights} == {"single", "sequence", "together", "as_one"}
    assert any(fight.escape for fight in fights)
    assert any(fight.assault_limit for fight in fights)
