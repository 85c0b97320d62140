"""A way out of a reliques fight to a death ending is no way out alive (issue 14.2, session
7): the assault limit and "when your HEALTH falls to N" to ``§ 40`` (``> death``) counted
as ways on in the reliques exact odds (the median hero "left" the limit book's fight 98.9%
of the time; he wins it 29.7%). Each figure is checked against 2,000 seeded games of the
real interpreter (a game that reaches § 40 is lost; the hero always dodges and never spends
Courage, as the ``none`` row's best policy does here), within 3 SE."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.language import load_book
from dedale.validator.checker import validate_loaded
from dedale.validator.fights_reliques import ReliquesCalculator
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, play, ruleset_values

BOOK = """---
title: The bell-tower watch
language: en
ruleset: reliques
---
§ 1
The sexton hands you his old sword and a leather jerkin before you climb the tower.
> take sword
> take leather armour
-> 2 Climb the stairs

§ 2
On the rotten landing a wild dog bars the way, and the boards groan under you.
> fight
> enemy DOG STRENGTH 3 AGILITY 3 PERCEPTION 3 CONSTITUTION {con} weapon 2
{way}
> win -> 3

§ 3
> victory

§ 40
The landing gives way and you fall down the tower.
> death
"""
WAYS = {  # (the way out, the dog's CONSTITUTION, the median row before and after)
    "limit": ("> not won after 3 assaults -> 40", 2, 0.9889, 0.2967),
    "threshold": ("> when your HEALTH falls to 9 -> 40", 4, 0.9953, 0.2582),
}


def _book(tmp_path, name: str, dies: bool = True):
    way, con, _, _ = WAYS[name]
    text = BOOK.format(way=way, con=con)
    if not dies:  # § 40 reads on: the way out leaves the fight alive
        text = text.replace("> death", "> victory")
    path = tmp_path / f"{name}.dd"
    path.write_text(text, "utf-8")
    return load_book(path)


def _report(book):
    report = validate_loaded(book, "book.dd", runs=0)
    (fight,) = report.fights
    assert fight.method == "exact"
    return fight


def _victories(book, runs: int) -> int:
    calculator = ReliquesCalculator(build_graph(book), book)
    (character,) = [c for hero, c in calculator.heroes if hero.level == "median"]
    values = ruleset_values(book, character)
    answers = {events.YesNoPrompt: lambda item, game: item.kind == "dodge"}  # never Courage
    checked: list[bool] = []

    def watch(game) -> None:
        hero = game.state.hero
        if not checked and game.state.paragraph == 2:  # the validator's median hero,
            assert dict(hero.stats) == dict(character.stats)  # his sword and jerkin
            assert set(hero.items) == set(character.items)
            checked.append(True)

    won = 0
    for seed in range(runs):
        checked.clear()
        game = play(book, seed, values, steps=5000, answers=answers, watch=watch)
        assert checked
        won += game.state.outcome == "victory"
    return won


@pytest.mark.parametrize("name", sorted(WAYS))
def test_a_reliques_way_out_to_a_death_ending_is_a_defeat(tmp_path, name):
    _, _, was, now = WAYS[name]
    book = _book(tmp_path, name)
    fight = _report(book)
    exact = fight.win("median", "none")
    assert fight.death_ways == (40,)
    before = _report(_book(tmp_path, name, dies=False))
    assert before.death_ways == ()
    assert before.win("median", "none") == pytest.approx(was, abs=5e-4)
    assert exact == pytest.approx(now, abs=5e-4)
    runs = 2000
    assert_within_3_se(_victories(book, runs) / runs, exact, runs)


def test_an_escape_to_a_death_ending_is_never_taken(tmp_path):
    """The DP never escapes to a death ending: the chance is that of winning, the escape's
    way on empty, below the figure when the escape leads on."""
    from dedale.game.rehearsal import FightRehearsal
    from dedale.rules.odds_reliques import reliques_odds

    path = tmp_path / "escape.dd"
    path.write_text(BOOK.format(way="> escape -> 40 after 1", con=6), "utf-8")
    book = load_book(path)
    calculator = ReliquesCalculator(build_graph(book), book)
    fight = next(s for s in book.paragraphs[2].body if type(s).__name__ == "Fight")
    spec = FightRehearsal(book).spec(fight)
    escapes = 0.0
    for _, character in calculator.heroes:
        free = reliques_odds(book.ruleset, character, spec)
        doomed = reliques_odds(book.ruleset, character, spec, doomed=frozenset({"escape"}))
        assert doomed.escaped == 0.0
        assert doomed.win_probability == pytest.approx(doomed.won, abs=1e-9)
        assert doomed.win_probability <= free.win_probability + 1e-12
        escapes += free.escaped
    assert escapes > 0.1  # some hero would escape if the escape led on
