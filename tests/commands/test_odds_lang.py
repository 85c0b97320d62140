"""``dedale odds --lang fr|en``: the text output and the refusals in French (the default,
as ``dedale new``) or in English, numbers written the language's way; the JSON is the
same in both."""

from __future__ import annotations

import json

import pytest
from dedale.cli import main
from dedale.rules import load_ruleset
from dedale.rules.odds import fight_odds

NBSP, NNBSP = "\u00a0", "\u202f"
FIGHT = ["--hero", "9", "14", "--luck", "8", "--luck-policy", "best", "--enemy", "8", "5"]


def _odds(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["odds", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _expected(lang: str) -> list[str]:
    """The text, built here from the exact odds of :func:`fight_odds` (the figures are the
    command's own: this test is about the words and the way numbers are written)."""
    result = fight_odds(load_ruleset("df-classic"), 9, 14, [(8, 5)], luck=8, luck_policy="best")

    def pct(p: float, width: int = 0) -> str:
        text = f"{p * 100:{width}.2f}"
        return text.replace(".", ",") + NNBSP + "%" if lang == "fr" else text + " %"

    def rows(distribution: dict[int, float]) -> list[str]:
        return [f"  {value:>3}  {pct(p, 6)}" for value, p in distribution.items()]

    assaults = f"{result.expected_assaults:.2f}"
    if lang == "fr":
        return [
            f"Règles{NBSP}: df-classic   Usage de la Chance{NBSP}: best   Mode{NBSP}: sequence",
            f"Probabilité de victoire{NBSP}: {pct(result.win_probability)}",
            f"Assauts attendus{NBSP}: {assaults.replace('.', ',')}",
            f"ENDURANCE après une victoire{NBSP}:",
            *rows(result.stamina_distribution),
            f"CHANCE après une victoire{NBSP}:",
            *rows(result.luck_distribution),
        ]
    return [
        "Ruleset: df-classic   Luck policy: best   Mode: sequence",
        f"Win probability: {pct(result.win_probability)}",
        f"Expected assaults: {assaults}",
        "STAMINA after a win:",
        *rows(result.stamina_distribution),
        "LUCK after a win:",
        *rows(result.luck_distribution),
    ]


@pytest.mark.parametrize(("lang", "given"), [("fr", ()), ("fr", ("--lang", "fr")),
                                             ("en", ("--lang", "en"))])  # fmt: skip
def test_the_text_speaks_the_language_asked(capsys, lang, given):
    code, out, _ = _odds(capsys, *given, *FIGHT)
    assert code == 0
    assert out.splitlines() == _expected(lang)


def test_a_way_out_and_allies_are_said_in_french(capsys):
    code, out, _ = _odds(capsys, "--hero", "9", "18", "--enemy", "9", "12", "--ally", "8", "10",
                         "--struck", "ally", "--survive", "3")  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == f"Alliés{NBSP}: 8 10   les ennemis frappent{NBSP}: ally"
    assert lines[3].startswith(
        f"Probabilité de sortir vivant du combat (quelle qu'en soit l'issue){NBSP}: "
    )
    assert lines[3].endswith(NNBSP + "%")


@pytest.mark.parametrize(
    ("rules", "fr", "en"),
    [
        (
            ["--rules", "d20", "--stat", "FOR=14", "--stat", "DEX=12", "--stat", "ACTION=3",
             "--stat", "HP=20", "--foe", "Garde AC 13 attack +3 damage 1d6 HP 10"],
            [f"Règles{NBSP}: d20   Mode{NBSP}: sequence", "Probabilité de victoire",
             "Assauts attendus", f"POINTS DE VIE après une victoire{NBSP}:"],
            ["Ruleset: d20   Mode: sequence", "Win probability", "Expected assaults",
             "HIT POINTS after a win:"],
        ),
        (
            ["--rules", "reliques", "--stats", "FOR=4,AGL=3,PER=3,CON=3", "--items", "épée",
             "--foe", "FOR=3,AGL=2,PER=2,CON=2,arme=2"],
            [f"Règles{NBSP}: reliques   Usage de l'héroïsme{NBSP}: none   Mode{NBSP}: sequence",
             "Probabilité de victoire", f"SANTÉ après une victoire{NBSP}:"],
            ["Ruleset: reliques   Heroism policy: none   Mode: sequence", "Win probability",
             "HEALTH after a win:"],
        ),
    ],
)  # fmt: skip
def test_d20_and_reliques_fights_in_both_languages(capsys, rules, fr, en):
    for lang, heads in (("fr", fr), ("en", en)):
        code, out, _ = _odds(capsys, "--lang", lang, *rules)
        assert code == 0
        lines = out.splitlines()
        starts = [next(line for line in lines if line.startswith(head)) for head in heads]
        assert len(starts) == len(heads)
        rows = [line for line in lines if line.startswith("  ")]
        assert rows and all(row.endswith(NNBSP + "%" if lang == "fr" else " %") for row in rows)
        assert all(("," in row) == (lang == "fr") for row in rows)


@pytest.mark.parametrize(
    ("args", "fr", "en"),
    [
        (["--hero", "10", "20"],
         "ce combat demande --hero HABILETÉ ENDURANCE et --enemy HABILETÉ ENDURANCE",
         "this fight needs --hero SKILL STAMINA and --enemy SKILL STAMINA"),
        (["--hero", "10", "20", "--enemy", "8", "10", "--as-one", "--mode", "best"],
         "--as-one contredit --mode best", "--as-one contradicts --mode best"),
        (["--rules", "df48.5", "--class", "Voleur", "--hero", "9", "20", "--enemy", "8", "8"],
         "classe inconnue", "unknown class 'Voleur'"),
        (["--rules", "nowhere", "--hero", "9", "20", "--enemy", "8", "8"],
         "jeu de règles 'nowhere' inconnu", "unknown ruleset 'nowhere'"),
    ],
)  # fmt: skip
def test_refusals_speak_the_language(capsys, args, fr, en):
    code, _, err = _odds(capsys, *args)
    assert code == 2 and fr in err and f"conseil{NBSP}:" in err
    code, _, err = _odds(capsys, "--lang", "en", *args)
    assert code == 2 and en in err and "hint:" in err


def test_the_json_is_the_same_in_both_languages(capsys):
    outputs = [_odds(capsys, "--lang", lang, *FIGHT, "--json")[1] for lang in ("fr", "en")]
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["luck_policy"] == "best"


def test_a_mistake_in_a_ruleset_file_speaks_the_language_of_the_command(
    capsys, tmp_path, monkeypatch
):
    (tmp_path / "mine.yaml").write_text(
        "extends: df-classic\nfight:\n  damage: {to_hero: deux}\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    fight = ["--rules", "mine.yaml", "--hero", "9", "20", "--enemy", "8", "8"]
    code, _, err = _odds(capsys, *fight)
    assert code == 1
    assert err.splitlines()[0] == "mine.yaml:3:21: to_hero doit être un nombre entier, pas 'deux'"
    assert err.splitlines()[-1] == f"  conseil{NBSP}: par exemple{NBSP}: 2"
    code, _, err = _odds(capsys, "--lang", "en", *fight)
    assert err.splitlines()[0] == "mine.yaml:3:21: to_hero must be a whole number, not 'deux'"
    assert err.splitlines()[-1] == "  hint: for example: 2"


def test_the_decisions_taken_are_said_in_words(capsys):
    foe = "AC 13 attack +3 damage 1d6 HP 10"
    args = ["--rules", "d20", "--stat", "FOR=14,DEX=12,ACTION=3,HP=20", "--foe", foe,
            "--foe", foe, "--mode", "best", "--escape-after", "1"]  # fmt: skip
    said = {}
    for lang in ("fr", "en"):
        code, out, _ = _odds(capsys, "--lang", lang, *args)
        assert code == 0
        said[lang] = [line for line in out.splitlines() if line.startswith(("Décisions", "Deci"))]
    assert said["fr"] == [f"Décisions prises au mieux{NBSP}: la fuite"]
    assert said["en"] == ["Decisions taken at best: the escape"]
    _, out, _ = _odds(capsys, *args, "--json")
    assert json.loads(out)["decisions"] == ["escape"]  # the JSON keeps the code
