"""GitHub Actions workflow commands: ``::error file=…,line=…,col=…,title=…::message``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from dedale.i18n import tr, translate
from dedale.validator.checker import BookReport
from dedale.validator.report import display_path

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(reports: Sequence[BookReport], stream: TextIO, exit_code: int = 0) -> None:
    for report in reports:
        for item in report.findings:
            props = []
            span = item.span
            file = display_path(span.file) if span else display_path(report.path)
            props.append(f"file={_property(file)}")
            if span is not None:
                props.append(f"line={span.line}")
                props.append(f"col={span.column}")
                if span.end_line is not None:
                    props.append(f"endLine={span.end_line}")
                if span.end_line == span.line and span.end_column is not None:
                    props.append(f"endColumn={span.end_column}")
            props.append(f"title={_property(f'{item.code} {item.name}')}")
            message = translate(item.message, report.lang)
            if item.hint:
                message += "\n" + tr("hint: {hint}", hint=item.hint).translate(report.lang)
            stream.write(f"::{COMMANDS[item.severity]} {','.join(props)}::{_data(message)}\n")
