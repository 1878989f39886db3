"""Random cases through `scatter run`, checked against PyTorch's own scatter operators:
elements ~ scatter_/scatter_reduce_, rows ~ index_copy_/index_add_/index_reduce_,
nd ~ index_put_. Exact for none/max/min and integers, allclose otherwise (PyTorch may sum in
another order)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

DTYPES = [np.float32, np.float64, np.int32, np.int64]
CASES_PER_TEST = 8

ELEMENT_REDUCTIONS = {"none": None, "add": "sum", "mul": "prod", "max": "amax", "min": "amin",
                      "mean": "mean"}
ROW_REDUCTIONS = {"mul": "prod", "mean": "mean", "max": "amax", "min": "amin"}


def random_values(rng, dtype, shape):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-6, 7, shape).astype(dtype)
    return rng.normal(size=shape).astype(dtype)


def random_shape(rng, rank):
    return tuple(int(s) for s in rng.integers(1, 6, rank))


def exact(reduction, dtype):
    return reduction in ("none", "max", "min") or np.issubdtype(dtype, np.integer)


def check(runner, op, data, indices, updates, flags, expected, reduction):
    proc, out = runner.run(op, data, indices, updates, *flags)
    case = (f"{op} {' '.join(map(str, flags))} {data.dtype} data{list(data.shape)} "
            f"indices{list(indices.shape)}={indices.tolist()}")
    assert proc.returncode == 0, f"{case}: {proc.stderr}"
    assert out.dtype == data.dtype and out.shape == data.shape, case
    if exact(reduction, data.dtype):
        np.testing.assert_array_equal(out, expected, err_msg=case)
    else:
        tolerance = 1e-5 if data.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(out, expected, rtol=tolerance, atol=tolerance, err_msg=case)


def cases(seed):
    rng = np.random.default_rng(seed)
    for case in range(CASES_PER_TEST):
        yield rng, DTYPES[case % len(DTYPES)], bool(case % 2)


@pytest.mark.parametrize("reduction", sorted(ELEMENT_REDUCTIONS))
def test_elements_against_scatter_reduce(runner, reduction):
    for rng, dtype, include_self in cases(sum(map(ord, reduction))):
        rank = int(rng.integers(1, 4))
        shape = random_shape(rng, rank)
        axis = int(rng.integers(0, rank))
        index_shape = tuple(int(rng.integers(1, s + 1)) for s in shape)
        data = random_values(rng, dtype, shape)
        updates = random_values(rng, dtype, index_shape)
        if reduction == "none":
            # Unique targets per line: PyTorch leaves the winner of duplicates unspecified.
            lines = np.moveaxis(np.zeros(index_shape), axis, -1).shape
            rows = [rng.permutation(shape[axis])[: lines[-1]] for _ in range(int(np.prod(lines[:-1])))]
            indices = np.moveaxis(np.array(rows, np.int64).reshape(lines), -1, axis)
            expected = torch.from_numpy(data.copy()).scatter_(axis, torch.from_numpy(indices),
                                                              torch.from_numpy(updates))
            flags = ["--axis", axis]
        else:
            indices = rng.integers(0, shape[axis], index_shape)
            expected = torch.from_numpy(data.copy()).scatter_reduce_(
                axis, torch.from_numpy(indices), torch.from_numpy(updates),
                ELEMENT_REDUCTIONS[reduction], include_self=include_self)
            flags = ["--axis", axis, "--reduction", reduction] + ([] if include_self else ["--exclude-self"])
        check(runner, "elements", data, indices, updates, flags, expected.numpy(), reduction)


@pytest.mark.parametrize("reduction", ["none", "add"] + sorted(ROW_REDUCTIONS))
def test_rows_against_index_ops(runner, reduction):
    for rng, dtype, include_self in cases(100 + len(reduction)):
        rank = int(rng.integers(1, 4))
        shape = random_shape(rng, rank)
        axis = int(rng.integers(0, rank))
        if reduction == "none":
            indices = rng.permutation(shape[axis])[: int(rng.integers(1, shape[axis] + 1))]
        else:
            indices = rng.integers(0, shape[axis], int(rng.integers(1, 8)))
        updates_shape = shape[:axis] + (len(indices),) + shape[axis + 1:]
        data = random_values(rng, dtype, shape)
        updates = random_values(rng, dtype, updates_shape)
        self_tensor = torch.from_numpy(data.copy())
        index, source = torch.from_numpy(indices), torch.from_numpy(updates)
        flags = ["--axis", axis, "--reduction", reduction]
        if reduction == "none":
            expected = self_tensor.index_copy_(axis, index, source)
        elif reduction == "add":
            expected = self_tensor.index_add_(axis, index, source)
        else:
            expected = self_tensor.index_reduce_(axis, index, source, ROW_REDUCTIONS[reduction],
                                                 include_self=include_self)
            flags += [] if include_self else ["--exclude-self"]
        check(runner, "rows", data, indices, updates, flags, expected.numpy(), reduction)


@pytest.mark.parametrize("reduction", ["none", "add"])
def test_nd_against_index_put(runner, reduction):
    for rng, dtype, _ in cases(200 + len(reduction)):
        rank = int(rng.integers(1, 4))
        shape = random_shape(rng, rank)
        depth = int(rng.integers(1, rank + 1))
        batch = int(rng.integers(1, 7))
        if reduction == "none":
            flat = rng.permutation(int(np.prod(shape[:depth])))[: min(batch, int(np.prod(shape[:depth])))]
            indices = np.stack(np.unravel_index(flat, shape[:depth]), axis=-1).astype(np.int64)
        else:
            indices = np.stack([rng.integers(0, s, batch) for s in shape[:depth]], axis=-1)
        data = random_values(rng, dtype, shape)
        updates = random_values(rng, dtype, indices.shape[:-1] + shape[depth:])
        expected = torch.from_numpy(data.copy()).index_put_(
            tuple(torch.from_numpy(indices[..., j].copy()) for j in range(depth)),
            torch.from_numpy(updates), accumulate=reduction == "add")
        check(runner, "nd", data, indices, updates, ["--reduction", reduction], expected.numpy(), reduction)
