"""What a condition reads, for the solver's exact shortcuts."""

from __future__ import annotations

from dedale import ast


def reads_only(condition, kinds: tuple[type, ...]) -> bool:
    """Whether ``condition`` is made only of ``kinds`` joined by and, or, not."""
    stack = [condition]
    while stack:
        node = stack.pop()
        if type(node) in (ast.And, ast.Or):
            stack.extend(node.operands)
        elif type(node) is ast.Not:
            stack.append(node.operand)
        elif not isinstance(node, kinds):
            return False
    return True
