"""Random playthroughs through the real interpreter.

Game ``i`` of a run with seed ``S`` uses seed ``S + i`` for its dice and for the random
answers to its prompts, so any game can be replayed alone. A runtime error (E040) or a
softlock (E041: a choice prompt with no selectable option) carries the seed and the answers
that reproduce it with ``dedale play``; a game still running after ``max_steps`` paragraphs
is W043. The statistics: victory rate, deaths per paragraph, average length, coverage.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from dedale import events
from dedale.rules.random_source import RandomSource
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph

MAX_EVENTS_PER_PARAGRAPH = 10_000
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
    answers: list[object]
    error: str = ""


class RandomAnswers:
    """Answers every prompt at random, from its own seeded source."""

    def __init__(self, seed: int, hidden: tuple[int, ...] = ()) -> None:
        self.rng = RandomSource(seed)
        self.hidden = hidden

    def pick(self, count: int) -> int:
        return self.rng.roll(count) - 1

    def answer(self, prompt: events.Prompt) -> object:
        """An answer to ``prompt``; None when there is no valid answer (softlock)."""
        if isinstance(prompt, events.ChoosePrompt):
            enabled = [option.index for option in prompt.options if option.enabled]
            return enabled[self.pick(len(enabled))] if enabled else None
        if isinstance(prompt, events.YesNoPrompt):
            return self.pick(2) == 0
        if isinstance(prompt, events.TargetPrompt):
            return self.pick(len(prompt.enemies)) if prompt.enemies else None
        if isinstance(prompt, events.DropItemPrompt):
            return prompt.items[self.pick(len(prompt.items))] if prompt.items else None
        if isinstance(prompt, events.ClassPrompt):
            return prompt.classes[self.pick(len(prompt.classes))] if prompt.classes else None
        if isinstance(prompt, events.NamePrompt):
            return prompt.default or "Hero"
        if isinstance(prompt, events.NumberPrompt):
            return self.hidden[self.pick(len(self.hidden))] if self.hidden else 0
        return None


def play_one(book: object, seed: int, max_steps: int, hidden: tuple[int, ...] = ()) -> GameResult:
    """Play one random game of ``book`` with ``seed``."""
    from dedale.game import Game

    answers = RandomAnswers(seed, hidden)
    result = GameResult(seed, "unfinished", [], [])
    try:
        game = Game.new(book, seed)
        budget = MAX_EVENTS_PER_PARAGRAPH
        while True:
            item = game.next()
            if item is None:
                break
            budget -= 1
            if isinstance(item, events.ParagraphEntered):
                result.paragraphs.append(item.number)
                budget = MAX_EVENTS_PER_PARAGRAPH
                if len(result.paragraphs) > max_steps:
                    return result
            elif isinstance(item, events.Victory):
                result.outcome = "victory"
                return result
            elif isinstance(item, events.Death):
                result.outcome = "death"
                return result
            elif isinstance(item, events.Prompt):
                answer = answers.answer(item)
                if answer is None:
                    result.outcome = "softlock"
                    return result
                result.answers.append(answer)
                game.answer(answer)
            if budget <= 0:
                result.outcome = "error"
                result.error = "the game produced events without end in one paragraph"
                return result
        result.outcome = "softlock"
        result.error = "the game stopped without a victory or a death"
    except Exception as error:  # any crash of a random game is what E040 reports
        result.outcome = "error"
        result.error = f"{type(error).__name__}: {error}"
    return result


def _span(graph: Graph, paragraphs: list[int]) -> tuple[Span | None, int | None]:
    if not paragraphs or paragraphs[-1] not in graph.nodes:
        return None, None
    number = paragraphs[-1]
    span = graph.nodes[number].paragraph.span
    return Span(span.file, span.line, span.column), number


def _replay(path: str, result: GameResult) -> str:
    answers = ",".join(str(answer) for answer in result.answers)
    return f"reproduce with: dedale play {path} --seed {result.seed} --answers '{answers}'"


def play_random_games(
    book: object,
    graph: Graph,
    runs: int,
    seed: int,
    max_steps: int,
    hidden: tuple[int, ...] = (),
    path: str = "BOOK",
) -> tuple[PlaythroughStats, list[Finding]]:
    """Play ``runs`` random games; the statistics and the findings (first of each kind per
    paragraph, so one bug does not yield a thousand errors)."""
    stats = PlaythroughStats(runs, seed, total=set(graph.nodes))
    found: list[Finding] = []
    reported: set[tuple[str, int | None, str]] = set()
    for game_seed in range(seed, seed + runs):
        result = play_one(book, game_seed, max_steps, hidden)
        stats.steps += len(result.paragraphs)
        stats.reached.update(result.paragraphs)
        if result.outcome == "victory":
            stats.victories += 1
        elif result.outcome == "death":
            stats.deaths += 1
            if result.paragraphs:
                stats.deaths_at[result.paragraphs[-1]] += 1
        elif result.outcome == "unfinished":
            stats.unfinished += 1
        else:
            stats.errors += 1
        span, number = _span(graph, result.paragraphs)
        code = {"error": "E040", "softlock": "E041", "unfinished": "W043"}.get(result.outcome)
        if code is None or (code, number, result.error) in reported:
            continue
        reported.add((code, number, result.error))
        trail = " -> ".join(map(str, result.paragraphs[-8:]))
        if code == "E040":
            message = f"random game (seed {result.seed}) crashed: {result.error}"
        elif code == "E041":
            reason = result.error or "no selectable choice"
            message = f"random game (seed {result.seed}) is stuck here: {reason}"
        else:
            message = f"random game (seed {result.seed}) still running after {max_steps} paragraphs"
        found.append(
            finding(
                code,
                f"{message} (path ... {trail})",
                span,
                paragraph=number,
                hint=_replay(path, result),
                seed=result.seed,
                answers=list(result.answers),
            )
        )
    if runs:
        for number in sorted(stats.never_reached):
            node = graph.nodes[number]
            span = node.paragraph.span
            found.append(
                finding(
                    "I042",
                    f"no random game out of {runs} reached paragraph {number}",
                    Span(span.file, span.line, span.column),
                    paragraph=number,
                )
            )
    return stats, found
