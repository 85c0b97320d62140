"""``dedale validate``: not implemented yet (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""


def run(args: argparse.Namespace) -> int:
    """Run the subcommand."""
    raise NotImplementedError
