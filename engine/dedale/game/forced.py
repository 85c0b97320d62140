"""The guard against forced loops: paragraphs that send the reader on with nothing to decide.

A book whose jumps close a loop with no prompt on the way (``§ 1`` + ``> go to 1``; 1 → 2 → 1;
a way out that needs a codeword never set) would run forever. The runner keeps the
paragraphs entered since the last decision (:class:`ForcedRun`) and raises a
:class:`ForcedLoopError`, located at the paragraph that closes the loop: as soon as a
paragraph comes round again with nothing changed (no die thrown, the same state), or
when a loop that throws dice has gone past :data:`FORCED_LIMIT` paragraphs.
"""

from __future__ import annotations

from typing import Any

from dedale.errors import GameError
from dedale.i18n import tr

FORCED_LIMIT = 1000
"""How many paragraphs may follow one another without a decision (a loop whose way out is
left to the dice, one chance in six a turn, gets out long before)."""

HISTORY_LIMIT = 100_000
"""The most paragraphs the history keeps; the oldest are forgotten past it (undo reaches
back that far)."""

_SHOWN = 12  # paragraphs of a cycle quoted in the message (head and tail beyond)


class ForcedLoopError(GameError):
    """The book sends the reader round a loop of paragraphs with nothing to decide.

    ``cycle`` holds the loop's paragraphs, the first one repeated at the end."""

    def __init__(self, message: str, span, hint: str, cycle: tuple[int, ...]):
        super().__init__(message, span, hint)
        self.cycle = cycle


class ForcedRun:
    """The paragraphs entered since the reader last decided something.

    ``seen`` maps each paragraph of the run to None (entered once) or, once entered again,
    to the dice thrown so far and the game's state then: when a paragraph comes round a
    third time with no die thrown and the same state as the time before, nothing can ever
    change and the loop is reported at once; a loop that throws dice may still get out
    and is only stopped at :data:`FORCED_LIMIT`."""

    __slots__ = ("mark", "numbers", "seen")

    def __init__(self) -> None:
        self.mark = -1
        self.numbers: list[int] = []
        self.seen: dict[int, tuple[int, dict[str, Any]] | None] = {}

    def enter(self, number: int, decisions: int, rolls: int, state, paragraphs) -> None:
        """Record entering ``number`` with ``decisions`` taken and ``rolls`` faces thrown
        so far; raise :class:`ForcedLoopError` on a certain loop or once
        :data:`FORCED_LIMIT` paragraphs came without a decision."""
        if decisions != self.mark:
            self.mark = decisions
            self.numbers.clear()
            self.seen.clear()
            self.seen[number] = None
        elif len(self.numbers) >= FORCED_LIMIT:
            raise loop_error(self.numbers, number, paragraphs)
        elif number in self.seen:
            self.again(number, rolls, state, paragraphs)
        else:
            self.seen[number] = None
        self.numbers.append(number)

    def again(self, number: int, rolls: int, state, paragraphs) -> None:
        """``number`` entered again in the run: raise if nothing changed since last time."""
        now = (rolls, fingerprint(state))
        if self.seen[number] == now:
            raise loop_error(self.numbers, number, paragraphs, certain=True)
        self.seen[number] = now


def fingerprint(state) -> dict[str, Any]:
    """What of the game's state can change what a paragraph does (not the history, and
    of the visits only which paragraphs were visited: conditions ask no more)."""
    data = state.to_dict(history=False)
    data["visited"] = sorted(data.get("visited", ()))
    return data


def loop_error(
    run: list[int], number: int, paragraphs, *, certain: bool = False
) -> ForcedLoopError:
    """The error for a run of paragraphs without a decision, about to enter ``number``
    (``certain``: nothing changed in a round, rather than the dice never leading out)."""
    closing = run[-1] if run else number
    paragraph = paragraphs.get(closing)
    span = paragraph.span if paragraph is not None else None
    if certain:
        hint = tr(
            "give the reader a choice somewhere on the way, or check the condition meant to "
            "lead out of the loop (a codeword that is never set keeps it closed)"
        )
    else:
        hint = tr(
            "the dice did not lead out in {count} paragraphs: give the reader a choice on "
            "the way, or a way out the dice can reach",
            count=len(run),
        )
    try:
        start = len(run) - 1 - run[::-1].index(number)
    except ValueError:  # no paragraph repeated: a very long chain of forced jumps
        hint = tr(
            "Dédale reads at most {count} paragraphs in a row with nothing to decide: give "
            "the reader a choice on the way",
            count=FORCED_LIMIT,
        )
        message = tr(
            "{count} paragraphs in a row with nothing to decide ({trail})",
            count=len(run),
            trail=_arrows(run[-_SHOWN:], cut_head=len(run) > _SHOWN),
        )
        return ForcedLoopError(message, span, hint, tuple(run[-_SHOWN:]))
    cycle = (*run[start:], number)
    message = tr("paragraphs {cycle} loop with nothing to decide", cycle=_shorten(cycle))
    return ForcedLoopError(message, span, hint, cycle)


def _shorten(cycle: tuple[int, ...]) -> str:
    if len(cycle) <= _SHOWN:
        return _arrows(cycle)
    half = _SHOWN // 2
    return f"{_arrows(cycle[:half])} → … → {_arrows(cycle[-half:])}"


def _arrows(numbers, cut_head: bool = False) -> str:
    text = " → ".join(str(n) for n in numbers)
    return f"… → {text}" if cut_head else text


def trim_history(history: list) -> None:
    """Forget the oldest history entries past :data:`HISTORY_LIMIT` (a tenth at a time)."""
    if len(history) > HISTORY_LIMIT:
        del history[: HISTORY_LIMIT // 10]
