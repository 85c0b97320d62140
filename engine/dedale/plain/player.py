"""The plain player: one answer per line on stdin, paragraphs, dice and prompts on stdout.

Answers: a choice number as shown; ``y``/``n`` (``o``/``n`` in French) to yes/no questions;
a number or a name for targets, items and classes; any text for the hero's name. Commands,
at any question: ``sheet``/``feuille``, ``eat``/``manger``, ``undo``/``annuler``,
``drop ITEM``/``jeter OBJET`` (at a choice, outside fights), ``save FILE``/``sauver FILE``,
``help``/``aide``, ``quit``/``quitter``.

Exit codes (:data:`EXIT_VICTORY` ...): 0 victory, 3 death, 4 input ended (or ``quit``)
before an ending, 1 error in the book (rendered with its caret), 2 usage error.
"""

from __future__ import annotations

from typing import IO

from dedale import events
from dedale.errors import DedaleError, GameError
from dedale.game import Game, InvalidAnswer
from dedale.game.book_state import sheet_rows
from dedale.game.penalties import penalty_lines
from dedale.game.saving import save_game
from dedale.i18n import french, message, translate
from dedale.plain.render import Renderer
from dedale.plain.screen_reader import ScreenReaderRenderer
from dedale.player.gender import (
    gender_answer,
    gender_options,
    gender_question,
    gender_to_ask,
    keep_gender,
    saved_gender,
)
from dedale.player.narration import book_articles, book_gender
from dedale.player.sheet_content import (
    effective_text,
    item_bonuses,
    item_boxes,
    item_tags,
    meal_at_full,
)
from dedale.rules import fold
from dedale.rules.checks import health_level_suffix
from dedale.typed import TypedValueError, whole_number

EXIT_VICTORY = 0
EXIT_BOOK_ERROR = 1
EXIT_USAGE = 2
EXIT_DEATH = 3
EXIT_INPUT_ENDED = 4

_COMMANDS = {
    "sheet": "sheet", "feuille": "sheet", "fiche": "sheet",
    "eat": "eat", "manger": "eat", "repas": "eat",
    "drop": "drop", "jeter": "drop", "jetez": "drop", "abandonner": "drop",
    "undo": "undo", "annuler": "undo",
    "save": "save", "sauver": "save", "sauvegarder": "save",
    "quit": "quit", "quitter": "quit",
    "help": "help", "aide": "help", "?": "help",
}  # fmt: skip
_YES = {"y", "yes", "o", "oui"}
_NO = {"n", "no", "non"}


class _Quit(Exception):
    """The reader typed ``quit`` or the input ended."""


class PlainPlayer:
    """Drives a Game from text lines; writes what happens as text lines."""

    def __init__(
        self,
        game: Game,
        stdin: IO[str],
        stdout: IO[str],
        echo: bool = False,
        screen_reader: bool = False,
        gender: str | None = None,
    ) -> None:
        self.game = game
        self.stdin = stdin
        self.stdout = stdout
        self.echo = echo
        self.lang = game.lang
        if screen_reader:  # sentences, accepted answers, no drawing (plain/screen_reader.py)
            self.render = ScreenReaderRenderer(
                game.book.ruleset, self.lang, book_articles(game.book), game
            )
        else:
            self.render = Renderer(game.book.ruleset, self.lang, book_articles(game.book))
        # the player's choice wins: --gender, else the one saved with the game, else the book's
        self.gender_flag = gender or saved_gender(game)
        self.render.hero_gender = self.gender_flag or book_gender(game.book)
        keep_gender(game, gender)

    def t(self, key: str, **params: object) -> str:
        return message(self.lang, key, **params)

    def write(self, *lines: str) -> None:
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def play(self) -> int:
        """Play to the end; returns the exit code."""
        game = self.game
        try:
            while True:
                item = game.next()
                if item is None:
                    break
                if isinstance(item, events.Prompt):
                    self._ask(item)
                else:
                    self.write(*self.render.event(item))
        except _Quit:
            self.write("", self.t("plain.input_ended"))
            return EXIT_INPUT_ENDED
        if game.outcome == "victory":
            return EXIT_VICTORY
        if game.outcome == "death":
            return EXIT_DEATH
        return EXIT_INPUT_ENDED

    # ------------------------------------------------------------------ questions

    def _ask(self, prompt: events.Prompt) -> None:
        if isinstance(prompt, events.StatsPrompt):
            self._ask_stats(prompt)
            return
        lines = self.render.prompt(prompt)
        if type(prompt) is events.ChoosePrompt and self._meal_here():
            lines.insert(-1, self.t("plain.meal_here"))  # a paragraph that allows a meal
        self.write(*lines)
        while True:
            line = self._read_line()
            if not line:
                if type(prompt) is events.NamePrompt:
                    self._ask_gender()
                    self.game.answer("")
                    return
                continue
            word, _, rest = line.partition(" ")
            command = _COMMANDS.get(fold(word))
            if command == "drop" and type(prompt) is events.DropItemPrompt and rest.strip():
                command, line = None, rest.strip()  # "drop Lantern" answers "which item?"
            if command == "save" and not rest.strip():
                self.write(self.t("plain.save_needs_file"), self.render.prompt(prompt)[-1])
                continue
            if command is not None:
                if self._command(command, rest.strip()):
                    return  # the game moved: the next prompt will be asked afresh
                self.write(self.render.prompt(prompt)[-1])
                continue
            try:
                answer = self._parse(prompt, line)
                if type(prompt) is events.NamePrompt:
                    self._ask_gender()
                self.game.answer(answer)
                return
            except (InvalidAnswer, TypedValueError) as error:
                reason = translate(error.message, self.lang)
                self.write(self.t("plain.invalid", reason=reason), self.render.prompt(prompt)[-1])

    def _meal_here(self) -> bool:
        """Whether this paragraph lets the hero eat (said once, under its choices), in a
        ruleset whose meals are not allowed everywhere (there it would be said at every
        choice)."""
        meals = self.game.book.ruleset.meals
        return meals is not None and not meals.anywhere and self.game.can_eat()

    def _ask_gender(self) -> None:
        """After the hero's name, the hero's gender when nothing gives it (player.gender);
        an empty answer keeps the default (masculine sentences)."""
        if not gender_to_ask(self.lang, self.gender_flag, book_gender(self.game.book)):
            return
        lines = [f"  {i}. {label}" for i, (label, _g) in enumerate(gender_options(self.lang), 1)]
        self.write(*self.render.typeset([*lines, gender_question(self.lang)]))
        while True:
            line = self._read_line()
            if not line:
                return
            chosen = gender_answer(line, self.lang)
            if chosen is not None:
                self.gender_flag = self.render.hero_gender = chosen
                keep_gender(self.game, chosen)
                return
            self.write(*self.render.typeset([gender_question(self.lang)]))

    def _ask_stats(self, prompt: events.StatsPrompt) -> None:
        """One line per stat, each within its range; an empty first line rolls the dice."""
        self.write(self.t("prompt.stats"))
        values: list[int] = []
        while len(values) < len(prompt.stats):
            entry = prompt.stats[len(values)]
            question = self.t(
                "prompt.stat_entry",
                stat=self.render.name(entry.stat),
                low=entry.low,
                high=entry.high,
            )
            self.write(question)
            line = self._read_line()
            if not line:
                if not values:
                    self._answer_or_say(prompt, None)
                    return
                continue
            if _COMMANDS.get(fold(line)) == "quit":
                raise _Quit
            try:
                values.append(whole_number(line, entry.low, entry.high))
            except TypedValueError as error:
                self.write(self.t("plain.invalid", reason=translate(error.message, self.lang)))
        if not self._answer_or_say(prompt, tuple(values)):
            self._ask_stats(prompt)

    def _read_line(self) -> str:
        """The next answer line, stripped (echoed when the input is not a terminal)."""
        line = self.stdin.readline()
        if not line:
            raise _Quit
        line = line.strip()
        if self.echo:
            self.write(f"> {line}")
        return line

    def _answer_or_say(self, prompt: events.Prompt, value: object) -> bool:
        """Answer the prompt; False (the reason written) if the game refuses the answer."""
        try:
            self.game.answer(value)
        except InvalidAnswer as error:
            self.write(self.t("plain.invalid", reason=translate(error.message, self.lang)))
            return False
        return True

    def _parse(self, prompt: events.Prompt, line: str) -> object:
        kind = type(prompt)
        if kind is events.NamePrompt:
            return line
        if kind is events.YesNoPrompt:
            answer = fold(line)
            if answer in _YES:
                return True
            if answer in _NO:
                return False
            raise TypedValueError(self.t("plain.yes_no"))
        if kind in (events.DropItemPrompt, events.ClassPrompt):
            names = prompt.items if kind is events.DropItemPrompt else prompt.classes  # type: ignore[attr-defined]
            if line.isascii() and line.isdigit():  # a number as shown; anything else: a name
                return names[whole_number(line, 1, len(names)) - 1]
            return line
        if kind is events.TargetPrompt:
            return whole_number(line, 1, len(prompt.enemies)) - 1  # type: ignore[attr-defined]
        return whole_number(line)

    # ------------------------------------------------------------------ commands

    def _command(self, command: str, argument: str) -> bool:
        """Run a command; True if the game moved (the current prompt is gone)."""
        game = self.game
        if command == "quit":
            raise _Quit
        if command == "help":
            self.write(self.t("plain.help"))
            return False
        if command == "sheet":
            self.write(*self.sheet())
            return False
        if command == "eat":
            if not game.can_eat():
                self.write(self.t("error.cannot_eat"))
                return False
            full = meal_at_full(game.book.ruleset, game.state.hero)
            if full is not None:  # eating at full health wastes the meal: ask first (16.8)
                name, value = self.render.name(full[0]), full[1]
                question = self.t("ask.eat_full", stat=name, value=value)
                self.write(*self.render.typeset([f"{question} {self.t('prompt.yes_no')}"]))
                if fold(self._read_line()) not in _YES:
                    return False
            for event in game.eat():
                self.write(*self.render.event(event))
            return True
        if command == "drop":
            return self._drop(argument)
        if command == "undo":
            try:
                game.undo()
            except GameError as error:
                self.write(error.message)
                return False
            self.write(self.t("plain.undone"))
            return True
        try:
            path = save_game(game, argument)
        except DedaleError as error:
            self.write(error.message)
            return False
        self.write(self.t("plain.saved", path=path))
        return True

    def _drop(self, item: str) -> bool:
        """``drop Rope``: drop one item at a choice (logged, so a replay drops it too)."""
        held = self.game.droppable()
        if not held:
            self.write(self.t("plain.cannot_drop"))
            return False
        if not item:
            self.write(self.t("plain.drop_needs_item", items=", ".join(held)))
            return False
        try:
            produced = self.game.drop(item)
        except InvalidAnswer as error:
            self.write(self.t("plain.invalid", reason=translate(error.message, self.lang)))
            return False
        for event in produced:
            self.write(*self.render.event(event))
        return True

    def _noted(self, numbers: dict[str, int], item: str) -> str:
        """`` (no. 50)`` for an item with a number noted on it (issue 8), else ""."""
        number = numbers.get(fold(item))
        return "" if number is None else self.t("sheet.item_number", number=number)

    def _bonuses(self, hero, item: str) -> str:
        """`` (HABILETÉ +1)`` for an item the book gave with stat bonuses, and
        `` (when STAMINA falls to 0)`` for each of its triggers, else ""."""
        info = hero.item_effects.get(item)
        if info is None:
            return ""
        watch = "".join(
            self.t("sheet.item_trigger", stat=self.render.name(stat), at=at)
            for stat, at, *_ in info.triggers
        )
        if not info.bonuses:
            return watch
        shown = ", ".join(
            f"{self.render.name(stat)} {amount:+d}" for stat, amount, _ in info.bonuses
        )
        return f" ({shown})" + watch

    def sheet(self) -> list[str]:
        """The Adventure Sheet as text lines."""
        state = self.game.state
        hero = state.hero
        lines = [self.t("sheet.title", name=state.name, of_name=french.of(state.name))]
        if hero is None:
            return lines
        if hero.class_name:
            klass = self.game.book.ruleset.classes.get(hero.class_name)
            shown = klass.names.get(self.lang, hero.class_name) if klass else hero.class_name
            lines.append(self.t("sheet.class", name=shown))
        ruleset = self.game.book.ruleset
        health = getattr(ruleset.fight, "health", None)
        for stat, value in hero.stats.items():
            name, initial = self.render.name(stat), hero.initial[stat]
            shown = effective_text(value, item_bonuses(hero, stat), self.t)
            line = self.t("sheet.stat", name=name, value=shown, initial=initial)
            if stat == health:
                line += health_level_suffix(ruleset.health_levels, value, initial, self.lang)
            lines.append(line)
        for counter, value in hero.counters.items():
            lines.append(self.t("sheet.counter", name=self.render.name(counter), value=value))
        book_rows = sheet_rows(self.game.book.meta.state, state.flags, state.counts)
        for name, value in book_rows.stats:  # the book's own flags and counters
            lines.append(self.t("sheet.counter", name=name, value=value))
        equipment, boxes = item_boxes(hero.items, item_tags(hero))
        for index, names in enumerate([equipment, *boxes.values()]):
            if index and not names:
                continue
            if not names:  # an empty Equipment box
                lines.append(self.t("sheet.items", items="-"))
                continue
            title = list(boxes)[index - 1] if index else self.t("sheet.items", items="")
            lines.append(self.t("sheet.box", title=title) if index else title.rstrip())
            for k in names:  # one item a line: none is cut mid-name
                v = hero.items[k]
                shown = (f"{k} x{v}" if v > 1 else k) + self._bonuses(hero, k)
                lines.append("    " + shown + self._noted(state.item_numbers, k))
        if state.codewords:
            lines.append(self.t("sheet.codewords", words=", ".join(state.codewords.values())))
        if book_rows.notes:
            lines.append(self.t("sheet.notes", notes=", ".join(book_rows.notes)))
        if state.worlds:
            lines.append(self.t("sheet.worlds", worlds=", ".join(state.worlds)))
        if state.statuses:
            shown = ", ".join(data["status"] for data in state.statuses.values())
            lines.append(self.t("sheet.statuses", statuses=shown))
        if state.penalties:  # "lose 2 SKILL until you find a weapon"
            shown = ", ".join(penalty_lines(state, ruleset, self.lang))
            lines.append(self.t("sheet.penalties", penalties=shown))
        return self.render.typeset(lines)  # French typography, as the narration's (16.4)
