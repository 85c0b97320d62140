"""Run a book's plans: find them, parse them, play them (``dedale test`` and the tests)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from dedale.errors import DedaleError
from dedale.plans.findings import PlanResult, plan_finding
from dedale.plans.parser import PlanError, read_plan
from dedale.plans.runner import run_plan

PLAN_FOLDER = "tests"
MAX_PLANS = 1000
"""At most this many plans are run in one go."""


def default_plans(book_path: str | Path) -> list[Path]:
    """The ``*.plan`` files of the book's ``tests/`` folder, sorted."""
    root = Path(book_path)
    folder = (root if root.is_dir() else root.parent) / PLAN_FOLDER
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("*.plan") if path.is_file())[:MAX_PLANS]


def run_plans(book, paths: Iterable[str | Path]) -> list[PlanResult]:
    """Play each plan on ``book``; a plan that cannot be read gives a P001 finding."""
    results: list[PlanResult] = []
    for path in list(paths)[:MAX_PLANS]:
        try:
            plan = read_plan(path)
        except PlanError as error:
            finding = plan_finding("P001", error.message, error.span, hint=error.hint)
            results.append(PlanResult(str(path), [finding], lang=error.lang or "en"))
            continue
        results.append(run_plan(book, plan))
    return results


def book_not_loaded(path: str | Path, error: DedaleError) -> PlanResult:
    """The result standing for every plan of a book that does not load (P003, at each of
    the loader's errors)."""
    errors = getattr(error, "errors", None) or [error]
    findings = [plan_finding("P003", item.message, item.span, hint=item.hint) for item in errors]
    return PlanResult(str(path), findings)
