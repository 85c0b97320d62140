"""The Adventure Sheet (Feuille d'Aventure): stats, counters, items, codewords, Worlds, and
the book's own flags and counters where book.yaml's ``state:`` puts them.

Stats and counters are the ruleset's, in its order, under their names in the interface
language (``stat_name``); the Worlds row shows only when the ruleset has Worlds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from dedale.game.book_state import sheet_rows
from dedale.language.book_state import BookState
from dedale.player.session import SheetModel
from dedale.player.sheet_content import effective_text, item_boxes
from dedale.player.texts import Texts
from dedale.rules.checks import health_level_suffix


def render_sheet(sheet: SheetModel, texts: Texts, stat_name: Callable[[str], str]) -> Table:
    """The sheet as a Rich table (also used by the full-screen sheet)."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    none = texts("sheet.none")
    if sheet.name:
        table.add_row(texts("sheet.name"), Text(sheet.name))
    if sheet.class_name:
        table.add_row(texts("sheet.class"), Text(sheet.class_name))
    layout = sheet.layout
    for stat in _ordered(layout.stats, sheet.stats):
        current, initial = sheet.stats[stat]
        style = "red" if initial and current * 3 <= initial else ""
        value = effective_text(current, sheet.bonuses.get(stat, ()), texts)
        shown = texts("sheet.stat_value", value=value, initial=initial)
        if stat == layout.health:
            shown += health_level_suffix(layout.health_levels, current, initial, texts.lang)
        table.add_row(stat_name(stat), Text(shown, style=style))
    for counter in _ordered(layout.counters, sheet.counters, keep_missing=True):
        table.add_row(stat_name(counter), Text(str(sheet.counters.get(counter, 0))))
    rows = sheet_rows(layout.book_state or BookState(), sheet.flags, sheet.counts)
    for name, value in rows.stats:  # the book's own flags and counters (book.yaml `state:`)
        table.add_row(Text(name), Text(value))
    equipment, boxes = item_boxes(dict(sorted(sheet.items.items())), sheet.item_tags)
    entries = [_item(sheet, n, texts, stat_name) for n in equipment]
    _add_box(table, texts("sheet.items"), entries, none)
    for title, names in boxes.items():  # the items a book tag puts in a box of their own
        entries = [_item(sheet, n, texts, stat_name) for n in names]
        _add_box(table, title, entries, none)
    table.add_row(texts("sheet.codewords"), Text(", ".join(sorted(sheet.codewords)) or none))
    if rows.notes:
        table.add_row(texts("sheet.notes"), Text(", ".join(rows.notes)))
    if layout.worlds or sheet.worlds:
        table.add_row(texts("sheet.worlds"), Text(", ".join(sheet.worlds) or none))
    if sheet.statuses:  # ongoing effects, only while there are some
        table.add_row(texts("sheet.statuses"), Text(", ".join(sheet.statuses), style="red"))
    if sheet.penalties:  # "lose 2 SKILL until you find a weapon", while in force
        shown = ", ".join(
            texts(
                "penalty.shown",
                stat=stat_name(stat),
                amount=amount,
                until=item or texts("penalty.weapon"),
            )
            for stat, amount, item in sheet.penalties
        )
        table.add_row(texts("sheet.penalties"), Text(shown, style="red"))
    return table


def _item(sheet: SheetModel, name: str, texts: Texts, stat_name: Callable[[str], str]) -> str:
    """One item as the sheet writes it: count, number noted on it, triggers."""
    count = sheet.items[name]
    return (
        (f"{name} ×{count}" if count != 1 else name)
        + _noted(sheet.item_numbers, name, texts)
        + "".join(
            texts("sheet.item_trigger", stat=stat_name(stat), at=at)
            for stat, at in sheet.triggers.get(name, ())
        )
    )


def _add_box(table: Table, title: str, entries: list[str], none: str) -> None:
    """A box of the sheet: its title beside the first entry, one entry a row (a long one
    wraps; none is cut mid-name)."""
    if not entries:
        table.add_row(Text(title), Text(none))
        return
    for index, entry in enumerate(entries):
        table.add_row(Text(title) if index == 0 else Text(""), Text(entry))


def _ordered(
    order: tuple[str, ...], known: Mapping[str, object], *, keep_missing: bool = False
) -> list[str]:
    """The ids in the ruleset's order (all of them with ``keep_missing``, else the known
    ones), then any other known id in the order it was reported."""
    listed = [ident for ident in order if keep_missing or ident in known]
    return listed + [ident for ident in known if ident not in order]


def _noted(numbers: dict[str, int], item: str, texts: Texts) -> str:
    """`` (no. 50)`` for an item with a number noted on it, else ""."""
    from dedale.rules import fold

    number = numbers.get(fold(item))
    return "" if number is None else texts("sheet.item_number", number=number)


class AdventureSheet(Static):
    """A panel that shows a SheetModel; call ``show(sheet)`` after each change."""

    DEFAULT_CSS = """
    AdventureSheet {
        border: round $primary;
        border-title-color: $primary;
        padding: 0 1;
        height: auto;
    }
    """

    def __init__(self, texts: Texts, stat_name: Callable[[str], str], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.texts = texts
        self.stat_name = stat_name
        self.border_title = texts("sheet.title")

    def show(self, sheet: SheetModel) -> None:
        """Redraw from the model."""
        self.update(render_sheet(sheet, self.texts, self.stat_name))
