"""A fight with a defeat exit is not deadly: losing it is a way out alive (docs/language.md
§ 13), so W030/W031 stay silent for it; the same fight without the exit gets them."""

from __future__ import annotations

from dedale.language import load_book
from dedale.validator import validate_loaded

ARENA = (
    "---\ntitle: t\nlanguage: fr\n---\n§ 1\nLe champion de l'arène vous attend.\n"
    "> combat CHAMPION HABILETÉ {skill} ENDURANCE 30\n> défaite -> 3\n> victoire -> 2\n\n"
    "§ 2\n> victoire\n\n§ 3\nVous vous réveillez dans une cellule.\n-> 2 Vous évader\n"
)


def codes(tmp_path, text: str) -> list[str]:
    path = tmp_path / "livre.dd"
    path.write_text(text, "utf-8")
    report = validate_loaded(load_book(path), str(path), runs=200)
    return [f.code for f in report.findings]


def test_a_fight_with_a_defeat_exit_is_not_deadly(tmp_path):
    assert not {"W030", "W031"} & set(codes(tmp_path, ARENA.format(skill=12)))
    assert not {"W030", "W031"} & set(codes(tmp_path, ARENA.format(skill=30)))
    deadly = ARENA.replace("> défaite -> 3\n", "")
    assert "W030" in codes(tmp_path, deadly.format(skill=12))
    assert "W031" in codes(tmp_path, deadly.format(skill=30))
