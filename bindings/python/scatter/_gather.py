"""scatter.gather_elements / gather_rows / gather_nd: the mirror of the three operations."""
import ctypes
from typing import Any, Optional

import numpy as np

from ._context import Context, DeviceArray, check
from ._errors import InvalidArgumentError, TypeMismatchError, c_integer
from ._library import MAX_RANK, GatherOptions, lib
from ._ops import (_as_input, _choice, _exact_array, check_storable_arguments, context_for,
                   data_argument, indices_argument, output_argument)
from ._tensor import TensorView

# scatter_out_of_range values a gather takes (scatter.h): SKIP is scatter's alone.
GATHER_OUT_OF_RANGE = {"error": 1, "clamp": 3, "fill": 4}


def gather_shape(op: str, data_shape, indices_shape, axis: int, batch_dims: int):
    """out's shape by the rules of docs/semantics.md ("Gather"), or None where the rules give
    none: the library then refuses the call before it looks at out."""
    r, q = len(data_shape), len(indices_shape)
    if op == "elements":
        return tuple(indices_shape)
    if op == "rows":
        if not -r <= axis < r:
            return None
        a = axis % r
        shape = tuple(data_shape[:a]) + tuple(indices_shape) + tuple(data_shape[a + 1:])
        return shape if len(shape) <= MAX_RANK else None
    if q == 0 or batch_dims >= min(r, q):
        return None
    depth = indices_shape[-1]
    if not 1 <= depth <= r - batch_dims:
        return None
    return tuple(indices_shape[:-1]) + tuple(data_shape[batch_dims + depth:])


def _fill_element(fill_value, dtype: np.dtype) -> np.ndarray:
    """fill_value as one element of `dtype` in memory of its own (a 0-d array)."""
    if isinstance(fill_value, (np.generic, bool, int, float, complex, str, bytes, tuple, list)):
        value = _exact_array(fill_value, dtype, "fill_value")
    else:
        value = _as_input(fill_value, "fill_value")
        if value is None:
            raise TypeError(f"fill_value must be a scalar or a one-element array, not "
                            f"{type(fill_value).__name__}")
        if isinstance(value, DeviceArray):
            value = value.numpy()
        if value.dtype != dtype:  # arrays are never cast, as updates are not
            raise TypeMismatchError(f"fill_value dtype {value.dtype} must equal data dtype {dtype}")
    if value.size != 1:
        raise InvalidArgumentError(f"fill_value has {value.size} elements; it must be one value")
    return np.array(value.reshape(()), dtype=dtype, copy=True)


def _gather(op, c_function, data, indices, axis, batch_dims, out_of_range, fill_value, backend,
            out, context):
    data, torch_data = data_argument(data)
    indices = indices_argument(indices)
    check_storable_arguments(data=data, indices=indices, out=out)
    policy = _choice(GATHER_OUT_OF_RANGE, out_of_range, "out_of_range")
    if fill_value is not None and policy != GATHER_OUT_OF_RANGE["fill"]:
        raise InvalidArgumentError(f"fill_value is used only with out_of_range=\"fill\", "
                                   f"not {out_of_range!r}")
    fill = None if fill_value is None else _fill_element(fill_value, data.dtype)
    options = GatherOptions(
        struct_size=ctypes.sizeof(GatherOptions), axis=c_integer(axis, "int32", "axis"),
        batch_dims=c_integer(batch_dims, "uint32", "batch_dims"), out_of_range=policy,
        fill_value=None if fill is None else fill.ctypes.data, flags=0)
    context = context_for(context, backend, (data, indices, out))
    shape = gather_shape(op, data.shape, indices.shape, options.axis, options.batch_dims)
    if shape is None and out is None:
        # No out shape follows from these arguments: the library refuses them (naming what is
        # wrong) before it looks at this placeholder, which is never returned.
        out = np.empty(0, data.dtype)
    out, result = output_argument(out, data, torch_data, context, shape)
    views = [TensorView(a, n) for a, n in ((data, "data"), (indices, "indices"), (out, "out"))]
    check(c_function(context.handle, views[0].pointer(), views[1].pointer(), ctypes.byref(options),
                     views[2].pointer()))
    return result


_GATHER_PARAMETERS = """
    Parameters
    ----------
    data : array_like
        The tensor read: a numpy array, a CPU ``torch.Tensor``, any object with ``__dlpack__``
        or ``__array__`` (read without a copy where it allows), a :class:`DeviceArray` of a CPU
        context, or a list. Any dtype, strings and records included (copied as bytes).
    indices : array_like of int32 or int64
        {indices} Negative indices count from the back. A list becomes int64; its values must
        be integers.
    {position}
    out_of_range : {{"error", "clamp", "fill"}}
        An index outside ``[-s, s)`` fails the call (nothing written), is clamped into
        ``[0, s-1]`` (an index into a dimension of size 0 then fails), or gives ``fill_value``
        {fill_what}.
    fill_value : scalar, optional
        With ``out_of_range="fill"`` only: the value of out-of-range results (default zero
        bytes). A Python or numpy scalar converts only when its value does not change (as
        scatter's list updates); a one-element array must have data's dtype.
    backend : {{"auto", "cpu", "vulkan"}}
        The shared context used when ``context`` is not given. Gathers run on the CPU backend
        in this version: ``"auto"`` routes them there, a Vulkan context raises UnsupportedError.
    out : array, optional
        Where the result goes: data's dtype and the shape above, any strides, memory of its own
        (not overlapping data or indices). A new array when not given: a torch tensor for torch
        data, a DeviceArray for a DeviceArray, else a numpy array.
    context : Context, optional
        The context to run on.

    Returns
    -------
    numpy.ndarray, torch.Tensor or DeviceArray
        ``out``, holding the gathered elements.

    Raises
    ------
    ScatterError
        A subclass per status (also a ValueError, TypeError, IndexError, MemoryError or
        RuntimeError); ``out`` is unchanged then.
"""

_AXIS = """axis : int
        The dimension the indices address, in ``[-data.ndim, data.ndim)``."""


def gather_elements(data: Any, indices: Any, axis: int = 0, out_of_range: str = "error",
                    fill_value: Any = None, backend: str = "auto", out: Optional[Any] = None,
                    context: Optional[Context] = None) -> Any:
    return _gather("elements", lib.scatter_gather_elements, data, indices, axis, 0, out_of_range,
                   fill_value, backend, out, context)


def gather_rows(data: Any, indices: Any, axis: int = 0, out_of_range: str = "error",
                fill_value: Any = None, backend: str = "auto", out: Optional[Any] = None,
                context: Optional[Context] = None) -> Any:
    return _gather("rows", lib.scatter_gather_rows, data, indices, axis, 0, out_of_range,
                   fill_value, backend, out, context)


def gather_nd(data: Any, indices: Any, batch_dims: int = 0, out_of_range: str = "error",
              fill_value: Any = None, backend: str = "auto", out: Optional[Any] = None,
              context: Optional[Context] = None) -> Any:
    return _gather("nd", lib.scatter_gather_nd, data, indices, 0, batch_dims, out_of_range,
                   fill_value, backend, out, context)


gather_elements.__doc__ = """Gathers element by element (ONNX GatherElements, ``torch.gather``,
    ``numpy.take_along_axis``).

    ``out[p] = data[p with p[axis] replaced by indices[p]]``; out has indices' shape.
""" + _GATHER_PARAMETERS.format(
    indices="data's rank; off the axis at most data's extent.",
    position=_AXIS, fill_what="for that element")

gather_rows.__doc__ = """Gathers whole slices along an axis (ONNX Gather, ``torch.index_select``,
    ``numpy.take``, ``tf.gather``).

    out's shape is ``data.shape[:axis] + indices.shape + data.shape[axis + 1:]``; the slice of
    out at index position ``p`` is slice ``indices[p]`` of data along ``axis``.
""" + _GATHER_PARAMETERS.format(
    indices="Any shape, 0-d included (the axis then disappears, as numpy.take with a scalar).",
    position=_AXIS, fill_what="for the whole slice")

gather_nd.__doc__ = """Gathers slices addressed by index tuples (ONNX GatherND, ``tf.gather_nd``).

    With ``b = batch_dims`` and ``k = indices.shape[-1]``: out's shape is
    ``indices.shape[:-1] + data.shape[b + k:]``; at index position ``p`` the k coordinates
    ``indices[p]`` address dimensions ``b .. b+k-1`` of batch ``p[:b]`` of data.
""" + _GATHER_PARAMETERS.format(
    indices="Shape ``data.shape[:b] + batch + (k,)``, 1 <= k <= data.ndim - b.",
    position="""batch_dims : int
        b: the leading dimensions data and indices share, less than both their ranks.""",
    fill_what="for the whole slice when any coordinate is out of range")
