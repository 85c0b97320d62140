"""What ``dedale test`` reports: findings with codes of their own (P0xx), at plan lines.

They reuse the validator's :class:`Finding` (so its json and github renderers take them);
the code registry here is the plans' own, apart from the validator's.
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.span import Span
from dedale.validator.findings import Check, Finding

_CHECKS = (
    Check("P001", "error", "plan-syntax-error", "A plan file cannot be read"),
    Check("P002", "error", "plan-setup-error", "The plan's hero cannot be created"),
    Check("P003", "error", "book-load-error", "The book does not load"),
    Check("P010", "error", "wrong-paragraph", "The game is not at the paragraph expected"),
    Check("P011", "error", "expectation-failed", "A value, item or codeword is not as expected"),
    Check("P012", "error", "unknown-name", "An expectation names nothing the book knows"),
    Check("P020", "error", "choice-not-offered", "The book no longer offers the plan's choice"),
    Check("P021", "error", "answer-does-not-fit", "The plan's answer does not fit the question"),
    Check("P022", "error", "plan-ends-early", "The plan ends while the game still asks"),
    Check("P023", "error", "game-ended-early", "The game ended before the plan's last steps"),
    Check("P024", "error", "wrong-ending", "The game ended otherwise than the plan expects"),
    Check("P030", "error", "runtime-error", "The game met an error while following the plan"),
    Check("P031", "error", "plan-too-long", "The game ran past the plan's bound"),
)
PLAN_CHECKS: dict[str, Check] = {check.code: check for check in _CHECKS}


class PlanFinding(Finding):
    """A Finding whose code is a plan code."""

    __slots__ = ()

    @property
    def severity(self):  # type: ignore[override]
        return PLAN_CHECKS[self.code].severity

    @property
    def name(self) -> str:  # type: ignore[override]
        return PLAN_CHECKS[self.code].name


def plan_finding(
    code: str, message, span: Span | None, *, paragraph: int | None = None, hint=None
) -> PlanFinding:
    """Build a finding, checking that its code is registered."""
    if code not in PLAN_CHECKS:
        raise KeyError(f"unregistered plan finding code {code}")
    return PlanFinding(code, message, span, paragraph, hint, {})


@dataclass(slots=True)
class PlanResult:
    """What playing one plan gave: its findings, and where the game stood at the end."""

    file: str
    findings: list[PlanFinding]
    outcome: str | None = None
    paragraph: int | None = None
    steps: int = 0
    lang: str = "en"

    @property
    def passed(self) -> bool:
        return not self.findings
