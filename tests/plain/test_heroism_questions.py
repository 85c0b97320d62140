"""A heroism point is offered in the words of its use, in both players: cancelling a loss
is not "reroll a die" (the reliques fight engineer found the Courage offer worded as a
reroll)."""

from __future__ import annotations

import pytest
from dedale.events import YesNoPrompt
from dedale.plain.render import Renderer
from dedale.player.narration import prompt_question
from dedale.player.texts import Texts
from dedale.rules import load_ruleset

CANCEL = YesNoPrompt(
    kind="heroism", params=(("use", "ignore_loss"), ("counter", "courage"), ("damage", 3))
)
REROLL = YesNoPrompt(kind="heroism", params=(("use", "reroll"), ("counter", "chance")))


@pytest.mark.parametrize(
    ("lang", "cancel", "reroll"),
    [
        ("en", "cancel this loss of 3?", "reroll a die?"),
        ("fr", "annuler cette perte de 3\u202f?", "relancer un dé\u202f?"),
    ],
)
def test_each_use_of_a_heroism_point_is_asked_as_itself(lang, cancel, reroll):
    render = Renderer(load_ruleset("reliques"), lang)
    assert render.prompt(CANCEL)[0].replace("\u00a0", " ").split(" (")[0].endswith(cancel)
    assert render.prompt(REROLL)[0].split(" (")[0].endswith(reroll)
    texts = Texts(lang)
    assert prompt_question(CANCEL, texts).endswith(cancel)
    assert prompt_question(REROLL, texts).endswith(reroll)
