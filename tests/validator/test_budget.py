"""The validator's time budgets (validator/budget.py): the path of fights counts CPU time."""

from __future__ import annotations

import time

from dedale.validator.budget import CpuDeadline, Deadline


def test_a_cpu_deadline_does_not_pass_while_the_process_waits():
    wall, cpu = Deadline(0.05), CpuDeadline(0.05)
    time.sleep(0.12)  # as on a loaded machine: the clock runs, this process does not
    assert wall.passed()
    assert not cpu.passed()


def test_a_cpu_deadline_passes_once_the_process_has_spent_it():
    cpu = CpuDeadline(0.02)
    started = time.process_time()
    total = 0
    while time.process_time() - started < 0.1:  # bounded: 0.1 s of CPU
        total += 1
    assert total > 0 and cpu.passed()
    assert not CpuDeadline(None).passed()
