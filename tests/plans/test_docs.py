"""docs/plans.md and docs/fr/plans.md: the same examples, in English and French keywords;
each parses, and the first one plays to victory on the Salt Road test book."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.plans import parse_plan
from dedale.plans.model import Answer, Choose, Expect, Value
from dedale.plans.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = ROOT / "docs" / "plans.md"
FRENCH = ROOT / "docs" / "fr" / "plans.md"
SALT_ROAD = ROOT / "tests" / "books_extra" / "plans"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(path: Path, language: str) -> list[str]:
    return [m.group(2) for m in _FENCE.finditer(path.read_text("utf-8")) if m.group(1) == language]


def shape(plan) -> list[tuple]:
    """What an example does, without the words of a language (names stay the book's)."""
    out: list[tuple] = [tuple(value for _, value in plan.hero), (plan.seed, plan.otherwise)]
    for step in plan.steps:
        if isinstance(step, Expect):
            out.append(
                tuple(
                    (c.operator, c.number) if isinstance(c, Value) else ("held", c.held)
                    for c in step.checks
                )
            )
        elif isinstance(step, Choose):
            out.append((step.target, step.number, step.text is None))
        elif isinstance(step, Answer):
            out.append(("answer", step.value if not isinstance(step.value, str) else "name"))
        else:
            fields = ("faces", "paragraph", "outcome")
            out.append((type(step).__name__, *(getattr(step, name, None) for name in fields)))
    return out


def test_the_same_examples_in_both_languages():
    english, french = blocks(ENGLISH, "plan"), blocks(FRENCH, "plan")
    assert len(english) == len(french) >= 2
    for index, (en, fr) in enumerate(zip(english, french, strict=True)):
        en_plan, fr_plan = parse_plan(en, f"en-{index}"), parse_plan(fr, f"fr-{index}")
        assert (en_plan.language, fr_plan.language) == ("en", "fr")
        assert shape(en_plan) == shape(fr_plan), index
    assert blocks(ENGLISH, "text") == blocks(FRENCH, "text")


@pytest.mark.parametrize("path", [ENGLISH, FRENCH], ids=["en", "fr"])
def test_the_first_example_plays_to_victory(path):
    plan = parse_plan(blocks(path, "plan")[0], path.name)
    result = run_plan(load_book(SALT_ROAD), plan)
    assert result.findings == []
    assert result.outcome == "victory"


def test_every_finding_code_is_documented():
    from dedale.plans.findings import PLAN_CHECKS

    for path in (ENGLISH, FRENCH):
        text = path.read_text("utf-8")
        for code in PLAN_CHECKS:
            assert f"| {code} |" in text, (path.name, code)
