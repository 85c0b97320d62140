"""ruamel.yaml's words for a YAML mistake, translatable: the English is ruamel's own text
(so an English report reads as before), the French is the catalogue's. A problem this table
does not know is shown as ruamel wrote it."""

from __future__ import annotations

import re
from collections.abc import Callable

from dedale.i18n import tr

_PROBLEMS: tuple[tuple[re.Pattern[str], Callable[..., str]], ...] = (
    (re.compile(r"mapping values are not allowed here"),
     lambda: tr("mapping values are not allowed here")),
    (re.compile(r"found character '(?P<char>.+)' that cannot start any token"),
     lambda char: tr("found character '{char}' that cannot start any token", char=char)),
    (re.compile(r'found duplicate key "(?P<key>.*)" with value "(?P<value>.*)" '
                r'\(original value: "(?P<original>.*)"\)'),
     lambda key, value, original: tr(
         'found duplicate key "{key}" with value "{value}" (original value: "{original}")',
         key=key, value=value, original=original)),
    (re.compile(r"expected '(?P<first>.+)' or '(?P<second>.+)', but got '(?P<found>.+)'"),
     lambda first, second, found: tr(
         "expected '{first}' or '{second}', but got '{found}'",
         first=first, second=second, found=found)),
    (re.compile(r"expected <block end>, but found '(?P<found>.+)'"),
     lambda found: tr("expected <block end>, but found '{found}'", found=found)),
    (re.compile(r"found undefined alias '(?P<name>.+)'"),
     lambda name: tr("found undefined alias '{name}'", name=name)),
    (re.compile(r"found unexpected end of stream"), lambda: tr("found unexpected end of stream")),
    (re.compile(r"found unknown escape character '(?P<char>.+)'"),
     lambda char: tr("found unknown escape character '{char}'", char=char)),
    (re.compile(r"could not find expected ':'"), lambda: tr("could not find expected ':'")),
    (re.compile(r"but found another document"), lambda: tr("but found another document")),
    (re.compile(r"invalid YAML"), lambda: tr("invalid YAML")),
)  # fmt: skip


def problem_text(problem: str) -> str:
    """``problem`` (ruamel's text) as a translatable message when the table knows it."""
    for pattern, message in _PROBLEMS:
        found = pattern.fullmatch(problem)
        if found:
            return message(**found.groupdict())
    return problem
