"""Every key the ruleset schema accepts, read from the schema modules' own source: each
``check_keys(node, allowed, what)`` call is one section, named after its ``what``
(``stat SKILL`` -> ``stat``; the ``fight`` of each procedure -> ``fight (opposed)``)."""

from __future__ import annotations

import ast
import inspect

from dedale.rules import schema, schema_fight

# ``what`` given as a parameter: the section is named after the function.
BY_FUNCTION = {
    "read_outcome_names": "test outcomes",
    "read_luck_table": "fight luck table",
}
# ``allowed`` given as a parameter: the module constants passed to it, per fight procedure.
ENEMY_KEYS = {"d20": schema_fight.D20_ENEMY_KEYS, "reliques": schema_fight.RELIQUES_ENEMY_KEYS}


def _strings(node: ast.expr) -> tuple[str, ...]:
    return tuple(item.value for item in node.elts if isinstance(item, ast.Constant))  # type: ignore[attr-defined]


def _what(node: ast.expr, function: str, names: dict[str, ast.expr] | None = None) -> str:
    if isinstance(node, ast.Name) and names and node.id in names:  # what = tr("stat {name}")
        node = names[node.id]
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "tr":  # a translated what
        text = str(node.args[0].value).split(" {")[0]  # type: ignore[attr-defined]
        return "" if text == "a ruleset" else text.removeprefix("an ").removeprefix("a ")
    if isinstance(node, ast.Constant):
        return (
            ""
            if node.value == "a ruleset"
            else str(node.value).removeprefix("an ").removeprefix("a ")
        )
    if isinstance(node, ast.JoinedStr):
        return str(node.values[0].value).strip()  # type: ignore[attr-defined]
    return BY_FUNCTION[function]


def _procedure(function: ast.FunctionDef, line: int, procedures: tuple[str, ...]) -> str:
    """The procedure whose ``if procedure == ...`` branch holds ``line`` (else the last)."""
    branches = {}
    for node in ast.walk(function):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            value = node.test.comparators[0]
            if isinstance(value, ast.Constant) and value.value in procedures:
                branches[value.value] = (node.lineno, node.end_lineno or node.lineno)
    for name, (first, last) in branches.items():
        if first <= line <= last:
            return name
    (rest,) = [name for name in procedures if name not in branches]
    return rest


def schema_keys() -> set[str]:
    """``"stat: roll"``, ``"fight (d20): base_ac"``, ``": inventory_limit"``..."""
    found: set[str] = set()
    for module in (schema, schema_fight):
        tree = ast.parse(inspect.getsource(module))
        for function in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            assigned: list[tuple[int, str, tuple[str, ...]]] = []
            for node in ast.walk(function):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple):
                    for target in node.targets:
                        if isinstance(target, ast.Name):
                            assigned.append((node.lineno, target.id, _strings(node.value)))
            translated = {  # the ``what`` named once: ``what = tr("stat {name}", name=ident)``
                target.id: node.value
                for node in ast.walk(function)
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                for target in node.targets
                if isinstance(target, ast.Name) and getattr(node.value.func, "id", "") == "tr"
            }
            for node in ast.walk(function):
                if not (
                    isinstance(node, ast.Call) and getattr(node.func, "id", "") == "check_keys"
                ):
                    continue
                allowed_node, what_node = node.args[1], node.args[2]
                section = _what(what_node, function.name, translated)
                if isinstance(allowed_node, ast.Tuple):
                    allowed = _strings(allowed_node)
                elif allowed_node.id in dir(module):  # type: ignore[attr-defined]
                    allowed = getattr(module, allowed_node.id)  # type: ignore[attr-defined]
                elif any(name == allowed_node.id for _, name, _ in assigned):  # type: ignore[attr-defined]
                    allowed = max(
                        (a for a in assigned if a[1] == allowed_node.id and a[0] < node.lineno),  # type: ignore[attr-defined]
                    )[2]
                else:  # read_enemy_keys(node, allowed): see ENEMY_KEYS
                    continue
                if section == "fight":
                    section = (
                        f"fight ({_procedure(function, node.lineno, schema_fight.PROCEDURES)})"
                    )
                found |= {f"{section}: {key}" for key in allowed}
    for procedure, keys in ENEMY_KEYS.items():
        found |= {f"fight ({procedure}) enemy_keys: {key}" for key in keys}
    return found
