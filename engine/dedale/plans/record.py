"""``dedale play --record FILE``: a played game (its seed and decision log) as a plan.

The game is played again from its seed, quietly, decision by decision, so that each
answer is written the way an author reads it (``choose 12`` rather than "option 2"), with
``at N`` where the reader decided something in a new paragraph; the plan ends with the
final stats and items expected, and the ending (or ``stop`` when the game was quit).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from dedale import events
from dedale.errors import DedaleError
from dedale.game import EAT_ACTION, Game
from dedale.game.playtest import ACTIONS
from dedale.i18n import tr
from dedale.plans.files import write_plan_text
from dedale.plans.model import (
    Answer,
    At,
    Choose,
    Dice,
    Drop,
    Eat,
    Ending,
    Expect,
    God,
    Held,
    Jump,
    Plan,
    SetValue,
    Step,
    Value,
)
from dedale.plans.writer import write_plan
from dedale.rules import fold

MAX_PULLS = 1_000_000
"""The most events one replay may pull (a decision log is itself bounded by its game)."""


class RecordError(DedaleError):
    """A game that cannot be written as a plan (the message says why)."""


def record_plan(game: Game) -> Plan:
    """The plan that replays ``game`` from its seed to where it stands."""
    if game.origin is not None:
        raise RecordError(tr("a game resumed from a snapshot cannot be recorded as a plan"))
    book = game.book
    language = "fr" if getattr(book.meta, "language", None) == "fr" else "en"
    ruleset = book.ruleset
    creation: dict[str, Any] = dict(game.creation)
    hero_values = list(creation.get("hero") or ())
    name = creation.get("name")
    class_name = creation.get("class")
    again = Game(book, game.seed, creation, quiet=True)
    steps: list[Step] = []
    last_at: int | None = None
    pulls = 0
    for decision in game.decisions:
        prompt, pulls = _prompt(again, pulls)
        if prompt is None:
            break
        kind = type(prompt)
        if kind is events.NamePrompt:
            name = decision
        elif kind is events.StatsPrompt:
            if decision is not None:
                hero_values = list(decision)
        elif kind is events.ClassPrompt:
            class_name = decision
        else:
            paragraph = again.state.paragraph
            forced = isinstance(decision, dict) and decision.get("action") in ACTIONS
            if paragraph is not None and (paragraph != last_at or forced):
                steps.append(At(paragraph))
                last_at = paragraph
            steps.append(_step(prompt, decision))
        again.apply(decision)
    prompt, pulls = _prompt(again, pulls)
    steps.append(Expect(_final(again, language)))
    steps.append(Ending(again.outcome if prompt is None and again.outcome else "stop"))  # type: ignore[arg-type]
    stats = [stat.id for stat in ruleset.stats]
    hero = tuple(
        (ruleset.display_name(stat, language), int(value))
        for stat, value in zip(stats, hero_values, strict=False)
    )
    return Plan(
        hero=hero,
        steps=tuple(steps),
        language=language,  # type: ignore[arg-type]
        name=str(name) if name else None,
        class_name=str(class_name) if class_name else None,
        seed=game.seed,
    )


def write_recording(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write the plan of ``game`` to ``path`` (atomically); returns the path."""
    plan = record_plan(game)
    title = getattr(game.book, "title", "") or ""
    comment = tr("recorded by dedale play --record: {title}", title=title).translate(plan.language)
    text = write_plan(plan, comment=comment)
    return write_plan_text(path, text)


def _prompt(game: Game, pulls: int) -> tuple[events.Prompt | None, int]:
    while True:
        pulls += 1
        if pulls > MAX_PULLS:
            raise RecordError(tr("the game ran past {count} events", count=MAX_PULLS))
        item = game.next()
        if item is None or isinstance(item, events.Prompt):
            return item, pulls


def _step(prompt: events.Prompt, decision: Any) -> Step:
    if decision == EAT_ACTION:
        return Eat()
    if isinstance(decision, dict):
        action = decision.get("action")
        if action == "drop":
            return Drop(str(decision.get("item", "")))
        if action == "force":
            return Dice(tuple(int(face) for face in decision.get("faces") or ()))
        if action == "jump":
            return Jump(int(decision.get("to", 0)))
        if action == "set":
            return SetValue(str(decision.get("name", "")), int(decision.get("value", 0)))
        if action == "god":
            return God(bool(decision.get("on")))
        raise RecordError(
            tr("the playtest tool `{action}` cannot be written in a plan", action=str(action))
        )
    kind = type(prompt)
    if kind is events.ChoosePrompt:
        return _choice(prompt.options, int(decision))  # type: ignore[attr-defined]
    if kind is events.TargetPrompt:
        enemies = prompt.enemies  # type: ignore[attr-defined]
        name = enemies[int(decision)]
        unique = sum(1 for enemy in enemies if fold(enemy) == fold(name)) == 1
        return Answer(name if unique else int(decision) + 1)
    if kind is events.DropItemPrompt:
        return Drop(str(decision))
    if isinstance(decision, bool | int | str):
        return Answer(decision)
    raise RecordError(tr("an answer of this game cannot be written in a plan"))


def _choice(options, index: int) -> Choose:
    option = next(o for o in options if o.index == index)
    if option.target is not None and not option.computed:
        if sum(1 for o in options if o.target == option.target and not o.computed) == 1:
            return Choose(target=option.target)
    text = option.text.strip()
    if text and "\n" not in text and sum(1 for o in options if fold(o.text) == fold(text)) == 1:
        return Choose(text=text)
    return Choose(number=index)


def _final(game: Game, language: str) -> tuple[Value | Held, ...]:
    hero = game.state.hero
    ruleset = game.book.ruleset
    checks: list[Value | Held] = []
    if hero is None:
        return ()
    for stat in ruleset.stats:
        if stat.id in hero.stats:
            checks.append(Value(ruleset.display_name(stat.id, language), "=", hero.stats[stat.id]))
    for counter in ruleset.counters:
        if counter.id in hero.counters:
            name = ruleset.display_name(counter.id, language)
            checks.append(Value(name, "=", hero.counters[counter.id]))
    for name, count in sorted(game.state.counts.items()):
        checks.append(Value(name, "=", count))
    for item, count in sorted(hero.items.items()):
        if count > 1:
            checks.append(Value(item, "=", count))
        elif count == 1:
            checks.append(Held(item))
    for word in sorted(game.state.codewords.values()):
        checks.append(Held(word))
    for flag in sorted(game.state.flags):
        checks.append(Held(flag))
    return tuple(checks)


def record_after_play(path: str, game: Game | None, lang: str | None = None) -> None:
    """``dedale play --record FILE``: write the game just played (or say why not, on
    stderr: recording never changes the exit code of the game), in the game's language (else
    ``lang``: the command's or the book's)."""
    import sys

    if game is not None:
        lang = game.lang
    if game is None or not game.decisions:
        print(
            tr("dedale play: no game to record in {path}", path=path).translate(lang),
            file=sys.stderr,
        )
        return
    try:
        written = write_recording(game, path)
    except DedaleError as error:
        print(error.render(lang=lang), file=sys.stderr)
        return
    except OSError as error:
        print(
            tr(
                "dedale play: cannot write {path}: {reason}", path=path, reason=str(error)
            ).translate(lang),
            file=sys.stderr,
        )
        return
    print(
        tr(
            "game recorded as a plan in {path} (dedale test replays it)", path=str(written)
        ).translate(lang),
        file=sys.stderr,
    )
