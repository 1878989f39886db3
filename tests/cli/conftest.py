"""Shared helpers for the CLI tests: the path of the `scatter` program and a runner."""
import os
import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("SCATTER_CLI")
    if not path:
        pytest.fail("set SCATTER_CLI to the built `scatter` program")
    return path


class Runner:
    """Writes arrays as .npy files in a temporary directory and runs `scatter` on them."""

    def __init__(self, cli, directory):
        self.cli = cli
        self.directory = directory
        self.count = 0

    def path(self, name):
        return str(self.directory / name)

    def save(self, array, name=None):
        self.count += 1
        path = self.path(name or f"input{self.count}.npy")
        np.save(path, array)
        return path

    def call(self, *args):
        return subprocess.run([self.cli, *map(str, args)], capture_output=True, text=True, timeout=120)

    def run(self, op, data, indices, updates, *flags, out_name="out.npy"):
        """Runs `scatter run`; returns (completed process, output array or None)."""
        paths = [p if isinstance(p, str) else self.save(p) for p in (data, indices, updates)]
        out = self.path(out_name)
        proc = self.call("run", "--op", op, "--data", paths[0], "--indices", paths[1],
                         "--updates", paths[2], "--out", out, *flags)
        result = np.load(out) if proc.returncode == 0 else None
        return proc, result


@pytest.fixture
def runner(cli, tmp_path):
    return Runner(cli, tmp_path)
