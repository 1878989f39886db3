"""The backward calls: the gradients of scatter.elements / rows / nd and of the gathers, as plain
functions (no autograd engine: the caller keeps the forward's tensors)."""
import ctypes
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ._context import Context, check
from ._errors import InvalidArgumentError, c_integer
from ._gather import GATHER_OUT_OF_RANGE
from ._library import GatherOptions, Options, lib
from ._ops import (_OPTION_EXCLUDE_SELF, OUT_OF_RANGE, REDUCTION_ALIASES, REDUCTIONS, _as_input,
                   _choice, context_for, data_argument, indices_argument)
from ._tensor import TensorView

# The reductions whose gradient reads the forward's result (docs/semantics.md, "Backward").
_READS_OUT = {"mul", "div", "max", "min"}


def _new_like(shape, array, torch_source):
    """A new array of `array`'s dtype and `shape`, returned as a torch tensor for torch input."""
    result = np.empty(tuple(shape), array.dtype)
    if torch_source is None:
        return result, result
    import torch  # present: the input is one of its tensors
    return result, torch.from_numpy(result)


def _input(value, name):
    array = _as_input(value, name)
    if array is None:
        array = np.asarray(value)
    return array


def _scatter_backward(c_function, data, indices, updates, grad_out, out, axis, reduction,
                      exclude_self, out_of_range, need_data, need_updates, backend, context):
    if not need_data and not need_updates:
        raise InvalidArgumentError("need_data and need_updates are both False: nothing to compute")
    data, torch_data = data_argument(data)
    indices = indices_argument(indices)
    updates = _input(updates, "updates")
    grad_out = _input(grad_out, "grad_out")
    name = REDUCTION_ALIASES.get(reduction, reduction)
    code = _choice(REDUCTIONS, reduction, "reduction", REDUCTION_ALIASES)
    if name in _READS_OUT and out is None:
        raise InvalidArgumentError(f"out (the forward's result) is required for the gradient of {name}")
    out = None if out is None else _input(out, "out")
    options = Options(struct_size=ctypes.sizeof(Options), axis=c_integer(axis, "int32", "axis"),
                      reduction=code,
                      out_of_range=_choice(OUT_OF_RANGE, out_of_range, "out_of_range"),
                      flags=_OPTION_EXCLUDE_SELF if exclude_self else 0)
    context = context_for(context, backend, (data, indices, updates, grad_out))
    grad_data, grad_data_result = _new_like(data.shape, data, torch_data) if need_data else (None, None)
    grad_updates, grad_updates_result = (_new_like(updates.shape, data, torch_data) if need_updates
                                         else (None, None))
    views = {n: (None if a is None else TensorView(a, n)) for n, a in
             (("data", data), ("indices", indices), ("updates", updates), ("out", out),
              ("grad_out", grad_out), ("grad_data", grad_data), ("grad_updates", grad_updates))}

    def pointer(n):
        return None if views[n] is None else views[n].pointer()

    check(c_function(context.handle, pointer("data"), pointer("indices"), pointer("updates"),
                     pointer("out"), pointer("grad_out"), ctypes.byref(options),
                     pointer("grad_data"), pointer("grad_updates")))
    return grad_data_result, grad_updates_result


def _gather_backward(c_function, indices, grad_out, data_shape, axis, batch_dims, out_of_range,
                     backend, context):
    grad_out, torch_grad = data_argument(grad_out)
    indices = indices_argument(indices)
    options = GatherOptions(
        struct_size=ctypes.sizeof(GatherOptions), axis=c_integer(axis, "int32", "axis"),
        batch_dims=c_integer(batch_dims, "uint32", "batch_dims"),
        out_of_range=_choice(GATHER_OUT_OF_RANGE, out_of_range, "out_of_range"), fill_value=None,
        flags=0)
    context = context_for(context, backend, (indices, grad_out))
    shape = tuple(c_integer(e, "int64", "data_shape") for e in data_shape)
    grad_data, result = _new_like(shape, grad_out, torch_grad)
    views = [TensorView(a, n) for a, n in ((indices, "indices"), (grad_out, "grad_out"),
                                          (grad_data, "grad_data"))]
    check(c_function(context.handle, views[0].pointer(), views[1].pointer(), ctypes.byref(options),
                     views[2].pointer()))
    return result


def elements_backward(data: Any, indices: Any, updates: Any, grad_out: Any, out: Optional[Any] = None,
                      axis: int = 0, reduction: str = "none", exclude_self: bool = False,
                      out_of_range: str = "error", need_data: bool = True, need_updates: bool = True,
                      backend: str = "auto", context: Optional[Context] = None) -> Tuple[Any, Any]:
    return _scatter_backward(lib.scatter_elements_backward, data, indices, updates, grad_out, out,
                             axis, reduction, exclude_self, out_of_range, need_data, need_updates,
                             backend, context)


def rows_backward(data: Any, indices: Any, updates: Any, grad_out: Any, out: Optional[Any] = None,
                  axis: int = 0, reduction: str = "none", exclude_self: bool = False,
                  out_of_range: str = "error", need_data: bool = True, need_updates: bool = True,
                  backend: str = "auto", context: Optional[Context] = None) -> Tuple[Any, Any]:
    return _scatter_backward(lib.scatter_rows_backward, data, indices, updates, grad_out, out,
                             axis, reduction, exclude_self, out_of_range, need_data, need_updates,
                             backend, context)


def nd_backward(data: Any, indices: Any, updates: Any, grad_out: Any, out: Optional[Any] = None,
                axis: int = 0, reduction: str = "none", exclude_self: bool = False,
                out_of_range: str = "error", need_data: bool = True, need_updates: bool = True,
                backend: str = "auto", context: Optional[Context] = None) -> Tuple[Any, Any]:
    return _scatter_backward(lib.scatter_nd_backward, data, indices, updates, grad_out, out,
                             axis, reduction, exclude_self, out_of_range, need_data, need_updates,
                             backend, context)


def gather_elements_backward(indices: Any, grad_out: Any, data_shape: Sequence[int], axis: int = 0,
                             out_of_range: str = "error", backend: str = "auto",
                             context: Optional[Context] = None) -> Any:
    return _gather_backward(lib.scatter_gather_elements_backward, indices, grad_out, data_shape,
                            axis, 0, out_of_range, backend, context)


def gather_rows_backward(indices: Any, grad_out: Any, data_shape: Sequence[int], axis: int = 0,
                         out_of_range: str = "error", backend: str = "auto",
                         context: Optional[Context] = None) -> Any:
    return _gather_backward(lib.scatter_gather_rows_backward, indices, grad_out, data_shape,
                            axis, 0, out_of_range, backend, context)


def gather_nd_backward(indices: Any, grad_out: Any, data_shape: Sequence[int], batch_dims: int = 0,
                       out_of_range: str = "error", backend: str = "auto",
                       context: Optional[Context] = None) -> Any:
    return _gather_backward(lib.scatter_gather_nd_backward, indices, grad_out, data_shape, 0,
                            batch_dims, out_of_range, backend, context)


_SCATTER_BACKWARD_DOC = """The gradients of :func:`{forward}` (``scatter_{forward}_backward``).

    Takes the forward call's arguments (``data`` as it was before the call: keep a copy after an
    in-place forward) and ``grad_out``, the gradient of the loss with respect to its result,
    of data's shape. ``out`` is the forward's result: required for ``mul``, ``div``, ``max`` and
    ``min``, ignored otherwise. Floating dtypes only (float16, bfloat16, float32, float64).

    The rules (docs/semantics.md, "Backward"): ``none`` sends each target's gradient to the
    update that won it (the last in row-major order) and none to data there; ``add``/``sub``
    send ``g``/``-g`` to every update; ``mean`` divides by the number of terms; ``max``/``min``
    split ``g`` evenly between the terms equal to the result; ``mul`` follows PyTorch's
    ``scatter_reduce(..., "prod")`` backward (zeros included); ``div`` is exact. Under
    ``exclude_self`` data gets 0 where an update landed. Skipped updates get 0.

    Returns
    -------
    (grad_data, grad_updates)
        New arrays (torch tensors for torch data) of data's and updates' shapes; ``None`` for one
        not asked for (``need_data`` / ``need_updates`` False).

    Raises
    ------
    ScatterError
        A subclass per status (also a ValueError, TypeError, IndexError, MemoryError or
        RuntimeError).
"""

elements_backward.__doc__ = _SCATTER_BACKWARD_DOC.format(forward="elements")
rows_backward.__doc__ = _SCATTER_BACKWARD_DOC.format(forward="rows")
nd_backward.__doc__ = _SCATTER_BACKWARD_DOC.format(forward="nd")

_GATHER_BACKWARD_DOC = """The gradient of :func:`gather_{op}` with respect to data.

    A scatter-add of ``grad_out`` (the forward's out shape) into zeros of ``data_shape``, in
    row-major order of the indices, so duplicates sum in a fixed order; with
    ``out_of_range="fill"`` a filled position contributes nothing. Takes the forward's indices
    and options; its data is not needed. Floating dtypes only.

    Returns
    -------
    numpy.ndarray or torch.Tensor
        grad_data, of ``data_shape`` and grad_out's dtype.
"""

gather_elements_backward.__doc__ = _GATHER_BACKWARD_DOC.format(op="elements")
gather_rows_backward.__doc__ = _GATHER_BACKWARD_DOC.format(op="rows")
gather_nd_backward.__doc__ = _GATHER_BACKWARD_DOC.format(op="nd")
