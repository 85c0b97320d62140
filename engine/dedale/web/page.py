"""The HTML page of ``dedale serve``: textual-serve's terminal page, titled with the book's
title, in the book's language, with the bundled font only (no request to another site)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from dedale.i18n import tr, translate

TEMPLATES = Path(__file__).resolve().parent / "templates"
FONT_SIZES = range(8, 41)
"""The font sizes a page may ask for with ``?fontsize=N`` (others give the default)."""
DEFAULT_FONT_SIZE = 16


@dataclass(frozen=True)
class PageTexts:
    """What the page says, in the book's language."""

    start: str
    ended: str
    again: str

    @classmethod
    def of(cls, lang: str) -> PageTexts:
        return cls(
            start=translate(tr("Start"), lang),
            ended=translate(tr("The game is over in this tab."), lang),
            again=translate(tr("Back to the title screen"), lang),
        )


@lru_cache(maxsize=1)
def _template():  # noqa: ANN202 - a jinja2 Template (jinja2 comes with textual-serve)
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,  # the title is the book's: never markup
    )
    return environment.get_template("page.html")


def font_size(asked: str | None) -> int:
    """``?fontsize=N`` when N is a sensible size, else the default."""
    try:
        size = int(asked or "")
    except ValueError:
        return DEFAULT_FONT_SIZE
    return size if size in FONT_SIZES else DEFAULT_FONT_SIZE


def render_page(
    *, title: str, lang: str, websocket_url: str, static_url: str, size: int = DEFAULT_FONT_SIZE
) -> str:
    """The page's HTML (every value escaped)."""
    texts = PageTexts.of(lang)
    return _template().render(
        title=title,
        lang=lang,
        websocket_url=websocket_url,
        static_url=static_url,
        font_size=size,
        start=texts.start,
        ended=texts.ended,
        again=texts.again,
    )
