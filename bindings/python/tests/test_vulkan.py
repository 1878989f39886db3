"""The Vulkan backend through the binding: every op x reduction, bitwise equal to the CPU."""
import numpy as np
import pytest

import scatter
from test_ops import REDUCTIONS, case, supported


@pytest.fixture(scope="module")
def gpu():
    try:
        context = scatter.Context(backend="vulkan")
    except scatter.BackendUnavailableError:
        pytest.skip("no Vulkan device here")
    yield context
    context.close()


@pytest.mark.parametrize("op", ["elements", "rows", "nd"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16", "uint8"])
def test_vulkan_equals_cpu(gpu, op, reduction, dtype):
    if not supported(dtype, reduction):
        pytest.skip("pair is UNSUPPORTED by the contract")
    rng = np.random.default_rng(7)
    data, indices, updates, axis = case(op, rng, dtype, np.int64)
    kwargs = dict(reduction=reduction, exclude_self=reduction == "mean")
    if op != "nd":
        kwargs["axis"] = axis
    function = getattr(scatter, op)
    try:
        got = function(data, indices, updates, context=gpu, **kwargs)
    except scatter.UnsupportedError as e:
        pytest.skip(f"device lacks a feature: {e.message}")
    want = function(data, indices, updates, backend="cpu", **kwargs)
    assert got.tobytes() == want.tobytes()


def test_vulkan_error_leaves_out_unchanged(gpu):
    data = np.arange(4, dtype=np.float32)
    with pytest.raises(scatter.IndexOutOfRangeError):
        scatter.elements(data, [1, 8], np.ones(2, np.float32), out=data, context=gpu)
    np.testing.assert_array_equal(data, [0, 1, 2, 3])
