"""The interface speaks French and English: both catalogues have the same messages."""

from __future__ import annotations

import re
from pathlib import Path

from dedale.i18n import catalogue, message

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "dedale"


def test_both_languages_have_the_same_keys():
    assert set(catalogue("fr")) == set(catalogue("en"))


def test_every_key_the_code_uses_exists():
    used = set()
    for folder in ("plain", "game"):
        for source in (ENGINE / folder).glob("*.py"):
            text = source.read_text(encoding="utf-8")
            used |= set(
                re.findall(
                    r"""(?:\bt|text|message\(self\.lang,)\(?\s*["']([a-z_]+\.[a-z_]+)["']""", text
                )
            )
    assert used, "the pattern found nothing"
    missing = {key for key in used if key not in catalogue("en")}
    assert missing == set()


def test_placeholders_are_filled():
    assert message("fr", "reason.cost", amount=5, name="Pièces d'or") == "coûte 5 Pièces d'or"
    assert message("en", "no.such.key") == "no.such.key"


def test_the_families_of_keys_built_at_run_time_exist():
    outcomes = ("success", "failure", "critical_success", "critical_failure")
    keys = [f"outcome.{o}" for o in outcomes]
    keys += [f"event.fight_{o}" for o in ("won", "lost", "escaped", "limit")]
    keys += [f"ask.{k}" for k in ("use_luck", "escape", "risk", "heroism", "dodge", "eat")]
    keys += [f"note.{n}" for n in ("armour", "escape", "instant_kill", "riposte", "side_attack")]
    keys += ["message.initiative", "plain.divergence"]
    for lang in ("fr", "en"):
        assert [k for k in keys if k not in catalogue(lang)] == []
