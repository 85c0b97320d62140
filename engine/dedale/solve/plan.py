"""The best walkthrough as a test plan (``dedale solve BOOK --plan FILE``).

Each decision of :func:`dedale.solve.walkthrough.walkthrough` becomes a plan step (``at N``
before it where the paragraph changes): a choice by its target (by its text for a
hidden-number choice), a yes/no or a number as ``answer``, a target as ``answer ENEMY``,
``eat``, ``drop ITEM``; then the ending of the line. Luck in plain fights is the fight DP's
policy, which a plan cannot say: the plan answers ``otherwise: no``.

Dice are not forced: the plan follows the *most likely* winning line, and a game with other
dice may leave it. :func:`find_seed` plays the plan with the seeds ``0 .. tries - 1`` and
keeps the first with which ``dedale test`` passes (then ``seed: N`` makes the plan
deterministic); when none does, the plan says so in its comment.
"""

from __future__ import annotations

from dataclasses import replace

from dedale.plans.model import Answer, At, Choose, Drop, Eat, Ending, Plan
from dedale.plans.model import Step as PlanStep
from dedale.solve import clock
from dedale.solve.walkthrough import Step

SEED_TRIES = 200
"""Seeds tried at most to find one whose dice follow the plan's line."""


def plan_steps(steps: list[Step], won: bool) -> tuple[PlanStep, ...]:
    """The plan's steps for a walkthrough (``won``: the line ends in a victory)."""
    found: list[PlanStep] = []
    at: int | None = None
    for step in steps:
        decision = step.decision
        if decision is None:
            continue
        step_out = _decision(decision)
        if step_out is None:
            continue
        if step.paragraph != at:
            found.append(At(step.paragraph))
            at = step.paragraph
        found.append(step_out)
    if won:
        found.append(Ending("victory"))
    return tuple(found)


def _decision(decision: dict) -> PlanStep | None:
    kind = decision["kind"]
    if kind == "choice":
        if decision.get("target") is not None:
            return Choose(target=decision["target"])
        return Choose(text=decision.get("text") or "")
    if kind == "meal":
        return Eat()
    if kind == "drop":
        return Drop(decision["item"])
    if kind == "answer":
        return Answer(decision["value"])
    if kind == "target":
        return Answer(decision["enemy"])
    if kind == "escape":
        return Answer(True)
    if kind == "fight_on":
        return Answer(False)
    if kind in ("luck", "yes_no"):
        return Answer(bool(decision["answer"]))
    return None


def build_plan(book, hero_values, class_name, steps: list[Step], won: bool) -> Plan:
    """The plan of one hero's walkthrough, in the book's keyword language."""
    language = "fr" if getattr(book.meta, "language", None) == "fr" else "en"
    ruleset = book.ruleset
    stats = tuple(  # named as the book's language and ruleset name them (HABILETÉ 9)
        (ruleset.display_name(stat.id, language), value)
        for stat, value in zip(ruleset.stats, hero_values, strict=True)
    )
    return Plan(
        hero=stats,
        steps=plan_steps(steps, won),
        language=language,
        class_name=class_name,
        otherwise=False,
    )


def find_seed(book, plan: Plan, *, tries: int = SEED_TRIES, deadline: float | None = None):
    """The first seed with which the plan passes ``dedale test`` (None: none of ``tries``
    within the deadline)."""
    from dedale.plans.runner import run_plan

    for seed in range(tries):
        if deadline is not None and clock.now() > deadline:
            return None
        if run_plan(book, replace(plan, seed=seed)).passed:
            return seed
    return None
