"""No line starts with ":" and no « ends a line in what Textual and Rich wrap (issue 16.4)."""

from __future__ import annotations

from dedale.i18n.french import typography
from dedale.player import nobreak
from rich.console import Console
from textual.content import Content

TEXT = typography("Un garde barre la porte. « Halte ! » crie-t-il : personne ; jamais ?")


def _lines(width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(TEXT)
    return console.export_text().splitlines()


def test_rich_never_breaks_at_a_no_break_space():
    assert nobreak.install()
    for width in range(12, 40):
        for line in _lines(width):
            assert not line.lstrip().startswith((":", ";", "!", "?", "»")), (width, line)
            assert not line.rstrip().endswith("«"), (width, line)


def test_textual_content_never_breaks_at_a_no_break_space():
    assert nobreak.install()
    for width in range(12, 40):
        for line in Content(TEXT).wrap(width):
            text = line.plain
            assert not text.lstrip().startswith((":", ";", "!", "?", "»")), (width, text)
            assert not text.rstrip().endswith("«"), (width, text)


def test_ordinary_spaces_still_break():
    assert nobreak.install()
    assert len(_lines(20)) > 2
    console = Console(width=10, record=True, color_system=None)
    console.print("aaaa bbbb cccc")
    assert [line.rstrip() for line in console.export_text().splitlines()] == ["aaaa bbbb", "cccc"]
