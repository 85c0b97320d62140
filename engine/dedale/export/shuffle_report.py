"""What ``dedale export --shuffle`` tells the author about the numbering it chose."""

from __future__ import annotations

from dedale.export.shuffle import Shuffle
from dedale.i18n import Message, ntr, tr


def _reasons() -> dict[str, Message]:
    return {
        "start": tr("the start"),
        "victory": tr("a victory"),
        "author": tr("pinned by the author"),
        "hidden": tr("a hidden number"),
        "computed": tr("a computed destination"),
        "item": tr("an item's number"),
        "prose": tr("named in the text"),
    }


def shuffle_warnings(result: Shuffle) -> list[Message]:
    """A warning per link left on consecutive numbers (with the pins that forced it), and a
    note of the links left on one estimated page spread."""
    said: list[Message] = []
    for a, b in result.adjacent:
        reasons = _reasons()
        why = ", ".join(
            f"{n} ({reasons.get(result.pinned[n], result.pinned[n])})"
            for n in (a, b)
            if n in result.pinned
        ) or tr("none")
        said.append(
            tr(
                "warning: paragraphs {a} and {b} are linked and numbered {x} and {y}, one after"
                " the other (pinned: {why})",
                a=a,
                b=b,
                x=result.mapping[a],
                y=result.mapping[b],
                why=why,
            )  # fmt: skip
        )
    if result.same_spread:
        said.append(
            ntr(
                "note: {count} link of {links} joins paragraphs on one page spread (pages"
                " estimated from the text's length)",
                "note: {count} links of {links} join paragraphs on one page spread (pages"
                " estimated from the text's length)",
                len(result.same_spread),
                count=len(result.same_spread),
                links=result.links,
            )
        )
    return said
