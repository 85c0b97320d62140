"""Write a :class:`Plan` as the text of a ``.plan`` file, in its language's keywords.

``parse_plan(write_plan(plan)) == plan`` for every plan whose texts hold no line break and
not both kinds of quotes (tests/plans checks it with hypothesis). ``dedale play --record``
and ``dedale solve --plan`` use it::

    from dedale.plans.model import At, Choose, Ending, Expect, Held, Plan
    plan = Plan(
        hero=(("SKILL", 12), ("STAMINA", 24), ("LUCK", 12)),
        steps=(At(1), Choose(target=3), Expect((Held("Lantern"),)), Ending("victory")),
        language="en",        # or "fr": the keywords the text is written in
        otherwise=False,      # yes/no questions the steps do not answer: no
    )
    text = write_plan(plan, comment="best walkthrough: wins 87.5% of games")
"""

from __future__ import annotations

import re

from dedale.plans import keywords as kw
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
from dedale.plans.parser import VALUE_PATTERN as VALUE

_PLAIN = re.compile(r"^[^\s\"«»,/#:][^\"«»,/#]*(?<=\S)$|^[^\s\"«»,/#:]$")
_ENDS_IN_NUMBER = re.compile(r"\d\s*$")
_SET_NAME = re.compile(r"^[^\s\"«»/#][^\"«»/#]*(?<![\s\d])$")


def write_plan(plan: Plan, comment: str | None = None) -> str:
    """The text of ``plan`` (an optional ``comment`` goes on its first lines)."""
    words = kw.SPELLING[plan.language]
    lines: list[str] = []
    if comment:
        lines += [f"# {line}".rstrip() for line in comment.splitlines()]
    if plan.hero:
        stats = " ".join(f"{name} {value}" for name, value in plan.hero)
        lines.append(f"{words['hero']} {stats}")
    if plan.name is not None:
        lines.append(f"{words['name']} {_quoted(plan.name)}")
    if plan.class_name is not None:
        lines.append(f"{words['class']} {_quoted(plan.class_name)}")
    if plan.gender is not None:
        lines.append(f"{words['gender']} {plan.gender}")
    if plan.seed is not None:
        lines.append(f"{words['seed']} {plan.seed}")
    if plan.otherwise is not None:
        lines.append(f"{words['otherwise']} {words['yes'] if plan.otherwise else words['no']}")
    pending: str | None = None  # an `at N` waiting for the decision that follows it
    for step in plan.steps:
        text = _step(step, words)
        if isinstance(step, At):
            if pending is not None:
                lines.append(pending)
            pending = text
            continue
        if pending is not None and isinstance(step, Choose | Answer | Eat | Drop | Jump):
            lines.append(f"{pending} / {text}")
        else:
            if pending is not None:
                lines.append(pending)
            lines.append(text)
        pending = None
    if pending is not None:
        lines.append(pending)
    return "\n".join(lines) + "\n"


def _step(step: Step, words: dict[str, str]) -> str:
    if isinstance(step, Dice):
        return f"{words['dice']} " + " ".join(str(face) for face in step.faces)
    if isinstance(step, At):
        return f"{words['at']} {step.paragraph}"
    if isinstance(step, Choose):
        if step.target is not None:
            return f"{words['choose']} {step.target}"
        if step.number is not None:
            return f"{words['choose']} #{step.number}"
        return f"{words['choose']} {_quoted(step.text or '', always_if_number=True)}"
    if isinstance(step, Answer):
        value = step.value
        if value is True or value is False:
            return f"{words['answer']} {words['yes'] if value else words['no']}"
        if isinstance(value, int):
            return f"{words['answer']} {value}"
        special = kw.folded(value) in kw.YES or kw.folded(value) in kw.NO
        return f"{words['answer']} {_quoted(value, always_if_number=True, force=special)}"
    if isinstance(step, Eat):
        return words["eat"]
    if isinstance(step, Drop):
        return f"{words['drop']} {_quoted(step.item)}"
    if isinstance(step, Jump):
        return f"{words['jump']} {step.paragraph}"
    if isinstance(step, SetValue):
        name = _quoted(step.name, force=not _SET_NAME.match(step.name))
        return f"{words['set']} {name} {step.value}"
    if isinstance(step, God):
        return f"{words['god']} {words['on'] if step.on else words['off']}"
    if isinstance(step, Expect):
        return f"{words['expect']} " + ", ".join(_check(check, words) for check in step.checks)
    assert isinstance(step, Ending)
    if step.outcome == "stop":
        return words["stop"]
    return f"{words['ending']} {words[step.outcome]}"


def _check(check: Value | Held, words: dict[str, str]) -> str:
    if isinstance(check, Value):
        operator = "" if check.operator == "=" else f"{check.operator} "
        plain = f"{_quoted(check.name)} {operator}{check.number}"
        found = VALUE.match(plain)
        first = kw.folded(check.name.split(" ", 1)[0])
        if found and found.group("name") == check.name and first not in kw.NOT:
            return plain
        return f"{_quoted(check.name, force=True)} {operator}{check.number}"
    first = kw.folded(check.name.split(" ", 1)[0])
    force = first in kw.NOT or bool(_ENDS_IN_NUMBER.search(check.name))
    name = _quoted(check.name, force=force)
    return f"{words['not']} {name}" if not check.held else name


def _quoted(text: str, *, always_if_number: bool = False, force: bool = False) -> str:
    """``text`` as is when the parser reads it back the same, else in quotes."""
    plain = bool(_PLAIN.match(text)) and "//" not in text
    if always_if_number and re.match(r"^[§\s\u00a0]*-?\d+$|^#", text):
        plain = False
    if plain and not force:
        return text
    return f"«{text}»" if '"' in text else f'"{text}"'
