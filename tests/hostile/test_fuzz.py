"""The fuzz test: generated and mutated books through load, validate and random play.

Inputs come from ``tools/fuzz`` (the campaign's own generators): grammar-based books
(headers, choices, directives with random names, numbers and dice; huge numbers, deep
nesting, random bytes, YAML extremes) and the sample books of books/ with careless edits
(byte flips, line deletions and duplications, number and FR/EN keyword swaps, truncation).
Each runs through ``load_book``, ``validate_loaded`` (two random games), the json and text
reports and two seeded random games, in a worker process under a watchdog: only typed
errors (``DedaleError``) may come out, each load error with its location, and every phase
must end within ``DEADLINE`` seconds and ``MEMORY`` bytes (a worker that does not answer
at all is killed: a hang in C code fails the example, it does not stop the suite).
Hypothesis is derandomized (the same examples on every run) and does not shrink (a hang
would cost a deadline per try): a failure prints the input, which
``tools/fuzz/campaign.py --replay`` runs again and the campaign shrinks.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.fuzz.campaign import make_input  # noqa: E402
from tools.fuzz.grammar_gen import grammar_book  # noqa: E402
from tools.fuzz.harness import PHASES, FuzzTimeout, Outcome, watchdog  # noqa: E402
from tools.fuzz.inputs import FuzzInput  # noqa: E402
from tools.fuzz.mutate import mutated_book, sample_books  # noqa: E402
from tools.fuzz.reduce import reduce_input  # noqa: E402
from tools.fuzz.worker import Worker  # noqa: E402

DEADLINE = float(os.environ.get("DEDALE_FUZZ_DEADLINE", "10"))  # seconds per phase
MEMORY = 2 << 30  # bytes a phase may add to the address space

# On a failure, Hypothesis's pytest plugin imports libcst (to suggest a patch), whose
# import warns on current Python; the warning must not hide the failure itself.
pytestmark = pytest.mark.filterwarnings(
    "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning"
)

FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,  # the watchdog is the deadline: it also stops a hang
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)


def _shown(fuzz: FuzzInput) -> str:
    """The input as text for the failure message (long files cut)."""
    parts = [f"origin: {fuzz.origin}, seed {fuzz.seed}"]
    for name, data in fuzz.files.items():
        text = data.decode("utf-8", "backslashreplace")
        if len(text) > 3000:
            text = text[:3000] + f"\n... ({len(text)} characters)"
        parts.append(f"--- {name}\n{text}")
    return "\n".join(parts)


WORKER = Worker()


@pytest.fixture(scope="module", autouse=True)
def _worker():
    yield
    WORKER.close()


def run(fuzz: FuzzInput, deadline: float = DEADLINE, runs: int = 2) -> Outcome:
    """Run ``fuzz`` in the worker process; a worker silent past the hard limit is killed."""
    hard = deadline * len(PHASES) + 30
    options = {"deadline": deadline, "memory": MEMORY, "runs": runs}
    outcome = WORKER.ask(("run", fuzz, options), hard)
    if outcome is None:
        return Outcome("failure", "any", "HardTimeout", f"no answer within {hard:g} s (killed)")
    return outcome


def check(fuzz: FuzzInput) -> None:
    """Run ``fuzz``; fail with the input and the traceback if anything but a typed error
    came out or a phase ran out of time or memory."""
    outcome = run(fuzz)
    if outcome.failed:
        saved = Path(tempfile.mkdtemp(prefix="dedale-fuzz-failure-"))
        fuzz.write(saved)
        pytest.fail(
            f"{outcome.signature}: {outcome.message}\n"
            f"input saved in {saved} (replay: python tools/fuzz/campaign.py --replay {saved}"
            f" --seed {fuzz.seed})\n{_shown(fuzz)}\n{outcome.traceback}",
            pytrace=False,
        )


@settings(FUZZ, max_examples=80)
@given(st.randoms(use_true_random=True))
@example(
    rnd=random.Random(139461021476960320),
).via("discovered failure")
def test_grammar_based_books_give_only_typed_errors(rnd):
    check(grammar_book(rnd))


@settings(FUZZ, max_examples=50)
@given(st.sampled_from(sorted(sample_books())), st.randoms(use_true_random=True))
def test_mutated_sample_books_give_only_typed_errors(book, rnd):
    check(mutated_book(rnd, book))


# ---------------------------------------------------------------------- the harness itself
def test_the_watchdog_turns_a_hang_into_a_failure():
    started = time.perf_counter()
    with pytest.raises(FuzzTimeout):
        with watchdog(0.2):
            while True:
                pass
    assert time.perf_counter() - started < 2


def test_the_watchdog_caps_memory():
    # in a child process: a cap left behind would break the rest of the test run
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from tools.fuzz.harness import watchdog\n"
        "try:\n"
        "    with watchdog(5, memory=256 << 20):\n"
        "        bytearray(1 << 30)\n"
        "except MemoryError:\n"
        "    bytearray(300 << 20)  # the cap is lifted afterwards\n"
        "    print('capped')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "capped", done.stderr


def test_a_clean_sample_book_plays_and_a_forced_loop_ends_in_time():
    clean = run(mutated_book(random.Random(0), "first-steps", edits=0))
    assert clean.status == "played", clean
    loop = FuzzInput(
        {"book.dd": b"---\ntitle: Loop\nruleset: df-classic\nstart: 1\n---\n# 1\n> go to 1\n"},
        "hand-written",
    )
    started = time.perf_counter()
    outcome = run(loop, deadline=1, runs=1)
    assert time.perf_counter() - started < 20
    # a typed error once the interpreter bounds forced jumps; never a hang or a traceback
    assert outcome.status in ("played", "refused") or outcome.error == "Timeout", outcome


def test_the_reducer_keeps_only_what_makes_the_failure():
    lines = [f"line {n}".encode() for n in range(40)]
    fuzz = FuzzInput({"book.yaml": b"title: x", "01.dd": b"\n".join(lines), "02.dd": b"z"}, "t")

    def fails(candidate: FuzzInput) -> bool:
        return b"line 17" in candidate.files.get("01.dd", b"")

    small, tries = reduce_input(fuzz, fails, seconds=10)
    assert small.files == {"book.yaml": b"", "01.dd": b"line 17"}
    assert 0 < tries < 200


def test_campaign_inputs_are_reproducible_from_seed_and_number():
    first = [make_input(3, index).files for index in range(6)]
    again = [make_input(3, index).files for index in range(6)]
    assert first == again
    assert make_input(4, 0).files != make_input(3, 0).files
