"""`scatter run --op message_passing` end to end: out[dst[e]] (op)= x[src[e]] * weights[e] against
numpy (np.add.at, np.maximum.at in edge order) for several dtypes, the policies and --fill-value,
usage errors (exit 2), runtime errors (exit 1, no --out), and the W19 workload of `scatter bench`."""
import json

import numpy as np
import pytest

from test_cli import assert_error


def message_passing(runner, data, x, src, dst, *flags, weights=None, out_name="out.npy"):
    """Runs `scatter run --op message_passing`; returns (completed process, output array or None)."""
    paths = [runner.save(a) for a in (data, x, src, dst)]
    out = runner.path(out_name)
    extra = [] if weights is None else ["--weights", runner.save(weights)]
    proc = runner.call("run", "--op", "message_passing", "--data", paths[0], "--x", paths[1], "--src", paths[2],
                       "--dst", paths[3], "--out", out, *extra, *flags)
    return proc, (np.load(out) if proc.returncode == 0 else None)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_add_and_max_against_numpy(runner, dtype):
    rng = np.random.default_rng(3)
    data = rng.integers(-20, 20, (6, 3)).astype(dtype)
    x = rng.integers(-20, 20, (9, 3)).astype(dtype)
    src, dst = rng.integers(0, 9, 40), rng.integers(-6, 6, 40).astype(np.int32)
    w = rng.integers(-3, 4, 40).astype(dtype)
    want = data.copy()
    np.add.at(want, dst, x[src] * w[:, None])
    proc, out = message_passing(runner, data, x, src, dst, weights=w)
    assert proc.returncode == 0, proc.stderr
    assert out.dtype == want.dtype and out.tobytes() == want.tobytes()
    want = data.copy()
    np.maximum.at(want, dst, x[src])
    proc, out = message_passing(runner, data, x, src, dst, "--reduction", "amax", "--backend", "cpu",
                                "--threads", "2")
    assert proc.returncode == 0, proc.stderr
    assert out.tobytes() == want.tobytes()


def test_policies_and_fill_value(runner):
    data = np.zeros((3, 2), np.float32)
    x = np.arange(4, dtype=np.float32).reshape(2, 2)
    src, dst = np.array([0, 5, 1]), np.array([0, 1, 7])
    proc, out = message_passing(runner, data, x, src, dst, "--src-out-of-range", "fill", "--fill-value", "-1",
                                "--dst-out-of-range", "skip")
    assert proc.returncode == 0, proc.stderr
    assert out.tolist() == [[0, 1], [-1, -1], [0, 0]]
    proc, out = message_passing(runner, data, x, src, dst, "--src-out-of-range", "clamp", "--dst-out-of-range",
                                "clamp", "--reduction", "mean", "--exclude-self")
    assert proc.returncode == 0, proc.stderr
    assert out.tolist() == [[0, 1], [2, 3], [2, 3]]


@pytest.mark.parametrize("flags", [
    ["--indices", "i.npy"],                       # not an option of message_passing
    ["--out-of-range", "skip"],                   # one policy per vector instead
    ["--src-out-of-range", "skip"],
    ["--dst-out-of-range", "fill"],
    ["--fill-value", "1"],                        # needs --src-out-of-range fill
])
def test_usage_errors_exit_2(runner, flags):
    proc, _ = message_passing(runner, np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32),
                              np.zeros(1, np.int64), np.zeros(1, np.int64), *flags)
    assert proc.returncode == 2, proc.stderr


def test_missing_inputs_and_misuse_of_the_other_ops_exit_2(runner):
    out = runner.path("o.npy")
    proc = runner.call("run", "--op", "message_passing", "--data", runner.save(np.zeros(2)), "--out", out)
    assert proc.returncode == 2 and "--x is required" in proc.stderr
    proc = runner.call("run", "--op", "rows", "--data", runner.save(np.zeros(2)), "--indices",
                       runner.save(np.zeros(1, np.int64)), "--updates", runner.save(np.zeros(1)), "--src",
                       runner.save(np.zeros(1, np.int64)), "--out", out)
    assert proc.returncode == 2 and "message_passing option" in proc.stderr


def test_runtime_errors_exit_1_without_out(runner):
    data, x = np.zeros((3, 2), np.float32), np.zeros((2, 2), np.float32)
    proc, _ = message_passing(runner, data, x, np.array([0, 2]), np.array([0, 1]))
    assert_error(proc, "SCATTER_ERROR_INDEX_OUT_OF_RANGE", runner.path("out.npy"))
    assert "src[1] = 2 is outside [-2, 2)" in proc.stderr
    proc, _ = message_passing(runner, data, x.astype(np.float64), np.array([0]), np.array([0]))
    assert_error(proc, "SCATTER_ERROR_TYPE_MISMATCH", runner.path("out.npy"))
    proc, _ = message_passing(runner, data, x, np.array([0]), np.array([0]), weights=np.ones(2, np.float32))
    assert_error(proc, "SCATTER_ERROR_SHAPE_MISMATCH", runner.path("out.npy"))


def test_bench_runs_w19(runner):
    proc = runner.call("bench", "--workload", "W19", "--repeat", "1", "--json", "--threads", "2")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout.splitlines()[0])
    assert record["workload"] == "W19" and record["median_ms"] > 0
