"""YAML with positions: a small tree of nodes that remember their file:line:column.

Rulesets (built-in, the author's own, and book.yaml overrides) are read with ruamel.yaml's
round-trip loader, which builds only plain mappings, lists and scalars (it never constructs
Python objects), then turned into :class:`YNode` trees so that a value coming from any file
still knows where it was written after ``extends:`` and overrides are merged.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dedale import limits
from dedale.errors import RulesetError
from dedale.i18n import tr
from dedale.span import Span


@dataclass(slots=True)
class YNode:
    """A YAML value (dict of YNode, list of YNode, or scalar) and where it was written."""

    value: Any
    span: Span
    key_spans: dict[str, Span] = field(default_factory=dict)

    @property
    def is_map(self) -> bool:
        return isinstance(self.value, dict)

    def get(self, key: str) -> YNode | None:
        return self.value.get(key) if isinstance(self.value, dict) else None

    def plain(self) -> Any:
        """The value without positions."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value


def _position(container: Any, key: Any, file: str, fallback: Span, *, of_key: bool) -> Span:
    try:
        if isinstance(container, list):  # ruamel's CommentedSeq (a list) or plain data
            line, col = container.lc.item(key)
        elif of_key:
            line, col = container.lc.key(key)
        else:
            line, col = container.lc.value(key)
    except (AttributeError, KeyError, IndexError, TypeError):
        return fallback
    return Span(file, line + 1, col + 1)


class _Budget:
    """Counts the nodes of one conversion and the containers being converted (loops)."""

    __slots__ = ("left", "active")

    def __init__(self, limit: int):
        self.left = limit
        self.active: set[int] = set()


def to_tree(data: Any, file: str, span: Span, budget: _Budget | None = None) -> YNode:
    """Convert loaded YAML (ruamel round-trip or plain Python data) to a YNode tree.

    Nodes are counted while converting: more than ``limits.MAX_YAML_NODES`` (aliases
    expanded) or a value that contains itself is a RulesetError at the spot.
    """
    if budget is None:
        budget = _Budget(limits.MAX_YAML_NODES)
    budget.left -= 1
    if budget.left < 0:
        raise RulesetError(
            tr("more than {limit} YAML values here", limit=limits.MAX_YAML_NODES),
            span,
            tr("aliases (`*name`) count once per use; write the values out or use fewer"),
        )
    if not isinstance(data, Mapping | list):
        return _scalar(data, span)
    if id(data) in budget.active:
        raise RulesetError(
            tr("this value contains itself (a recursive alias)"),
            span,
            tr("an alias (`*name`) cannot be used inside the value it names"),
        )
    budget.active.add(id(data))
    try:
        return _container(data, file, span, budget)
    finally:
        budget.active.discard(id(data))


def _container(data: Any, file: str, span: Span, budget: _Budget) -> YNode:
    tag = getattr(getattr(data, "tag", None), "value", None)
    if tag is not None and isinstance(data, Mapping | list):
        raise RulesetError(
            tr("YAML tags are not allowed ({tag})", tag=tag),
            span,
            tr("use plain mappings, lists, numbers and text (no tags)"),
        )
    if isinstance(data, Mapping):
        children: dict[str, YNode] = {}
        key_spans: dict[str, Span] = {}
        for key, value in data.items():
            key_span = _position(data, key, file, span, of_key=True)
            value_span = _position(data, key, file, key_span, of_key=False)
            if not isinstance(key, str | int | float) or isinstance(key, bool):
                raise RulesetError(
                    tr("a key must be a name, not '{key}'", key=key),
                    key_span,
                    tr("write the key as a word, such as `name`"),
                )
            name = str(key)
            key_spans[name] = key_span
            children[name] = to_tree(value, file, value_span, budget)
        return YNode(children, span, key_spans)
    items = [
        to_tree(value, file, _position(data, index, file, span, of_key=False), budget)
        for index, value in enumerate(data)
    ]
    return YNode(items, span)


def _scalar(data: Any, span: Span) -> YNode:
    if data is None or isinstance(data, bool | int | float | str):
        return YNode(data if not isinstance(data, str) else str(data), span)
    raise RulesetError(
        tr("unsupported YAML value of type {kind}", kind=type(data).__name__),
        span,
        tr("use plain mappings, lists, numbers and text (no tags)"),
    )


def load_yaml_file(path: Path, shown: str | None = None) -> YNode:
    """Read a YAML file safely into a YNode tree; syntax errors become RulesetError."""
    shown = shown or str(path)
    try:
        if path.stat().st_size > limits.MAX_YAML_BYTES:
            raise RulesetError(
                tr("this ruleset file is too large (more than {limit} bytes)",
                   limit=limits.MAX_YAML_BYTES),
                Span(shown, 1, 1),
                tr("a ruleset is a few kilobytes; is this the right file?"),
            )  # fmt: skip
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        message = tr("cannot read ruleset file: {reason}", reason=error.strerror)
        hint = tr("check that the file exists and that you may read it")
        raise RulesetError(message, Span(shown, 1, 1), hint) from None
    except UnicodeDecodeError:
        raise RulesetError(
            tr("the ruleset file is not UTF-8 text"), Span(shown, 1, 1), tr("save it as UTF-8")
        ) from None
    return load_yaml_text(text, shown)


def load_yaml_text(text: str, shown: str) -> YNode:
    """Parse YAML text (round-trip loader: plain data only, bounded) into a YNode tree."""
    from dedale.rules.yamlsafe import parse_yaml  # imports ruamel.yaml (~10 ms)

    data = parse_yaml(
        text,
        shown,
        RulesetError,
        syntax_hint=tr("check the indentation and the ':' after each key"),
        ruleset=True,
    )
    root = to_tree(data, shown, Span(shown, 1, 1))
    if root.value is None:
        return YNode({}, root.span)
    return root


def merge(base: YNode, over: YNode) -> YNode:
    """Deep merge: mappings merge key by key, anything else in ``over`` replaces."""
    if not (base.is_map and over.is_map):
        return over
    children = dict(base.value)
    key_spans = dict(base.key_spans)
    for key, node in over.value.items():
        if key in children:
            children[key] = merge(children[key], node)
        else:
            children[key] = node
        if key in over.key_spans:
            key_spans[key] = over.key_spans[key]
    return YNode(children, over.span, key_spans)


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str | None:
    """``"did you mean `x`?"`` for the closest choice, or None."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        close = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        close = [lowered[c] for c in close]
    return tr("did you mean `{name}`?", name=close[0]) if close else None


def is_commented(data: Any) -> bool:
    """Whether ``data`` is ruamel.yaml's round-trip data (none before ruamel is imported)."""
    comments = sys.modules.get("ruamel.yaml.comments")
    return comments is not None and isinstance(data, comments.CommentedMap | comments.CommentedSeq)
