"""Fuzzing Dédale: input generators, a watchdog harness, a reducer and a campaign runner.

``generators`` makes books (grammar-based and mutated sample books) from a
``random.Random``; ``harness`` runs one book through load, validate and seeded random play
under a time and memory watchdog; ``reduce`` shrinks a failing book; ``campaign`` runs the
whole for N minutes. ``tests/hostile/test_fuzz.py`` drives the same generators with
Hypothesis.
"""
