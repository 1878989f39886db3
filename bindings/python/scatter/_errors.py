"""Exceptions: one class per libscatter status, each a subclass of ScatterError and of the
builtin exception Python code would expect for that kind of failure (ValueError, TypeError,
IndexError, MemoryError, RuntimeError), so both `except scatter.ScatterError` and, say,
`except IndexError` catch an out-of-range index."""
import operator


class ScatterError(Exception):
    """A libscatter call failed. `status` is the status name, `message` the library's sentence."""

    status = "SCATTER_ERROR"

    def __init__(self, message, status=None):
        if status is not None:
            self.status = status
        self.message = message
        super().__init__(f"{self.status}: {message}")

    def __reduce__(self):
        # Pickled (Dask's worker processes, multiprocessing) with the library's sentence only, so
        # the copy's text is the original's, not the status named twice.
        return (type(self), (self.message, self.status))


def _status_class(class_name, status_name, builtin=None):
    bases = (ScatterError,) if builtin is None else (ScatterError, builtin)
    return type(class_name, bases, {"status": status_name, "__module__": "scatter"})


# One table: class name, status name, the builtin it also is.
InvalidArgumentError = _status_class("InvalidArgumentError", "SCATTER_ERROR_INVALID_ARGUMENT", ValueError)
TypeMismatchError = _status_class("TypeMismatchError", "SCATTER_ERROR_TYPE_MISMATCH", TypeError)
ShapeMismatchError = _status_class("ShapeMismatchError", "SCATTER_ERROR_SHAPE_MISMATCH", ValueError)
IndexOutOfRangeError = _status_class("IndexOutOfRangeError", "SCATTER_ERROR_INDEX_OUT_OF_RANGE", IndexError)
UnsupportedError = _status_class("UnsupportedError", "SCATTER_ERROR_UNSUPPORTED", RuntimeError)
OutOfMemoryError = _status_class("OutOfMemoryError", "SCATTER_ERROR_OUT_OF_MEMORY", MemoryError)
BackendUnavailableError = _status_class("BackendUnavailableError", "SCATTER_ERROR_BACKEND_UNAVAILABLE",
                                        RuntimeError)
DeviceLostError = _status_class("DeviceLostError", "SCATTER_ERROR_DEVICE_LOST", RuntimeError)
InternalError = _status_class("InternalError", "SCATTER_ERROR_INTERNAL", RuntimeError)

# Status values are pinned forever by the C header, so this table never needs to change order.
ERROR_CLASSES = {
    1: InvalidArgumentError,
    2: TypeMismatchError,
    3: ShapeMismatchError,
    4: IndexOutOfRangeError,
    5: UnsupportedError,
    6: OutOfMemoryError,
    7: BackendUnavailableError,
    8: DeviceLostError,
    9: InternalError,
}


def error_for_status(status, message):
    """The exception for a nonzero status (an unknown value becomes a plain ScatterError)."""
    cls = ERROR_CLASSES.get(status)
    if cls is None:
        return ScatterError(message, status=f"SCATTER_STATUS_UNKNOWN({status})")
    return cls(message)


_C_RANGES = {"int32": (-(1 << 31), (1 << 31) - 1), "uint32": (0, (1 << 32) - 1),
             "int64": (-(1 << 63), (1 << 63) - 1), "uint64": (0, (1 << 64) - 1)}


def c_integer(value, c_type, what):
    """`value` as a Python int that fits the C type named `c_type` ("int32", "uint64", ...).

    ctypes would silently keep only the low bits (axis=2**32+1 would run as axis 1), so a value
    outside the type's range raises InvalidArgumentError; a non-integer raises TypeError.
    """
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None
    low, high = _C_RANGES[c_type]
    if not low <= number <= high:
        raise InvalidArgumentError(f"{what} = {number} is outside the range [{low}, {high}] of its C type {c_type}_t")
    return number
