"""YAML text -> plain round-trip data, with every size bounded before anything is built.

Both book.yaml and rulesets are read here. ruamel.yaml composes the document into a graph
of nodes in which an alias is the very node it names, so a "billion laughs" document is
small as a graph: :func:`check_graph` measures its size *as if* every alias were expanded
(memoised per node, so linear in the graph) and refuses recursive aliases, before the
constructor builds any Python value. Integers are refused past ``limits.MAX_DIGITS``
digits (Python's ``int()`` fails past 4,300) with their position.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, SequenceNode

from dedale import limits
from dedale.errors import DedaleError
from dedale.i18n import tr
from dedale.rules.yaml_problems import problem_text
from dedale.span import Span


class _Refused(Exception):
    """A bound passed at ``node``'s position (converted to the caller's error type)."""

    def __init__(self, message: str, node: Node | None, hint: str):
        super().__init__(message)
        self.message = message
        self.node = node
        self.hint = hint


def _too_deep() -> str:
    return tr("YAML values nested more than {limit} deep", limit=limits.MAX_YAML_DEPTH)


def _too_deep_hint() -> str:
    return tr("a ruleset needs a few levels of mappings; flatten this one")


def _flow_too_deep(text: str) -> tuple[int, int] | None:
    """Where ``[``/``{`` brackets first nest past the depth bound (line, column), if they do;
    a linear scan that skips quoted text and comments, before any YAML parsing."""
    depth = 0
    line, start = 1, 0
    quote = ""
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char == "\n":
            line, start, quote = line + 1, index + 1, ""
        elif quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            found = text.find("\n", index)
            index = size if found < 0 else found
            continue
        elif char in "[{":
            depth += 1
            if depth > limits.MAX_YAML_DEPTH:
                return line, index - start + 1
        elif char in "]}":
            depth = max(0, depth - 1)
        index += 1
    return None


def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []


def check_graph(root: Node) -> None:
    """Refuse a composed document whose expansion passes the bounds, or that loops."""
    limit = limits.MAX_YAML_NODES
    sizes: dict[int, int] = {}  # values, aliases expanded
    chars: dict[int, int] = {}  # characters of the text values, aliases expanded
    active: set[int] = set()
    distinct = 0
    stack: list[tuple[Node, bool, int]] = [(root, False, 0)]
    while stack:
        node, done, depth = stack.pop()
        key = id(node)
        if done:
            active.discard(key)
            children = _children(node)
            total = 1 + sum(sizes[id(child)] for child in children)
            sizes[key] = total
            text = len(node.value) if not children and isinstance(node.value, str) else 0
            text += sum(chars[id(child)] for child in children)
            chars[key] = text
            if text > limits.MAX_YAML_CHARS:
                raise _Refused(
                    tr("this value expands to more than {limit} characters",
                       limit=limits.MAX_YAML_CHARS),
                    node,
                    tr("each use of an alias (`*name`) copies its value; write fewer of them"),
                )  # fmt: skip
            if total > limit:
                if distinct > limit:
                    raise _Refused(
                        tr("more than {limit} YAML values", limit=limit),
                        node,
                        tr("a book.yaml or a ruleset is a few hundred values; split or trim it"),
                    )
                raise _Refused(
                    tr(
                        "this value expands to more than {limit} YAML values through its aliases",
                        limit=limit,
                    ),
                    node,
                    tr("each use of an alias (`*name`) copies its value; write fewer of them"),
                )
            continue
        if key in sizes:
            continue
        if key in active:
            raise _Refused(
                tr("this value contains itself (a recursive alias)"),
                node,
                tr("an alias (`*name`) cannot be used inside the value it names"),
            )
        if depth > limits.MAX_YAML_DEPTH:
            raise _Refused(_too_deep(), node, _too_deep_hint())
        distinct += 1
        active.add(key)
        stack.append((node, True, depth))
        for child in _children(node):
            if id(child) in active:
                raise _Refused(
                    tr("this value contains itself (a recursive alias)"),
                    child,
                    tr("an alias (`*name`) cannot be used inside the value it names"),
                )
            if id(child) not in sizes:
                stack.append((child, False, depth + 1))


class _CheckedConstructor(RoundTripConstructor):
    """The round-trip constructor, checking the whole graph first and every integer."""

    def construct_document(self, node: Any) -> Any:
        check_graph(node)
        return super().construct_document(node)

    def construct_checked_int(self, node: Any) -> Any:
        text = str(node.value).replace("_", "").lstrip("+-")
        if len(text) > limits.MAX_DIGITS + 2:  # room for a 0x / 0o prefix
            raise _Refused(
                tr("the number {text} is far too long", text=text[:12] + "…"),
                node,
                tr("no value of a book or ruleset needs more than {digits} digits",
                   digits=limits.MAX_DIGITS),
            )  # fmt: skip
        return self.construct_yaml_int(node)


_CheckedConstructor.add_constructor(
    "tag:yaml.org,2002:int", _CheckedConstructor.construct_checked_int
)


def parse_yaml(
    text: str,
    shown: str,
    error: type[DedaleError],
    line_offset: int = 0,
    syntax_hint: str | None = None,
    *,
    ruleset: bool = False,
) -> Any:
    """Parse YAML text into plain round-trip data; every problem is ``error`` at its spot.

    ``ruleset`` words syntax errors as a ruleset's ("YAML syntax error: ...").
    """
    start = Span(shown, 1 + line_offset, 1)
    if len(text) > limits.MAX_YAML_BYTES:
        raise error(
            tr("this YAML is too large (more than {limit} characters)",
               limit=limits.MAX_YAML_BYTES),
            start,
            tr("a book.yaml or a ruleset is a few kilobytes; split or trim it"),
        )  # fmt: skip
    deep = _flow_too_deep(text)
    if deep is not None:  # ruamel's parser is slow on deep flow nesting: refuse it first
        line, column = deep
        raise error(_too_deep(), Span(shown, line + line_offset, column), _too_deep_hint())
    yaml = YAML(typ="rt", pure=True)
    yaml.Constructor = _CheckedConstructor
    yaml.allow_duplicate_keys = False
    try:
        return yaml.load(text)
    except _Refused as refused:
        mark = getattr(refused.node, "start_mark", None)
        span = Span(shown, mark.line + 1 + line_offset, mark.column + 1) if mark else start
        raise error(refused.message, span, refused.hint) from None
    except MarkedYAMLError as problem:
        mark = problem.problem_mark or problem.context_mark
        span = Span(shown, mark.line + 1 + line_offset, mark.column + 1) if mark else start
        what = problem_text(problem.problem or problem.context or "invalid YAML")
        message = (
            tr("YAML syntax error: {problem}", problem=what)
            if ruleset
            else tr("YAML error: {problem}", problem=what)
        )
        raise error(message, span, syntax_hint) from None
    except YAMLError as problem:
        message = tr("YAML error: {problem}", problem=str(problem))
        raise error(message, start, syntax_hint or _yaml_hint()) from None
    except RecursionError:
        raise error(_too_deep(), start, _too_deep_hint()) from None
    except Exception as problem:  # ruamel may raise plain errors on odd input
        message = tr("YAML error: {problem}", problem=type(problem).__name__)
        raise error(message, start, syntax_hint or _yaml_hint()) from None


def _yaml_hint() -> str:
    return tr("write plain `key: value` lines, mappings and lists")
