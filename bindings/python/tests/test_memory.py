"""Strided views, in-place use, out=, opaque strings, and arrays the binding refuses."""
import numpy as np
import pytest

import reference
import scatter


def test_strided_views_are_passed_without_copies():
    base = np.arange(40, dtype=np.float64).reshape(8, 5)
    data = base[::2, 1::2]          # (4, 2), non-contiguous
    indices = np.array([[3, 0], [1, 1], [3, 2]])[:, ::-1][:, :2]
    updates = np.arange(100, 106, dtype=np.float64).reshape(3, 2)
    out = scatter.elements(data, indices, updates, reduction="add")
    want = reference.scatter("elements", data, indices, updates, reduction="add")
    np.testing.assert_array_equal(out, want)


def test_negative_strides():
    data = np.arange(6, dtype=np.int32)[::-1]
    out = scatter.rows(data, [0, 5], np.array([10, 20], np.int32), reduction="add")
    np.testing.assert_array_equal(out, [15, 4, 3, 2, 1, 20])


def test_in_place_through_out_equals_data_on_a_view():
    base = np.zeros((4, 6), np.float32)
    view = base[:, ::2]
    result = scatter.rows(view, [1, 3], np.ones((2, 3), np.float32), reduction="add", out=view)
    assert result is view
    want = np.zeros((4, 6), np.float32)
    want[[1, 3], ::2] = 1
    np.testing.assert_array_equal(base, want)


def test_separate_out_array_with_other_strides():
    data = np.arange(6, dtype=np.int64).reshape(2, 3)
    out = np.zeros((3, 2), np.int64).T      # Fortran-ordered out
    scatter.nd(data, [[1, 2]], np.array([9]), out=out)
    np.testing.assert_array_equal(out, [[0, 1, 2], [3, 4, 9]])
    np.testing.assert_array_equal(data, [[0, 1, 2], [3, 4, 5]])


@pytest.mark.parametrize("dtype", ["S3", "U2", "V5", [("a", "i4"), ("b", "f8")]])
def test_opaque_elements(dtype):
    data = np.zeros(4, dtype=dtype)
    updates = np.zeros(2, dtype=dtype)
    raw = updates.view(np.uint8)
    raw[:] = np.arange(1, raw.size + 1)
    out = scatter.elements(data, [3, 1], updates)
    assert out[3].tobytes() == updates[0].tobytes() and out[1].tobytes() == updates[1].tobytes()
    assert out[0].tobytes() == data[0].tobytes()


def test_strings_round_trip():
    names = np.array(["ab", "cd", "ef"], dtype="U2")
    out = scatter.rows(names, [2, 0], np.array(["xy", "zw"], dtype="U2"))
    assert out.tolist() == ["zw", "cd", "xy"]


def test_byte_swapped_array_is_refused():
    data = np.zeros(3, dtype=">f4")
    with pytest.raises(scatter.UnsupportedError, match="byte-swapped"):
        scatter.elements(data, [0], np.ones(1, ">f4"))


def test_unaligned_array_is_refused():
    raw = np.zeros(17, np.uint8)
    unaligned = np.frombuffer(raw.data, np.float32, count=3, offset=1)
    assert not unaligned.flags.aligned
    with pytest.raises(scatter.UnsupportedError, match="aligned") as refused:
        scatter.elements(unaligned, [0], np.ones(1, np.float32))
    # The advice in the message works (np.ascontiguousarray would return the same unaligned array).
    assert "data.copy() or np.require(data, requirements='A')" in str(refused.value)
    for fixed in (unaligned.copy(), np.require(unaligned, requirements="A")):
        assert fixed.flags.aligned
        np.testing.assert_array_equal(scatter.elements(fixed, [0], np.ones(1, np.float32)), [1, 0, 0])


def test_mixed_byte_order_strings_are_a_type_mismatch():
    with pytest.raises(scatter.TypeMismatchError):
        scatter.elements(np.zeros(2, "<U2"), [0], np.zeros(1, ">U2"))


def test_read_only_out_is_refused():
    data = np.zeros(3, np.float32)
    data.flags.writeable = False
    with pytest.raises(scatter.InvalidArgumentError):
        scatter.elements(data, [0], np.ones(1, np.float32), out=data)
