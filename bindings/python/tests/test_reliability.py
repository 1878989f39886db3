"""Arguments the C ABI cannot take as given: dtypes holding Python objects, and integers that
ctypes would silently cut to their low bits."""
import numpy as np
import pytest

import scatter

OBJECT_RECORD = np.dtype([("value", np.float64), ("label", object)])


def records(n):
    array = np.zeros(n, OBJECT_RECORD)
    array["label"] = [f"label {i}" for i in range(n)]
    return array


@pytest.mark.parametrize("role", ["data", "updates", "out", "indices"])
def test_dtypes_holding_objects_are_a_type_mismatch_in_every_argument(role):
    plain = np.dtype([("value", np.float64), ("label", "S8")])
    args = {"data": np.zeros(4, plain), "indices": np.array([1, 2]), "updates": np.zeros(2, plain),
            "out": np.zeros(4, plain)}
    if role == "indices":
        args["indices"] = np.zeros(2, np.dtype([("i", np.int64), ("o", object)]))
    else:
        args[role] = records(len(args[role]))
    before = {k: v.copy() for k, v in args.items()}
    with pytest.raises(scatter.TypeMismatchError, match="Python objects"):
        scatter.rows(args["data"], args["indices"], args["updates"], out=args["out"])
    for name, array in args.items():
        assert array.tobytes() == before[name].tobytes(), name


def test_nested_object_fields_are_refused_too():
    nested = np.dtype([("inner", [("x", np.int32), ("o", object)])])
    data = np.zeros(3, nested)
    with pytest.raises(scatter.TypeMismatchError):
        scatter.rows(data, np.array([0]), np.zeros(1, nested))


def test_device_arrays_of_object_dtypes_are_refused():
    context = scatter.Context(backend="cpu")
    with pytest.raises(scatter.TypeMismatchError):
        context.empty((4,), OBJECT_RECORD)
    context.close()


def small_call(**options):
    return scatter.elements(np.zeros((2, 3), np.float32), np.zeros((1, 3), np.int64),
                            np.ones((1, 3), np.float32), **options)


@pytest.mark.parametrize("axis", [2 ** 31, 2 ** 32 + 1, -(2 ** 31) - 1, 2 ** 64])
def test_axis_outside_int32_is_invalid_argument(axis):
    out = np.full((2, 3), 7, np.float32)
    with pytest.raises(scatter.InvalidArgumentError, match="axis"):
        small_call(axis=axis, out=out)
    np.testing.assert_array_equal(out, np.full((2, 3), 7, np.float32))


def test_axis_in_range_still_works_with_numpy_integers():
    np.testing.assert_array_equal(small_call(axis=np.int64(0), reduction="add"),
                                  [[1, 1, 1], [0, 0, 0]])
    with pytest.raises(TypeError):
        small_call(axis=1.0)


@pytest.mark.parametrize("threads", [2 ** 32 + 2, -1, 2 ** 64])
def test_threads_outside_uint32_are_invalid_argument(threads):
    with pytest.raises(scatter.InvalidArgumentError, match="threads"):
        scatter.Context(backend="cpu", threads=threads)


@pytest.mark.parametrize("device", [2 ** 32 - 1, 2 ** 31, -(2 ** 31) - 1])
def test_device_outside_int32_is_invalid_argument(device):
    with pytest.raises(scatter.InvalidArgumentError, match="device"):
        scatter.Context(backend="cpu", device=device)


def test_buffer_sizes_and_offsets_outside_uint64_are_invalid_argument():
    context = scatter.Context(backend="cpu")
    with pytest.raises(scatter.InvalidArgumentError, match="size"):
        context.buffer(2 ** 64 + 16)
    with pytest.raises(scatter.InvalidArgumentError, match="size"):
        context.buffer(-1)
    buffer = context.buffer(16)
    array = np.arange(4, dtype=np.float32)
    with pytest.raises(scatter.InvalidArgumentError, match="offset"):
        buffer.write(array, offset=2 ** 64)
    with pytest.raises(scatter.InvalidArgumentError, match="offset"):
        buffer.read(array, offset=-1)
    with pytest.raises(scatter.InvalidArgumentError, match="byte_offset"):
        scatter.DeviceArray(buffer, (1,), np.float32, byte_offset=2 ** 64)
    context.close()


def test_invalid_argument_is_also_a_value_error():
    assert issubclass(scatter.InvalidArgumentError, ValueError)
    assert issubclass(scatter.InvalidArgumentError, scatter.ScatterError)
    with pytest.raises(ValueError):
        small_call(axis=2 ** 40)


def zero_byte_array(dtype, n):
    # np.zeros turns 'S0' and 'U0' into one-character strings; np.ndarray keeps them at 0 bytes.
    return np.ndarray((n,), dtype=np.dtype(dtype))


@pytest.mark.parametrize("dtype", ["V0", "S0", "U0", [("empty", "S0")]])
def test_elements_of_zero_bytes_are_a_type_mismatch(dtype):
    data, updates, out = zero_byte_array(dtype, 4), zero_byte_array(dtype, 2), zero_byte_array(dtype, 4)
    with pytest.raises(scatter.TypeMismatchError, match="0 bytes"):
        scatter.elements(data, [1, 2], updates)
    with pytest.raises(scatter.TypeMismatchError, match="0 bytes"):
        scatter.rows(data, [0], updates[:1], out=out)


def test_device_arrays_of_zero_bytes_are_a_type_mismatch():
    with scatter.Context(backend="cpu") as context:
        with pytest.raises(scatter.TypeMismatchError, match="0 bytes"):
            context.empty((4,), "V0")
        with pytest.raises(scatter.TypeMismatchError, match="0 bytes"):
            scatter.DeviceArray(context.buffer(8), (4,), "S0")
