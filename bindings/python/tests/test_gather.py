"""scatter.gather_elements / gather_rows / gather_nd: bitwise against numpy (take_along_axis, take,
a naive gather_nd loop) over dtypes, policies, negative indices, strided views, 0-d indices and
batch_dims; every refused input raises the right exception with out unchanged; random cases
against torch.gather, torch.index_select and torch.take_along_dim."""
import ctypes
import itertools
import os
import shutil
import subprocess

import numpy as np
import pytest

import scatter
from scatter import _library

NUMERIC = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "uint32", "uint64", "complex64", "complex128", "bool"]
OPAQUE = ["S5", "U3", np.dtype([("a", "<i4"), ("b", "S3")])]
DTYPES = NUMERIC + OPAQUE
RECORD = OPAQUE[2]


def values(rng, shape, dtype):
    """Values whose bytes must survive a gather: NaNs with payloads, -0.0, infinities, bools
    stored as 2, strings of every length, records."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    if dtype.kind == "b":
        return rng.integers(0, 3, count).astype(np.uint8).view(np.bool_).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True).reshape(shape)
    if dtype.kind in "fc":
        raw = rng.integers(0, 256, count * dtype.itemsize, dtype=np.uint8).view(dtype)
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype)
        raw[: min(count, 5)] = special[: min(count, 5)]
        return raw.reshape(shape)
    if dtype.kind == "S":
        return np.array([b"x" * (i % 6) for i in range(count)], dtype).reshape(shape)
    if dtype.kind == "U":
        return np.array(["\u00e9z\U0001f600"[: i % 4] for i in range(count)], dtype).reshape(shape)
    out = np.zeros(count, dtype)
    out["a"] = rng.integers(-1000, 1000, count)
    out["b"] = [b"r%d" % (i % 10) for i in range(count)]
    return out.reshape(shape)


def same_bytes(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def resolve(i, size, policy):
    """(valid, position) of index i into a dimension of `size` under `policy` (no "error")."""
    i = int(i)
    if -size <= i < size:
        return True, i % size
    if policy == "clamp":
        return True, min(max(i, 0), size - 1)
    return False, 0


def elements_reference(data, indices, axis, policy="error", fill=None):
    # numpy needs equal extents off the axis; gather reads the leading part of data there.
    axis %= data.ndim
    data = data[tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(indices.shape))]
    size = data.shape[axis]
    if policy == "error":
        return np.take_along_axis(data, np.where(indices < 0, indices + size, indices), axis)
    valid, position = np.vectorize(lambda i: resolve(i, size, policy), otypes=[bool, np.int64])(indices)
    taken = np.take_along_axis(data, position, axis) if size else np.empty(indices.shape, data.dtype)
    if policy == "fill":
        taken[~valid] = fill
    return taken


def rows_reference(data, indices, axis, policy="error", fill=None):
    size = data.shape[axis]
    if policy == "error":
        return np.take(data, indices, axis)
    if policy == "clamp":
        return np.take(data, np.where((indices >= -size) & (indices < 0), indices + size, indices), axis,
                       mode="clip")
    valid = (indices >= -size) & (indices < size)
    taken = np.take(data, np.where(valid, indices, 0), axis) if size else \
        np.empty(data.shape[:axis] + indices.shape + data.shape[axis + 1:], data.dtype)
    mask = valid.reshape((1,) * axis + indices.shape + (1,) * (data.ndim - axis - 1))
    return np.where(mask, taken, np.array(fill, data.dtype) if fill is not None else np.zeros((), data.dtype))


def nd_reference(data, indices, batch_dims=0, policy="error", fill=None):
    """A naive loop over index tuples (ONNX's gather_nd_impl, with the policies)."""
    b, k = batch_dims, indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[b + k:], data.dtype)
    for p in np.ndindex(*indices.shape[:-1]):
        coordinates = []
        valid = True
        for j, i in enumerate(indices[p]):
            size = data.shape[b + j]
            if policy == "error":
                assert -size <= i < size
            ok, position = resolve(i, size, policy)
            valid &= ok
            coordinates.append(position)
        out[p] = data[p[:b] + tuple(coordinates)] if valid else \
            (fill if fill is not None else np.zeros((), data.dtype))
    return out


def fill_for(dtype):
    dtype = np.dtype(dtype)
    return {"b": True, "S": b"fill", "U": "f\u00e9", "V": (7, b"fv")}.get(dtype.kind, 3)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_every_dtype_bitwise_against_numpy(dtype, index_dtype):
    rng = np.random.default_rng(abs(hash((str(dtype), index_dtype))) % 2 ** 32)
    data = values(rng, (5, 6, 3), dtype)
    indices = rng.integers(-6, 6, (4, 6, 2)).astype(index_dtype)
    for axis in (1, -2):
        same_bytes(scatter.gather_elements(data, indices, axis=axis), elements_reference(data, indices, 1))
    rows = rng.integers(-5, 5, (2, 3)).astype(index_dtype)
    same_bytes(scatter.gather_rows(data, rows), rows_reference(data, rows, 0))
    same_bytes(scatter.gather_rows(data, rows[0] % 3, axis=2), np.take(data, rows[0] % 3, 2))
    tuples = np.stack([rng.integers(-5, 5, 7), rng.integers(-6, 6, 7)], -1).astype(index_dtype)
    same_bytes(scatter.gather_nd(data, tuples), nd_reference(data, tuples))


@pytest.mark.parametrize("policy", ["clamp", "fill"])
@pytest.mark.parametrize("dtype", ["float32", "int8", "uint64", "complex128", "bool"] + OPAQUE, ids=str)
def test_clamp_and_fill_against_numpy(policy, dtype):
    rng = np.random.default_rng(len(str(dtype)) + len(policy))
    data = values(rng, (4, 5), dtype)
    fill = fill_for(dtype) if policy == "fill" else None
    indices = rng.integers(-9, 9, (4, 5))
    same_bytes(scatter.gather_elements(data, indices, axis=1, out_of_range=policy, fill_value=fill),
               elements_reference(data, indices, 1, policy, fill))
    rows = rng.integers(-7, 7, (3, 2))
    same_bytes(scatter.gather_rows(data, rows, out_of_range=policy, fill_value=fill),
               rows_reference(data, rows, 0, policy, fill))
    same_bytes(scatter.gather_rows(data, rows, axis=-1, out_of_range=policy, fill_value=fill),
               rows_reference(data, rows, 1, policy, fill))
    tuples = rng.integers(-7, 7, (6, 2))
    same_bytes(scatter.gather_nd(data, tuples, out_of_range=policy, fill_value=fill),
               nd_reference(data, tuples, 0, policy, fill))


def test_fill_without_a_value_is_zero_bytes():
    data = values(np.random.default_rng(0), (3, 2), "U3")
    out = scatter.gather_rows(data, [5, 1, -4], out_of_range="fill")
    same_bytes(out, np.array([["", ""], data[1], ["", ""]], "U3"))
    assert scatter.gather_elements(np.ones(3), [3, -9, 0], out_of_range="fill").tolist() == [0, 0, 1]


def test_fill_values_convert_only_without_change():
    data = np.arange(4, dtype=np.uint8)
    assert scatter.gather_rows(data, [9], out_of_range="fill", fill_value=255).tolist() == [255]
    assert scatter.gather_rows(data, [9], out_of_range="fill", fill_value=np.int64(7)).tolist() == [7]
    assert scatter.gather_rows(data, [9], out_of_range="fill", fill_value=np.array([9], np.uint8)).tolist() == [9]
    halves = np.zeros(2, np.float16)
    assert scatter.gather_rows(halves, [9], out_of_range="fill", fill_value=0.1)[0] == np.float16(0.1)
    nan = np.uint32(0x7fc00123).view(np.float32)
    got = scatter.gather_rows(np.zeros(2, np.float32), [9], out_of_range="fill", fill_value=np.array(nan))
    assert got.view(np.uint32)[0] == 0x7fc00123
    for bad in (256, -1, 1.5):
        with pytest.raises(scatter.TypeMismatchError, match="fill_value"):
            scatter.gather_rows(data, [9], out_of_range="fill", fill_value=bad)
    with pytest.raises(scatter.TypeMismatchError, match="fill_value dtype"):
        scatter.gather_rows(data, [9], out_of_range="fill", fill_value=np.array(1, np.int64))
    with pytest.raises(scatter.TypeMismatchError):
        scatter.gather_rows(np.zeros(2, np.float32), [9], out_of_range="fill", fill_value=1e39)
    with pytest.raises(scatter.TypeMismatchError):
        scatter.gather_rows(np.array(["ab"], "U2"), [9], out_of_range="fill", fill_value="abc")
    with pytest.raises(scatter.InvalidArgumentError, match="one value"):
        scatter.gather_rows(data, [9], out_of_range="fill", fill_value=[1, 2])
    with pytest.raises(TypeError):
        scatter.gather_rows(data, [9], out_of_range="fill", fill_value=object())


def test_strided_views_in_and_out():
    rng = np.random.default_rng(5)
    base = values(rng, (8, 10, 4), "float64")
    data = base[::2, ::-3, 1:]  # negative and non-unit strides
    indices = np.asfortranarray(rng.integers(-4, 4, (3, 4, 3)))[:, ::-1]
    out_base = np.full((6, 4, 6), -1.0)
    out = out_base[::2, :, ::2]
    assert scatter.gather_elements(data, indices, axis=1, out=out) is out
    same_bytes(out, elements_reference(data, indices, 1))
    assert (out_base[1::2] == -1).all() and (out_base[:, :, 1::2] == -1).all()
    zero_stride = np.broadcast_to(np.array([2, -1]), (3, 2))
    same_bytes(scatter.gather_rows(data, zero_stride, axis=2), np.take(data, zero_stride, 2))
    same_bytes(scatter.gather_nd(data, np.array([[[3, 0]], [[-1, 2]]])[:, :, ::-1]),
               nd_reference(data, np.array([[[3, 0]], [[-1, 2]]])[:, :, ::-1]))


def test_0d_indices():
    data = np.arange(12).reshape(3, 4)
    same_bytes(scatter.gather_rows(data, np.array(-1)), data[-1])
    same_bytes(scatter.gather_rows(data, 2, axis=1), data[:, 2])
    same_bytes(scatter.gather_rows(data, np.int32(0)), np.take(data, 0, 0))
    same_bytes(scatter.gather_rows(np.arange(5.0), 3), np.array(3.0))
    same_bytes(scatter.gather_rows(data, 7, out_of_range="fill", fill_value=-1), np.full(4, -1))


@pytest.mark.parametrize("batch_dims", [0, 1, 2])
def test_batch_dims_against_the_naive_loop(batch_dims):
    rng = np.random.default_rng(batch_dims)
    data = values(rng, (2, 3, 4, 5), "int16")
    for depth in range(1, 4 - batch_dims + 1):
        indices = rng.integers(-5, 5, data.shape[:batch_dims] + (2, depth))
        for policy, fill in (("clamp", None), ("fill", 9)):
            same_bytes(scatter.gather_nd(data, indices, batch_dims=batch_dims, out_of_range=policy, fill_value=fill),
                       nd_reference(data, indices, batch_dims, policy, fill))
        legal = np.stack([rng.integers(-s, s, indices.shape[:-1]) for s in data.shape[batch_dims:batch_dims + depth]],
                         -1)
        same_bytes(scatter.gather_nd(data, legal, batch_dims=batch_dims), nd_reference(data, legal, batch_dims))


def test_onnx_examples():
    data = np.array([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], np.int32)
    same_bytes(scatter.gather_nd(data, np.array([[1], [0]]), batch_dims=1), np.array([[2, 3], [4, 5]], np.int32))
    same_bytes(scatter.gather_elements(np.array([[1, 2], [3, 4]]), [[0, 0], [1, 0]], axis=1),
               np.array([[1, 1], [4, 3]]))
    same_bytes(scatter.gather_rows(np.arange(10.0), [0, -9, -10]), np.array([0.0, 1.0, 0.0]))


def test_empty_tensors():
    assert scatter.gather_rows(np.zeros((0, 3)), np.zeros(0, np.int64)).shape == (0, 3)
    assert scatter.gather_rows(np.zeros((4, 0)), [1, 2]).shape == (2, 0)
    assert scatter.gather_elements(np.zeros((2, 3)), np.zeros((2, 0), np.int64), axis=1).shape == (2, 0)
    assert scatter.gather_nd(np.zeros((2, 3)), np.zeros((0, 2), np.int64)).shape == (0,)


# Every refused call: (name, exception, call(out)); `out` is float32 [2, 2], the shape the call's
# result would have, so that each call fails for the reason its name gives.
def refused_calls():
    d = np.arange(12, dtype=np.float32).reshape(3, 4)
    i = np.array([[0, 1], [2, 3]])
    return [
        ("index", scatter.IndexOutOfRangeError, lambda o: scatter.gather_elements(d, [[0, 4], [1, 2]], 1, out=o)),
        ("index clamp into empty", scatter.IndexOutOfRangeError,
         lambda o: scatter.gather_rows(np.zeros((0, 2), np.float32), [0, 0], out_of_range="clamp", out=o)),
        ("rows index", scatter.IndexOutOfRangeError, lambda o: scatter.gather_rows(d[:2], [1, -5], 1, out=o)),
        ("nd index", scatter.IndexOutOfRangeError,
         lambda o: scatter.gather_nd(d, [[[0, 1], [3, 0]], [[0, 0], [0, 0]]], out=o)),
        ("axis", scatter.InvalidArgumentError, lambda o: scatter.gather_elements(d, i, axis=2, out=o)),
        ("rows axis", scatter.InvalidArgumentError, lambda o: scatter.gather_rows(d, [0, 1], axis=-3, out=o)),
        ("axis C range", scatter.InvalidArgumentError, lambda o: scatter.gather_rows(d, [0, 1], axis=2 ** 31, out=o)),
        ("axis type", TypeError, lambda o: scatter.gather_rows(d, [0, 1], axis=1.0, out=o)),
        ("policy", scatter.InvalidArgumentError, lambda o: scatter.gather_elements(d, i, out_of_range="wrap", out=o)),
        ("skip", scatter.InvalidArgumentError, lambda o: scatter.gather_elements(d, i, out_of_range="skip", out=o)),
        ("fill value without fill", scatter.InvalidArgumentError,
         lambda o: scatter.gather_elements(d, i, out_of_range="clamp", fill_value=1, out=o)),
        ("batch_dims", scatter.InvalidArgumentError, lambda o: scatter.gather_nd(d, i, batch_dims=2, out=o)),
        ("negative batch_dims", scatter.InvalidArgumentError, lambda o: scatter.gather_nd(d, i, batch_dims=-1, out=o)),
        ("depth", scatter.ShapeMismatchError, lambda o: scatter.gather_nd(d, [[0, 1, 2], [0, 0, 0]], out=o)),
        ("0-d nd indices", scatter.ShapeMismatchError, lambda o: scatter.gather_nd(d, np.array(1), out=o)),
        ("0-d data", scatter.ShapeMismatchError, lambda o: scatter.gather_rows(np.array(1.0, np.float32), [0], out=o)),
        ("elements rank", scatter.ShapeMismatchError, lambda o: scatter.gather_elements(d, [0, 1], out=o)),
        ("elements extent", scatter.ShapeMismatchError,
         lambda o: scatter.gather_elements(d[:, :1], i, axis=0, out=o)),
        ("out shape", scatter.ShapeMismatchError, lambda o: scatter.gather_rows(d, [0], out=o)),
        ("out dtype", scatter.TypeMismatchError,
         lambda o: scatter.gather_elements(d.astype(np.float64), i, out=o)),
        ("indices dtype", scatter.TypeMismatchError,
         lambda o: scatter.gather_elements(d, i.astype(np.float32), out=o)),
        ("list indices", scatter.TypeMismatchError, lambda o: scatter.gather_elements(d, [[0.5, 1], [0, 0]], out=o)),
        ("out overlaps data", scatter.InvalidArgumentError, lambda o: scatter.gather_elements(d, i, out=d[:2, :2])),
        # On Vulkan too (index 3 on an axis of 3), where the device checks the indices before any write.
        ("vulkan index", (scatter.IndexOutOfRangeError, scatter.BackendUnavailableError),
         lambda o: scatter.gather_elements(d, i, backend="vulkan", out=o)),
        ("context type", TypeError, lambda o: scatter.gather_elements(d, i, out=o, context="cpu")),
    ]


@pytest.mark.parametrize("name, error, call", refused_calls(), ids=[c[0] for c in refused_calls()])
def test_refused_calls_raise_and_leave_out_unchanged(name, error, call):
    out = np.full((2, 2), -7, np.float32)
    with pytest.raises(error) as caught:
        call(out)
    if isinstance(caught.value, scatter.ScatterError):
        assert caught.value.message and str(caught.value).startswith(caught.value.status)
    assert (out == -7).all()


def test_errors_are_also_the_builtins():
    with pytest.raises(IndexError):
        scatter.gather_rows(np.zeros(3), [3])
    with pytest.raises(ValueError):
        scatter.gather_rows(np.zeros(3), [0], axis=1)
    with pytest.raises(TypeError):
        scatter.gather_rows(np.zeros(3), np.zeros(1))


def test_read_only_out_is_refused():
    out = np.zeros(2)
    out.flags.writeable = False
    with pytest.raises(scatter.InvalidArgumentError, match="read-only"):
        scatter.gather_rows(np.ones(3), [0, 1], out=out)


def test_strings_out_must_have_data_dtype():
    with pytest.raises(scatter.TypeMismatchError):
        scatter.gather_rows(np.array(["ab"], "<U2"), [0], out=np.empty(1, ">U2"))


def test_device_arrays_of_a_cpu_context():
    with scatter.Context(backend="cpu", threads=2) as context:
        data = context.to_device(np.arange(12.0).reshape(3, 4))
        out = scatter.gather_rows(data, np.array([2, 0]))
        assert isinstance(out, scatter.DeviceArray) and out.context is context
        same_bytes(out.numpy(), np.arange(12.0).reshape(3, 4)[[2, 0]])
        indices = context.to_device(np.array([[1, 0]]))
        same_bytes(scatter.gather_elements(data, indices, axis=1, context=context).numpy(), np.array([[1.0, 0.0]]))


def test_lists_and_array_likes():
    assert scatter.gather_rows([[1, 2], [3, 4]], [1]).tolist() == [[3, 4]]

    class ViaArray:
        def __array__(self, dtype=None):
            return np.array([5, 6, 7])
    assert scatter.gather_elements(ViaArray(), [2, 0]).tolist() == [7, 5]


def test_the_package_is_typed_and_documented():
    for function in (scatter.gather_elements, scatter.gather_rows, scatter.gather_nd):
        assert "Returns\n    -------" in function.__doc__ and "Raises" in function.__doc__
        assert function.__annotations__["out_of_range"] is str
    assert scatter.gather_nd.__annotations__["batch_dims"] is int
    assert scatter.gather_elements.__annotations__["axis"] is int
    assert {"gather_elements", "gather_rows", "gather_nd", "GATHER_OUT_OF_RANGE"} <= set(scatter.__all__)


LAYOUT_PROGRAM = r"""
#include <stddef.h>
#include <stdio.h>
#include "scatter/scatter.h"
#define FIELD(f) printf("%s %zu %zu\n", #f, offsetof(scatter_gather_options, f), sizeof(((scatter_gather_options*)0)->f))
int main(void) {
    printf("sizeof %zu\n", sizeof(scatter_gather_options));
    FIELD(struct_size); FIELD(axis); FIELD(batch_dims); FIELD(out_of_range); FIELD(fill_value); FIELD(flags);
    printf("ERROR %d\nCLAMP %d\nFILL %d\n", (int)SCATTER_OUT_OF_RANGE_ERROR, (int)SCATTER_OUT_OF_RANGE_CLAMP,
           (int)SCATTER_OUT_OF_RANGE_FILL);
    return 0;
}
"""


def test_gather_options_match_the_header(tmp_path):
    """bindings/native_layout.c is shared with bindings that do not bind gather yet, so this
    binding compares its GatherOptions with a program of its own."""
    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "include")
    compiler = shutil.which("cc")
    if compiler is None or not os.path.exists(os.path.join(header, "scatter", "scatter.h")):
        pytest.skip("no cc, or no scatter.h beside this tree")
    source = tmp_path / "gather_layout.c"
    source.write_text(LAYOUT_PROGRAM)
    subprocess.run([compiler, "-I", header, str(source), "-o", str(tmp_path / "layout")], check=True)
    lines = subprocess.run([str(tmp_path / "layout")], check=True, capture_output=True, text=True).stdout.split("\n")
    table = {line.split()[0]: [int(v) for v in line.split()[1:]] for line in lines if line}
    options = _library.GatherOptions
    assert ctypes.sizeof(options) == table.pop("sizeof")[0]
    for name in ("ERROR", "CLAMP", "FILL"):
        assert scatter.GATHER_OUT_OF_RANGE[name.lower()] == table.pop(name)[0]
    assert [name for name, _ in options._fields_] == list(table)
    for name, (offset, size) in table.items():
        field = getattr(options, name)
        assert (field.offset, field.size) == (offset, size), name


# torch: random cases, bitwise.
TORCH_DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool", "complex64"]


def torch_case(torch, rng, dtype):
    rank = int(rng.integers(1, 5))
    shape = tuple(int(s) for s in rng.integers(1, 6, rank))
    # torch stores a bool it copies as 0 or 1, whatever byte it read: only 0 and 1 here.
    array = rng.integers(0, 2, shape).astype(bool) if dtype == "bool" else values(rng, shape, dtype)
    data = torch.from_numpy(np.ascontiguousarray(array))
    return data, rank, shape


@pytest.mark.parametrize("dtype", TORCH_DTYPES)
def test_against_torch(dtype):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(TORCH_DTYPES.index(dtype))
    for _ in range(25):
        data, rank, shape = torch_case(torch, rng, dtype)
        axis = int(rng.integers(-rank, rank))
        index_shape = [int(rng.integers(0, s + 1)) for s in shape]
        index_shape[axis] = int(rng.integers(0, 7))
        index = torch.from_numpy(rng.integers(0, shape[axis], index_shape))
        if rng.integers(0, 2):
            index = index.transpose(0, -1) if rank > 1 and index_shape[0] == index_shape[-1] else index
        got = scatter.gather_elements(data, index, axis=axis)
        assert isinstance(got, torch.Tensor)
        same_bytes(got.numpy(), torch.gather(data, axis, index).numpy())
        if index.dim() == data.dim() and all(index.shape[d] == data.shape[d] for d in range(rank) if d != axis % rank):
            same_bytes(got.numpy(), torch.take_along_dim(data, index, axis).numpy())
        selection = torch.from_numpy(rng.integers(-shape[axis], shape[axis], int(rng.integers(0, 9))))
        same_bytes(scatter.gather_rows(data, selection, axis=axis).numpy(),
                   torch.index_select(data, axis, selection % shape[axis]).numpy())
        depth = int(rng.integers(1, rank + 1))
        tuples = torch.from_numpy(np.stack([rng.integers(0, s, 4) for s in shape[:depth]], -1))
        same_bytes(scatter.gather_nd(data, tuples).numpy(), data[tuple(tuples.unbind(-1))].numpy())


def test_torch_out_and_refusals():
    torch = pytest.importorskip("torch")
    data = torch.arange(12.0).reshape(3, 4)
    out = torch.full((3, 2), -1.0)
    assert scatter.gather_elements(data, torch.tensor([[0, 3]] * 3), axis=1, out=out) is out
    assert out.tolist() == [[0, 3], [4, 7], [8, 11]]
    with pytest.raises(scatter.IndexOutOfRangeError):
        scatter.gather_elements(data, torch.tensor([[0, 4]] * 3), axis=1, out=out)
    assert out.tolist() == [[0, 3], [4, 7], [8, 11]]
    with pytest.raises(scatter.TypeMismatchError):
        scatter.gather_rows(data.to(torch.bfloat16), [0])
    # torch.gather refuses negative indices; scatter counts them from the back.
    assert scatter.gather_elements(data, torch.tensor([[-1]]), axis=1).tolist() == [[3.0]]


def test_threads_do_not_change_the_result():
    rng = np.random.default_rng(11)
    data = values(rng, (300, 17), "float32")
    indices = rng.integers(-300, 300, (1000, 3))
    results = []
    for threads in (1, 2, 3):
        with scatter.Context(backend="cpu", threads=threads) as context:
            results.append(scatter.gather_rows(data, indices, context=context))
    for r in results[1:]:
        same_bytes(r, results[0])
    same_bytes(results[0], np.take(data, indices, 0))


@pytest.mark.parametrize("op", ["elements", "rows", "nd"])
def test_int32_and_int64_indices_agree(op):
    rng = np.random.default_rng(3)
    data = values(rng, (6, 7), "complex64")
    indices = rng.integers(-6, 6, (6, 2) if op != "rows" else (5,))
    call = {"elements": lambda i: scatter.gather_elements(data, i),
            "rows": lambda i: scatter.gather_rows(data, i),
            "nd": lambda i: scatter.gather_nd(data, i)}[op]
    same_bytes(call(indices.astype(np.int32)), call(indices.astype(np.int64)))


def test_record_dtype_through_every_form():
    rng = np.random.default_rng(4)
    data = values(rng, (3, 4), RECORD)
    for a, b in itertools.product(range(3), range(4)):
        assert scatter.gather_nd(data, [[a, b]])[0] == data[a, b]
