"""numpy arrays as scatter_tensor views of the same memory (no copies)."""
import ctypes

import numpy as np

from ._context import DeviceArray, check_storable
from ._errors import TypeMismatchError, UnsupportedError
from ._library import MAX_RANK, Tensor

DTYPE_OPAQUE = 16

# numpy dtype name -> scatter_dtype value (scatter.h). bfloat16 exists when ml_dtypes is used.
_DTYPES = {
    "float16": 1, "bfloat16": 2, "float32": 3, "float64": 4,
    "int8": 5, "int16": 6, "int32": 7, "int64": 8,
    "uint8": 9, "uint16": 10, "uint32": 11, "uint64": 12,
    "bool": 13, "complex64": 14, "complex128": 15,
}
# Fixed-width byte strings, unicode strings and raw/structured records travel as opaque bytes.
_OPAQUE_KINDS = "SUV"
_TENSOR_SIZE = ctypes.sizeof(Tensor)
_addressof = ctypes.addressof
_char_from_buffer = ctypes.c_char.from_buffer


def scatter_dtype(dtype):
    """(scatter_dtype, element_size) for a numpy dtype."""
    check_storable(dtype)
    # By name first: ml_dtypes' bfloat16 has kind 'V' like raw records.
    code = _DTYPES.get(dtype.name)
    if code is not None:
        return code, 0
    if dtype.kind in _OPAQUE_KINDS:
        return DTYPE_OPAQUE, dtype.itemsize
    raise TypeMismatchError(f"numpy dtype {dtype} has no libscatter dtype")


# (scatter_dtype, element_size, itemsize) of each host dtype accepted before. The checks and
# `dtype.name` (2.4 us, numpy builds it in Python) were most of a small call's cost: 4 arrays a
# call, against a 10 us budget per call (docs/embedding.md, "The cost of a small call").
_HOST_DTYPES = {}


def _host_dtype(dtype, name):
    """(scatter_dtype, element_size, itemsize) of a numpy array's dtype, or the error it gets."""
    known = _HOST_DTYPES.get(dtype)
    if known is not None:
        return known
    # Opaque elements are copied as raw bytes, so their byte order does not matter.
    if dtype.kind not in _OPAQUE_KINDS and not dtype.isnative:
        raise UnsupportedError(
            f"{name} has byte-swapped dtype {dtype.str}; convert it first with "
            f"{name}.astype({name}.dtype.newbyteorder('='))")
    code, element_size = scatter_dtype(dtype)  # first: it refuses elements of 0 bytes
    known = (code, element_size, dtype.itemsize)
    if len(_HOST_DTYPES) < 256:  # records can be made without end; the common ones fit
        _HOST_DTYPES[dtype] = known
    return known


def tensor_of(array, name):
    """The Tensor describing a numpy array or a DeviceArray, or the error it gets. The Tensor
    keeps its shape and stride arrays alive (ctypes holds what a pointer field was given); the
    caller keeps `array` alive for the call."""
    if type(array) is not np.ndarray:
        if isinstance(array, DeviceArray):
            return _device_tensor(array)
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{name} must be a numpy array, not {type(array).__name__}")
    rank = array.ndim
    if rank > MAX_RANK:
        raise UnsupportedError(f"{name} has rank {rank}, more than {MAX_RANK}")
    code, element_size, itemsize = _host_dtype(array.dtype, name)
    flags = array.flags
    if flags.c_contiguous and flags.aligned:
        strides = None  # row-major (a size-1 dimension's stride is never used)
        if flags.writeable:
            # The address through the buffer protocol: 0.14 us, where __array_interface__
            # builds a dict (0.65 us, four times a call). Empty arrays have no buffer to take.
            try:
                address = _addressof(_char_from_buffer(array))
            except (ValueError, TypeError, BufferError):
                address = array.__array_interface__["data"][0]
            return Tensor(_TENSOR_SIZE, code, element_size, rank, (ctypes.c_int64 * (rank or 1))(*array.shape),
                          None, address, None, 0)
    else:
        if not flags.aligned or any(s % itemsize for s in array.strides):
            raise UnsupportedError(
                f"{name} is not aligned to its element size {itemsize}; pass an aligned copy: "
                f"{name}.copy() or np.require({name}, requirements='A')")
        strides = (ctypes.c_int64 * (rank or 1))(*[s // itemsize for s in array.strides])
    return Tensor(_TENSOR_SIZE, code, element_size, rank, (ctypes.c_int64 * (rank or 1))(*array.shape), strides,
                  array.__array_interface__["data"][0], None, 0)


def _device_tensor(array):
    code, element_size = scatter_dtype(array.dtype)
    rank = array.ndim
    return Tensor(
        struct_size=_TENSOR_SIZE, dtype=code, element_size=element_size, rank=rank,
        shape=(ctypes.c_int64 * max(rank, 1))(*array.shape), strides=None, data=None,
        buffer=array.buffer.handle, byte_offset=array.byte_offset)


class TensorView:
    """Holds the Tensor of `array` (tensor_of) and the array for the duration of a call."""

    __slots__ = ("array", "tensor")

    def __init__(self, array, name):
        self.tensor = tensor_of(array, name)
        self.array = array

    def pointer(self):
        return ctypes.byref(self.tensor)
