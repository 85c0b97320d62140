"""The footer offers Eat only where the book's ruleset has meals (a d20 book has none)."""

from __future__ import annotations

import asyncio

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.reading import ReadingScreen
from textual.widgets import Footer


def _footer_keys(app: DedaleApp) -> set[str]:
    return {binding.action for (_, binding, enabled, _) in app.active_bindings.values()
            if binding.show and enabled}  # fmt: skip


def _reading(book_dir, lang: str) -> set[str]:
    keys: set[str] = set()

    async def scenario() -> None:
        book = load_book(book_dir)
        app = DedaleApp(book, lambda b: Game.new(b, 3, name="Ada", lang=lang), lang=lang)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(12):  # new game, then the creation's questions, to § 1
                if isinstance(app.screen, ReadingScreen):
                    break
                await pilot.press("1")
                await pilot.pause()
                await pilot.press("enter")
                await pilot.pause()
            assert isinstance(app.screen, ReadingScreen)
            assert app.screen.query_one(Footer) is not None
            keys.update(_footer_keys(app))

    asyncio.run(scenario())
    return keys


def test_no_eat_key_without_meals(repo_root):
    keys = _reading(repo_root / "books" / "gull-rock", "en")  # d20: no meals
    assert "sheet" in keys and "eat" not in keys


def test_eat_key_with_meals(repo_root):
    keys = _reading(repo_root / "books" / "tutorial", "en")  # df-classic: Provisions
    assert {"sheet", "eat"} <= keys


def test_long_stat_names_are_not_cut():
    from dedale.player.widgets.stat_bar import label_width, stat_bar

    names = ["CONSTITUTION", "POINTS DE VIE", "FORCE"]
    cells = label_width(names)
    lines = [stat_bar(name, 5, 10, labels=cells).plain for name in names]
    assert cells == 13 and all(
        line.startswith(name) for line, name in zip(lines, names, strict=True)
    )
    assert len({len(line) for line in lines}) == 1  # the bars line up
    assert len(lines[0]) == len(stat_bar("ENDURANCE", 5, 10).plain)  # no wider than before
    assert label_width(["HABILETÉ", "ENDURANCE"]) == 10  # FF names: the old layout
