"""Contexts, backends, buffers and the library lookup."""
import os
import subprocess
import sys

import numpy as np
import pytest

import scatter


def test_cpu_context_with_threads():
    with scatter.Context(backend="cpu", threads=2) as context:
        assert context.backend == "cpu"
        out = scatter.elements(np.zeros(3, np.float32), [1], np.ones(1, np.float32),
                               context=context)
        np.testing.assert_array_equal(out, [0, 1, 0])


def test_closed_context_is_refused():
    context = scatter.Context(backend="cpu")
    context.close()
    with pytest.raises(scatter.InvalidArgumentError):
        scatter.elements(np.zeros(3), [1], np.ones(1), context=context)


def vulkan_context():
    try:
        return scatter.Context(backend="vulkan")
    except scatter.BackendUnavailableError:
        pytest.skip("no Vulkan device here")


def test_vulkan_matches_cpu_bitwise():
    rng = np.random.default_rng(3)
    data = rng.standard_normal((64, 8)).astype(np.float32)
    indices = rng.integers(-64, 64, size=(200, 8))
    updates = rng.standard_normal((200, 8)).astype(np.float32)
    with vulkan_context() as gpu:
        assert gpu.backend == "vulkan"
        got = scatter.elements(data, indices, updates, reduction="add", context=gpu)
    want = scatter.elements(data, indices, updates, reduction="add", backend="cpu")
    assert got.tobytes() == want.tobytes()


def test_buffer_round_trip():
    with scatter.Context(backend="cpu") as context:
        buffer = context.buffer(16)
        assert buffer.size == 16
        buffer.write(np.arange(4, dtype=np.int32))
        back = np.zeros(4, np.int32)
        buffer.read(back)
        np.testing.assert_array_equal(back, [0, 1, 2, 3])
        with pytest.raises(scatter.InvalidArgumentError):
            buffer.read(back, offset=8)
        buffer.close()


def test_library_path_and_version():
    assert os.path.exists(scatter.library_path)
    assert scatter.library_version.startswith("0.")


def test_bad_scatter_library_variable_gives_a_clear_import_error():
    env = dict(os.environ, SCATTER_LIBRARY="/nonexistent/libscatter.so")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    result = subprocess.run([sys.executable, "-c", "import scatter"], cwd=here, env=env,
                            capture_output=True, text=True)
    assert result.returncode != 0
    assert "SCATTER_LIBRARY" in result.stderr
