"""SARIF 2.1.0, for GitHub code scanning (``github/codeql-action/upload-sarif``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from dedale import __version__
from dedale.i18n import tr, translate
from dedale.validator.checker import BookReport
from dedale.validator.findings import CHECKS
from dedale.validator.report import display_path
from dedale.validator.report.language import report_language

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
HELP_URI = "docs/validator.md"


def _rules(lang: str | None = None) -> list[dict[str, Any]]:
    return [
        {
            "id": check.code,
            "name": check.name,
            "shortDescription": {"text": tr(check.title).translate(lang)},
            "helpUri": f"{HELP_URI}#{check.code.lower()}",
            "defaultConfiguration": {"level": LEVELS[check.severity]},
        }
        for check in CHECKS.values()
    ]


def _text(item, lang: str | None) -> str:
    """The finding's message and hint, in ``lang``."""
    text = translate(item.message, lang)
    if item.hint:
        text += " " + tr("(hint: {hint})", hint=item.hint).translate(lang)
    return text


def document(reports: Sequence[BookReport]) -> dict[str, Any]:
    """The SARIF log."""
    index = {code: position for position, code in enumerate(CHECKS)}
    results = []
    for report in reports:
        for item in report.findings:
            span = item.span
            region: dict[str, int] = {}
            if span is not None:
                region = {"startLine": span.line, "startColumn": span.column}
                if span.end_line is not None:
                    region["endLine"] = span.end_line
                if span.end_column is not None:
                    region["endColumn"] = span.end_column
            location: dict[str, Any] = {
                "artifactLocation": {
                    "uri": display_path(span.file if span else report.path),
                    "uriBaseId": "%SRCROOT%",
                }
            }
            if region:
                location["region"] = region
            result: dict[str, Any] = {
                "ruleId": item.code,
                "ruleIndex": index[item.code],
                "level": LEVELS[item.severity],
                "message": {"text": _text(item, report.lang)},
                "locations": [{"physicalLocation": location}],
            }
            properties: dict[str, Any] = {}
            if item.paragraph is not None:
                properties["paragraph"] = item.paragraph
            if item.data.get("estimate"):  # an estimated fight: sample size and margin
                properties.update(item.data)
            if properties:
                result["properties"] = properties
            results.append(result)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dedale",
                        "version": __version__,
                        "rules": _rules(report_language(reports)),
                    }
                },
                "results": results,
            }
        ],
    }


def render(reports: Sequence[BookReport], stream: TextIO, exit_code: int = 0) -> None:
    json.dump(document(reports), stream, ensure_ascii=False, indent=2)
    stream.write("\n")
