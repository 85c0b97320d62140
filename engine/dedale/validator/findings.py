"""What the validator reports: Finding, and the registry of stable finding codes.

A code never changes meaning once released: new checks get new codes. The first letter
is the severity (E error, W warning, I info); the number is unique across severities and
grouped by family: 00x load errors, 01x structure, 02x rules and state, 03x fights,
04x random playthroughs, 05x limits of the analysis, 06x rules and state (continued: 02x is
full), 07x loops of forced jumps, 08x stats, counters and items along the paths (issue 14),
09x hidden numbers and the book's own state, 10x tests repeated until success, 12x the
path of fights.
docs/validator.md explains each
code with an example.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from dedale.span import Span

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Check:
    """A registered kind of finding: its stable code, severity and one-line title."""

    code: str
    severity: Severity
    name: str
    title: str


_CHECKS = (
    # load errors (the loader's own errors, rendered as findings)
    Check("E001", "error", "syntax-error", "A paragraph file does not parse"),
    Check("E002", "error", "book-structure-error", "The book is inconsistent"),
    Check("E003", "error", "book-metadata-error", "book.yaml holds a bad value"),
    Check("E004", "error", "ruleset-error", "The ruleset is malformed"),
    Check("E005", "error", "load-error", "The book cannot be loaded"),
    # structure
    Check("E010", "error", "missing-paragraph", "A destination names no paragraph"),
    Check("E011", "error", "duplicate-paragraph", "Two paragraphs share a number"),
    Check("W012", "warning", "numbering-gap", "Numbers are missing in the numbering"),
    Check("W013", "warning", "unreachable-paragraph", "No path from the start reaches it"),
    Check("E014", "error", "dead-end", "The reader can be left with nowhere to go"),
    Check("E015", "error", "no-way-out", "No ending can be reached from here"),
    Check("E016", "error", "no-victory", "No victory can be reached from the start"),
    Check("W017", "warning", "hidden-without-clue", "A declared hidden paragraph has no clue"),
    Check("W018", "warning", "undeclared-computed", "A computed destination is not declared"),
    Check("I019", "info", "computed-destination", "Where a computed destination may lead"),
    # rules and state
    Check("E020", "error", "unknown-stat", "A stat the ruleset does not define"),
    Check("E021", "error", "unknown-counter", "A counter the ruleset does not define"),
    Check("E022", "error", "unknown-class", "A class the ruleset does not define"),
    Check("E023", "error", "item-never-given", "An item is needed but never given"),
    Check("E024", "error", "codeword-never-set", "A codeword is tested but never set"),
    Check("I025", "info", "item-never-used", "An item is given but never used"),
    Check("I026", "info", "codeword-never-used", "A codeword is set but never tested"),
    Check("W027", "warning", "world-always-visited", "A choice into a World already visited"),
    Check("E028", "error", "requirement-unobtainable", "Victory needs what no path here gives"),
    Check("W029", "warning", "condition-never-met", "A condition no path here can meet"),
    # fights
    Check("W030", "warning", "deadly-fight", "A fight the median hero rarely wins"),
    Check("W031", "warning", "unwinnable-fight", "A fight no hero the ruleset rolls can win"),
    Check("W032", "warning", "fight-odds-unavailable", "A fight's odds cannot be computed"),
    # random playthroughs
    Check("E040", "error", "runtime-error", "A random game met a runtime error"),
    Check("E041", "error", "softlock", "A random game was left with no selectable choice"),
    Check("I042", "info", "never-reached", "Random games never reached this paragraph"),
    Check("W043", "warning", "game-too-long", "A random game did not end within the limit"),
    # limits of the analysis
    Check("I050", "info", "state-space-too-large", "State-aware checks were cut short"),
    # rules and state (continued)
    Check("I060", "info", "tag-never-acted-on", "No ability acts on a modifier's tag"),
    Check("W061", "warning", "rule-as-prose", "A prose line reads like a rule without its `>`"),
    Check("W062", "warning", "destination-in-prose", "The text names a way on the rules lack"),
    Check("W063", "warning", "penalty-never-lifted", "A penalty waits for an item nothing gives"),
    Check("I064", "info", "optional-item-needed", "A needed item is only an optional pick-up"),
    Check("W064", "warning", "options-after-text", "A choice's options written after its text"),
    Check("W065", "warning", "needs-more-than-limit", "A rule needs more items than fit"),
    # loops of forced jumps
    Check("E070", "error", "forced-loop", "Paragraphs loop forever with nothing to decide"),
    Check("W071", "warning", "forced-loop-on-state", "A forced loop ends only on a state"),
    # tests repeated until success (issue 13 §6)
    Check("I100", "info", "repeated-test-odds", "How often a test repeated until success kills"),
    Check("W101", "warning", "repeated-test-stuck", "A repeated test may never succeed"),
    # limits of the analysis (continued)
    Check("I051", "info", "time-budget-reached", "A costly check stopped at its time budget"),
    Check("I158", "info", "drops-one-at-a-time", "Drops for the inventory limit, one at a time"),
    # exact odds of fights against several enemies at once (issue 14.1)
    Check("I115", "info", "fight-odds-estimated", "Too many states: a fight's odds are estimated"),
    # stats, counters and items along the paths
    Check("W080", "warning", "unaffordable-cost", "A cost no path can pay"),
    Check("W081", "warning", "value-condition-never-met", "A stat condition no hero meets"),
    Check("W082", "warning", "gain-does-nothing", "A gain that stops at the initial value"),
    Check("W083", "warning", "no-meal-left", "A meal where no path has a meal left"),
    Check("W084", "warning", "loss-kills-every-hero", "A loss on the way to victory kills"),
    Check("W085", "warning", "never-won", "No way to win the book was found"),
    Check("W086", "warning", "lost-before-needed", "On some path, what is needed later is lost"),
    Check("W087", "warning", "lost-never-held", "An item lost where no path can hold it"),
    Check("W088", "warning", "class-never-wins", "No way to win was found for one class"),
    # hidden numbers (issue 13)
    Check("W090", "warning", "answer-not-hidden", "A prompt's answer is not marked hidden"),
    Check("W091", "warning", "answer-not-secret", "A prompt's answer is also an ordinary target"),
    Check("W092", "warning", "hidden-never-listed", "A hidden paragraph no prompt lists"),
    # the book's own flags and counters (book.yaml `state:`, issue 13 §4)
    Check("W094", "warning", "flag-never-noted", "A flag is tested but never noted"),
    Check("W095", "warning", "flag-never-tested", "A hidden flag is noted but never tested"),
    Check("W096", "warning", "counter-out-of-reach", "A counter condition no path can meet"),
    Check("I097", "info", "state-never-used", "A declared flag or counter is never used"),
    # the path of fights (issue 14.4)
    Check("W120", "warning", "deadly-path", "The main path to victory kills the median hero"),
)

CHECKS: dict[str, Check] = {check.code: check for check in _CHECKS}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the validator found, at a place in the author's files."""

    code: str
    message: str
    span: Span | None = None
    paragraph: int | None = None
    hint: str | None = None
    data: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def severity(self) -> Severity:
        return CHECKS[self.code].severity

    @property
    def name(self) -> str:
        return CHECKS[self.code].name

    def sort_key(self) -> tuple[str, int, int, str, str]:
        span = self.span
        return (
            span.file if span else "",
            span.line if span else 0,
            span.column if span else 0,
            self.code,
            self.message,
        )


def finding(
    code: str,
    message: str,
    span: Span | None = None,
    *,
    paragraph: int | None = None,
    hint: str | None = None,
    **data: object,
) -> Finding:
    """Build a Finding, checking that its code is registered."""
    if code not in CHECKS:
        raise KeyError(f"unregistered finding code {code}")
    return Finding(code, message, span, paragraph, hint, dict(data))
