"""Progress of a long validation (issue 18.5): a Rich progress bar on a terminal only.

``dedale validate`` in the text format, with stdout a terminal, shows which book and which
part of the checks is running; the bar is transient (erased before the report is printed).
Nothing is drawn for the json, github and sarif formats nor when stdout is not a terminal
(CI logs, pipes, files). Rich's progress module is imported only when a bar is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from dedale.i18n import tr, translate

Tick = Callable[[str], None]
"""Called with the name (a Message) of the part of the checks that starts."""

STAGES = 7  # the calls of validate_loaded's ``progress`` per book (see checker.py)


def wants_progress(fmt: str, stream: TextIO) -> bool:
    """Whether to draw a bar: the text format on a terminal."""
    isatty = getattr(stream, "isatty", None)
    return fmt == "text" and callable(isatty) and bool(isatty())


@contextmanager
def book_progress(
    paths: list[str], fmt: str, stream: TextIO, lang: str | None = None
) -> Iterator[Callable[[str], Tick] | None]:
    """A context giving, for each book path, its ``progress`` callback (None: no bar)."""
    if not wants_progress(fmt, stream):
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(file=stream)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[stage]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        label = tr("checking").translate(lang)
        task = bar.add_task(label, total=len(paths) * STAGES, stage="")

        def for_book(path: str) -> Tick:
            def tick(stage: str) -> None:
                shown = translate(stage, lang)
                bar.update(task, advance=1, description=f"{label} {path}", stage=shown)

            return tick

        yield for_book
