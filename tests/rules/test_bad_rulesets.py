"""Each kind of mistake in a ruleset YAML gives file:line:column and a hint (snapshots)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.errors import RulesetError
from dedale.rules import load_ruleset

CASES = Path(__file__).parent / "bad_rulesets"


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.glob("*.yaml")))
def test_bad_ruleset(case, snapshot):
    with pytest.raises(RulesetError) as info:
        load_ruleset(case, base_dir=CASES)
    error = info.value
    assert error.span is not None and error.span.file == case
    assert error.hint
    assert error.render() == snapshot
