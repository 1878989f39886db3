"""Every op x reduction x dtype against the reference, plus numpy cross-checks."""
import numpy as np
import pytest

import reference
import scatter

REDUCTIONS = ["none", "add", "sub", "mul", "div", "max", "min", "mean"]
DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "complex64", "complex128", "bool"]


def supported(dtype, reduction):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return reduction in ("none", "add", "mul")
    if kind == "c":
        return reduction not in ("max", "min")
    return True


def values(rng, shape, dtype):
    # Small nonzero values: exact in every dtype, no integer division by zero.
    raw = rng.integers(1, 5, size=shape)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    return raw.astype(dtype)


def case(op, rng, dtype, index_dtype):
    """(data, indices, updates, axis) for op, with duplicate targets and a negative index."""
    if op == "elements":
        data = values(rng, (5, 4), dtype)
        indices = rng.integers(-5, 5, size=(6, 3)).astype(index_dtype)
        return data, indices, values(rng, (6, 3), dtype), 0
    if op == "rows":
        data = values(rng, (3, 5, 2), dtype)
        indices = np.array([[4, -1], [0, 2], [4, 4]], dtype=index_dtype)
        return data, indices, values(rng, (3, 3, 2, 2), dtype), 1
    data = values(rng, (4, 3, 2), dtype)
    indices = np.array([[0, 1], [3, -1], [0, 1], [2, 2]], dtype=index_dtype)
    return data, indices, values(rng, (4, 2), dtype), 0


def check_equal(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-3 if want.dtype == np.float16 else 1e-6)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", ["elements", "rows", "nd"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("exclude_self", [False, True])
def test_against_reference(op, reduction, dtype, exclude_self):
    if not supported(dtype, reduction):
        pytest.skip("pair is UNSUPPORTED by the contract (tested in test_errors.py)")
    rng = np.random.default_rng(hash((op, reduction, dtype)) % 2**32)
    index_dtype = np.int32 if exclude_self else np.int64
    data, indices, updates, axis = case(op, rng, dtype, index_dtype)
    before = data.copy()
    kwargs = dict(reduction=reduction, exclude_self=exclude_self, backend="cpu")
    if op != "nd":
        kwargs["axis"] = axis
    got = getattr(scatter, op)(data, indices, updates, **kwargs)
    want = reference.scatter(op, data, indices, updates, axis=axis, reduction=reduction,
                             exclude_self=exclude_self)
    check_equal(got, want)
    np.testing.assert_array_equal(data, before)  # data is only read without out=


@pytest.mark.parametrize("alias,name", sorted(scatter.REDUCTION_ALIASES.items()))
def test_pytorch_and_onnx_reduction_names_are_aliases(alias, name):
    assert set(scatter.REDUCTION_ALIASES) == {"sum", "prod", "multiply", "amax", "amin"}
    data = np.array([3.0, -1.0, 2.0])
    indices, updates = [0, 0, 2], [2.0, -4.0, 0.5]
    np.testing.assert_array_equal(scatter.elements(data, indices, updates, reduction=alias),
                                  scatter.elements(data, indices, updates, reduction=name))


def test_unknown_reduction_names_the_choices_and_aliases():
    with pytest.raises(scatter.InvalidArgumentError, match=r"'xor' is not one of none, .* \(or sum, "):
        scatter.elements(np.zeros(2), [0], [1.0], reduction="xor")


def test_matches_numpy_add_at():
    rng = np.random.default_rng(1)
    data = rng.standard_normal(50)
    indices = rng.integers(0, 50, size=200)
    updates = rng.standard_normal(200)
    want = data.copy()
    np.add.at(want, indices, updates)
    np.testing.assert_allclose(scatter.elements(data, indices, updates, reduction="add"), want)


def test_rows_matches_numpy_maximum_at():
    rng = np.random.default_rng(2)
    data = rng.integers(-100, 100, size=(7, 3)).astype(np.int32)
    indices = rng.integers(0, 7, size=12)
    updates = rng.integers(-100, 100, size=(12, 3)).astype(np.int32)
    want = data.copy()
    np.maximum.at(want, indices, updates)
    np.testing.assert_array_equal(scatter.rows(data, indices, updates, reduction="max"), want)


def test_none_last_update_wins_in_row_major_order():
    out = scatter.elements(np.zeros(3, np.int64), [2, 2, 0, 2], np.array([1, 2, 3, 4]))
    np.testing.assert_array_equal(out, [3, 0, 4])


def test_out_of_range_policies():
    data = np.zeros(4, np.float32)
    updates = np.ones(3, np.float32)
    skip = scatter.elements(data, [1, 9, -9], updates, reduction="add", out_of_range="skip")
    np.testing.assert_array_equal(skip, [0, 1, 0, 0])
    clamp = scatter.elements(data, [1, 9, -9], updates, reduction="add", out_of_range="clamp")
    np.testing.assert_array_equal(clamp, [1, 1, 0, 1])


def test_rows_with_0d_index_and_nd_with_full_coordinates():
    data = np.zeros((3, 2), np.float64)
    out = scatter.rows(data, np.array(1), np.array([5.0, 6.0]))
    np.testing.assert_array_equal(out, [[0, 0], [5, 6], [0, 0]])
    out = scatter.nd(data, np.array([[2, 1], [0, 0]]), np.array([7.0, 8.0]), reduction="add")
    np.testing.assert_array_equal(out, [[8, 0], [0, 0], [0, 7]])


def test_zero_size_dimension():
    data = np.zeros((0, 3), np.float32)
    out = scatter.elements(data, np.zeros((0, 3), np.int64), np.zeros((0, 3), np.float32))
    assert out.shape == (0, 3)


def test_the_per_call_caches_change_no_answer():
    """The small-call fast paths (remembered options and dtypes, NULL strides for C-contiguous
    arrays) give the answers and errors the checked paths give."""
    data = np.arange(6, dtype=np.float32)
    indices = np.array([5, 0, 5], dtype=np.int64)
    updates = np.ones(3, dtype=np.float32)
    want = np.array([1, 1, 2, 3, 4, 7], dtype=np.float32)
    for _ in range(2):  # the second time from the caches
        np.testing.assert_array_equal(scatter.elements(data, indices, updates, axis=0, reduction="add"), want)
        # axis 1.0 equals axis 1 as a dict key, but is not an integer: refused every time.
        with pytest.raises(TypeError):
            scatter.elements(data, indices, updates, axis=0.0, reduction="add")
        with pytest.raises(scatter.InvalidArgumentError):
            scatter.elements(data, indices, updates, axis=0, reduction="sum2")
        swapped = data.astype(data.dtype.newbyteorder())
        with pytest.raises(scatter.UnsupportedError):
            scatter.elements(swapped, indices, updates, axis=0, reduction="add")
    # C-contiguous with a size-1 dimension of any stride, and a strided view of the same values.
    column = np.lib.stride_tricks.as_strided(data, shape=(6, 1), strides=(4, 1000))
    got = scatter.elements(column, indices.reshape(3, 1), updates.reshape(3, 1), axis=0, reduction="add")
    np.testing.assert_array_equal(got.ravel(), want)
    wide = np.zeros(12, dtype=np.float32)
    wide[::2] = data
    got = scatter.elements(wide[::2], indices, updates, axis=0, reduction="add")
    np.testing.assert_array_equal(got, want)
    out = np.zeros(12, dtype=np.float32)
    scatter.elements(data, indices, updates, axis=0, reduction="add", out=out[::2])
    np.testing.assert_array_equal(out[::2], want)
    np.testing.assert_array_equal(out[1::2], 0)
    # Read-only and empty arrays take the other way to their address.
    frozen = data.copy()
    frozen.flags.writeable = False
    np.testing.assert_array_equal(scatter.elements(frozen, indices, updates, axis=0, reduction="add"), want)
    offset = np.zeros(7, dtype=np.float32)[1:]  # a view that starts past its base's first element
    scatter.elements(data, indices, updates, axis=0, reduction="add", out=offset)
    np.testing.assert_array_equal(offset, want)
    empty = np.zeros(0, dtype=np.float32)
    np.testing.assert_array_equal(
        scatter.elements(empty, np.zeros(0, dtype=np.int64), empty, axis=0, reduction="add"), empty)
