"""Untrusted plans: any text gives a Plan or a located PlanError, and any plan that parses
plays to findings, never to a traceback or a hang."""

from __future__ import annotations

from pathlib import Path

from dedale.language import load_book
from dedale.plans import PlanError, parse_plan
from dedale.plans.runner import run_plan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SALT_ROAD = Path(__file__).resolve().parents[1] / "books_extra" / "plans"
BOOK = load_book(SALT_ROAD)
WORDS = [
    "hero:", "héros :", "name:", "class: Wizard", "seed: 3", "otherwise: yes", "sinon : non",
    "dice:", "at", "au", "choose", "choisir", "answer", "répondre", "eat", "manger", "drop",
    "jeter", "expect", "attendu", "ending:", "fin :", "stop", "arrêt", "not", "pas", "yes",
    "no", "oui", "SKILL", "STAMINA", "LUCK", "Lantern", "gold", "meals", "#1", "#0", "§",
    "/", ",", '"', "«", "»", ">=", "<", "0", "1", "2", "3", "5", "6", "14", "99", "-1",
    "10000000000", "\n", " ", "\t", "\u00a0", "//", "#", "\x00", "\ufeff",
]  # fmt: skip
texts = st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join) | st.text(max_size=200)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_any_text_parses_or_fails_located(text):
    try:
        plan = parse_plan(text, "fuzz.plan")
    except PlanError as error:
        assert error.span is not None and error.span.file == "fuzz.plan"
        assert error.span.line >= 1 and error.span.column >= 1
        error.render()
        return
    result = run_plan(BOOK, plan)
    for finding in result.findings:
        assert finding.code.startswith("P")
        finding.message.translate("fr")
