"""Exceptions: one class per libscatter status, all subclasses of ScatterError."""


class ScatterError(Exception):
    """A libscatter call failed. `status` is the status name, `message` the library's sentence."""

    status = "SCATTER_ERROR"

    def __init__(self, message, status=None):
        if status is not None:
            self.status = status
        self.message = message
        super().__init__(f"{self.status}: {message}")


def _status_class(class_name, status_name):
    return type(class_name, (ScatterError,), {"status": status_name, "__module__": "scatter"})


InvalidArgumentError = _status_class("InvalidArgumentError", "SCATTER_ERROR_INVALID_ARGUMENT")
TypeMismatchError = _status_class("TypeMismatchError", "SCATTER_ERROR_TYPE_MISMATCH")
ShapeMismatchError = _status_class("ShapeMismatchError", "SCATTER_ERROR_SHAPE_MISMATCH")
IndexOutOfRangeError = _status_class("IndexOutOfRangeError", "SCATTER_ERROR_INDEX_OUT_OF_RANGE")
UnsupportedError = _status_class("UnsupportedError", "SCATTER_ERROR_UNSUPPORTED")
OutOfMemoryError = _status_class("OutOfMemoryError", "SCATTER_ERROR_OUT_OF_MEMORY")
BackendUnavailableError = _status_class("BackendUnavailableError",
                                        "SCATTER_ERROR_BACKEND_UNAVAILABLE")
DeviceLostError = _status_class("DeviceLostError", "SCATTER_ERROR_DEVICE_LOST")
InternalError = _status_class("InternalError", "SCATTER_ERROR_INTERNAL")

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
