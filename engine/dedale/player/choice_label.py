"""How a choice reads in the player: its text, and where it leads when the player prints the
paragraph numbers as a printed book does ("Take the ladder (turn to 7)", issue 16.3)."""

from __future__ import annotations

from dedale.events import ChoiceOption
from dedale.player.texts import Texts


def choice_label(option: ChoiceOption, texts: Texts, show_targets: bool) -> str:
    """The label of ``option``; a computed or unknown target is never printed, and a choice
    written with no text reads "Turn to 12" (or "Go on" when its target is not to be told)."""
    target = None if option.computed else option.target
    if not option.text.strip():
        return texts("app.go_on") if target is None else texts("app.turn_to", number=target)
    if not show_targets or target is None:
        return option.text
    return texts("app.choice_turn_to", text=option.text, number=target)
