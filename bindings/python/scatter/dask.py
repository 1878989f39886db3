"""scatter.elements / rows / nd on Dask arrays, bitwise equal to one call on the whole array.

The rule (docs/dask.md): each update goes to the block of ``out`` that owns its target; a block's
updates are concatenated in the order of their position in ``indices`` (source blocks in order,
positions within a block in order), and libscatter runs once per block of ``out``. No partial
results are ever combined, so nothing is reassociated: every target sees the same updates in
the same order as in one call on the whole array, and gets the same bits.

Dask is imported when this module is; ``import scatter`` alone never imports it.

    import dask.array as da, numpy as np, scatter.dask
    data = da.zeros((1_000_000, 64), chunks=(250_000, 64), dtype=np.float32)
    out = scatter.dask.rows(data, indices, updates, reduction="add")   # a dask array
    out.compute()

Validation happens before any block of ``out`` is computed: an out-of-range index under
``"error"`` fails the compute with the in-memory call's exception type and message (the first
bad index in row-major order), and shape, dtype and option errors are raised when the graph is
built. ``data`` is never modified: ``out`` is a new array with data's chunks.
"""
import operator
from typing import Any, List, Sequence, Tuple

import dask.array as da
import numpy as np
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from . import _ops
from ._errors import IndexOutOfRangeError, InvalidArgumentError, ShapeMismatchError, TypeMismatchError

__all__ = ["elements", "rows", "nd"]

_POLICIES = ("error", "skip", "clamp")


# ---- pure decisions: where an index goes -------------------------------------------------------

def _targets(values: np.ndarray, size: int, policy: str) -> np.ndarray:
    """Each index as a position in [0, size), or -1 where the update is dropped (skip, or clamp
    into an empty dimension). Under "error" every value is in range already (validated)."""
    values = values.astype(np.int64, copy=False)
    wrapped = np.where(values < 0, values + size, values)
    if policy == "clamp":
        if size == 0:
            return np.full(values.shape, -1, np.int64)
        return np.clip(wrapped, 0, size - 1)
    inside = (wrapped >= 0) & (wrapped < size)
    return np.where(inside, wrapped, -1)


def _first_bad(values: np.ndarray, size: int) -> int:
    """The flat position of the first index outside [-size, size), or -1."""
    values = values.astype(np.int64, copy=False).reshape(-1)
    bad = np.flatnonzero((values < -size) | (values >= size))
    return int(bad[0]) if bad.size else -1


def _block_of(targets: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The block (along one axis with block edges `bounds`) of each target; -1 stays -1."""
    blocks = np.searchsorted(bounds, targets, side="right") - 1
    return np.where(targets < 0, -1, blocks)


def _edges(chunks: Sequence[int]) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(chunks)]).astype(np.int64)


def _index_message(position: Tuple[int, ...], value: int, size: int, axis: int) -> str:
    where = "".join(f"[{p}]" for p in position)
    return f"indices{where} = {value} is outside [{-size}, {size}) on axis {axis}"


# ---- argument handling -------------------------------------------------------------------------

def _as_dask(value, name: str, dtype=None) -> da.Array:
    if isinstance(value, da.Array):
        return value
    array = np.asarray(value) if dtype is None else _ops._exact_array(value, np.dtype(dtype), name)
    return da.from_array(array, chunks=array.shape or ())


def _check_common(data: da.Array, indices: da.Array, updates: da.Array, reduction, out_of_range):
    _ops._choice(_ops.REDUCTIONS, reduction, "reduction", _ops.REDUCTION_ALIASES)
    if out_of_range not in _POLICIES:
        raise InvalidArgumentError(f"out_of_range {out_of_range!r} is not one of {', '.join(_POLICIES)}")
    if indices.dtype not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise TypeMismatchError(f"indices dtype {indices.dtype} must be int32 or int64")
    if updates.dtype != data.dtype:
        raise TypeMismatchError(f"updates dtype {updates.dtype} must equal data dtype {data.dtype}")
    for name, array in (("data", data), ("indices", indices), ("updates", updates)):
        if any(np.isnan(c) for chunks in array.chunks for c in chunks):
            raise ShapeMismatchError(f"{name} has unknown chunk sizes: call compute_chunk_sizes() first")
    if data.ndim == 0:
        raise ShapeMismatchError("data must have rank 1 or more")


def _normalized_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise InvalidArgumentError(f"axis {axis} is outside [{-rank}, {rank})")
    return axis % rank


def _validation(name: str, indices: da.Array, check_block, combine) -> Tuple[dict, Tuple]:
    """Tasks that check every block of `indices` and one that raises for the first failure in
    row-major order; returns (graph, key of the final task)."""
    graph = {}
    keys = []
    for block_index in np.ndindex(*indices.numblocks):
        key = (name + "-check",) + block_index
        graph[key] = (check_block, (indices.name,) + block_index, block_index)
        keys.append(key)
    final = (name + "-valid",)
    graph[final] = (combine, keys)
    return graph, final


# ---- rows and nd: positions route to blocks, the updates move compacted -----------------------

def _route_rows(indices_block, size, policy, bounds):
    """(block of each position, local index of each position) for one block of flat indices."""
    targets = _targets(np.asarray(indices_block).reshape(-1), size, policy)
    blocks = _block_of(targets, bounds)
    return blocks, targets - bounds[np.maximum(blocks, 0)]


def _route_nd(indices_block, sizes, policy, bounds_per_dim):
    """(block coordinates (n, k) of each index tuple or -1 rows, local tuples (n, k))."""
    block = np.asarray(indices_block).reshape(-1, len(sizes))
    targets = np.stack([_targets(block[:, c], sizes[c], policy) for c in range(len(sizes))], axis=1) \
        if len(block) else np.zeros((0, len(sizes)), np.int64)
    dropped = (targets < 0).any(axis=1) if len(block) else np.zeros(0, bool)
    coords = np.stack([_block_of(targets[:, c], bounds_per_dim[c]) for c in range(len(sizes))], axis=1) \
        if len(block) else np.zeros((0, len(sizes)), np.int64)
    coords[dropped] = -1
    local = targets - np.stack([bounds_per_dim[c][np.maximum(coords[:, c], 0)] for c in range(len(sizes))],
                               axis=1) if len(block) else targets
    return coords, local


def _select(route, updates_block, destination, axis, head_dims, index_dtype, nd_form):
    """The part of one updates block whose positions go to `destination`: (local indices,
    updates), both compacted along one position axis (the block's `head_dims` index dimensions
    from `axis` on, merged), in position order."""
    coords, local = route
    if nd_form:
        chosen = np.all(coords == np.asarray(destination), axis=1) if len(coords) else np.zeros(0, bool)
    else:
        chosen = coords == destination
    block = np.asarray(updates_block)
    merged = int(np.prod(block.shape[axis:axis + head_dims], dtype=np.int64))
    block = block.reshape(block.shape[:axis] + (merged,) + block.shape[axis + head_dims:])
    where = np.flatnonzero(chosen)
    return local[where].astype(index_dtype), np.take(block, where, axis=axis)


def _aligned(block) -> np.ndarray:
    # A block a worker process received may sit at any byte offset of its message.
    return np.require(np.asarray(block), requirements="A")


def _apply_block(data_block, parts, function, axis, kwargs, valid):
    """One call of libscatter on one block of out with every update that targets it, in order."""
    del valid  # a dependency only: the validation ran (and did not raise) before any block
    indices = np.concatenate([p[0] for p in parts], axis=0)
    updates = _aligned(np.concatenate([p[1] for p in parts], axis=axis))
    if function is _ops.nd:
        return function(_aligned(data_block), indices, updates, **kwargs)
    return function(_aligned(data_block), indices, updates, axis=axis, **kwargs)


def _scatter_by_positions(data, indices, updates, axis, reduction, exclude_self, out_of_range, nd_form):
    """rows (nd_form False) and nd (True) on dask arrays; see the module's docstring."""
    k = int(indices.shape[-1]) if nd_form and indices.ndim else 0
    if nd_form:
        if indices.ndim == 0 or not 1 <= k <= data.ndim:
            raise ShapeMismatchError(f"indices.shape[-1] must be in [1, {data.ndim}] (rank of data)")
        head = tuple(indices.shape[:-1])
        expected = head + tuple(data.shape[k:])
        scattered_dims = list(range(k))
    else:
        head = tuple(indices.shape)
        expected = tuple(data.shape[:axis]) + head + tuple(data.shape[axis + 1:])
        scattered_dims = [axis]
    if tuple(updates.shape) != expected:
        raise ShapeMismatchError(f"updates.shape {tuple(updates.shape)} must be {expected}")
    token = tokenize(data, indices, updates, axis, reduction, exclude_self, out_of_range, nd_form)
    name = ("scatter-nd-" if nd_form else "scatter-rows-") + token
    sizes = [int(data.shape[d]) for d in scattered_dims]
    pos_axis = 0 if nd_form else axis
    if not head:  # one position: a leading index dimension of 1
        indices = indices[None]
        updates = da.expand_dims(updates, pos_axis)
    q = indices.ndim - (1 if nd_form else 0)  # index dimensions (positions)
    # Blocks of positions along the first index dimension only, so each block is a contiguous
    # range of positions in row-major order; updates' other dimensions chunked as data's.
    indices = indices.rechunk({d: -1 for d in range(1, indices.ndim)})
    kept_dims = [d for d in range(data.ndim) if d not in scattered_dims]
    update_chunks = {pos_axis: indices.chunks[0]}
    update_chunks.update({pos_axis + d: -1 for d in range(1, q)})
    for d in kept_dims:  # rows: data's d before the axis is updates' d, after it d + q - 1; nd: d - k + q
        update_chunks[(d - k + q) if nd_form else (d if d < axis else d + q - 1)] = data.chunks[d]
    updates = updates.rechunk(update_chunks)
    per_row = int(np.prod(indices.shape[1:q], dtype=np.int64))  # positions per step of dim 0
    starts = _edges(indices.chunks[0])[:-1]
    zeros = (0,) * (indices.ndim - 1)

    def check_block(block, block_index):
        if out_of_range != "error":
            return None
        values = np.asarray(block).astype(np.int64).reshape(-1, max(k, 1))
        limits = np.asarray(sizes, np.int64)
        rows_bad = np.flatnonzero(((values < -limits) | (values >= limits)).any(axis=1))
        if not rows_bad.size:
            return None
        row = int(rows_bad[0])
        coord = next(c for c in range(len(sizes)) if not -sizes[c] <= values[row, c] < sizes[c])
        flat_position = int(starts[block_index[0]]) * per_row + row
        position = tuple(int(p) for p in np.unravel_index(flat_position, head)) if head else ()
        if nd_form:
            return _index_message(position + (coord,), int(values[row, coord]), sizes[coord], coord)
        return _index_message(position, int(values[row, 0]), sizes[0], axis)

    def combine(messages):  # blocks in position order: the first message is the first index
        for message in messages:
            if message is not None:
                raise IndexOutOfRangeError(message)
        return True

    graph, valid = _validation(name, indices, check_block, combine)

    # Routing: one task per block of indices, then one selection per (updates block, out block).
    bounds = [_edges(data.chunks[d]) for d in scattered_dims]
    routes = []
    for j in range(indices.numblocks[0]):
        key = (name + "-route", j)
        if nd_form:
            graph[key] = (_route_nd, (indices.name, j) + zeros, sizes, out_of_range, bounds)
        else:
            graph[key] = (_route_rows, (indices.name, j) + zeros, sizes[0], out_of_range, bounds[0])
        routes.append(key)

    function = _ops.nd if nd_form else _ops.rows
    kwargs = dict(reduction=reduction, exclude_self=exclude_self, out_of_range="error")
    for out_block in np.ndindex(*data.numblocks):
        destination = tuple(out_block[d] for d in scattered_dims)
        parts = []
        for j in range(indices.numblocks[0]):
            if nd_form:
                update_block = (updates.name, j) + (0,) * (q - 1) + tuple(out_block[k:])
            else:
                update_block = (updates.name,) + tuple(out_block[:axis]) + (j,) + (0,) * (q - 1) + \
                    tuple(out_block[axis + 1:])
            part = (name + "-part", j) + tuple(out_block)
            graph[part] = (_select, routes[j], update_block, destination if nd_form else destination[0],
                           pos_axis, q, indices.dtype, nd_form)
            parts.append(part)
        graph[(name,) + tuple(out_block)] = (_apply_block, (data.name,) + tuple(out_block), parts, function,
                                             pos_axis, kwargs, valid)
    layer = HighLevelGraph.from_collections(name, graph, dependencies=[data, indices, updates])
    return da.Array(layer, name, chunks=data.chunks, dtype=data.dtype)


def rows(data: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none",
         exclude_self: bool = False, out_of_range: str = "error") -> da.Array:
    """:func:`scatter.rows` on Dask arrays (or numpy arrays mixed in): a new dask array with
    data's chunks, bitwise equal to one in-memory call. Updates move to the block of ``out``
    that owns their target (one all-to-all, like a shuffle); indices and updates may be chunked
    freely, updates' dimensions other than the index ones are rechunked to data's."""
    data = _as_dask(data, "data")
    indices = _as_dask(indices, "indices", np.int64 if not hasattr(indices, "dtype") else None)
    updates = _as_dask(updates, "updates", data.dtype if not hasattr(updates, "dtype") else None)
    _check_common(data, indices, updates, reduction, out_of_range)
    axis = _normalized_axis(axis, data.ndim)
    return _scatter_by_positions(data, indices, updates, axis, reduction, exclude_self, out_of_range, False)


def nd(data: Any, indices: Any, updates: Any, reduction: str = "none", exclude_self: bool = False,
       out_of_range: str = "error") -> da.Array:
    """:func:`scatter.nd` on Dask arrays: indices of shape [..., k], each tuple names a slice of
    data; a new dask array with data's chunks, bitwise equal to one in-memory call."""
    data = _as_dask(data, "data")
    indices = _as_dask(indices, "indices", np.int64 if not hasattr(indices, "dtype") else None)
    updates = _as_dask(updates, "updates", data.dtype if not hasattr(updates, "dtype") else None)
    _check_common(data, indices, updates, reduction, out_of_range)
    return _scatter_by_positions(data, indices, updates, 0, reduction, exclude_self, out_of_range, True)


# ---- elements: whole fibers move, foreign targets are skipped ----------------------------------

def _elements_block(data_block, index_blocks, update_blocks, lo, size, axis, policy, kwargs, valid):
    """One block of out: the indices and updates of its fibers (every block along `axis`, in
    order), targets outside this block marked out of range and skipped."""
    del valid
    indices = np.concatenate([np.asarray(b) for b in index_blocks], axis=axis)
    updates = _aligned(np.concatenate([np.asarray(b) for b in update_blocks], axis=axis))
    data_block = _aligned(data_block)
    width = data_block.shape[axis]
    targets = _targets(indices, size, policy)
    local = targets - lo
    local = np.where((targets < 0) | (local < 0) | (local >= width), width, local)  # width: skipped
    return _ops.elements(data_block, local.astype(indices.dtype), updates, axis=axis,
                         out_of_range="skip", **kwargs)


def elements(data: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none",
             exclude_self: bool = False, out_of_range: str = "error") -> da.Array:
    """:func:`scatter.elements` on Dask arrays: a new dask array with data's chunks, bitwise
    equal to one in-memory call. Each block of out reads the indices and updates of its fibers
    (every position along ``axis``); indices and updates are rechunked to data's chunks on the
    other dimensions."""
    data = _as_dask(data, "data")
    indices = _as_dask(indices, "indices", np.int64 if not hasattr(indices, "dtype") else None)
    updates = _as_dask(updates, "updates", data.dtype if not hasattr(updates, "dtype") else None)
    _check_common(data, indices, updates, reduction, out_of_range)
    axis = _normalized_axis(axis, data.ndim)
    if indices.ndim != data.ndim:
        raise ShapeMismatchError(f"indices rank {indices.ndim} must equal data rank {data.ndim}")
    if tuple(updates.shape) != tuple(indices.shape):
        raise ShapeMismatchError(f"updates.shape {tuple(updates.shape)} must equal indices.shape "
                                 f"{tuple(indices.shape)}")
    for d in range(data.ndim):
        if d != axis and indices.shape[d] > data.shape[d]:
            raise ShapeMismatchError(f"indices.shape[{d}] = {indices.shape[d]} must be at most "
                                     f"data.shape[{d}] = {data.shape[d]}")
    size = int(data.shape[axis])
    # Other dimensions: indices' extent cut along data's chunk edges (it may be shorter).
    chunks = {}
    for d in range(data.ndim):
        if d == axis:
            continue
        edges = [e for e in _edges(data.chunks[d]) if e < indices.shape[d]] + [int(indices.shape[d])]
        chunks[d] = tuple(int(b - a) for a, b in zip(edges[:-1], edges[1:])) or (0,)
    indices = indices.rechunk(chunks)
    updates = updates.rechunk(indices.chunks)
    token = tokenize(data, indices, updates, axis, reduction, exclude_self, out_of_range)
    name = "scatter-elements-" + token
    index_starts = [_edges(c)[:-1] for c in indices.chunks]

    def check_block(block, block_index):
        if out_of_range != "error":
            return None
        block = np.asarray(block)
        flat = _first_bad(block, size)
        if flat < 0:
            return None
        local = np.unravel_index(flat, block.shape)
        position = tuple(int(index_starts[d][block_index[d]] + local[d]) for d in range(block.ndim))
        return (position, int(block.reshape(-1)[flat]))

    def combine(found):
        # Row-major order over the whole tensor, not block order: the smallest position.
        found = [f for f in found if f is not None]
        if found:
            position, value = min(found)
            raise IndexOutOfRangeError(_index_message(position, value, size, axis))
        return True

    graph, valid = _validation(name, indices, check_block, combine)
    kwargs = dict(reduction=reduction, exclude_self=exclude_self)
    bounds = _edges(data.chunks[axis])
    index_blocks_along = indices.numblocks[axis]
    for out_block in np.ndindex(*data.numblocks):
        # The fibers' blocks: out's block on every other dimension, each block along the axis.
        fiber = [out_block[d] for d in range(data.ndim)]
        if any(d != axis and fiber[d] >= indices.numblocks[d] for d in range(data.ndim)) or \
                any(d != axis and chunks[d] == (0,) for d in chunks):
            graph[(name,) + tuple(out_block)] = (np.asarray, (data.name,) + tuple(out_block))
            continue
        index_keys, update_keys = [], []
        for j in range(index_blocks_along):
            fiber[axis] = j
            index_keys.append((indices.name,) + tuple(fiber))
            update_keys.append((updates.name,) + tuple(fiber))
        graph[(name,) + tuple(out_block)] = (_elements_block, (data.name,) + tuple(out_block), index_keys,
                                             update_keys, int(bounds[out_block[axis]]), size, axis,
                                             out_of_range, kwargs, valid)
    layer = HighLevelGraph.from_collections(name, graph, dependencies=[data, indices, updates])
    return da.Array(layer, name, chunks=data.chunks, dtype=data.dtype)
