"""Random playthroughs through the real interpreter.

Game ``i`` of a run with seed ``S`` uses seed ``S + i`` for its dice and for the random
answers to its prompts, so any game can be replayed alone. A runtime error (E040) or a
softlock (E041: a choice prompt with no selectable option) carries the seed and the answers
that reproduce it with ``dedale play``; a game still running after ``max_steps`` paragraphs
is W043, and so is a game that passes ``UNASKED`` paragraphs in a row without a question (a
loop of forced jumps: such books are played with events on, so that it can be counted and
cut). The games stop at ``budget`` seconds (I051 says how many were played).
The statistics: victory rate, deaths per paragraph, average length, coverage.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dedale.errors import GameError
from dedale.i18n import ntr, tr
from dedale.span import Span
from dedale.validator.budget import PLAYTHROUGHS_SECONDS
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, header_span

if TYPE_CHECKING:  # the interpreter's events load only when games are played
    from dedale import events

PROMPTS_PER_STEP = 50  # prompts allowed per paragraph before a game counts as stuck
UNASKED = 200  # paragraphs in a row without a question: a loop of forced jumps
UNASKED_EVENTS = 10_000  # events in a row without a question: an endless fight
CLOCK_EVERY = 256  # items pulled between two looks at the clock
DEADLIEST = 5


@dataclass(slots=True)
class PlaythroughStats:
    """What N random games found."""

    runs: int
    seed: int
    total: set[int] = field(default_factory=set)
    victories: int = 0
    deaths: int = 0
    unfinished: int = 0
    errors: int = 0
    steps: int = 0
    reached: set[int] = field(default_factory=set)
    deaths_at: Counter[int] = field(default_factory=Counter)
    planned: int = 0  # the games asked for (more than ``runs`` when the budget cut them)
    budget: float | None = None  # the seconds they were given

    @property
    def victory_rate(self) -> float:
        return self.victories / self.runs if self.runs else 0.0

    @property
    def average_length(self) -> float:
        return self.steps / self.runs if self.runs else 0.0

    @property
    def never_reached(self) -> set[int]:
        return self.total - self.reached

    def deadliest(self) -> list[tuple[int, int]]:
        return sorted(self.deaths_at.items(), key=lambda item: (-item[1], item[0]))[:DEADLIEST]


@dataclass(slots=True)
class GameResult:
    """One game: how it ended, where, and the answers given."""

    seed: int
    outcome: str  # victory, death, error, softlock, unfinished
    paragraphs: list[int]
    answers: list[str]  # the lines to type in ``dedale play --plain`` to replay it
    error: str = ""


def play_one(
    book: object,
    seed: int,
    max_steps: int,
    *,
    guarded: bool = False,
    deadline: float | None = None,
) -> GameResult:
    """Play one random game of ``book`` with ``seed`` (the interpreter's random tester
    answers; a choice prompt with no enabled option is a softlock). ``guarded``: the book
    may loop with no question, so paragraphs entered without one are counted (outcome
    ``loop`` past ``UNASKED`` paragraphs or ``UNASKED_EVENTS`` events); past
    ``deadline`` (``time.monotonic()``) the game stops (outcome ``cut``)."""
    from dedale import events
    from dedale.game.interpreter import Game
    from dedale.game.random_player import RandomPlayer, hidden_numbers

    result = GameResult(seed, "unfinished", [], [])
    game = None
    try:
        game = Game.new(book, seed, quiet=not guarded, name="Hero")
        player = RandomPlayer(seed)
        player.hidden = hidden_numbers(book)  # hidden-number prompts answered sensibly
        prompts = pulled = unasked = quiet_items = 0
        while True:
            item = game.next()
            if item is None:
                break
            pulled += 1
            if deadline is not None and pulled % CLOCK_EVERY == 0 and time.monotonic() > deadline:
                result.outcome = "cut"
                break
            if not isinstance(item, events.Prompt):
                quiet_items += 1
                unasked += type(item) is events.ParagraphEntered
                if unasked > UNASKED or quiet_items > UNASKED_EVENTS:
                    result.outcome = "loop"
                    result.error = tr(
                        "{paragraphs} paragraphs and {events} events in a row asked nothing",
                        paragraphs=unasked,
                        events=quiet_items,
                    )
                    break
                continue
            prompts += 1
            unasked = quiet_items = 0
            if len(game.state.history) > max_steps or prompts > max_steps * PROMPTS_PER_STEP:
                break
            if type(item) is events.ChoosePrompt:
                if not any(option.enabled for option in item.options):
                    result.outcome = "softlock"
                    result.error = "no selectable choice"
                    break
                if game.can_eat() and player.wants_to_eat(game):
                    game.eat()
                    result.answers.append("eat")
                    continue
            answer = player.decide(item)
            game.answer(answer)
            result.answers.append(_plain_line(item, answer))
        if result.outcome == "unfinished" and game.outcome is not None:
            result.outcome = game.outcome
        elif result.outcome == "unfinished" and item is None:
            result.outcome = "softlock"
            result.error = tr("the game stopped without a victory or a death")
    except GameError as error:
        if _is_softlock(error):
            result.outcome = "softlock"
            result.error = error.message
        else:
            result.outcome = "error"
            result.error = tr("{kind}: {message}", kind=type(error).__name__, message=error.message)
    except Exception as error:  # any crash of a random game is what E040 reports
        result.outcome = "error"
        result.error = f"{type(error).__name__}: {error}"
    if game is not None:
        result.paragraphs = [entry.paragraph for entry in game.state.history]
    return result


def _plain_line(prompt: events.Prompt, answer: object) -> str:
    """The line to type in ``dedale play --plain`` to give the same answer."""
    from dedale.events import TargetPrompt

    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if isinstance(prompt, TargetPrompt):
        return str(int(answer) + 1)  # type: ignore[call-overload]
    return str(answer)


def _is_softlock(error: GameError) -> bool:
    """The interpreter stops a game whose paragraph offers no choice the hero can take."""
    return type(error).__name__ == "Softlock" or "offers no choice" in error.message


def _where(graph: Graph, paragraphs: list[int]) -> tuple[Span | None, int | None]:
    """The header of the paragraph a game ended in (None before the first paragraph)."""
    if not paragraphs or paragraphs[-1] not in graph.nodes:
        return None, None
    number = paragraphs[-1]
    return header_span(graph.nodes[number].paragraph), number


def _replay(path: str, result: GameResult) -> str:
    lines = "\\n".join(result.answers)
    command = f"printf '{lines}\\n' | dedale play {path} --plain --seed {result.seed} --name Hero"
    return tr("replay: {command}", command=command)


def play_random_games(
    book: object,
    graph: Graph,
    runs: int,
    seed: int,
    max_steps: int,
    path: str = "BOOK",
    *,
    guarded: bool = False,
    budget: float | None = PLAYTHROUGHS_SECONDS,
) -> tuple[PlaythroughStats, list[Finding]]:
    """Play ``runs`` random games; the statistics and the findings (first of each kind per
    paragraph, so one bug does not yield a thousand errors). ``guarded``: see
    :func:`play_one`; ``budget``: seconds for all the games (``stats.planned`` keeps
    ``runs`` when fewer were played)."""
    stats = PlaythroughStats(runs, seed, total=set(graph.nodes), planned=runs, budget=budget)
    found: list[Finding] = []
    reported: set[tuple[str, int | None, str]] = set()
    deadline = None if budget is None else time.monotonic() + budget
    played = 0
    for game_seed in range(seed, seed + runs):
        if deadline is not None and time.monotonic() > deadline:
            break
        result = play_one(book, game_seed, max_steps, guarded=guarded, deadline=deadline)
        if result.outcome == "cut":
            break
        played += 1
        stats.steps += len(result.paragraphs)
        stats.reached.update(result.paragraphs)
        if result.outcome == "victory":
            stats.victories += 1
        elif result.outcome == "death":
            stats.deaths += 1
            if result.paragraphs:
                stats.deaths_at[result.paragraphs[-1]] += 1
        elif result.outcome in ("unfinished", "loop"):
            stats.unfinished += 1
        else:
            stats.errors += 1
        span, number = _where(graph, result.paragraphs)
        code = {"error": "E040", "softlock": "E041", "unfinished": "W043", "loop": "W043"}.get(
            result.outcome
        )
        key = (code, None, "") if code == "W043" else (code, number, result.error)
        if code is None or key in reported:
            continue
        reported.add(key)
        trail = " -> ".join(map(str, result.paragraphs[-8:]))
        if code == "E040":
            message = tr(
                "random game (seed {seed}) crashed: {error}", seed=result.seed, error=result.error
            )
        elif code == "E041":
            reason = result.error or tr("no selectable choice")
            message = tr(
                "random game (seed {seed}) is stuck here: {reason}", seed=result.seed, reason=reason
            )
        else:
            message = tr(
                "random game (seed {seed}) still running after {steps} paragraphs",
                seed=result.seed,
                steps=max_steps,
            )
        found.append(
            finding(
                code,
                tr("{message} (path ... {trail})", message=message, trail=trail),
                span,
                paragraph=number,
                hint=_replay(path, result),
                seed=result.seed,
                answers=list(result.answers),
            )
        )
    runs = stats.runs = played
    if runs:
        for number in sorted(stats.never_reached):
            found.append(
                finding(
                    "I042",
                    ntr(
                        "the {count} random game did not reach paragraph {number}",
                        "no random game out of {count} reached paragraph {number}",
                        runs,
                        number=number,
                    ),
                    header_span(graph.nodes[number].paragraph),
                    paragraph=number,
                )
            )
    return stats, found
