"""The audit of issue 12.4 (interpreter part): every statement kind of the language has an
effect in play. Each kind has a tiny book that uses it and a check of what it changed; the
table must cover every kind of ``ast.Statement``, so a new construct that the interpreter
parses and ignores fails here."""

from __future__ import annotations

import typing
from collections.abc import Callable

import pytest
from dedale import ast, events
from dedale.game import Game
from dedale.game.random_player import hidden_numbers
from dedale.language import load_book

from .conftest import of

HEROES = {
    "df-classic": (10, 20, 9),
    "df48.5": (10, 20, 9),
    "reliques": (4, 4, 4, 4, 4, 4, 20),
    "d20": (12, 12, 12, 12, 12, 12, 2, 20),
}
END = "\n§ 2\nThe end.\n> victory\n\n§ 3\nThe other end.\n> victory\n"


def played(tmp_path, text: str, ruleset: str = "df-classic", number: int = 0, front: str = ""):
    """Play the book (first enabled choice, yes, ``number``), stopping at the first choice
    prompt that has an option 'Stop' or at the end; returns the game and what it showed.
    ``front``: more book.yaml lines."""
    path = tmp_path / "book.dd"
    head = f"---\ntitle: t\nruleset: {ruleset}\nlanguage: en\n{front}---\n"
    path.write_text(head + text, "utf-8")
    book = load_book(path)
    game = Game.new(book, 1, hero=HEROES[ruleset], name="Ari", lang="en", free_stats=True)
    seen: list = []
    for _ in range(300):
        item = game.next()
        if item is None:
            break
        seen.append(item)
        if type(item) is events.ChoosePrompt:
            if any(option.text == "Stop" for option in item.options):
                break
            game.answer(next(o.index for o in item.options if o.enabled))
        elif type(item) is events.YesNoPrompt:
            game.answer(True)
        elif type(item) is events.NumberPrompt:
            game.answer(number)
        elif type(item) is events.TargetPrompt:
            game.answer(0)
        elif type(item) is events.ClassPrompt:
            game.answer(item.classes[0])
        elif isinstance(item, events.Prompt):
            raise AssertionError(f"unexpected {item}")
    return game, seen


def last_options(seen: list) -> tuple[events.ChoiceOption, ...]:
    return of(events.ChoosePrompt, seen)[-1].options


def stats(game: Game) -> dict[str, int]:
    return game.state.hero.stats


Check = Callable[[Game, list], bool]
CASES: dict[type, tuple[str, str, Check]] = {
    ast.Prose: ("§ 1\nA dark wood.\n> victory\n", "df-classic",
                lambda g, s: events.TextShown(text="A dark wood.") in s),
    ast.Choice: ("§ 1\n-> 3 Go on\n" + END, "df-classic",
                 lambda g, s: [e.paragraph for e in g.state.history] == [1, 3]),
    ast.Goto: ("§ 1\n> go to 3\n" + END, "df-classic",
               lambda g, s: [e.paragraph for e in g.state.history] == [1, 3]),
    ast.ChangeValue: ("§ 1\n> lose 2 STAMINA\n> victory\n", "df-classic",
                      lambda g, s: stats(g)["STAMINA"] == 18),
    ast.GainItem: ("§ 1\n> take Rope\n> victory\n", "df-classic",
                   lambda g, s: g.state.hero.items == {"Rope": 1}),
    ast.LoseItem: ("§ 1\n> take Rope\n> drop Rope\n> victory\n", "df-classic",
                   lambda g, s: g.state.hero.items == {} and of(events.ItemLost, s)),
    ast.SetCodeword: ("§ 1\n> set codeword PANTHER\n> victory\n", "df-classic",
                      lambda g, s: g.state.has_codeword("PANTHER")),
    ast.ClearCodeword: (
        "§ 1\n> set codeword PANTHER\n> clear codeword PANTHER\n> victory\n", "df-classic",
        lambda g, s: not g.state.has_codeword("PANTHER")
        and events.CodewordChanged(codeword="PANTHER", is_set=False) in s,
    ),
    ast.OpenWorld: ("§ 1\n> world Mars\n> victory\n", "df48.5",
                    lambda g, s: g.state.worlds == ["Mars"]),
    ast.AllowRevisit: (
        "§ 1\n> world Mars\n-> 4 On\n\n§ 4\n> allow revisit\n-> 1 Back to Mars\n-> 2 Stop\n"
        + END, "df48.5",
        lambda g, s: any(o.target == 1 and o.enabled for o in last_options(s)),
    ),
    ast.MealRule: ("§ 1\n> lose 5 STAMINA\n> meal allowed\n-> 2 Stop\n" + END, "df-classic",
                   lambda g, s: g.can_eat()),
    ast.Ending: ("§ 1\n> death\n", "df-classic", lambda g, s: g.outcome == "death"),
    ast.Test: ("§ 1\n> test your luck\n> lucky -> 2\n> unlucky -> 3\n" + END, "df-classic",
               lambda g, s: len(of(events.TestResolved, s)) == 1 and stats(g)["LUCK"] == 8),
    ast.DuoTest: ("§ 1\n> test FOR+AGL\n> success -> 2\n> failure -> 3\n" + END, "reliques",
                  lambda g, s: len(of(events.TestResolved, s)) == 1),
    ast.D20Test: ("§ 1\n> check DEX hard\n> success -> 2\n> failure -> 3\n" + END, "d20",
                  lambda g, s: len(of(events.TestResolved, s)) == 1),
    ast.RandomRoll: ("§ 1\n> roll 1d6: 1-3 -> 2, 4-6 -> 3\n" + END, "df-classic",
                     lambda g, s: [d.purpose for d in of(events.DiceRolled, s)] == ["table"]),
    ast.Fight: ("§ 1\n> fight\n> enemy RAT SKILL 2 STAMINA 1\n> win -> 2\n" + END,
                "df-classic", lambda g, s: of(events.FightEnded, s)[0].outcome == "won"),
    ast.If: ("§ 1\n> set codeword OPEN\n> if codeword OPEN: go to 3\n> go to 2\n" + END,
             "df-classic", lambda g, s: g.state.history[-1].paragraph == 3),
    ast.HiddenNumber: ("§ 1\n> hidden number otherwise -> 2\n" + END, "df-classic",
                       lambda g, s: of(events.NumberPrompt, s)
                       and g.state.history[-1].paragraph == 2),
    ast.HiddenParagraph: ("§ 1\n> victory\n\n§ 30\n> hidden paragraph\n> victory\n",
                          "df-classic", lambda g, s: hidden_numbers(g.book) == (30,)),
    ast.NoteParagraph: ("§ 1\n> note paragraph camp\n-> 4 On\n\n§ 4\n-> [noted camp] Back\n"
                        "-> 2 Stop\n" + END, "df-classic",
                        lambda g, s: last_options(s)[0].target == 1),
    ast.StatusOn: ("§ 1\n> status Poisoned: lose 1 STAMINA each paragraph\n> go to 2\n" + END,
                   "df-classic", lambda g, s: stats(g)["STAMINA"] == 19),
    ast.StatusOff: ("§ 1\n> status Poisoned: lose 1 STAMINA each paragraph\n> cure Poisoned\n"
                    "> go to 2\n" + END, "df-classic", lambda g, s: stats(g)["STAMINA"] == 20),
    ast.ForcedMeal: ("§ 1\n> eat a meal or lose 3 STAMINA\n> victory\n", "df-classic",
                     lambda g, s: g.state.hero.counters["meals"] == 9),
    ast.Shop: ("§ 1\n> gain 10 gold\n> buy Rope for 7 gold\n-> 2 Stop\n" + END, "df-classic",
               lambda g, s: g.state.hero.items == {"Rope": 1}
               and g.state.hero.counters["gold"] == 3),
    ast.Wager: ("§ 1\n> gain 10 gold\n> wager up to 10 gold, win on 2d6 2-12\n-> 2 Stop\n"
                + END, "df-classic", lambda g, s: g.state.hero.counters["gold"] == 14),
    ast.SetFlag: ("§ 1\n> note calf following\n> victory\n", "df-classic",
                  lambda g, s: g.state.flags == {"calf following"}),
    ast.ClearFlag: ("§ 1\n> note calf following\n> clear calf following\n> victory\n",
                    "df-classic", lambda g, s: g.state.flags == set()
                    and of(events.MessageShown, s)[-1].key == "flag_cleared"),
    ast.ChangeCount: ("§ 1\n> add 2 to lieutenants met\n> victory\n", "df-classic",
                      lambda g, s: g.state.counts == {"lieutenants met": 2}),
    ast.Penalty: ("§ 1\n> lose 2 SKILL until you find a weapon\n-> 2 Stop\n" + END, "df-classic",
                  lambda g, s: stats(g)["SKILL"] == 8 and len(g.state.penalties) == 1),
    ast.MayTake: ("§ 1\n> you may take Rope\n> victory\n", "df-classic",
                  lambda g, s: g.state.hero.items == {"Rope": 1}),
    ast.WatchedWager: ("§ 1\n> gain 10 gold\n> bet up to 10 gold on A SKILL 9 STAMINA 2 "
                       "against B SKILL 9 STAMINA 2\n-> 2 Stop\n" + END, "df-classic",
                       lambda g, s: g.state.hero.counters["gold"] in (6, 14)),
}  # fmt: skip
NUMBERS = {ast.Wager: 4, ast.WatchedWager: 4, ast.HiddenNumber: 0}
STATE = "state:\n  flags: [calf following]\n  counters: [lieutenants met]\n"
FRONT = {ast.SetFlag: STATE, ast.ClearFlag: STATE, ast.ChangeCount: STATE}


def kinds_in(body) -> set[type]:
    found: set[type] = set()
    for statement in body:
        found.add(type(statement))
        if type(statement) is ast.If:
            found |= kinds_in(statement.then) | kinds_in(statement.otherwise)
    return found


def test_every_statement_kind_is_audited():
    assert set(typing.get_args(ast.Statement)) == set(CASES)


@pytest.mark.parametrize("kind", sorted(CASES, key=lambda k: k.__name__), ids=lambda k: k.__name__)
def test_the_statement_has_an_effect_in_play(tmp_path, kind):
    text, ruleset, check = CASES[kind]
    game, seen = played(tmp_path, text, ruleset, NUMBERS.get(kind, 0), FRONT.get(kind, ""))
    used = set().union(*(kinds_in(p.body) for p in game.book.paragraphs.values()))
    assert kind in used, f"the book of {kind.__name__} does not use it"
    assert check(game, seen), f"{kind.__name__} had no effect: {seen[-6:]}"
