"""scatter.elements / rows / nd on numpy arrays, torch CPU tensors and other array objects."""
import ctypes
from ctypes import byref
import warnings
from typing import Any, Optional, Tuple

import numpy as np

from ._context import Context, DeviceArray, check, check_storable, default_context
from ._errors import InvalidArgumentError, TypeMismatchError, UnsupportedError, c_integer
from ._library import Options, lib
from ._tensor import tensor_of

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


def _is_torch_tensor(value) -> bool:
    # No import of torch: only a tensor that already exists can be one.
    return type(value).__module__.startswith("torch") and type(value).__name__ in ("Tensor", "Parameter")


def _torch_view(tensor, name):
    """The numpy array that shares a CPU torch tensor's memory."""
    if tensor.device.type != "cpu":
        raise UnsupportedError(f"{name} is a torch tensor on {tensor.device}; libscatter reads host "
                               f"memory here: pass {name}.cpu(), or use a scatter.Context buffer")
    try:
        return tensor.detach().numpy()
    except TypeError as e:  # bfloat16 and other dtypes numpy lacks
        raise TypeMismatchError(f"{name} has torch dtype {tensor.dtype}, which numpy cannot view: {e}") from None


def _as_input(value, name) -> np.ndarray:
    """An array for a read-only argument, sharing memory where the object allows it."""
    if isinstance(value, (np.ndarray, DeviceArray)):
        return value  # untouched: no copy, no cast
    if _is_torch_tensor(value):
        return _torch_view(value, name)
    if hasattr(value, "__dlpack__"):
        try:
            return np.from_dlpack(value)
        except (TypeError, RuntimeError, BufferError):
            pass  # not on the CPU or not viewable: __array__ below, or fail there
    if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
        return np.asarray(value)
    return None


def _exact_array(value, dtype: np.dtype, name: str) -> np.ndarray:
    """A Python scalar or (nested) list as an array of `dtype`, refused unless no value changes.

    Into integer and bool data every value must be that dtype's exactly (no truncated fraction,
    no wrap-around, no 2 becoming True); into float and complex data values are rounded to the
    nearest representable one, as numpy would, but may not overflow to infinity or drop a
    nonzero imaginary part.
    """
    if dtype.kind == "V":  # records: numpy builds them from tuples, field by field
        return np.asarray(value, dtype=dtype)
    natural = np.asarray(value)
    if dtype.kind in "SU":  # strings: the same kind, never cut to fit
        if natural.dtype.kind != dtype.kind or natural.dtype.itemsize > dtype.itemsize:
            raise TypeMismatchError(f"{name} {value!r} does not fit the data dtype {dtype} unchanged")
        return natural.astype(dtype)
    if natural.dtype.hasobject or natural.dtype.kind not in "biufc":
        raise TypeMismatchError(f"{name} {value!r} is not a number or a list of numbers")
    if natural.dtype == dtype:
        return natural
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        converted = natural.astype(dtype)
        if dtype.kind in "fc":
            lost = np.isfinite(natural) & ~np.isfinite(converted)
            if dtype.kind == "f" and natural.dtype.kind == "c":
                lost |= natural.imag != 0
        else:
            back = converted.astype(natural.dtype)
            lost = back != natural
            if natural.dtype.kind == "f":
                lost |= ~np.isfinite(natural)
    if np.any(lost):
        bad = natural[lost].flat[0] if natural.ndim else natural.item()
        how = "is out of the range of" if dtype.kind in "fc" else "does not convert exactly to"
        raise TypeMismatchError(f"{name} value {bad!r} {how} the data dtype {dtype}; "
                                f"pass an array of dtype {dtype} to convert it yourself")
    return converted


def _writable_out(out, name="out"):
    """(array to write, object to return) for `out`."""
    if isinstance(out, (np.ndarray, DeviceArray)):
        return out, out
    if _is_torch_tensor(out):
        return _torch_view(out, name), out
    raise TypeError("out must be a numpy array, a CPU torch tensor or a scatter.DeviceArray")


def data_argument(data) -> Tuple[Any, Any]:
    """(array, the torch tensor it views or None) for a `data` argument."""
    torch_data = data if _is_torch_tensor(data) else None
    array = _as_input(data, "data")
    if array is None:
        array = np.asarray(data)  # a list: a new array, numpy's natural dtype
    return array, torch_data


def indices_argument(indices):
    array = _as_input(indices, "indices")
    if array is None:
        array = _exact_array(indices, np.dtype(np.int64), "indices")
    return array


# The Options of each (axis, reduction, exclude_self, out_of_range) used before: building and
# checking one took 0.75 us of a small call's 10 us budget. The C call only reads it.
_OPTIONS = {}


def _options(axis, reduction, exclude_self, out_of_range):
    # Only exact ints and strs: 1.0 == 1 and True == 1 would otherwise find axis 1's Options,
    # where c_integer refuses 1.0.
    key = None
    if type(axis) is int and type(reduction) is str and type(out_of_range) is str:
        key = (axis, reduction, bool(exclude_self), out_of_range)
        options = _OPTIONS.get(key)
        if options is not None:
            return options
    options = Options(struct_size=ctypes.sizeof(Options), axis=c_integer(axis, "int32", "axis"),
                      reduction=_choice(REDUCTIONS, reduction, "reduction", REDUCTION_ALIASES),
                      out_of_range=_choice(OUT_OF_RANGE, out_of_range, "out_of_range"),
                      flags=_OPTION_EXCLUDE_SELF if exclude_self else 0)
    if key is not None and len(_OPTIONS) < 1024:
        _OPTIONS[key] = options
    return options


def check_storable_arguments(**arrays) -> None:
    # Checked first, before any rule that compares dtypes, so the message names the real problem.
    for name, array in arrays.items():
        if isinstance(array, (np.ndarray, DeviceArray)):
            check_storable(array.dtype, f"{name} dtype")


def context_for(context, backend, arrays):
    """The context given, or the one the device arrays among `arrays` name, or the shared one."""
    if context is None:
        # Device arrays name their context; host arrays use the shared one of `backend`.
        on_device = [a for a in arrays if isinstance(a, DeviceArray)]
        return on_device[0].context if on_device else default_context(backend)
    if not isinstance(context, Context):
        raise TypeError("context must be a scatter.Context")
    return context


def output_argument(out, data, torch_data, context, shape=None):
    """(array the library writes, object returned) for `out`. When None, a new one of data's
    dtype: of `shape`, or shaped and laid out like data without one."""
    if out is None:
        if isinstance(data, DeviceArray):
            out = context.empty(data.shape if shape is None else shape, data.dtype)
        else:
            out = np.empty_like(data) if shape is None else np.empty(shape, data.dtype)
        result = out
        if torch_data is not None:
            import torch  # present: data is one of its tensors
            result = torch.from_numpy(out)
        return out, result
    out, result = _writable_out(out)
    if isinstance(out, np.ndarray):
        if not out.flags.writeable:
            raise InvalidArgumentError("out is read-only")
        if data.dtype.kind in "SUV" and out.dtype != data.dtype:
            raise TypeMismatchError(f"out dtype {out.dtype} must equal data dtype {data.dtype}")
    return out, result


def _run(c_function, data, indices, updates, axis, reduction, exclude_self, out_of_range,
         backend, out, context):
    data, torch_data = data_argument(data)
    indices = indices_argument(indices)
    updates_array = _as_input(updates, "updates")
    if updates_array is None:
        updates_array = _exact_array(updates, data.dtype, "updates")
    updates = updates_array
    check_storable_arguments(data=data, indices=indices, updates=updates, out=out)
    options = _options(axis, reduction, exclude_self, out_of_range)
    context = context_for(context, backend, (data, indices, updates, out))
    # Opaque elements are compared as bytes by the library; '<U3' vs '>U3' must not mix.
    if data.dtype.kind in "SUV" and updates.dtype != data.dtype:
        raise TypeMismatchError(f"updates dtype {updates.dtype} must equal data dtype {data.dtype}")
    out, result = output_argument(out, data, torch_data, context)
    # (data, indices, updates and out stay referenced here until the call returns.)
    check(c_function(context.handle, byref(tensor_of(data, "data")), byref(tensor_of(indices, "indices")),
                     byref(tensor_of(updates, "updates")), byref(options), byref(tensor_of(out, "out"))))
    return result


_COMMON_PARAMETERS = """
    Parameters
    ----------
    data : array_like
        The tensor scattered into: a numpy array, a CPU ``torch.Tensor``, any object with
        ``__dlpack__`` or ``__array__`` (read without a copy where it allows), a
        :class:`DeviceArray`, or a list.
    indices : array_like of int32 or int64
        {indices}
        A list becomes int64; its values must be integers.
    updates : array_like
        {updates}
        Of data's dtype; a scalar or list converts only when no value changes (into integer
        and bool data exactly; into float data rounded to nearest, without overflow), otherwise
        :class:`TypeMismatchError`.
    axis : int
        {axis}
    reduction : str
        How an update combines with its target: ``"none"`` (replace), ``"add"``, ``"sub"``,
        ``"mul"``, ``"div"``, ``"max"``, ``"min"``, ``"mean"``; PyTorch's and ONNX's names
        ``"sum"``, ``"prod"``, ``"multiply"``, ``"amax"``, ``"amin"`` too. Several updates of
        one target are applied in row-major order of their position.
    exclude_self : bool
        Targets that receive updates start from the reduction's identity instead of data.
    out_of_range : {{"error", "skip", "clamp"}}
        An index outside ``[-s, s)`` fails the call (nothing written), is skipped, or is clamped.
    backend : {{"auto", "cpu", "vulkan"}}
        The shared context used when ``context`` is not given.
    out : array, optional
        Where the result goes (``out=data`` works in place). A new array of data's type when
        not given: a torch tensor for torch data, else a numpy array (a DeviceArray for one).
    context : Context, optional
        The context to run on.

    Returns
    -------
    numpy.ndarray, torch.Tensor or DeviceArray
        ``out``, holding data with the updates applied.

    Raises
    ------
    ScatterError
        A subclass per status (also a ValueError, TypeError, IndexError, MemoryError or
        RuntimeError); ``out`` and data are unchanged then.
"""


def elements(data: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none",
             exclude_self: bool = False, out_of_range: str = "error", backend: str = "auto",
             out: Optional[Any] = None, context: Optional[Context] = None) -> Any:
    return _run(lib.scatter_elements, data, indices, updates, axis, reduction, exclude_self,
                out_of_range, backend, out, context)


def rows(data: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none",
         exclude_self: bool = False, out_of_range: str = "error", backend: str = "auto",
         out: Optional[Any] = None, context: Optional[Context] = None) -> Any:
    return _run(lib.scatter_rows, data, indices, updates, axis, reduction, exclude_self,
                out_of_range, backend, out, context)


def nd(data: Any, indices: Any, updates: Any, axis: int = 0, reduction: str = "none",
       exclude_self: bool = False, out_of_range: str = "error", backend: str = "auto",
       out: Optional[Any] = None, context: Optional[Context] = None) -> Any:
    return _run(lib.scatter_nd, data, indices, updates, axis, reduction, exclude_self,
                out_of_range, backend, out, context)


elements.__doc__ = """Scatters element by element (ONNX ScatterElements, ``torch.scatter_reduce``).

    ``updates[p]`` goes to the element of data at ``p`` with ``p[axis]`` replaced by
    ``indices[p]``; indices and updates have data's rank.
""" + _COMMON_PARAMETERS.format(
    indices="Same shape as updates, at most data's extent off the axis.",
    updates="Same shape as indices.",
    axis="The dimension the indices address (negative counts from the end).")

rows.__doc__ = """Scatters whole slices along an axis (``torch.index_add_``, Paddle scatter).

    Slice ``p`` of updates (every position of data's other dimensions) goes to slice
    ``indices[p]`` of data along ``axis``.
""" + _COMMON_PARAMETERS.format(
    indices="Any shape q; updates' shape is data's with the axis dimension replaced by q.",
    updates="data.shape[:axis] + indices.shape + data.shape[axis + 1:].",
    axis="The dimension whose slices are addressed.")

nd.__doc__ = """Scatters slices addressed by index tuples (ONNX ScatterND, ``tf.tensor_scatter_nd_*``).

    ``indices[..., :k]`` addresses the first k dimensions of data; the slice there receives
    ``updates[...]``.
""" + _COMMON_PARAMETERS.format(
    indices="Shape batch + (k,), 1 <= k <= data.ndim.",
    updates="batch + data.shape[k:].",
    axis="Accepted for a signature uniform with elements and rows; must be 0.")
