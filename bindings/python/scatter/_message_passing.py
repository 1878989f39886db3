"""scatter.message_passing: out[dst[e]] (op)= x[src[e]] * weights[e] over the edges in order,
without building the edges x features tensor."""
import ctypes
from typing import Any, Optional

from ._context import Context, check
from ._gather import GATHER_OUT_OF_RANGE, _fill_element
from ._errors import InvalidArgumentError, TypeMismatchError
from ._library import MessagePassingOptions, lib
from ._ops import (OUT_OF_RANGE, REDUCTION_ALIASES, REDUCTIONS, _OPTION_EXCLUDE_SELF, _as_input, _choice,
                   _exact_array, check_storable_arguments, context_for, data_argument, indices_argument,
                   output_argument)
from ._tensor import TensorView


def _input_like(value, data, name):
    """x or weights: an array as given (never cast), or a list/scalar converted exactly to data's dtype."""
    array = _as_input(value, name)
    if array is None:
        array = _exact_array(value, data.dtype, name)
    if data.dtype.kind in "SUV" and array.dtype != data.dtype:
        raise TypeMismatchError(f"{name} dtype {array.dtype} must equal data dtype {data.dtype}")
    return array


def message_passing(data: Any, x: Any, src: Any, dst: Any, weights: Optional[Any] = None,
                    reduction: str = "add", exclude_self: bool = False, src_out_of_range: str = "error",
                    dst_out_of_range: str = "error", fill_value: Any = None, backend: str = "auto",
                    out: Optional[Any] = None, context: Optional[Context] = None) -> Any:
    data, torch_data = data_argument(data)
    x = _input_like(x, data, "x")
    src, dst = indices_argument(src), indices_argument(dst)
    weights = None if weights is None else _input_like(weights, data, "weights")
    check_storable_arguments(data=data, x=x, src=src, dst=dst, out=out)
    src_policy = _choice(GATHER_OUT_OF_RANGE, src_out_of_range, "src_out_of_range")
    if fill_value is not None and src_policy != GATHER_OUT_OF_RANGE["fill"]:
        raise InvalidArgumentError(f"fill_value is used only with src_out_of_range=\"fill\", "
                                   f"not {src_out_of_range!r}")
    fill = None if fill_value is None else _fill_element(fill_value, data.dtype)
    options = MessagePassingOptions(
        struct_size=ctypes.sizeof(MessagePassingOptions),
        reduction=_choice(REDUCTIONS, reduction, "reduction", REDUCTION_ALIASES),
        src_out_of_range=src_policy,
        dst_out_of_range=_choice(OUT_OF_RANGE, dst_out_of_range, "dst_out_of_range"),
        fill_value=None if fill is None else fill.ctypes.data,
        flags=_OPTION_EXCLUDE_SELF if exclude_self else 0)
    context = context_for(context, backend, (data, x, src, dst, weights, out))
    out, result = output_argument(out, data, torch_data, context)
    views = [TensorView(a, n) for a, n in ((data, "data"), (x, "x"), (src, "src"), (dst, "dst"), (out, "out"))]
    w = None if weights is None else TensorView(weights, "weights")
    check(lib.scatter_message_passing(context.handle, views[0].pointer(), views[1].pointer(), views[2].pointer(),
                                      views[3].pointer(), None if w is None else w.pointer(),
                                      ctypes.byref(options), views[4].pointer()))
    return result


message_passing.__doc__ = """Fused message passing, rows form (PyG ``MessagePassing``,
    ``torch_scatter.scatter(x[src] * w[:, None], dst)``, ``out.index_add_(0, dst, x[src])``).

    ``out = data``, then for every edge ``e`` in order: ``out[dst[e]] (op)= x[src[e]] * weights[e]``.
    Bitwise the same as ``rows(data, dst, gather_rows(x, src) * weights[:, None], ...)`` with the
    library's multiply, but the ``[E, F...]`` messages are never built: extra memory is O(M).

    Parameters
    ----------
    data : array_like
        ``[M, F...]``, rank >= 1: the values the targets start from (zeros for a plain sum).
    x : array_like
        ``[N, F...]``: the source rows, of data's dtype (a list converts exactly).
    src, dst : array_like of int32 or int64
        ``[E]`` each: edge ``e`` sends row ``src[e]`` of x to row ``dst[e]`` of out. Negative
        indices count from the back. A list becomes int64.
    weights : array_like, optional
        ``[E]`` of data's dtype: message ``e`` is multiplied by ``weights[e]`` (16-bit floats in
        f32, rounded once; integers wrap). Without it nothing is multiplied.
    reduction : str
        ``"add"`` (default), ``"mean"``, ``"max"``, ``"min"``, ``"none"`` (the last edge wins),
        ``"sub"``, ``"mul"``, ``"div"``; PyTorch's ``"sum"``, ``"prod"``, ``"amax"``, ``"amin"``.
    exclude_self : bool
        Rows that receive messages start from the reduction's identity instead of data.
    src_out_of_range : {"error", "clamp", "fill"}
        A src index outside ``[-N, N)`` fails the call, is clamped, or sends ``fill_value``.
    dst_out_of_range : {"error", "skip", "clamp"}
        A dst index outside ``[-M, M)`` fails the call, drops the edge, or is clamped.
    fill_value : scalar, optional
        With ``src_out_of_range="fill"`` only: the message of such an edge (default zero).
    backend : {"auto", "cpu", "vulkan"}
        The shared context used when ``context`` is not given. Message passing runs on the CPU
        backend in this version: ``"auto"`` routes it there, a Vulkan context raises UnsupportedError.
    out : array, optional
        Where the result goes (``out=data`` works in place; out must not overlap x, src, dst or
        weights). A new array of data's type when not given.
    context : Context, optional
        The context to run on.

    Returns
    -------
    numpy.ndarray, torch.Tensor or DeviceArray
        ``out``.

    Raises
    ------
    ScatterError
        A subclass per status (also a ValueError, TypeError, IndexError, MemoryError or
        RuntimeError); ``out`` and data are unchanged then.
"""
