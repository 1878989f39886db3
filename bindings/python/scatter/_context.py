"""Context: which backend, device and thread count the operations run on."""
import ctypes
import logging
import math
import weakref
from typing import Callable, Optional, Sequence, Union

import numpy as np

from ._errors import InvalidArgumentError, TypeMismatchError, c_integer, error_for_status
from ._library import ContextDesc, LogFunction, lib

BACKENDS = {"auto": 0, "cpu": 1, "vulkan": 2}
_FLAG_ALLOW_NONDETERMINISM = 0x1
_FLAG_VALIDATION = 0x2
# scatter_log_level -> name and the logging module's level.
_LOG_LEVELS = {0: ("debug", logging.DEBUG), 1: ("info", logging.INFO), 2: ("warning", logging.WARNING),
               3: ("error", logging.ERROR)}

LogHandler = Callable[[str, str], None]


def check(status):
    """Raises the exception of a nonzero status with the calling thread's last-error message."""
    if status != 0:
        raise error_for_status(status, lib.scatter_last_error_message().decode("utf-8", "replace"))


def backend_code(backend):
    try:
        return BACKENDS[backend]
    except KeyError:
        raise InvalidArgumentError(
            f"backend {backend!r} is not one of {', '.join(BACKENDS)}") from None


def _log_function(log: Union[None, str, LogHandler]):
    """The C callback for Context(log=...), or None."""
    if log is None:
        return None
    if log == "logging":
        logger = logging.getLogger("scatter")

        def handler(level: str, message: str) -> None:
            logger.log(getattr(logging, level.upper()), "%s", message)
    elif callable(log):
        handler = log
    else:
        raise TypeError("log must be None, \"logging\" or a callable(level, message)")

    def trampoline(_user, level, message):
        # An exception must not unwind into the library's thread: report it and go on.
        try:
            handler(_LOG_LEVELS.get(level, ("error", 0))[0], message.decode("utf-8", "replace"))
        except Exception:  # noqa: BLE001 - any handler error, reported by the logging module
            logging.getLogger("scatter").exception("the scatter log handler raised")
    return LogFunction(trampoline)


class Context:
    """A libscatter context. One context may be used from several threads at once.

    Parameters
    ----------
    backend : {"auto", "cpu", "vulkan"}
        Where operations run. ``"auto"`` takes a usable GPU when there is one and routes each
        call on host arrays to the CPU or the GPU by a cost model.
    threads : int
        CPU threads (0: one per hardware thread).
    device : int
        Vulkan device index from :func:`scatter.devices` (-1: chosen automatically).
    deterministic : bool
        False allows faster paths whose float results may depend on the order in which
        duplicate indices are applied.
    log : None, "logging" or callable
        Where the library's log lines go: nowhere (None), Python's ``logging`` module under the
        logger ``"scatter"`` (``"logging"``), or ``log(level, message)`` with level one of
        ``"debug"``, ``"info"``, ``"warning"``, ``"error"``. It may be called from any thread
        that uses the context; an exception it raises is logged, never propagated.
    validation : bool
        Vulkan: enable the validation layer when installed (its messages go to ``log``).

    Raises
    ------
    BackendUnavailableError
        The backend (or device) asked for is not there.
    InvalidArgumentError
        A parameter is out of range.
    """

    def __init__(self, backend: str = "auto", threads: int = 0, device: int = -1,
                 deterministic: bool = True, log: Union[None, str, LogHandler] = None,
                 validation: bool = False) -> None:
        self._handle = None
        self._buffers: "weakref.WeakSet[Buffer]" = weakref.WeakSet()
        self._log = _log_function(log)  # kept alive as long as the context
        flags = (0 if deterministic else _FLAG_ALLOW_NONDETERMINISM) | (_FLAG_VALIDATION if validation else 0)
        desc = ContextDesc(struct_size=ctypes.sizeof(ContextDesc), backend=backend_code(backend),
                           device_index=c_integer(device, "int32", "device"),
                           thread_count=c_integer(threads, "uint32", "threads"), flags=flags,
                           log=ctypes.cast(self._log, ctypes.c_void_p) if self._log else None)
        handle = ctypes.c_void_p()
        check(lib.scatter_context_create(ctypes.byref(desc), ctypes.byref(handle)))
        self._handle = handle

    @property
    def handle(self) -> ctypes.c_void_p:
        """The C handle (scatter_context); raises InvalidArgumentError once closed."""
        if self._handle is None:
            raise InvalidArgumentError("the context was closed")
        return self._handle

    @property
    def backend(self) -> str:
        """The backend the context runs on: "cpu" or "vulkan"."""
        code = ctypes.c_int32()
        check(lib.scatter_context_backend(self.handle, ctypes.byref(code)))
        return lib.scatter_backend_name(code.value).decode()

    def buffer(self, size: int) -> "Buffer":
        """A zero-filled buffer owned by this context (device memory on Vulkan).

        Parameters
        ----------
        size : int
            Bytes.

        Returns
        -------
        Buffer
        """
        return Buffer(self, size)

    def to_device(self, array: np.ndarray) -> "DeviceArray":
        """Copies an array into a new buffer of this context.

        Parameters
        ----------
        array : numpy.ndarray
            Copied in row-major order.

        Returns
        -------
        DeviceArray
            The copy, with the array's shape and dtype.
        """
        array = np.ascontiguousarray(array)
        buffer = Buffer(self, array.nbytes)
        buffer.write(array)
        return DeviceArray(buffer, array.shape, array.dtype)

    def empty(self, shape: Sequence[int], dtype: "np.typing.DTypeLike") -> "DeviceArray":
        """A zero-filled array in a new buffer of this context.

        Parameters
        ----------
        shape : sequence of int
        dtype : numpy dtype
            Any dtype the operations take (not one holding Python objects).

        Returns
        -------
        DeviceArray
        """
        dtype = np.dtype(dtype)
        if dtype.hasobject:
            raise TypeMismatchError(f"dtype {dtype} holds Python objects, which have no bytes to scatter")
        shape = tuple(c_integer(d, "int64", "shape[%d]" % i) for i, d in enumerate(shape))
        # Python integers: numpy's int64 product would wrap silently on a huge shape.
        return DeviceArray(Buffer(self, math.prod(shape) * dtype.itemsize), shape, dtype)

    def close(self) -> None:
        """Destroys the context, first destroying the buffers still open on it."""
        if self._handle is not None:
            for buffer in list(self._buffers):
                buffer.close()
            lib.scatter_context_destroy(self._handle)
            self._handle = None

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class Buffer:
    """Memory owned by a context; read and written as bytes from numpy arrays."""

    def __init__(self, context, size):
        self._handle = None
        size = c_integer(size, "uint64", "size")
        handle = ctypes.c_void_p()
        check(lib.scatter_buffer_create(context.handle, size, ctypes.byref(handle)))
        self.context = context  # keeps the context alive while the buffer exists
        self._handle = handle
        context._buffers.add(self)

    @property
    def size(self) -> int:
        """The buffer's size in bytes."""
        return lib.scatter_buffer_size(self._handle)

    def write(self, array: np.ndarray, offset: int = 0) -> None:
        """Copies an array's bytes into the buffer.

        Parameters
        ----------
        array : numpy.ndarray
            C-contiguous.
        offset : int
            Byte offset in the buffer; the bytes must fit.

        Raises
        ------
        InvalidArgumentError
            The array is not C-contiguous or does not fit.
        """
        if not array.flags.c_contiguous:
            raise InvalidArgumentError("Buffer.write needs a C-contiguous array")
        offset = c_integer(offset, "uint64", "offset")
        check(lib.scatter_buffer_write(self._handle, offset, array.ctypes.data, array.nbytes))

    def read(self, array: np.ndarray, offset: int = 0) -> None:
        """Fills an array with the buffer's bytes.

        Parameters
        ----------
        array : numpy.ndarray
            C-contiguous and writeable; receives ``array.nbytes`` bytes.
        offset : int
            Byte offset in the buffer.

        Raises
        ------
        InvalidArgumentError
            The array is not writeable and C-contiguous, or the range is outside the buffer.
        """
        if not array.flags.c_contiguous or not array.flags.writeable:
            raise InvalidArgumentError("Buffer.read needs a writeable C-contiguous array")
        offset = c_integer(offset, "uint64", "offset")
        check(lib.scatter_buffer_read(self._handle, offset, array.ctypes.data, array.nbytes))

    def close(self) -> None:
        """Frees the buffer (also done when it is garbage collected or its context closes)."""
        if self._handle is not None:
            lib.scatter_buffer_destroy(self._handle)
            self._handle = None

    def __del__(self):
        self.close()


class DeviceArray:
    """A contiguous row-major array that lives in a Buffer, at `byte_offset`.

    Pass it as data, indices, updates or out of an operation on the buffer's context: the
    operation then runs on the buffer without a round trip through host memory.
    """

    def __init__(self, buffer, shape, dtype, byte_offset=0):
        self.buffer = buffer
        self.shape = tuple(c_integer(d, "int64", "shape[%d]" % i) for i, d in enumerate(shape))
        self.dtype = np.dtype(dtype)
        if self.dtype.hasobject:
            raise TypeMismatchError(f"dtype {self.dtype} holds Python objects, which have no bytes to scatter")
        self.byte_offset = c_integer(byte_offset, "uint64", "byte_offset")
        self.ndim = len(self.shape)
        self.nbytes = math.prod(self.shape) * self.dtype.itemsize
        if byte_offset + self.nbytes > buffer.size:
            raise InvalidArgumentError(
                f"a {self.nbytes}-byte array at offset {byte_offset} does not fit in a "
                f"{buffer.size}-byte buffer")

    @property
    def context(self) -> Context:
        """The context whose buffer holds the array."""
        return self.buffer.context

    def numpy(self) -> np.ndarray:
        """A host copy of the array.

        Returns
        -------
        numpy.ndarray
        """
        host = np.empty(self.shape, self.dtype)
        self.buffer.read(host, self.byte_offset)
        return host


_default_contexts = {}


def default_context(backend):
    """One shared context per backend name, created on first use."""
    backend_code(backend)
    if backend not in _default_contexts:
        _default_contexts[backend] = Context(backend=backend)
    return _default_contexts[backend]
