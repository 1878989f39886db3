"""scatter.message_passing: bitwise against the library's own gather_rows + multiply + rows and
against numpy (np.add.at / maximum.at in edge order) and torch (``out.index_add_(0, dst,
x[src] * w[:, None])``); every policy; refused inputs raise the builtin-derived exceptions with
out unchanged; the options struct matches the header."""
import ctypes
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import scatter
from scatter import _library

NUMERIC = ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "uint64", "complex64", "bool"]


def random_values(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), shape, endpoint=True).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def composed(data, x, src, dst, weights, reduction, exclude_self, src_policy, dst_policy):
    """The three calls message passing fuses, through the library."""
    messages = scatter.gather_rows(x, src, out_of_range=src_policy)
    if weights is not None:
        positions = np.arange(len(src))
        shape = messages.shape
        broadcast = np.lib.stride_tricks.as_strided(weights, shape, (weights.strides[0],) + (0,) * (len(shape) - 1))
        messages = scatter.rows(messages, positions, broadcast, reduction="mul")
    return scatter.rows(data, dst, messages, reduction=reduction, exclude_self=exclude_self,
                        out_of_range=dst_policy)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_equals_the_composition_bitwise(dtype):
    rng = np.random.default_rng(abs(hash(dtype)) % 1000)
    reductions = ["add", "mean", "max", "min", "none", "mul"]
    if np.dtype(dtype).kind == "c":
        reductions = ["add", "mean", "none", "mul"]
    if np.dtype(dtype).kind == "b":
        reductions = ["add", "none", "mul"]
    for case in range(40):
        m, n, e = (int(v) for v in rng.integers(1, 12, 3))
        features = tuple(int(v) for v in rng.integers(0, 5, int(rng.integers(0, 3))))
        data = random_values(rng, (m,) + features, dtype)
        x = random_values(rng, (n,) + features, dtype)
        src = rng.integers(-n - 2, n + 2, e)
        dst = rng.integers(-m - 2, m + 2, e).astype(np.int32)
        weights = random_values(rng, (e,), dtype) if case % 2 else None
        reduction = reductions[case % len(reductions)]
        exclude_self = bool(case % 3 == 0)
        src_policy = ["clamp", "fill"][case % 2]
        dst_policy = ["skip", "clamp"][(case // 2) % 2]
        want = composed(data, x, src, dst, weights, reduction, exclude_self, src_policy, dst_policy)
        got = scatter.message_passing(data, x, src, dst, weights, reduction=reduction, exclude_self=exclude_self,
                                      src_out_of_range=src_policy, dst_out_of_range=dst_policy)
        assert got.dtype == data.dtype and got.shape == data.shape
        assert got.tobytes() == want.tobytes(), (case, reduction)


def test_against_numpy_in_edge_order():
    rng = np.random.default_rng(5)
    data = rng.standard_normal((50, 8)).astype(np.float32)
    x = rng.standard_normal((70, 8)).astype(np.float32)
    src, dst = rng.integers(0, 70, 900), rng.integers(0, 50, 900)
    w = rng.standard_normal(900).astype(np.float32)
    want = data.copy()
    np.add.at(want, dst, x[src] * w[:, None])
    assert scatter.message_passing(data, x, src, dst, w).tobytes() == want.tobytes()
    want = data.copy()
    np.maximum.at(want, dst, x[src])
    assert scatter.message_passing(data, x, src, dst, reduction="amax").tobytes() == want.tobytes()
    out = data.copy()
    assert scatter.message_passing(out, x, src, dst, w, out=out) is out  # in place


def test_against_torch_index_add():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(9)
    for dtype in (torch.float32, torch.float64, torch.int64):
        for _ in range(10):
            m, n, e, f = (int(v) for v in rng.integers(1, 40, 4))
            x = torch.from_numpy(rng.standard_normal((n, f)) * 8).to(dtype)
            data = torch.from_numpy(rng.standard_normal((m, f)) * 8).to(dtype)
            src = torch.from_numpy(rng.integers(0, n, e))
            dst = torch.from_numpy(rng.integers(0, m, e))
            w = torch.from_numpy(rng.standard_normal(e) * 4).to(dtype)
            want = data.clone().index_add_(0, dst, x[src] * w[:, None])
            got = scatter.message_passing(data, x, src, dst, w)
            assert isinstance(got, torch.Tensor)
            assert got.numpy().tobytes() == want.numpy().tobytes()
            want = data.clone().index_add_(0, dst, x[src])
            assert scatter.message_passing(data, x, src, dst).numpy().tobytes() == want.numpy().tobytes()


def test_refusals_leave_out_unchanged():
    data = np.arange(6, dtype=np.float32).reshape(3, 2)
    x = np.ones((4, 2), np.float32)
    out = np.full((3, 2), 7, np.float32)
    cases = [
        (dict(src=[0, 4], dst=[0, 1]), scatter.IndexOutOfRangeError, IndexError, "src[1] = 4 is outside [-4, 4)"),
        (dict(src=[0, 1], dst=[0, 3]), scatter.IndexOutOfRangeError, IndexError, "dst[1] = 3 is outside [-3, 3)"),
        (dict(src=[0, 1], dst=[0]), scatter.ShapeMismatchError, ValueError, "dst.shape[0] = 1"),
        (dict(src=[0], dst=[0], weights=np.ones(1, np.float64)), scatter.TypeMismatchError, TypeError, "weights"),
        (dict(src=[0], dst=[0], reduction="max", x=x.astype(np.complex64), data=data.astype(np.complex64),
              out=out.astype(np.complex64)), scatter.UnsupportedError, RuntimeError, "max"),
        (dict(src=[0], dst=[0], dst_out_of_range="fill"), scatter.InvalidArgumentError, ValueError, "fill"),
        (dict(src=[0], dst=[0], fill_value=1.0), scatter.InvalidArgumentError, ValueError, "fill_value"),
    ]
    for arguments, error, builtin, message in cases:
        target = arguments.pop("out", out)
        before = target.copy()
        arguments = {"data": data, "x": x, **arguments}
        with pytest.raises(error, match=re.escape(message)) as raised:
            scatter.message_passing(out=target, **arguments)
        assert isinstance(raised.value, builtin)
        assert target.tobytes() == before.tobytes()


def test_the_function_is_typed_and_documented():
    f = scatter.message_passing
    assert "Returns\n    -------" in f.__doc__ and "Raises" in f.__doc__
    assert f.__annotations__["reduction"] is str and f.__annotations__["exclude_self"] is bool
    assert "message_passing" in scatter.__all__


LAYOUT_PROGRAM = r"""
#include <stddef.h>
#include <stdio.h>
#include "scatter/scatter.h"
#define S scatter_message_passing_options
#define FIELD(f) printf("%s %zu %zu\n", #f, offsetof(S, f), sizeof(((S*)0)->f))
int main(void) {
    printf("sizeof %zu\n", sizeof(S));
    FIELD(struct_size); FIELD(reduction); FIELD(src_out_of_range); FIELD(dst_out_of_range); FIELD(fill_value);
    FIELD(flags);
    return 0;
}
"""


def test_options_match_the_header(tmp_path):
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "include")
    compiler = shutil.which("cc")
    if compiler is None or not os.path.exists(os.path.join(header, "scatter", "scatter.h")):
        pytest.skip("no cc, or no scatter.h beside this tree")
    source = tmp_path / "message_passing_layout.c"
    source.write_text(LAYOUT_PROGRAM)
    subprocess.run([compiler, "-I", header, str(source), "-o", str(tmp_path / "layout")], check=True)
    lines = subprocess.run([str(tmp_path / "layout")], check=True, capture_output=True, text=True).stdout.split("\n")
    table = {line.split()[0]: [int(v) for v in line.split()[1:]] for line in lines if line}
    options = _library.MessagePassingOptions
    assert ctypes.sizeof(options) == table.pop("sizeof")[0]
    assert [name for name, _ in options._fields_] == list(table)
    for name, (offset, size) in table.items():
        field = getattr(options, name)
        assert (field.offset, field.size) == (offset, size), name
