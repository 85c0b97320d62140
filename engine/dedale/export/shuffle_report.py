"""What ``dedale export --shuffle`` tells the author about the numbering it chose."""

from __future__ import annotations

from dedale.export.shuffle import Shuffle
from dedale.i18n import Message, ntr, tr, translate


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


def shuffle_warnings(result: Shuffle, lang: str | None = None) -> list[str]:
    """A warning per link left on consecutive numbers (with the pins that forced it), and a
    note of the links left on one estimated page spread, in ``lang``."""
    said: list[str] = []
    for a, b in result.adjacent:
        reasons = _reasons()
        why = ", ".join(
            f"{n} ({translate(reasons.get(result.pinned[n], result.pinned[n]), lang)})"
            for n in (a, b)
            if n in result.pinned
        )
        if why:
            message = tr(
                "warning: paragraphs {a} and {b} are linked and numbered {x} and {y}, one after"
                " the other (pinned: {why})",
                a=a, b=b, x=result.mapping[a], y=result.mapping[b], why=why,
            )  # fmt: skip
        else:  # the pins elsewhere and the links leave no numbering that keeps them apart
            message = tr(
                "warning: paragraphs {a} and {b} are linked and numbered {x} and {y}, one after"
                " the other: with the pinned numbers, no numbering keeps every link apart",
                a=a, b=b, x=result.mapping[a], y=result.mapping[b],
            )  # fmt: skip
        said.append(translate(message, lang))
    if result.same_spread and result.spreads > 1:  # on one spread, nothing could be done
        count = len(result.same_spread)
        message = ntr(
            "note: {count} link of {links} joins paragraphs on one page spread (pages"
            " estimated from the text's length)",
            "note: {count} links of {links} join paragraphs on one page spread (pages"
            " estimated from the text's length)",
            count, count=count, links=result.links,
        )  # fmt: skip
        said.append(translate(message, lang))
    return said
