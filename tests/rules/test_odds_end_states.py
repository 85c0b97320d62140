"""The joint (STAMINA, LUCK) a won fight passes on agrees with its two marginals."""

import pytest
from dedale.rules import load_ruleset
from dedale.rules.odds import fight_odds


@pytest.mark.parametrize("policy", ["none", "best"])
def test_end_states_sum_to_one_and_match_the_marginals(policy: str) -> None:
    odds = fight_odds(
        load_ruleset("df-classic"), 9, 14, [(8, 8), (7, 6)], luck=8, luck_policy=policy
    )
    assert sum(odds.end_states.values()) == pytest.approx(1.0)
    stamina: dict[int, float] = {}
    luck: dict[int, float] = {}
    for (h, lk), p in odds.end_states.items():
        stamina[h] = stamina.get(h, 0.0) + p
        luck[lk] = luck.get(lk, 0.0) + p
    assert stamina == pytest.approx(odds.stamina_distribution)
    assert luck == pytest.approx(odds.luck_distribution)


def test_end_states_without_luck_carry_luck_zero() -> None:
    odds = fight_odds(load_ruleset("df-classic"), 10, 20, [(8, 10)])
    assert {lk for _, lk in odds.end_states} == {0}
    assert sum(odds.end_states.values()) == pytest.approx(1.0)
