"""scatter.dask: scatter on Dask arrays, bitwise equal to one in-memory call (docs/dask.md)."""
import os

import numpy as np
import pytest

dask = pytest.importorskip("dask")
import dask.array as da  # noqa: E402

import scatter  # noqa: E402
import scatter.dask as sd  # noqa: E402

REDUCTIONS = ["none", "add", "sub", "mul", "div", "max", "min", "mean"]
POLICIES = ["error", "skip", "clamp"]
DTYPES = [np.float32, np.float64, np.int32, np.uint8, np.int64]


@pytest.fixture(autouse=True)
def threaded():
    with dask.config.set(scheduler="threads"):
        yield


def values(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    # Nonzero integers: integer div by zero is an error of its own (test_errors_*).
    return rng.integers(1, 5, shape).astype(dtype)


def indices_for(rng, shape, size, policy):
    reach = size if policy == "error" else size + 3
    return rng.integers(-reach, max(reach, 1), shape) if size or policy != "error" else np.zeros(shape, np.int64)


def random_chunks(rng, extent):
    """Uneven chunks: one chunk, a chunk per element, or random cuts."""
    kind = rng.integers(0, 3)
    if extent == 0 or kind == 0:
        return (extent,)
    if kind == 1:
        return (1,) * extent
    cuts = sorted(set(rng.integers(1, extent, rng.integers(0, 4)).tolist())) if extent > 1 else []
    edges = [0] + cuts + [extent]
    return tuple(b - a for a, b in zip(edges[:-1], edges[1:]))


def chunked(rng, array):
    return da.from_array(array, chunks=tuple(random_chunks(rng, n) for n in array.shape))


def same(got, expected, what):
    assert got.dtype == expected.dtype and got.shape == expected.shape, what
    assert got.tobytes() == expected.tobytes(), what


def case_rows(rng, dtype, policy):
    rank = int(rng.integers(1, 4))
    shape = tuple(int(n) for n in rng.integers(1, 6, rank))
    axis = int(rng.integers(-rank, rank))
    head = tuple(int(n) for n in rng.integers(0, 4, rng.integers(0, 3)))
    indices = indices_for(rng, head, shape[axis], policy)
    a = axis % rank
    updates = values(rng, shape[:a] + head + shape[a + 1:], dtype)
    return values(rng, shape, dtype), indices, updates, {"axis": axis}


def case_elements(rng, dtype, policy):
    rank = int(rng.integers(1, 4))
    shape = tuple(int(n) for n in rng.integers(1, 6, rank))
    axis = int(rng.integers(-rank, rank))
    a = axis % rank
    index_shape = tuple(int(rng.integers(0, shape[d] + 1)) if d != a else int(rng.integers(0, 7))
                        for d in range(rank))
    indices = indices_for(rng, index_shape, shape[a], policy)
    return values(rng, shape, dtype), indices, values(rng, index_shape, dtype), {"axis": axis}


def case_nd(rng, dtype, policy):
    rank = int(rng.integers(1, 4))
    shape = tuple(int(n) for n in rng.integers(1, 6, rank))
    k = int(rng.integers(1, rank + 1))
    head = tuple(int(n) for n in rng.integers(0, 5, rng.integers(1, 3)))
    columns = [indices_for(rng, head, shape[c], policy) for c in range(k)]
    indices = np.stack(columns, axis=-1)
    return values(rng, shape, dtype), indices, values(rng, head + shape[k:], dtype), {}


CASES = {"rows": case_rows, "elements": case_elements, "nd": case_nd}


@pytest.mark.parametrize("op", sorted(CASES))
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_random_cases_equal_one_call_bitwise(op, reduction):
    rng = np.random.default_rng(abs(hash((op, reduction))) % 2**32)
    checked = 0
    for _ in range(12):
        dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
        policy = POLICIES[int(rng.integers(0, len(POLICIES)))]
        exclude_self = bool(rng.integers(0, 2))
        data, indices, updates, extra = CASES[op](rng, dtype, policy)
        indices = indices.astype(np.int32 if rng.integers(0, 2) else np.int64)
        kwargs = dict(reduction=reduction, exclude_self=exclude_self, out_of_range=policy, **extra)
        expected = getattr(scatter, op)(data, indices, updates, **kwargs)
        got = getattr(sd, op)(chunked(rng, data), chunked(rng, indices), chunked(rng, updates), **kwargs)
        assert isinstance(got, da.Array) and got.chunks is not None
        same(got.compute(), expected, (op, kwargs, data.shape, indices.shape))
        checked += 1
    assert checked == 12


def test_every_update_into_one_block_and_numpy_inputs_mixed_in():
    rng = np.random.default_rng(7)
    data = rng.standard_normal((40, 3)).astype(np.float32)
    indices = np.full(500, 37)
    indices[::7] = -1  # the same row (39) from the back
    updates = rng.standard_normal((500, 3)).astype(np.float32)
    for reduction in ("none", "add", "mean", "mul"):
        expected = scatter.rows(data, indices, updates, reduction=reduction)
        got = sd.rows(da.from_array(data, chunks=(7, 2)), indices, da.from_array(updates, chunks=(33, 1)),
                      reduction=reduction)
        same(got.compute(), expected, reduction)


def test_empty_indices_copy_data_and_data_is_never_changed():
    data = np.arange(12, dtype=np.float64).reshape(4, 3)
    before = data.copy()
    got = sd.rows(da.from_array(data, chunks=2), np.zeros(0, np.int64), np.zeros((0, 3)), reduction="add")
    same(got.compute(), before, "empty")
    got = sd.elements(data, np.array([[3, 0, 1]]), np.array([[1.0, 2.0, 3.0]]), reduction="add").compute()
    assert np.array_equal(data, before) and got[3, 0] == 10.0


def run_counted(monkeypatch):
    """Counts the in-memory calls the blocks make."""
    calls = []
    for name in ("rows", "elements", "nd"):
        original = getattr(scatter._ops, name)
        monkeypatch.setattr(sd._ops, name, lambda *a, _f=original, **k: calls.append(1) or _f(*a, **k))
    return calls


@pytest.mark.parametrize("op", sorted(CASES))
def test_an_out_of_range_index_fails_like_one_call_before_any_block(op, monkeypatch):
    data = np.zeros((6, 4), np.float32)
    if op == "rows":
        indices, updates = np.array([[0, 5], [6, 1], [9, 9]]), np.ones((3, 2, 4), np.float32)
    elif op == "elements":
        indices, updates = np.array([[0, 5, 1, 1], [6, 1, 0, 7]]), np.ones((2, 4), np.float32)
    else:
        indices, updates = np.array([[0, 1], [2, 4], [1, 9]]), np.ones(3, np.float32)
    with pytest.raises(IndexError) as expected:
        getattr(scatter, op)(data, indices, updates)
    calls = run_counted(monkeypatch)
    lazy = getattr(sd, op)(da.from_array(data, chunks=(2, 3)), da.from_array(indices, chunks=1), updates)
    with pytest.raises(type(expected.value)) as got:
        lazy.compute()
    assert str(got.value) == str(expected.value)
    assert calls == []


def test_bad_shapes_types_and_options_fail_when_the_graph_is_built():
    data = da.zeros((4, 3), chunks=2, dtype=np.float32)
    with pytest.raises(ValueError):
        sd.rows(data, np.array([0, 1]), np.ones((3, 3), np.float32))
    with pytest.raises(TypeError):
        sd.rows(data, np.array([0, 1]), np.ones((2, 3), np.float64))
    with pytest.raises(TypeError):
        sd.rows(data, np.array([0.0, 1.0]), np.ones((2, 3), np.float32))
    with pytest.raises(ValueError):
        sd.rows(data, np.array([0, 1]), np.ones((2, 3), np.float32), reduction="median")
    with pytest.raises(ValueError):
        sd.rows(data, np.array([0, 1]), np.ones((2, 3), np.float32), out_of_range="wrap")
    with pytest.raises(ValueError):
        sd.rows(data, np.array([0, 1]), np.ones((2, 3), np.float32), axis=2)
    with pytest.raises(ValueError):
        sd.elements(data, np.zeros((5, 3), np.int64), np.ones((5, 3), np.float32), axis=1)
    with pytest.raises(ValueError):
        sd.nd(data, np.zeros((2, 3), np.int64), np.ones(2, np.float32))


@pytest.mark.skipif(os.environ.get("SCATTER_TEST_INSTALLED") == "1",
                    reason="the wheel's run checks the package; the cluster runs from the source tree")
def test_on_a_local_cluster_of_worker_processes():
    distributed = pytest.importorskip("distributed")
    rng = np.random.default_rng(11)
    data = rng.standard_normal((300, 8)).astype(np.float32)
    indices = rng.integers(-300, 300, (20, 50))
    updates = rng.standard_normal((20, 50, 8)).astype(np.float32)
    expected = scatter.rows(data, indices, updates, reduction="add")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        got = sd.rows(da.from_array(data, chunks=(70, 4)), da.from_array(indices, chunks=(6, 13)),
                      da.from_array(updates, chunks=(5, 20, 8)), reduction="add")
        same(client.compute(got).result(), expected, "cluster")
        with pytest.raises(IndexError) as expected_error:
            scatter.rows(data, indices + 300, updates)
        bad = sd.rows(da.from_array(data, chunks=70), indices + 300, updates)
        with pytest.raises(IndexError) as error:  # pickled back from a worker: the same text
            client.compute(bad).result()
        assert str(error.value) == str(expected_error.value)


@pytest.mark.skipif(os.environ.get("SCATTER_TEST_INSTALLED") == "1",
                    reason="the wheel's run checks the package; the cluster runs from the source tree")
def test_a_worker_killed_mid_compute_changes_nothing():
    distributed = pytest.importorskip("distributed")
    import signal
    import time

    rng = np.random.default_rng(12)
    data = rng.standard_normal((240, 4)).astype(np.float32)
    indices = rng.integers(0, 240, 3000)
    updates = rng.standard_normal((3000, 4)).astype(np.float32)
    expected = scatter.rows(data, indices, updates, reduction="add")

    def slow(block):  # a closure: pickled by value to the workers
        time.sleep(0.4)
        return block

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        slow_data = da.from_array(data, chunks=(30, 4)).map_blocks(slow, dtype=data.dtype)
        future = client.compute(sd.rows(slow_data, da.from_array(indices, chunks=500),
                                        da.from_array(updates, chunks=(500, 4)), reduction="add"))
        pids = list(client.run(os.getpid).values())
        time.sleep(1.0)  # 8 slow blocks on 2 single-thread workers: about 1.6 s of work
        assert not future.done()
        os.kill(pids[0], signal.SIGKILL)
        same(future.result(timeout=120), expected, "after a killed worker")
