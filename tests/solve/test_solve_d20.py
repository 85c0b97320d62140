"""dedale solve on a d20 book (solve/fights_d20): the best-play chance against a chain of
the exact d20 fight odds computed here (the HP each fight leaves carried to the next, an
assault limit counted as a way on, the better door taken): matched to 1e-9."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules import Character, EnemySpec, FightSpec, load_ruleset
from dedale.rules.odds_d20 import d20_odds
from dedale.solve import solve_book

BOOK = Path(__file__).parents[1] / "books_extra" / "solve" / "d20-doors"
RULES = load_ruleset("d20")
HERO = (14, 12, 10, 10, 10, 10, 2, 12)  # FOR DEX CON INT SAG CHA ACTION HP


def _hero(hp: int) -> Character:
    stats = dict(zip((s.id for s in RULES.stats), HERO, strict=True))
    initial = dict(stats)
    stats["HP"] = hp
    return Character(stats=stats, initial=initial, items={"sword": 1})


def _enemy(name, ac, attack, damage, hp, rd=0) -> EnemySpec:
    return EnemySpec(name, {"AC": ac, "attack": attack, "HP": hp, "RD": rd}, weapon=damage)


def _ends(hp: int, spec: FightSpec) -> dict[int, float]:
    """{HP after leaving alive: unconditional probability}."""
    found: dict[int, float] = {}
    for (_, left), p in d20_odds(RULES, _hero(hp), spec).ends.items():
        found[left] = found.get(left, 0.0) + p
    return found


def _chain(first: FightSpec, second: FightSpec) -> float:
    return sum(p * sum(_ends(hp, second).values()) for hp, p in _ends(HERO[-1], first).items())


def test_a_d20_book_is_solved_exactly():
    left = _chain(
        FightSpec((_enemy("GUARD", 13, 3, "1d6", 8),)),
        FightSpec((_enemy("SERGEANT", 14, 4, "1d8", 9, rd=1),)),
    )
    right = _chain(
        FightSpec((_enemy("HOUND", 12, 2, "1d4", 5), _enemy("HOUND", 11, 1, "1d4", 4)),
                  mode="together"),
        FightSpec((_enemy("KENNEL-MASTER", 13, 3, "1d6", 20),), assault_limit=4),
    )  # fmt: skip
    assert abs(left - right) > 0.01  # the door matters
    result = solve_book(load_book(BOOK), HERO, luck_policy="none")
    assert result.complete
    assert result.win_probability == pytest.approx(max(left, right), abs=1e-9)


def test_an_escape_in_a_d20_fight_is_a_located_refusal(tmp_path):
    from dedale.solve.model import SolveLimit

    text = (BOOK / "book.dd").read_text(encoding="utf-8")
    text = text.replace("> win -> 4", "> win -> 4\n> escape -> 6 after 2")
    (tmp_path / "book.dd").write_text(text, encoding="utf-8")
    (tmp_path / "book.yaml").write_text((BOOK / "book.yaml").read_text(), encoding="utf-8")
    with pytest.raises(SolveLimit) as caught:
        solve_book(load_book(tmp_path), HERO, luck_policy="none")
    assert caught.value.span.line == 10  # the guard's `> fight`
    assert "escape" in caught.value.message and caught.value.hint


def test_without_a_hero_the_landmarks_roll_their_derived_stats():
    """d20's HP reads CON (``8+CON``): its 16^6 heroes are too many to list, so the landmark
    heroes take each 3d6 stat at its lowest, median and highest value and HP from it."""
    from dedale.solve.heroes import landmarks

    heroes, distribution = landmarks(RULES, None)
    assert distribution is None  # the average is not computed (and the report says so)
    ids = [s.id for s in RULES.stats]
    by_level = {hero.label: dict(zip(ids, hero.values, strict=True)) for hero in heroes}
    assert [by_level[level]["CON"] for level in ("weakest", "median", "strongest")] == [3, 10, 18]
    assert all(stats["HP"] == 8 + stats["CON"] for stats in by_level.values())
    assert by_level["median"]["ACTION"] == 2
