"""Names that nearly match: "did you mean" instead of two unrelated findings.

An item needed but never given (E023) whose name is close to one that is given (``Cle en
fer`` needed, ``Clé de fer`` given), or a codeword tested but never set (E024) close to one
that is set (NOCTIX / NOCTIS), is most likely a typo: the finding at the use names the near
match and where it is given, and the "given but never used" finding of the near match
(I025, I026) is dropped, since it is the same defect.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from dedale.i18n import tr
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.rules_checks import Site, Uses, starting_items

CUTOFF = 0.8  # difflib ratio of the folded names
MAX_NAMES = 2_000  # names compared, at most (the comparison is quadratic)


def _where(sites: list[Site]) -> str:
    number, span, _ = sites[0]
    return tr("paragraph {number}, {file}:{line}", number=number, file=span.file, line=span.line)


def _written(book: object, folded: str) -> str:
    """A starting item's name as book.yaml or the ruleset's class kit writes it."""
    meta = getattr(book, "meta", None)
    items = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
    ruleset = getattr(book, "ruleset", None)
    kits = [i for c in (getattr(ruleset, "classes", None) or {}).values() for i in c.kit]
    names = [getattr(item, "item", item) for item in items or ()]  # book.yaml: GainItem
    for name in (*names, *kits):
        if fold(str(name)) == folded:
            return str(name)
    return folded


def _near(name: str, candidates: list[str]) -> str | None:
    found = difflib.get_close_matches(name, candidates, n=1, cutoff=CUTOFF)
    return found[0] if found else None


def tie_near_names(found: Iterable[Finding], uses: Uses, book: object) -> list[Finding]:
    """``found`` with E023/E024 at a near miss turned into "did you mean" (see above)."""
    found = list(found)
    start = starting_items(book)
    kinds = (
        ("E023", "I025", uses.items_needed, uses.items_given, start),
        ("E024", "I026", uses.codewords_tested, uses.codewords_set, set()),
    )
    replaced: dict[tuple[str, Span], Finding] = {}
    dropped: set[tuple[str, str]] = set()  # (code, folded name) of unused findings to drop
    for code, unused, needed, given, extra in kinds:
        names = sorted(set(given) | extra)
        if len(names) > MAX_NAMES or len(needed) > MAX_NAMES:
            continue
        for name, sites in needed.items():
            if name in given or name in extra:
                continue
            near = _near(name, names)
            if near is None:
                continue
            given_sites = given.get(near)
            written_near = given_sites[0][2] if given_sites else _written(book, near)
            where = _where(given_sites) if given_sites else tr("the starting items")
            for number, span, written in sites:
                replaced[(code, span)] = _did_you_mean(
                    code, number, span, written, written_near, where
                )
            dropped.add((unused, near))
    if not replaced:
        return found
    unused_spans = {
        (code, sites[0][1])
        for code, table in (("I025", uses.items_given), ("I026", uses.codewords_set))
        for name, sites in table.items()
        if (code, name) in dropped
    }
    kept = []
    for item in found:
        key = (item.code, item.span)
        if key in unused_spans:
            continue
        kept.append(replaced.get(key, item) if item.span is not None else item)
    return kept


def _did_you_mean(
    code: str, number: int, span: Span, written: str, near: str, where: str
) -> Finding:
    if code == "E023":
        message = tr(
            "item '{name}' is needed here but no paragraph gives it; did you mean '{near}' "
            "(given in {where})?",
            name=written,
            near=near,
            where=where,
        )
    else:
        message = tr(
            "codeword '{name}' is tested here but no paragraph sets it; did you mean "
            "'{near}' (set in {where})?",
            name=written,
            near=near,
            where=where,
        )
    return finding(
        code,
        message,
        span,
        paragraph=number,
        hint=tr("write the name the same way in both places ('{near}')", near=near),
        near=near,
        near_folded=fold(near),
    )
