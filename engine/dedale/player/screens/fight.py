"""Fight screen: both sides' stats with bars, the assault log, Luck prompts, odds hint."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from dedale import events as ev
from dedale.i18n import french
from dedale.player.narration import describe
from dedale.player.odds import fight_hint, percentage, plain_fights
from dedale.player.odds_special import ALIVE, UNBEATEN, special_hint
from dedale.player.screens.prompts import ask_in_modal
from dedale.player.widgets.choices import ChoiceList
from dedale.player.widgets.keys import localise_bindings
from dedale.player.widgets.stat_bar import label_width, stat_bar

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


class FightScreen(Screen[None]):
    """Pushed on FightStarted; the reader closes it after FightEnded."""

    CSS_PATH = "fight.tcss"
    BINDINGS = [
        Binding("o", "toggle_odds", "Odds"),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.enemies: dict[str, dict[str, tuple[int, int]]] = {}
        self.allies: dict[str, dict[str, tuple[int, int]]] = {}  # beside the hero
        self._special: tuple[float | None, str] | None = None  # odds_special's, at the start
        self._computing = False  # its thread worker runs
        self.defeated: set[str] = set()
        self.mode = "single"
        self.assaults = 0
        #: after a Luck test on a wound: 1 until its LUCK cost is shown, 2 until the wound's
        #: change of health is (logged: the assault's line said the wound before Luck)
        self._after_luck = 0

    @property
    def dedale(self) -> DedaleApp:
        return cast("DedaleApp", self.app)

    def compose(self) -> ComposeResult:
        texts = self.dedale.texts
        yield Static(texts("fight.title"), id="fight-title")
        with Horizontal(id="sides"):
            yield Static("", id="hero-side", classes="side")
            yield Static("", id="enemy-side", classes="side")
        yield Static("", id="odds")
        with Vertical(id="fight-main"):
            yield RichLog(id="assaults", markup=True, wrap=True)
            yield ChoiceList(id="fight-choices")
        yield Footer()

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)
        self.query_one(ChoiceList).display = False
        self.redraw()
        self.dedale.view_ready(self)

    # ------------------------------------------------------------------ drawing
    def redraw(self) -> None:
        app = self.dedale
        session = app.session
        hero = Text(app.texts("fight.hero") + "\n", style="bold")
        if session is not None:
            if session.sheet.name:
                hero = Text(f"{session.sheet.name}\n", style="bold")
            cells = label_width(app.stat_name(stat) for stat in session.sheet.stats)
            for stat, (current, initial) in session.sheet.stats.items():
                bonus = sum(amount for _, amount in session.sheet.bonuses.get(stat, ()))
                name = app.stat_name(stat)
                hero.append_text(stat_bar(name, current, initial, labels=cells, bonus=bonus))
                hero.append("\n")
        for name, stats in self.allies.items():  # the allies fight on the hero's side
            fallen = any(stat == self._health() and current <= 0 for stat, (current, _) in
                         stats.items())  # fmt: skip
            shown = french.panel_name(name, app.texts.articles, app.texts.lang)
            hero.append(f"{shown}\n", style="strike dim" if fallen else "bold")
            cells = label_width(app.stat_name(stat) for stat in stats)
            for stat, (current, initial) in stats.items():
                hero.append_text(stat_bar(app.stat_name(stat), current, initial, labels=cells))
                hero.append("\n")
        self.query_one("#hero-side", Static).update(hero)
        foes = Text()
        cells = label_width(
            app.stat_name(stat) for stats in self.enemies.values() for stat in stats
        )
        for name, stats in self.enemies.items():
            style = "strike dim" if name in self.defeated else "bold"
            shown = french.panel_name(name, app.texts.articles, app.texts.lang)
            foes.append(f"{shown}\n", style=style)
            for stat, (current, initial) in stats.items():
                foes.append_text(stat_bar(app.stat_name(stat), current, initial, labels=cells))
                foes.append("\n")
        self.query_one("#enemy-side", Static).update(foes)
        self._update_odds()

    def _health(self) -> str | None:
        fight = getattr(getattr(self.dedale.book_view, "ruleset", None), "fight", None)
        return getattr(fight, "health", None)

    def _update_odds(self) -> None:
        app = self.dedale
        odds = self.query_one("#odds", Static)
        if not app.show_odds:
            odds.update(Text(app.texts("app.odds_off"), style="dim"))
            return
        chance, without_luck = None, False
        key = "app.odds"
        if app.session is not None and plain_fights(app.book_view, app.session.paragraph):
            alive = {n: s for n, s in self.enemies.items() if n not in self.defeated}
            chance, without_luck = fight_hint(
                app.book_view, app.session.sheet, alive, self.mode, self.assaults == 0
            )
            key = "app.odds_without_luck" if without_luck else "app.odds"
        elif app.session is not None:  # exits, rules under an enemy, allies: at the start
            chance, key = self._special_hint()
        percent = percentage(chance, app.texts.lang) if chance is not None else None
        if percent is None and key != "app.odds_computing":
            key = "app.odds_not_computed"
        odds.update(app.texts(key, percent=percent or ""))

    def _special_hint(self) -> tuple[float | None, str]:
        """The chance of a fight with exits or allies and the key of its label: computed
        when the fight starts (:mod:`dedale.player.odds_special`), in a thread worker (exact
        odds with exits can take seconds of CPU); "Computing the odds..." until then."""
        if self._special is None:
            if not self._computing and self.assaults == 0 and self.enemies:
                self._start_special()
            return None, "app.odds_computing" if self._computing else "app.odds_not_computed"
        chance, kind = self._special
        started = "" if self.assaults == 0 else "_start"
        label = {ALIVE: "app.odds_alive", UNBEATEN: "app.odds_unbeaten"}.get(kind, "app.odds")
        return chance, label + started

    def _start_special(self) -> None:
        app = self.dedale
        args = (app.book_view, copy.deepcopy(app.session.sheet), app.session.paragraph,
                copy.deepcopy(self.enemies), self.mode, copy.deepcopy(self.allies))  # fmt: skip
        self._computing = True

        def work() -> None:
            found = special_hint(*args)
            try:
                self.app.call_from_thread(self._special_found, found)
            except RuntimeError:  # the app has closed meanwhile
                pass

        self.run_worker(work, thread=True, group="odds", exit_on_error=False)

    def _special_found(self, found: tuple[float | None, str]) -> None:
        self._special, self._computing = found, False
        if self.is_mounted:
            self._update_odds()

    def _log(self, line: str) -> None:
        self.query_one(RichLog).write(Text.from_markup(line))

    # ------------------------------------------------------------------ GameView
    def show(self, event: ev.Event) -> bool:
        app = self.dedale
        match event:
            case ev.AssaultResolved():
                self.assaults += 1
            case ev.FightStarted(enemies=enemies, mode=mode, allies=allies):
                self.mode = mode
                for name, stats in enemies:
                    self.enemies[name] = {stat: (value, value) for stat, value in stats}
                for name, stats in allies:
                    self.allies[name] = {stat: (value, value) for stat, value in stats}
            case ev.StatChanged(name=stat, new=new, initial=initial, who=who) if who not in {
                "hero",
                "counter",
            }:
                if who in self.enemies:
                    self.enemies[who][stat] = (new, initial)
                elif who in self.allies and stat in self.allies[who]:
                    self.allies[who][stat] = (new, self.allies[who][stat][1])
            case ev.EnemyDefeated(name=name):
                self.defeated.add(name)
        line = describe(event, app.texts, app.stat_name, outcome_word=app.outcome_word)
        if line and (
            not isinstance(event, ev.StatChanged) or event.rule or self._luck_wound(event)
        ):
            self._log(line)
        self._follow_luck(event)
        self.redraw()
        if isinstance(event, ev.FightEnded):
            self.query_one("#odds", Static).update("")
            choices = self.query_one(ChoiceList)
            choices.set_options([(app.texts("app.continue"), True, "continue")])
            choices.display = True
            choices.focus()
            return False
        return True

    def _luck_wound(self, event: ev.StatChanged) -> bool:
        """Whether this change of a stat is the wound a Luck test just changed (the log
        says what the wound finally did; an enemy rule's changes are logged too, other
        changes are read on the sheets)."""
        return self._after_luck == 2 and event.who != "counter"

    def _follow_luck(self, event: ev.Event) -> None:
        match event:
            case ev.TestResolved(name="luck"):
                self._after_luck = 1
            case ev.StatChanged() if self._after_luck:
                self._after_luck = 2 if self._after_luck == 1 else 0
            case ev.AssaultResolved() | ev.FightEnded():
                self._after_luck = 0  # the Luck test left no wound

    def ask(self, prompt: ev.Prompt) -> None:
        self.redraw()
        ask_in_modal(self.dedale, prompt)

    def game_over(self) -> None:
        self.dedale.end_fight()

    # ------------------------------------------------------------------ input
    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.query_one(ChoiceList).display = False
        self.dedale.end_fight()

    def on_key(self, event: Key) -> None:
        choices = self.query_one(ChoiceList)
        if choices.display and event.key == "1":
            event.stop()
            choices.choose_number(1)

    def action_toggle_odds(self) -> None:
        self.dedale.show_odds = not self.dedale.show_odds
        self._update_odds()
