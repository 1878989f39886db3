"""Every exception class, its status name and message, and atomicity after a failure."""
import numpy as np
import pytest

import scatter
from scatter._errors import ERROR_CLASSES, error_for_status


def fresh():
    return np.arange(12, dtype=np.float32).reshape(3, 4)


def assert_fails_atomically(exc_class, call):
    data = fresh()
    out = np.full((3, 4), -1, np.float32)
    with pytest.raises(exc_class) as info:
        call(data, out)
    assert info.value.status == exc_class.status
    assert info.value.message and str(info.value).startswith(exc_class.status)
    np.testing.assert_array_equal(data, fresh())
    np.testing.assert_array_equal(out, np.full((3, 4), -1, np.float32))
    # In place: data itself is out and must be unchanged too.
    with pytest.raises(exc_class):
        call(data, data)
    np.testing.assert_array_equal(data, fresh())


def test_index_out_of_range_names_the_index():
    def call(data, out):
        scatter.elements(data, [[0, 7, 1, 2]], np.ones((1, 4), np.float32), out=out)
    assert_fails_atomically(scatter.IndexOutOfRangeError, call)
    with pytest.raises(scatter.IndexOutOfRangeError, match="7"):
        call(fresh(), None)


def test_bad_axis_is_invalid_argument():
    assert_fails_atomically(scatter.InvalidArgumentError, lambda d, o: scatter.rows(
        d, [0], np.ones((1, 4), np.float32), axis=5, out=o))


def test_integer_division_by_zero_is_invalid_argument():
    data = np.arange(1, 5, dtype=np.int32)
    with pytest.raises(scatter.InvalidArgumentError):
        scatter.elements(data, [0, 1], np.array([3, 0], np.int32), reduction="div", out=data)
    np.testing.assert_array_equal(data, [1, 2, 3, 4])


def test_dtype_mismatch():
    assert_fails_atomically(scatter.TypeMismatchError, lambda d, o: scatter.elements(
        d, [[0]], np.ones((1, 1), np.float64), out=o))


def test_float_indices_are_a_type_mismatch():
    with pytest.raises(scatter.TypeMismatchError):
        scatter.elements(fresh(), np.zeros((1, 1), np.float32), np.ones((1, 1), np.float32))


def test_shape_mismatch():
    assert_fails_atomically(scatter.ShapeMismatchError, lambda d, o: scatter.nd(
        d, [[0, 1]], np.ones((3,), np.float32), out=o))


def test_unsupported_pair():
    data = np.zeros(3, bool)
    with pytest.raises(scatter.UnsupportedError):
        scatter.elements(data, [0], np.ones(1, bool), reduction="max", out=data)
    assert not data.any()


def test_unknown_option_strings_are_invalid_argument():
    with pytest.raises(scatter.InvalidArgumentError, match="reduction"):
        scatter.elements(fresh(), [[0]], np.ones((1, 1), np.float32), reduction="xor")
    with pytest.raises(scatter.InvalidArgumentError, match="out_of_range"):
        scatter.elements(fresh(), [[0]], np.ones((1, 1), np.float32), out_of_range="wrap")
    with pytest.raises(scatter.InvalidArgumentError, match="backend"):
        scatter.Context(backend="metal")


def test_missing_device_is_backend_unavailable():
    with pytest.raises(scatter.BackendUnavailableError):
        scatter.Context(backend="vulkan", device=999)


def test_huge_buffer_is_out_of_memory():
    with scatter.Context(backend="cpu") as context:
        with pytest.raises(scatter.OutOfMemoryError):
            context.buffer(1 << 62)


def test_every_status_has_its_class():
    # DEVICE_LOST and INTERNAL cannot be provoked on purpose; their mapping is checked here.
    names = {code: scatter._lib.scatter_status_name(code).decode() for code in ERROR_CLASSES}
    for code, cls in ERROR_CLASSES.items():
        error = error_for_status(code, "why")
        assert type(error) is cls and isinstance(error, scatter.ScatterError)
        assert error.status == names[code] and error.message == "why"
    assert isinstance(error_for_status(8, ""), scatter.DeviceLostError)
    assert isinstance(error_for_status(9, ""), scatter.InternalError)
    assert error_for_status(1234, "x").status.startswith("SCATTER_STATUS_UNKNOWN")


def test_errors_pickle_with_their_text_once():
    import pickle
    error = scatter.IndexOutOfRangeError("indices[1] = 9 is outside [-3, 3) on axis 0")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is scatter.IndexOutOfRangeError and isinstance(copy, IndexError)
    assert str(copy) == str(error) and copy.message == error.message and copy.status == error.status
