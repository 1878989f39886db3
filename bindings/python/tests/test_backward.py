"""The backward calls through the Python binding, with PyTorch's autograd as the external oracle:
scatter, scatter_add, scatter_reduce (sum, prod, mean, amax, amin; both include_self),
index_add, index_reduce, gather and index_select. Compared exactly (np.array_equal: the same
values, +0 and -0 alike) wherever PyTorch's CPU result is deterministic, with the documented
differences (docs/semantics.md, "Backward") left out of the exact comparison and checked apart."""
import numpy as np
import pytest

import scatter

torch = pytest.importorskip("torch")

DTYPES = [torch.float32, torch.float64]
PICKS = np.array([0.0, 1.0, -1.0, 2.0, 0.5, -2.0, 3.0, 1.5, -0.5])


def values(rng, shape, dtype, zeros=True):
    """Many ties (small picks), some random values; zeros only when asked."""
    picks = PICKS if zeros else PICKS[PICKS != 0]
    v = np.where(rng.random(shape) < 0.6, rng.choice(picks, shape), rng.uniform(-4, 4, shape))
    if not zeros:
        v[v == 0] = 1.0
    return torch.tensor(v, dtype=dtype)


def torch_grads(forward, *inputs, grad):
    leaves = [t.detach().clone().requires_grad_(True) for t in inputs]
    out = forward(*leaves)
    out.backward(grad)
    return out.detach(), [leaf.grad for leaf in leaves]


def hits(index, dim, shape):
    """Targets of data that an update reaches (scatter_elements)."""
    mask = torch.zeros(shape, dtype=torch.bool)
    return mask.scatter(dim, index, torch.ones(index.shape, dtype=torch.bool)).numpy()


def equal(ours, theirs, where=None):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    if where is not None:
        ours, theirs = ours[where], theirs[where]
    assert np.array_equal(ours, theirs), f"\nours   {ours}\ntheirs {theirs}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_scatter_reduce_gradients_match_torch(dtype, reduce, include_self, seed):
    rng = np.random.default_rng(seed)
    dim = seed % 2
    shape = (5, 4)
    index_shape = (7, 4) if dim == 0 else (5, 6)
    index = torch.tensor(rng.integers(0, shape[dim] - 2, index_shape))  # duplicates, untouched
    data = values(rng, shape, dtype, zeros=reduce == "prod")
    src = values(rng, index_shape, dtype, zeros=reduce == "prod")
    grad = values(rng, shape, dtype)
    out, (grad_data, grad_src) = torch_grads(
        lambda d, s: d.scatter_reduce(dim, index, s, reduce, include_self=include_self), data, src,
        grad=grad)
    ours_data, ours_src = scatter.elements_backward(
        data, index, src, grad, out=out, axis=dim, reduction=reduce, exclude_self=not include_self,
        backend="cpu")
    hit = hits(index, dim, shape)
    if reduce == "prod":
        # PyTorch gives an untouched target grad * data / data; we give grad itself.
        equal(ours_data, grad_data, hit)
        np.testing.assert_allclose(ours_data.numpy()[~hit], grad_data.numpy()[~hit], rtol=1e-6)
        assert np.array_equal(ours_data.numpy()[~hit], grad.numpy()[~hit])
    else:
        equal(ours_data, grad_data)
    if reduce in ("amax", "amin") and not include_self:
        # PyTorch still counts data[t] among the ties when it equals the result, then drops its
        # share; we leave data out under exclude_self (the shares sum to grad).
        self_tie = torch.tensor(hit & (data == out).numpy())
        keep = ~self_tie.gather(dim, index).numpy()
        equal(ours_src, grad_src, keep)
    else:
        equal(ours_src, grad_src)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(4))
def test_scatter_add_and_duplicate_free_scatter_match_torch(dtype, seed):
    rng = np.random.default_rng(seed)
    data = values(rng, (6, 5), dtype)
    grad = values(rng, (6, 5), dtype)
    index = torch.tensor(rng.integers(0, 6, (8, 5)))
    src = values(rng, (8, 5), dtype)
    _, (gd, gs) = torch_grads(lambda d, s: d.scatter_add(0, index, s), data, src, grad=grad)
    ours = scatter.elements_backward(data, index, src, grad, reduction="add", backend="cpu")
    equal(ours[0], gd)
    equal(ours[1], gs)
    # torch.scatter is deterministic only without duplicates: a permutation per column.
    unique = torch.tensor(np.stack([rng.permutation(6)[:4] for _ in range(5)], axis=1))
    src = values(rng, (4, 5), dtype)
    _, (gd, gs) = torch_grads(lambda d, s: d.scatter(0, unique, s), data, src, grad=grad)
    ours = scatter.elements_backward(data, unique, src, grad, reduction="none", backend="cpu")
    equal(ours[0], gd)
    equal(ours[1], gs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduce", ["add", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_add_and_index_reduce_match_torch(dtype, reduce, include_self):
    rng = np.random.default_rng(3)
    data = values(rng, (5, 3), dtype, zeros=False)
    index = torch.tensor([0, 2, 0, 1, 2, 0])
    src = values(rng, (6, 3), dtype, zeros=False)
    grad = values(rng, (5, 3), dtype)
    if reduce == "add":
        if not include_self:
            pytest.skip("index_add has no include_self")
        forward = lambda d, s: d.index_add(0, index, s)
    else:
        forward = lambda d, s: d.index_reduce(0, index, s, reduce, include_self=include_self)
    try:
        out, (gd, gs) = torch_grads(forward, data, src, grad=grad)
    except RuntimeError as e:  # a gradient this PyTorch does not define
        pytest.skip(str(e))
    ours_data, ours_src = scatter.rows_backward(
        data, index, src, grad, out=out, reduction=reduce, exclude_self=not include_self, backend="cpu")
    hit = np.zeros((5, 3), bool)
    hit[index.numpy()] = True
    if reduce in ("amax", "amin") and not include_self:
        keep = ~((hit & (data == out).numpy())[index.numpy()])
        equal(ours_src, gs, keep)
        equal(ours_data, gd)
        return
    equal(ours_data, gd, hit if reduce == "prod" else None)
    equal(ours_src, gs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", range(4))
def test_gather_and_index_select_gradients_match_torch(dtype, seed):
    rng = np.random.default_rng(seed)
    data = values(rng, (6, 5), dtype)
    dim = seed % 2
    index = torch.tensor(rng.integers(0, 3, (9, 5) if dim == 0 else (6, 9)))
    grad = values(rng, tuple(index.shape), dtype)
    _, (gd,) = torch_grads(lambda d: torch.gather(d, dim, index), data, grad=grad)
    equal(scatter.gather_elements_backward(index, grad, data.shape, axis=dim, backend="cpu"), gd)
    rows = torch.tensor(rng.integers(0, 3, 11))
    grad = values(rng, (11, 5), dtype)
    _, (gd,) = torch_grads(lambda d: torch.index_select(d, 0, rows), data, grad=grad)
    equal(scatter.gather_rows_backward(rows, grad, data.shape, backend="cpu"), gd)


def test_gather_nd_backward_sums_duplicates_and_drops_filled_positions():
    indices = np.array([[1], [1], [5], [-1]])
    grad = np.array([[1, 2], [10, 20], [100, 200], [1000, 2000]], np.float32)
    result = scatter.gather_nd_backward(indices, grad, (3, 2), out_of_range="fill", backend="cpu")
    assert result.tolist() == [[0, 0], [11, 22], [1000, 2000]]


def test_backward_errors_are_builtin_exceptions():
    data = np.zeros(4, np.int32)
    with pytest.raises(TypeError):
        scatter.elements_backward(data, [0], np.ones(1, np.int32), np.zeros(4, np.int32), reduction="add")
    f = np.zeros(4, np.float32)
    with pytest.raises(IndexError):
        scatter.elements_backward(f, [9], np.ones(1, np.float32), f, reduction="add", backend="cpu")
    with pytest.raises(ValueError):
        scatter.elements_backward(f, [0], np.ones(1, np.float32), f, reduction="max")  # no out
    with pytest.raises(ValueError):
        scatter.elements_backward(f, [0], np.ones(1, np.float32), np.zeros(5, np.float32), reduction="add")
    with pytest.raises(ValueError):
        scatter.gather_rows_backward([0], np.ones(1, np.float32), (4,), out_of_range="skip")
