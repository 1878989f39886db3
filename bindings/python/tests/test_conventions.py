"""Python conventions: builtin exception classes, no silent casts, torch and DLPack inputs,
devices(), the log hook, type information."""
import logging
import os

import numpy as np
import pytest

import scatter


@pytest.mark.parametrize("call, builtin", [
    (lambda: scatter.elements(np.zeros(3), [7], np.ones(1)), IndexError),
    (lambda: scatter.elements(np.zeros(3, np.float32), np.array([0]), np.ones(1, np.float64)), TypeError),
    (lambda: scatter.elements(np.zeros(3), np.array([0, 1]), np.ones(3)), ValueError),
    (lambda: scatter.elements(np.zeros(3), [0], np.ones(1), reduction="xor"), ValueError),
    (lambda: scatter.elements(np.zeros(3, bool), [0], np.ones(1, bool), reduction="max"), RuntimeError),
])
def test_every_error_is_also_the_matching_builtin(call, builtin):
    with pytest.raises(builtin) as caught:
        call()
    assert isinstance(caught.value, scatter.ScatterError)


def test_the_builtin_bases():
    assert issubclass(scatter.OutOfMemoryError, MemoryError)
    for cls in (scatter.UnsupportedError, scatter.BackendUnavailableError, scatter.DeviceLostError,
                scatter.InternalError):
        assert issubclass(cls, RuntimeError)
    assert issubclass(scatter.ShapeMismatchError, ValueError)


@pytest.mark.parametrize("dtype, updates", [
    (np.int32, [1.5]), (np.int32, [2 ** 40]), (np.uint8, [-1]), (np.bool_, [2]), (np.int64, [float("nan")]),
    (np.float32, [1e40]), (np.float64, [1 + 2j]),
])
def test_list_updates_that_would_change_are_refused(dtype, updates):
    data = np.zeros(3, dtype)
    with pytest.raises(scatter.TypeMismatchError, match="data dtype"):
        scatter.elements(data, [0], updates)
    assert not data.any()


@pytest.mark.parametrize("dtype, updates, expected", [
    (np.int32, [7.0], 7), (np.int8, [-128], -128), (np.bool_, [1], True), (np.float32, [0.1], np.float32(0.1)),
    (np.float16, [1e-9], 0.0), (np.complex64, [1.5], 1.5), (np.uint64, [2 ** 63], 2 ** 63),
])
def test_list_updates_that_keep_their_value_convert(dtype, updates, expected):
    out = scatter.elements(np.zeros(2, dtype), [1], updates)
    assert out.dtype == dtype and out[1] == expected


def test_list_indices_must_be_integers():
    with pytest.raises(scatter.TypeMismatchError):
        scatter.elements(np.zeros(3), [0.5], [1.0])
    assert scatter.elements(np.zeros(3), [2.0], [1.0]).tolist() == [0, 0, 1]


def test_torch_tensors_in_and_out():
    torch = pytest.importorskip("torch")
    data = torch.arange(4, dtype=torch.float32)
    result = scatter.elements(data, torch.tensor([1, 1]), torch.ones(2), reduction="add")
    assert isinstance(result, torch.Tensor) and result.tolist() == [0, 3, 2, 3]
    assert data.tolist() == [0, 1, 2, 3]
    out = torch.zeros(4)
    assert scatter.rows(data, [3], torch.tensor([9.0]), out=out) is out
    assert out.tolist() == [0, 1, 2, 9]
    scatter.elements(data, [0], [5.0], out=data)  # in place, through the same memory
    assert data.tolist() == [5, 1, 2, 3]
    grad = torch.zeros(2, requires_grad=True)
    assert scatter.elements(grad, [1], [1.0]).tolist() == [0, 1]


def test_dlpack_and_array_interface_inputs():
    class ViaDlpack:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__()

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    class ViaArray:
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None):
            return self.a

    data = np.zeros(4, np.float32)
    out = scatter.elements(data, ViaDlpack(np.array([2])), ViaArray(np.ones(1, np.float32)))
    assert isinstance(out, np.ndarray) and out.tolist() == [0, 0, 1, 0]


def test_devices_lists_the_cpu_first():
    devices = scatter.devices()
    assert devices[0].backend == "cpu" and devices[0].type == "cpu"
    assert devices[0].thread_count >= 1 and devices[0].max_buffer_range == 2 ** 64 - 1
    for d in devices[1:]:
        assert d.backend == "vulkan" and d.name and d.api_version.count(".") == 2


def test_log_hook_receives_lines_and_survives_a_raising_handler(caplog):
    lines = []
    with scatter.Context(backend="cpu", log=lambda level, message: lines.append((level, message))) as c:
        scatter.elements(np.zeros(2), [0], [1.0], context=c)
    assert all(level in ("debug", "info", "warning", "error") for level, _ in lines)
    if any(d.backend == "vulkan" for d in scatter.devices()):
        lines.clear()
        with scatter.Context(backend="vulkan", log=lambda level, message: lines.append((level, message))):
            pass
        assert any(level == "info" and "Vulkan device" in message for level, message in lines)

        def broken(level, message):
            raise RuntimeError("handler bug")
        with caplog.at_level(logging.ERROR, logger="scatter"):
            with scatter.Context(backend="vulkan", log=broken):
                pass
        assert "log handler raised" in caplog.text
    with pytest.raises(TypeError):
        scatter.Context(backend="cpu", log=42)
    with scatter.Context(backend="cpu", log="logging"):
        pass


def test_the_package_is_typed():
    assert os.path.exists(os.path.join(os.path.dirname(scatter.__file__), "py.typed"))
    assert scatter.elements.__annotations__["axis"] is int
    for function in (scatter.elements, scatter.rows, scatter.nd, scatter.devices):
        assert "Returns\n    -------" in function.__doc__
