"""Solving a book for one or several heroes within one budget (what ``dedale solve`` runs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from dedale.solve import clock
from dedale.solve.graph import DEFAULT_STATES, SolveResult, solve_book
from dedale.solve.heroes import Hero, landmarks
from dedale.solve.walkthrough import Step, walkthrough


@dataclass(slots=True)
class HeroAnswer:
    """One hero's answer (and its walkthrough when asked)."""

    hero: Hero
    result: SolveResult
    steps: list[Step] = field(default_factory=list)
    exact: Fraction | None = None  # with --exact (dedale.solve.exact), when complete
    exact_note: str = ""  # with --exact: why no fraction (a loop past the exact budget)


@dataclass(slots=True)
class Average:
    """The mean best-play chance over the creation dice (``covered``: the share of the
    creation's probability solved within the budget; 1.0 when complete)."""

    class_name: str | None
    win_probability: float
    heroes: int
    solved: int
    covered: float
    complete: bool


def solve_heroes(
    book,
    heroes: list[Hero],
    *,
    luck_policy: str,
    budget: float,
    max_states: int = DEFAULT_STATES,
    steps: bool = False,
    exact: bool = False,
) -> list[HeroAnswer]:
    """Solve each hero in turn; they share the budget (seconds). ``exact``: the chances
    carried in fractions and the answer given as one too (:mod:`dedale.solve.exact`)."""
    deadline = clock.now() + budget
    answers = []
    shared: dict = {}  # the fights' outcomes and tables, shared by the heroes
    for hero in heroes:
        fraction = None
        note = ""
        if exact:
            from dedale.solve.exact import ExactBudget, solve_exact

            try:
                result, fraction = solve_exact(
                    book, hero.values, hero.class_name, luck_policy=luck_policy,
                    deadline=deadline, max_states=max_states, shared=shared,
                )  # fmt: skip
            except ExactBudget as error:  # the float answer stands, said with the reason
                result, note = error.result, error.message
        else:
            result = solve_book(
                book, hero.values, hero.class_name, luck_policy=luck_policy, deadline=deadline,
                max_states=max_states, shared=shared, collapse=not steps,
            )  # fmt: skip
        answers.append(
            HeroAnswer(hero, result, walkthrough(result) if steps else [], fraction, note)
        )
    return answers


def creation_heroes(book, class_name: str | None) -> tuple[list[Hero], dict | None]:
    """The landmark heroes of one class (or of no class) and the creation distribution."""
    return landmarks(book.ruleset, class_name)


def average(
    book,
    distribution: dict[tuple[int, ...], float] | None,
    class_name: str | None,
    *,
    luck_policy: str,
    deadline: float,
    max_states: int = DEFAULT_STATES,
) -> Average:
    """The mean over the creation dice, most likely heroes first, until the deadline (a
    hero whose solve is cut short ends the average: what is solved is reported)."""
    total = solved = 0
    mean = covered = 0.0
    complete = True
    if distribution is None:  # too many heroes to average
        return Average(class_name, 0.0, 0, 0, 0.0, False)
    shared: dict = {}  # the fights' outcomes and tables, shared by the heroes
    for values, share in sorted(distribution.items(), key=lambda item: -item[1]):
        total += 1
        if not complete:
            continue
        if clock.now() > deadline:
            complete = False
            continue
        result = solve_book(
            book, values, class_name, luck_policy=luck_policy, deadline=deadline,
            max_states=max_states, shared=shared,
        )  # fmt: skip
        if not result.complete:
            complete = False
            continue
        solved += 1
        mean += share * result.win_probability
        covered += share
    return Average(class_name, mean, total, solved, covered, complete)
