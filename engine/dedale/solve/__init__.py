"""Best-play victory probability of a whole book (``dedale solve``, see docs/solver.md).

The solver drives the interpreter itself (:class:`dedale.game.Game`): each state of the
book is a snapshot taken just before a paragraph is entered; the paragraph is re-played from
that snapshot with every die face (:mod:`dedale.solve.dice`), every fight outcome of the
exact fight DP (:mod:`dedale.solve.fights`) and every answer to its prompts
(:mod:`dedale.solve.explore`), which gives a small expectimax tree whose leaves are the
endings and the next snapshots. :mod:`dedale.solve.graph` builds the graph of snapshots and
solves it (one topological pass when acyclic, else value iteration to a stated tolerance).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale.solve.model import SolveLimit

if TYPE_CHECKING:
    from dedale.solve.graph import SolveResult, solve_book

__all__ = ["SolveLimit", "SolveResult", "solve_book"]


def __getattr__(name: str):
    """``SolveResult`` and ``solve_book`` on first use: the validator imports the solver's
    forward pass of fights with exits (``solve/acting_forward.py``, the path of fights)
    without the interpreter the solver drives."""
    if name in ("SolveResult", "solve_book"):
        from dedale.solve import graph

        return getattr(graph, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
