"""The base of every modal of the player: it answers once, then ignores all input.

Keys arrive faster than screens close: pasting ``yny`` into a yes/no question used to
dismiss the same modal three times (``ScreenStackError: Can't pop screen``) and send stale
answers to the next questions. :meth:`OnceModal.answer` is the only way a modal closes; the
first call wins, later ones (and keys that reach the modal after it) do nothing.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.events import Key
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class OnceModal(ModalScreen[ResultType], Generic[ResultType]):
    """A modal screen that closes (and reports its result) exactly once."""

    answered: bool = False

    def answer(self, result: ResultType | None = None) -> None:
        """Close with ``result`` unless already closed or no longer the screen on top."""
        if self.answered or not self.is_attached or self.app.screen is not self:
            return
        self.answered = True
        self.dismiss(result)

    async def action_dismiss(self, result: ResultType | None = None) -> None:
        """Bindings to ``dismiss`` (escape) go through :meth:`answer` too."""
        self.answer(result)

    def _on_key(self, event: Key) -> None:
        if self.answered:  # typed after the answer: meant for no one
            event.stop()
            event.prevent_default()
