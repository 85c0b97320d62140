"""Reusable widgets of the player (each with its DEFAULT_CSS)."""
