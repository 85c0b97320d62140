"""The writer's text reads back as the same plan (hypothesis), in both languages."""

from __future__ import annotations

import dataclasses

from dedale.plans import parse_plan, write_plan
from dedale.plans.model import (
    Answer,
    At,
    Choose,
    Dice,
    Drop,
    Eat,
    Ending,
    Expect,
    God,
    Held,
    Jump,
    Plan,
    SetValue,
    Value,
)
from hypothesis import given, settings
from hypothesis import strategies as st

# names as books write them: letters, spaces, apostrophes, digits, punctuation; no line
# break and not both kinds of quotes in one name
_CHARS = st.characters(
    codec="utf-8",
    categories=("L", "N", "P", "Zs", "S"),
    exclude_characters='\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"«»',
)
names = st.text(_CHARS, min_size=1, max_size=20).map(str.strip).filter(bool)
stat_names = st.from_regex(r"[A-Z][A-Za-zÉÈé ]{0,10}[A-Za-z]", fullmatch=True)
numbers = st.integers(-(10**9), 10**9)

steps = st.one_of(
    st.builds(Dice, st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple)),
    st.builds(At, st.integers(0, 10**6)),
    st.builds(Choose, target=st.integers(0, 10**6)),
    st.builds(Choose, number=st.integers(1, 99)),
    st.builds(Choose, text=names),
    st.builds(Answer, st.booleans()),
    st.builds(Answer, numbers),
    st.builds(Answer, names),
    st.builds(Eat),
    st.builds(Drop, names),
    st.builds(Jump, st.integers(0, 10**6)),
    st.builds(SetValue, names, numbers),
    st.builds(God, st.booleans()),
    st.builds(
        Expect,
        st.lists(
            st.one_of(
                st.builds(Value, names, st.sampled_from(["=", ">=", "<=", ">", "<"]), numbers),
                st.builds(Held, names, st.booleans()),
            ),
            min_size=1,
            max_size=4,
        ).map(tuple),
    ),
)
plans = st.builds(
    Plan,
    hero=st.lists(st.tuples(stat_names, st.integers(0, 99)), max_size=4).map(tuple),
    steps=st.tuples(
        st.lists(steps, max_size=12),
        st.sampled_from([(), (Ending("victory"),), (Ending("death"),), (Ending("stop"),)]),
    ).map(lambda parts: tuple(parts[0]) + parts[1]),
    language=st.sampled_from(["en", "fr"]),
    name=st.none() | names,
    class_name=st.none() | names,
    gender=st.sampled_from([None, "f", "m"]),
    seed=st.none() | st.integers(0, 10**9),
    otherwise=st.sampled_from([None, True, False]),
)


@settings(max_examples=300, deadline=None)
@given(plans)
def test_round_trip(plan):
    text = write_plan(plan, comment="a plan\nwritten by a test")
    again = parse_plan(text, "written.plan")
    assert dataclasses.replace(again, language=plan.language) == plan
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    if any(line != "stop" for line in lines):  # `stop` is a word of both languages
        assert again.language == plan.language


def test_the_writer_speaks_the_plan_language():
    plan = Plan(
        hero=(("HABILETÉ", 10),),
        steps=(At(1), Choose(target=3), Expect((Held("Corde", False),)), Ending("victory")),
        language="fr",
        otherwise=False,
    )
    assert write_plan(plan) == (
        "héros : HABILETÉ 10\nsinon : non\nau 1 / choisir 3\nattendu pas Corde\nfin : victoire\n"
    )
