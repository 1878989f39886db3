"""libscatter for Python: scatter numpy arrays on the CPU or a Vulkan GPU (ctypes, no copies).

    import numpy as np, scatter
    out = scatter.elements(np.zeros(4, np.float32), np.array([1, 1, 3]),
                           np.ones(3, np.float32), reduction="add")   # [0, 2, 0, 1]
"""
from ._context import Buffer, Context, DeviceArray
from ._errors import (BackendUnavailableError, DeviceLostError, IndexOutOfRangeError,
                      InternalError, InvalidArgumentError, OutOfMemoryError, ScatterError,
                      ShapeMismatchError, TypeMismatchError, UnsupportedError)
from ._library import lib as _lib, library_path
from ._ops import OUT_OF_RANGE, REDUCTION_ALIASES, REDUCTIONS, elements, nd, rows

__version__ = _lib.scatter_version_string().decode()
library_version = __version__

__all__ = [
    "elements", "rows", "nd", "Context", "Buffer", "DeviceArray", "ScatterError", "InvalidArgumentError",
    "TypeMismatchError", "ShapeMismatchError", "IndexOutOfRangeError", "UnsupportedError",
    "OutOfMemoryError", "BackendUnavailableError", "DeviceLostError", "InternalError",
    "REDUCTIONS", "REDUCTION_ALIASES", "OUT_OF_RANGE", "library_path", "library_version",
]
