"""Rules under an enemy (issue 13.2): where each line attaches, and malformed uses as load
errors at their line, with a hint."""

from __future__ import annotations

from dedale import ast
from dedale.validator import validate_path

from .play_helpers import load_errors, load_text, write_book


def head(lang: str = "en") -> str:
    counters = (
        "rules:\n  counters:\n    bites: {names: {en: Bites, fr: Morsures}, aliases: [bites]}\n"
    )
    return f"---\ntitle: t\nruleset: df-classic\nlanguage: {lang}\n{counters}---\n"


def _fight(book) -> ast.Fight:
    return next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))


def test_each_rule_goes_to_the_enemy_above_it(tmp_path):
    text = head() + (
        "§ 1\n> fight\n> enemy GUARD SKILL 7 STAMINA 5\n> it deals 1\n"
        "> enemy SERGEANT SKILL 8 STAMINA 6\n> it takes half\n"
        "> end the fight when bites >= 2 -> 2\n> win -> 2\n§ 2\n> victory\n"
    )
    rules = _fight(load_text(tmp_path, text)).rules
    assert [(r.kind, r.enemy) for r in rules] == [("deals", 0), ("takes", 1), ("exit", None)]
    assert rules[1].share == "half"


def test_a_misspelt_enemy_stat_in_an_event_is_located(tmp_path):
    text = head() + "§ 1\n> fight RAT SKILL 5 STAMINA 4\n> on a double: its SKILLL -2\n"
    (error,) = load_errors(tmp_path, text)
    assert error.message == "unknown stat `SKILLL`" and error.hint == "did you mean `SKILL`?"
    assert (error.span.line, error.span.column) == (11, 16)


def test_a_rule_without_a_fight_is_located(tmp_path):
    (error,) = load_errors(tmp_path, head("fr") + "§ 1\n> il inflige 3\n> victoire\n")
    assert "without a fight before it" in error.message
    assert error.span.line == 10 and "`> fight` / `> combat`" in error.hint


def test_an_exit_to_a_missing_paragraph_is_found_at_its_line(tmp_path):
    text = head() + "§ 1\n> fight RAT SKILL 5 STAMINA 4\n> first assault won -> 77\n> win -> 2\n"
    report = validate_path(write_book(tmp_path, text + "§ 2\n> victory\n"), runs=0)
    (found,) = [f for f in report.findings if "77" in str(f.message)]
    assert found.severity == "error" and found.span.line == 11


def test_an_event_without_effects_is_a_syntax_error_at_its_line(tmp_path):
    text = head() + "§ 1\n> fight RAT SKILL 5 STAMINA 4\n> when it wins an assault:\n"
    (error,) = load_errors(tmp_path, text)
    assert error.span.line == 11


def test_a_huge_damage_is_refused(tmp_path):
    text = head() + "§ 1\n> fight RAT SKILL 5 STAMINA 4\n> it deals 99999999999999\n"
    (error,) = load_errors(tmp_path, text)
    assert error.span.line == 11


def test_a_double_in_a_d20_fight_is_a_load_error(tmp_path):
    text = (
        "---\ntitle: t\nruleset: d20\nlanguage: en\n---\n§ 1\n"
        "> fight Bandit AC 13 attack +3 damage 1d8 HP 12\n> on a double: lose 1 HP\n"
    )
    (error,) = load_errors(tmp_path, text)
    assert error.message == "this ruleset's fights have no double to act on"
    assert error.span.line == 8


def test_its_stat_must_be_one_the_fight_reads(tmp_path):
    text = head() + "§ 1\n> fight RAT SKILL 5 STAMINA 4\n> when it wins an assault: its LUCK -1\n"
    (error,) = load_errors(tmp_path, text)
    assert error.message == "`its LUCK` changes nothing in this fight"
    assert "SKILL / STAMINA" in error.hint and error.span.line == 11


def test_against_it_raises_the_heros_attack_in_a_d20_fight(tmp_path):
    from dedale import events
    from dedale.game import Game

    def first_attack(rule: str) -> int:
        text = (
            "---\ntitle: t\nruleset: d20\nlanguage: en\nstart: 1\n---\n§ 1\n"
            f"> fight Bandit AC 13 attack +3 damage 1d8 HP 12\n{rule}> win -> 2\n§ 2\n> victory\n"
        )
        book = load_text(tmp_path, text)
        stats = [stat.id for stat in book.ruleset.stats]
        game = Game.new(book, 1, name="A", hero=tuple(12 for _ in stats), free_stats=True)
        game.rng.force([1] * 40)
        for _ in range(200):
            item = game.next()
            if isinstance(item, events.AssaultResolved):
                return item.hero_strength
            if isinstance(item, events.Prompt):
                game.answer(False)
        raise AssertionError("no assault")

    assert first_attack("> against it: attack +5\n") == first_attack("") + 5


def test_a_fight_won_in_its_first_assault_takes_the_first_assault_way(tmp_path):
    from dedale import events
    from dedale.game import Game

    text = head() + (
        "§ 1\n> fight RAT SKILL 1 STAMINA 2\n> first assault won -> 3\n> win -> 2\n"
        "§ 2\n> death\n§ 3\n> victory\n"
    )
    book = load_text(tmp_path, text)
    game = Game.new(book, 1, name="A", hero=(10, 20, 9), free_stats=True)
    game.rng.force([1, 1, 3, 4])  # the rat falls in one blow
    for _ in range(100):
        item = game.next()
        if item is None:
            break
        if isinstance(item, events.Prompt):
            game.answer(False)
    assert game.outcome == "victory"


def test_a_side_attack_in_a_fight_all_at_once_uses_its_enemys_damage(tmp_path):
    from dedale import events
    from dedale.game import Game

    text = head() + (
        "§ 1\n> fight all at once\n> enemy GUARD SKILL 5 STAMINA 2\n"
        "> enemy BRUTE SKILL 9 STAMINA 9\n> it deals 5\n> win -> 2\n§ 2\n> victory\n"
    )
    book = load_text(tmp_path, text)
    game = Game.new(book, 1, name="A", hero=(10, 20, 9), free_stats=True)
    # the guard 1+1, the hero 3+4 (wounds the guard), the brute 6+6 (21 > 17: wounds)
    game.rng.force([1, 1, 3, 4, 6, 6])
    losses = []
    for _ in range(60):
        item = game.next()
        if item is None or len(losses) == 1:
            break
        if isinstance(item, events.Prompt):
            game.answer(0 if isinstance(item, events.TargetPrompt) else False)
        elif isinstance(item, events.StatChanged) and item.who == "hero" and item.new < item.old:
            losses.append(item.old - item.new)
    assert losses == [5]


def test_assaults_won_count_from_the_first_in_a_d20_fight(tmp_path):
    from dedale import events
    from dedale.game import Game

    text = (
        "---\ntitle: t\nruleset: d20\nlanguage: en\nstart: 1\n---\n§ 1\n"
        "> fight Bandit AC 5 attack +0 damage 1d4 HP 30\n> after 1 assaults won -> 3\n"
        "> win -> 2\n§ 2\n> death\n§ 3\n> victory\n"
    )
    book = load_text(tmp_path, text)
    stats = [stat.id for stat in book.ruleset.stats]
    game = Game.new(book, 1, name="A", hero=tuple(12 for _ in stats), free_stats=True)
    game.rng.force([15, 2, 1])  # the hero hits (15 against AC 5) for 2; the bandit misses
    for _ in range(200):
        item = game.next()
        if item is None:
            break
        if isinstance(item, events.Prompt):
            game.answer(False)
    assert game.outcome == "victory"
    assert [e.paragraph for e in game.state.history] == [1, 3]


def test_an_event_that_lowers_the_heros_skill_acts_on_the_next_assault(tmp_path):
    from dedale import events
    from dedale.game import Game

    text = head() + (
        "§ 1\n> fight WITCH SKILL 5 STAMINA 9\n> when it wins an assault: lose 2 SKILL\n"
        "> win -> 2\n§ 2\n> victory\n"
    )
    book = load_text(tmp_path, text)
    game = Game.new(book, 1, name="A", hero=(10, 20, 9), free_stats=True)
    game.rng.force([6, 6, 1, 1, 1, 1, 3, 4])  # she wins, then the hero rolls 7
    strengths = []
    for _ in range(100):
        item = game.next()
        if item is None or len(strengths) == 2:
            break
        if isinstance(item, events.Prompt):
            game.answer(False)
        elif isinstance(item, events.AssaultResolved):
            strengths.append(item.hero_strength)
    assert strengths == [12, 15]  # 10 + 2, then 8 + 7
