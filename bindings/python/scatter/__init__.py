"""libscatter for Python: scatter numpy arrays (and CPU torch tensors) on the CPU or a Vulkan GPU.

Installed as the distribution ``libscatter``, imported as ``scatter``::

    import numpy as np, scatter
    out = scatter.elements(np.zeros(4, np.float32), np.array([1, 1, 3]),
                           np.ones(3, np.float32), reduction="add")   # [0, 2, 0, 1]

Functions: :func:`elements`, :func:`rows`, :func:`nd` (the three operations), their mirrors
:func:`gather_elements`, :func:`gather_rows`, :func:`gather_nd` (``torch.gather`` /
``numpy.take_along_axis``, ``torch.index_select`` / ``numpy.take``, ``tf.gather_nd``),
:func:`message_passing` (gather, scale and scatter-reduce along graph edges in one pass), the
gradients of all six (:func:`elements_backward`, :func:`rows_backward`, :func:`nd_backward`,
:func:`gather_elements_backward`, :func:`gather_rows_backward`, :func:`gather_nd_backward`) and
:func:`devices`; :mod:`scatter.dask` runs the three operations on Dask arrays, bitwise equal
to one call (it imports Dask; ``import scatter`` does not). Classes: :class:`Context` (backend,
device, threads, log hook), :class:`Buffer`
and :class:`DeviceArray` (memory owned by a context). Every failure raises a subclass of
:class:`ScatterError` that is also the matching builtin (``IndexOutOfRangeError`` is an
``IndexError``, ``TypeMismatchError`` a ``TypeError``, ...).
"""
from ._backward import (elements_backward, gather_elements_backward, gather_nd_backward,
                        gather_rows_backward, nd_backward, rows_backward)
from ._context import Buffer, Context, DeviceArray
from ._devices import Device, devices
from ._errors import (BackendUnavailableError, DeviceLostError, IndexOutOfRangeError,
                      InternalError, InvalidArgumentError, OutOfMemoryError, ScatterError,
                      ShapeMismatchError, TypeMismatchError, UnsupportedError)
from ._gather import GATHER_OUT_OF_RANGE, gather_elements, gather_nd, gather_rows
from ._library import lib as _lib, library_path
from ._message_passing import message_passing
from ._ops import OUT_OF_RANGE, REDUCTION_ALIASES, REDUCTIONS, elements, nd, rows

__version__: str = _lib.scatter_version_string().decode()
library_version: str = __version__

__all__ = [
    "elements", "rows", "nd", "gather_elements", "gather_rows", "gather_nd", "message_passing",
    "elements_backward", "rows_backward", "nd_backward", "gather_elements_backward", "gather_rows_backward",
    "gather_nd_backward", "devices", "Device", "Context",
    "Buffer", "DeviceArray", "ScatterError",
    "InvalidArgumentError", "TypeMismatchError", "ShapeMismatchError", "IndexOutOfRangeError",
    "UnsupportedError", "OutOfMemoryError", "BackendUnavailableError", "DeviceLostError", "InternalError",
    "REDUCTIONS", "REDUCTION_ALIASES", "OUT_OF_RANGE", "GATHER_OUT_OF_RANGE", "library_path", "library_version",
]
