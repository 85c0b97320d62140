"""Load and validate rulesets: built-in names, the author's YAML files, book overrides.

``load_ruleset("df24")`` reads ``dedale/rules/rulesets/df24.yaml``; ``extends:`` merges it
over its parent; ``overrides`` (from book.yaml) are merged last. Every mistake raises
RulesetError with the file:line:column of the offending value and a hint.
"""

from __future__ import annotations

import errno
import functools
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from dedale import limits
from dedale.errors import DiceExpressionError, RulesetError
from dedale.i18n import tr
from dedale.rules import builtin_cache, schema
from dedale.rules.ruleset import Ruleset, fold
from dedale.rules.yamltree import (
    YNode,
    did_you_mean,
    load_yaml_file,
    load_yaml_text,
    merge,
    to_tree,
)
from dedale.span import Span

MAX_EXTENDS_DEPTH = limits.MAX_EXTENDS_DEPTH


#: What a built-in ruleset name can be (its file is ``<name>.yaml`` in the package).
_BUILTIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def builtin_names() -> list[str]:
    """The names of the built-in rulesets."""
    folder = resources.files("dedale.rules").joinpath("rulesets")
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def _is_path(ref: str) -> bool:
    return ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def _read_builtin(name: str, where: Span | None) -> YNode:
    tree = _builtin_tree(name)
    if tree is not None:
        return tree
    choices = builtin_names()
    shown = name if len(name) <= 40 else f"{name[:37]}…"
    hint = did_you_mean(name[:64], choices) or tr(
        "built-in rulesets: {names}", names=", ".join(choices)
    )
    raise RulesetError(tr("unknown ruleset {name}", name=repr(shown)), where, hint)


@functools.lru_cache(maxsize=16)
def _builtin_tree(name: str) -> YNode | None:
    """The parsed tree of a built-in ruleset (parsed once, then kept in the user's cache:
    rules.builtin_cache; trees are never mutated)."""
    if not _BUILTIN_NAME.fullmatch(name) or name not in builtin_names():
        return None
    resource = resources.files("dedale.rules").joinpath("rulesets").joinpath(f"{name}.yaml")
    text, shown = resource.read_text("utf-8"), f"<builtin>/{name}.yaml"
    tree = builtin_cache.load(name, text, shown)  # the tree parsed at an earlier start
    if tree is None:
        tree = load_yaml_text(text, shown)
        builtin_cache.store(name, text, tree)
    return tree


def _read_path(ref: str, base_dir: Path | None, where: Span | None) -> tuple[YNode, Path]:
    base = (base_dir or Path.cwd()).resolve()
    try:
        path = (base / ref).resolve()
    except RuntimeError:  # Python < 3.13 on a symbolic link loop
        path = None
    except (OSError, ValueError) as error:
        if getattr(error, "errno", None) != errno.ELOOP:
            raise RulesetError(
                tr("cannot open ruleset file {ref}: {reason}", ref=repr(ref[:64]),
                   reason=getattr(error, "strerror", None) or type(error).__name__),
                where,
                tr("give the path of a YAML file inside the book folder"),
            ) from None  # fmt: skip
        path = None
    if path is None:
        raise RulesetError(
            tr("ruleset file {ref} is a symbolic link that leads back to itself", ref=repr(ref)),
            where,
            tr("replace the link with the ruleset file itself"),
        )
    if not path.is_relative_to(base):
        raise RulesetError(
            tr("ruleset file '{ref}' is outside the book folder", ref=ref),
            where,
            tr("keep your ruleset YAML inside the book folder"),
        )
    try:
        found = path.is_file()
    except OSError:  # a name longer than the system allows, ...
        found = False
    if not found:
        message = tr("ruleset file {name} not found", name=repr(ref[:64]))
        raise RulesetError(message, where, tr("looked in {folder}", folder=str(base)))
    shown = str(path.relative_to(base)) if base_dir is not None else str(path)
    return load_yaml_file(path, shown), path.parent


def _read(ref: str, base_dir: Path | None, where: Span | None, seen: tuple[str, ...]) -> YNode:
    if len(seen) > MAX_EXTENDS_DEPTH or ref in seen:
        raise RulesetError(
            tr(
                "ruleset '{ref}' extends itself (through {value})", ref=ref, value=" -> ".join(seen)
            ),
            where,
            tr("remove the loop of `extends:`"),
        )
    if _is_path(ref):
        node, _ = _read_path(ref, base_dir, where)
    else:
        node = _read_builtin(ref, where)
    if not node.is_map:
        raise RulesetError(
            tr("a ruleset must be a mapping of keys"), node.span, tr("start with `name:`")
        )
    parent = node.get("extends")
    if parent is None:
        return node
    if not isinstance(parent.value, str):
        raise RulesetError(
            tr("`extends` must name a ruleset"), parent.span, tr("for example: extends: df-classic")
        )
    # A parent given as a path is relative to the book folder (base_dir), like any ref.
    base = _read(parent.value, base_dir, parent.span, (*seen, ref))
    children = dict(node.value)
    del children["extends"]
    return merge(base, YNode(children, node.span, node.key_spans))


def load_ruleset(
    ref: str,
    overrides: Mapping[str, Any] | None = None,
    base_dir: Path | None = None,
    *,
    overrides_file: str = "book.yaml",
    where: Span | None = None,
) -> Ruleset:
    """Load, merge and validate a ruleset (built-in name or YAML path inside base_dir).

    ``overrides`` (a mapping, e.g. the ``rules:`` section of book.yaml, ruamel data keeps
    its positions) is deep-merged over it; ``where`` is the span that named the ruleset.
    """
    try:
        tree = _read(ref, base_dir, where, ())
        if overrides:
            over = to_tree(overrides, overrides_file, where or Span(overrides_file, 1, 1))
            if not over.is_map:
                raise RulesetError(
                    tr("ruleset overrides must be a mapping"),
                    over.span,
                    tr("write each value to change on its own line, such as `inventory_limit: 8`"),
                )
            if "extends" in over.value:
                raise RulesetError(
                    tr("`extends` cannot be overridden"),
                    over.value["extends"].span,
                    tr("name the ruleset itself instead"),
                )
            tree = merge(tree, canonical_keys(tree, over))
        return schema.build_ruleset(tree)
    except DiceExpressionError as error:  # pragma: no cover - schema converts these
        raise RulesetError(error.message, error.span, error.hint) from None


_NAMED_SECTIONS = ("stats", "counters", "items", "tests")
"""The sections whose entries have names and aliases a book may write instead of the id."""


def canonical_keys(base: YNode, over: YNode) -> YNode:
    """``over`` with each entry of a named section written by one of its names or aliases
    (``counters: {repas: {initial: 5}}``) keyed by the entry's id (``meals``), so that it
    changes that entry instead of adding a second one beside it."""
    if not (base.is_map and over.is_map):
        return over
    sections = dict(over.value)
    for section in _NAMED_SECTIONS:
        known, given = base.get(section), sections.get(section)
        if known is None or given is None or not (known.is_map and given.is_map):
            continue
        ids = _spellings(known)
        children: dict[str, YNode] = {}
        spans = dict(given.key_spans)
        for key, node in given.value.items():
            target = key if key in known.value else ids.get(fold(str(key)), key)
            if target in children:  # both the id and an alias: the later one wins, as YAML
                children[target] = merge(children[target], node)
            else:
                children[target] = node
            if key in spans and target != key:
                spans[target] = spans.pop(key)
        sections[section] = YNode(children, given.span, spans)
    return YNode(sections, over.span, over.key_spans)


def _spellings(section: YNode) -> dict[str, str]:
    """Folded name or alias -> id, for the entries of a named section."""
    found: dict[str, str] = {}
    for ident, entry in section.value.items():
        names: list[str] = []
        given = entry.get("names") if entry.is_map else None
        if given is not None and given.is_map:
            names += [str(v.value) for v in given.value.values() if isinstance(v.value, str)]
        elif given is not None and isinstance(given.value, str):
            names.append(given.value)
        aliases = entry.get("aliases") if entry.is_map else None
        if aliases is not None and isinstance(aliases.value, list):
            names += [str(a.value) for a in aliases.value if isinstance(a.value, str)]
        for name in names:
            found.setdefault(fold(name), ident)
    return found
