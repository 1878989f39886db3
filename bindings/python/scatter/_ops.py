"""scatter.elements / rows / nd on numpy arrays."""
import ctypes

import numpy as np

from ._context import Context, DeviceArray, check, default_context
from ._errors import InvalidArgumentError, TypeMismatchError, c_integer
from ._library import Options, lib
from ._tensor import TensorView

REDUCTIONS = {"none": 1, "add": 2, "sub": 3, "mul": 4, "div": 5, "max": 6, "min": 7, "mean": 8}
# The names users bring from PyTorch (scatter_reduce: sum, prod, amax, amin) and ONNX (multiply).
REDUCTION_ALIASES = {"sum": "add", "prod": "mul", "multiply": "mul", "amax": "max", "amin": "min"}
OUT_OF_RANGE = {"error": 1, "skip": 2, "clamp": 3}
_OPTION_EXCLUDE_SELF = 0x1


def _choice(table, value, what, aliases=None):
    aliases = aliases or {}
    try:
        return table[aliases.get(value, value)]
    except (KeyError, TypeError):
        also = f" (or {', '.join(aliases)})" if aliases else ""
        raise InvalidArgumentError(
            f"{what} {value!r} is not one of {', '.join(table)}{also}") from None


def _as_array(value, dtype=None):
    # Arrays pass through untouched (no copy, no cast); lists and scalars become new arrays.
    if isinstance(value, (np.ndarray, DeviceArray)):
        return value
    return np.asarray(value, dtype=dtype)


def _run(c_function, data, indices, updates, axis, reduction, exclude_self, out_of_range,
         backend, out, context):
    data = _as_array(data)
    indices = _as_array(indices)
    updates = _as_array(updates, dtype=data.dtype)
    # Checked first, before any rule that compares dtypes, so the message names the real problem.
    for name, array in (("data", data), ("indices", indices), ("updates", updates), ("out", out)):
        if isinstance(array, (np.ndarray, DeviceArray)) and array.dtype.hasobject:
            raise TypeMismatchError(f"{name} dtype {array.dtype} holds Python objects, which have no "
                                    f"bytes to scatter")
    options = Options(struct_size=ctypes.sizeof(Options), axis=c_integer(axis, "int32", "axis"),
                      reduction=_choice(REDUCTIONS, reduction, "reduction", REDUCTION_ALIASES),
                      out_of_range=_choice(OUT_OF_RANGE, out_of_range, "out_of_range"),
                      flags=_OPTION_EXCLUDE_SELF if exclude_self else 0)
    if context is None:
        # Device arrays name their context; host arrays use the shared one of `backend`.
        on_device = [a for a in (data, indices, updates, out) if isinstance(a, DeviceArray)]
        context = on_device[0].context if on_device else default_context(backend)
    elif not isinstance(context, Context):
        raise TypeError("context must be a scatter.Context")
    # Opaque elements are compared as bytes by the library; '<U3' vs '>U3' must not mix.
    if data.dtype.kind in "SUV" and updates.dtype != data.dtype:
        raise TypeMismatchError(f"updates dtype {updates.dtype} must equal data dtype {data.dtype}")
    if out is None:
        out = context.empty(data.shape, data.dtype) if isinstance(data, DeviceArray) \
            else np.empty_like(data)
    elif not isinstance(out, DeviceArray):
        if not isinstance(out, np.ndarray):
            raise TypeError("out must be a numpy array or a scatter.DeviceArray")
        if not out.flags.writeable:
            raise InvalidArgumentError("out is read-only")
        if data.dtype.kind in "SUV" and out.dtype != data.dtype:
            raise TypeMismatchError(f"out dtype {out.dtype} must equal data dtype {data.dtype}")
    views = [TensorView(a, n) for a, n in
             ((data, "data"), (indices, "indices"), (updates, "updates"), (out, "out"))]
    check(c_function(context.handle, views[0].pointer(), views[1].pointer(),
                     views[2].pointer(), ctypes.byref(options), views[3].pointer()))
    return out


def elements(data, indices, updates, axis=0, reduction="none", exclude_self=False,
             out_of_range="error", backend="auto", out=None, context=None):
    """ONNX ScatterElements / torch.scatter_reduce: updates[p] goes to p with p[axis]=indices[p].

    Returns `out` (a new array when not given; out=data works in place). Raises a
    ScatterError subclass on failure, leaving out (and data) unchanged.
    """
    return _run(lib.scatter_elements, data, indices, updates, axis, reduction, exclude_self,
                out_of_range, backend, out, context)


def rows(data, indices, updates, axis=0, reduction="none", exclude_self=False,
         out_of_range="error", backend="auto", out=None, context=None):
    """torch.index_add_ / Paddle scatter: slice p of updates goes to slice indices[p] on axis."""
    return _run(lib.scatter_rows, data, indices, updates, axis, reduction, exclude_self,
                out_of_range, backend, out, context)


def nd(data, indices, updates, axis=0, reduction="none", exclude_self=False,
       out_of_range="error", backend="auto", out=None, context=None):
    """ONNX ScatterND / tf.tensor_scatter_nd_*: indices[..., :k] address slices of data.

    axis is accepted for a uniform signature with elements/rows and must be 0.
    """
    return _run(lib.scatter_nd, data, indices, updates, axis, reduction, exclude_self,
                out_of_range, backend, out, context)
