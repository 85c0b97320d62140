"""Play a sample book along a scripted route through the ``dedale.game.Game`` API.

Used by the end-to-end tests of the sample books (``test_etoiles_mortes.py``,
``test_greymane.py``, ...): a route is the list of paragraphs the reader goes through, in
order; at each choice the option leading to the next paragraph of the route is taken, and
the game must enter exactly the route's paragraphs. Yes/no questions (use Luck, take a
risk, flee...) are answered from a table by their stable ``kind`` (no by default); targets
of fights against several enemies are the first enemy still standing.

The transcript is a list of short lines, one per event, for a syrupy snapshot.

When the rules core changes the order in which it throws dice, a fixed seed may stop
following its route (RouteLeft): pick a new one with :func:`find_seed`, then review and
update the snapshots.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

from dedale import ast, events
from dedale.game import Game
from dedale.language import load_book
from dedale.player.sheet_content import meal_at_full

BOOKS = Path(__file__).resolve().parents[2] / "books"


class RouteLeft(AssertionError):
    """The game left the scripted route (a test failed, a choice was not offered...); if
    the dice order changed, ``find_seed`` gives a seed that follows the route again."""


@dataclass
class Playthrough:
    """What a scripted game did: the paragraphs entered, its outcome and its transcript."""

    visited: list[int] = field(default_factory=list)
    outcome: str | None = None
    transcript: list[str] = field(default_factory=list)
    log: list[events.Event | events.Prompt] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)  # the same answers, as typed in --plain
    game: Game | None = None

    def in_paragraph(self, paragraph: int, kind: type) -> list:
        """The events or prompts of ``kind`` met while reading ``paragraph`` (every visit)."""
        found, here = [], None
        for item in self.log:
            if isinstance(item, events.ParagraphEntered):
                here = item.number
            elif isinstance(item, kind) and here == paragraph:
                found.append(item)
        return found

    def tests_in(self, paragraph: int) -> list[events.TestResolved]:
        """The tests resolved while reading ``paragraph`` (every visit)."""
        return self.in_paragraph(paragraph, events.TestResolved)

    def choices_in(self, paragraph: int) -> list[tuple[int | None, ...]]:
        """The targets offered (enabled) at each choice prompt of ``paragraph``."""
        return [
            tuple(o.target for o in prompt.options if o.enabled)
            for prompt in self.in_paragraph(paragraph, events.ChoosePrompt)
        ]


def describe(item: events.Event | events.Prompt) -> str:
    """One transcript line for an event or a prompt (prose is cut to its first words)."""
    kind = type(item).__name__
    if isinstance(item, events.TextShown):
        words = item.text.split()
        return f"{kind}: {' '.join(words[:8])}{' ...' if len(words) > 8 else ''}"
    if isinstance(item, events.ChoosePrompt):
        options = ", ".join(f"{o.target}{'' if o.enabled else ' (disabled)'}" for o in item.options)
        return f"{kind}: {options}"
    parts = []
    for spec in fields(item):  # type: ignore[arg-type]
        if spec.name == "span" or (spec.name in ("who", "allies") and not getattr(item, spec.name)):
            continue  # (DiceRolled.who names an enemy whose stat is rolled; FightStarted.allies)
        parts.append(f"{spec.name}={getattr(item, spec.name)!r}")
    return f"{kind}: {', '.join(parts)}"


def play_route(
    book: str,
    route: Sequence[int],
    *,
    seed: int,
    hero: tuple[int, ...] | None = None,
    class_name: str | None = None,
    answers: Mapping[str, bool] | None = None,
    meals_at: Sequence[int] = (),
    max_steps: int = 20_000,
) -> Playthrough:
    """Play ``books/<book>`` along ``route`` (paragraph numbers, the first being the start).

    ``answers`` maps a yes/no prompt kind (``use_luck``, ``risk``, ``escape``...) to the
    answer; ``meals_at`` lists paragraphs where the reader eats a meal before choosing
    (once per listed occurrence). Raises RouteLeft when the game leaves the route.
    """
    game = Game.new(
        load_book(BOOKS / book), seed, hero=hero, class_name=class_name, name="Test", lang=None
    )
    answers = dict(answers or {})
    meals = list(meals_at)
    result = Playthrough(game=game)
    for _ in range(max_steps):
        item = game.next()
        if item is None:
            break
        result.transcript.append(describe(item))
        result.log.append(item)
        if isinstance(item, events.ParagraphEntered):
            step = len(result.visited)
            result.visited.append(item.number)
            if step >= len(route) or route[step] != item.number:
                raise RouteLeft(
                    f"entered §{item.number} after {result.visited[:-1]}; route expected "
                    f"{route[step] if step < len(route) else 'the end'}"
                )
        elif isinstance(item, events.ChoosePrompt):
            here = result.visited[-1]
            if here in meals and game.can_eat():
                meals.remove(here)
                result.typed.append("eat")
                if meal_at_full(game.book.ruleset, game.state.hero):
                    result.typed.append("y")  # the plain player asks first (issue 16.8)
                for eaten in game.eat():
                    result.transcript.append(describe(eaten))
                    result.log.append(eaten)
                continue
            step = len(result.visited)
            wanted = route[step] if step < len(route) else None
            for option in item.options:
                if option.target == wanted and option.enabled:
                    game.answer(option.index)
                    result.typed.append(str(option.index))
                    break
            else:
                raise RouteLeft(f"§{here} offers no enabled choice to §{wanted}")
        elif isinstance(item, events.YesNoPrompt):
            yes = answers.get(item.kind, False)
            game.answer(yes)
            result.typed.append("y" if yes else "n")
        elif isinstance(item, events.TargetPrompt):
            game.answer(0)
            result.typed.append("1")
        elif isinstance(item, events.DropItemPrompt):
            game.answer(item.items[0])
            result.typed.append(item.items[0])
        elif isinstance(item, events.Prompt):
            raise RouteLeft(f"unexpected prompt {item!r}")
    result.outcome = game.outcome
    return result


def play_plain(
    book: str,
    played: Playthrough,
    *,
    seed: int,
    hero: tuple[int, ...] | None = None,
    class_name: str | None = None,
) -> tuple[int, list[int]]:
    """Replay a scripted game through ``dedale play --plain`` (a subprocess), typing the
    same answers; returns its exit code and the paragraphs it printed, in order."""
    command = [sys.executable, "-m", "dedale", "play", "--plain", str(BOOKS / book)]
    command += ["--seed", str(seed), "--name", "Test"]
    if hero is not None:
        command += ["--hero", *map(str, hero)]
    if class_name is not None:
        command += ["--class", class_name]
    done = subprocess.run(
        command, input="\n".join(played.typed) + "\n", capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    headers = [int(m) for m in re.findall(r"^§ (\d+)$", done.stdout, flags=re.MULTILINE)]
    return done.returncode, headers


def find_seed(book: str, route: Sequence[int], seeds: range, **kwargs: object) -> int | None:
    """The first seed whose game follows ``route`` to victory (a tool to write the tests)."""
    for seed in seeds:
        try:
            played = play_route(book, route, seed=seed, **kwargs)  # type: ignore[arg-type]
        except RouteLeft:
            continue
        if played.outcome == "victory" and played.visited == list(route):
            return seed
    return None


# ------------------------------------------------------------------ the book's structure


def paragraphs(book: str) -> dict[int, ast.Paragraph]:
    """The parsed paragraphs of ``books/<book>``, by number."""
    return dict(load_book(BOOKS / book).paragraphs)


def destinations(
    statements: tuple[ast.Statement, ...], labels: Mapping[str, int] | None = None
) -> set[int]:
    """Every paragraph number that a paragraph's statements can lead to (``labels`` maps
    the book's labels to their numbers)."""
    found: set[int] = set()

    def add(target: ast.Destination | None) -> None:
        if isinstance(target, ast.ParagraphRef):
            number = target.number
            if number is None and target.label is not None and labels is not None:
                number = labels.get(target.label)
            if number is not None:
                found.add(number)

    for statement in statements:
        if isinstance(statement, ast.Choice | ast.Goto):
            add(statement.target)
        elif isinstance(statement, ast.Fight):
            add(statement.win)
            add(statement.lose)
            add(statement.escape.target if statement.escape else None)
            add(statement.assault_limit.target if statement.assault_limit else None)
        elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test):
            for branch in statement.branches:
                found |= destinations(branch.body, labels)
        elif isinstance(statement, ast.RandomRoll):
            for row in statement.branches:
                found |= destinations(row.body, labels)
        elif isinstance(statement, ast.If):
            found |= destinations(statement.then, labels) | destinations(
                statement.otherwise, labels
            )
    return found


def endings(paragraph: ast.Paragraph) -> list[str]:
    """The endings (``death``, ``victory``) a paragraph declares."""
    return [s.kind for s in paragraph.body if isinstance(s, ast.Ending)]


def statements_of(book: dict[int, ast.Paragraph], kind: type) -> list:
    """Every top-level statement of type ``kind`` in the book."""
    return [s for p in book.values() for s in p.body if isinstance(s, kind)]


def check_structure(name: str, low: int, high: int) -> None:
    """Numbered 1..N without gaps (low <= N <= high), every paragraph reachable from §1,
    every paragraph an ending or leading on, one victory and at least two deaths."""
    loaded = load_book(BOOKS / name)
    book, labels = dict(loaded.paragraphs), dict(loaded.labels)
    numbers = sorted(book)
    assert numbers == list(range(1, len(numbers) + 1))
    assert low <= len(numbers) <= high
    seen, todo = {1}, [1]
    while todo:
        for target in destinations(book[todo.pop()].body, labels):
            assert target in book, f"a choice leads to §{target}, which does not exist"
            if target not in seen:
                seen.add(target)
                todo.append(target)
    assert seen == set(book), f"unreachable: {sorted(set(book) - seen)}"
    for number, paragraph in book.items():
        assert endings(paragraph) or destinations(paragraph.body, labels), (
            f"§{number} is a dead end"
        )
    kinds = [kind for paragraph in book.values() for kind in endings(paragraph)]
    assert kinds.count("victory") == 1
    assert kinds.count("death") >= 2
