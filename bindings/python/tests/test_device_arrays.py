"""Operations on buffers (DeviceArray): no host round trip between chained operations."""
import numpy as np
import pytest

import scatter


@pytest.fixture(params=["cpu", "vulkan"])
def context(request):
    try:
        context = scatter.Context(backend=request.param)
    except scatter.BackendUnavailableError:
        pytest.skip("no Vulkan device here")
    yield context
    context.close()


def test_chained_operations_on_device_arrays(context):
    data = context.to_device(np.zeros((4, 3), np.float32))
    indices = context.to_device(np.array([3, 0, 3]))
    updates = context.to_device(np.ones((3, 3), np.float32))
    result = scatter.rows(data, indices, updates, reduction="add")
    assert isinstance(result, scatter.DeviceArray) and result.shape == (4, 3)
    scatter.rows(result, indices, updates, reduction="add", out=result)  # in place, on the device
    want = np.zeros((4, 3), np.float32)
    want[0] = 2
    want[3] = 4
    np.testing.assert_array_equal(result.numpy(), want)
    np.testing.assert_array_equal(data.numpy(), np.zeros((4, 3), np.float32))


def test_host_inputs_with_a_device_out(context):
    out = context.empty((5,), np.int64)
    scatter.elements(np.arange(5), np.array([4]), np.array([-1]), out=out, context=context)
    np.testing.assert_array_equal(out.numpy(), [0, 1, 2, 3, -1])


def test_failed_operation_leaves_the_device_array_unchanged(context):
    data = context.to_device(np.arange(4, dtype=np.float64))
    with pytest.raises(scatter.IndexOutOfRangeError):
        scatter.elements(data, np.array([9]), np.ones(1), out=data)
    np.testing.assert_array_equal(data.numpy(), [0, 1, 2, 3])


def test_device_array_must_fit_its_buffer(context):
    with pytest.raises(scatter.InvalidArgumentError, match="does not fit"):
        scatter.DeviceArray(context.buffer(8), (4,), np.float32)
