"""The package installs cleanly: every package is listed, grammars ship as resources."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    engine = ROOT / "engine"
    found = {
        ".".join(init.parent.relative_to(engine).parts)
        for init in (engine / "dedale").rglob("__init__.py")
    }
    assert found - listed == set(), "add these to [tool.setuptools] packages"


def test_runs_from_outside_the_checkout(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "dedale", "--version"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith("dedale ")
