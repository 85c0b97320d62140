"""``--plan FILE``: pick the hero, build its plan, find a seed that follows it, write it."""

from __future__ import annotations

from dataclasses import replace

from dedale.errors import UsageError
from dedale.i18n import number, tr, translate
from dedale.plans.files import write_plan_text
from dedale.plans.writer import write_plan
from dedale.solve import clock
from dedale.solve.plan import build_plan, find_seed

MAX_PLAN_SECONDS = 30.0
"""Time at most spent looking for a seed whose dice follow the plan."""


def plan_answer(answers):
    """The given hero's answer, else the (first class's) median hero's."""
    for answer in answers:
        if answer.hero.label in ("given", "median"):
            return answer
    return answers[0]


def write_plan_file(book, answers, path: str, lang: str, *, deadline: float):
    """Write the plan; return the line that tells the reader what was written."""

    answer = plan_answer(answers)
    result = answer.result
    won = bool(answer.steps) and result.win_probability > 0
    plan = build_plan(book, answer.hero.values, answer.hero.class_name, answer.steps, won)
    percent = number(result.win_probability, ".4%")
    lines = [
        tr("best walkthrough: with best play this hero wins {percent} of games", percent=percent),
        tr(
            "the plan follows the most likely winning line; "
            "Luck in fights is tested only where a step says so"
        ),
    ]
    seed = None
    if won:
        seed = find_seed(book, plan, deadline=min(deadline, clock.now() + MAX_PLAN_SECONDS))
    if seed is not None:
        plan = replace(plan, seed=seed)
        lines.append(tr("with seed {seed} the dice follow this line; other dice may leave it",
                        seed=seed))  # fmt: skip
    elif won:
        lines.append(tr("dice are not forced: a dedale test run may leave this line"))
    elif result.complete:
        lines.append(tr("this hero cannot win the book: the plan has no ending"))
    else:  # a cut solve found no winning line yet: that says nothing of the book
        lines.append(tr("the solve stopped before it found a winning line: the plan has no ending"))
    if not result.complete:
        lines.append(tr("the solve was not complete: the chance is a lower bound"))
    # the comment is in the plan's language, as dedale play --record writes it
    comment = "\n".join(translate(line, plan.language) for line in lines)
    try:
        write_plan_text(path, write_plan(plan, comment=comment))
    except OSError as error:
        failure = UsageError(
            tr("cannot write the plan {path}: {error}", path=path, error=error.strerror or error),
            hint=tr("give --plan a file path in a folder you can write to"),
        )
        failure.lang = lang
        raise failure from None
    if seed is not None:
        return tr("plan written to {path} (seed {seed})", path=path, seed=seed)
    return tr("plan written to {path} (dice not forced)", path=path)
