"""A way out of a d20 fight to a death ending is no way out alive (issue 14.2, session 7):
the assault limit, "when your HP falls to N" and an event's turn to ``§ 40`` (``> death``)
counted as leaving alive in the d20 exact odds (the median hero "left" the limit book's
fight 92.9% of the time; he wins it 36.6%). Each figure is checked against 2,000 seeded
games of the real interpreter (a game that reaches § 40 is lost), within 3 SE."""

from __future__ import annotations

import pytest
from dedale.language import load_book
from dedale.validator.checker import validate_loaded
from dedale.validator.fights import hero_profiles, start_kit
from dedale.validator.graph import build_graph
from dedale.validator.simulate import FightSimulator

from tests.validator.seeded_paths import assert_within_3_se, play, ruleset_values

BOOK = """---
title: The toll bridge
language: en
ruleset: d20
{rules}---
§ 1
A rusty sword hangs by the door. You take it.
> take sword
-> 2 Walk to the bridge

§ 2
A toll-keeper with a cudgel blocks the bridge, which creaks under you both.
> fight
> enemy TOLL-KEEPER AC 12 attack +2 damage 1d6 HP {hp}
{way}
> win -> 3

§ 3
> victory

§ 40
The bridge breaks and the river takes you.
> death
"""
COUNTERS = """rules:
  counters:
    bites: {{names: {{en: Bites}}, aliases: [bites], initial: 0}}
    hits: {{names: {{en: Hits}}, aliases: [hits], initial: 0}}
"""
WAYS = {
    "limit": ("> not won after 3 assaults -> 40", 14),
    "threshold": ("> when your HP falls to 8 -> 40", 18),
    "acting": ("> when it wins an assault: -> 40\n> not won after 4 assaults -> 40", 10),
    # the first exit that holds is the one taken: exit:0 to the death ending, exit:1 on
    "exits": (
        "> when it wins an assault: gain 1 bites\n> when you win an assault: gain 1 hits\n"
        "> end the fight when bites >= 2 -> 40\n> end the fight when hits >= 2 -> 3",
        30,
    ),
}


def _book(tmp_path, name: str, dies: bool = True):
    way, hp = WAYS[name]
    text = BOOK.format(way=way, hp=hp, rules=COUNTERS.format() if name == "exits" else "")
    if not dies:  # § 40 reads on: the way out leaves the fight alive
        text = text.replace("> death", "> victory")
    path = tmp_path / f"{name}.dd"
    path.write_text(text, "utf-8")
    return load_book(path)


def _median(book) -> tuple[float, object]:
    report = validate_loaded(book, "book.dd", runs=0)
    (fight,) = report.fights
    assert fight.method == "exact"
    simulator = FightSimulator(book, hero_profiles(book.ruleset), kit=start_kit(build_graph(book)))
    (character,) = [c for hero, c in simulator.heroes if hero.level == "median"]
    return fight, character


def _victories(book, character, runs: int) -> int:
    values = ruleset_values(book, character)
    won = 0
    for seed in range(runs):
        game = play(book, seed, values)
        hero = game.state.hero
        assert set(hero.items) == set(character.items)  # the validator's hero: his sword
        won += game.state.outcome == "victory"
    return won


@pytest.mark.parametrize("name", sorted(WAYS))
def test_a_d20_way_out_to_a_death_ending_is_a_defeat(tmp_path, name):
    book = _book(tmp_path, name)
    fight, character = _median(book)
    exact = fight.win("median", "none")
    assert fight.death_ways == (40,)
    before, _ = _median(_book(tmp_path, name, dies=False))
    assert before.death_ways == ()
    assert exact < before.win("median", "none") - 0.05  # it counted the way out as alive
    runs = 2000
    assert_within_3_se(_victories(book, character, runs) / runs, exact, runs)


def test_the_limit_figures_before_and_after(tmp_path):
    fight, _ = _median(_book(tmp_path, "limit"))
    before, _ = _median(_book(tmp_path, "limit", dies=False))
    assert before.win("median", "none") == pytest.approx(0.9293, abs=5e-4)
    assert fight.win("median", "none") == pytest.approx(0.3658, abs=5e-4)


def test_an_escape_to_a_death_ending_is_never_the_better_choice():
    """The escape's value is 0 when its paragraph is a death ending: the engine never takes
    it, and its chance to leave alive is the chance to win."""
    from dedale.rules.odds_d20 import d20_odds

    book = load_book_text(ESCAPE)
    simulator = FightSimulator(book, hero_profiles(book.ruleset), kit=start_kit(build_graph(book)))
    fight = next(iter(_fights(book)))
    spec = simulator.rehearsal.spec(fight)
    escapes = 0.0
    for _, character in simulator.heroes:
        free = d20_odds(book.ruleset, character, spec)
        doomed = d20_odds(book.ruleset, character, spec, doomed=frozenset({"escape"}))
        assert doomed.escape_probability == 0.0
        assert doomed.alive_probability == pytest.approx(doomed.win_probability)
        assert doomed.alive_probability <= free.alive_probability + 1e-12
        escapes += free.escape_probability
    assert escapes > 0.1  # some hero would escape if the escape led on


ESCAPE = BOOK.format(way="> escape -> 40 after 1", hp=30, rules="")


def load_book_text(text: str):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "escape.dd"
        path.write_text(text, "utf-8")
        return load_book(path)


def _fights(book):
    from dedale import ast
    from dedale.validator.graph import walk

    graph = build_graph(book)
    for number in sorted(graph.nodes):
        for statement in walk(graph.nodes[number].paragraph.body):
            if isinstance(statement, ast.Fight):
                yield statement
