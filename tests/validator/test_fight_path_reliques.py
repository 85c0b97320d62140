"""The path of fights of a reliques book (issue 14.4; validator/fight_path_reliques.py): the
hero's health, his Courage points (spent at best in each fight) and the wear of his armour
carried from fight to fight exactly. Checked against an independent chain (the reliques DP
called per fight from every state the hero may be in, its end states convolved by hand, the
wear charged to the leather armour, the +2 health of § 4 capped at the initial health) and
against the real interpreter (game/, seeded dice, 2,000 whole games) within 3 standard
errors, for the same book without Courage points (the interpreter's hero then has no
choice the DP makes: his dodge and parry are the same test)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds_reliques import reliques_odds
from dedale.validator import validate_path
from dedale.validator.fights_reliques import ReliquesCalculator
from dedale.validator.graph import build_graph, walk

BOOK = (
    Path(__file__).resolve().parents[1]
    / "books_extra"
    / "validator"
    / ("reliques-path-of-fights.dd")
)
RUNS = 2000


def _heroes(book):
    calculator = ReliquesCalculator(build_graph(book), book)
    return calculator, {hero.level: character for hero, character in calculator.heroes}


def _hand_chain(book, level: str, wear: bool = True) -> list[float]:
    """The cumulative chance after each fight: ``reliques_odds`` (Courage at best) from
    every (health, Courage, wear) the hero may have, its end states convolved by hand
    (``wear=False``: the armour whole again at each fight, to show the wear matters)."""
    calculator, characters = _heroes(book)
    character = characters[level]
    health = book.ruleset.fight.health
    top = character.stats[health]
    armour = book.ruleset.item("cuir")
    assert armour is not None and armour.protection == 2
    assert [d.id for d in character.owned_defs(book.ruleset) if d.protection] == ["cuir"]
    fights = [s for n in sorted(book.paragraphs) for s in walk(book.paragraphs[n].body)]
    fights = [s for s in fights if type(s).__name__ == "Fight"]
    assert len(fights) == 3
    dist = {(top, character.counters["courage"], 0): 1.0}  # health, Courage, leather worn
    cumulative = []
    for index, fight in enumerate(fights):
        spec = calculator.rehearsal.spec(fight)
        new: dict[tuple[int, int, int], float] = {}
        for (hp, courage, worn), p in dist.items():
            hero = character.copy()
            hero.stats[health] = hp
            hero.counters["courage"] = courage
            hero.protection_worn = {"cuir": worn} if worn else {}
            odds = reliques_odds(book.ruleset, hero, spec, luck_policy="best")
            before = max(0, armour.protection - worn)
            for (way, end, left, points), q in odds.end_states.items():
                assert way == "won"
                state = (end, points, worn + (before - left) if wear else 0)
                new[state] = new.get(state, 0.0) + p * odds.win_probability * q
        dist = new
        if index == 1:  # the water of § 4: +2 health, never above the initial health
            healed: dict[tuple[int, int, int], float] = {}
            for (hp, courage, worn), p in dist.items():
                key = (min(top, hp + 2), courage, worn)
                healed[key] = healed.get(key, 0.0) + p
            dist = healed
        cumulative.append(sum(dist.values()))
    return cumulative


@pytest.fixture(scope="module")
def path():
    return validate_path(BOOK, runs=0).fight_path


@pytest.mark.parametrize("level", ["weakest", "median", "strongest"])
def test_the_reliques_path_is_the_dp_chained_by_hand(path, level):
    book = load_book(BOOK)
    expected = _hand_chain(book, level)
    hero = path.of(level)
    assert hero is not None and hero.exact, hero
    assert hero.paragraphs == (1, 2, 3, 4, 5, 6)
    assert [step.cumulative for step in hero.fights] == pytest.approx(expected, rel=1e-9)
    assert hero.win == pytest.approx(expected[-1], rel=1e-9)


def test_the_wear_and_the_wounds_are_carried(path):
    """The chained figure is below the product of the fight table's chances (each from
    the start's health and armour), and below the chain with the armour whole again."""
    book = load_book(BOOK)
    report = validate_path(BOOK, runs=0)
    product = 1.0
    for fight in report.fights:
        product *= fight.win("median", "best", None)
    median = path.of("median").win
    assert median < product - 0.05
    assert median < _hand_chain(book, "median", wear=False)[-1] - 1e-3


def _play(book, character, runs: int) -> float:
    """Whole games of the real interpreter along the path (its only choices), seeded."""
    from dedale import events
    from dedale.game import Game

    values = tuple(character.stats[stat.id] for stat in book.ruleset.stats)
    won = 0
    for seed in range(runs):
        game = Game.new(book, seed, hero=values, name="Ari", lang="fr", free_stats=True)
        checked = False
        for _ in range(2000):
            item = game.next()
            if item is None:
                break
            hero = game.state.hero
            if not checked and hero is not None and game.state.paragraph == 2:
                assert hero.stats == character.stats  # the validator's hero, his kit
                assert set(hero.items) == set(character.items)
                assert hero.counters.get("courage", 0) == 0
                checked = True
            if isinstance(item, events.ChoosePrompt):
                game.answer(next(o.index for o in item.options if o.enabled))
            elif isinstance(item, events.YesNoPrompt):  # dodge (the same test as parry)
                game.answer(item.kind == "dodge")
            elif isinstance(item, events.Prompt):
                raise AssertionError(item)
        assert checked
        won += game.state.outcome == "victory"
    return won / runs


def test_the_reliques_path_agrees_with_the_real_interpreter_within_3_se(tmp_path):
    text = BOOK.read_text(encoding="utf-8").replace(
        "ruleset: reliques\n", "ruleset: reliques\nrules:\n  counters:\n    courage: {initial: 0}\n"
    )
    book_path = tmp_path / "sans-courage.dd"
    book_path.write_text(text, encoding="utf-8")
    book = load_book(book_path)
    median = validate_path(book_path, runs=0).fight_path.of("median")
    assert median.exact and median.paragraphs == (1, 2, 3, 4, 5, 6), median
    assert median.win == pytest.approx(_hand_chain(book, "median")[-1], rel=1e-9)
    exact = median.win
    assert 0.05 < exact < 0.95
    _, characters = _heroes(book)
    played = _play(book, characters["median"], RUNS)
    se = math.sqrt(exact * (1 - exact) / RUNS)
    assert abs(played - exact) <= 3 * se, (played, exact, se)


EXITS_BOOK = """---
title: La tour du guet
language: fr
ruleset: reliques
validator:
  time_budget: 300
---
§ 1
> prenez dague
> prenez armure de cuir
-> 2 Monter

§ 2
> combat
> ennemi Garde FOR 3 AGL 2 PER 2 CON 2 arme 2
> quand votre santé tombe à 8 ou moins -> 3
> victoire -> 4

§ 3
Vous reculez jusqu'à l'échelle, blessé.
-> 4 Monter quand même

§ 4
> combat
> ennemi Capitaine FOR 4 AGL 3 PER 3 CON 2 arme 3 protection 1
> fuite -> 6 après 2
> victoire -> 5

§ 5
> victoire

§ 6
Vous dévalez l'escalier, vaincu.
> mort
"""


def test_exits_are_the_dps_ways_out_and_the_escape_off_the_path_is_never_taken(tmp_path):
    """The guard's threshold sends the hero to § 3, which only turns to § 4: both of the
    DP's ways out (the win and the threshold) go on to § 4 with their own end states; the
    captain's escape leads to a death, so on the path to § 5 the hero never escapes (the
    DP without the escape). By hand."""
    import dataclasses

    path = tmp_path / "tour.dd"
    path.write_text(EXITS_BOOK, encoding="utf-8")
    book = load_book(path)
    median = validate_path(path, runs=0).fight_path.of("median")
    assert median is not None and median.exact, median
    assert median.paragraphs == (1, 2, 4, 5)
    calculator, characters = _heroes(book)
    character = characters["median"]
    health = book.ruleset.fight.health
    guard, captain = (
        next(s for s in walk(book.paragraphs[n].body) if type(s).__name__ == "Fight")
        for n in (2, 4)
    )
    hero = character.copy()
    first = reliques_odds(
        book.ruleset, hero, calculator.rehearsal.spec(guard), luck_policy="best", threshold=8
    )
    spec = dataclasses.replace(calculator.rehearsal.spec(captain), escape_after=None)
    total = 0.0
    before = 2  # the leather armour whole
    for (way, hp, left, courage), p in first.outcomes.items():
        assert way in ("won", "limit")  # the threshold's way: to § 3, then on to § 4
        hero = character.copy()
        hero.stats[health] = hp
        hero.counters["courage"] = courage
        hero.protection_worn = {"cuir": before - left} if before > left else {}
        total += p * reliques_odds(book.ruleset, hero, spec, luck_policy="best").win_probability
    assert first.limit > 0.01  # the threshold's way is taken (and rejoins the path)
    assert median.win == pytest.approx(total, rel=1e-9)
    table = validate_path(path, runs=0).fights[1].win("median", "best", None)
    assert median.fights[1].chance < table  # the table's hero may escape; the path's not
