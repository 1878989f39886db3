"""`pip install` of the package with the library beside it, used without SCATTER_LIBRARY."""
import os
import shutil
import subprocess
import sys

import pytest

import scatter

HERE = os.path.dirname(os.path.abspath(__file__))


def test_pip_install_ships_and_finds_the_library_next_to_the_package(tmp_path):
    source = tmp_path / "src"
    shutil.copytree(os.path.join(HERE, ".."), source,
                    ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    shutil.copy(os.path.realpath(scatter.library_path), source / "scatter" / "libscatter.so")
    target = tmp_path / "site"
    # No index and no build isolation: the install must work offline with the setuptools here.
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
         "--no-deps", "--target", str(target), str(source)],
        capture_output=True, text=True)
    if result.returncode != 0 and "No module named pip" in result.stderr:
        pytest.skip("pip is not installed")
    assert result.returncode == 0, result.stderr
    env = {k: v for k, v in os.environ.items() if k != "SCATTER_LIBRARY"}
    env["PYTHONPATH"] = str(target)
    code = ("import numpy as np, scatter; "
            "print(scatter.library_path); "
            "print(scatter.elements(np.zeros(3), [2], np.ones(1)).tolist())")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    path, values = run.stdout.splitlines()
    assert path.startswith(str(target))
    assert values == "[0.0, 0.0, 1.0]"
