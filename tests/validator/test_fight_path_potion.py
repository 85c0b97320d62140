"""Potions on the path of fights (issue 14.4): an item that acts when STAMINA falls is
drunk by the chain as the interpreter drinks it — between the steps and inside a fight —
checked against an independent chain computed here (the df-classic assault by hand, the
potion in the fight and between, no code of the validator's), against the real
interpreter played through the book with seeded dice, and the meal policy against every
policy with a potion held."""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_potion import Potion, settle
from dedale.validator.fight_path_steps import Change, Dose, Fight, Item, Meal, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

HEADER = "---\ntitle: Two keepers\nlanguage: en\nruleset: df-classic\n{extra}---\n"
ROAD = """§ 1
> take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)
> fight GATEKEEPER SKILL 9 STAMINA 10
> win -> 2

§ 2
> lose 3 STAMINA
-> 3 On

§ 3
> fight WARDEN SKILL 10 STAMINA 12
> win -> 4

§ 4
> victory
"""
KEEPERS = [(9, 10), (10, 12)]
BOOKS_DIR = Path(__file__).resolve().parents[1] / "books_extra" / "validator"


def _book(tmp_path, text: str, extra: str = ""):
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(extra=extra) + text, "utf-8")
    return path, load_book(path)


def _hero(book, level: str = "median"):
    return next(h for h in hero_profiles(book.ruleset) if h.level == level)


# ---------------------------------------------------------------- the independent chain

_SUMS = {
    t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) / 36 for t in range(2, 13)
}


def _assault(skill: int, enemy: int) -> tuple[float, float, float]:
    """(hero wounds, enemy wounds, tie) of one df-classic assault: 2d6 + SKILL each."""
    won = lost = 0.0
    for a, p in _SUMS.items():
        for b, q in _SUMS.items():
            if a + skill > b + enemy:
                won += p * q
            elif a + skill < b + enemy:
                lost += p * q
    return won, lost, 1 - won - lost


def _lucky(luck: int) -> float:
    return sum(p for t, p in _SUMS.items() if t <= luck)


def _drink(h: int, d: int, at: int, gain: int, top: int) -> tuple[int, int]:
    while d > 0 and h <= at:  # the interpreter's fire_triggers: one piece a round
        h, d = min(top, h + gain), d - 1
    return h, d


def _fight(skill, enemy, stamina, top, at, gain, use_luck):
    """The fight by hand: value and joint end states from (STAMINA, enemy STAMINA, LUCK,
    doses), the potion drunk after a wound that leaves STAMINA at or below ``at``."""
    won, lost, tie = _assault(skill, enemy)

    def hurt(h, e, luck, d, damage):
        h, d = _drink(max(0, h - damage), d, at, gain, top)
        return (h, e, luck, d) if h > 0 else None

    def options(h, e, luck, d):
        hit = [[(1.0, (h, e - 2, luck, d))]]
        wound = [[(1.0, hurt(h, e, luck, d, 2))]]
        if use_luck and luck > 0:
            q = _lucky(luck)
            hit.append([(q, (h, e - 4, luck - 1, d)), (1 - q, (h, e - 1, luck - 1, d))])
            wound.append([(q, hurt(h, e, luck - 1, d, 1)), (1 - q, hurt(h, e, luck - 1, d, 3))])
        return hit, wound

    @cache
    def value(state):
        if state is None:
            return 0.0
        h, e, luck, d = state
        if e <= 0:
            return 1.0
        return sum(
            p * _mean(pick(o)) for p, o in zip((won, lost), options(*state), strict=True)
        ) / (1 - tie)

    def _mean(option):
        return sum(q * value(t) for q, t in option)

    def pick(option_list):
        best = option_list[0]
        if len(option_list) > 1 and _mean(option_list[1]) > _mean(best):
            best = option_list[1]
        return best

    @cache
    def ends(state) -> tuple:
        if state is None:
            return ()
        h, e, luck, d = state
        if e <= 0:
            return (((h, luck, d), 1.0),)
        out: dict = {}
        for p, option_list in zip((won, lost), options(*state), strict=True):
            for q, target in pick(option_list):
                for end, r in ends(target):
                    out[end] = out.get(end, 0.0) + p * q * r / (1 - tie)
        return tuple(out.items())

    return lambda h, luck, d: dict(ends((h, stamina, luck if use_luck else 0, d)))


def _hand_chain(hero, policy: str, at=4, gain=6, doses=2, loss=3) -> list[float]:
    """The chance alive after each fight of ROAD, by hand."""
    stats = dict(hero.stats)
    top, skill = stats["STAMINA"], stats["SKILL"]
    use_luck = policy == "best"
    dist = {(top, stats["LUCK"], doses): 1.0}
    cumulative = []
    for index, (enemy, stamina) in enumerate(KEEPERS):
        fight = _fight(skill, enemy, stamina, top, at, gain, use_luck)
        new: dict = {}
        for (h, luck, d), p in dist.items():
            for (end_h, end_luck, left), q in fight(h, luck, d).items():
                end = (end_h, end_luck if use_luck else luck, left)
                new[end] = new.get(end, 0.0) + p * q
        dist = new
        cumulative.append(sum(dist.values()))
        if index == 0:  # § 2: lose 3 STAMINA, the potion acts after the line
            after: dict = {}
            for (h, luck, d), p in dist.items():
                h, d = _drink(max(0, h - loss), d, at, gain, top)
                if h > 0:
                    after[(h, luck, d)] = after.get((h, luck, d), 0.0) + p
            dist = after
    return cumulative


# ---------------------------------------------------------------- tests


def _road_steps(book):
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    steps = tuple(
        step
        for number in (1, 2, 3)
        for step in segments.of(graph.nodes[number], graph.nodes[number].edges[0])
    )
    assert [type(step) for step in steps] == [Item, Dose, Fight, Change, Fight]
    return segments, steps


TEARS = "> take Phoenix Tears (when STAMINA falls to 0: restore STAMINA)\n"
DRAUGHTS = "> take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)\n"


@pytest.mark.parametrize("level", ["weakest", "median", "strongest"])
@pytest.mark.parametrize(
    ("take", "at", "gain", "doses"),
    [(DRAUGHTS, 4, 6, 2), (TEARS, 0, 99, 1)],  # restore: a gain capped at the initial
    ids=["draughts", "tears"],
)
def test_the_potion_chain_matches_the_chain_by_hand(tmp_path, level, take, at, gain, doses):
    """No Luck: the chance alive after each fight, the potion acting in both fights (on a
    mortal wound for the tears) and after the loss, equals the chain by hand to 1e-9."""
    _, book = _book(tmp_path, ROAD.replace(DRAUGHTS, take))
    segments, steps = _road_steps(book)
    hero = _hero(book, level)
    chain = HeroChain(book.ruleset, hero, "none", {}, potion=segments.potions.potion)
    result = chain.best(steps)
    expected = _hand_chain(hero, "none", at=at, gain=gain, doses=doses)
    assert [f.cumulative for f in result.fights] == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert result.win == pytest.approx(expected[-1], rel=1e-9) and result.exact
    without = _hand_chain(hero, "none", doses=0)
    assert expected[-1] > without[-1] > 0  # the potion counts


@pytest.mark.parametrize("level", ["weakest", "median"])
def test_with_best_luck_each_fight_is_won_as_by_hand_from_every_state(tmp_path, level):
    """Best Luck knowing the doses: the chance to win each fight from every state the
    chain reaches (STAMINA, LUCK, doses) equals the value by hand to 1e-9, and the
    validator reports the chain's figure without ``≈``. (Where Luck or none give the
    same chance, the end states follow one of the best policies: the DP's arithmetic
    picks it, so the chained figure is compared fight by fight, not as a whole.)"""
    path, book = _book(tmp_path, ROAD)
    segments, steps = _road_steps(book)
    hero = _hero(book, level)
    stats = dict(hero.stats)
    chain = HeroChain(book.ruleset, hero, "best", {}, potion=segments.potions.potion)
    dist, held, checked = chain.start(), frozenset(), 0
    for step in steps[:2]:
        dist = dict(chain.moves(step, next(iter(dist)), held)[0])
    for index, enemy in ((2, KEEPERS[0]), (4, KEEPERS[1])):
        hand = _fight(stats["SKILL"], *enemy, stats["STAMINA"], 4, 6, True)
        for h, luck, _, d in dist:
            if d > 0:
                win = chain.dosed(steps[index].fight, held, h, luck, d)[0]
            else:
                win = chain.kernel(steps[index].fight, held, h, luck)[0]
            assert win == pytest.approx(sum(hand(h, luck, d).values()), rel=1e-9, abs=1e-12)
            checked += 1
        dist = chain.forward(dist, held, steps[index : index + 2])[0]
    assert checked > 20
    if level == "median":
        median = validate_path(path, runs=0).fight_path.of("median")
        assert median.exact and median.win == pytest.approx(chain.best(steps).win, rel=1e-12)


def test_a_starting_potion_of_book_yaml_is_counted(tmp_path):
    take = "> take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)\n"
    extra = 'items: ["2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)"]\n'
    path, book = _book(tmp_path, ROAD.replace(take, ""), extra)
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    assert segments.potions.start_doses(book) == 2
    steps = tuple(
        step
        for number in (1, 2, 3)
        for step in segments.of(graph.nodes[number], graph.nodes[number].edges[0])
    )
    potion = segments.potions.potion
    chain = HeroChain(book.ruleset, _hero(book), "none", {}, potion=potion, doses=2)
    assert chain.best(steps).win == pytest.approx(_hand_chain(_hero(book), "none")[-1], rel=1e-9)
    assert validate_path(path, runs=0).fight_path.of("median").exact


def test_settle_drinks_while_at_or_below_the_threshold():
    vial = Potion(4, "add", ((3, 1.0),))
    assert settle(vial, 20, 0, 3) == [((6, 1), 1.0)]  # 0 -> 3 -> 6: two doses
    assert settle(vial, 20, 5, 3) == [((5, 3), 1.0)]
    tears = Potion(0, "restore", None)
    assert settle(tears, 18, 0, 1) == [((18, 0), 1.0)]
    rolled = Potion(2, "add", ((1, 0.5), (6, 0.5)))
    assert sorted(settle(rolled, 20, 1, 1)) == [((2, 0), 0.5), ((7, 0), 0.5)]


def test_the_chain_agrees_with_the_real_interpreter_within_3_se(tmp_path):
    """The median hero plays ROAD 1,500 times through the interpreter (its potion acting
    in the fights and after the loss), seeded dice, no Luck: the victories are within 3
    standard errors of the chain's figure."""
    path, book = _book(tmp_path, ROAD)
    hero = _hero(book)
    exact = _hand_chain(hero, "none")[-1]
    runs = 1500  # the first choice, never Luck, nothing else
    assert_within_3_se(victory_rate(book, ff_values(hero), runs), exact, runs)


CAMPS = """§ 1
> lose 9 meals
> take Phoenix Tears (when STAMINA falls to 0: gain 5 STAMINA)
> fight WOLF SKILL 8 STAMINA 8
> win -> 2

§ 2
A first camp.
> meal allowed
-> 3 On

§ 3
> fight BEAR SKILL 9 STAMINA 10
> win -> 4

§ 4
A second camp.
> meal allowed
-> 5 On

§ 5
> fight TROLL SKILL 10 STAMINA 10
> win -> 6

§ 6
> victory
"""


def test_the_meal_policy_with_a_potion_is_the_best_of_every_policy(tmp_path):
    """One meal, two camps, a potion held: the backward induction's figure is the best of
    every policy "eat at the first camp in these states, else at the second"."""
    _, book = _book(tmp_path, CAMPS)
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    chain = HeroChain(book.ruleset, _hero(book), "none", {}, potion=segments.potions.potion)
    steps = tuple(
        step
        for number in (1, 2, 3, 4, 5)
        for step in segments.of(graph.nodes[number], graph.nodes[number].edges[0])
    )
    assert [type(s) for s in steps].count(Meal) == 2 and Fight in map(type, steps)
    best = chain.best(steps).win

    def run(first_camp: set) -> float:
        dist, camps = chain.start(), 0
        for step in steps:
            new: dict = {}
            for state, p in dist.items():
                options = chain.moves(step, state, frozenset())
                option = options[0]
                if isinstance(step, Meal) and len(options) > 1:
                    option = options[1] if camps or state in first_camp else options[0]
                for target, q in option:
                    new[target] = new.get(target, 0.0) + p * q
            camps += isinstance(step, Meal)
            dist = new
        return sum(dist.values())

    after_wolf = chain.forward(chain.start(), frozenset(), steps[:4])[0]
    hurt = sorted(s for s in after_wolf if s[0] < dict(_hero(book).stats)["STAMINA"])
    assert any(s[3] == 0 for s in hurt) and any(s[3] == 1 for s in hurt)  # drunk or not
    figures = [
        run(set(chosen))
        for size in range(len(hurt) + 1)
        for chosen in itertools.combinations(hurt, size)
    ]
    assert best == pytest.approx(max(figures), rel=1e-12)
    assert best > run(set())  # the choice matters here


def test_an_item_on_luck_keeps_the_figure_approximate_a_second_potion_is_counted(tmp_path):
    """The Tears, a second potion of another effect, are followed with the Draughts
    (tests/validator/test_fight_path_two_potions.py); the Charm on LUCK is not."""
    text = ROAD.replace(
        "§ 2\n",
        "§ 2\n> take Charm (when LUCK falls to 3: gain 2 LUCK)\n"
        "> take Tears (when STAMINA falls to 0: restore STAMINA)\n",
    ).replace("§ 3\n", "§ 3\n> take Tears (when STAMINA falls to 0: restore STAMINA)\n")
    path, _ = _book(tmp_path, text)
    median = validate_path(path, runs=0).fight_path.of("median")
    shown = [why.translate("en") for _, why in median.reasons]
    assert not median.exact and len(shown) == 1
    assert [number for number, _ in median.reasons] == [2]
    assert "Charm acts when LUCK falls" in shown[0]


def test_reports_name_no_potion_reason_once_exact(tmp_path):
    path, book = _book(tmp_path, ROAD)
    reports = fight_reports(build_graph(book), book)
    assert reports  # the fights have odds
    report = validate_path(path, runs=0)
    assert not [f for f in report.findings if "acts when" in f.message.translate("en")]


def test_a_potion_fight_past_its_state_bound_is_approximate_not_a_hang(tmp_path, monkeypatch):
    from dedale.validator import fight_path_potion_fight

    monkeypatch.setattr(fight_path_potion_fight, "MAX_STATES", 10)
    path, _ = _book(tmp_path, ROAD)
    median = validate_path(path, runs=0).fight_path.of("median")
    shown = [why.translate("en") for _, why in median.reasons]
    assert not median.exact and "too many states for the exact odds with a potion" in shown[0]


def test_a_potion_held_in_a_fight_at_once_is_counted_in_it(tmp_path, monkeypatch):
    """Counted blow by blow (tests/validator/test_fight_path_potion_at_once.py); where it
    cannot be (here forced), the figure is ``≈`` and says why."""
    from dedale.validator import fight_path_group_potion

    text = ROAD.replace(
        "> fight WARDEN SKILL 10 STAMINA 12\n",
        "> fight all at once\n> enemy WARDEN SKILL 10 STAMINA 6\n> enemy PAGE SKILL 6 STAMINA 4\n",
    )
    _, book = _book(tmp_path, text)
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    steps = tuple(
        step
        for number in (1, 2, 3)
        for step in segments.of(graph.nodes[number], graph.nodes[number].edges[0])
    )
    chain = HeroChain(book.ruleset, _hero(book), "none", {}, potion=segments.potions.potion)
    result = chain.best(steps)
    assert result.exact and 0 < result.win < 1, result.reasons
    refused = fight_path_group_potion.tr("an event of the fight")
    monkeypatch.setattr(fight_path_group_potion, "potion_reason", lambda fight, potion: refused)
    chain = HeroChain(book.ruleset, _hero(book), "none", {}, potion=segments.potions.potion)
    result = chain.best(steps)
    shown = [why.translate("en") for _, why in result.reasons]
    assert not result.exact and 0 < result.win < 1
    assert any("a potion in a fight against several enemies at once" in why for why in shown)


def test_the_text_report_says_which_potion_is_counted(tmp_path):
    from dedale.validator.report.fight_path_report import fight_path_text

    path, _ = _book(tmp_path, ROAD)
    found = validate_path(path, runs=0).fight_path
    assert found.potion == "Healing Draughts"
    shown = fight_path_text(found, "fr").plain
    assert "potion comptée, dans les combats et entre eux\u00a0: Healing Draughts" in shown
    three = validate_path(BOOKS_DIR / "W120-path-of-three-fights.dd", runs=0).fight_path
    assert three.potion == "" and "potion" not in fight_path_text(three, "en").plain
