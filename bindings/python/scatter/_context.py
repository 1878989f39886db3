"""Context: which backend, device and thread count the operations run on."""
import ctypes
import logging
import math
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


def check_storable(dtype: np.dtype, what: str = "numpy dtype") -> None:
    """Refuses a dtype whose elements are not plain bytes of a nonzero size; `what` names it."""
    # A record with an object field would otherwise pass as opaque bytes: raw PyObject pointers,
    # copied without their reference counts.
    if dtype.hasobject:
        raise TypeMismatchError(f"{what} {dtype} holds Python objects, which have no bytes to scatter")
    # 'V0', 'S0', 'U0' and empty records: nothing to scatter, and strides in bytes cannot be
    # counted in elements of 0 bytes.
    if dtype.itemsize == 0:
        raise TypeMismatchError(f"{what} {dtype} has elements of 0 bytes, and an element needs at least 1")


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
        self._native = None
        self._log = _log_function(log)  # kept alive as long as the context
        flags = (0 if deterministic else _FLAG_ALLOW_NONDETERMINISM) | (_FLAG_VALIDATION if validation else 0)
        desc = ContextDesc(struct_size=ctypes.sizeof(ContextDesc), backend=backend_code(backend),
                           device_index=c_integer(device, "int32", "device"),
                           thread_count=c_integer(threads, "uint32", "threads"), flags=flags,
                           log=ctypes.cast(self._log, ctypes.c_void_p) if self._log else None)
        handle = ctypes.c_void_p()
        check(lib.scatter_context_create(ctypes.byref(desc), ctypes.byref(handle)))
        self._native = _NativeHandles(handle)

    @property
    def handle(self) -> ctypes.c_void_p:
        """The C handle (scatter_context); raises InvalidArgumentError once closed."""
        handle = self._native.context if self._native is not None else None
        if handle is None:
            raise InvalidArgumentError("the context was closed")
        return handle

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
        check_storable(dtype)
        shape = tuple(c_integer(d, "int64", "shape[%d]" % i) for i, d in enumerate(shape))
        # Python integers: numpy's int64 product would wrap silently on a huge shape.
        return DeviceArray(Buffer(self, math.prod(shape) * dtype.itemsize), shape, dtype)

    def close(self) -> None:
        """Destroys the context, first destroying the buffers still open on it (their Buffer
        objects then refuse every call)."""
        if self._native is not None:
            self._native.close()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class _NativeHandles:
    """The C handles of one context and of the buffers still alive on it.

    The library reads a buffer's context when destroying the buffer, so the context must be
    destroyed last. A Context and its Buffers may die together in one reference cycle, where
    the collector runs their finalizers in any order after clearing every weak reference to
    them. So this object, shared by the context and its buffers, keeps the buffers' C handles
    themselves (not the Buffer objects, and no weak reference), and whichever finalizer runs
    first does the right thing: a buffer destroys its own handle; the context destroys every
    buffer handle left, then its own. Each handle is taken out with one dict.pop/popitem or list.pop, atomic under the
    GIL, so a handle is destroyed exactly once even when a close() races a finalizer.
    """

    def __init__(self, context_handle):
        self._context = [context_handle]
        self._buffers = {}  # buffer handle value -> its ctypes handle

    @property
    def context(self):
        """The context's ctypes handle, or None once destroyed."""
        try:
            return self._context[0]
        except IndexError:
            return None

    def add_buffer(self, handle) -> None:
        self._buffers[handle.value] = handle

    def has_buffer(self, handle) -> bool:
        return handle.value in self._buffers

    def destroy_buffer(self, handle) -> None:
        if self._buffers.pop(handle.value, None) is not None:
            lib.scatter_buffer_destroy(handle)

    def close(self) -> None:
        while True:
            try:
                _, buffer = self._buffers.popitem()
            except KeyError:
                break
            lib.scatter_buffer_destroy(buffer)
        try:
            context = self._context.pop()
        except IndexError:
            return
        lib.scatter_context_destroy(context)


class Buffer:
    """Memory owned by a context; read and written as bytes from numpy arrays.

    A buffer keeps its context alive; closing the context destroys the buffer too.
    """

    def __init__(self, context, size):
        self._handle = None
        size = c_integer(size, "uint64", "size")
        native = context._native
        handle = ctypes.c_void_p()
        check(lib.scatter_buffer_create(context.handle, size, ctypes.byref(handle)))
        self.context = context  # keeps the context alive while the buffer exists
        self._native = native
        native.add_buffer(handle)
        self._handle = handle

    @property
    def handle(self) -> ctypes.c_void_p:
        """The C handle (scatter_buffer); raises InvalidArgumentError once the buffer or its
        context was closed."""
        handle = self._handle
        if handle is None or not self._native.has_buffer(handle):
            raise InvalidArgumentError("the buffer was closed (by close() or by closing its context)")
        return handle

    @property
    def size(self) -> int:
        """The buffer's size in bytes."""
        return lib.scatter_buffer_size(self.handle)

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
        check(lib.scatter_buffer_write(self.handle, offset, array.ctypes.data, array.nbytes))

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
        check(lib.scatter_buffer_read(self.handle, offset, array.ctypes.data, array.nbytes))

    def close(self) -> None:
        """Frees the buffer (also done when it is garbage collected or its context closes)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            self._native.destroy_buffer(handle)

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
        check_storable(self.dtype)
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
