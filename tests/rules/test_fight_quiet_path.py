"""The quiet plain-fight loop of ``opposed_fight`` (``emit=False``, nothing rare) against
the general loop (taken with ``emit=True``): the same prompts, dice, result and hero."""

from __future__ import annotations

from dedale.events import Prompt, YesNoPrompt
from dedale.rules import (
    EnemySpec,
    FightSpec,
    FunctionDecider,
    RandomSource,
    ScriptedDice,
    drive,
    run_fight,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import ff_hero

CLASSES = {"df-classic": [None], "df24": [None], "df48.5": [None, "Baroudeur", "Mercenaire"]}


def play(ruleset, hero, rng, spec, emit, answers):
    """Run a fight; the deciders answer Luck prompts from ``answers`` (cycled)."""
    asked: list[Prompt] = []

    def answer(prompt):
        asked.append(prompt)
        if isinstance(prompt, YesNoPrompt):
            return answers[len(asked) % len(answers)]
        return 0

    result = drive(run_fight(ruleset, hero, rng, spec, emit=emit), FunctionDecider(answer))
    return result, asked


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    name=st.sampled_from(sorted(CLASSES)),
    pick=st.integers(0, 2),
    hero=st.tuples(st.integers(4, 12), st.integers(0, 24), st.integers(0, 12)),
    enemies=st.lists(st.tuples(st.integers(4, 12), st.integers(0, 14)), min_size=1, max_size=3),
    mode=st.sampled_from(["single", "sequence", "as_one"]),
    answers=st.lists(st.booleans(), min_size=1, max_size=5),
    bonus=st.integers(-2, 2),
)
def test_quiet_loop_plays_exactly_like_the_general_loop(
    rulesets, seed, name, pick, hero, enemies, mode, answers, bonus
):
    ruleset = rulesets[name]
    klass = CLASSES[name][pick % len(CLASSES[name])]
    spec = FightSpec(
        tuple(EnemySpec(f"E{i}", {"SKILL": s, "STAMINA": h}) for i, (s, h) in enumerate(enemies)),
        mode=mode,
        attack_bonus=bonus,
    )
    quiet_hero, loud_hero = ff_hero(*hero, class_name=klass), ff_hero(*hero, class_name=klass)
    quiet_rng, loud_rng = RandomSource(seed), RandomSource(seed)
    quiet = play(ruleset, quiet_hero, quiet_rng, spec, False, answers)
    loud = play(ruleset, loud_hero, loud_rng, spec, True, answers)
    assert quiet == loud
    assert quiet_rng.log == loud_rng.log
    assert quiet_hero == loud_hero
    # Forced faces (playtests) take the quiet loop's other dice branch, scripted dice the
    # general loop: the same game again from the roll log.
    forced = RandomSource(seed + 1)
    forced.force(quiet_rng.log)
    for replay_rng in (forced, ScriptedDice(quiet_rng.log)):
        replay_hero = ff_hero(*hero, class_name=klass)
        replayed = play(ruleset, replay_hero, replay_rng, spec, False, answers)
        assert replayed == quiet and replay_hero == quiet_hero
        assert replay_rng.log == quiet_rng.log and not replay_rng._forced
