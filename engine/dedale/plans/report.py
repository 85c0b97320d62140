"""Output of ``dedale test``: text, json, github and sarif, like ``dedale validate``.

github reuses the validator's renderer as is; text and json reuse its pieces (a finding
with its source line and caret; a finding's JSON object) around a per-plan summary.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from dedale import __version__
from dedale.i18n import ntr, tr, translate
from dedale.plans.findings import PLAN_CHECKS, PlanResult
from dedale.validator.report import display_path

FORMATS = ("text", "json", "github", "sarif")
SCHEMA = "dedale-test/1"


def render(name: str, results: Sequence[PlanResult], stream: TextIO, lang: str) -> None:
    """Write the results of the plans in format ``name``; ``lang`` speaks the summary."""
    if name == "text":
        _text(results, stream, lang)
    elif name == "json":
        json.dump(document(results), stream, ensure_ascii=False, indent=2)
        stream.write("\n")
    elif name == "github":
        from dedale.validator.checker import BookReport
        from dedale.validator.report.github import render as github

        reports = [BookReport(r.file, findings=list(r.findings), lang=r.lang) for r in results]
        github(reports, stream, 0)
    elif name == "sarif":
        json.dump(sarif(results), stream, ensure_ascii=False, indent=2)
        stream.write("\n")
    else:
        raise KeyError(name)


def _ending(result: PlanResult):
    if result.outcome == "victory":
        return tr("victory at § {paragraph}", paragraph=result.paragraph)
    if result.outcome == "death":
        return tr("death at § {paragraph}", paragraph=result.paragraph)
    return tr("stopped at § {paragraph}", paragraph=result.paragraph)


def _text(results: Sequence[PlanResult], stream: TextIO, lang: str) -> None:
    from rich.console import Console

    from dedale.validator.report.text import _finding

    console = Console(file=stream, width=100, highlight=False, soft_wrap=False)
    for result in results:
        file = display_path(result.file)
        if result.passed:
            line = tr("{file}: passed ({ending})", file=file, ending=_ending(result))
            console.print(line.translate(result.lang), style="green", soft_wrap=True)
            continue
        line = ntr("{file}: failed ({count} finding)", "{file}: failed ({count} findings)",
                   len(result.findings), file=file)  # fmt: skip
        console.print(line.translate(result.lang), style="bold red", soft_wrap=True)
        for item in result.findings:
            console.print(_finding(item, file, result.lang), soft_wrap=True)
    failed = sum(1 for result in results if not result.passed)
    summary = tr(
        "{plans}: {passed}, {failed}",
        plans=ntr("{count} plan", "{count} plans", len(results)),
        passed=ntr("{count} passed", "{count} passed", len(results) - failed),
        failed=ntr("{count} failed", "{count} failed", failed),
    )  # each count agrees on its own (French: « 1 réussi, 2 échoués »)
    console.print(summary.translate(lang), style="bold", soft_wrap=True)


def document(results: Sequence[PlanResult]) -> dict[str, Any]:
    """The JSON document (schema ``dedale-test/1``, docs/plans.md)."""
    from dedale.validator.report.json import finding_data

    return {
        "schema": SCHEMA,
        "dedale": __version__,
        "plans": [
            {
                "file": display_path(result.file),
                "passed": result.passed,
                "outcome": result.outcome,
                "paragraph": result.paragraph,
                "steps": result.steps,
                "language": result.lang,
                "findings": [finding_data(item, result.lang) for item in result.findings],
            }
            for result in results
        ],
        "summary": {
            "plans": len(results),
            "failed": sum(1 for result in results if not result.passed),
        },
    }


def sarif(results: Sequence[PlanResult]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of the findings (GitHub code scanning)."""
    from dedale.validator.report.sarif import LEVELS, SCHEMA_URI

    index = {code: position for position, code in enumerate(PLAN_CHECKS)}
    lang = results[0].lang if results else "en"
    rules = [
        {
            "id": check.code,
            "name": check.name,
            "shortDescription": {"text": tr(check.title).translate(lang)},
            "helpUri": f"docs/plans.md#{check.code.lower()}",
            "defaultConfiguration": {"level": LEVELS[check.severity]},
        }
        for check in PLAN_CHECKS.values()
    ]
    out = []
    for result in results:
        for item in result.findings:
            span = item.span
            location: dict[str, Any] = {
                "artifactLocation": {
                    "uri": display_path(span.file if span else result.file),
                    "uriBaseId": "%SRCROOT%",
                }
            }
            if span is not None:
                region = {"startLine": span.line, "startColumn": span.column}
                if span.end_line is not None:
                    region["endLine"] = span.end_line
                if span.end_column is not None:
                    region["endColumn"] = span.end_column
                location["region"] = region
            text = translate(item.message, result.lang)
            if item.hint:
                text += " " + tr("(hint: {hint})", hint=item.hint).translate(result.lang)
            entry: dict[str, Any] = {
                "ruleId": item.code,
                "ruleIndex": index[item.code],
                "level": LEVELS[item.severity],
                "message": {"text": text},
                "locations": [{"physicalLocation": location}],
            }
            if item.paragraph is not None:
                entry["properties"] = {"paragraph": item.paragraph}
            out.append(entry)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "dedale test", "version": __version__, "rules": rules}},
                "results": out,
            }
        ],
    }
