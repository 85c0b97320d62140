"""Footer labels in the interface language: key descriptions come from ``keys.<action>``."""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from dedale.player.texts import Texts


def localise_bindings(node: DOMNode, texts: Texts) -> None:
    """Replace each binding's description with ``keys.<action>`` when the texts have it."""
    bindings = node._bindings.key_to_bindings  # noqa: SLF001 - Textual has no public setter
    for key, found in bindings.items():
        localised = []
        for binding in found:
            name = binding.action.rsplit(".", 1)[-1]
            if texts.has(f"keys.{name}"):
                binding = dataclasses.replace(binding, description=texts(f"keys.{name}"))
            localised.append(binding)
        bindings[key] = localised
