"""The text report of a book with many fights lists only the weak ones and sums the others
up; ``--all-fights`` lists every fight (issue 14.11)."""

from __future__ import annotations

import io

from dedale.validator import cli

YAML = "title: Many fights\nlanguage: en\nruleset: df-classic\nstart: 1\n"


def _book(tmp_path, fights: int):
    parts = []
    for number in range(1, fights + 1):
        enemy = "TROLL SKILL 12 STAMINA 30" if number == 4 else f"RAT{number} SKILL 4 STAMINA 3"
        parts.append(f"§ {number}\nA foe.\n> fight\n> enemy {enemy}\n> win -> {number + 1}")
    parts.append(f"§ {fights + 1}\n> victory")
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "book.yaml").write_text(YAML, encoding="utf-8")
    (folder / "book.dd").write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return folder


def _text(monkeypatch, *args: str) -> str:
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    cli.main(["--runs", "0", *args])
    return out.getvalue()


def test_many_fights_show_the_weak_ones_and_a_summary(tmp_path, monkeypatch):
    folder = _book(tmp_path, 12)
    text = _text(monkeypatch, str(folder))
    assert "W030" in text and "TROLL" in text
    assert "RAT1 " not in text  # the strong fights are summed up, not listed
    assert "12 fights, 1 weak one listed above; --all-fights lists every fight" in text
    assert "lowest chance of the median hero (best Luck):" in text and "at § 4" in text
    every = _text(monkeypatch, "--all-fights", str(folder))
    assert all(f"RAT{n} " in every for n in (1, 2, 3, 5, 12)) and "listed above" not in every


def test_a_few_fights_are_all_listed(tmp_path, monkeypatch):
    text = _text(monkeypatch, str(_book(tmp_path, 5)))
    assert all(f"RAT{n} " in text for n in (1, 2, 3, 5)) and "listed above" not in text


def test_the_summary_speaks_french(tmp_path, monkeypatch):
    text = _text(monkeypatch, "--lang", "fr", str(_book(tmp_path, 12)))
    assert "12 combats, dont 1 difficile listé ci-dessus\u202f; --all-fights les liste tous" in text
