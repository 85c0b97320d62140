"""Test plans: golden playthroughs an author keeps in the book's ``tests/`` folder.

A ``.plan`` file (docs/plans.md) lists a hero, forced dice, the decisions to make and the
expectations along the way, in English or French keywords::

    hero: SKILL 10 STAMINA 20 LUCK 9
    at 1 / choose 3
    expect STAMINA 20, not Rope
    ending: victory

- :func:`dedale.plans.parser.parse_plan` reads one (located :class:`PlanError` on bad input);
- :func:`dedale.plans.writer.write_plan` writes a :class:`Plan` back as text (round trip);
- :func:`dedale.plans.runner.run_plan` plays it through the interpreter and returns its
  findings (codes P0xx, :mod:`dedale.plans.findings`);
- :func:`dedale.plans.record.record_plan` turns a played game (seed + decision log) into
  a plan that replays it.
"""

from dedale.plans.model import Plan
from dedale.plans.parser import PlanError, parse_plan, read_plan
from dedale.plans.writer import write_plan

__all__ = ["Plan", "PlanError", "parse_plan", "read_plan", "write_plan"]
