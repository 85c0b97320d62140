"""Two potions of different effects held at once on the path of fights (issue 14.4, item 2
of session 8): a Healing Draught (at 1: gain 4) and Phoenix Tears (at 0: restore), a ghoul
then the crypt's warden. The interpreter makes the first item taken, of those due, act
first: at 0 STAMINA with both, the Draught (taken first) brings the hero to 4 and the Tears
are kept; taken the other way round, the Tears act and the Draught is kept. The chain
(:mod:`dedale.validator.fight_path_potions`) is checked against a recursion over the
assaults written here (the two potions in the order the book gives them), for both orders,
and against the real interpreter with seeded dice, within 3 standard errors."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_potions import Potions
from dedale.validator.fight_path_steps import Dose, Fight, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import ff_values, victories

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator" / "path-two-potions.dd"
DRAUGHT = "> take Healing Draught (when STAMINA falls to 1: set STAMINA to 5)\n"
TEARS = "> take Phoenix Tears (when STAMINA falls to 0: restore STAMINA)\n"


def _swapped(tmp_path) -> Path:
    """The same book, the Tears taken before the Draught."""
    text = BOOK.read_text("utf-8").replace(DRAUGHT + TEARS, TEARS + DRAUGHT)
    path = tmp_path / "swapped.dd"
    path.write_text(text, "utf-8")
    return path


def _hero(book, level: str):
    return next(h for h in hero_profiles(book.ruleset) if h.level == level)


def _chain(book, hero):
    graph = build_graph(book)
    reports = {r.fight.span: r for r in fight_reports(graph, book)}
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4)):
        node = graph.nodes[number]
        steps += segments.of(node, next(e for e in node.edges if e.target == target))
    steps.append(segments.of(graph.nodes[4], None))
    steps = tuple(s for step in steps for s in (step if isinstance(step, tuple) else (step,)))
    potion, start, why = segments.potions.for_path(book, steps)
    assert why is None
    chain = HeroChain(book.ruleset, hero, "none", reports, potion=potion, doses=start)
    return steps, chain, potion


def _odds(skill: int, enemy: int) -> tuple[float, float, float]:
    """(hero wounds the enemy, the enemy wounds the hero, tie) of one assault, 2d6 each."""
    rolls = [a + b for a in range(1, 7) for b in range(1, 7)]
    win = sum(1 for x in rolls for y in rolls if skill + x > enemy + y) / 1296
    lose = sum(1 for x in rolls for y in rolls if skill + x < enemy + y) / 1296
    return win, lose, 1 - win - lose


def _hand_chain(hero, order: tuple[str, ...]) -> list[float]:
    """The chance alive after each fight, by a recursion over the assaults: after each
    assault (a mortal wound included) and after the fight, the first potion of ``order``
    held whose threshold STAMINA is at or below acts, one dose, again while one is due."""
    stats = dict(hero.stats)
    skill, top = stats["SKILL"], stats["STAMINA"]
    potions = {"draught": (1, lambda h: 5), "tears": (0, lambda h: top)}

    def settle(h: int, held: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        held = list(held)
        while True:
            due = next((i for i, name in enumerate(order)
                        if held[i] and h <= potions[name][0]), None)  # fmt: skip
            if due is None:
                return h, tuple(held)
            held[due] -= 1
            h = potions[order[due]][1](h)

    def fight(enemy_skill: int, enemy_stamina: int, dist: dict) -> dict:
        win, lose, tie = _odds(skill, enemy_skill)

        @cache
        def ends(h: int, e: int, held: tuple) -> tuple:
            out: dict = {}
            if e - 2 <= 0:
                key = settle(h, held)
                out[key] = out.get(key, 0.0) + win / (1 - tie)
            else:
                for key, q in ends(h, e - 2, held):
                    out[key] = out.get(key, 0.0) + win / (1 - tie) * q
            h2, held2 = settle(max(0, h - 2), held)
            if h2 > 0:
                for key, q in ends(h2, e, held2):
                    out[key] = out.get(key, 0.0) + lose / (1 - tie) * q
            return tuple(out.items())

        new: dict = {}
        for (h, held), p in dist.items():
            for key, q in ends(h, enemy_stamina, held):
                new[key] = new.get(key, 0.0) + p * q
        return new

    dist = {settle(top - 1, (1, 1)): 1.0}  # the stair's cut: 1 STAMINA
    cumulative = []
    for enemy in ((9, 10), (10, 12)):
        dist = fight(*enemy, dist)
        cumulative.append(sum(dist.values()))
    return cumulative


@pytest.mark.parametrize("level", ["weakest", "median"])
@pytest.mark.parametrize("swap", [False, True])
def test_the_chain_matches_a_recursion_with_both_potions(level, swap, tmp_path):
    book = load_book(_swapped(tmp_path) if swap else BOOK)
    hero = _hero(book, level)
    steps, chain, potion = _chain(book, hero)
    assert isinstance(potion, Potions)
    assert [potion.kinds[0].at, potion.kinds[1].at] == ([0, 1] if swap else [1, 0])
    assert [type(s) for s in steps if not isinstance(s, Dose)].count(Fight) == 2
    result = chain.best(steps)
    assert result.exact, result.reasons
    order = ("tears", "draught") if swap else ("draught", "tears")
    expected = _hand_chain(hero, order)
    assert [step.cumulative for step in result.fights] == pytest.approx(expected, abs=1e-9)


def test_the_order_the_potions_are_taken_in_matters(tmp_path):
    """At 0 STAMINA with both, the one taken first acts: the figures differ (the median
    hero, 18 after the cut: with the Tears first, back to 19, the Draught acts at 1 and
    sets 5, a point lost; with the Draught first, it acts at 0)."""
    book = load_book(BOOK)
    hero = _hero(book, "median")
    first = _hand_chain(hero, ("draught", "tears"))[-1]
    second = _hand_chain(hero, ("tears", "draught"))[-1]
    assert abs(first - second) > 1e-3
    swapped = load_book(_swapped(tmp_path))
    assert _chain(book, hero)[1].best(_chain(book, hero)[0]).win == pytest.approx(first)
    steps, chain, _ = _chain(swapped, _hero(swapped, "median"))
    assert chain.best(steps).win == pytest.approx(second)


def test_the_validator_counts_both_potions_exactly():
    fight_path = validate_path(BOOK, runs=0).fight_path
    assert fight_path.potion == "Healing Draught, Phoenix Tears"
    for hero in fight_path.heroes:
        assert hero.reasons == () and all(step.exact for step in hero.fights)


def test_the_chain_agrees_with_the_real_interpreter_within_3_se():
    """The median hero plays the book 2,000 times, seeded dice, no Luck (the order the
    potions act in matters for him)."""
    book = load_book(BOOK)
    hero = _hero(book, "median")
    steps, chain, _ = _chain(book, hero)
    exact = chain.best(steps).win
    runs = 2000
    won = victories(book, ff_values(hero), runs)
    se = math.sqrt(exact * (1 - exact) / runs)
    assert 0.05 < exact < 0.95, exact
    assert abs(won / runs - exact) <= 3 * se, (won / runs, exact)
    other = _hand_chain(hero, ("tears", "draught"))[-1]  # the potions in the other order
    assert abs(won / runs - other) > 3 * se, (won / runs, other)


def _variant(tmp_path, old: str, new: str) -> Path:
    path = tmp_path / "variant.dd"
    path.write_text(BOOK.read_text("utf-8").replace(old, new), "utf-8")
    return path


def test_items_of_two_kinds_taken_in_turn_are_approximate(tmp_path):
    """A Salve of the Draught's effect taken after the Tears: the interpreter checks the
    items one by one in the order taken (Draught, Tears, Salve), which is not one kind
    then the other: the figure says why."""
    salve = "> take Salve (when STAMINA falls to 1: set STAMINA to 5)\n"
    path = _variant(tmp_path, TEARS, TEARS + salve)
    median = validate_path(path, runs=0).fight_path.of("median")
    shown = [why.translate("en") for _, why in median.reasons]
    assert [number for number, _ in median.reasons] == [1]
    assert "taken in turn" in shown[0]
    path = _variant(tmp_path, DRAUGHT, DRAUGHT + salve)  # Draught, Salve, Tears: grouped
    assert validate_path(path, runs=0).fight_path.of("median").reasons == ()


def test_a_fourth_potion_and_an_item_of_two_effects_are_not_counted(tmp_path):
    more = (
        "> take Elixir (when STAMINA falls to 2: gain 3 STAMINA)\n"
        "> take Balm (when STAMINA falls to 3: gain 1 STAMINA)\n"
    )
    path = _variant(tmp_path, TEARS, TEARS + more)
    median = validate_path(path, runs=0).fight_path.of("median")
    shown = [why.translate("en") for _, why in median.reasons]
    assert len(shown) == 1 and "Balm acts when STAMINA falls unlike" in shown[0]
    twice = "> take Phoenix Tears (when STAMINA falls to 2: gain 3 STAMINA)\n"
    path = _variant(tmp_path, "> win -> 3\n", "> win -> 3\n" + twice)
    median = validate_path(path, runs=0).fight_path.of("median")
    shown = [why.translate("en") for _, why in median.reasons]
    assert shown and "in two ways" in shown[0]
