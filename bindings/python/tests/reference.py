"""A naive scatter reference in plain Python over numpy scalars: the oracle of the tests."""
import itertools

import numpy as np


def _positions(shape):
    return itertools.product(*(range(n) for n in shape))


def _wrap_int(value, dtype):
    info = np.iinfo(dtype)
    span = int(info.max) - int(info.min) + 1
    return dtype.type((int(value) - int(info.min)) % span + int(info.min))


def _step(t, u, reduction, dtype):
    if dtype.kind == "b":
        return {"none": u, "add": t or u, "mul": t and u}[reduction]
    if dtype.kind in "iu":
        a, b = int(t), int(u)
        if reduction == "div":
            q = abs(a) // abs(b)
            return _wrap_int(q if (a < 0) == (b < 0) else -q, dtype)
        value = {"none": b, "add": a + b, "sub": a - b, "mul": a * b,
                 "max": max(a, b), "min": min(a, b)}[reduction]
        return _wrap_int(value, dtype)
    ops = {"none": lambda: u, "add": lambda: t + u, "sub": lambda: t - u, "mul": lambda: t * u,
           "div": lambda: t / u, "max": lambda: max(t, u), "min": lambda: min(t, u)}
    return dtype.type(ops[reduction]())


def _identity(reduction, dtype):
    if reduction in ("add", "sub", "mean"):
        return dtype.type(0)
    if reduction in ("mul", "div"):
        return dtype.type(1)
    info = np.iinfo(dtype) if dtype.kind in "iu" else np.finfo(dtype)
    return dtype.type(info.min if reduction == "max" else info.max)


def _normalize(i, size, out_of_range):
    i = int(i)
    if -size <= i < size:
        return i % size
    if out_of_range == "clamp":
        return min(max(i, 0), size - 1)
    if out_of_range == "skip":
        return None
    raise IndexError(i)


def _targets(op, data, indices, updates, axis, out_of_range):
    """Yields (target position, update value) in row-major order of the update's position."""
    for p in _positions(updates.shape):
        if op == "elements":
            i = _normalize(indices[p], data.shape[axis], out_of_range)
            if i is None:
                continue
            yield p[:axis] + (i,) + p[axis + 1:], updates[p]
        elif op == "rows":
            q = indices.ndim
            where = p[axis:axis + q]
            i = _normalize(indices[where], data.shape[axis], out_of_range)
            if i is None:
                continue
            yield p[:axis] + (i,) + p[axis + q:], updates[p]
        else:
            lead = indices.ndim - 1
            coords = indices[p[:lead]]
            fixed = [_normalize(c, data.shape[d], out_of_range) for d, c in enumerate(coords)]
            if None in fixed:
                continue
            yield tuple(fixed) + p[lead:], updates[p]


def scatter(op, data, indices, updates, axis=0, reduction="none", exclude_self=False,
            out_of_range="error"):
    dtype = data.dtype
    hits = {}
    for target, u in _targets(op, data, indices, updates, axis, out_of_range):
        hits.setdefault(target, []).append(u)
    out = data.copy()
    for target, values in hits.items():
        own = reduction != "none" and exclude_self
        t = _identity(reduction, dtype) if own else data[target]
        if reduction == "mean":
            total = t
            for u in values:
                total = _step(total, u, "add", dtype)
            count = len(values) + (0 if exclude_self else 1)
            if dtype.kind in "iu":
                t = _wrap_int(int(total) // count, dtype)
            else:
                t = dtype.type(total / count)
        else:
            for u in values:
                t = _step(t, u, reduction, dtype)
        out[target] = t
    return out
