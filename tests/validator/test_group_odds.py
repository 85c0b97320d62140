"""The exact odds of fights against several enemies at once (rules/odds_group.py) against a
seeded simulation of the real fight code, within 3 standard errors, for each ruleset's
semantics (df-classic, df24 with its instant kill, df48.5); the target in order and the
best target; the best Luck a maximum; the validator's report and the budget (issue 14.1)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale import ast
from dedale.events import AssaultResolved, StatChanged, TargetPrompt
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import AlwaysNo, RandomSource, create_character, load_ruleset
from dedale.rules.decisions import drive
from dedale.rules.fights import run_fight
from dedale.rules.odds import fight_odds
from dedale.rules.odds_group import GroupTable
from dedale.rules.odds_inputs import OddsTooLarge

HEADER = """---
title: At once
language: en
ruleset: {ruleset}
start: 1
---
§ 1
> fight all at once
{enemies}
> win -> 2
§ 2
> victory
"""
SAMPLES = 4_000
HERO = {"SKILL": 9, "STAMINA": 12, "LUCK": 8}
LINE_UPS = {
    "two": "> enemy WOLF SKILL 7 STAMINA 5\n> enemy BEAR SKILL 8 STAMINA 6",
    "three": (
        "> enemy GREY RAT SKILL 5 STAMINA 3\n> enemy RAT KING SKILL 7 STAMINA 5\n"
        "> enemy BROWN RAT SKILL 5 STAMINA 3"
    ),
}


def _fight(tmp_path: Path, ruleset: str, enemies: str):
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ruleset=ruleset, enemies=enemies), encoding="utf-8")
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    return book, fight


def _line_up(book, fight):
    params = book.ruleset.fight
    found = []
    for enemy in fight.enemies:
        stats = {book.ruleset.resolve(n)[1]: v for n, v in enemy.stats}
        found.append((stats[params.attack_stat], stats[params.health], enemy.immune_instant_kill))
    return found


class _BestTarget:
    """Picks the target the exact table picks, from the enemies' STAMINA as the fight's
    events show it (Luck: never)."""

    def __init__(self, table: GroupTable, character, names, healths) -> None:
        self.table, self.character = table, character
        self.names, self.healths = list(names), list(healths)
        self.hit = False

    def event(self, event) -> None:
        if isinstance(event, StatChanged) and event.who in self.names:
            self.healths[self.names.index(event.who)] = event.new
            self.hit = True
        elif isinstance(event, AssaultResolved) and event.note == "instant_kill":
            self.healths[self.names.index(event.enemy)] = 0

    def answer(self, prompt):
        if not isinstance(prompt, TargetPrompt):
            return False
        living = [i for i, h in enumerate(self.healths) if h > 0]
        stamina = self.character.stats["STAMINA"]
        wanted = self.table.target_for(stamina, 0, self.healths, self.hit)
        return living.index(wanted)


CLASSES = {"df48.5": "Mercenaire"}  # armour on the first assault, +1 on the first hit


def _simulated(book, fight, target: str, class_name: str | None = None) -> float:
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    line_up = _line_up(book, fight)
    table = GroupTable(book.ruleset, HERO["SKILL"], line_up, target="best", class_name=class_name)
    rng = RandomSource(4321)
    won = 0
    for _ in range(SAMPLES):
        character = create_character(book.ruleset, RandomSource(0), class_name, fixed=HERO)
        if target == "order":
            decider, on_event = AlwaysNo(), None
        else:
            healths = [h for _, h, _ in line_up]
            decider = _BestTarget(table, character, [e.name for e in fight.enemies], healths)
            on_event = decider.event
        result = drive(run_fight(book.ruleset, character, rng, spec), decider, on_event)
        rng.log.clear()
        won += result.outcome == "won"
    return won / SAMPLES


def _within_3_se(exact: float, simulated: float) -> None:
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / SAMPLES)
    assert abs(exact - simulated) <= 3 * se, (exact, simulated, se)


@pytest.mark.parametrize("ruleset", ["df-classic", "df24", "df48.5"])
@pytest.mark.parametrize("target", ["order", "best"])
def test_several_enemies_at_once_agree_with_the_real_fight(tmp_path, ruleset, target):
    book, fight = _fight(tmp_path, ruleset, LINE_UPS["two"])
    class_name = CLASSES.get(ruleset)
    exact = fight_odds(
        book.ruleset, HERO["SKILL"], HERO["STAMINA"], _line_up(book, fight), luck=HERO["LUCK"],
        mode="together", target=target, class_name=class_name,
    )  # fmt: skip
    _within_3_se(exact.win_probability, _simulated(book, fight, target, class_name))
    assert sum(exact.end_states.values()) == pytest.approx(1.0)
    assert all(h > 0 for h, _ in exact.end_states)


def test_the_best_target_is_a_maximum_and_agrees_with_the_real_fight(tmp_path):
    book, fight = _fight(tmp_path, "df-classic", LINE_UPS["three"])
    line_up = _line_up(book, fight)
    order = fight_odds(book.ruleset, 9, 12, line_up, mode="together", target="order")
    best = fight_odds(book.ruleset, 9, 12, line_up, mode="together", target="best")
    assert best.win_probability >= order.win_probability - 1e-12
    _within_3_se(best.win_probability, _simulated(book, fight, "best"))


def test_one_enemy_at_once_is_the_plain_fight_and_best_luck_a_maximum():
    ruleset = load_ruleset("df-classic")
    for policy in ("none", "best"):
        plain = fight_odds(ruleset, 9, 8, [(8, 5)], luck=5, luck_policy=policy)
        group = fight_odds(ruleset, 9, 8, [(8, 5)], luck=5, luck_policy=policy, mode="together")
        assert group.win_probability == pytest.approx(plain.win_probability, abs=1e-12)
        if policy == "none":  # (with Luck, choices of equal value may differ)
            assert group.end_states == pytest.approx(plain.end_states)
    none = fight_odds(ruleset, 9, 6, [(8, 2), (7, 2)], luck=4, mode="together")
    best = fight_odds(ruleset, 9, 6, [(8, 2), (7, 2)], luck=4, luck_policy="best", mode="together")
    assert best.win_probability >= none.win_probability
    assert best.win_probability <= 1.0


def test_too_many_states_are_refused_before_anything_is_allocated():
    ruleset = load_ruleset("df-classic")
    with pytest.raises(OddsTooLarge) as error:
        fight_odds(ruleset, 9, 20, [(8, 300), (8, 300)], mode="together")
    assert "enemies at once" in str(error.value.message)


def test_the_validator_reports_exact_odds_for_a_fight_at_once(tmp_path):
    from dedale.validator.fights import fight_reports
    from dedale.validator.graph import build_graph

    book, _fight_ = _fight(tmp_path, "df24", "> enemy IMP SKILL 5 STAMINA 2\n" * 2)
    (report,) = fight_reports(build_graph(book), book, seconds=None)
    plain = {odds.hero: odds for odds in report.odds if odds.luck == "none"}
    assert plain and all(not odds.estimate for odds in plain.values())  # exact without Luck
    for odds in report.odds:  # best Luck: exact too (the array table), never below no Luck
        if odds.luck == "best":
            assert not odds.estimate
            assert odds.win >= plain[odds.hero].win
    assert report.estimated_because is None  # (I115 only when nothing is exact)


def test_a_fight_at_once_with_too_many_states_is_estimated_and_says_why(tmp_path):
    from dedale.validator import validate_path

    enemies = "> enemy TROLL SKILL 8 STAMINA 90\n" * 3
    path = tmp_path / "book.dd"
    path.write_text(HEADER.format(ruleset="df-classic", enemies=enemies), encoding="utf-8")
    codes = [f.code for f in validate_path(path, runs=0).findings]
    assert "I115" in codes


def test_dedale_odds_takes_enemies_at_once_and_refuses_a_missing_class(capsys):
    import json

    from dedale.cli import main

    args = ["odds", "--lang", "en", "--rules", "df24", "--hero", "9", "14", "--luck", "8"]
    args += ["--enemy", "8", "5", "--enemy", "7", "4", "--json"]
    for mode in ("order", "best"):
        assert main([*args, "--mode", mode]) == 0
        shown = json.loads(capsys.readouterr().out)
        exact = fight_odds(
            load_ruleset("df24"), 9, 14, [(8, 5), (7, 4)], luck=8, mode="together", target=mode
        )
        assert shown["win_probability"] == pytest.approx(exact.win_probability)
        assert sum(row["probability"] for row in shown["end_states"]) == pytest.approx(1.0)
    assert (
        main(
            ["odds", "--lang", "en", "--rules", "df48.5", "--hero", "9", "14", "--enemy", "8", "5"]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "--class" in err and "Mercenaire" in err  # the classes are named
    code = main(["odds", "--lang", "en", "--rules", "df48.5", "--class", "Mercenaire",
                 "--hero", "9", "14", "--enemy", "8", "5", "--enemy", "7", "3",
                 "--mode", "best"])  # fmt: skip
    assert code == 0


class _BestLuck:
    """Tests Luck exactly when the table does (order target): it knows the hero's roll and
    the wounds of the assault so far, from the fight's events, as the table's choices do."""

    def __init__(self, table: GroupTable, names, healths) -> None:
        self.table, self.names, self.healths = table, list(names), list(healths)
        self.faces = sorted(table.base.fight.dice.distribution())
        self.before = None
        self.roll = 0

    def event(self, event) -> None:
        from dedale.events import DiceRolled

        if isinstance(event, StatChanged) and event.who in self.names:
            self.healths[self.names.index(event.who)] = event.new
        elif isinstance(event, DiceRolled) and event.purpose == "hero_attack":
            self.roll = self.faces.index(event.total)
        elif isinstance(event, DiceRolled) and event.purpose.endswith("_attack"):
            self.before = tuple(self.healths)  # an assault starts: its state

    def answer(self, prompt):
        if isinstance(prompt, TargetPrompt):
            return 0
        params = dict(prompt.params)
        table, fight = self.table, self.table.base.fight
        h, luck, damage, j = params["hero"], params["luck"], params["damage"], params["enemy_index"]
        before = self.before
        target = next(i for i, e in enumerate(before) if e > 0)
        sides = [i for i, e in enumerate(before) if e > 0 and i != target]
        per_enemy = table.rolls[self.roll][2]
        side_p = tuple(per_enemy[i][2] for i in sides)
        state = (params["hero"], luck, before, False, True)  # (never reached: no self-loop)
        low, q = max(0, luck - table.cost), table._p_lucky(luck)

        def value(h1, l1, es, rest):
            return table._sides_value(h1, l1, es, True, rest, state)[0]

        if params["wound"] == "dealt":
            shift, base = fight.luck_wounding, fight.damage_to_enemy
            es = list(self.healths)

            def hit(d):
                return tuple(max(0, e - d) if i == target else e for i, e in enumerate(es))

            plain = value(h, luck, hit(damage), side_p)
            lucky = value(h, low, hit(max(0, damage + shift.lucky - base)), side_p)
            unlucky = value(h, low, hit(max(0, damage + shift.unlucky - base)), side_p)
            return q * lucky + (1 - q) * unlucky > plain + 1e-15
        shift, base = fight.luck_wounded, fight.damage_to_hero
        rest = side_p if j == target else side_p[sides.index(j) + 1 :]
        es = tuple(self.healths)
        plain = value(h - damage, luck, es, rest)
        lucky = value(h - max(0, damage + shift.lucky - base), low, es, rest)
        unlucky = value(h - max(0, damage + shift.unlucky - base), low, es, rest)
        return q * lucky + (1 - q) * unlucky > plain + 1e-15


@pytest.mark.parametrize(
    ("enemies", "stamina"),
    [
        ("> enemy WOLF SKILL 8 STAMINA 4\n> enemy BEAR SKILL 9 STAMINA 4", 8),
        ("> enemy WOLF SKILL 8 STAMINA 6\n> enemy BEAR SKILL 9 STAMINA 6\n"
         "> enemy LYNX SKILL 7 STAMINA 6", 16),
    ],
)  # fmt: skip
def test_best_luck_at_once_agrees_with_the_real_fight(tmp_path, enemies, stamina):
    book, fight = _fight(tmp_path, "df-classic", enemies)
    hero = {"SKILL": 9, "STAMINA": stamina, "LUCK": 6}
    line_up = _line_up(book, fight)
    table = GroupTable(book.ruleset, 9, line_up, luck_policy="best", target="order")
    exact = table.solve(stamina, 6).win_probability
    plain = fight_odds(book.ruleset, 9, stamina, line_up, luck=6, mode="together", target="order")
    assert exact > plain.win_probability  # Luck helps here
    rehearsal = FightRehearsal(book, 0)
    spec = rehearsal.spec(fight)
    rng = RandomSource(2468)
    won = 0
    for _ in range(SAMPLES):
        character = create_character(book.ruleset, RandomSource(0), None, fixed=hero)
        decider = _BestLuck(table, [e.name for e in fight.enemies], [h for _, h, _ in line_up])
        result = drive(run_fight(book.ruleset, character, rng, spec), decider, decider.event)
        rng.log.clear()
        won += result.outcome == "won"
    _within_3_se(exact, won / SAMPLES)


def test_the_fight_table_names_a_group_as_the_book_writes_it(tmp_path, capsys):
    from dedale.cli import main
    from dedale.validator.fights import enemy_names

    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: Chats\nlanguage: fr\nruleset: df-classic\nstart: 1\n---\n§ 1\n"
        "> combat ensemble\n> ennemis les trois CHATS SAUVAGES HABILETÉ 5 ENDURANCE 3 chacun\n"
        "> ennemi LOUP HABILETÉ 6 ENDURANCE 4\n> victoire -> 2\n§ 2\n> victoire\n",
        encoding="utf-8",
    )
    book = load_book(path)
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    assert [e.name for e in fight.enemies][:2] == ["CHAT SAUVAGE 1", "CHAT SAUVAGE 2"]
    assert enemy_names(fight) == "3 CHATS SAUVAGES, LOUP"
    main(["validate", str(path), "--runs", "0"])
    out = capsys.readouterr().out
    assert "3 CHATS SAUVAGES" in out and "CHAT SAUVAGE 1" not in out
